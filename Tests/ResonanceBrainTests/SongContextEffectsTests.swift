import Foundation
import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("Song-response model per context: the same model, each context pulled toward its song")
struct SongContextEffectsTests {
  /// Sessions alternating relax and commute; every song has one planted effect, but songs
  /// 0–7 calm by 5 bpm in relax and do nothing on a commute.
  struct Planted {
    var sessions: [SongResponseModel.Session] = []
    var samples: [SignalReading] = []
    var effects: [Int64: Double] = [:]
    var genres: [Int64: String] = [:]

    func effect(_ song: Int64, _ context: ActivityContext) -> Double {
      song < 8 ? (context == .relax ? -5 : 0) : effects[song]!
    }

    init(songs: Int = 40, sessionCount: Int = 240) {
      var random = SongResponseModelTests.Random(state: 11)
      for song in 0..<songs {
        genres[Int64(song)] = ["Pop", "Rock"][song % 2]
        effects[Int64(song)] = song < 8 ? 0 : random.normal(0, 1.5)
      }
      var t: Int64 = 1_700_000_000_000
      for index in 0..<sessionCount {
        let context: ActivityContext = index % 2 == 0 ? .relax : .commute
        var plays: [SongResponseModel.Play] = []
        var start = t
        for _ in 0..<random.int(6..<10) {
          let song = Int64(random.int(0..<songs))
          let heard = Int64(random.normal(200_000, 20_000))
          plays.append(.init(songID: song, startMs: start, heardEndMs: start + heard))
          start += heard + 1_000
        }
        sessions.append(.init(context: context, plays: plays))
        var noise = 0.0
        let baseline = random.normal(70, 4)
        var time = plays[0].startMs - 10 * 60_000
        while time < start + 10 * 60_000 {
          noise = 0.9 * noise + random.normal(0, 0.6)
          var value = baseline + noise
          for play in plays {
            value +=
              effect(play.songID, context)
              * SongResponseModel.exposure(
                atMs: Double(time), startMs: play.startMs, endMs: play.heardEndMs,
                lagMs: 90_000)
          }
          samples.append(.init(timeMs: time, value: value, isMoving: false))
          time += 30_000
        }
        t = start + 3 * 3_600_000
      }
    }
  }

  @Test("a song that calms only in relax is calming there and not on a commute")
  func contextSpecific() throws {
    let planted = Planted()
    let overall = try #require(
      SongResponseModel.fit(
        .heartRate, sessions: planted.sessions, samples: planted.samples, mac: [],
        genres: planted.genres))
    let pairs = try #require(
      SongResponseModel.contextEffects(
        overall, sessions: planted.sessions, samples: planted.samples, mac: [],
        genres: planted.genres))
    #expect(pairs.allSatisfy { $0.plays >= SongResponseModel.minimumContextPlays })
    #expect(Set(pairs.map(\.context)) == [.relax, .commute])
    let byKey = Dictionary(uniqueKeysWithValues: pairs.map { ("\($0.songID)-\($0.context)", $0) })
    var calmInRelax = 0
    for song in Int64(0)..<8 {
      guard let relax = byKey["\(song)-relax"], let commute = byKey["\(song)-commute"] else {
        continue
      }
      // The contexts differ by 5 bpm; relax lower than commute, by most of it.
      #expect(relax.estimate < commute.estimate - 2.5, "song \(song): \(relax) \(commute)")
      if relax.high90 < 0 { calmInRelax += 1 }
      // Shrinkage pulls toward the song's overall effect, never past it.
      #expect(abs(relax.estimate - relax.overall) <= abs(relax.unpooled - relax.overall) + 1e-9)
    }
    #expect(calmInRelax >= 6)
    // Relative truth per pair, centred on the exposure-weighted mean pair as the refit centres
    // them (over the pairs returned, so within a few tenths: the tolerance below).
    let total = pairs.reduce(0.0) { $0 + $1.minutes }
    let mean =
      pairs.reduce(0.0) { $0 + $1.minutes * planted.effect($1.songID, $1.context) } / total
    let covered = pairs.filter {
      let truth = planted.effect($0.songID, $0.context) - mean
      return $0.low90 - 0.3 <= truth && truth <= $0.high90 + 0.3
    }.count
    #expect(Double(covered) / Double(pairs.count) > 0.8, "\(covered) of \(pairs.count)")
  }
}
