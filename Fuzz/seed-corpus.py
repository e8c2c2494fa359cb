#!/usr/bin/env python3
"""Writes the fuzz harnesses' seed inputs into CORPUS/<Harness>/seed-*: the test fixtures,
small real-shaped cuts of the committed sample (Datasets/sample), and the zips and gzip
streams the archive harnesses start from. Run from the project's root; standard library only.

Seeds are small (at most ~20 KB): libFuzzer mutates small inputs faster, and what a reader
does with the millionth line it does with the tenth. Writing them again only overwrites them.

usage: Fuzz/seed-corpus.py CORPUS
"""

import gzip
import io
import json
import pathlib
import sys
import zipfile

FIXTURES = pathlib.Path("Tests/Fixtures")
SAMPLE = pathlib.Path("Datasets/sample")
LIMIT = 16 * 1024


def head_lines(data: bytes, lines: int, limit: int = LIMIT) -> bytes:
    """The first `lines` lines of `data`, fewer when they pass `limit` bytes."""
    out = b""
    for line in data.splitlines(keepends=True)[:lines]:
        if len(out) + len(line) > limit and out:
            break
        out += line
    return out


def sample_member(archive: str, suffix: str) -> bytes:
    """The member of a sample zip whose name ends with `suffix` (nested zips entered)."""
    def find(zip_file: zipfile.ZipFile) -> bytes | None:
        for name in zip_file.namelist():
            if name.endswith(suffix):
                return zip_file.read(name)
            if name.endswith(".zip"):
                found = find(zipfile.ZipFile(io.BytesIO(zip_file.read(name))))
                if found is not None:
                    return found
        return None

    found = find(zipfile.ZipFile(SAMPLE / archive))
    if found is None:
        sys.exit(f"error: no member ending in {suffix!r} in {SAMPLE / archive}")
    return found


def sample_trace(folder: str) -> bytes:
    """The first recording of a kind in the sample, inflated."""
    return gzip.decompress(sorted((SAMPLE / "resonance" / folder).glob("*.jsonl.gz"))[0].read_bytes())


def health_digest(export: bytes, limit: int = 20 * 1024) -> bytes:
    """The sample export's prolog (its DTD, `ExportDate`, `Me`), then the first top-level
    element of each kind and type (a Record with its metadata or beat list, a Workout with its
    events and route, a Correlation, an ActivitySummary), closed again."""
    lines = export.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith(b" <Record"))
    out = b"".join(lines[:start])
    seen: set[bytes] = set()
    block: list[bytes] = []

    def flush() -> None:
        nonlocal out
        if not block:
            return
        head = block[0].split(b" ", 3)
        key = b" ".join(head[:3]) if block[0].startswith(b" <Record") else head[1]
        text = b"".join(block)
        if key not in seen and len(out) + len(text) < limit:
            seen.add(key)
            out += text

    for line in lines[start:]:
        if line.startswith(b" <") and not line.startswith(b" </"):
            flush()
            block = []
        if line.startswith(b"</HealthData"):
            break
        block.append(line)
    flush()
    return out + b"</HealthData>\n"


def json_head(data: bytes, count: int) -> bytes:
    """The first `count` objects of a JSON array, written as Apple and Spotify write them."""
    return json.dumps(json.loads(data)[:count], indent=2, ensure_ascii=False).encode()


class Unseekable(io.RawIOBase):
    """A stream zipfile cannot seek: it then writes data descriptors after each member, as
    streaming zip writers (and some exporters) do."""

    def __init__(self) -> None:
        self.buffer = io.BytesIO()

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        return self.buffer.write(data)


def make_zip(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED,
             streamed: bool = False) -> bytes:
    out = Unseekable() if streamed else io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, data in members.items():
            if streamed:
                with archive.open(zipfile.ZipInfo(name, (2022, 6, 1, 7, 0, 0)), "w") as member:
                    member.write(data)
            else:
                archive.writestr(zipfile.ZipInfo(name, (2022, 6, 1, 7, 0, 0)), data, method)
    return (out.buffer if streamed else out).getvalue()


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    corpus = pathlib.Path(sys.argv[1])
    listening = FIXTURES / "listening"
    health = FIXTURES / "health"
    seeds: dict[str, dict[str, bytes]] = {}

    def add(harness: str, name: str, data: bytes) -> None:
        seeds.setdefault(harness, {})["seed-" + name] = data

    def fixture(harness: str, path: pathlib.Path) -> None:
        add(harness, path.name, path.read_bytes())

    # Apple Health: the fixtures, and the sample export cut after its first records (its DTD
    # and the first records of each kind), closed again.
    for path in sorted(health.glob("*.xml")):
        fixture("HealthXML", path)
    add("HealthXML", "sample-export.xml",
        health_digest(sample_member("export.zip", "apple_health_export/export.xml")))

    # Apple Music.
    for path in sorted(listening.glob("play-activity-*.csv")):
        fixture("PlayActivity", path)
    add("PlayActivity", "sample-play-activity.csv",
        head_lines(sample_member("Apple_Media_Services.zip", "Play Activity.csv"), 20))
    fixture("AppleMusicHistory", listening / "daily-tracks.csv")
    add("AppleMusicHistory", "sample-daily-tracks.csv",
        head_lines(sample_member("Apple_Media_Services.zip", "Daily Tracks.csv"), 30))
    add("AppleMusicHistory", "track-play-history.csv",
        b"Track Name,Last Played Date,Is User Initiated\n"
        b"Lumen Drift - Paper Lanterns,1600000000000,true\n"
        b"\"Signal & Noise - Quiet Engine, Live\",1600000300000,false\n")
    fixture("LibraryTracks", listening / "library-tracks.json")
    add("LibraryTracks", "sample-library-tracks.json",
        json_head(sample_member("Apple_Media_Services.zip", "Library Tracks.json"), 6))
    fixture("MusicLibrary", listening / "Library.xml")

    # Documents built against the XML configuration (docs/reliability.md, "One XML
    # configuration"): declared entities however hidden, external references, a deep nest.
    laughs = b'<!ENTITY l0 "lol">' + b"".join(
        b'<!ENTITY l%d "%s">' % (i, (b"&l%d;" % (i - 1)) * 10) for i in range(1, 10))
    hostile = {
        "laughs": b'<!DOCTYPE HealthData [' + laughs + b']>\n<HealthData><Record sourceName="&l9;"/></HealthData>\n',
        "behind-pi": b'<?x <!DOCTYPE y [ ]> ?>\n<!DOCTYPE HealthData [' + laughs + b']>\n<HealthData>&l9;</HealthData>\n',
        "behind-comment": b'<!-- <!DOCTYPE y [ ]> -->\n<!DOCTYPE HealthData [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<HealthData>&x;</HealthData>\n',
        "parameter": b'<!DOCTYPE HealthData [<!ENTITY % p SYSTEM "http://127.0.0.1:9/p">%p;]>\n<HealthData/>\n',
        "external-dtd": b'<!DOCTYPE HealthData SYSTEM "file:///etc/passwd">\n<HealthData/>\n',
        "deep": b"<HealthData>" + b"<a>" * 300 + b"</a>" * 300 + b"</HealthData>\n",
    }
    for name, body in hostile.items():
        add("HealthXML", name + ".xml", b'<?xml version="1.0" encoding="UTF-8"?>\n' + body)
        add("MusicLibrary", name + ".xml", b'<?xml version="1.0" encoding="UTF-8"?>\n'
            + body.replace(b"HealthData", b"plist"))

    # Spotify and Last.fm.
    fixture("SpotifyExtended", listening / "spotify-extended.json")
    add("SpotifyExtended", "sample-streaming-history.json",
        json_head(sample_member("my_spotify_data.zip", ".json"), 8))
    fixture("SpotifyAccount", listening / "StreamingHistory_music_0.json")
    for path in sorted(listening.glob("lastfm*.csv")):
        fixture("LastFM", path)

    # ListenBrainz: the export's months (JSON Lines) and the older JSON array.
    listenbrainz = listening / "listenbrainz"
    for path in sorted((listenbrainz / "listens").rglob("*.jsonl")):
        add("ListenBrainz", f"{path.parent.name}-{path.name}", path.read_bytes())
    fixture("ListenBrainz", listening / "listenbrainz-export.json")

    # The apps' recordings: the fixture decision log, and the sample's first lines of each.
    fixture("DecisionLog", listening / "decisions.jsonl")
    add("DecisionLog", "sample-decisions.jsonl", head_lines(sample_trace("decisions"), 3))
    add("WatchTrace", "sample-watch.jsonl", head_lines(sample_trace("watch"), 40))
    add("MacContext", "sample-mac.jsonl", head_lines(sample_trace("mac"), 20))
    add("Mood", "sample-mood.jsonl", head_lines(sample_trace("mood"), 20))
    add("Breathing", "sample-breathing.jsonl", head_lines(sample_trace("breathing"), 120))

    # RR intervals: the fixtures (one per line), and the same series as each other layout the
    # reader knows.
    for path in sorted((FIXTURES / "hrv").glob("*.txt")):
        fixture("RRFile", path)
    rr = [int(line) for line in (FIXTURES / "hrv" / "rr-synthetic.txt").read_text().split()][:40]
    add("RRFile", "array.json", json.dumps(rr).encode())
    add("RRFile", "object.json", json.dumps({"RR (ms)": rr, "device": "Polar H10"}).encode())
    add("RRFile", "columns.csv",
        ("time,RR (ms)\n" + "".join(f"{i},{v}\n" for i, v in enumerate(rr))).encode())
    add("RRFile", "semicolons.csv",
        ("\"rr\";\"hr\"\n" + "".join(f"{v};{60000 // v}\n" for v in rr)).encode())
    add("RRFile", "seconds.txt", "".join(f"{v / 1000:.3f}\r\n" for v in rr).encode())

    # Archives: what the exports come as, each small.
    health_zip = make_zip({
        "apple_health_export/export.xml": (health / "quirks.xml").read_bytes(),
        "apple_health_export/export_cda.xml": b"<?xml version=\"1.0\"?><ClinicalDocument/>\n",
        "apple_health_export/workout-routes/route_2022-06-04_9.36am.gpx": b"<gpx/>\n",
    })
    media = {
        "Apple_Media_Services/Apple Music Activity/Apple Music Play Activity.csv":
            (listening / "play-activity-quirks.csv").read_bytes(),
        "Apple_Media_Services/Apple Music Activity/Apple Music - Play History Daily Tracks.csv":
            (listening / "daily-tracks.csv").read_bytes(),
    }
    library_zip = make_zip({"Apple Music Library Tracks.json":
                            (listening / "library-tracks.json").read_bytes()})
    archives = {
        "export.zip": health_zip,
        "media-stored.zip": make_zip(media, zipfile.ZIP_STORED),
        "media-nested.zip": make_zip({
            "Apple_Media_Services.zip": make_zip({
                **media,
                "Apple_Media_Services/Apple Music Activity/Apple Music Library Tracks.json.zip":
                    library_zip,
            }),
            "__MACOSX/._Apple_Media_Services.zip": b"\x00\x05\x16\x07",
        }),
        "spotify-streamed.zip": make_zip({
            "Spotify Extended Streaming History/Streaming_History_Audio_2022_0.json":
                (listening / "spotify-extended.json").read_bytes(),
            "Spotify Extended Streaming History/ReadMeFirst.pdf": b"%PDF-1.4\n",
        }, streamed=True),
        "stored-streamed.zip": make_zip({"lastfm.csv": (listening / "lastfm.csv").read_bytes()},
                                        zipfile.ZIP_STORED, streamed=True),
        "listenbrainz.zip": make_zip({
            name: (listenbrainz / name).read_bytes()
            for name in ("user.json", "listens/2024/3.jsonl", "listens/2024/4.jsonl",
                         "feedback.jsonl")
        }),
        "mood.jsonl.gz": gzip.compress(head_lines(sample_trace("mood"), 8), mtime=0),
        "lastfm.csv.gz": gzip.compress((listening / "lastfm.csv").read_bytes(), mtime=0),
        "export.zip.gz": gzip.compress(health_zip, mtime=0),
        "two-members.gz": gzip.compress(b"{\"format\":\"resonance.mood\",\"version\":1}\n", mtime=0)
        + gzip.compress(b"{\"t\":\"2022-06-01T18:32:45.374Z\",\"offset\":0,\"device\":\"watch\"}\n",
                        mtime=0),
    }
    for harness in ("ArchiveFile", "ArchivePipe"):
        for name, data in archives.items():
            add(harness, name, data)

    # Titles built to break a format (the list HostileTitleReportTests renders), as the report
    # writer's inputs and inside every listening format, beside the values the readers must
    # refuse or mend: a title of the wrong type, a NUL, a yes/no as a string.
    titles = [
        "Line\r\nBreak", "Only\rCR", "Tab\there", "Para\u2029graph",
        "<script>alert(1)</script>", "<iframe src=https://example.invalid>",
        "[x](javascript:alert(1))", "![i](file:///etc/passwd)", "Esc\x1b[31mRed", "Bell\x07",
        '=HYPERLINK("http://example.invalid")', "+1+1", "-2+3", "@SUM(A1)", "Pipe | in | title",
        "Back\\slash\\", 'Quote "q"', "Comma, here", "&amp; &lt;b&gt;", "**bold** `code`",
        "<!-- /output -->", "```", "Emoji \U0001F3B5", "Before\x00After",
    ]
    for i, title in enumerate(titles):
        text = title.encode("utf-8")
        add("ReportText", f"title-{i:02}", text)
        quoted = json.dumps(title).encode()
        add("SpotifyExtended", f"title-{i:02}.json",
            b'[{"ts":"2024-03-11T18:03:20Z","ms_played":200000,"master_metadata_track_name":'
            + quoted + b',"skipped":"true","shuffle":"false"}]')
        add("SpotifyAccount", f"title-{i:02}.json",
            b'[{"endTime":"2023-04-01 18:22","artistName":' + quoted + b',"trackName":'
            + quoted + b',"msPlayed":9000}]')
        add("LibraryTracks", f"title-{i:02}.json",
            b'[{"Track Identifier":1,"Title":' + quoted + b',"Content Type":"Song"}]')
        add("LastFM", f"title-{i:02}.csv",
            b'"A","B","' + title.replace('"', '""').encode("utf-8") + b'","11 Mar 2024 18:03"\n')
        add("ListenBrainz", f"title-{i:02}.jsonl",
            b'{"listened_at":1710180000,"track_metadata":{"track_name":' + quoted
            + b',"artist_name":' + quoted + b'}}\n')
    for name, value in {"number": b"42", "array": b'["x"]', "object": b'{"a":1}',
                        "bool": b"true"}.items():
        add("SpotifyExtended", f"title-{name}.json",
            b'[{"ts":"2024-03-11T18:03:20Z","ms_played":1,"master_metadata_track_name":'
            + value + b'}]')
        add("LibraryTracks", f"title-{name}.json",
            b'[{"Track Identifier":1,"Title":' + value + b',"Content Type":"Song"}]')

    for harness, files in sorted(seeds.items()):
        folder = corpus / harness
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (folder / name).write_bytes(data)
        print(f"{harness}: {len(files)} seeds, {sum(map(len, files.values()))} bytes")


if __name__ == "__main__":
    main()
