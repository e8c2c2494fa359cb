import ResonanceIngest
import ResonanceModel

/// What the command line says of the formats the tool imports, from Ingest's one table of
/// them (`ImportRegistry`): a new format changes these without a change here or in the CLI.
package enum ImportFormats {
  /// Every format, as `--as` names and lists them.
  package static var all: [ImportFormat] { ImportRegistry.formats }

  /// The services whose exports the tool reads: `Apple Health, Apple Music, Music.app, …`.
  package static var services: String { ImportRegistry.services.joined(separator: ", ") }

  /// The listening files, service by service, as the help lists them.
  package static var listeningFiles: String { ImportRegistry.listeningFiles }

  /// What an input the tool reads is, for messages about one it does not.
  static var expectedSentence: String { ImportRegistry.expectedInput }
}
