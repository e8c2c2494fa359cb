import Foundation
import ResonanceIngest
import ResonanceModel
import Testing

@testable import ResonanceSynth

@Suite("synth: the closed-loop value of the DJ's policy in truth.json", .serialized)
struct ClosedLoopTests {
  /// Two months, June and July 2022, of a small library.
  static var twoMonths: SynthConfiguration {
    var configuration = SynthFolder.small
    configuration.months = 2
    configuration.songs = 60
    configuration.scale = 0.05
    return configuration
  }

  /// The mean over `decisions` of Σ p · E[x] over each one's admitted candidates.
  static func mean(_ decisions: [SynthDecision], _ value: (CandidateTruth) -> Double) -> Double {
    var total = 0.0
    for decision in decisions {
      for i in decision.scored.indices {
        total += decision.scored[i].propensity * value(decision.truth[i])
      }
    }
    return total / Double(decisions.count)
  }

  @Test(
    "dj_months: each month's skip, share and response are the mean over its decisions of Σ p·E, its skipped the share skipped"
  )
  func closedLoopValue() throws {
    let folder = try SynthFolder(Self.twoMonths)
    let history = folder.history
    let truth = try SynthTruth(json: Data(contentsOf: folder.url("truth.json")))
    // Each decision in the local month it was made in, by the calendar's offset at the time.
    var byMonth: [String: [SynthDecision]] = [:]
    for decision in history.decisions {
      let t = decision.moment.nowMs
      let local = t + Int64(history.calendar.offset(utcMs: t)) * 1000
      let month = String(Timestamp.iso8601UTC(millisecondsSinceEpoch: local).prefix(7))
      byMonth[month, default: []].append(decision)
    }
    #expect(truth.djMonths.map(\.month) == ["2022-06", "2022-07"])
    #expect(byMonth.keys.sorted() == ["2022-06", "2022-07"])
    #expect(truth.djMonths.reduce(0) { $0 + $1.decisions } == history.decisions.count)
    for month in truth.djMonths {
      let decisions = try #require(byMonth[month.month])
      #expect(month.decisions == decisions.count)
      #expect(abs(month.skip - Self.mean(decisions) { $0.skip }) < 1e-12)
      #expect(abs(month.share - Self.mean(decisions) { $0.share }) < 1e-12)
      #expect(abs(month.response - Self.mean(decisions) { $0.response }) < 1e-12)
      let skipped = decisions.filter { history.plays[$0.play].isSkipped }.count
      #expect(month.skipped == Double(skipped) / Double(decisions.count))
      #expect((0...1).contains(month.skip) && (0...1).contains(month.share))
    }

    // From the files alone: the months and propensities of the decision log, the expectations
    // of decisions-truth.jsonl.gz (written to six decimals).
    let expectations = try DecisionTruthFile.read(
      path: folder.path + "/" + SynthWriter.decisionTruth)
    for month in truth.djMonths {
      let file = "resonance/decisions/decisions-\(month.month).jsonl"
      let (trace, _) = try TraceReader.read(path: file, data: Data(contentsOf: folder.url(file)))
      guard case .decisions(let records) = trace.content else {
        Issue.record("\(file) is not read as a decision log")
        continue
      }
      #expect(records.count == month.decisions)
      var sums = [0.0, 0.0, 0.0]
      for record in records {
        let line = try #require(expectations[record.decision])
        #expect(line.songs == record.candidates.map(\.song))
        for (candidate, expected) in zip(record.candidates, line.candidates) {
          sums[0] += candidate.propensity * expected.skip
          sums[1] += candidate.propensity * expected.share
          sums[2] += candidate.propensity * expected.response
        }
      }
      let n = Double(records.count)
      #expect(abs(month.skip - sums[0] / n) < 1e-6)
      #expect(abs(month.share - sums[1] / n) < 1e-6)
      #expect(abs(month.response - sums[2] / n) < 1e-6)
      let skipped = records.filter { $0.outcome?.skipped == true }.count
      #expect(month.skipped == Double(skipped) / n)
    }
  }
}
