/// The tables of a person's hand-off (`resonance export`), in the order they are written:
/// `DIR/person=ID/TABLE.parquet` (or `.csv`), each listed with its columns in docs/cohort.md.
package enum HandOffTable: String, Sendable, CaseIterable {
  /// Each played song: its plays, features, and heart-rate and HRV effects with SE and
  /// interval.
  case songs
  /// Each song's effects by context.
  case songContexts = "song_contexts"
  /// Every reconstructed listening session.
  case sessions
  /// Every night's sleep.
  case nights
  /// Heart rate and HRV before and during each play.
  case playBiometrics = "play_biometrics"
  /// Every analysed breathing-pacer session.
  case breathing
  /// Every `resonance tune` run: its recommendation and held-out gain.
  case tuning
}
