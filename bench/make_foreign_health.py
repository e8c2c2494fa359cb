#!/usr/bin/env python3
"""Writes a large Apple Health `export.xml` for `bench/ingest.sh`, written independently of
`resonance synth` (issue 16: the import measured 0.89-0.98x `xmllint --stream` on an export
from another generator, while it met 1.2x on synth's). It follows the real format as described
in docs from the field (shared/notes/healthkit-export.md) and the public fixtures, not synth's
code:

- the XML declaration and Apple's internal DTD (HealthKit Export Version 14), `HealthData
  locale="en_US"`, `ExportDate`, `Me`;
- Records grouped by type, then by source, then by date, as Health writes them; the escaped
  `device="&lt;&lt;HKDevice: 0x…&gt;, name:…&gt;"` string on every record, its address new on
  each record; `sourceName` with a curly apostrophe (`Jane’s Apple Watch`), `sourceVersion`
  following the OS updates; dates `YYYY-MM-DD HH:MM:SS -0800` in the zone lived in (Pacific
  time with its DST changes, and a trip to New York and to London every year);
- heart rate every few minutes (every few seconds during workouts), steps and distance from the
  Watch and the iPhone, active and basal energy in `Cal`, flights, exercise and stand time,
  stand hours, audio exposure, walking metrics, SpO2, respiratory rate, resting and walking HR,
  VO2 max, wrist temperature, body measures from Withings (with its real metadata keys, two of
  them identifying), sleep stages (iOS 16 stages from its release on, `Asleep` before) and the
  iPhone's `InBed`, mindful sessions;
- HRV SDNN records, every one with a `HeartRateVariabilityMetadataList` of
  `InstantaneousBeatsPerMinute` in the en_US 12-hour format (`6:14:48.94 PM`);
- Workouts (Watch ones with MetadataEntry, WorkoutEvent, WorkoutActivity, WorkoutStatistics and
  a WorkoutRoute with its FileReference, and no totals as recent exports write them; Strava rides
  with the legacy totals), then one ActivitySummary per day.

Two mixes (`--mix`): `typical`, metadata where Health writes it (heart rate's motion context,
sleep's time zone, VO2 max's test type, Withings' keys) — about a third of records; and
`metadata-heavy`, several entries on nearly every record as third-party sync apps write them
(HKTimeZone, HKWasUserEntered, sync identifiers and versions, HKExternalUUID, the sync app's
own keys), some of whose values are identifiers the importer must drop.

The file is written streaming, in 1 MB pieces. Its length is aimed at `--bytes`: the number of
days is estimated from a sample of days first, so the file ends within a few percent of it.
Deterministic for a given seed, mix and size. The counts of what was written (records per type,
records with metadata, metadata entries and how many of them are identifying, beats, workouts
and their parts, summaries) go to a JSON file beside the export and to standard error.

Usage: make_foreign_health.py --out PATH [--mix typical|metadata-heavy] [--bytes N] [--seed N]
"""
import argparse
import bisect
import json
import random
import sys
import time
from datetime import date, datetime, timedelta, timezone

DTD = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 14 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth                 CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex               CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType                   CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ATTLIST Correlation
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics|WorkoutActivity)*)>
<!ATTLIST Workout
  workoutActivityType   CDATA #REQUIRED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
  totalDistance         CDATA #IMPLIED
  totalDistanceUnit     CDATA #IMPLIED
  totalEnergyBurned     CDATA #IMPLIED
  totalEnergyBurnedUnit CDATA #IMPLIED
  sourceName            CDATA #REQUIRED
  sourceVersion         CDATA #IMPLIED
  device                CDATA #IMPLIED
  creationDate          CDATA #IMPLIED
  startDate             CDATA #REQUIRED
  endDate               CDATA #REQUIRED
>
<!ELEMENT WorkoutActivity ((MetadataEntry|WorkoutEvent|WorkoutStatistics)*)>
<!ATTLIST WorkoutActivity
  uuid                  CDATA #REQUIRED
  startDate             CDATA #REQUIRED
  endDate               CDATA #IMPLIED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
>
<!ELEMENT WorkoutEvent (MetadataEntry?)>
<!ATTLIST WorkoutEvent
  type                  CDATA #REQUIRED
  date                  CDATA #REQUIRED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
>
<!ELEMENT WorkoutStatistics EMPTY>
<!ATTLIST WorkoutStatistics
  type                  CDATA #REQUIRED
  startDate             CDATA #REQUIRED
  endDate               CDATA #REQUIRED
  average               CDATA #IMPLIED
  minimum               CDATA #IMPLIED
  maximum               CDATA #IMPLIED
  sum                   CDATA #IMPLIED
  unit                  CDATA #IMPLIED
>
<!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>
<!ATTLIST WorkoutRoute
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT FileReference EMPTY>
<!ATTLIST FileReference
  path CDATA #REQUIRED
>
<!ELEMENT ActivitySummary EMPTY>
<!ATTLIST ActivitySummary
  dateComponents           CDATA #IMPLIED
  activeEnergyBurned       CDATA #IMPLIED
  activeEnergyBurnedGoal   CDATA #IMPLIED
  activeEnergyBurnedUnit   CDATA #IMPLIED
  appleMoveTime            CDATA #IMPLIED
  appleMoveTimeGoal        CDATA #IMPLIED
  appleExerciseTime        CDATA #IMPLIED
  appleExerciseTimeGoal    CDATA #IMPLIED
  appleStandHours          CDATA #IMPLIED
  appleStandHoursGoal      CDATA #IMPLIED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!-- HeartRateVariabilityMetadataList should contain a sequence of InstantaneousBeatsPerMinute elements -->
<!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
<!ELEMENT InstantaneousBeatsPerMinute EMPTY>
<!ATTLIST InstantaneousBeatsPerMinute
  bpm  CDATA #REQUIRED
  time CDATA #REQUIRED
>
<!ELEMENT ClinicalRecord EMPTY>
<!ATTLIST ClinicalRecord
  type              CDATA #REQUIRED
  identifier        CDATA #REQUIRED
  sourceName        CDATA #REQUIRED
  sourceURL         CDATA #REQUIRED
  fhirVersion       CDATA #REQUIRED
  receivedDate      CDATA #REQUIRED
  resourceFilePath  CDATA #REQUIRED
>
<!ELEMENT Audiogram ((SensitivityPoint)*)>
<!ATTLIST Audiogram
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT SensitivityPoint EMPTY>
<!ATTLIST SensitivityPoint
  frequencyValue   CDATA #REQUIRED
  frequencyUnit    CDATA #REQUIRED
  leftEarValue     CDATA #IMPLIED
  leftEarUnit      CDATA #IMPLIED
  rightEarValue    CDATA #IMPLIED
  rightEarUnit     CDATA #IMPLIED
>
<!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
<!ATTLIST VisionPrescription
  type             CDATA #REQUIRED
  dateIssued       CDATA #REQUIRED
  expirationDate   CDATA #IMPLIED
  brand            CDATA #IMPLIED
>
<!ELEMENT RightEye EMPTY>
<!ATTLIST RightEye
  sphere           CDATA #IMPLIED
  sphereUnit       CDATA #IMPLIED
  cylinder         CDATA #IMPLIED
  cylinderUnit     CDATA #IMPLIED
  axis             CDATA #IMPLIED
  axisUnit         CDATA #IMPLIED
  add              CDATA #IMPLIED
  addUnit          CDATA #IMPLIED
  vertex           CDATA #IMPLIED
  vertexUnit       CDATA #IMPLIED
  prismAmount      CDATA #IMPLIED
  prismAmountUnit  CDATA #IMPLIED
  prismAngle       CDATA #IMPLIED
  prismAngleUnit   CDATA #IMPLIED
  farPD            CDATA #IMPLIED
  farPDUnit        CDATA #IMPLIED
  nearPD           CDATA #IMPLIED
  nearPDUnit       CDATA #IMPLIED
  baseCurve        CDATA #IMPLIED
  baseCurveUnit    CDATA #IMPLIED
  diameter         CDATA #IMPLIED
  diameterUnit     CDATA #IMPLIED
>
<!ELEMENT LeftEye EMPTY>
<!ATTLIST LeftEye
  sphere           CDATA #IMPLIED
  sphereUnit       CDATA #IMPLIED
  cylinder         CDATA #IMPLIED
  cylinderUnit     CDATA #IMPLIED
  axis             CDATA #IMPLIED
  axisUnit         CDATA #IMPLIED
  add              CDATA #IMPLIED
  addUnit          CDATA #IMPLIED
  vertex           CDATA #IMPLIED
  vertexUnit       CDATA #IMPLIED
  prismAmount      CDATA #IMPLIED
  prismAmountUnit  CDATA #IMPLIED
  prismAngle       CDATA #IMPLIED
  prismAngleUnit   CDATA #IMPLIED
  farPD            CDATA #IMPLIED
  farPDUnit        CDATA #IMPLIED
  nearPD           CDATA #IMPLIED
  nearPDUnit       CDATA #IMPLIED
  baseCurve        CDATA #IMPLIED
  baseCurveUnit    CDATA #IMPLIED
  diameter         CDATA #IMPLIED
  diameterUnit     CDATA #IMPLIED
>
<!ELEMENT Attachment EMPTY>
<!ATTLIST Attachment
  identifier       CDATA #IMPLIED
>
]>
"""

# The export is taken on this day (local time); the history runs back from it.
EXPORT_DAY = date(2024, 11, 20)
EXPORT_CLOCK = "09:41:07"
IOS16_DAY = date(2022, 9, 12)  # sleep stages, no workout totals, WorkoutActivity from here on

# ---------------------------------------------------------------------------------------------
# Time: the zone lived in at every instant, and dates formatted as Health writes them.

HOUR = 3600
DAY = 86400


def _nth_sunday(year, month, n):
    """The n-th Sunday of a month (n = -1: the last)."""
    if n > 0:
        d = date(year, month, 1)
        d += timedelta(days=(6 - d.weekday()) % 7)
        return d + timedelta(weeks=n - 1)
    d = date(year, month + 1, 1) - timedelta(days=1)
    return d - timedelta(days=(d.weekday() + 1) % 7)


def _epoch(d):
    return int(datetime(d.year, d.month, d.day, tzinfo=timezone.utc).timestamp())


def zone_offset(zone, t):
    """UTC offset in seconds of a zone at instant t (the three zones this person lives in)."""
    year = datetime.fromtimestamp(t, timezone.utc).year
    if zone == "Europe/London":
        start = _epoch(_nth_sunday(year, 3, -1)) + 1 * HOUR
        end = _epoch(_nth_sunday(year, 10, -1)) + 1 * HOUR
        return HOUR if start <= t < end else 0
    std = -8 * HOUR if zone == "America/Los_Angeles" else -5 * HOUR
    start = _epoch(_nth_sunday(year, 3, 2)) + 2 * HOUR - std
    end = _epoch(_nth_sunday(year, 11, 1)) + 2 * HOUR - (std + HOUR)
    return std + HOUR if start <= t < end else std


class Clock:
    """The zone timeline (home in Los Angeles, a week or so in New York each spring and in
    London each autumn) and the date formatting: `fmt(t)` is `2024-01-15 08:30:00 -0800`."""

    def __init__(self, first_day, last_day, rng):
        self.first_day = first_day
        home = "America/Los_Angeles"
        trips = []
        for year in range(first_day.year, last_day.year + 1):
            for zone, doy, length in (("America/New_York", 95 + rng.randrange(50), 5 + rng.randrange(5)),
                                      ("Europe/London", 240 + rng.randrange(50), 7 + rng.randrange(6))):
                leave = _epoch(date(year, 1, 1) + timedelta(days=doy)) + 17 * HOUR + rng.randrange(6 * HOUR)
                trips.append((leave, leave + length * DAY + rng.randrange(8 * HOUR), zone))
        lo, hi = _epoch(first_day) - 2 * DAY, _epoch(last_day) + 3 * DAY
        bounds = {lo}
        for year in range(first_day.year - 1, last_day.year + 2):
            for zone in (home, "America/New_York", "Europe/London"):
                for month, n in ((3, 2), (11, 1), (3, -1), (10, -1)):
                    for h in range(-12, 13):
                        bounds.add(_epoch(_nth_sunday(year, month, n)) + h * HOUR)
        for a, b, _ in trips:
            bounds.update((a, b))
        starts, zones, offsets = [], [], []
        for b in sorted(x for x in bounds if lo <= x <= hi):
            zone = home
            for a, e, z in trips:
                if a <= b < e:
                    zone = z
            off = zone_offset(zone, b)
            if zones and zones[-1] == zone and offsets[-1] == off:
                continue
            starts.append(b)
            zones.append(zone)
            offsets.append(off)
        self.starts, self.zones, self.offsets = starts, zones, offsets
        self.base = lo // DAY
        self.dates = [(date(1970, 1, 1) + timedelta(days=d)).isoformat() for d in range(self.base, hi // DAY + 3)]
        self.clock = [f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}" for s in range(DAY)]
        self.clock12 = [f"{(s // 3600) % 12 or 12}:{s // 60 % 60:02d}:{s % 60:02d}" for s in range(DAY)]
        self.offstr = {o: f" {'-' if o < 0 else '+'}{abs(o) // 3600:02d}{abs(o) // 60 % 60:02d}" for o in set(offsets)}

    def offset(self, t):
        return self.offsets[bisect.bisect_right(self.starts, t) - 1]

    def zone(self, t):
        return self.zones[bisect.bisect_right(self.starts, t) - 1]

    def fmt(self, t):
        off = self.offsets[bisect.bisect_right(self.starts, t) - 1]
        loc = t + off
        return f"{self.dates[loc // DAY - self.base]} {self.clock[loc % DAY]}{self.offstr[off]}"

    def local_date(self, t):
        loc = t + self.offset(t)
        return self.dates[loc // DAY - self.base]

    def midnight(self, d):
        """The instant local midnight begins on day d, in the zone lived in at its noon."""
        e = _epoch(d)
        return e - self.offset(e + 12 * HOUR + 8 * HOUR)


# ---------------------------------------------------------------------------------------------
# Sources and devices. Software follows the OS updates through the years.

WATCH_OS = [(date(2000, 1, 1), "7.6"), (date(2021, 9, 20), "8.0"), (date(2022, 1, 26), "8.4"),
            (date(2022, 5, 16), "8.6"), (date(2022, 9, 12), "9.0"), (date(2022, 10, 24), "9.1"),
            (date(2023, 3, 27), "9.4"), (date(2023, 9, 18), "10.0"), (date(2023, 12, 11), "10.2"),
            (date(2024, 5, 13), "10.5"), (date(2024, 9, 16), "11.0"), (date(2024, 10, 28), "11.1")]
I_OS = [(date(2000, 1, 1), "14.7"), (date(2021, 9, 20), "15.0"), (date(2022, 1, 26), "15.3"),
        (date(2022, 5, 16), "15.5"), (date(2022, 9, 12), "16.0"), (date(2022, 10, 24), "16.1"),
        (date(2023, 3, 27), "16.4"), (date(2023, 9, 18), "17.0"), (date(2023, 12, 11), "17.2"),
        (date(2024, 5, 13), "17.5"), (date(2024, 9, 16), "18.0"), (date(2024, 10, 28), "18.1")]
PHONE_HW = [(date(2000, 1, 1), "iPhone13,2"), (date(2022, 10, 8), "iPhone15,2")]
WITHINGS_APP = [(date(2000, 1, 1), "5.6.2"), (date(2022, 6, 1), "6.1.0"), (date(2023, 8, 1), "6.3.1")]
STRAVA_APP = [(date(2000, 1, 1), "219.0"), (date(2023, 1, 1), "293.0"), (date(2024, 3, 1), "341.0")]


def _at(table, d):
    value = table[0][1]
    for since, v in table:
        if d >= since:
            value = v
    return value


def device_tail(src, d):
    """(sourceName, sourceVersion, the device string after its address) for a source on a day."""
    if src == "watch":
        sw = _at(WATCH_OS, d)
        return ("Jane’s Apple Watch", sw,
                f"&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:{sw}&gt;")
    if src == "phone":
        sw = _at(I_OS, d)
        # Before the new phone, the old one's name had a straight apostrophe (both spellings
        # are one source in real exports).
        name = "Jane's iPhone" if d < date(2022, 10, 8) else "Jane’s iPhone"
        return (name, sw, f"&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:{_at(PHONE_HW, d)}, software:{sw}&gt;")
    if src == "airpods":
        sw = _at(I_OS, d)
        return ("Jane’s iPhone", sw, "&gt;, name:AirPods Pro, manufacturer:Apple Inc., model:AirPods Pro, hardware:AirPods Pro, software:5E135&gt;")
    if src == "withings":
        return ("Health Mate", _at(WITHINGS_APP, d).replace(".", "") + "0", "&gt;, name:Body+, manufacturer:Withings, model:WBS05, hardware:WBS05, software:1560&gt;")
    if src == "strava":
        return ("Strava", _at(STRAVA_APP, d), "&gt;, name:Edge 530, manufacturer:Garmin, model:Edge 530, hardware:Edge 530, software:9.75&gt;")
    raise ValueError(src)


# ---------------------------------------------------------------------------------------------
# Metadata. Each kind of extra entry says whether the importer's privacy rules (docs/privacy.md)
# drop it: an identifying key, or a value holding a UUID or a `userid=` parameter.

WORKOUT_KINDS = [  # (activity type, weight, outdoor, walking-like)
    ("HKWorkoutActivityTypeWalking", 30, True, True),
    ("HKWorkoutActivityTypeRunning", 20, True, True),
    ("HKWorkoutActivityTypeTraditionalStrengthTraining", 14, False, False),
    ("HKWorkoutActivityTypeYoga", 8, False, False),
    ("HKWorkoutActivityTypeHighIntensityIntervalTraining", 7, False, False),
    ("HKWorkoutActivityTypeHiking", 6, True, True),
    ("HKWorkoutActivityTypeSwimming", 5, False, False),
    ("HKWorkoutActivityTypeCycling", 10, True, False),
]


class Gen:
    """One export: the plan of each day, the streams of records, the workouts and the
    summaries, written to a sink (a file, or nothing when estimating the size)."""

    def __init__(self, seed, mix, first_day, days, sink):
        self.seed, self.mix, self.first_day, self.ndays = seed, mix, first_day, days
        self.heavy = mix == "metadata-heavy"
        self.sink = sink
        self.buf = []
        self.buf_chars = 0
        self.bytes = 0
        self.clock = Clock(first_day, first_day + timedelta(days=days), random.Random(f"{seed}/trips"))
        self.stats = {"records": {}, "records_with_metadata": 0, "metadata_entries": 0,
                      "metadata_identifying": 0, "hrv_lists": 0, "beats": 0, "workouts": 0,
                      "workout_metadata_entries": 0, "workout_metadata_identifying": 0,
                      "workout_events": 0, "workout_statistics": 0, "workout_activities": 0,
                      "workout_routes": 0, "route_metadata_entries": 0,
                      "route_metadata_identifying": 0, "workout_activity_metadata_entries": 0,
                      "activity_summaries": 0}
        self.plans = [self._plan(i) for i in range(-1, days)]
        self.uuid_rng = random.Random(f"{seed}/uuid")

    # -- output -----------------------------------------------------------------------------
    def put(self, s):
        self.buf.append(s)
        self.buf_chars += len(s)
        if self.buf_chars >= 1 << 20:
            self.flush()

    def flush(self):
        data = "".join(self.buf).encode("utf-8")
        self.bytes += len(data)
        if self.sink is not None:
            self.sink.write(data)
        self.buf, self.buf_chars = [], 0

    # -- days -------------------------------------------------------------------------------
    def day(self, i):
        return self.first_day + timedelta(days=i)

    def _plan(self, i):
        """Day i's shape: local midnight, waking, going to bed, workouts, activity level."""
        d = self.day(i)
        r = random.Random(f"{self.seed}/plan/{d.isoformat()}")
        mid = self.clock.midnight(d)
        weekend = d.weekday() >= 5
        wake = mid + int((6.3 + (1.2 if weekend else 0) + r.random() * 1.4) * HOUR)
        bed = mid + int((22.2 + r.random() * 2.3) * HOUR)
        workouts = []
        n = 0 if r.random() < 0.3 else (1 if r.random() < 0.8 else 2)
        t = wake + HOUR + r.randrange(2 * HOUR)
        for _ in range(n):
            kind = r.choices(WORKOUT_KINDS, weights=[k[1] for k in WORKOUT_KINDS])[0]
            dur = int((20 + r.random() * 60) * 60)
            if t + dur > bed - HOUR:
                break
            strava = kind[0] == "HKWorkoutActivityTypeCycling" and r.random() < 0.5
            workouts.append((t, t + dur, kind, strava))
            t += dur + 3 * HOUR + r.randrange(4 * HOUR)
        return {"i": i, "d": d, "mid": mid, "wake": wake, "bed": bed, "workouts": workouts,
                "active": 0.6 + r.random() * 0.9}

    def uuid(self):
        """A random (version 4) UUID, upper-case as Health writes them."""
        x = f"{self.uuid_rng.getrandbits(128):032X}"
        return f"{x[:8]}-{x[8:12]}-4{x[13:16]}-{'89AB'[int(x[16], 16) & 3]}{x[17:20]}-{x[20:]}"

    # -- records ----------------------------------------------------------------------------
    def stream(self, rtype, src, unit, per_day, natural=None, typical_p=1.0):
        """All days of one (type, source): `per_day(plan, rng)` yields (creation, start, end,
        value) per record, or (creation, start, end, value, beats); `natural(rng, t)` gives the
        metadata Health writes for it (a list of (key, value, identifying)), kept with
        probability typical_p in the typical mix."""
        rng = random.Random(f"{self.seed}/{self.mix}/{rtype}/{src}")
        rand, bits = rng.random, rng.getrandbits
        fmt = self.clock.fmt
        put = self.put
        st = self.stats
        heavy = self.heavy
        count = with_meta = entries = ident = beats_n = lists = 0
        unit_attr = f' unit="{unit}"' if unit else ""
        head_cache = {}
        for plan in self.plans[1:]:
            d = plan["d"]
            heads = head_cache.get(d)
            if heads is None:
                name, ver, tail = device_tail(src, d)
                heads = head_cache[d] = (
                    f' <Record type="{rtype}" sourceName="{name}" sourceVersion="{ver}" device="&lt;&lt;HKDevice: 0x',
                    f'{tail}"{unit_attr} creationDate="')
            head, mid = heads
            for rec in per_day(plan, rng):
                c, s, e, v = rec[0], rec[1], rec[2], rec[3]
                addr = 0x280000000 + (bits(24) << 4)
                text = f'{head}{addr:x}{mid}{fmt(c)}" startDate="{fmt(s)}" endDate="{fmt(e)}" value="{v}"'
                meta = natural(rng, s) if natural is not None and (heavy or rand() < typical_p) else None
                if heavy and rand() < 0.97:
                    meta = (meta or []) + self.heavy_extras(rng, s, src)
                count += 1
                if meta or len(rec) > 4:
                    parts = [text, ">\n"]
                    if meta:
                        with_meta += 1
                        for k, val, is_id in meta:
                            parts.append(f'  <MetadataEntry key="{k}" value="{val}"/>\n')
                            entries += 1
                            ident += is_id
                    if len(rec) > 4:
                        lists += 1
                        parts.append("  <HeartRateVariabilityMetadataList>\n")
                        parts.extend(rec[4])
                        beats_n += len(rec[4])
                        parts.append("  </HeartRateVariabilityMetadataList>\n")
                    parts.append(" </Record>\n")
                    put("".join(parts))
                else:
                    put(text + "/>\n")
        st["records"][rtype] = st["records"].get(rtype, 0) + count
        st["records_with_metadata"] += with_meta
        st["metadata_entries"] += entries
        st["metadata_identifying"] += ident
        st["beats"] += beats_n
        st["hrv_lists"] += lists

    HEAVY_SETS = [  # which extras a record of the metadata-heavy mix gets (indices below)
        (0, 1, 2, 3), (0, 1, 2, 3, 4), (0, 2, 3, 5, 6), (0, 1, 4, 7), (0, 2, 3, 4, 7, 8),
        (0, 1, 2, 3, 5, 6, 8), (1, 2, 3, 4), (0, 4, 5, 6, 7),
    ]

    def heavy_extras(self, rng, t, src):
        """Entries as sync apps write them on every sample: the zone, user-entered, their sync
        identifier (a UUID half the time: identifying) and version, HKExternalUUID
        (identifying), and the app's own keys."""
        out = []
        b = rng.getrandbits(8)
        for k in self.HEAVY_SETS[b & 7]:
            if k == 0:
                out.append(("HKTimeZone", self.clock.zone(t), 0))
            elif k == 1:
                out.append(("HKWasUserEntered", "0", 0))
            elif k == 2:
                if b & 8:
                    out.append(("HKMetadataKeySyncIdentifier", f"hs-{src}-{t}-{b}", 0))
                else:
                    out.append(("HKMetadataKeySyncIdentifier", f"hs-{self.uuid()}", 1))
            elif k == 3:
                out.append(("HKMetadataKeySyncVersion", str(1 + (b >> 6)), 0))
            elif k == 4:
                out.append(("HKExternalUUID", self.uuid(), 1))
            elif k == 5:
                out.append(("Health Sync Version", "9.4.2" if b & 16 else "10.1", 0))
            elif k == 6:
                out.append(("Modified Date", datetime.fromtimestamp(t + 600 + b * 7, timezone.utc).strftime("%Y-%m-%d %H:%M:%S +0000"), 0))
            elif k == 7:
                out.append(("Sync Source Device", "Forerunner 255" if b & 32 else "Apple Watch", 0))
            elif k == 8:
                out.append(("Sync Link", f"healthsync://open?record={t}&amp;kind={b}", 0))
        return out

    # -- the day's samples, type by type ----------------------------------------------------
    def in_workout(self, plan, t):
        for a, b, _, _ in plan["workouts"]:
            if a <= t < b:
                return True
        return False

    def heart_rate(self, plan, rng):
        rand = rng.random
        prev_bed = self.plans[plan["i"]]["bed"]  # plans[i] is day i-1
        t, end, wake = prev_bed + int(rand() * 120), plan["bed"], plan["wake"]
        wk = plan["workouts"]
        while t < end:
            in_w = False
            for a, b, _, _ in wk:
                if a <= t < b:
                    in_w = True
                    break
            if in_w:
                v = int(115 + rand() * 55)
                step = 4 + int(rand() * 6)
            elif t < wake:
                v = int(50 + rand() * 12)
                step = 280 + int(rand() * 400)
            else:
                v = int(62 + rand() * 35)
                step = 150 + int(rand() * 330)
            yield (t + 30 + int(rand() * 900), t, t, v)
            t += step

    def hr_meta(self, rng, t):
        return [("HKMetadataKeyHeartRateMotionContext", "1" if rng.random() < 0.8 else "0", 0)]

    def hrv(self, plan, rng):
        rand = rng.random
        clock12 = self.clock.clock12
        prev_bed = self.plans[plan["i"]]["bed"]
        n = 4 + int(rand() * 5)
        span = plan["bed"] - prev_bed
        times = sorted(prev_bed + int(rand() * (span - 120)) for _ in range(n))
        last = 0
        for s in times:
            if s < last + 600 or self.in_workout(plan, s):
                continue
            last = s
            e = s + 60 + int(rand() * 5)
            base = 52 + rand() * 25
            off = self.clock.offset(s)
            cs = (s + off) * 100 + 80 + int(rand() * 80)
            stop = (e + off) * 100
            beats = []
            while cs < stop:
                bpm = int(base + (rand() - 0.5) * 10)
                sec = (cs // 100) % DAY
                beats.append(f'   <InstantaneousBeatsPerMinute bpm="{bpm}" time="{clock12[sec]}.{cs % 100:02d} {"AM" if sec < 43200 else "PM"}"/>\n')
                cs += 6000 // bpm + (100 if rand() < 0.12 else 0)  # a missed beat now and then
            yield (e + 60 + int(rand() * 600), s, e, f"{18 + rand() * 70:.4f}", beats)

    def resting(self, plan, rng):
        s = plan["mid"] + 60 + int(rng.random() * 900)
        e = plan["bed"] - int(rng.random() * 1800)
        yield (e + 300, s, e, int(52 + rng.random() * 10))

    def walking_hr(self, plan, rng):
        s = plan["wake"] + int(rng.random() * 1800)
        e = plan["bed"] - 600 - int(rng.random() * 1800)
        yield (e + 240, s, e, int(88 + rng.random() * 22))

    def asleep_series(self, lo_step, hi_step, value):
        def per_day(plan, rng):
            rand = rng.random
            t = self.plans[plan["i"]]["bed"] + 900 + int(rand() * 600)
            wake = plan["wake"]
            while t < wake - 300:
                e = t + int(rand() * 60) + 30
                yield (wake + 600 + int(rand() * 1200), t, e, value(rand))
                t += lo_step + int(rand() * (hi_step - lo_step))
        return per_day

    def spo2(self, plan, rng):
        rand = rng.random
        prev_bed = self.plans[plan["i"]]["bed"]
        span = plan["bed"] - prev_bed
        last = 0
        for s in sorted(prev_bed + int(rand() * (span - 60)) for _ in range(5 + int(rand() * 8))):
            if s <= last + 60:
                continue
            last = s
            yield (s + 60 + int(rand() * 900), s, s, f"0.{94 + int(rand() * 6)}")

    def chunks(self, lo_gap, hi_gap, lo_len, hi_len, value, whole_day=False, in_workout_len=None):
        """Consecutive samples through the waking day (or the whole day): a gap, then a sample
        of some length; shorter samples during workouts when in_workout_len is given."""
        def per_day(plan, rng):
            rand = rng.random
            if whole_day:
                t, end = self.plans[plan["i"]]["bed"], plan["bed"]
            else:
                t, end = plan["wake"] + int(rand() * 600), plan["bed"]
            act = plan["active"]
            wk = plan["workouts"]
            while t < end:
                in_w = False
                for a, b, _, _ in wk:
                    if a <= t < b:
                        in_w = True
                        break
                if in_w and in_workout_len:
                    length = in_workout_len[0] + int(rand() * (in_workout_len[1] - in_workout_len[0]))
                    gap = 0
                else:
                    length = lo_len + int(rand() * (hi_len - lo_len))
                    gap = lo_gap + int(rand() * (hi_gap - lo_gap)) if hi_gap else 0
                s = t + gap
                e = s + length
                if e > end:
                    break
                yield (e + 20 + int(rand() * 900), s, e, value(rand, length, act * (3 if in_w else 1)))
                t = e + 1
        return per_day

    def stand_hours(self, plan, rng):
        rand = rng.random
        h = (plan["wake"] - plan["mid"]) // HOUR + 1
        last = (plan["bed"] - plan["mid"]) // HOUR
        while h < last:
            s = plan["mid"] + h * HOUR
            stood = rand() < 0.8
            yield (s + HOUR + 30 + int(rand() * 600), s, s + HOUR,
                   "HKCategoryValueAppleStandHourStood" if stood else "HKCategoryValueAppleStandHourIdle")
            h += 1

    def sleep_watch(self, plan, rng):
        rand = rng.random
        t = self.plans[plan["i"]]["bed"] + 600 + int(rand() * 900)
        wake = plan["wake"]
        created = wake + 300 + int(rand() * 1800)
        if plan["d"] >= IOS16_DAY:
            stages = ("HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
                      "HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepREM",
                      "HKCategoryValueSleepAnalysisAwake")
            k = 0
            while t < wake - 120:
                stage = stages[k % 5] if rand() < 0.75 else stages[int(rand() * 5)]
                e = min(wake, t + (60 if stage.endswith("Awake") else 300) + int(rand() * 2100))
                yield (created, t, e, stage)
                t = e
                k += 1
        else:
            while t < wake - 300:
                e = min(wake, t + 1800 + int(rand() * 7200))
                yield (created, t, e, "HKCategoryValueSleepAnalysisAsleep")
                t = e + 120 + int(rand() * 900)

    def in_bed(self, plan, rng):
        s = self.plans[plan["i"]]["bed"] - 300 - int(rng.random() * 900)
        e = plan["wake"] + int(rng.random() * 900)
        yield (e + 60, s, e, "HKCategoryValueSleepAnalysisInBed")

    def sleep_meta(self, rng, t):
        return [("HKTimeZone", self.clock.zone(t), 0)]

    def wrist_temp(self, plan, rng):
        if plan["d"] < IOS16_DAY:
            return
        s = self.plans[plan["i"]]["bed"] + 1200
        e = plan["wake"] - 600
        yield (plan["wake"] + 3600, s, e, f"{95.6 + rng.random() * 2:.2f}")

    def mindful(self, plan, rng):
        if rng.random() < 0.25:
            s = plan["wake"] + int(rng.random() * (plan["bed"] - plan["wake"] - 3600))
            if not self.in_workout(plan, s):
                e = s + 60 * (1 + int(rng.random() * 5))
                yield (e + 2, s, e, "HKCategoryValueNotApplicable")

    def vo2(self, plan, rng):
        for a, b, kind, strava in plan["workouts"]:
            if kind[2] and kind[3] and not strava and rng.random() < 0.6:
                yield (b + 1800, b - 60, b - 60, f"{36 + rng.random() * 8:.2f}")

    def vo2_meta(self, rng, t):
        return [("HKVO2MaxTestType", "2", 0)]

    def weigh_in(self, value):
        def per_day(plan, rng):
            if rng.random() < 0.55:
                s = plan["wake"] + 300 + int(rng.random() * 1200)
                yield (s + 40, s, s, value(rng.random, plan["i"]))
        return per_day

    def withings_meta(self, rng, t):
        uid = 48213 + self.seed
        return [("Health Mate App Version", "6.3.1", 0),
                ("Withings User Identifier", str(uid), 1),
                ("Modified Date", datetime.fromtimestamp(t + 400, timezone.utc).strftime("%Y-%m-%d %H:%M:%S +0000"), 0),
                ("Withings Link", f"withings-bd2://timeline/measure?userid={uid}&amp;date={t}&amp;type=1", 1),
                ("HKWasUserEntered", "0", 0)]

    def records(self):
        f1, f2, f3 = (lambda x: f"{x:.1f}"), (lambda x: f"{x:.2f}"), (lambda x: f"{x:.3f}")
        steps = lambda r, n, a: int(n * (0.2 + r() * 1.4) * a) + 1
        yield ("HKQuantityTypeIdentifierBodyMassIndex", "withings", "count", self.weigh_in(lambda r, i: f"{23.1 + r() * 0.6 - i * 0.0004:.4f}"), self.withings_meta, 1.0)
        yield ("HKQuantityTypeIdentifierBodyFatPercentage", "withings", "%", self.weigh_in(lambda r, i: f"{0.24 + r() * 0.02:.4f}"), self.withings_meta, 1.0)
        yield ("HKQuantityTypeIdentifierBodyMass", "withings", "lb", self.weigh_in(lambda r, i: f"{146 + r() * 3 - i * 0.003:.1f}"), self.withings_meta, 1.0)
        yield ("HKQuantityTypeIdentifierHeartRate", "watch", "count/min", self.heart_rate, self.hr_meta, 1.0)
        yield ("HKQuantityTypeIdentifierStepCount", "phone", "count", self.chunks(120, 2400, 30, 600, steps), None, 0)
        yield ("HKQuantityTypeIdentifierStepCount", "watch", "count", self.chunks(60, 1500, 60, 480, steps, in_workout_len=(60, 180)), None, 0)
        dist = lambda r, n, a: f"{n * (0.2 + r() * 1.4) * a * 0.00043:.6f}"
        yield ("HKQuantityTypeIdentifierDistanceWalkingRunning", "phone", "mi", self.chunks(120, 2400, 30, 600, dist), None, 0)
        yield ("HKQuantityTypeIdentifierDistanceWalkingRunning", "watch", "mi", self.chunks(60, 1500, 60, 480, dist, in_workout_len=(20, 60)), None, 0)
        yield ("HKQuantityTypeIdentifierBasalEnergyBurned", "watch", "Cal", self.chunks(0, 0, 300, 1800, lambda r, n, a: f3(n / 60 * (0.95 + r() * 0.2)), whole_day=True), None, 0)
        yield ("HKQuantityTypeIdentifierActiveEnergyBurned", "watch", "Cal", self.chunks(0, 0, 50, 130, lambda r, n, a: f3(n / 60 * (0.05 + r() * 0.6) * a), in_workout_len=(8, 20)), None, 0)
        yield ("HKQuantityTypeIdentifierFlightsClimbed", "phone", "count", self.chunks(1800, 9000, 8, 60, lambda r, n, a: 1 + int(r() * 3)), None, 0)
        yield ("HKQuantityTypeIdentifierOxygenSaturation", "watch", "%", self.spo2, None, 0)
        yield ("HKQuantityTypeIdentifierRespiratoryRate", "watch", "count/min", self.asleep_series(240, 900, lambda r: f1(12 + r() * 6)), None, 0)
        yield ("HKQuantityTypeIdentifierAppleExerciseTime", "watch", "min", self.chunks(600, 7200, 60, 61, lambda r, n, a: 1, in_workout_len=(60, 61)), None, 0)
        yield ("HKQuantityTypeIdentifierRestingHeartRate", "watch", "count/min", self.resting, None, 0)
        yield ("HKQuantityTypeIdentifierEnvironmentalAudioExposure", "watch", "dBASPL", self.chunks(0, 600, 900, 2400, lambda r, n, a: f"{45 + r() * 33:.4f}"), None, 0)
        yield ("HKQuantityTypeIdentifierHeadphoneAudioExposure", "airpods", "dBASPL", self.chunks(1800, 7200, 60, 1800, lambda r, n, a: f"{60 + r() * 20:.4f}"), None, 0)
        yield ("HKQuantityTypeIdentifierWalkingHeartRateAverage", "watch", "count/min", self.walking_hr, None, 0)
        yield ("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "watch", "ms", self.hrv, None, 0)
        yield ("HKQuantityTypeIdentifierVO2Max", "watch", "mL/min·kg", self.vo2, self.vo2_meta, 1.0)
        yield ("HKQuantityTypeIdentifierAppleStandTime", "watch", "min", self.chunks(900, 3600, 60, 300, lambda r, n, a: n // 60), None, 0)
        yield ("HKQuantityTypeIdentifierWalkingSpeed", "phone", "mi/hr", self.chunks(1800, 7200, 20, 300, lambda r, n, a: f"{2.4 + r() * 1.4:.4f}"), None, 0)
        yield ("HKQuantityTypeIdentifierWalkingStepLength", "phone", "in", self.chunks(1800, 7200, 20, 300, lambda r, n, a: f"{25 + r() * 5:.4f}"), None, 0)
        yield ("HKQuantityTypeIdentifierWalkingDoubleSupportPercentage", "phone", "%", self.chunks(1800, 7200, 20, 300, lambda r, n, a: f"{0.26 + r() * 0.06:.3f}"), None, 0)
        yield ("HKQuantityTypeIdentifierWalkingAsymmetryPercentage", "phone", "%", self.chunks(3600, 10800, 20, 300, lambda r, n, a: f"{r() * 0.08:.2f}"), None, 0)
        yield ("HKQuantityTypeIdentifierAppleSleepingWristTemperature", "watch", "degF", self.wrist_temp, None, 0)
        yield ("HKCategoryTypeIdentifierSleepAnalysis", "phone", "", self.in_bed, None, 0)
        yield ("HKCategoryTypeIdentifierSleepAnalysis", "watch", "", self.sleep_watch, self.sleep_meta, 1.0)
        yield ("HKCategoryTypeIdentifierAppleStandHour", "watch", "", self.stand_hours, None, 0)
        yield ("HKCategoryTypeIdentifierMindfulSession", "watch", "", self.mindful, None, 0)

    # -- workouts and summaries ---------------------------------------------------------------
    def workouts(self):
        rng = random.Random(f"{self.seed}/{self.mix}/workouts")
        rand, bits = rng.random, rng.getrandbits
        fmt = self.clock.fmt
        st = self.stats
        for plan in self.plans[1:]:
            d = plan["d"]
            for s, e, (kind, _, outdoor, walking), strava in plan["workouts"]:
                src = "strava" if strava else "watch"
                name, ver, tail = device_tail(src, d)
                minutes = (e - s) / 60
                dev = f'&lt;&lt;HKDevice: 0x{0x280000000 + (bits(24) << 4):x}{tail}'
                miles = minutes * (0.09 if walking and "Walk" not in kind and "Hik" not in kind else 0.05 if walking else 0.3 if "Cycl" in kind else 0)
                kcal = minutes * (5 + rand() * 7)
                c, sd, ed = fmt(e + 60 + int(rand() * 300)), fmt(s), fmt(e)
                parts = []
                meta = []
                if strava:
                    parts.append(f' <Workout workoutActivityType="{kind}" duration="{minutes:.13g}" durationUnit="min" totalDistance="{miles:.13g}" totalDistanceUnit="mi" totalEnergyBurned="{kcal:.13g}" totalEnergyBurnedUnit="Cal" sourceName="{name}" sourceVersion="{ver}" device="{dev}" creationDate="{c}" startDate="{sd}" endDate="{ed}">\n')
                    meta.append(("HKExternalUUID", self.uuid(), 1))
                    meta.append(("HKTimeZone", self.clock.zone(s), 0))
                else:
                    parts.append(f' <Workout workoutActivityType="{kind}" duration="{minutes:.13g}" durationUnit="min" sourceName="{name}" sourceVersion="{ver}" device="{dev}" creationDate="{c}" startDate="{sd}" endDate="{ed}">\n')
                    meta.append(("HKIndoorWorkout", "0" if outdoor else "1", 0))
                    meta.append(("HKTimeZone", self.clock.zone(s), 0))
                    meta.append(("HKAverageMETs", f"{3 + rand() * 7:.5f} kcal/hr·kg", 0))
                    if outdoor:
                        meta.append(("HKWeatherTemperature", f"{40 + int(rand() * 45)} degF", 0))
                        meta.append(("HKWeatherHumidity", f"{30 + int(rand() * 65)} %", 0))
                        meta.append(("HKElevationAscended", f"{int(rand() * 9000)} cm", 0))
                    if self.heavy:
                        meta.extend(self.heavy_extras(rng, s, src))
                for k, v, is_id in meta:
                    parts.append(f'  <MetadataEntry key="{k}" value="{v}"/>\n')
                st["workout_metadata_entries"] += len(meta)
                st["workout_metadata_identifying"] += sum(m[2] for m in meta)
                if not strava:
                    # Segments every ~10 minutes, a pause now and then.
                    t = s
                    while t + 600 < e:
                        parts.append(f'  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="{fmt(t)}" duration="{10 + rand():.13g}" durationUnit="min"/>\n')
                        st["workout_events"] += 1
                        if rand() < 0.2:
                            p = t + 120 + int(rand() * 300)
                            parts.append(f'  <WorkoutEvent type="HKWorkoutEventTypePause" date="{fmt(p)}"/>\n')
                            parts.append(f'  <WorkoutEvent type="HKWorkoutEventTypeResume" date="{fmt(p + 30 + int(rand() * 90))}"/>\n')
                            st["workout_events"] += 2
                        t += 600
                    if d >= IOS16_DAY:
                        parts.append(f'  <WorkoutActivity uuid="{self.uuid()}" startDate="{sd}" endDate="{ed}" duration="{minutes:.13g}" durationUnit="min">\n')
                        parts.append(f'   <MetadataEntry key="HKIndoorWorkout" value="{"0" if outdoor else "1"}"/>\n')
                        parts.append('  </WorkoutActivity>\n')
                        st["workout_activities"] += 1
                        st["workout_activity_metadata_entries"] += 1
                    stats = [("HKQuantityTypeIdentifierActiveEnergyBurned", f'sum="{kcal:.13g}" unit="Cal"'),
                             ("HKQuantityTypeIdentifierBasalEnergyBurned", f'sum="{minutes * 1.1:.13g}" unit="Cal"'),
                             ("HKQuantityTypeIdentifierHeartRate", f'average="{120 + rand() * 40:.13g}" minimum="{90 + int(rand() * 20)}" maximum="{160 + int(rand() * 25)}" unit="count/min"')]
                    if walking:
                        stats.append(("HKQuantityTypeIdentifierDistanceWalkingRunning", f'sum="{miles:.13g}" unit="mi"'))
                        stats.append(("HKQuantityTypeIdentifierStepCount", f'sum="{int(minutes * (110 + rand() * 60))}" unit="count"'))
                    for typ, rest in stats:
                        parts.append(f'  <WorkoutStatistics type="{typ}" startDate="{sd}" endDate="{ed}" {rest}/>\n')
                    st["workout_statistics"] += len(stats)
                    if outdoor:
                        loc = s + self.clock.offset(s)
                        hh = (loc % DAY) // HOUR
                        gpx = f"route_{self.clock.local_date(s)}_{(hh % 12) or 12}.{(loc % HOUR) // 60:02d}{'am' if hh < 12 else 'pm'}.gpx"
                        parts.append(f'  <WorkoutRoute sourceName="{name}" sourceVersion="{ver}" device="&lt;&lt;HKDevice: 0x{0x280000000 + (bits(24) << 4):x}{tail}" creationDate="{fmt(e + 120)}" startDate="{sd}" endDate="{ed}">\n')
                        parts.append('   <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>\n')
                        parts.append(f'   <MetadataEntry key="HKMetadataKeySyncIdentifier" value="{self.uuid()}"/>\n')
                        parts.append(f'   <FileReference path="/workout-routes/{gpx}"/>\n')
                        parts.append('  </WorkoutRoute>\n')
                        st["workout_routes"] += 1
                        st["route_metadata_entries"] += 2
                        st["route_metadata_identifying"] += 1  # the sync identifier is a UUID
                parts.append(" </Workout>\n")
                st["workouts"] += 1
                self.put("".join(parts))

    def summaries(self):
        rng = random.Random(f"{self.seed}/summaries")
        rand = rng.random
        for plan in self.plans[1:]:
            goal = 450 if plan["d"] < date(2023, 6, 1) else 520
            ex = int(10 + rand() * 50) + sum((b - a) // 60 for a, b, _, _ in plan["workouts"])
            self.put(f' <ActivitySummary dateComponents="{plan["d"].isoformat()}" activeEnergyBurned="{200 + rand() * 600:.13g}" activeEnergyBurnedGoal="{goal}" activeEnergyBurnedUnit="Cal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="{ex}" appleExerciseTimeGoal="30" appleStandHours="{9 + int(rand() * 7)}" appleStandHoursGoal="12"/>\n')
            self.stats["activity_summaries"] += 1

    def body(self):
        for rtype, src, unit, per_day, natural, p in self.records():
            self.stream(rtype, src, unit, per_day, natural, p)
        self.workouts()
        self.summaries()

    def write(self):
        self.put(DTD)
        last = self.plans[-1]
        export_t = self.clock.midnight(EXPORT_DAY) + 9 * HOUR + 41 * 60 + 7
        self.put('<HealthData locale="en_US">\n')
        self.put(f' <ExportDate value="{self.clock.fmt(export_t)}"/>\n')
        self.put(' <Me HKCharacteristicTypeIdentifierDateOfBirth="1988-07-03" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>\n')
        assert last["d"] < EXPORT_DAY
        self.body()
        self.put("</HealthData>\n")
        self.flush()


def estimate_days(seed, mix, target):
    """Bytes per day measured on a sample (two weeks in each of five seasons, before and after
    iOS 16), then the days that make `target` bytes."""
    per_day = []
    for back in (1000, 700, 450, 200, 60):
        first = EXPORT_DAY - timedelta(days=back)
        g = Gen(seed, mix, first, 14, None)
        g.body()
        g.flush()
        per_day.append(g.bytes / 14)
    avg = sum(per_day) / len(per_day)
    return max(1, round((target - len(DTD) - 600) / avg))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="the export.xml to write")
    ap.add_argument("--mix", choices=("typical", "metadata-heavy"), default="typical")
    ap.add_argument("--bytes", type=int, default=1_000_000_000, help="about this many bytes (default 1e9)")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--stats", help="where the counts go (default: OUT with .stats.json for .xml)")
    args = ap.parse_args()
    started = time.time()
    days = estimate_days(args.seed, args.mix, args.bytes)
    first = EXPORT_DAY - timedelta(days=days)
    with open(args.out, "wb") as f:
        g = Gen(args.seed, args.mix, first, days, f)
        g.write()
    st = g.stats
    records = sum(st["records"].values())
    summary = {
        "generator": "bench/make_foreign_health.py", "mix": args.mix, "seed": args.seed,
        "bytes_target": args.bytes, "bytes": g.bytes, "days": days,
        "first_day": first.isoformat(), "last_day": (EXPORT_DAY - timedelta(days=1)).isoformat(),
        "records_total": records,
        "metadata_share": round(st["records_with_metadata"] / max(records, 1), 4),
        **st,
        "seconds": round(time.time() - started, 1),
    }
    stats_path = args.stats or (args.out[:-4] if args.out.endswith(".xml") else args.out) + ".stats.json"
    with open(stats_path, "w") as f:
        json.dump(summary, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{args.out}: {g.bytes} bytes, {days} days ({summary['first_day']} to {summary['last_day']}), "
          f"{records} records ({summary['metadata_share'] * 100:.1f}% with metadata, {st['metadata_entries']} entries, "
          f"{st['metadata_identifying']} identifying), {st['beats']} beats in {st['hrv_lists']} HRV lists, "
          f"{st['workouts']} workouts, {st['activity_summaries']} activity summaries in {summary['seconds']} s; "
          f"counts in {stats_path}", file=sys.stderr)


if __name__ == "__main__":
    main()
