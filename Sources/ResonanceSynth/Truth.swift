import ResonanceBrain
import ResonanceModel

/// `truth.json`: everything the simulation planted, for validating every later stage.
package struct SynthTruth: Sendable, Codable {
  package struct Generator: Sendable, Codable {
    var command: String
    var seed: UInt64
    var months: Int
    var songs: Int
    var scale: Double
    var start: String
    var preferences: String
    var effectScale: Double
    var zip: Bool
  }

  package struct Person: Sendable, Codable {
    var birthYear: Int
    var restingHrStart: Double
    var restingHrDriftPerYear: Double
    var hrvBaseMs: Double
    var preferences: ScoringWeights
    var targetSkipShare: Double
  }

  package struct App: Sendable, Codable {
    var weights: ScoringWeights
    var policy: String
    var temperature: Double
  }

  package struct Song: Sendable, Codable {
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
  }

  package struct Night: Sendable, Codable {
    var bed: String
    var wake: String
    var deepShare: Double
    var remShare: Double
    var listeningNudge: Double
  }

  package struct Breathing: Sendable, Codable {
    var session: Int
    var file: String
    var pattern: String
    var started: String
    /// Share of inhale and exhale phases the person followed.
    var adherence: Double
    var trueRateBpm: Double
    var pacerRateBpm: Double
    var expression: String
  }

  package struct Plays: Sendable, Codable {
    var total: Int
    var byDj: Int
    var skipped: Int
    var skippedWithin5S: Int
    var appleMusic: Int
    var spotify: Int
    var sessions: Int
    var decisions: Int
  }

  /// A listening session as lived: when, and the context that scaled its songs' effects.
  package struct Session: Sendable, Codable {
    var startMs: Int64
    var endMs: Int64
    var context: String
    var byDj: Bool
  }

  package struct Privacy: Sendable, Codable {
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
  var plays: Plays
  var sessions: [Session]
  /// Values the real files carry that the store must never hold.
  var privacy: Privacy
}
