import Foundation
import ResonanceBrain
import ResonanceIngest
import ResonanceModel
import Testing

@testable import ResonanceSynth

func spearman(_ x: [Double], _ y: [Double]) -> Double { Statistics.spearman(x, y) ?? .nan }

/// The breathing analysis recovers what the simulated person planted.
@Suite("breathing: recovering the planted adherence and rate")
struct BreathingValidationTests {
  struct Session {
    var adherence: Double
    var trueRate: Double
    var pacerRate: Double
    var analysis: BreathingAnalysis
  }

  static let sessions: [Session] = {
    var configuration = SynthConfiguration()
    configuration.months = 3
    configuration.songs = 100
    configuration.scale = 0.1
    configuration.seed = 11
    let history = LifeSimulator.run(configuration)
    return history.breathing.compactMap { session in
      let recording = BreathingRecorder.record(session, history: history)
      guard
        let (read, _) = try? BreathingRecordingReader.read(path: "s", data: Data(recording.text))
      else { return nil }
      let cycle = session.pattern.phases.reduce(0) { $0 + $1.seconds }
      return Session(
        adherence: recording.adherence, trueRate: recording.trueRate, pacerRate: 60 / cycle,
        analysis: BreathingAnalysis(read))
    }
  }()

  @Test(
    "the Resonance Score and the phase-locking value rank sessions as the planted adherence does (Spearman ≥ 0.8)"
  )
  func adherence() {
    let sessions = Self.sessions
    #expect(sessions.count >= 20)
    let planted = sessions.map(\.adherence)
    let score = spearman(sessions.map { $0.analysis.score.score ?? -1 }, planted)
    let plv = spearman(sessions.map { $0.analysis.phaseLocking ?? -1 }, planted)
    #expect(score >= 0.8, "Spearman(score, adherence) = \(score)")
    #expect(plv >= 0.8, "Spearman(PLV, adherence) = \(plv)")
  }

  @Test(
    "for sessions that followed the pacer, the measured rate is within 0.5 breaths/min of the planted one"
  )
  func rate() {
    let followed = Self.sessions.filter { $0.adherence >= 0.999 }
    #expect(!followed.isEmpty)
    for session in followed {
      let measured = session.analysis.breathsPerMinute ?? .nan
      #expect(
        abs(measured - session.trueRate) <= 0.5, "measured \(measured), planted \(session.trueRate)"
      )
    }
  }
}
