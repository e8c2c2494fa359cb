import Testing

@testable import ResonanceModel

@Suite("Song identity keys")
struct SongIdentityTests {
  @Test(
    "the same song as sources spell it",
    arguments: [
      ("Don\u{2019}t Look Back (feat. Mira Sol) - Remastered 2011", "Don't Look Back"),
      ("GLASS HOUSES", "Glass, Houses"),
      ("Caf\u{E9} del Mar", "Cafe Del Mar"),
      ("Heroes - 2017 Remaster", "Heroes"),
      ("Heroes (2009 Remastered Version)", "heroes"),
      ("Runaway [ft. Pusha T]", "Runaway"),
      ("Runaway feat. Pusha T", "Runaway"),
      ("Rock & Roll", "Rock and Roll"),
      ("\u{201C}Quoted\u{201D}", "\"Quoted\""),
    ])
  func sameTitle(_ a: String, _ b: String) {
    #expect(SongIdentity.titleKey(a) == SongIdentity.titleKey(b))
  }

  @Test(
    "different songs stay apart",
    arguments: [
      ("Quiet Engine - Live at the Roundhouse", "Quiet Engine"),
      ("Intro", "Outro"),
      ("Heroes (Live)", "Heroes"),
      ("Song 2", "Song"),
    ])
  func differentTitle(_ a: String, _ b: String) {
    #expect(SongIdentity.titleKey(a) != SongIdentity.titleKey(b))
  }

  @Test("artists: credits dropped, & read as and, accents and case ignored")
  func artists() {
    #expect(SongIdentity.artistKey("Beyonc\u{E9} feat. Jay-Z") == SongIdentity.artistKey("BEYONCE"))
    #expect(SongIdentity.artistKey("Simon & Garfunkel") == "simon and garfunkel")
    #expect(SongIdentity.artistKey("The Beatles") != SongIdentity.artistKey("Beatles"))
    #expect(
      SongIdentity.songKey(artist: "Lumen Drift", title: "Paper Lanterns")
        == "lumen drift|paper lanterns")
  }

  @Test("albums: remaster and deluxe labels dropped")
  func albums() {
    #expect(SongIdentity.albumKey("Harbour Lights (Deluxe Edition)") == "harbour lights")
    #expect(SongIdentity.albumKey("Harbour Lights - Remastered") == "harbour lights")
    #expect(SongIdentity.albumKey("Night Roads") != SongIdentity.albumKey("Night Road"))
  }
}

@Suite("UTC offset timeline")
struct UTCOffsetTimelineTests {
  let hour: Int64 = 3_600_000

  @Test("the latest point before, within a day and a half; else the next one within reach")
  func lookup() {
    let timeline = UTCOffsetTimeline(points: [
      (0, -28_800), (10 * hour, -28_800), (100 * hour, -25_200), (101 * hour, 3_600),
    ])
    #expect(timeline.offset(atMs: 5 * hour) == -28_800)
    #expect(timeline.offset(atMs: 10 * hour + 36 * hour) == -28_800)
    #expect(timeline.offset(atMs: 10 * hour + 37 * hour) == nil)
    #expect(timeline.offset(atMs: 70 * hour) == -25_200, "30 h before the next point")
    #expect(timeline.offset(atMs: 100 * hour + 30 * 60_000) == -25_200)
    #expect(timeline.offset(atMs: 200 * hour) == nil)
    #expect(timeline.offset(atMs: -hour) == -28_800)
    #expect(UTCOffsetTimeline(points: []).offset(atMs: 0) == nil)
  }

  @Test("two offsets in one hour: the later point of the list wins")
  func sameInstant() {
    let timeline = UTCOffsetTimeline(points: [(0, -28_800), (0, -25_200)])
    #expect(timeline.offset(atMs: 1) == -25_200)
  }
}
