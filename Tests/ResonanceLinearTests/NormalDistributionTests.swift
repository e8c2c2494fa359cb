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

@Suite("Student's t distribution's quantiles")
struct StudentDistributionTests {
  /// Published values of Student's t quantile (to the digits tables give).
  @Test(
    "quantile matches the tabulated values",
    arguments: [
      (0.95, 1.0, 6.313751515), (0.975, 1.0, 12.706204736), (0.95, 3.0, 2.353363435),
      (0.975, 3.0, 3.182446305), (0.95, 10.0, 1.812461123), (0.975, 30.0, 2.042272456),
      (0.05, 3.0, -2.353363435), (0.5, 7.0, 0),
    ])
  func tabulated(p: Double, nu: Double, t: Double) {
    #expect(abs(StudentDistribution.quantile(p, degreesOfFreedom: nu) - t) < 1e-8)
  }

  @Test("infinite degrees of freedom are the normal; many come close to it")
  func normalLimit() {
    #expect(
      StudentDistribution.quantile(0.95, degreesOfFreedom: .infinity)
        == NormalDistribution.quantile(0.95))
    #expect(
      abs(StudentDistribution.quantile(0.95, degreesOfFreedom: 1e6) - 1.644853627) < 1e-5)
  }
}
