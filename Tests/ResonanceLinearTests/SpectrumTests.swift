import Foundation
import Testing

@testable import ResonanceLinear

@Suite("FFT and Welch spectra (FFTW)")
struct SpectrumTests {
  @Test("a pure tone puts its power in its own bin")
  func tone() {
    let n = 64
    let x = (0..<n).map { sin(2 * Double.pi * 5 * Double($0) / Double(n)) }
    let power = FFT.powerSpectrum(x, length: n)
    #expect(power.count == n / 2 + 1)
    let peak = power.indices.max { power[$0] < power[$1] }
    #expect(peak == 5)
    #expect(abs(power[5] - Double(n * n) / 4) < 1e-9)
    #expect(power.enumerated().filter { $0.offset != 5 }.allSatisfy { $0.element < 1e-18 })
  }

  @Test("zero-padding keeps a constant's power at DC")
  func padding() {
    let power = FFT.powerSpectrum([1, 1, 1, 1], length: 16)
    #expect(power.count == 9 && abs(power[0] - 16) < 1e-12)
  }

  @Test("Welch: the density integrates to the variance of white noise (Parseval)")
  func parseval() throws {
    var state: UInt64 = 42
    func uniform() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) * 0x1.0p-53
    }
    let x = (0..<8192).map { _ in uniform() - 0.5 }
    let spectrum = try #require(
      WelchSpectrum(x, sampleRate: 4, segmentLength: 256, overlap: 128, fftLength: 256))
    let total = spectrum.power(from: 0, to: 2.1)
    let variance =
      x.map { ($0 - 0) * ($0 - 0) }.reduce(0, +) / Double(x.count)
      - pow(x.reduce(0, +) / Double(x.count), 2)
    #expect(abs(total - variance) / variance < 0.05)
    #expect(spectrum.segments == 63)
  }

  @Test("a signal shorter than one segment has no spectrum")
  func short() {
    #expect(
      WelchSpectrum([1, 2, 3], sampleRate: 4, segmentLength: 8, overlap: 4, fftLength: 8) == nil)
  }

  @Test("linear resampling at a fixed rate")
  func resample() {
    let out = Resample.linear(times: [0, 1, 3], values: [0, 10, 30], rate: 2)
    #expect(out == [0, 5, 10, 15, 20, 25, 30])
  }
}
