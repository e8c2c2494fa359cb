import Foundation
import Testing

@testable import ResonanceIO

/// The public fixtures beside the project (`../shared/fixtures`), which CI has and a user's
/// clone does not. `make conformance` sets `RESONANCE_FIXTURES`; without it these tests are
/// skipped, so `make test` passes in any clone.
enum Fixtures {
  static var root: String? { ProcessInfo.processInfo.environment["RESONANCE_FIXTURES"] }
  static var isAvailable: Bool { root != nil }

  static func path(_ relative: String) throws -> String {
    let root = try #require(root)
    return (root as NSString).appendingPathComponent(relative)
  }
}

@Suite("Conformance: fixture digests", .enabled(if: Fixtures.isAvailable))
struct FixtureDigestTests {
  // The digests published in shared/fixtures/healthkit/SOURCES.md, computed there by its
  // authors: our SHA-256 over real files must give the same bytes the ledger will key on.
  @Test(
    "SHA-256 of each Health fixture matches SOURCES.md",
    arguments: [
      (
        "healthkit/healthkit-to-sqlite/export.xml",
        "e08559e32cd073aeaae31d4a9b1ab9eb094b2bab9e831fe466a368fbde44a583"
      ),
      (
        "healthkit/healthkit-to-sqlite/zip_contents/apple_health_export/export.xml",
        "121477b56197fd163e9a35973513ff65d27a73472d3cfad975972727e0bbbe87"
      ),
      (
        "healthkit/healthkit-to-sqlite/zip_contents/apple_health_export/workout-routes/route_2019-06-11_3.00pm.gpx",
        "564c176bf46cad5b7eacd4fded4d79b97795a026889500b92b7da11c4fd65339"
      ),
      (
        "healthkit/healthkit-to-sqlite/LICENSE",
        "c71d239df91726fc519c6eb72d318ec65820627232b2f796219e87dcf35d0ab4"
      ),
    ])
  func digest(relativePath: String, expected: String) throws {
    #expect(try SHA256.hexDigest(ofFileAt: Fixtures.path(relativePath)) == expected)
  }
}
