import ResonanceLinear
import ResonanceModel

extension Tuner {
  /// The months before a judged month, to choose on — the whole history's, or one context's
  /// decisions — with the kernel's sums per day for every point (point 0: the preferences in
  /// force).
  struct Stage {
    let settings: TuningSettings
    let totals: SweepTotals
    /// The day groups' calendar days.
    let blocks: DayBlocks
    /// Per month, its day groups and decisions.
    let daysOfMonth: [[Int]]
    let decisionsPerMonth: [Int]

    /// The first `count` decisions of `log` (all when nil), each in month `monthOf[d]`, with
    /// the reward models that predict their rows: one pass of the kernel over them.
    init(
      log: LoggedDecisions, count: Int? = nil, monthOf: [Int], months: [CalendarMonth],
      rewards: [Reward], models: [RewardModel], points: [ScoringWeights],
      temperatureFactors: [Double]? = nil, settings: TuningSettings
    ) {
      let count = count ?? log.count
      let days = Days(log, count: count, monthOf: monthOf, months: months)
      let input = SweepInput(
        log, count: count,
        rewards: rewards.map { reward in (0..<count).map { reward.value(log, decision: $0) } },
        models: models, group: days.group, groups: days.list.count,
        grid: settings.estimator.isTuned)
      self.init(
        settings: settings,
        totals: SweepKernel.evaluate(
          input, weights: points, temperatureFactors: temperatureFactors,
          product: settings.product),
        days: days, groups: days.list.count)
    }

    /// The sums of the first `groups` days of `days` (those of the months before a judged
    /// one), found already.
    init(settings: TuningSettings, totals: SweepTotals, days: Days, groups: Int) {
      precondition(totals.groups == groups, "one group a day")
      self.settings = settings
      self.totals = totals
      blocks = DayBlocks(Array(days.list[..<groups]))
      daysOfMonth = days.months.map { $0.filter { $0 < groups } }
      decisionsPerMonth = days.decisionsPerMonth(before: groups)
    }

    private func days(_ months: Range<Int>) -> [Int] { months.flatMap { daysOfMonth[$0] } }

    /// Point p's paired gain over point 0 on `months` by `form`, with its standard error from
    /// the days' contributions (the estimator's linearisation, `EstimatorForm.influence`, for
    /// both points), summed by day and compared within each month (`DayBlocks.spread`).
    func gain(point p: Int, months: Range<Int>, form: EstimatorForm) -> (
      gain: Double?, spread: DayBlocks.Spread
    ) {
      let chosen = days(months)
      let tp = totals.sums(point: p, groups: chosen)
      let t0 = totals.sums(point: 0, groups: chosen)
      let field = { (slot: Int) in totals.field(reward: 0, slot: slot) }
      guard chosen.count > 1, let vp = form.value({ tp[field($0)] }),
        let v0 = form.value({ t0[field($0)] })
      else { return (nil, DayBlocks.Spread(standardError: .infinity, degreesOfFreedom: 0)) }
      let fields = totals.fields
      let influences = chosen.map { g in
        let a = (p * totals.groups + g) * fields
        let b = g * fields
        return form.influence({ totals.values[a + field($0)] }, total: { tp[field($0)] })
          - form.influence({ totals.values[b + field($0)] }, total: { t0[field($0)] })
      }
      return (vp - v0, blocks.spread(chosen, influences))
    }

    /// Point p's paired gain and its spread on `months`, with the form it used: for
    /// Switch-DR and DRos the grid's value SLOPE chooses for the gain (each candidate's width
    /// z·se at `level`), the estimator's one form otherwise.
    func gain(point p: Int, months: Range<Int>, level: Double) -> (
      gain: Double?, spread: DayBlocks.Spread, parameter: Int
    ) {
      let estimator = settings.estimator
      let k =
        estimator.isTuned
        ? SLOPE.parameter(estimator, z: NormalDistribution.quantile(level)) { form in
          let (value, spread) = gain(point: p, months: months, form: form)
          return (value, spread.standardError)
        } : 0
      let chosen = gain(point: p, months: months, form: EstimatorForm(estimator, parameter: k))
      return (chosen.gain, chosen.spread, k)
    }

    /// The rule: among the points whose effective sample size is at least `minimumESS` in
    /// every month of `months` (scaled by that month's decisions against `judged`, the
    /// decisions of the month the choice will be judged on), the one whose gain's lower
    /// one-sided bound at `level` (gain − t·se, t Student's quantile at `level` and the
    /// spread's degrees of freedom) is largest, when that bound is above the margin.
    /// Choosing by the bound, not the gain, prefers a point that did better steadily over one
    /// that did better by luck on a few heavy weights. For Switch-DR and DRos, each point's
    /// gain is at the parameter SLOPE chooses for it on these months; the choice carries it to
    /// the month judged.
    ///
    /// The points are this stage's `among` (every one but the preferences in force when
    /// nil), named by `index` in the choice; a point must also beat `best`, the choice among
    /// points evaluated earlier, so that choosing in parts finds what choosing at once does.
    func choose(
      months range: Range<Int>, judged: Int, level: Double, among: Range<Int>? = nil,
      index: (Int) -> Int = { $0 }, over best: Choice? = nil
    ) -> Choice? {
      var best = best
      for p in among ?? 1..<totals.points {
        let (gain, spread, parameter) = gain(point: p, months: range, level: level)
        guard let gain else { continue }
        let bound = gain - spread.lowerDistance(level: level)
        guard bound > (best?.bound ?? settings.margin) else { continue }
        let supported = range.allSatisfy { m in
          let ess = totals.estimate(
            point: p, reward: 0, form: EstimatorForm(settings.estimator), groups: daysOfMonth[m]
          ).effectiveSampleSize
          return ess
            >= settings.minimumESS * Double(decisionsPerMonth[m]) / Double(max(1, judged))
        }
        guard supported else { continue }
        let ess = totals.estimate(
          point: p, reward: 0, form: EstimatorForm(settings.estimator), groups: days(range)
        ).effectiveSampleSize
        best = Choice(point: index(p), gain: gain, ess: ess, bound: bound, parameter: parameter)
      }
      return best
    }
  }

  /// The point the rule chose on a fold's earlier months: its gain, effective sample size
  /// and lower bound there, and the estimator parameter chosen with it.
  struct Choice {
    var point: Int
    var gain: Double
    var ess: Double
    var bound: Double
    var parameter: Int
  }

  /// The calendar days of a log's first decisions, in order: each decision's day (its
  /// group), each day's month, and each month's days.
  struct Days {
    let list: [CalendarDay]
    /// Per decision, its day's index in `list`.
    let group: [Int]
    /// Per month (an index into the months), its days' indices.
    let months: [[Int]]
    /// Per day, its decisions.
    let decisions: [Int]
    /// Per day, its month.
    let month: [Int]

    init(_ log: LoggedDecisions, count: Int, monthOf: [Int], months: [CalendarMonth]) {
      let days = log.time[..<count].map(CalendarDay.init)
      list = Array(Set(days)).sorted()
      let dayIndex = Dictionary(uniqueKeysWithValues: list.enumerated().map { ($1, $0) })
      group = days.map { dayIndex[$0]! }
      var month = [Int](repeating: 0, count: list.count)
      var decisions = [Int](repeating: 0, count: list.count)
      for d in 0..<count {
        month[group[d]] = monthOf[d]
        decisions[group[d]] += 1
      }
      self.month = month
      self.decisions = decisions
      self.months = months.indices.map { m in month.indices.filter { month[$0] == m } }
    }

    /// Per month, the decisions of its days among the first `groups`.
    func decisionsPerMonth(before groups: Int) -> [Int] {
      months.map { $0.reduce(0) { $1 < groups ? $0 + decisions[$1] : $0 } }
    }
  }
}
