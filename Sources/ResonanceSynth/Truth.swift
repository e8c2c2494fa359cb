import Foundation
import ResonanceBrain
import ResonanceModel

/// `truth.json`: everything the simulation planted, for validating every later stage.
///
/// `SynthWriter` writes it with `JSONEncoder`'s snake-case keys; `SynthTruth(json:)` reads it
/// back, and `validate(_:)` (`TruthValidation.swift`) judges the analyses against it.
package struct SynthTruth: Sendable, Equatable, Codable {
  /// How the history was generated: the `resonance synth` options.
  package struct Generator: Sendable, Equatable, Codable {
    var command: String
    var seed: UInt64
    var months: Int
    var songs: Int
    var scale: Double
    var start: String
    /// The person's kind (`--person`) and how far their taste lies from the app's
    /// (`--taste-contrast`).
    var person: String
    var tasteContrast: Double
    var effectScale: Double
    var zip: Bool
    /// The DJ's settings: `app` for the app's defaults, else the preference file given.
    var djPreferences: String
    /// The first day the DJ ran `djPreferences` (`--dj-from`, `YYYY-MM-DD`, the first of a
    /// month), the app's defaults before it; nil (`null`) when it ran them throughout.
    var djFrom: String?
    /// The first day of the experiment the DJ carried out (`--dj-preferences` naming a plan),
    /// `YYYY-MM-DD`; nil, and the key left out, without one.
    var experimentStart: String? = nil

    /// Encodes every field by the synthesized coding keys, `djFrom` as `null` when it is nil
    /// (the synthesized encoding would leave the key out).
    package func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(command, forKey: .command)
      try c.encode(seed, forKey: .seed)
      try c.encode(months, forKey: .months)
      try c.encode(songs, forKey: .songs)
      try c.encode(scale, forKey: .scale)
      try c.encode(start, forKey: .start)
      try c.encode(person, forKey: .person)
      try c.encode(tasteContrast, forKey: .tasteContrast)
      try c.encode(effectScale, forKey: .effectScale)
      try c.encode(zip, forKey: .zip)
      try c.encode(djPreferences, forKey: .djPreferences)
      if let djFrom {
        try c.encode(djFrom, forKey: .djFrom)
      } else {
        try c.encodeNil(forKey: .djFrom)
      }
      try c.encodeIfPresent(experimentStart, forKey: .experimentStart)
    }
  }

  /// The simulated person: physiology and musical preferences.
  package struct Person: Sendable, Equatable, Codable {
    var birthYear: Int
    var restingHrStart: Double
    var restingHrDriftPerYear: Double
    var hrvBaseMs: Double
    /// The kind and the traits it carries (`PersonTraits`); a `mixed` person's traits are
    /// the mix its seed drew.
    var kind: String
    /// The weights the person keeps or skips by on the first day (drift moves them after).
    var preferences: ScoringWeights
    var traits: PersonTraits
    var targetSkipShare: Double
  }

  /// The simulated app's DJ: its seven weights and selection policy (the rest of its
  /// settings are in every decision log's header). With `generator.djFrom` these are the
  /// settings it ran from that day on; before it, it ran the app's defaults.
  package struct App: Sendable, Equatable, Codable {
    var weights: ScoringWeights
    var policy: String
    var temperature: Double
    var epsilon: Double
  }

  /// One song of the simulated library, with its planted features and effects.
  package struct Song: Sendable, Equatable, Codable {
    var catalogId: String
    var persistentId: String
    var spotifyUri: String
    var title: String
    var artist: String
    var album: String
    var genre: String
    var durationMs: Int
    var bpm: Double
    var energy: Double
    var valence: Double
    var libraryBpm: Int?
    var effectKind: String
    /// Change in heart rate while it plays (BPM) before the context gain.
    var hrEffectBpm: Double
    /// Change in SDNN while it plays (ms) before the context gain.
    var hrvEffectMs: Double
    /// A cohort member's planted tempo term, bpm in every context (no context gain); absent
    /// for a lone person.
    var tempoEffectBpm: Double?
  }

  /// One night of sleep as lived.
  package struct Night: Sendable, Equatable, Codable {
    var bed: String
    var wake: String
    var deepShare: Double
    var remShare: Double
    var listeningNudge: Double
    /// With a planted minutes-asleep effect (`--evening-asleep`, `--cohort`): whether the
    /// evening had the music that earns it, and the minutes asleep gained; absent without.
    var eveningMusic: Bool? = nil
    var asleepGainMin: Double? = nil
  }

  /// The minutes-asleep effect `--evening-asleep` planted in a lone person: the minutes
  /// gained on a night after at least `musicMin` minutes of music in the `windowMin` minutes
  /// before bed.
  package struct EveningMusic: Sendable, Equatable, Codable {
    var asleepMin: Double
    var windowMin: Int
    var musicMin: Double
  }

  /// One breathing-pacer session as planted: adherence and the true breathing rate.
  package struct Breathing: Sendable, Equatable, Codable {
    var session: Int
    var file: String
    var pattern: String
    var started: String
    /// Share of inhale and exhale phases the person followed.
    var adherence: Double
    var trueRateBpm: Double
    var pacerRateBpm: Double
    var expression: String
    /// What the session itself added to the SDNN reading after it, ms (adherence × U(4, 12)).
    var plantedSdnnChangeMs: Double = 0
  }

  /// What breathing practice was planted to do (`docs/synth.md`, "Breathing practice").
  package struct Practice: Sendable, Equatable, Codable {
    /// The mean of the sessions' planted within-session changes, ms: what the pooled change
    /// before → after estimates (the body's own wander between the readings averages 0).
    var acuteSdnnMs: Double
    /// The rise of the overnight SDNN after a day with practice, ms.
    var nightSdnnMs: Double
    /// The change of the next morning's resting heart rate, bpm.
    var morningRestingHrBpm: Double
  }

  /// A cohort member's person-level effects (`--cohort`), drawn from the cohort's population
  /// (`cohort-truth.json` beside the members holds it).
  package struct Planted: Sendable, Equatable, Codable {
    /// Heart rate while a song plays, bpm per 10 BPM of tempo.
    var tempoHrPerTenBpm: Double
    /// Minutes asleep gained after an evening with music.
    var eveningMusicAsleepMin: Double
    /// The night's SDNN rise after a day with breathing practice, ms.
    var practiceNightSdnnMs: Double

    init(_ effects: PlantedEffects) {
      tempoHrPerTenBpm = effects.tempoHeartRatePer10BPM
      eveningMusicAsleepMin = effects.eveningMusicAsleepMinutes
      practiceNightSdnnMs = effects.practiceNightSDNNMs
    }
  }

  /// The sustained change `--step` planted: its first day and sizes.
  package struct Step: Sendable, Equatable, Codable {
    /// `YYYY-MM-DD`, local.
    var date: String
    var restingHrBpm: Double
    /// Every SDNN from the date on is multiplied by this.
    var sdnnFactor: Double
  }

  /// Counts of the plays the history holds.
  package struct Plays: Sendable, Equatable, Codable {
    var total: Int
    var byDj: Int
    var skipped: Int
    var skippedWithin5S: Int
    var appleMusic: Int
    var spotify: Int
    var sessions: Int
    var decisions: Int
    /// The DJ's own plays the person skipped: `dj_skipped / by_dj` is the DJ's true skip
    /// share, the figure a preference file is judged by.
    var djSkipped: Int
    /// The mean share of each DJ play heard, 0 … 1.
    var djListenShare: Double
  }

  /// One calendar month of the DJ's decisions (the local month the person lived in, as the
  /// decision log's `decisions-YYYY-MM.jsonl` names it) with the closed-loop value of the
  /// DJ's own policy along the path lived: the mean over the month's decisions of
  /// Σ_s p_s · E[x | s] over each decision's admitted candidates s, p_s the logged propensity
  /// and E[x | s] the candidate's planted expectation (`CandidateTruth`, what
  /// `decisions-truth.jsonl.gz` holds), free of the noise of the outcomes drawn.
  package struct DJMonth: Sendable, Equatable, Codable {
    /// `YYYY-MM`.
    var month: String
    /// The DJ's decisions that month, at least one.
    var decisions: Int
    /// The expected skip chance, 0 … 1.
    var skip: Double
    /// The expected share of a song heard, 0 … 1.
    var share: Double
    /// The expected response score, 0 … 1.
    var response: Double
    /// The share of the month's DJ plays the person did skip, 0 … 1: what the draws gave.
    var skipped: Double
  }

  /// A listening session as lived: when, and the context that scaled its songs' effects.
  package struct Session: Sendable, Equatable, Codable {
    var startMs: Int64
    var endMs: Int64
    var context: String
    var byDj: Bool
  }

  /// The account values the real files carry and the store must never hold.
  package struct Privacy: Sendable, Equatable, Codable {
    var appleIdNumber: String
    var deviceIdentifier: String
    var clientIp: String
    var spotifyUsername: String
  }

  var generator: Generator
  var person: Person
  var app: App
  var genrePriors: [GenrePrior]
  var contextGain: [String: Double]
  var songs: [Song]
  var trips: [SynthCalendar.Trip]
  var nights: [Night]
  var breathing: [Breathing]
  /// Nil in a truth.json written before practice effects were planted.
  var practice: Practice?
  /// Nil without `--step`.
  var step: Step?
  /// Nil but for a cohort member.
  var planted: Planted?
  /// Nil without `--evening-asleep`.
  var eveningMusic: EveningMusic? = nil
  var plays: Plays
  /// The closed-loop value of the DJ's policy in each month that has DJ decisions, in order.
  var djMonths: [DJMonth] = []
  var sessions: [Session]
  /// Values the real files carry that the store must never hold.
  var privacy: Privacy
}

extension SynthTruth {
  /// Reads a `truth.json` as `resonance synth` writes it (snake-case keys, `SynthWriter`).
  ///
  /// - Parameter data: The file's bytes.
  /// - Throws: `DecodingError` when they are not JSON or not a truth.json: a missing key, or
  ///   a value of the wrong type.
  package init(json data: Data) throws {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    self = try decoder.decode(SynthTruth.self, from: data)
  }

  /// Decodes every field by the synthesized coding keys, but the genre priors through
  /// `GenrePriorRecord`: the encoder writes `bpmSD` as `bpm_sd`, which the snake-case decoder
  /// turns into `bpmSd`, a key `GenrePrior` does not have.
  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    generator = try c.decode(Generator.self, forKey: .generator)
    person = try c.decode(Person.self, forKey: .person)
    app = try c.decode(App.self, forKey: .app)
    genrePriors = try c.decode([GenrePriorRecord].self, forKey: .genrePriors).map(\.prior)
    contextGain = try c.decode([String: Double].self, forKey: .contextGain)
    songs = try c.decode([Song].self, forKey: .songs)
    trips = try c.decode([SynthCalendar.Trip].self, forKey: .trips)
    nights = try c.decode([Night].self, forKey: .nights)
    breathing = try c.decode([Breathing].self, forKey: .breathing)
    practice = try c.decodeIfPresent(Practice.self, forKey: .practice)
    step = try c.decodeIfPresent(Step.self, forKey: .step)
    planted = try c.decodeIfPresent(Planted.self, forKey: .planted)
    eveningMusic = try c.decodeIfPresent(EveningMusic.self, forKey: .eveningMusic)
    plays = try c.decode(Plays.self, forKey: .plays)
    // A truth.json written before the closed-loop value was planted has none.
    djMonths = try c.decodeIfPresent([DJMonth].self, forKey: .djMonths) ?? []
    sessions = try c.decode([Session].self, forKey: .sessions)
    privacy = try c.decode(Privacy.self, forKey: .privacy)
  }

  /// A genre prior as the snake-case decoder names its keys.
  private struct GenrePriorRecord: Decodable {
    var genre: String
    var share: Double
    var bpmMean: Double
    var bpmSd: Double
    var energyMean: Double
    var energySd: Double
    var valenceMean: Double
    var valenceSd: Double

    var prior: GenrePrior {
      GenrePrior(genre, share, bpmMean, bpmSd, energyMean, energySd, valenceMean, valenceSd)
    }
  }
}
