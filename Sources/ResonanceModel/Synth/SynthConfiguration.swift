/// Everything that decides what `resonance synth` writes. The same configuration always
/// gives byte-identical files: every default is fixed, none depends on today's date.
package struct SynthConfiguration: Sendable, Equatable {
  /// Whose preferences the simulated person keeps or skips by.
  package enum Preferences: String, Sendable, Equatable, CaseIterable {
    /// Hidden preferences equal the app's weights: the tuning stage's null test.
    case app
    /// The person's own weights, different from the app's.
    case own
  }

  package var months: Int = 1
  package var seed: UInt64 = 1
  package var songs: Int = 400
  /// Multiplies the sampling density of the Watch streams (HR, energy, steps), not the life.
  package var scale: Double = 1
  /// The first local day, as (year, month, day).
  package var start: (year: Int, month: Int, day: Int) = (2022, 6, 1)
  package var writesZip: Bool = false
  /// Write every file compressed as it ships (`--compress`): the Health export as
  /// `export.zip`, the Apple Media Services and Spotify folders as `Apple_Media_Services.zip`
  /// and `my_spotify_data.zip`, the apps' recordings as `.jsonl.gz`. Setting it sets
  /// `writesZip` too, since the Health export is one of those files.
  package var compresses: Bool = false {
    didSet { if compresses { writesZip = true } }
  }
  package var preferences: Preferences = .own
  /// Multiplies every song's true effect on heart rate and HRV.
  package var effectScale: Double = 1
  /// The settings the simulated DJ runs (`--dj-preferences`), and where they came from
  /// (`app` for the app's defaults, else the file's name), for `truth.json`.
  package var djPreferences: UserPreferences = .appDefault
  package var djPreferencesSource = "app"

  package init() {}

  package static func == (a: SynthConfiguration, b: SynthConfiguration) -> Bool {
    a.months == b.months && a.seed == b.seed && a.songs == b.songs && a.scale == b.scale
      && a.start == b.start && a.writesZip == b.writesZip && a.preferences == b.preferences
      && a.effectScale == b.effectScale && a.djPreferences == b.djPreferences
      && a.compresses == b.compresses && a.djPreferencesSource == b.djPreferencesSource
  }

  /// Days from `start` through `months` calendar months later.
  package var dayCount: Int {
    var year = start.year
    var month = start.month + months
    while month > 12 {
      month -= 12
      year += 1
    }
    let first = Timestamp.days(
      fromYear: Int64(start.year), month: Int64(start.month), day: Int64(start.day))
    let end = Timestamp.days(fromYear: Int64(year), month: Int64(month), day: Int64(start.day))
    return Int(end - first)
  }

  /// Days since 1970-01-01 of the first simulated day.
  package var firstDay: Int64 {
    Timestamp.days(fromYear: Int64(start.year), month: Int64(start.month), day: Int64(start.day))
  }
}
