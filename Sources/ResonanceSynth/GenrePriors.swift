/// The simulated library's generating distributions: per Apple genre, the mean and spread of
/// tempo, energy and valence, and the genre's share of the library.
///
/// These are the simulation's own figures (written to `truth.json`), chosen to follow common
/// tempo conventions (house ≈ 124 BPM, hip-hop ≈ 90–100, ambient slow) and the usual ordering of
/// genres by energy and valence; they are deliberately not the table the brain estimates with.
package struct GenrePrior: Sendable, Equatable, Codable {
  package var genre: String
  package var share: Double
  package var bpmMean: Double
  package var bpmSD: Double
  package var energyMean: Double
  package var energySD: Double
  package var valenceMean: Double
  package var valenceSD: Double

  /// Every genre the simulated library draws from.
  package static let table: [GenrePrior] = [
    .init("Pop", 0.17, 118, 14, 0.68, 0.12, 0.60, 0.17),
    .init("Hip-Hop/Rap", 0.14, 94, 14, 0.66, 0.12, 0.50, 0.18),
    .init("Rock", 0.10, 126, 18, 0.78, 0.12, 0.50, 0.19),
    .init("Alternative", 0.10, 120, 18, 0.64, 0.15, 0.42, 0.19),
    .init("Electronic", 0.07, 124, 10, 0.74, 0.13, 0.42, 0.19),
    .init("Dance", 0.06, 124, 5, 0.82, 0.09, 0.60, 0.18),
    .init("R&B/Soul", 0.08, 98, 16, 0.56, 0.13, 0.52, 0.19),
    .init("Jazz", 0.05, 108, 24, 0.36, 0.14, 0.54, 0.19),
    .init("Classical", 0.05, 92, 22, 0.16, 0.10, 0.30, 0.15),
    .init("Ambient", 0.04, 78, 14, 0.14, 0.08, 0.22, 0.12),
    .init("Singer/Songwriter", 0.05, 108, 20, 0.40, 0.14, 0.44, 0.19),
    .init("Country", 0.04, 114, 20, 0.62, 0.13, 0.62, 0.18),
    .init("Latin", 0.03, 104, 20, 0.72, 0.12, 0.70, 0.15),
    .init("Metal", 0.02, 136, 22, 0.92, 0.06, 0.34, 0.16),
  ]

  init(
    _ genre: String, _ share: Double, _ bpmMean: Double, _ bpmSD: Double, _ energyMean: Double,
    _ energySD: Double, _ valenceMean: Double, _ valenceSD: Double
  ) {
    self.genre = genre
    self.share = share
    self.bpmMean = bpmMean
    self.bpmSD = bpmSD
    self.energyMean = energyMean
    self.energySD = energySD
    self.valenceMean = valenceMean
    self.valenceSD = valenceSD
  }
}
