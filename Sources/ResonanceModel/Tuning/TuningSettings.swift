/// How `resonance tune` selects and judges (`docs/tuning.md`, "Honest selection"): the
/// design, the reward and the estimator, and the rule's thresholds. The defaults are the
/// documented ones.
package struct TuningSettings: Sendable, Equatable {
  /// The preference vectors the rule chooses among.
  package var design = SweepDesign(kind: .sobol, points: 1024)
  /// What counts as a good outcome.
  package var reward: Reward = .composite
  /// How each point's mean reward is estimated.
  package var estimator: Estimator = .dr
  /// Whether each context with enough decisions also tries a profile of its own
  /// (`--by-context`).
  package var byContext = false
  /// Whether the preference file may change the softmax temperature, when the temperature
  /// judged apart clears the rule (`--tune-temperature`; one more test in the correction).
  /// Without it the temperature is judged and reported, never written.
  package var tuneTemperature = false
  /// The effective sample size the chosen preferences need on the last month.
  package var minimumESS = 200.0
  /// The level of the selection's bound and of every interval (`--level`); `change` needs the
  /// interval's lower end above `margin`. With `byContext`, each of the k tests a run makes
  /// (the general one and one per context tried) is made at 1 − (1 − level)/k.
  package var level = 0.95
  /// The least gain worth a change, on the reward's 0 … 1 scale: the forward-chaining gain's
  /// interval must have its lower end above it. It is the person's smallest worthwhile gain,
  /// not an allowance for the estimates' bias (`docs/tuning.md`, "What the margin is").
  package var margin = 0.01
  /// Calendar months of decisions tuning needs: two to choose on, one to judge on.
  package var minimumMonths = 3
  /// How the sweep kernel computes its scores.
  package var product: SweepProduct = .simd
  /// Whether forward chaining runs the kernel once per fold over the months before it (the
  /// reference the tests hold the one-pass linear sums to), where it would otherwise run once
  /// over the whole history for every fold (`LinearSums`). Switch-DR and DRos always go fold
  /// by fold. Not an option of the command: both ways give the same answer.
  package var foldByFold = false

  /// The documented defaults.
  package init() {}
}
