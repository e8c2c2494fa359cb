import Foundation
import Synchronization
import Testing

@testable import ResonanceStore

@Suite("Migrations")
struct MigrationTests {
  @Test("an empty database is brought to the current schema, every migration recorded")
  func fromEmpty() throws {
    let store = try Store(path: ":memory:", now: 1_700_000_000_000)
    #expect(try store.schemaVersion() == Schema.currentVersion)
    let names = try store.connection.rows("SELECT name FROM schema_migrations ORDER BY rowid")
      .map { $0.string(0) }
    #expect(names == Schema.migrations.map(\.name))
    let tables = Set(
      try store.connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'")
        .map { $0.string(0) })
    for table in [
      "imports", "health_records", "health_beats", "workouts", "workout_statistics",
      "workout_events", "workout_routes", "songs", "playlists", "playback_events",
      "historical_sessions", "song_effects", "biometric_samples", "macos_contexts",
      "trace_recordings",
    ] {
      #expect(tables.contains(table), "missing table \(table)")
    }
    #expect(try store.connection.row("PRAGMA foreign_keys")?.int(0) == 1)
  }

  /// Two imports into a store that does not exist yet both find no migration applied; the
  /// one that waits for the write lock must not apply them again ("duplicate column name").
  @Test("two runs opening a new store at the same moment both succeed; each migration runs once")
  func concurrentOpen() throws {
    let folder = try TemporaryFolder()
    for round in 0..<6 {
      let path = folder.file("s\(round).sqlite")
      let failures = Mutex<[String]>([])
      DispatchQueue.concurrentPerform(iterations: 2) { _ in
        do {
          _ = try Store(path: path, now: 1_700_000_000_000)
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      #expect(failures.withLock { $0 } == [], "round \(round)")
      let store = try Store(path: path)
      #expect(
        try store.connection.row("SELECT COUNT(*) FROM schema_migrations")?.int(0)
          == Schema.migrations.count)
    }
  }

  @Test("migrating again is a no-op")
  func rerun() throws {
    let db = try Connection(path: ":memory:")
    let migrator = Migrator(Schema.migrations)
    #expect(try migrator.migrate(db, now: 1).count == Schema.migrations.count)
    #expect(try migrator.migrate(db, now: 2) == [])
    #expect(try db.row("SELECT COUNT(*) FROM schema_migrations")?.int(0) == Schema.migrations.count)
  }

  @Test("only the migrations a file lacks are applied, in order")
  func incremental() throws {
    let db = try Connection(path: ":memory:")
    let first = Migration("0001-a", sql: "CREATE TABLE a (x)")
    let second = Migration("0002-b", sql: "CREATE TABLE b (x)")
    #expect(try Migrator([first]).migrate(db, now: 1) == ["0001-a"])
    #expect(try Migrator([first, second]).migrate(db, now: 2) == ["0002-b"])
    #expect(try db.row("PRAGMA user_version")?.int(0) == 2)
  }

  @Test("a failing migration is rolled back whole, and the earlier ones stay")
  func failingMigration() throws {
    let db = try Connection(path: ":memory:")
    let good = Migration("0001-good", sql: "CREATE TABLE good (x)")
    let bad = Migration("0002-bad", sql: "CREATE TABLE half (x); CREATE TABLE good (y)")
    do {
      try Migrator([good, bad]).migrate(db, now: 1)
      Issue.record("expected the second migration to fail")
    } catch {
      #expect(error.sql?.contains("CREATE TABLE half") == true)
    }
    let tables = try db.rows("SELECT name FROM sqlite_master WHERE type = 'table'").map {
      $0.string(0)
    }
    #expect(tables.contains("good"))
    #expect(!tables.contains("half"))
    #expect(try db.row("PRAGMA user_version")?.int(0) == 1)
  }

  @Test("a store written by a newer build is refused and left as it was")
  func newerSchema() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("newer.sqlite")
    do {
      let store = try Store(path: path)
      try store.connection.execute(
        "INSERT INTO schema_migrations (name, applied_at_ms) VALUES ('9999-from-the-future', 0)")
      try store.connection.execute("PRAGMA user_version = \(Schema.currentVersion + 1)")
    }
    do {
      _ = try Store(path: path)
      Issue.record("expected the newer store to be refused")
    } catch {
      #expect(
        error.kind == .newerSchema(found: Schema.currentVersion + 1, known: Schema.currentVersion))
      #expect(error.description.contains("newer"))
    }
    let db = try Connection(path: path)
    #expect(try db.row("PRAGMA user_version")?.int(0) == Schema.currentVersion + 1)
  }

  @Test("a file that is not SQLite is refused as not a store")
  func notAStore() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("notes.sqlite")
    try "these are my notes, not a database\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: StoreError.self) { _ = try Store(path: path) }
    do { _ = try Store(path: path) } catch { #expect(error.kind == .notAStore) }
  }
}
