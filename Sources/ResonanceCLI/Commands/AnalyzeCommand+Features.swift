import ResonanceBrain
import ResonanceStore

/// `resonance analyze`'s song features: every song's tempo, energy and valence with SD and
/// source, and its familiarity (`docs/brain.md`, "Song features").
extension AnalyzeCommand {
  /// How the run's songs got their tempo, for the summary. The four BPM counts add up to
  /// `songs`.
  struct FeatureSummary: Sendable, Equatable {
    var songs = 0
    /// Songs whose library file gives a plausible BPM (source `library`).
    var libraryBPM = 0
    /// Songs given their genre's ridge estimate (`genre-ridge`).
    var ridgeBPM = 0
    /// Songs given their genre's prior, the genre having no library BPM (`genre-prior`).
    var priorBPM = 0
    /// Songs with no library BPM and no recognised genre: the fallback row (`fallback`).
    var fallbackBPM = 0
    /// Songs whose genre is missing or not recognised, whatever their BPM's source: their
    /// energy and valence are the fallback's.
    var unknownGenre = 0

    /// The summary as `--json` reports it.
    var json: [String: Int] {
      [
        "songs": songs, "bpm_library": libraryBPM, "bpm_genre_ridge": ridgeBPM,
        "bpm_genre_prior": priorBPM, "bpm_fallback": fallbackBPM,
        "unknown_genre": unknownGenre,
      ]
    }

    /// One line for the terminal.
    var text: String {
      let count = { (n: Int) in ProgressReporter.grouped(Int64(n)) }
      return
        "features for \(count(songs)) songs: BPM from the library for \(count(libraryBPM)), "
        + "the genre ridge fit for \(count(ridgeBPM)), the genre prior for \(count(priorBPM)), "
        + "the unknown-genre fallback for \(count(fallbackBPM)); "
        + "\(count(unknownGenre)) without a recognised genre"
    }
  }

  /// Every song's `song_features` row from what the store holds, with a summary; writes
  /// nothing (hand the rows to `Store.replaceSongFeatures`).
  ///
  /// A song's play count is the larger of its library count and its plays in the imported
  /// history: the library's counter already includes most of the history's Apple Music
  /// plays, so adding them would count a listen twice, while a song heard only on Spotify has
  /// no library count at all (`docs/brain.md`, "Familiarity").
  ///
  /// - Complexity: O(songs) plus the ridge fit's LAPACK solve over the genres.
  /// - Throws: `StoreError` when the store cannot be read.
  static func songFeatures(_ store: Store) throws(StoreError) -> (
    rows: [Store.SongFeatureRow], summary: FeatureSummary
  ) {
    let sources = try store.songFeatureSources()
    let estimates = SongFeatureEstimator.estimate(
      sources.map {
        SongFeatureInput(
          genre: $0.genre, libraryBPM: $0.libraryBPM,
          playCount: max($0.libraryPlayCount, $0.historyPlays))
      })
    var summary = FeatureSummary(songs: sources.count)
    let rows = zip(sources, estimates).map { source, e in
      switch e.bpm.source {
      case .library: summary.libraryBPM += 1
      case .genreRidge: summary.ridgeBPM += 1
      case .genrePrior: summary.priorBPM += 1
      case .fallback: summary.fallbackBPM += 1
      }
      if e.genre == .unknown { summary.unknownGenre += 1 }
      return Store.SongFeatureRow(
        songID: source.songID, bpm: e.bpm.value, bpmSD: e.bpm.sd,
        bpmSource: e.bpm.source.rawValue, energy: e.energy.value, energySD: e.energy.sd,
        energySource: e.energy.source.rawValue, valence: e.valence.value,
        valenceSD: e.valence.sd, valenceSource: e.valence.source.rawValue,
        familiarity: e.familiarity)
    }
    return (rows, summary)
  }
}
