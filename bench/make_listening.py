"""Writes large listening histories for `bench/listening.sh`: an Apple Music Play Activity CSV
and a Spotify Extended Streaming History of N rows each, in the real formats (Apple's
alphabetical columns with account fields, pauses split into two PLAY_END rows, a fifth of end
timestamps missing; Spotify's `ts` at the stream's end). Deterministic for a given seed.

Built for speed without changing a byte of output: times are integer milliseconds since the
Unix epoch, formatted from a per-day date cache and a per-second clock table; every per-song
piece of a row (CSV-quoted, or JSON-encoded as json.dumps writes it) is built once, so a row is
one f-string; and random draws go straight to getrandbits the way Random.choice and
Random.randint draw, in the same order, so the rows are the ones the straightforward version
(datetime arithmetic, csv_field and json.dumps per row) wrote."""
import json
import random
import sys
from datetime import datetime, timezone

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
START_MS = int(datetime(2015, 1, 1, tzinfo=timezone.utc).timestamp()) * 1000
DAY_MS = 86_400_000
_days = {}
_CLOCK = [f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}" for s in range(86_400)]


def drawer(rng):
    """`below(n)`: a uniform integer in [0, n), drawn exactly as CPython's `Random._randbelow`
    (the fewest bits that hold n, redrawn while out of range), so `choice(seq)` is
    `seq[below(len(seq))]` and `randint(a, b)` is `a + below(b - a + 1)`, without their
    per-call checks."""
    bits = rng.getrandbits

    def below(n):
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r

    return below


def iso(ms, with_ms=True):
    """`YYYY-MM-DDTHH:MM:SS[.mmm]Z` for integer milliseconds since the epoch (UTC)."""
    day, rest = divmod(ms, DAY_MS)
    date = _days.get(day)
    if date is None:
        date = _days[day] = datetime.fromtimestamp(day * 86_400, timezone.utc).strftime("%Y-%m-%dT")
    sec, milli = divmod(rest, 1000)
    if with_ms:
        return f"{date}{_CLOCK[sec]}.{milli:03d}Z"
    return f"{date}{_CLOCK[sec]}Z"


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

    # Per song: the CSV row's text before End Position, and the text from Media Duration to
    # Song Name's end; the rest of the row is numbers, reasons and timestamps (never quoted).
    csv_songs = []
    for title, artist, album, duration, _ in songs:
        a = csv_field(album)
        head = f"{a},20938475612,true,AUTO_OFF,iOS-16.1-20B82,203.0.113.47,{a},,LIBRARY,ALBUM,4C2F0E9A7B3D4F1E9A8B7C6D5E4F3A2B1C0D9E8F,"
        csv_songs.append((head, f",PLAY_END,library / songs,ITUNES_STORE_CONTENT,{duration},AUDIO,false,", f",REPEAT_OFF,SHUFFLE_OFF,{csv_field(title)},ORIGINATING_DEVICE,", duration))
    rand, below = rng.random, drawer(rng)
    n_songs = len(songs)
    t = START_MS
    with open(out_csv, "w", encoding="utf-8") as f:
        write = f.write
        write(",".join(csv_field(c) for c in COLUMNS) + "\n")
        written = 0
        while written < rows:
            head, mid, tail, duration = csv_songs[below(n_songs)]
            played = duration if rand() < 0.6 else 1000 + below(duration - 999)
            reason = "NATURAL_END_OF_TRACK" if played == duration else "TRACK_SKIPPED_FORWARDS"
            pieces = [(0, played, reason)]
            if rand() < 0.1 and played > 20_000:
                cut = played // 2
                pieces = [(0, cut, "PLAYBACK_MANUALLY_PAUSED"), (cut, played, reason)]
            start = t
            for a, b, why in pieces:
                end = start + (b - a)
                end_text = iso(end) if rand() > 0.2 else ""
                write(f"{head}{b},{why},{end_text},USER,{iso(start)}{mid}{b - a}{tail}{a},-25200,HIGH_QUALITY,AAC\n")
                written += 1
                start = end + (5 + below(596)) * 1000
            t = start + (1 + below(3600)) * 1000

    # Per song: the JSON entry's text between ms_played and reason_end, as json.dumps writes it.
    dumps = json.dumps
    json_songs = []
    for title, artist, album, duration, uri in songs:
        middle = (
            f', "conn_country": "US", "ip_addr": "203.0.113.47", "master_metadata_track_name": {dumps(title)}, '
            f'"master_metadata_album_artist_name": {dumps(artist)}, "master_metadata_album_album_name": {dumps(album)}, '
            f'"spotify_track_uri": {dumps(uri)}, "episode_name": null, "episode_show_name": null, '
            f'"spotify_episode_uri": null, "reason_start": "trackdone", "reason_end": '
        )
        json_songs.append((middle, duration))
    t = START_MS
    with open(out_json, "w", encoding="utf-8") as f:
        write = f.write
        write("[\n")
        for i in range(rows):
            middle, duration = json_songs[below(n_songs)]
            played = duration if rand() < 0.6 else below(duration + 1)
            t += played + 1000 + below(3_599_001)
            ending = '"trackdone", "shuffle": false, "skipped": false' if played == duration else '"fwdbtn", "shuffle": false, "skipped": true'
            write(
                f'  {{"ts": "{iso(t, False)}", "username": "jane.listener.1991", "platform": "ios", '
                f'"ms_played": {played}{middle}{ending}, "offline": false, '
                f'"offline_timestamp": {t // 1000}, "incognito_mode": false}}'
                + (",\n" if i < rows - 1 else "\n")
            )
        write("]\n")


if __name__ == "__main__":
    main()
