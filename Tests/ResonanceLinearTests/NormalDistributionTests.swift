import Testing

@testable import ResonanceLinear

@Suite("the normal distribution's quantiles")
struct NormalDistributionTests {
  /// Published values of the standard normal quantile (to the digits tables give).
  @Test(
    "quantile matches the tabulated values",
    arguments: [
      (0.5, 0.0), (0.9, 1.281551566), (0.95, 1.644853627), (0.975, 1.959963985),
      (0.99, 2.326347874), (0.995, 2.575829304), (0.05, -1.644853627),
    ])
  func tabulated(p: Double, z: Double) {
    #expect(abs(NormalDistribution.quantile(p) - z) < 1e-8)
  }
}
