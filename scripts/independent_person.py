#!/usr/bin/env python3
"""An independent generator of DJ histories, to judge `resonance tune` on people it was not
built for (standard library only).

    python3 scripts/independent_person.py --out DIR --months 4 --seed S [--kind K]

writes

- `DIR/resonance/decisions/decisions-YYYY-MM.jsonl`: the app's decision log, version 2, one
  file per local calendar month (docs/formats.md, "resonance.decision-log"), from 2022-06-01
  for `--months` calendar months;
- `DIR/independent-truth.jsonl.gz`: per logged decision, each admitted candidate's exact
  expected keep probability (1 − skip chance) under the person model below, given everything
  the person is at that moment (mood, stress, what they have heard). A header line
  `{"format":"independent.truth","version":1,"kind","seed","person",…}`, then one line per
  decision `{"decision", "month", "songs", "keep"}`, `keep[i]` for `songs[i]`, the log's
  admitted candidates in its order, written at full precision (`repr`).

The DJ: the app itself
----------------------
At every decision the DJ is the app's engine (docs/brain.md, "Decision";
`Sources/ResonanceBrain/Decision/`) under the app's default preferences
(`UserPreferences.appDefault`, the header of docs/formats.md's example): the guard filters
(played in the last 60 min, an artist among the last 3 plays, faster than 110 BPM at night,
faster than the real-time adjuster's ceiling), the seven components of `SongScorer`, the
adjuster's familiarity boost after skips and its BPM ceiling in calm decisions when heart rate
rises, the 70/30 transition blend, and a softmax at temperature 0.05 from which the song is
drawn. Every operation is done in the engine's order on the same doubles (Python floats are
IEEE doubles and `math.exp` is the same libm `exp`), and every number is written with
`repr` (shortest round trip), so version 2's replay check reproduces each component, score and
propensity exactly. Candidate inputs are the app's: a library of songs with catalog ids,
artist, BPM/energy/valence, the library's play count (kept plays; the library starts with some
history), the app's learned effect for the decision's need (a shrunken mean of ±1 keep/skip
signals of the song's earlier plays under that need, null before any) and the last play.
Each session has a playlist of 24 songs drawn from the 180-song library, leaning toward songs
whose energy suits the session's context; the playlist, in order, is every decision's
candidate list.

Days and sessions
-----------------
Each day has a schedule of 2 to 4 sessions drawn from slots by weekday or weekend (wake-up,
commute, deep work, workout, lunch-time general listening, relax, pre-sleep after 22:00), each
10 to 20 decisions long, songs following each other as they are heard (about 1,300 decisions a
month). Time stamps are UTC with milliseconds and the UTC offset the person lives in: −07:00,
with a five-day trip at −04:00 in the second month (the schedule stays in local time). A
session's context is its slot's; its need follows the app's rule (calm when stress > 0.8, else
workout/wake-up → energy, deep work → focus, pre-sleep/relax → calm, commute/general → mood
lift). Stress (4 decimals) is 0.42 less 0.09 × mood, higher at work, with session noise and a
small random walk per song; heart rate (0.1 bpm) starts at the context's level and wanders,
climbing in a third of calm sessions (which is what lowers the adjuster's ceiling).

The person (not synth's)
------------------------
Every song is kept or skipped; the skip chance is logistic in the person's utility:

    P(skip | song a, moment x) = 1 / (1 + exp(−(b − U(a, x) − D(x))))

D(x) is song-independent (a good mood keeps more, stress and a long session skip more, the
late evening is more patient). U is the song's utility, a sum of:

- **tempo**: the person's own ideal tempo T*(context, hour) — a per-context table unlike the
  app's targets (deep work slower, commute and workout faster), a personal shift, and a daily
  rhythm (a cosine of the hour with its own amplitude and peak) —
  β_tempo · (exp(−½((bpm − T*)/width)²) − ½);
- **energy**: −β_energy · |energy − E*(context, mood)|, the ideal energy per context moved up
  by a good mood;
- **valence**: −β_valence · |valence − V*(mood)|, mood-congruent (a low mood wants sadder songs)
  for `taste`, a fixed bright ideal for `novelty`;
- **familiarity**: β_fam · (log(1 + plays) / log(1 + most plays) − ½); β_fam > 0 is a
  person who likes the familiar, < 0 a novelty seeker;
- **hidden taste**: an affinity per artist and a quality per song, never shown to the app
  except through its learned effects and the play counts the person's keeps build;
- **artist fatigue**: −β_fatigue · Σ over the artist's earlier plays of exp(−Δt / 4 h);
- **repeat fatigue**: −β_repeat · exp(−Δt / 2 h) for a song heard Δt ago;
- **jumps**: −β_jump · (|ΔBPM| / 40 + |Δenergy|) from the song before in the session.

Mood is a daily AR(1) (φ = 0.75, stationary sd 1) with a session-level wobble: it persists
over days and moves the ideal energy and valence and D. b is set per kind so that about a third
of the DJ's songs are skipped (0.3 to 0.45, by person).

Kinds (`--kind`):

- `taste` — strong tempo and energy taste, mood-congruent valence, likes the familiar, hidden
  artist and song taste, mild fatigue, dislikes jumps;
- `novelty` — weak tempo taste, a novelty seeker (familiar songs skipped more), strong artist
  and repeat fatigue, strong hidden song quality;
- `flat` — U = 0: the skip chance depends on the moment (mood, stress, session position,
  hour) but never on the song, so every candidate of a decision has the same keep probability
  and every policy's true one-step gain is exactly 0.

When skipped, a song is heard for a few seconds (40%: 1.5 s + an exponential of mean 8 s) or
for 10–70% of its length; when kept it plays to its end (92%) or stops at 60–98% without a
skip. The next decision comes when the song ends (plus 0.3–2.5 s).

Only `random.Random(seed)` draws anything, so a seed and kind give the same files.
"""

import argparse
import datetime
import gzip
import json
import math
import os
import random
import sys

# ---------------------------------------------------------------------------------------------
# The app's engine (docs/brain.md, "Decision"), in the engine's order of operations.

APP_PREFERENCES = {
    "bpmWeight": 0.25, "contextWeight": 0.15, "energyWeight": 0.25, "familiarityWeight": 0.15,
    "historicalWeight": 0.2, "morningBPMCap": 120, "morningEndHour": 9, "morningStartHour": 5,
    "nightBPMCap": 95, "nightEndHour": 5, "nightHardCapBPM": 110, "nightStartHour": 22,
    "policy": {"epsilon": 0, "kind": "softmax", "temperature": 0.05},
    "recencyPenaltyWeight": 0.3, "recencyWindowMinutes": 240, "repeatBlockMinutes": 60,
    "sameArtistLimit": 0, "sameArtistWindow": 3, "timeOfDayPenaltyWeight": 0.2,
}
COMPONENTS = ["bpm", "energy", "familiarity", "historical", "context", "recency", "time_of_day"]
WEIGHT_KEYS = ["bpmWeight", "energyWeight", "familiarityWeight", "historicalWeight",
               "contextWeight", "recencyPenaltyWeight", "timeOfDayPenaltyWeight"]

TARGET_BPM = {"energy": 128.0, "calm": 68.0, "focus": 100.0, "mood-lift": 116.0}
TARGET_ENERGY = {"energy": 0.85, "calm": 0.2, "focus": 0.45, "mood-lift": 0.7}
CONTEXT_PROFILE = {
    "workout": (0.9, 0.65), "deep-work": (0.4, 0.5), "commute": (0.65, 0.65),
    "pre-sleep": (0.15, 0.4), "wake-up": (0.55, 0.7), "relax": (0.3, 0.55),
    "general": (0.55, 0.6),
}
NEED_OF_CONTEXT = {
    "workout": "energy", "wake-up": "energy", "deep-work": "focus", "pre-sleep": "calm",
    "relax": "calm", "commute": "mood-lift", "general": "mood-lift",
}
BPM_TOLERANCE = 15.0
BASE_SHARE = 0.7
BPM_JUMP_LIMIT = 40.0


def need_for(context, stress):
    """The app's need rule: calm above stress 0.8, else the context's."""
    return "calm" if stress > 0.8 else NEED_OF_CONTEXT[context]


def is_night(hour, prefs):
    start, end = prefs["nightStartHour"], prefs["nightEndHour"]
    return (hour >= start or hour < end) if start > end else (start <= hour < end)


def time_of_day_penalty(bpm, hour, prefs):
    if is_night(hour, prefs):
        cap = prefs["nightBPMCap"]
    elif prefs["morningStartHour"] <= hour < prefs["morningEndHour"]:
        cap = prefs["morningBPMCap"]
    else:
        return 0.0
    return max(0.0, min(1.0, (bpm - cap) / 30.0))


def components(cand, moment, prefs):
    """`SongScorer.components`: the seven values, each in 0…1."""
    need = moment["need"]
    gap = (cand["bpm"] - TARGET_BPM[need]) / BPM_TOLERANCE
    bpm = math.exp(-0.5 * gap * gap)
    energy = 1 - min(1.0, abs(cand["energy"] - TARGET_ENERGY[need]))
    max_plays = moment["max_play_count"]
    familiarity = 0.0 if max_plays <= 0 else min(1.0, max(0, cand["plays"]) / max_plays)
    if moment["stress"] > 0.6 or need == "focus":
        familiarity = min(1.0, familiarity * 1.25)
    learned = cand["learned"]
    historical = 0.5 if learned is None else (1 + max(-1.0, min(1.0, learned))) / 2
    pe, pv = CONTEXT_PROFILE[moment["context"]]
    context = 1 - (abs(cand["energy"] - pe) + abs(cand["valence"] - pv)) / 2
    recency = 0.0
    if cand["last_played_ms"] is not None:
        minutes = (moment["now_ms"] - cand["last_played_ms"]) / 60000
        recency = max(0.0, min(1.0, 1 - minutes / prefs["recencyWindowMinutes"]))
    tod = time_of_day_penalty(cand["bpm"], moment["local_hour"], prefs)
    return [bpm, energy, familiarity, historical, context, recency, tod]


def engine_weights(prefs, boost):
    """The seven weights a decision scores with; familiarity × the adjuster's boost."""
    w = [float(prefs[k]) for k in WEIGHT_KEYS]
    w[2] *= boost
    return w


def base_score(c, w):
    """`SongScorer.baseScore`, left to right as Swift evaluates it."""
    return (w[0] * c[0] + w[1] * c[1] + w[2] * c[2] + w[3] * c[3] + w[4] * c[4]
            - w[5] * c[5] - w[6] * c[6])


def smoothness(prev, feat):
    tempo = max(0.0, 1 - abs(feat["bpm"] - prev["bpm"]) / BPM_JUMP_LIMIT)
    energy = 1 - min(1.0, abs(feat["energy"] - prev["energy"]))
    return (tempo + energy) / 2


def final_score(base, prev, feat):
    if prev is None:
        return base
    return BASE_SHARE * base + (1 - BASE_SHARE) * smoothness(prev, feat)


def argmax(scores):
    best = 0
    for i in range(len(scores)):
        if scores[i] > scores[best]:
            best = i
    return best


def softmax(scores, temperature):
    """`SelectionPolicy.softmax`: exp((s − top)/T), summed in order, each divided by the sum."""
    top = scores[argmax(scores)]
    weights = [math.exp((s - top) / temperature) for s in scores]
    total = 0.0
    for x in weights:
        total += x
    return [x / total for x in weights]


def rejection(cand, moment, prefs, adjuster):
    """`GuardFilters.rejection`: the reason a candidate may not play, or None."""
    if not cand["song"]:
        return "missing-id"
    last = cand["last_played_ms"]
    if last is not None and (moment["now_ms"] - last) / 60000 < prefs["repeatBlockMinutes"]:
        return "played-recently"
    window = moment["recent_artists"][:prefs["sameArtistWindow"]]
    if sum(1 for a in window if a == cand["artist"]) > prefs["sameArtistLimit"]:
        return "same-artist"
    if is_night(moment["local_hour"], prefs) and cand["bpm"] > prefs["nightHardCapBPM"]:
        return "night-bpm"
    ceiling = adjuster["bpm_ceiling"]
    if ceiling is not None and cand["bpm"] > ceiling:
        return "bpm-ceiling"
    return None


def adjuster_before(state, need, heart_rate):
    """`RealTimeGuardAdjuster.beforeDecision`."""
    baseline = state["baseline_heart_rate"]
    if need != "calm" or baseline is None or heart_rate is None:
        return dict(state)
    rise = heart_rate - baseline
    if rise < 5.0:
        return dict(state)
    ceiling = max(TARGET_BPM["calm"], 98.0 - 3.0 * (rise - 5.0))
    old = state["bpm_ceiling"]
    nxt = dict(state)
    nxt["bpm_ceiling"] = min(math.inf if old is None else old, ceiling)
    return nxt


def adjuster_after(state, skipped):
    """`RealTimeGuardAdjuster.afterPlay`."""
    nxt = dict(state)
    nxt["consecutive_skips"] = state["consecutive_skips"] + 1 if skipped else 0
    nxt["familiarity_boost"] = min(1.5, 1 + 0.25 * max(0, nxt["consecutive_skips"] - 1))
    return nxt


# ---------------------------------------------------------------------------------------------
# Time.

DAY_MS = 86_400_000
HOUR_MS = 3_600_000
EPOCH = datetime.datetime(1970, 1, 1)
START = datetime.date(2022, 6, 1)
HOME_OFFSET = -25200          # −07:00 (Pacific daylight time, all of June … October 2022)
TRIP_OFFSET = -14400          # −04:00


def iso(ms):
    seconds, millis = divmod(ms, 1000)
    t = EPOCH + datetime.timedelta(seconds=seconds)
    return t.strftime("%Y-%m-%dT%H:%M:%S") + f".{millis:03d}Z"


def local_ms(day, hour):
    """Milliseconds since the epoch of a local wall time (date + fractional hour), as if UTC."""
    midnight = datetime.datetime(day.year, day.month, day.day) - EPOCH
    return (midnight.days * 86400) * 1000 + int(round(hour * HOUR_MS))


def month_label(ms_local):
    t = EPOCH + datetime.timedelta(milliseconds=ms_local)
    return f"{t.year:04d}-{t.month:02d}"


def add_months(day, n):
    index = day.year * 12 + day.month - 1 + n
    return datetime.date(index // 12, index % 12 + 1, 1)


# ---------------------------------------------------------------------------------------------
# The person.

KINDS = {
    "taste": dict(tempo=2.0, tempo_width=16.0, energy=2.2, valence=1.0, mood_valence=True,
                  familiarity=1.8, artist_sd=0.45, quality_sd=0.8, fatigue=0.35, repeat=0.6,
                  jump=0.8, bias=2.2),
    "novelty": dict(tempo=0.9, tempo_width=22.0, energy=1.1, valence=0.5, mood_valence=False,
                    familiarity=-1.6, artist_sd=0.3, quality_sd=0.85, fatigue=1.3, repeat=1.8,
                    jump=0.3, bias=1.6),
    "flat": dict(tempo=0.0, tempo_width=16.0, energy=0.0, valence=0.0, mood_valence=False,
                 familiarity=0.0, artist_sd=0.0, quality_sd=0.0, fatigue=0.0, repeat=0.0,
                 jump=0.0, bias=0.9),
}
KIND_ORDER = ["taste", "novelty", "flat"]

# The person's own tempo and energy by context (not the app's targets).
IDEAL_TEMPO = {"workout": 146.0, "commute": 124.0, "deep-work": 86.0, "relax": 94.0,
               "wake-up": 106.0, "pre-sleep": 70.0, "general": 112.0}
IDEAL_ENERGY = {"workout": 0.88, "commute": 0.62, "deep-work": 0.32, "relax": 0.36,
                "wake-up": 0.52, "pre-sleep": 0.14, "general": 0.6}

WEEKDAY_SLOTS = [("wake-up", 6.4, 7.4), ("commute", 8.0, 8.5), ("deep-work", 9.3, 11.2),
                 ("general", 12.0, 12.8), ("deep-work", 13.4, 15.8), ("commute", 17.2, 17.8),
                 ("workout", 18.0, 18.8), ("relax", 19.4, 21.0), ("pre-sleep", 22.0, 23.2)]
WEEKEND_SLOTS = [("wake-up", 8.0, 9.3), ("workout", 9.5, 10.5), ("relax", 10.8, 12.5),
                 ("general", 12.8, 15.0), ("relax", 15.5, 18.0), ("relax", 19.0, 21.0),
                 ("pre-sleep", 22.3, 23.4)]
SESSION_HR = {"workout": 124.0, "commute": 92.0, "wake-up": 72.0, "deep-work": 75.0,
              "relax": 68.0, "pre-sleep": 62.0, "general": 80.0}

LIBRARY_SONGS = 180
ARTISTS = 45
PLAYLIST = 24


def sigmoid(z):
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


class Person:
    """The hidden person: parameters drawn from the seed, and the state their skips read."""

    def __init__(self, kind, rng):
        self.kind = kind
        self.p = dict(KINDS[kind])
        self.tempo_shift = rng.gauss(0, 8)
        self.tempo_context = {c: rng.gauss(0, 6) for c in IDEAL_TEMPO}
        self.energy_context = {c: rng.gauss(0, 0.07) for c in IDEAL_ENERGY}
        self.rhythm_amplitude = rng.uniform(4, 12)
        self.rhythm_peak = rng.uniform(13, 18)
        self.artist_affinity = [rng.gauss(0, self.p["artist_sd"]) for _ in range(ARTISTS)]
        self.quality = [rng.gauss(0, self.p["quality_sd"]) for _ in range(LIBRARY_SONGS)]
        # Exposure the person carries: per artist a decaying sum, per song the last hearing.
        self.artist_load = [0.0] * ARTISTS
        self.artist_load_ms = [None] * ARTISTS
        self.heard_ms = [None] * LIBRARY_SONGS

    def describe(self):
        return {"kind": self.kind, "parameters": self.p, "tempo_shift": self.tempo_shift,
                "tempo_context": self.tempo_context, "energy_context": self.energy_context,
                "rhythm_amplitude": self.rhythm_amplitude, "rhythm_peak": self.rhythm_peak}

    def ideal_tempo(self, context, hour):
        rhythm = self.rhythm_amplitude * math.cos(2 * math.pi * (hour - self.rhythm_peak) / 24)
        return IDEAL_TEMPO[context] + self.tempo_context[context] + self.tempo_shift + rhythm

    def fatigue(self, artist, now_ms):
        last = self.artist_load_ms[artist]
        if last is None:
            return 0.0
        return self.artist_load[artist] * math.exp(-(now_ms - last) / (4 * HOUR_MS))

    def moment_term(self, mood, stress, position, hour):
        """D(x): what the moment adds to keeping, whatever the song."""
        evening = 0.25 if 19 <= hour < 24 else 0.0
        return 0.35 * mood - 1.2 * (stress - 0.45) - 0.025 * position + evening

    def utility(self, song, library, moment, mood, previous_song):
        p = self.p
        if self.kind == "flat":
            return 0.0
        s = library[song]
        ctx = moment["context"]
        u = 0.0
        gap = (s["bpm"] - self.ideal_tempo(ctx, moment["local_hour"])) / p["tempo_width"]
        u += p["tempo"] * (math.exp(-0.5 * gap * gap) - 0.5)
        ideal_energy = IDEAL_ENERGY[ctx] + self.energy_context[ctx] + 0.06 * mood
        u -= p["energy"] * abs(s["energy"] - ideal_energy)
        ideal_valence = 0.5 + 0.18 * mood if p["mood_valence"] else 0.68
        u -= p["valence"] * abs(s["valence"] - ideal_valence)
        most = moment["max_play_count"]
        if most > 0:
            fam = math.log1p(s["plays"]) / math.log1p(most)
            u += p["familiarity"] * (fam - 0.5)
        u += self.artist_affinity[s["artist_index"]] + self.quality[song]
        u -= p["fatigue"] * self.fatigue(s["artist_index"], moment["now_ms"])
        heard = self.heard_ms[song]
        if heard is not None:
            u -= p["repeat"] * math.exp(-(moment["now_ms"] - heard) / (2 * HOUR_MS))
        if previous_song is not None:
            prev = library[previous_song]
            u -= p["jump"] * (abs(s["bpm"] - prev["bpm"]) / 40 + abs(s["energy"] - prev["energy"]))
        return u

    def keep_probability(self, song, library, moment, mood, previous_song, position):
        z = (self.p["bias"] + self.utility(song, library, moment, mood, previous_song)
             + self.moment_term(mood, moment["stress"], position, moment["local_hour"]))
        return sigmoid(z)

    def heard(self, song, artist, now_ms):
        self.artist_load[artist] = self.fatigue(artist, now_ms) + 1.0
        self.artist_load_ms[artist] = now_ms
        self.heard_ms[song] = now_ms


# ---------------------------------------------------------------------------------------------
# The library and the app's memory.

def make_library(rng, person):
    artists = []
    for a in range(ARTISTS):
        artists.append({"name": f"{rng.choice(FIRST)} {rng.choice(LAST)} {a}",
                        "bpm": rng.uniform(70, 150), "energy": rng.uniform(0.1, 0.9),
                        "valence": rng.uniform(0.15, 0.85)})
    songs = []
    used = set()
    for i in range(LIBRARY_SONGS):
        a = i % ARTISTS
        art = artists[a]
        while True:
            catalog = str(rng.randrange(1_000_000_000, 1_800_000_000))
            if catalog not in used:
                used.add(catalog)
                break
        bpm = float(min(190, max(55, round(rng.gauss(art["bpm"], 14)))))
        energy = round(min(0.98, max(0.02, rng.gauss(art["energy"], 0.12))), 3)
        valence = round(min(0.98, max(0.02, rng.gauss(art["valence"], 0.14))), 3)
        # The library's history: people play more of what they like.
        like = person.artist_affinity[a] + person.quality[i]
        plays = int(min(45, max(0, rng.lognormvariate(1.3 + 0.6 * like, 0.8) - 1)))
        songs.append({"song": catalog, "artist": art["name"], "artist_index": a, "bpm": bpm,
                      "energy": energy, "valence": valence, "plays": plays,
                      "duration_ms": rng.randrange(150_000, 330_000), "last_ms": None})
    return songs


FIRST = ["Aurel", "Bex", "Cato", "Dara", "Emrys", "Fen", "Gia", "Halo", "Ines", "Juno", "Kip",
         "Lio", "Mara", "Nox", "Oren", "Pia", "Quill", "Rhea", "Sol", "Tove"]
LAST = ["Vale", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Reyes", "Novak", "Adeyemi",
        "Kowal", "Brandt", "Sato", "Ferro", "Quist", "Hale", "Duarte"]


class Learned:
    """The app's learned effect per song and need: a shrunken mean of ±1 (kept/skipped)."""

    def __init__(self, rng, person, library):
        self.total = {}
        self.count = {}
        for i in range(LIBRARY_SONGS):
            for need in TARGET_BPM:
                if rng.random() < 0.3:
                    n = rng.randint(1, 4)
                    lean = 0.5 * (person.artist_affinity[library[i]["artist_index"]]
                                  + person.quality[i])
                    y = sum(1 if rng.random() < sigmoid(0.6 + 2 * lean) else -1 for _ in range(n))
                    self.total[(i, need)] = y
                    self.count[(i, need)] = n

    def value(self, song, need):
        n = self.count.get((song, need), 0)
        if n == 0:
            return None
        return round(self.total[(song, need)] / (n + 2), 3)

    def update(self, song, need, kept):
        self.total[(song, need)] = self.total.get((song, need), 0) + (1 if kept else -1)
        self.count[(song, need)] = self.count.get((song, need), 0) + 1


# ---------------------------------------------------------------------------------------------
# The simulation.

def day_sessions(rng, day):
    weekend = day.weekday() >= 5
    slots = WEEKEND_SLOTS if weekend else WEEKDAY_SLOTS
    k = rng.choices([2, 3, 4], weights=[0.3, 0.45, 0.25])[0]
    chosen = sorted(rng.sample(range(len(slots)), k))
    return [(slots[i][0], rng.uniform(slots[i][1], slots[i][2])) for i in chosen]


def playlist(rng, library, context):
    target = CONTEXT_PROFILE[context][0]
    weights = [math.exp(-3.0 * abs(s["energy"] - target)) for s in library]
    chosen = []
    pool = list(range(len(library)))
    for _ in range(PLAYLIST):
        i = rng.choices(range(len(pool)), weights=[weights[j] for j in pool])[0]
        chosen.append(pool.pop(i))
    return chosen


def listen(rng, duration, skipped):
    if skipped:
        if rng.random() < 0.4:
            ms = int(1500 + rng.expovariate(1 / 8000))
        else:
            ms = int(duration * rng.uniform(0.1, 0.7))
        return min(ms, duration), False
    if rng.random() < 0.92:
        return duration, True
    return int(duration * rng.uniform(0.6, 0.98)), False


def simulate(out, months, seed, kind):
    rng = random.Random(seed * 7919 + KIND_ORDER.index(kind))
    person = Person(kind, rng)
    library = make_library(rng, person)
    learned = Learned(rng, person, library)
    prefs = APP_PREFERENCES
    temperature = prefs["policy"]["temperature"]

    end_day = add_months(START, months)
    trip_start = add_months(START, 1) + datetime.timedelta(days=rng.randint(5, 20))
    trip = {trip_start + datetime.timedelta(days=k) for k in range(5)}
    end_local = local_ms(end_day, 0.0)

    folder = os.path.join(out, "resonance", "decisions")
    os.makedirs(folder, exist_ok=True)
    header = json.dumps({"format": "resonance.decision-log", "version": 2,
                         "generator": "scripts/independent_person.py",
                         "app": "Resonance DJ (independent simulation)", "preferences": prefs,
                         "components": COMPONENTS}, separators=(",", ":"))
    files = {}
    truth_path = os.path.join(out, "independent-truth.jsonl.gz")
    truth = gzip.open(truth_path, "wt")
    truth.write(json.dumps({"format": "independent.truth", "version": 1, "kind": kind,
                            "seed": seed, "months": months, "fields": ["keep"],
                            "person": person.describe()}) + "\n")

    mood = rng.gauss(0, 1)
    recent_artists = []
    decision = 0
    session = 0
    last_end_ms = None
    stats = {"decisions": 0, "skipped": 0, "rejected": 0, "admitted": 0}
    day = START
    while day < end_day:
        offset = TRIP_OFFSET if day in trip else HOME_OFFSET
        mood = 0.75 * mood + math.sqrt(1 - 0.75 ** 2) * rng.gauss(0, 1)
        for context, start_hour in day_sessions(rng, day):
            start_ms = local_ms(day, start_hour) - offset * 1000
            if last_end_ms is not None and start_ms < last_end_ms + 15 * 60_000:
                start_ms = last_end_ms + rng.randint(15, 40) * 60_000
                if (start_ms + offset * 1000 - local_ms(day, start_hour)) > 1.5 * HOUR_MS:
                    continue
            session_mood = mood + rng.gauss(0, 0.3)
            stress = min(1.0, max(0.0, 0.42 - 0.09 * session_mood
                                  + (0.08 if context == "deep-work" else 0.0)
                                  + rng.gauss(0, 0.13)))
            hr = SESSION_HR[context] + rng.gauss(0, 5)
            climbing = rng.random() < 0.33
            adjuster = {"baseline_heart_rate": None, "bpm_ceiling": None,
                        "consecutive_skips": 0, "familiarity_boost": 1}
            songs = playlist(rng, library, context)
            previous = None
            now = start_ms
            length = rng.randint(10, 20)
            for position in range(length):
                if now + offset * 1000 >= end_local:
                    break
                stress = min(1.0, max(0.0, stress + rng.gauss(0, 0.02)))
                stress_logged = round(stress, 4)
                need = need_for(context, stress_logged)
                hr += rng.gauss(0, 1.5) + (1.4 if climbing and need == "calm" else 0.0) \
                    - 0.1 * (hr - SESSION_HR[context]) * (0 if climbing else 1)
                hr_logged = round(hr, 1)
                if adjuster["baseline_heart_rate"] is None:
                    adjuster["baseline_heart_rate"] = hr_logged
                adjuster = adjuster_before(adjuster, need, hr_logged)
                local = now + offset * 1000
                hour = round((local % DAY_MS) / HOUR_MS, 4)
                if hour >= 24:
                    hour = 23.9999
                moment = {"need": need, "context": context, "now_ms": now, "local_hour": hour,
                          "stress": stress_logged, "recent_artists": list(recent_artists),
                          "max_play_count": max(s["plays"] for s in library)}
                cands = []
                for i in songs:
                    s = library[i]
                    cands.append({"index": i, "song": s["song"], "artist": s["artist"],
                                  "bpm": s["bpm"], "energy": s["energy"],
                                  "valence": s["valence"], "plays": s["plays"],
                                  "learned": learned.value(i, need),
                                  "last_played_ms": s["last_ms"]})
                admitted, rejected = [], []
                for c in cands:
                    reason = rejection(c, moment, prefs, adjuster)
                    (admitted if reason is None else rejected).append((c, reason))
                if not admitted:
                    admitted, rejected = [(c, None) for c in cands], []
                admitted = [c for c, _ in admitted]
                w = engine_weights(prefs, adjuster["familiarity_boost"])
                prev_feat = None if previous is None else library[previous]
                scored = []
                for c in admitted:
                    comp = components(c, moment, prefs)
                    base = base_score(comp, w)
                    scored.append((comp, base, final_score(base, prev_feat, c)))
                probs = softmax([f for _, _, f in scored], temperature)
                u = rng.random()
                pick = len(admitted) - 1
                cumulative = 0.0
                for k, pr in enumerate(probs):
                    cumulative += pr
                    if u < cumulative:
                        pick = k
                        break
                keeps = [person.keep_probability(c["index"], library, moment, session_mood,
                                                 previous, position) for c in admitted]
                chosen = admitted[pick]["index"]
                song = library[chosen]
                skipped = rng.random() >= keeps[pick]
                listened, completed = listen(rng, song["duration_ms"], skipped)

                line = {
                    "t": iso(now), "offset": offset, "decision": decision, "session": session,
                    "need": need, "context": context, "local_hour": hour,
                    "stress": stress_logged, "max_play_count": moment["max_play_count"],
                    "previous": None if prev_feat is None else {
                        "bpm": prev_feat["bpm"], "energy": prev_feat["energy"],
                        "valence": prev_feat["valence"]},
                    "recent_artists": moment["recent_artists"], "heart_rate": hr_logged,
                    "adjuster": dict(adjuster),
                    "candidates": [dict(candidate_inputs(c), c=comp, base=base, score=fin,
                                        p=pr)
                                   for c, (comp, base, fin), pr in zip(admitted, scored, probs)],
                    "rejected": [dict(candidate_inputs(c), reason=r) for c, r in rejected],
                    "chosen": song["song"],
                    "outcome": {"listened_ms": listened, "duration_ms": song["duration_ms"],
                                "skipped": skipped, "completed": completed},
                }
                label = month_label(local)
                if label not in files:
                    f = open(os.path.join(folder, f"decisions-{label}.jsonl"), "w")
                    f.write(header + "\n")
                    files[label] = f
                files[label].write(json.dumps(line, separators=(",", ":")) + "\n")
                truth.write(json.dumps({"decision": decision, "month": label,
                                        "songs": [c["song"] for c in admitted],
                                        "keep": keeps}, separators=(",", ":")) + "\n")
                stats["decisions"] += 1
                stats["skipped"] += skipped
                stats["admitted"] += len(admitted)
                stats["rejected"] += len(rejected)

                # What the decision changed: the library, the app's memory, the person.
                if not skipped:
                    song["plays"] += 1
                song["last_ms"] = now
                learned.update(chosen, need, not skipped)
                person.heard(chosen, song["artist_index"], now)
                recent_artists = [song["artist"]] + recent_artists[:4]
                adjuster = adjuster_after(adjuster, skipped)
                previous = chosen
                decision += 1
                now += listened + rng.randint(300, 2500)
            last_end_ms = now
            session += 1
        day += datetime.timedelta(days=1)
    for f in files.values():
        f.close()
    truth.close()
    return stats


def candidate_inputs(c):
    return {"song": c["song"], "artist": c["artist"], "bpm": c["bpm"], "energy": c["energy"],
            "valence": c["valence"], "plays": c["plays"], "learned": c["learned"],
            "last_played": None if c["last_played_ms"] is None else iso(c["last_played_ms"])}


def read_truth(path):
    """The truth file: (header, {decision: (songs, keep)})."""
    with gzip.open(path, "rt") as f:
        header = json.loads(f.readline())
        rows = {}
        for line in f:
            row = json.loads(line)
            rows[row["decision"]] = (row["songs"], row["keep"])
    return header, rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--months", type=int, default=4)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--kind", choices=KIND_ORDER, default="taste")
    args = parser.parse_args(argv)
    stats = simulate(args.out, args.months, args.seed, args.kind)
    print(f"{args.kind} seed {args.seed}: {stats['decisions']} decisions, "
          f"skip share {stats['skipped'] / max(1, stats['decisions']):.3f}, "
          f"{stats['admitted'] / max(1, stats['decisions']):.1f} admitted and "
          f"{stats['rejected'] / max(1, stats['decisions']):.1f} rejected per decision",
          file=sys.stderr)


if __name__ == "__main__":
    main()
