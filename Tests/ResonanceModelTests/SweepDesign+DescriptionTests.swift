import Foundation
import Testing

@testable import ResonanceModel

@Suite("Sweep design: the words the store and every output use for it")
struct SweepDesignDescriptionTests {
  static let designs: [(SweepDesign, String)] = [
    (SweepDesign(kind: .sobol), "sobol (1024 points)"),
    (SweepDesign(kind: .sobol, points: 64), "sobol (64 points)"),
    (SweepDesign(kind: .random, points: 500, seed: 7), "random (500 points, seed 7)"),
    (SweepDesign(kind: .grid), "grid, step 0.1 (36036 points)"),
    (SweepDesign(kind: .grid, step: 0.25), "grid, step 0.25 (630 points)"),
    (SweepDesign(kind: .grid, step: 0.05), "grid, step 0.05 (1285746 points)"),
  ]

  @Test("each design says its kind, the parameters it reads and its size, and reads back equal")
  func roundTrip() {
    for (design, text) in Self.designs {
      #expect(design.description == text)
      #expect(SweepDesign(description: text) == design, "\(text)")
    }
  }

  @Test("a design encodes as its description, so stored JSON keeps the text it always had")
  func codable() throws {
    let data = try JSONEncoder().encode(["design": SweepDesign(kind: .random, points: 9, seed: 3)])
    #expect(String(decoding: data, as: UTF8.self) == #"{"design":"random (9 points, seed 3)"}"#)
    let read = try JSONDecoder().decode([String: SweepDesign].self, from: data)
    #expect(read["design"] == SweepDesign(kind: .random, points: 9, seed: 3))
  }

  @Test(
    "text that is not exactly a design's description is refused",
    arguments: [
      "", "sobol", "sobol (x points)", "sobol (+5 points)", "sobol (64 points) ",
      "halton (64 points)", "random (64 points)", "random (64 points, seed -1)",
      "grid, step 0.10 (36036 points)", "grid, step 0.1 (36035 points)",
      "grid, step 0 (1 points)", "grid, step 1e-300 (1 points)", "grid, step nan (1 points)",
    ])
  func refused(text: String) throws {
    #expect(SweepDesign(description: text) == nil)
    let json = Data(#"{"design":"\#(text)"}"#.utf8)
    #expect(throws: DecodingError.self) {
      _ = try JSONDecoder().decode([String: SweepDesign].self, from: json)
    }
  }

  @Test("the tuning vocabulary's raw values are the spellings users see")
  func rawValues() {
    #expect(
      Reward.allCases.map(\.rawValue) == [
        "keep", "listen-share", "response", "session-quality", "composite",
      ])
    #expect(
      Estimator.allCases.map(\.rawValue) == [
        "ips", "snips", "dm", "dr", "sndr", "switch-dr", "dros",
      ])
    #expect(SweepProduct.allCases.map(\.rawValue) == ["blas", "simd"])
    #expect(SweepDesign.Kind.allCases.map(\.rawValue) == ["sobol", "grid", "random"])
  }

  @Test("tuning's defaults: a 1024-point Sobol design, the composite reward, doubly robust")
  func defaults() {
    let settings = TuningSettings()
    #expect(settings.design == SweepDesign(kind: .sobol, points: 1024))
    #expect(settings.reward == .composite && settings.estimator == .dr)
    #expect(settings.product == .simd && settings.margin == 0.01 && settings.minimumESS == 200)
  }
}
