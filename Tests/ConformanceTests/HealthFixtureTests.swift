import Foundation
import ResonanceIO
import ResonanceModel
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

/// A scratch folder for one test.
final class Scratch {
  let path: String
  init() throws {
    path =
      FileManager.default.temporaryDirectory.appendingPathComponent(
        "conformance-\(UUID().uuidString)"
      ).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs `resonance ingest` in process: its status, and what it printed (its summary lines on
/// standard output, then its messages on standard error).
func ingest(_ arguments: [String]) -> (ExitCode, String) {
  let console = CapturingConsole()
  let status = Resonance.main(["ingest"] + arguments, environment: [:], console: console)
  return (status, console.standardOutput + console.standardError)
}

@Suite("Conformance: the public Apple Health fixtures", .enabled(if: Fixtures.isAvailable))
struct HealthFixtureTests {
  // Counts checked by hand against the files (and SOURCES.md): 2 Records (one BodyMassIndex,
  // one HeartRate), 1 Workout with a route (2 inline Locations in the old form, a
  // FileReference in the zip's), 2 ActivitySummaries, `Me` with a 1990 date of birth.
  static let expected = [
    "HKQuantityTypeIdentifierBodyMassIndex": 1, "HKQuantityTypeIdentifierHeartRate": 1,
  ]

  @Test("healthkit-to-sqlite's export.xml: no DTD, inline route, U+00A0 and U+2019 sources")
  func plainExport() throws {
    let scratch = try Scratch()
    let db = scratch.path + "/a.sqlite"
    let (status, err) = ingest([
      try Fixtures.path("healthkit/healthkit-to-sqlite/export.xml"), "--db", db,
    ])
    #expect(status == .ok, "\(err)")
    let store = try Store(path: db)
    let summary = try store.summary()
    #expect(summary.health.records == Self.expected)
    #expect(summary.health.workouts == 1)
    #expect(summary.health.first?.iso8601UTC == "2016-04-18T15:25:32Z")
    let connection = store.connection
    #expect(try connection.row("SELECT inline_locations FROM workout_routes")?.int(0) == 2)
    #expect(
      try connection.row("SELECT total_distance_unit, time_zone FROM workouts")?.values == [
        .text("mi"), .text("America/Los_Angeles"),
      ])
    #expect(try connection.row("SELECT COUNT(*) FROM activity_summaries")?.int(0) == 2)
    #expect(try connection.row("SELECT birth_year FROM person")?.int(0) == 1990)
    #expect(try connection.row("SELECT hardware FROM health_devices")?.string(0) == "Watch2,4")
    #expect(
      try connection.row("SELECT COUNT(*) FROM health_sources WHERE name_key = 'Apple Watch'")?.int(
        0) == 1
    )
  }

  @Test("the zipped export equals the unpacked folder; its GPX route is named, not imported")
  func zippedExport() throws {
    let scratch = try Scratch()
    let folder = try Fixtures.path("healthkit/healthkit-to-sqlite/zip_contents")
    let zip = scratch.path + "/export.zip"
    let writer = try ZipWriter(path: zip, modificationTime: 0)
    try writer.add(
      name: "apple_health_export/export.xml",
      contentsOfFile: folder + "/apple_health_export/export.xml")
    try writer.add(
      name: "apple_health_export/workout-routes/route_2019-06-11_3.00pm.gpx",
      contentsOfFile: folder + "/apple_health_export/workout-routes/route_2019-06-11_3.00pm.gpx")
    try writer.close()
    let (zipStatus, zipOutput) = ingest([zip, "--db", scratch.path + "/zip.sqlite"])
    #expect(zipStatus == .ok, "\(zipOutput)")
    #expect(zipOutput.contains("workout route GPS files (1)"))
    let (folderStatus, _) = ingest([folder, "--db", scratch.path + "/folder.sqlite"])
    #expect(folderStatus == .ok)
    let a = try Store(path: scratch.path + "/zip.sqlite").summary()
    let b = try Store(path: scratch.path + "/folder.sqlite").summary()
    #expect(a.health == b.health)
    #expect(a.health.records == Self.expected)
    #expect(
      try Store(path: scratch.path + "/zip.sqlite").connection.row(
        "SELECT file_path FROM workout_routes")?.string(0)
        == "/workout-routes/route_2019-06-11_3.00pm.gpx")
  }

  @Test("the second fixture overlaps the first: nothing is stored twice")
  func overlap() throws {
    let scratch = try Scratch()
    let db = scratch.path + "/o.sqlite"
    _ = ingest([try Fixtures.path("healthkit/healthkit-to-sqlite/export.xml"), "--db", db, "-q"])
    let (status, _) = ingest([
      try Fixtures.path("healthkit/healthkit-to-sqlite/zip_contents"), "--db", db, "-q",
    ])
    #expect(status == .ok)
    let summary = try Store(path: db).summary()
    #expect(summary.health.records == Self.expected)
    #expect(summary.health.workouts == 1)
    #expect(summary.imports.map(\.records) == [2, 0])
  }
}
