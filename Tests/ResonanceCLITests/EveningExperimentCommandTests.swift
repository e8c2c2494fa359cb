import Foundation
import ResonanceModel
import Testing

@testable import ResonanceCLI

@Suite("resonance experiment --question evening-music: music before bed, evening by evening")
struct EveningExperimentCommandTests {
  @Test(
    "planned on a history with a planted +15 minutes asleep, carried out by the simulated DJ and analysed: three arms of 21-day cycles, the calm list from the estimates, calm evenings with music and no-music ones mostly without, and the music effect with its interval"
  )
  func wholeLoop() throws {
    let folder = try TemporaryFolder()
    let person = ["--songs", "120", "--scale", "0.05", "--seed", "72001", "--evening-asleep", "15"]
    let history = folder.file("history")
    #expect(
      runResonance(["synth", "--out", history, "--months", "4", "-q"] + person).status == .ok)
    let store = folder.file("store.sqlite")
    #expect(runResonance(["ingest", history, "--db", store, "-q"]).status == .ok)
    let plan = folder.file("plan.json")
    let planArguments = [
      "experiment", "plan", "--db", store, "--question", "evening-music", "--max-days", "84",
      "--out", plan, "--json", "-q",
    ]
    // The calm list comes from the song-effect estimates, which analyze writes.
    let early = runResonance(planArguments)
    #expect(early.status == .noInput && early.err.contains("resonance analyze"), "\(early.err)")
    #expect(runResonance(["analyze", "--db", store, "-q"]).status == .ok)
    let planned = runResonance(planArguments)
    #expect(planned.status == .ok, "\(planned.err)")
    let experiment = try #require(
      try PreferenceFile(data: Data(contentsOf: URL(fileURLWithPath: plan))).experiment)
    #expect(experiment.arms.map(\.name) == ["usual", "calm", "none"])
    #expect(experiment.arms.map(\.evening) == [.usual, .calm, .noMusic])
    #expect((experiment.arms[1].songs?.count ?? 0) >= 10)
    #expect(experiment.arms[1].songs!.allSatisfy { $0.heartRateEffect < 0 })
    #expect(experiment.start == "2022-10-01" && experiment.days == 84)
    #expect(experiment.stoppingRule.cycleDays == 21 && experiment.outcome == "minutes-asleep")
    #expect(experiment.evening?.windowMinutes == 60 && experiment.block == "evening")

    let carried = folder.file("carried")
    let made = runResonance(
      ["synth", "--out", carried, "--months", "7", "--dj-preferences", plan, "-q"] + person)
    #expect(made.status == .ok, "\(made.err)")
    #expect(runResonance(["ingest", carried, "--db", store, "-q"]).status == .ok)
    let analyzed = runResonance([
      "experiment", "analyze", "--db", store, "--plan", plan, "--json", "-q",
    ])
    #expect(analyzed.status == .ok, "\(analyzed.err)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(analyzed.out.utf8)) as? [String: Any])
    #expect(json["days_left"] as? Int == 0)
    let evenings = try #require(json["evenings"] as? [String: Any])
    let arms = try #require(evenings["arms"] as? [[String: Any]])
    let withMusic = Dictionary(
      uniqueKeysWithValues: arms.map { ($0["arm"] as! String, $0["with_music"] as! Int) })
    let counted = arms.map { $0["evenings"] as! Int }
    #expect(counted.allSatisfy { $0 >= 24 }, "\(counted)")
    #expect(withMusic["calm"]! >= 22, "\(withMusic)")
    #expect(withMusic["none"]! < withMusic["calm"]! / 2, "\(withMusic)")
    let effect = try #require(evenings["music_effect"] as? [String: Any])
    #expect(effect["cycles"] as? Int == 4)
    let lower = try #require(effect["lower"] as? Double)
    let upper = try #require(effect["upper"] as? Double)
    #expect(lower < 15 && 15 < upper)

    let text = runResonance(["experiment", "analyze", "--db", store, "--plan", plan])
    #expect(text.out.contains("minutes asleep per evening with music"), "\(text.out)")
    // The arms are set: a candidate file is refused.
    let refused = runResonance([
      "experiment", "plan", "--db", store, "--question", "evening-music", "--candidate", plan,
    ])
    #expect(refused.status == .usage)
  }
}
