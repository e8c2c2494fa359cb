"""Writes large listening histories for `bench/listening.sh`: an Apple Music Play Activity CSV
and a Spotify Extended Streaming History of N rows each, in the real formats (Apple's
alphabetical columns with account fields, pauses split into two PLAY_END rows, a fifth of end
timestamps missing; Spotify's `ts` at the stream's end). Deterministic for a given seed."""
import json
import random
import sys
from datetime import datetime, timedelta, timezone

COLUMNS = [
    "Album Name", "Apple ID Number", "Apple Music Subscription", "Auto Play", "Build Version",
    "Client IP Address", "Container Album Name", "Container Artist Name", "Container Origin Type",
    "Container Type", "Device Identifier", "End Position In Milliseconds", "End Reason Type",
    "Event End Timestamp", "Event Reason Hint Type", "Event Start Timestamp", "Event Type",
    "Feature Name", "Item Type", "Media Duration In Milliseconds", "Media Type", "Offline",
    "Play Duration Milliseconds", "Repeat Play", "Shuffle Play", "Song Name", "Source Type",
    "Start Position In Milliseconds", "UTC Offset In Seconds", "User\u2019s Audio Quality",
    "User\u2019s Playback Format",
]
WORDS = "blue night river dream fire glass heart light morning neon paper quiet road silver storm winter".split()


def iso(t, ms=True):
    s = t.strftime("%Y-%m-%dT%H:%M:%S")
    return s + (".%03dZ" % (t.microsecond // 1000) if ms else "Z")


def csv_field(text):
    if any(c in text for c in ',"\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def main():
    rows, out_csv, out_json = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    rng = random.Random(7)
    songs = []
    for i in range(5000):
        title = " ".join(rng.choice(WORDS).title() for _ in range(rng.randint(1, 4)))
        artist = " ".join(rng.choice(WORDS).title() for _ in range(2))
        album = rng.choice(WORDS).title()
        songs.append((f"{title} {i}", artist, album, rng.randint(120_000, 360_000), f"spotify:track:{i:022d}"))
    t = datetime(2015, 1, 1, tzinfo=timezone.utc)
    with open(out_csv, "w", encoding="utf-8") as f:
        f.write(",".join(csv_field(c) for c in COLUMNS) + "\n")
        written = 0
        while written < rows:
            title, artist, album, duration, _ = rng.choice(songs)
            played = duration if rng.random() < 0.6 else rng.randint(1000, duration)
            reason = "NATURAL_END_OF_TRACK" if played == duration else "TRACK_SKIPPED_FORWARDS"
            pieces = [(0, played, reason)]
            if rng.random() < 0.1 and played > 20_000:
                cut = played // 2
                pieces = [(0, cut, "PLAYBACK_MANUALLY_PAUSED"), (cut, played, reason)]
            start = t
            for a, b, why in pieces:
                end = start + timedelta(milliseconds=b - a)
                fields = [
                    album, "20938475612", "true", "AUTO_OFF", "iOS-16.1-20B82", "203.0.113.47", album, "",
                    "LIBRARY", "ALBUM", "4C2F0E9A7B3D4F1E9A8B7C6D5E4F3A2B1C0D9E8F", str(b), why,
                    iso(end) if rng.random() > 0.2 else "", "USER", iso(start), "PLAY_END", "library / songs",
                    "ITUNES_STORE_CONTENT", str(duration), "AUDIO", "false", str(b - a), "REPEAT_OFF",
                    "SHUFFLE_OFF", title, "ORIGINATING_DEVICE", str(a), "-25200", "HIGH_QUALITY", "AAC",
                ]
                f.write(",".join(csv_field(x) for x in fields) + "\n")
                written += 1
                start = end + timedelta(seconds=rng.randint(5, 600))
            t = start + timedelta(seconds=rng.randint(1, 3600))
    t = datetime(2015, 1, 1, tzinfo=timezone.utc)
    with open(out_json, "w", encoding="utf-8") as f:
        f.write("[\n")
        for i in range(rows):
            title, artist, album, duration, uri = rng.choice(songs)
            played = duration if rng.random() < 0.6 else rng.randint(0, duration)
            t += timedelta(milliseconds=played + rng.randint(1000, 3_600_000))
            entry = {
                "ts": iso(t, ms=False), "username": "jane.listener.1991", "platform": "ios",
                "ms_played": played, "conn_country": "US", "ip_addr": "203.0.113.47",
                "master_metadata_track_name": title, "master_metadata_album_artist_name": artist,
                "master_metadata_album_album_name": album, "spotify_track_uri": uri,
                "episode_name": None, "episode_show_name": None, "spotify_episode_uri": None,
                "reason_start": "trackdone", "reason_end": "trackdone" if played == duration else "fwdbtn",
                "shuffle": False, "skipped": played < duration, "offline": False,
                "offline_timestamp": int(t.timestamp()), "incognito_mode": False,
            }
            f.write("  " + json.dumps(entry) + (",\n" if i < rows - 1 else "\n"))
        f.write("]\n")


if __name__ == "__main__":
    main()
