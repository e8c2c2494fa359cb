import Foundation
import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("Song-response model: each song's effect from every sample, with 90% intervals")
struct SongResponseModelTests {
  /// A small deterministic generator (SplitMix64) and Box–Muller normals, for planted data.
  struct Random {
    var state: UInt64
    mutating func next() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      z ^= z >> 31
      return (Double(z >> 11) + 0.5) / 9_007_199_254_740_992
    }
    mutating func normal(_ mean: Double, _ sd: Double) -> Double {
      mean + sd * (-2 * log(next())).squareRoot() * cos(2 * Double.pi * next())
    }
    mutating func int(_ range: Range<Int>) -> Int {
      range.lowerBound + Int(next() * Double(range.count)) % range.count
    }
  }

  /// A planted person: `songs` songs in three genres, most doing little and a few raising or
  /// lowering heart rate by 4–6 bpm through a 1.5-minute lag; sessions of back-to-back plays,
  /// a reading every 30 s with a slowly wandering baseline, correlated noise, and walking
  /// minutes that add 25 bpm.
  struct Planted {
    var sessions: [SongResponseModel.Session] = []
    var samples: [SignalReading] = []
    var effects: [Int64: Double] = [:]
    var genres: [Int64: String] = [:]

    init(songs: Int = 60, sessionCount: Int = 160, seed: UInt64 = 7) {
      var random = Random(state: seed)
      for song in 0..<songs {
        let id = Int64(song)
        genres[id] = ["Pop", "Rock", "Ambient"][song % 3]
        let u = random.next()
        effects[id] =
          u < 0.12
          ? -random.normal(5, 0.5) : u < 0.24 ? random.normal(5, 0.5) : random.normal(0, 0.5)
      }
      let lagMs = 90_000.0
      var t: Int64 = 1_700_000_000_000
      for index in 0..<sessionCount {
        var plays: [SongResponseModel.Play] = []
        var start = t
        for _ in 0..<random.int(5..<11) {
          let song = Int64(random.int(0..<songs))
          let heard = Int64(random.normal(200_000, 30_000))
          plays.append(.init(songID: song, startMs: start, heardEndMs: start + heard))
          start += heard + 1_000
        }
        let context: ActivityContext = index % 10 == 9 ? .workout : .general
        sessions.append(.init(context: context, plays: plays))
        var noise = 0.0
        let baseline = random.normal(70, 5)
        let walkFrom = start - Int64(random.int(5..<20)) * 60_000
        var time = plays[0].startMs - 10 * 60_000
        while time < start + 10 * 60_000 {
          noise = 0.95 * noise + random.normal(0, 0.6)
          let moving = context == .general && time >= walkFrom && time < walkFrom + 4 * 60_000
          var value = baseline + noise + (moving ? 25 : 0) + (context == .workout ? 60 : 0)
          for play in plays {
            value +=
              effects[play.songID]!
              * SongResponseModel.exposure(
                atMs: Double(time), startMs: play.startMs, endMs: play.heardEndMs, lagMs: lagMs)
          }
          samples.append(.init(timeMs: time, value: value, isMoving: moving))
          time += 30_000
        }
        t = start + 3 * 3_600_000
      }
    }
  }

  @Test("exposure: a first-order lag while the song plays, fading after it")
  func exposure() {
    let lag = 90_000.0
    #expect(SongResponseModel.exposure(atMs: -1, startMs: 0, endMs: 180_000, lagMs: lag) == 0)
    #expect(
      abs(
        SongResponseModel.exposure(atMs: 90_000, startMs: 0, endMs: 180_000, lagMs: lag)
          - (1 - exp(-1))) < 1e-12)
    #expect(
      abs(
        SongResponseModel.exposure(atMs: 270_000, startMs: 0, endMs: 180_000, lagMs: lag)
          - (1 - exp(-2)) * exp(-1)) < 1e-12)
  }

  @Test("planted effects are recovered: ranks, intervals, the walking offset and the lag")
  func recovery() throws {
    let planted = Planted()
    let fit = try #require(
      SongResponseModel.fit(
        .heartRate, sessions: planted.sessions, samples: planted.samples, mac: [],
        genres: planted.genres))
    #expect(fit.lagMinutes == 1.5)
    // The planted noise keeps 0.95 of itself per 30 s; minute means of two readings keep about
    // 0.93 from one minute to the next, between the candidates 0.9 and 0.95. No reading noise.
    #expect(fit.noise.persistence >= 0.9 && fit.noise.readingNoise <= 0.1, "\(fit.noise)")
    #expect(abs(fit.moving - 25) < 1.5, "walking adds \(fit.moving)")
    #expect(fit.estimates.count >= 55)
    // Relative effects: the truth centred the way the estimates are.
    let total = fit.estimates.reduce(0.0) { $0 + $1.minutes }
    let level = fit.estimates.reduce(0.0) { $0 + $1.minutes * planted.effects[$1.songID]! } / total
    let truth = fit.estimates.map { planted.effects[$0.songID]! - level }
    let spearman = try #require(Statistics.spearman(fit.estimates.map(\.estimate), truth))
    // Ranks among the many near-zero songs are mostly noise; the strong ones decide.
    #expect(spearman > 0.7, "Spearman \(spearman)")
    let estimates = fit.estimates.map(\.estimate)
    let slope =
      zip(estimates, truth).reduce(0.0) { $0 + $1.0 * $1.1 } / truth.reduce(0.0) { $0 + $1 * $1 }
    #expect(slope > 0.8 && slope < 1.1, "estimate ≈ truth: slope \(slope)")
    let covered = zip(fit.estimates, truth).filter { $0.low90 <= $1 && $1 <= $0.high90 }.count
    let coverage = Double(covered) / Double(truth.count)
    #expect(coverage >= 0.8 && coverage <= 1, "coverage \(coverage)")
    // The strong effects stand out from the average song, with the right sign.
    let strong = zip(fit.estimates, truth).filter { abs($1) > 3 }
    #expect(!strong.isEmpty)
    #expect(strong.allSatisfy { $0.isDistinguishableFromZero && ($0.estimate > 0) == ($1 > 0) })
    // The data's own contrasts are relative to the exposure-weighted mean song.
    let mean = fit.estimates.reduce(0.0) { $0 + $1.minutes * $1.unpooled } / total
    #expect(abs(mean) < 1e-6)
    // Shrinkage pulls toward the genre: never past it, never away from it.
    #expect(
      fit.estimates.allSatisfy {
        abs($0.estimate - $0.genreMean) <= abs($0.unpooled - $0.genreMean) + 1e-12
      })
  }

  @Test(
    "a DJ that picks a song when the reading is low: the persistent noise and its log's reading take the blame off"
  )
  func chosenOnTheState() throws {
    // Ten songs that do nothing. The reading wanders slowly (a minute-scale AR process); the
    // DJ picks song 0 whenever the reading at a song's start is below 46, another otherwise.
    var random = Random(state: 11)
    var sessions: [SongResponseModel.Session] = []
    var samples: [SignalReading] = []
    var t: Int64 = 1_700_000_000_000
    var noise = 0.0
    for _ in 0..<150 {
      var plays: [SongResponseModel.Play] = []
      var next = t + 5 * 60_000
      var time = t
      while plays.count < 10 {
        noise = 0.97 * noise + random.normal(0, 0.9)
        let reading = 50 + noise
        if time >= next {
          let song: Int64 = reading < 46 ? 0 : Int64(random.int(1..<10))
          plays.append(
            .init(songID: song, startMs: time, heardEndMs: time + 180_000, chosenOn: reading))
          next = time + 181_000
        }
        samples.append(.init(timeMs: time, value: reading, isMoving: false))
        time += 30_000
      }
      for _ in 0..<20 {
        noise = 0.97 * noise + random.normal(0, 0.9)
        samples.append(.init(timeMs: time, value: 50 + noise, isMoving: false))
        time += 30_000
      }
      sessions.append(.init(context: .general, plays: plays))
      t = time + 4 * 3_600_000
    }
    let genres = Dictionary(uniqueKeysWithValues: (0..<10).map { (Int64($0), "Pop") })
    let blind = sessions.map {
      SongResponseModel.Session(
        context: $0.context,
        plays: $0.plays.map {
          .init(songID: $0.songID, startMs: $0.startMs, heardEndMs: $0.heardEndMs)
        })
    }
    var white = SongResponseModel.Configuration()
    white.persistenceCandidates = [0]
    white.readingNoiseCandidates = [0]
    func songZero(
      _ sessions: [SongResponseModel.Session], _ configuration: SongResponseModel.Configuration
    ) throws -> SongEffectEstimate {
      let fit = try #require(
        SongResponseModel.fit(
          .heartRate, sessions: sessions, samples: samples, mac: [], genres: genres,
          configuration: configuration))
      return try #require(fit.estimates.first { $0.songID == 0 })
    }
    // Blind to the choice and to the noise's persistence, the song picked on low readings
    // looks like it lowers them.
    let naive = try songZero(blind, white)
    #expect(naive.unpooled < -1, "\(naive.unpooled)")
    #expect(naive.high90 < 0, "wrongly told apart from the average song")
    // The noise model alone (what a DJ without a log gets) takes most of it off: the state
    // that chose the song is the one that lingers, and the fit now knows how it lingers.
    let modelled = try songZero(blind, .init())
    #expect(abs(modelled.unpooled) < abs(naive.unpooled) / 2, "\(modelled.unpooled)")
    // With the reading it was chosen on as well, almost nothing is left.
    let aware = try songZero(sessions, .init())
    #expect(abs(aware.unpooled) < abs(modelled.unpooled), "\(aware.unpooled)")
    #expect(abs(aware.unpooled) < abs(naive.unpooled) / 10, "\(aware.unpooled)")
  }

  @Test("workout sessions are left out: exercise swamps the music")
  func workouts() throws {
    let planted = Planted()
    let fit = try #require(
      SongResponseModel.fit(
        .heartRate, sessions: planted.sessions, samples: planted.samples, mac: [],
        genres: planted.genres))
    let measured = planted.sessions.filter { $0.context != .workout }.count
    #expect(fit.sessions == measured)
  }

  @Test("too little to fit gives no estimates")
  func tooLittle() {
    #expect(
      SongResponseModel.fit(.heartRate, sessions: [], samples: [], mac: [], genres: [:]) == nil)
    let one = SongResponseModel.Session(
      context: .general, plays: [.init(songID: 1, startMs: 0, heardEndMs: 600_000)])
    let samples = stride(from: Int64(0), to: 600_000, by: 30_000).map {
      SignalReading(timeMs: $0, value: 70, isMoving: false)
    }
    #expect(
      SongResponseModel.fit(.heartRate, sessions: [one], samples: samples, mac: [], genres: [:])
        == nil)
  }
}
