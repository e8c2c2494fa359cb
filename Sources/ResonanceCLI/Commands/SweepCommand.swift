import Foundation
import ResonanceModel
import ResonanceReports
import ResonanceStore
import ResonanceTuning

/// `resonance sweep`: every point of a design over the seven weights, estimated offline on
/// the DJ's logged decisions.
struct SweepCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "sweep",
    abstract:
      "Estimate, from the DJ's own log, how every point of a design over its seven weights would have done.",
    discussion: """
      Reads the DJ's decisions from the store (resonance ingest reads the decision log; \
      resonance analyze adds the heart rate and HRV around each play and the sessions' \
      quality) and estimates, for the preferences in force and for every point of the design, \
      the mean reward the app's own policy (its softmax and temperature) would have earned \
      with those weights, by off-policy evaluation: each logged choice reweighted by how much \
      likelier the point makes it, with a reward model cross-fitted by month (doubly robust by \
      default). docs/tuning.md explains every estimator and diagnostic.

      The design lays the five ranking weights on the simplex and each penalty strength from \
      0 to 0.5; then every point is rescaled so its scores spread among a decision's \
      candidates as the preferences in force do. Under a softmax, scaling the weights is the \
      same as changing the temperature: the design compares tastes at the app's greediness, \
      not greedier or more random DJs. The CSV gives the weights as evaluated.

      Every point's estimates (the chosen reward, the keep rate and the response score, the \
      effective sample size, the largest weight, the agreement share) go into the store \
      (sweep_runs, sweep_points) and to a CSV, with the Pareto front of keep rate against \
      response marked. The best point of a sweep is chosen on the whole history, so its \
      estimate is optimistic: resonance tune chooses on earlier months and judges on a later \
      one.
      """,
    options: [Option.db, Self.out, Self.intervals] + TuningOptions.options
      + OutputOptions.options,
    examples: [
      Example("resonance sweep", "1,024 Sobol points, composite reward, doubly robust."),
      Example(
        "resonance sweep --design grid --step 0.1 --reward keep --out /tmp/grid.csv",
        "Every weight vector on a 0.1 grid, judged by the keep rate."),
    ])

  static let out = Option(
    "out", placeholder: "FILE",
    help: "Where the CSV of every point goes. Default: Reports/sweep.csv.", parser: .nonEmpty)

  static let intervals = Flag(
    "intervals",
    help:
      "Also give every point's value a 90% interval, from a bootstrap over days (at most 1,000 points)."
  )

  var store: StoreOptions
  var output: OutputOptions
  var tuning: TuningOptions
  var outPath: String
  var withIntervals: Bool

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    store = try StoreOptions(parsed, environment)
    output = OutputOptions(parsed)
    tuning = try TuningOptions(parsed, command: Self.configuration.name)
    outPath = parsed[Self.out] ?? "Reports/sweep.csv"
    withIntervals = parsed[Self.intervals]
    if withIntervals, tuning.design.count > 1_000 {
      throw UsageError(
        "'--intervals' takes at most 1,000 points; the design has \(tuning.design.count)",
        hint: "resonance sweep --intervals --points 200")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let store = try self.store.openExisting(for: Self.configuration.name)
    let history = try tuning.history(store)
    if output.isText {
      context.report(
        "sweep: evaluating \(Format.grouped(tuning.design.count)) points over "
          + "\(Format.grouped(history.records.count)) logged decisions")
    }
    let sweep: SweepResult
    do {
      sweep = try Sweeper.sweep(
        history, design: tuning.design, reward: tuning.reward, estimator: tuning.estimator,
        product: tuning.product, intervals: withIntervals)
    } catch {
      throw CommandError(.dataError, "\(store.path): \(error.detail)")
    }
    let run = try store.insertSweep(sweep, at: Clock.nowMilliseconds())
    try OutputFiles.write(SweepReport.csv(sweep).text, to: outPath)
    if output.isJSON {
      context.console.out(SweepReport.json(sweep, csvPath: outPath, run: run).text)
    } else if !output.isQuiet {
      for line in SweepReport.lines(sweep, csvPath: outPath, run: run, minimumESS: 200) {
        context.console.out(line + "\n")
      }
    }
    return .ok
  }
}
