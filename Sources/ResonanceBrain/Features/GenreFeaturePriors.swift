/// The genres the feature priors know, named as Apple Music names them, plus the fallback for a
/// song without a genre or with one the normalisation does not recognise.
package enum FeatureGenre: String, CaseIterable, Sendable, Codable, Hashable {
  case pop = "Pop"
  case hipHopRap = "Hip-Hop/Rap"
  case rock = "Rock"
  case alternative = "Alternative"
  case electronic = "Electronic"
  case dance = "Dance"
  case rnbSoul = "R&B/Soul"
  case jazz = "Jazz"
  case classical = "Classical"
  case ambient = "Ambient"
  case singerSongwriter = "Singer/Songwriter"
  case country = "Country"
  case latin = "Latin"
  case metal = "Metal"
  case unknown = "unknown genre"
}

/// A normal prior: mean and standard deviation.
package struct FeaturePrior: Sendable, Equatable, Codable, Hashable {
  package var mean: Double
  package var sd: Double

  package init(_ mean: Double, _ sd: Double) {
    self.mean = mean
    self.sd = sd
  }
}

/// One genre's priors: tempo in BPM, energy and valence on Spotify's 0…1 scales.
package struct GenreFeaturePrior: Sendable, Equatable, Codable, Hashable {
  package var genre: FeatureGenre
  package var bpm: FeaturePrior
  package var energy: FeaturePrior
  package var valence: FeaturePrior
}

/// What the brain assumes about a song's tempo, energy and valence when all it knows is the
/// song's genre: the brain's own prior table (the simulation in `ResonanceSynth` draws its
/// library from a different, independent table, so estimating does not start from the truth).
///
/// Sources, and how the numbers were chosen. The figures are **approximate** — rounded
/// judgements from published conventions and aggregates, not recomputed from a dataset (none is
/// shipped or downloaded; Spotify's audio-features API has been closed to new apps since
/// November 2024):
/// - **Tempo means** follow the tempo conventions of each style as producers and DJ references
///   give them: house and most dance music 118–130 BPM; techno and trance 125–145; drum & bass
///   ≈ 170 (tagged either way by detectors); hip-hop 85–100 with trap written at 130–150 but
///   usually felt and tagged at half time; reggaeton ≈ 90–100, salsa and cumbia faster;
///   ballads, ambient and much classical slow or without a steady pulse. Across Western popular
///   music the tempo distribution peaks near 120 BPM (van Noorden & Moelants 1999, *J. New Music
///   Research* 28(1):43–66; Moelants 2002, "Preferred tempo reconsidered", ICMPC 7), which is
///   also the fallback mean.
/// - **Tempo SDs** are wide (14–32 BPM): a genre spans ballads to uptempo songs, and automatic
///   tempo tags often differ by a factor of 2 (half/double time), which is also why per-genre
///   means of Spotify's `tempo` cluster between roughly 110 and 130 BPM whatever the genre.
///   Tightly defined dance genres get the smallest spread; jazz, classical, ambient and metal the
///   largest.
/// - **Energy and valence** use Spotify's audio-feature definitions (0…1; "death metal has high
///   energy, while a Bach prelude scores low"; valence is "musical positiveness") and the
///   ordering and rough levels of their per-genre averages in the public Kaggle aggregates of
///   those features — "Spotify Tracks DB" (`SpotifyFeatures.csv`, ≈ 230k tracks, 26 genres) and
///   "Spotify Tracks Dataset" (`maharshipandya`, 114 genres × 1,000 tracks): metal and
///   dance/electronic highest in energy, classical, opera, soundtrack and ambient lowest; latin,
///   reggae and country highest in valence, classical, ambient and metal lowest; catalogue-wide
///   means near energy 0.6 and valence 0.45–0.5 (the fallback). Means are rounded to 0.02–0.05;
///   SDs (0.10–0.24) reflect the within-genre spread those sets show (energy tighter in metal
///   and dance, valence broad everywhere).
/// - Apple genres are coarser than Spotify's: `Singer/Songwriter` is read as folk/acoustic,
///   `Alternative` as indie/alternative rock, `R&B/Soul` as R&B, soul and funk.
/// - **Soundtrack** has no row: it is read as Classical, which it sits beside in those
///   aggregates (low energy, low valence, mostly instrumental film and TV scores).
package enum GenreFeaturePriors {
  /// One row per `FeatureGenre`, the fallback (`unknown genre`) last.
  package static let table: [GenreFeaturePrior] = [
    row(.pop, bpm: (118, 24), energy: (0.64, 0.17), valence: (0.52, 0.22)),
    row(.hipHopRap, bpm: (100, 26), energy: (0.64, 0.15), valence: (0.47, 0.21)),
    row(.rock, bpm: (124, 27), energy: (0.72, 0.19), valence: (0.50, 0.23)),
    row(.alternative, bpm: (122, 28), energy: (0.66, 0.21), valence: (0.43, 0.22)),
    row(.electronic, bpm: (124, 22), energy: (0.70, 0.20), valence: (0.40, 0.23)),
    row(.dance, bpm: (124, 14), energy: (0.76, 0.14), valence: (0.52, 0.22)),
    row(.rnbSoul, bpm: (104, 26), energy: (0.56, 0.17), valence: (0.50, 0.23)),
    row(.jazz, bpm: (112, 32), energy: (0.42, 0.22), valence: (0.52, 0.24)),
    row(.classical, bpm: (104, 30), energy: (0.16, 0.14), valence: (0.22, 0.18)),
    row(.ambient, bpm: (90, 30), energy: (0.22, 0.18), valence: (0.18, 0.16)),
    row(.singerSongwriter, bpm: (116, 28), energy: (0.40, 0.21), valence: (0.42, 0.22)),
    row(.country, bpm: (122, 28), energy: (0.62, 0.18), valence: (0.55, 0.22)),
    row(.latin, bpm: (112, 28), energy: (0.72, 0.15), valence: (0.66, 0.21)),
    row(.metal, bpm: (128, 30), energy: (0.90, 0.10), valence: (0.32, 0.20)),
    row(.unknown, bpm: (120, 30), energy: (0.60, 0.25), valence: (0.47, 0.25)),
  ]

  /// The priors of `genre`.
  package static func prior(for genre: FeatureGenre) -> GenreFeaturePrior {
    table.first { $0.genre == genre }!
  }

  /// The priors of a genre as a library or history spells it.
  package static func prior(forName name: String?) -> GenreFeaturePrior {
    prior(for: normalise(name))
  }

  /// The genre a name means, or `.unknown`.
  ///
  /// The name is reduced to a key — lower-cased, keeping only letters, digits and `&` — so
  /// `Hip-Hop/Rap`, `hip hop`, `HipHop` and `Hip-Hop` all become `hiphop…`, and `R&B / Soul`,
  /// `R&B` and `rnb` meet. The key is looked up among Apple's names, common aliases and
  /// sub-genres (`aliases`); failing that, the first keyword in `keywords` the key contains
  /// decides (so `Melodic Death Metal` is Metal, `Latin Pop` Latin, `Indie Pop` Alternative).
  package static func normalise(_ name: String?) -> FeatureGenre {
    guard let name else { return .unknown }
    let key = self.key(name)
    guard !key.isEmpty else { return .unknown }
    if let genre = aliases[key] { return genre }
    return keywords.first { key.contains($0.keyword) }?.genre ?? .unknown
  }

  /// Lower-cased, only letters, digits and `&`.
  static func key(_ name: String) -> String {
    String(name.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "&" })
  }

  /// Whole-key matches: Apple Music's genre names and their sub-genres, and common spellings.
  static let aliases: [String: FeatureGenre] = {
    var map: [String: FeatureGenre] = [:]
    func add(_ genre: FeatureGenre, _ keys: [String]) {
      for key in keys { map[key] = genre }
    }
    add(
      .pop,
      [
        "pop", "kpop", "jpop", "cpop", "mandopop", "cantopop", "teenpop", "poprock",
        "adultcontemporary", "vocal", "synthpop", "electropop",
      ])
    add(
      .hipHopRap,
      [
        "hiphoprap", "hiphop", "rap", "rapandhiphop", "trap", "drill", "grime",
        "undergroundrap", "gangstarap", "westcoastrap", "eastcoastrap",
      ])
    add(
      .rock,
      [
        "rock", "hardrock", "classicrock", "softrock", "rock&roll", "rockandroll",
        "rocknroll", "rockabilly", "bluesrock", "progressiverock", "psychedelic",
      ])
    add(
      .alternative,
      [
        "alternative", "alt", "altrock", "alternativerock", "indie", "indierock",
        "indiepop", "punk", "poppunk", "grunge", "emo", "newwave", "postpunk",
        "shoegaze", "collegerock",
      ])
    add(
      .electronic,
      [
        "electronic", "electronica", "techno", "idm", "idmexperimental",
        "drum&bass", "drumandbass", "drumnbass", "dnb", "dubstep", "downtempo",
        "triphop", "breakbeat", "electro", "jungle", "industrial",
      ])
    add(
      .dance,
      [
        "dance", "house", "deephouse", "techhouse", "progressivehouse", "edm",
        "trance", "disco", "nudisco", "hardstyle", "garage", "ukgarage", "hinrg",
        "eurodance", "club",
      ])
    add(
      .rnbSoul,
      [
        "r&bsoul", "r&b", "rnb", "randb", "rhythmandblues", "soul", "neosoul",
        "funk", "contemporaryr&b", "motown", "quietstorm",
      ])
    add(
      .jazz,
      [
        "jazz", "vocaljazz", "smoothjazz", "bebop", "swing", "bossanova", "bigband",
        "fusion", "latinjazz",
      ])
    add(
      .classical,
      [
        "classical", "opera", "classicalcrossover", "baroque", "orchestral",
        "chambermusic", "choral", "romantic", "minimalism", "soundtrack",
        "soundtracks", "originalscore", "filmscore", "score", "moviesoundtrack",
        "tvsoundtrack", "filmmusic",
      ])
    add(
      .ambient,
      [
        "ambient", "newage", "meditation", "relaxation", "environmental", "healing",
        "nature", "sleep", "dronemusic", "drone",
      ])
    add(
      .singerSongwriter,
      [
        "singersongwriter", "folk", "contemporaryfolk", "acoustic",
        "folkrock", "indiefolk", "traditionalfolk", "contemporarysinger",
      ])
    add(
      .country,
      [
        "country", "americana", "bluegrass", "contemporarycountry", "honkytonk",
        "outlawcountry", "countryfolk", "alternativecountry", "altcountry",
      ])
    add(
      .latin,
      [
        "latin", "latino", "latinpop", "latinurban", "urbanolatino", "reggaeton",
        "salsa", "salsaytropical", "tropical", "bachata", "cumbia", "merengue",
        "regionalmexicano", "músicamexicana", "musicamexicana", "latinrap",
        "latinrock", "latinalternative", "flamenco", "tango", "musicatropical",
      ])
    add(
      .metal,
      [
        "metal", "heavymetal", "deathmetal", "blackmetal", "thrashmetal", "metalcore",
        "numetal", "doommetal", "powermetal",
      ])
    return map
  }()

  /// Substring rules for keys no alias names, tried in this order; the first that the key
  /// contains decides. More specific words come first (metal before rock, latin and indie
  /// before pop, rap last because it hides in other words least often).
  static let keywords: [(keyword: String, genre: FeatureGenre)] = [
    ("metal", .metal), ("latin", .latin), ("jazz", .jazz), ("hiphop", .hipHopRap),
    ("r&b", .rnbSoul), ("soul", .rnbSoul), ("classical", .classical),
    ("soundtrack", .classical), ("score", .classical), ("ambient", .ambient),
    ("country", .country), ("house", .dance), ("trance", .dance), ("techno", .electronic),
    ("electro", .electronic), ("indie", .alternative), ("alternative", .alternative),
    ("punk", .alternative), ("folk", .singerSongwriter), ("rock", .rock), ("pop", .pop),
    ("rap", .hipHopRap),
  ]

  private static func row(
    _ genre: FeatureGenre, bpm: (Double, Double), energy: (Double, Double),
    valence: (Double, Double)
  ) -> GenreFeaturePrior {
    GenreFeaturePrior(
      genre: genre, bpm: .init(bpm.0, bpm.1), energy: .init(energy.0, energy.1),
      valence: .init(valence.0, valence.1))
  }
}
