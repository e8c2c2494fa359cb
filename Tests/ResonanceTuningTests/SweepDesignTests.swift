import ResonanceModel
import Testing

@testable import ResonanceTuning

@Suite("Sweep design: the preference vectors a sweep evaluates")
struct SweepDesignTests {
  /// The unit-cube coordinates behind a design point: the four sorted cuts of the unit
  /// interval (the running sums of the first four ranking weights) and the two penalties
  /// over their 0 … 0.5 range.
  static func cube(_ w: ScoringWeights) -> (cuts: [Double], penalties: [Double]) {
    let cuts = [w.bpm, w.bpm + w.energy, w.bpm + w.energy + w.familiarity, 1 - w.context]
    return (
      cuts, [w.recency / SweepDesign.maximumPenalty, w.timeOfDay / SweepDesign.maximumPenalty]
    )
  }

  /// Expects five ranking weights on the simplex and two penalties in 0 … 0.5.
  static func expectOnTheSpace(
    _ w: ScoringWeights, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let ranking = [w.bpm, w.energy, w.familiarity, w.historical, w.context]
    #expect(
      abs(ranking.reduce(0, +) - 1) <= 1e-12, "ranking weights sum to \(ranking.reduce(0, +))",
      sourceLocation: sourceLocation)
    #expect(ranking.allSatisfy { $0 >= -1e-12 }, "\(ranking)", sourceLocation: sourceLocation)
    #expect(
      [w.recency, w.timeOfDay].allSatisfy { (0...0.5).contains($0) }, "\(w)",
      sourceLocation: sourceLocation)
  }

  // MARK: Grid

  @Test(
    "a grid has C(1/step + 4, 4) × (⌊0.5/step⌋ + 1)² points, and generates exactly that many",
    arguments: [(0.5, 60), (0.25, 630), (0.2, 1_134), (0.1, 36_036)])
  func gridCount(step: Double, expected: Int) {
    let design = SweepDesign(kind: .grid, step: step)
    #expect(design.count == expected)
    #expect(design.weights().count == expected)
  }

  @Test("every grid point sits on the simplex and the step, and no point repeats")
  func gridPoints() {
    let step = 0.2
    let points = SweepDesign(kind: .grid, step: step).weights()
    func onStep(_ x: Double) -> Bool { abs(x / step - (x / step).rounded()) < 1e-9 }
    for w in points {
      Self.expectOnTheSpace(w)
      #expect(w.vector.allSatisfy(onStep), "\(w) is off the 0.2 step")
    }
    #expect(Set(points).count == points.count)
    // The penalties take every value on the step from 0 to 0.5: 0, 0.2, 0.4.
    #expect(Set(points.map { ($0.recency * 10).rounded() }) == [0, 2, 4])
    // The corners of the simplex are in: all weight on one component.
    for k in 0..<5 {
      #expect(points.contains { $0.vector[k] == 1 && $0.recency == 0 && $0.timeOfDay == 0 })
    }
  }

  // MARK: Sobol

  /// GSL 2.7's Sobol sequence in six dimensions (`gsl_qrng_sobol`), its first six points,
  /// worked by hand from the Bratley–Fox direction numbers GSL tabulates (primitive
  /// polynomials 1, 3, 7, 11, 13, 19; first direction numbers m = –; 1; 1, 1; 1, 3, 7;
  /// 1, 1, 5; 1, 3, 1, 1), taken in Gray-code order: each point is the one before with the
  /// direction numbers of the lowest zero bit of its index XORed in. GSL's first point is
  /// (½, …, ½): it never returns the origin.
  static let gslSobol: [[Double]] = [
    [0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
    [0.75, 0.25, 0.75, 0.25, 0.75, 0.25],
    [0.25, 0.75, 0.25, 0.75, 0.25, 0.75],
    [0.375, 0.375, 0.625, 0.125, 0.875, 0.875],
    [0.875, 0.875, 0.125, 0.625, 0.375, 0.375],
    [0.625, 0.125, 0.375, 0.375, 0.125, 0.625],
  ]

  @Test("the cube's coordinates become weights: sorted cuts of the unit interval, scaled penalties")
  func unitCube() {
    let w = SweepDesign.weights(unitCube: [0.7, 0.1, 0.4, 0.9, 0.5, 1])
    let expected = ScoringWeights(
      bpm: 0.1, energy: 0.3, familiarity: 0.3, historical: 0.2, context: 0.1, recency: 0.25,
      timeOfDay: 0.5)
    for (a, b) in zip(w.vector, expected.vector) { #expect(abs(a - b) < 1e-15, "\(w)") }
    let centre = SweepDesign.weights(unitCube: [0.5, 0.5, 0.5, 0.5, 0.5, 0.5])
    #expect(
      centre
        == ScoringWeights(
          bpm: 0.5, energy: 0, familiarity: 0, historical: 0, context: 0.5, recency: 0.25,
          timeOfDay: 0.25))
  }

  /// Where a design's first point sits in `gslSobol`: 1 while `sobol()` skips GSL's first
  /// point, 0 once it skips only the origin GSL never returns.
  static func sobolStart() throws -> Int {
    let first = try #require(SweepDesign(kind: .sobol, points: 1).weights().first)
    return try #require(
      gslSobol.map(SweepDesign.weights(unitCube:)).firstIndex(of: first), "\(first)")
  }

  @Test("a Sobol design runs along GSL's Sobol sequence, point after point, in range")
  func sobolValues() throws {
    let points = SweepDesign(kind: .sobol, points: 4).weights()
    #expect(points.count == 4)
    let start = try Self.sobolStart()
    let sequence = Self.gslSobol.map(SweepDesign.weights(unitCube:))
    #expect(Array(sequence[start..<(start + 4)]) == points)
    for w in SweepDesign(kind: .sobol, points: 256).weights() { Self.expectOnTheSpace(w) }
  }

  @Test(
    "a Sobol design skips only the origin (docs/tuning.md), so it starts at GSL's first point, (½, …, ½)"
  )
  func sobolStartsAtTheCentre() throws {
    let start = try Self.sobolStart()
    #expect(start == 0)
  }

  @Test("the first 64 points of the sequence (the origin, any skipped, the design's) form a net")
  func sobolNet() throws {
    let start = try Self.sobolStart()
    let cubes =
      [[0.0, 0, 0, 0, 0, 0]] + Self.gslSobol.prefix(start)
      + SweepDesign(kind: .sobol, points: 63 - start).weights().map { w in
        let c = Self.cube(w)
        return c.cuts + c.penalties
      }
    #expect(cubes.count == 64)
    // Every coordinate of a Sobol sequence's first 2^m points takes each value j/2^m once (the
    // ranking cuts come back sorted, so those four are pooled).
    let grid = (0..<64).map { Double($0) / 64 }
    for k in 4..<6 {
      #expect(cubes.map { $0[k] }.sorted() == grid, "penalty coordinate \(k)")
    }
    let cuts = cubes.flatMap { $0.prefix(4) }
    #expect(cuts.allSatisfy { abs($0 * 64 - ($0 * 64).rounded()) < 1e-9 })
    #expect(
      cuts.map { ($0 * 64).rounded() / 64 }.sorted()
        == grid.flatMap { Array(repeating: $0, count: 4) })
  }

  @Test("a Sobol design is the same on every call, and a longer one extends a shorter one")
  func sobolDeterministic() {
    let short = SweepDesign(kind: .sobol, points: 100).weights()
    #expect(short == SweepDesign(kind: .sobol, points: 100).weights())
    #expect(Array(SweepDesign(kind: .sobol, points: 300).weights().prefix(100)) == short)
    #expect(Set(short).count == 100, "no point repeats")
    #expect(SweepDesign(kind: .sobol, points: 0).weights().isEmpty)
  }

  // MARK: Random

  @Test("a random design is fixed by its seed, differs between seeds, and stays in range")
  func randomDesign() {
    let a = SweepDesign(kind: .random, points: 200, seed: 1).weights()
    #expect(a.count == 200)
    #expect(a == SweepDesign(kind: .random, points: 200, seed: 1).weights())
    let b = SweepDesign(kind: .random, points: 200, seed: 2).weights()
    #expect(zip(a, b).allSatisfy { $0 != $1 }, "no point is shared between seeds 1 and 2")
    for w in a + b { Self.expectOnTheSpace(w) }
    // Uniform on the simplex: each ranking weight averages 1/5, each penalty 1/4.
    let meanBPM = a.map(\.bpm).reduce(0, +) / 200
    let meanRecency = a.map(\.recency).reduce(0, +) / 200
    #expect(abs(meanBPM - 0.2) < 0.05, "\(meanBPM)")
    #expect(abs(meanRecency - 0.25) < 0.05, "\(meanRecency)")
  }

  // MARK: Pareto

  static func point(_ index: Int, keep: Double?, response: Double?) -> SweepPoint {
    SweepPoint(
      index: index, label: nil, weights: .appDefault, value: keep, keepRate: keep,
      response: response, effectiveSampleSize: 100, largestWeight: 2, agreementShare: 0.5)
  }

  @Test("the Pareto front is exactly the points no other beats on keep rate and response")
  func pareto() {
    var points = [
      Self.point(0, keep: 0.7, response: 0.4),  // B beats it on both
      Self.point(1, keep: 0.9, response: 0.1),  // the best keep rate: on the front
      Self.point(2, keep: 0.8, response: 0.5),  // B: on the front
      Self.point(3, keep: 0.6, response: 0.9),  // the best response: on the front
      Self.point(4, keep: 0.5, response: 0.9),  // as good a response as 3, less kept
      Self.point(5, keep: 0.9, response: 0.05),  // as kept as 1, a worse response
      Self.point(6, keep: nil, response: 0.99),  // no keep rate: never on it
      Self.point(7, keep: 0.95, response: nil),  // no response: never on it
      Self.point(8, keep: 0.3, response: 0.2),  // beaten by everything with both
    ]
    Sweeper.markPareto(&points)
    #expect(points.filter(\.isPareto).map(\.index) == [1, 2, 3])
    // Brute force: on the front iff no other point is at least as good on both and better
    // on one.
    let measured = points.filter { $0.keepRate != nil && $0.response != nil }
    for p in measured {
      let dominated = measured.contains { q in
        q.keepRate! >= p.keepRate! && q.response! >= p.response!
          && (q.keepRate! > p.keepRate! || q.response! > p.response!)
      }
      #expect(p.isPareto == !dominated, "point \(p.index)")
    }
  }

  @Test("an empty sweep and a single point: the lone point with both figures is on the front")
  func paretoEdges() {
    var none: [SweepPoint] = []
    Sweeper.markPareto(&none)
    #expect(none.isEmpty)
    var one = [Self.point(0, keep: 0.5, response: 0.5)]
    Sweeper.markPareto(&one)
    #expect(one[0].isPareto)
  }

  @Test(
    "two points with the same keep rate and response are both on the front: neither beats the other"
  )
  func paretoTies() {
    var points = [
      Self.point(0, keep: 0.6, response: 0.6), Self.point(1, keep: 0.6, response: 0.6),
      Self.point(2, keep: 0.5, response: 0.5),
    ]
    Sweeper.markPareto(&points)
    #expect(!points[2].isPareto)
    #expect(points[0].isPareto && points[1].isPareto)
  }
}
