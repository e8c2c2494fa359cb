import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("Genre feature priors")
struct GenreFeaturePriorTests {
  @Test("one row per genre, the fallback last, every spread positive")
  func table() {
    #expect(GenreFeaturePriors.table.map(\.genre) == FeatureGenre.allCases)
    #expect(GenreFeaturePriors.table.last?.genre == .unknown)
    for row in GenreFeaturePriors.table {
      #expect(row.bpm.sd > 0 && row.energy.sd > 0 && row.valence.sd > 0)
      #expect((60...180).contains(row.bpm.mean))
      #expect((0...1).contains(row.energy.mean) && (0...1).contains(row.valence.mean))
    }
    // The orderings the sources agree on.
    let prior = GenreFeaturePriors.prior(for:)
    #expect(prior(.metal).energy.mean > prior(.pop).energy.mean)
    #expect(prior(.classical).energy.mean < prior(.jazz).energy.mean)
    #expect(prior(.latin).valence.mean > prior(.metal).valence.mean)
    #expect(prior(.dance).bpm.sd < prior(.jazz).bpm.sd)
  }

  @Test(
    "genre names normalise across case, punctuation and aliases",
    arguments: [
      ("Hip-Hop/Rap", FeatureGenre.hipHopRap), ("Hip Hop", .hipHopRap), ("hip-hop", .hipHopRap),
      ("HIPHOP", .hipHopRap), ("Rap", .hipHopRap), ("R&B/Soul", .rnbSoul), ("R&B", .rnbSoul),
      ("r & b / soul", .rnbSoul), ("RnB", .rnbSoul), ("Soul", .rnbSoul), ("Pop", .pop),
      ("  pop ", .pop), ("K-Pop", .pop), ("Singer/Songwriter", .singerSongwriter),
      ("Singer-Songwriter", .singerSongwriter), ("Folk", .singerSongwriter),
      ("Soundtrack", .classical), ("Original Score", .classical), ("Classical", .classical),
      ("New Age", .ambient), ("Ambient", .ambient), ("Electronic", .electronic),
      ("Drum & Bass", .electronic), ("House", .dance), ("Dance", .dance),
      ("Alternative", .alternative), ("Indie Pop", .alternative), ("Rock", .rock),
      ("Hard Rock", .rock), ("Metal", .metal), ("Melodic Death Metal", .metal),
      ("Heavy Metal", .metal), ("Country", .country), ("Americana", .country), ("Latin", .latin),
      ("Latin Pop", .latin), ("Reggaeton", .latin), ("Jazz", .jazz), ("Vocal Jazz", .jazz),
      ("Spoken Word", .unknown), ("Podcast", .unknown), ("", .unknown), ("—", .unknown),
    ])
  func normalise(name: String, genre: FeatureGenre) {
    #expect(GenreFeaturePriors.normalise(name) == genre)
  }

  @Test("no genre is the unknown genre")
  func noGenre() {
    #expect(GenreFeaturePriors.normalise(nil) == .unknown)
    #expect(GenreFeaturePriors.prior(forName: nil).genre == .unknown)
  }
}

@Suite("Song feature estimates")
struct FeatureEstimatorTests {
  private let pop = GenreFeaturePriors.prior(for: .pop)
  private let jazz = GenreFeaturePriors.prior(for: .jazz)
  private let fallback = GenreFeaturePriors.prior(for: .unknown)

  /// 30 Pop songs whose library BPMs scatter around 100 (mean exactly 100), then the songs
  /// under test.
  /// A song as the store knows it: its genre, its library BPM, its library play count.
  private func song(_ genre: String?, bpm: Double?, plays: Int) -> SongFeatureSource {
    SongFeatureSource(
      songID: 0, genre: genre, libraryBPM: bpm, libraryPlayCount: plays, historyPlays: 0)
  }

  private func library(plus songs: [SongFeatureSource]) -> [SongFeatureSource] {
    let offsets: [Double] = [-3, -2, -1, 0, 1, 2, 3, -2, 0, 2]
    let popBPMs = (0..<30).map {
      song("Pop", bpm: 100 + offsets[$0 % 10], plays: 1)
    }
    return popBPMs + songs
  }

  @Test("a genre with 30 library BPMs around 100: its mean moves near 100, a song keeps the spread")
  func ridgeMovesToTheData() throws {
    let songs = library(plus: [song("pop", bpm: nil, plays: 0)])
    let estimate = try #require(SongFeatureEstimator.estimate(songs).last)
    #expect(GenreFeaturePriors.normalise(songs.last?.genre) == .pop)
    #expect(estimate.bpm.source == .genreRidge)
    #expect(abs(estimate.bpm.value - 100) < 1)
    // Still pulled a little toward the prior (118), never past the data.
    #expect(estimate.bpm.value > 100)

    let tempos = SongFeatureEstimator.fitGenreTempos(songs)
    let fit = try #require(tempos.fit(for: .pop))
    let spread = try #require(tempos.residualSD)
    #expect(fit.libraryBPMs == 30)
    // The genre's mean is known to within 2 bpm; one song without a tag may sit anywhere in
    // the genre's spread, so its SD is the spread and the mean's uncertainty together.
    #expect(fit.sd < 2 && fit.sd < pop.bpm.sd / 10)
    #expect(abs(fit.estimate - estimate.bpm.value) < 1e-12)
    #expect(abs(estimate.bpm.sd - (spread * spread + fit.sd * fit.sd).squareRoot()) < 1e-12)
    #expect(estimate.bpm.sd < pop.bpm.sd)
  }

  @Test("a genre with no library BPMs keeps the prior mean and SD")
  func noDataKeepsThePrior() throws {
    let songs = library(plus: [song("Jazz", bpm: nil, plays: 3)])
    let estimate = try #require(SongFeatureEstimator.estimate(songs).last)
    #expect(estimate.bpm == Estimate(value: jazz.bpm.mean, sd: jazz.bpm.sd, source: .genrePrior))
    #expect(
      estimate.energy == Estimate(value: jazz.energy.mean, sd: jazz.energy.sd, source: .genrePrior))
    #expect(
      estimate.valence
        == Estimate(value: jazz.valence.mean, sd: jazz.valence.sd, source: .genrePrior))
    #expect(SongFeatureEstimator.fitGenreTempos(songs).fit(for: .jazz) == nil)
  }

  @Test("one library BPM with no spread to go on: the prior counts as one song")
  func oneSong() throws {
    // σ̂² = (0 + 4·τ²)/(1 − 1 + 4) = τ², so λ = 1: the mean halfway with SD τ/√2, and a song
    // SD √(τ² + τ²/2).
    let rock = GenreFeaturePriors.prior(for: .rock).bpm
    let songs = [
      song("Rock", bpm: 100, plays: 0),
      song("Rock", bpm: nil, plays: 0),
    ]
    let estimates = SongFeatureEstimator.estimate(songs)
    #expect(estimates[0].bpm == Estimate(value: 100, sd: 2, source: .library))
    #expect(estimates[1].bpm.source == .genreRidge)
    #expect(abs(estimates[1].bpm.value - (rock.mean + 100) / 2) < 1e-9)
    #expect(abs(estimates[1].bpm.sd - (1.5 * rock.sd * rock.sd).squareRoot()) < 1e-9)
    let fit = try #require(SongFeatureEstimator.fitGenreTempos(songs).fit(for: .rock))
    #expect(abs(fit.lambda - 1) < 1e-12)
  }

  @Test("sources: library, genre-ridge, genre-prior, fallback")
  func sources() {
    let songs = library(plus: [
      song("Pop", bpm: 87, plays: 0),
      song("Pop", bpm: nil, plays: 0),
      song("Metal", bpm: nil, plays: 0),
      song(nil, bpm: nil, plays: 0),
      song("Spoken Word", bpm: 140, plays: 0),
    ])
    let estimates = Array(SongFeatureEstimator.estimate(songs).suffix(5))
    #expect(
      estimates.map(\.bpm.source) == [.library, .genreRidge, .genrePrior, .fallback, .library])
    #expect(estimates[0].bpm.value == 87 && abs(estimates[0].bpm.sd - 1.74) < 1e-12)
    #expect(estimates[4].bpm.value == 140)
    // Energy and valence are never observed: prior-only, whatever the tempo source.
    #expect(
      estimates.map(\.energy.source) == [
        .genrePrior, .genrePrior, .genrePrior, .fallback, .fallback,
      ])
    #expect(estimates.map(\.valence.source) == estimates.map(\.energy.source))
    #expect(
      estimates[1].energy.value == pop.energy.mean
        && estimates[3].valence.value == fallback.valence.mean)
    #expect(
      estimates[3].bpm == Estimate(value: fallback.bpm.mean, sd: fallback.bpm.sd, source: .fallback)
    )
    #expect(estimates[1].features.bpm == estimates[1].bpm.value)
  }

  @Test("implausible library BPMs are ignored")
  func implausibleBPM() {
    let estimates = SongFeatureEstimator.estimate([
      song("Country", bpm: 1000, plays: 0),
      song("Country", bpm: 0.5, plays: 0),
      song("Country", bpm: .nan, plays: 0),
    ])
    let country = GenreFeaturePriors.prior(for: .country).bpm
    #expect(
      estimates.allSatisfy {
        $0.bpm == Estimate(value: country.mean, sd: country.sd, source: .genrePrior)
      })
  }

  @Test("familiarity is plays over the most plays, capped at 1")
  func familiarity() {
    #expect(Familiarity.score(playCount: 5, maxPlayCount: 10) == 0.5)
    #expect(Familiarity.score(playCount: 12, maxPlayCount: 10) == 1)
    #expect(Familiarity.score(playCount: 3, maxPlayCount: 0) == 0)
    #expect(Familiarity.score(playCount: -1, maxPlayCount: 10) == 0)
    let estimates = SongFeatureEstimator.estimate([
      song("Pop", bpm: nil, plays: 40),
      song("Pop", bpm: nil, plays: 10),
      song("Pop", bpm: nil, plays: 0),
    ])
    #expect(estimates.map(\.familiarity) == [1, 0.25, 0])
    #expect(SongFeatureEstimator.estimate([]).isEmpty)
  }
}
