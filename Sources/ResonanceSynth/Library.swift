import ResonanceModel

/// One song of the simulated library, with its hidden truth.
package struct SynthSong: Sendable, Equatable, Codable {
  /// How the song acts on the body.
  package enum EffectKind: String, Sendable, Codable { case calming, activating, neutral }

  /// Apple Music catalog identifier (digits).
  package var catalogID: String
  /// The Music library's 16-hex-digit persistent ID.
  package var persistentID: String
  package var spotifyURI: String
  package var title: String
  package var artist: String
  package var album: String
  package var genre: String
  package var durationMs: Int
  /// True audio features.
  package var features: SongFeatures
  /// The BPM the library file states, when it states one (most songs have none).
  package var libraryBPM: Int?
  package var effectKind: EffectKind
  /// True change in heart rate while the song plays, BPM, before the context gain.
  package var hrEffectBPM: Double
  /// True change in HRV (SDNN), ms, before the context gain.
  package var hrvEffectMs: Double
  /// A cohort member's planted tempo term: heart rate while the song plays, bpm, in every
  /// context alike (outside the context gain); 0 for a lone person.
  package var tempoEffectBPM: Double = 0
}

/// The library generator: artists with a genre each, albums, titles, true features and effects.
package enum LibraryGenerator {
  /// How much of a song's effect shows in each context (a workout masks most of it).
  package static let contextGain: [ActivityContext: Double] = [
    .workout: 0.4, .deepWork: 1.0, .commute: 0.8, .preSleep: 1.3, .wakeUp: 0.9, .relax: 1.2,
    .general: 1.0,
  ]

  /// `count` songs, deterministic in `seed`. With `tempoSlope` (a cohort member's planted
  /// heart rate per 10 BPM), the drawn heart-rate effects lose their least-squares trend on
  /// tempo over the library (energy, and with it the calming and activating songs, leans on
  /// tempo by genre; a member's kinds are drawn apart from the features), and each song
  /// carries the planted trend as `tempoEffectBPM`, about the library's mean tempo.
  package static func songs(
    count: Int, seed: UInt64, effectScale: Double, tempoSlope: Double? = nil
  ) -> [SynthSong] {
    var rng = SplitMix64(seed: seed, stream: "library")
    let priors = GenrePrior.table
    let artistCount = max(3, count / 7)
    var artists: [(name: String, genre: Int, albums: [String])] = []
    var usedNames = Set<String>()
    for _ in 0..<artistCount {
      var name = Names.artist(&rng)
      while usedNames.contains(name) { name = Names.artist(&rng) }
      usedNames.insert(name)
      let genre = rng.weightedIndex(priors.map(\.share))
      let albums = (0..<rng.int(1...3)).map { _ in Names.title(&rng, words: rng.int(1...3)) }
      artists.append((name, genre, albums))
    }
    var songs: [SynthSong] = []
    var usedTitles = Set<String>()
    for index in 0..<count {
      let artist = artists[index < artistCount ? index : rng.int(0...(artistCount - 1))]
      let prior = priors[artist.genre]
      var title = Names.title(&rng, words: rng.int(1...4))
      while usedTitles.contains(artist.name + title) { title = Names.title(&rng, words: 2) }
      usedTitles.insert(artist.name + title)
      // A few titles carry the decorations identity matching must see through.
      let decoration = rng.uniform()
      if decoration < 0.03 {
        title += " (feat. \(Names.artist(&rng)))"
      } else if decoration < 0.05 {
        title += " - Remastered \(rng.int(2009...2021))"
      } else if decoration < 0.07 {
        title = title.replacingApostrophes()
      }
      let features = SongFeatures(
        bpm: clamp(rng.normal(prior.bpmMean, prior.bpmSD), 55, 190).rounded(),
        energy: rounded(clamp(rng.normal(prior.energyMean, prior.energySD), 0.02, 0.99)),
        valence: rounded(clamp(rng.normal(prior.valenceMean, prior.valenceSD), 0.02, 0.98)))
      // A lone person's calming songs lean to low energy and activating ones to high; a
      // cohort member's kind owes nothing to the features, so that the DJ's playlists (drawn
      // by energy) and its choices carry no tempo trend of their own beside the planted one.
      let calmingChance = tempoSlope == nil ? 0.03 + 0.12 * (1 - features.energy) : 0.09
      let activatingChance = tempoSlope == nil ? 0.03 + 0.12 * features.energy : 0.09
      let u = rng.uniform()
      let kind: SynthSong.EffectKind
      var hr: Double
      var hrv: Double
      if u < calmingChance {
        kind = .calming
        hr = -rng.uniform(3, 6)
        hrv = rng.uniform(3, 8)
      } else if u < calmingChance + activatingChance {
        kind = .activating
        hr = rng.uniform(3, 6)
        hrv = -rng.uniform(2, 5)
      } else {
        kind = .neutral
        hr = rng.normal(0, 0.6)
        hrv = rng.normal(0, 0.8)
      }
      hr *= effectScale
      hrv *= effectScale
      songs.append(
        SynthSong(
          catalogID: String(1_400_000_000 + Int(rng.next() % 200_000_000)),
          persistentID: hex16(rng.next()),
          spotifyURI: "spotify:track:" + base62(&rng, count: 22),
          title: title, artist: artist.name, album: rng.pick(artist.albums), genre: prior.genre,
          durationMs: Int(clamp(rng.normal(214_000, 42_000), 95_000, 420_000)),
          features: features,
          libraryBPM: rng.chance(0.3) ? Int(features.bpm + rng.normal(0, 1.5).rounded()) : nil,
          effectKind: kind, hrEffectBPM: hr, hrvEffectMs: hrv))
    }
    if let tempoSlope { plant(tempoSlope, in: &songs) }
    return songs
  }

  /// Takes the songs' heart-rate trend on tempo out of their drawn effects and plants `slope`
  /// bpm per 10 BPM as their tempo terms.
  static func plant(_ slope: Double, in songs: inout [SynthSong]) {
    let n = Double(songs.count)
    let meanBPM = songs.reduce(0) { $0 + $1.features.bpm } / n
    let meanHR = songs.reduce(0) { $0 + $1.hrEffectBPM } / n
    var sxx = 0.0
    var sxy = 0.0
    for song in songs {
      sxx += (song.features.bpm - meanBPM) * (song.features.bpm - meanBPM)
      sxy += (song.features.bpm - meanBPM) * (song.hrEffectBPM - meanHR)
    }
    let drawn = sxx > 0 ? sxy / sxx : 0
    for i in songs.indices {
      songs[i].hrEffectBPM -= drawn * (songs[i].features.bpm - meanBPM)
      songs[i].tempoEffectBPM = slope / 10 * (songs[i].features.bpm - meanBPM)
    }
  }

  static func clamp(_ x: Double, _ lo: Double, _ hi: Double) -> Double { max(lo, min(hi, x)) }

  /// Features are kept to three decimals, as the app's feature store holds them.
  static func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

  static func hex16(_ value: UInt64) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  static func base62(_ rng: inout SplitMix64, count: Int) -> String {
    let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    return String((0..<count).map { _ in alphabet[rng.int(0...61)] })
  }
}

/// Made-up names for artists, albums and titles, built from syllables and words.
enum Names {
  static let syllables = [
    "ka", "lo", "mi", "ren", "sa", "vo", "ta", "nel", "ri", "zu", "mar", "el", "do", "an", "fi",
    "ko", "la", "ven", "ti", "o", "sel", "ra", "mo", "ny", "ash", "bel", "cor", "dan", "is",
  ]
  static let words = [
    "Midnight", "Golden", "River", "Echo", "Velvet", "Summer", "Static", "Neon", "Quiet",
    "Storm", "Paper", "Ocean", "Electric", "Slow", "Wild", "Silver", "Morning", "Gravity",
    "Fire", "Glass", "Dream", "Heart", "City", "Light", "Shadow", "Honey", "Road", "Sky",
    "Blue", "Dancing", "Home", "Tide", "Wires", "Bloom", "Signal", "Lanterns", "Don't",
    "Runaway", "Satellite", "Horizon", "Winter", "Cherry", "Motion", "Parade", "Faded",
  ]

  static func artist(_ rng: inout SplitMix64) -> String {
    func word() -> String {
      let s = (0..<rng.int(2...3)).map { _ in rng.pick(syllables) }.joined()
      return s.prefix(1).uppercased() + s.dropFirst()
    }
    switch rng.int(0...3) {
    case 0: return "The \(rng.pick(words)) \(word())s"
    case 1: return "\(word()) \(word())"
    case 2: return word()
    default: return "\(word()) & the \(rng.pick(words))"
    }
  }

  static func title(_ rng: inout SplitMix64, words count: Int) -> String {
    (0..<count).map { _ in rng.pick(words) }.joined(separator: " ")
  }
}

extension String {
  /// Straight apostrophes made typographic (’), as some catalogs write them.
  fileprivate func replacingApostrophes() -> String {
    String(map { $0 == "'" ? "\u{2019}" : $0 })
  }
}
