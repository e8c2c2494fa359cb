import ResonanceModel

/// The measured minutes: each session's samples averaged per minute, with the songs' exposures
/// and the nuisance covariates of each minute the model is fitted on.
extension SongResponseModel {
  struct Entry {
    var song: Int64
    var exposure: Double
  }

  /// One measured minute: its block, session, mean value, covariates and its songs' entries
  /// (`entries[firstEntry..<endEntry]`).
  struct Row {
    var block: Int
    var session: Int
    var y: Double
    var moving: Double
    var meeting: Double
    var workFocus: Double
    var firstEntry: Int
    var endEntry: Int
    /// The stretch of listening it belongs to: sessions less than an hour apart share one, as
    /// their noise does (the clusters of the sandwich variance).
    var cluster: Int
    /// The minute's mean reading time; the song playing then: its start and the reading a DJ
    /// chose it on.
    var timeMs: Int64
    var songStartMs: Int64?
    var chosenOn: Double?
    /// How many readings `y` averages (the reading noise's share shrinks with them).
    var readings = 1
    /// How far that reading was from what the first fit predicts at the song's start: the part
    /// of the state the choice followed that music and context do not explain (nil before the
    /// second fit, or when unknown).
    var chosenDeviation: Double? = nil
  }

  struct Minutes {
    var rows: [Row] = []
    var entries: [Entry] = []
    var blockCount = 0
    var sessionCount = 0
    var clusterCount = 0
    var playsBySong: [Int64: Int] = [:]
  }

  static func measuredMinutes(
    sessions: [Session], samples: [SignalReading], mac: [MacContextSnapshot],
    asleep: [TimeSpan] = [], lagMs: Double, configuration: Configuration
  ) -> Minutes {
    let asleepStarts = asleep.map(\.startMs)
    var result = Minutes()
    let selectionLagMs = configuration.selectionLagMinutes * 60_000
    let padMs = Int64(configuration.paddingMinutes) * 60_000
    let blockMs = Int64(configuration.blockMinutes) * 60_000
    let macReachMs = Int64(configuration.macReachMinutes) * 60_000
    // Past this many lags a play's tail is below e⁻¹² of its effect.
    let tailMs = 12 * max(lagMs, selectionLagMs)
    let macTimes = mac.map(\.time.millisecondsSinceEpoch)
    let clusterGapMs: Int64 = 60 * 60_000
    var lastWindowEnd = Int64.min / 2
    for session in sessions where session.context != .workout && !session.plays.isEmpty {
      let plays = session.plays
      let windowStart = plays[0].startMs - padMs
      let windowEnd = plays.map(\.heardEndMs).max()! + padMs
      var i = samples.partitioningIndex { $0.timeMs >= windowStart }
      var cursor = 0
      var counted = Set<Int>()
      var lastBlock = -1
      var sessionUsed = false
      if windowStart - lastWindowEnd > clusterGapMs || result.clusterCount == 0 {
        result.clusterCount += 1
      }
      lastWindowEnd = max(lastWindowEnd, windowEnd)
      while i < samples.count, samples[i].timeMs < windowEnd {
        let minute = (samples[i].timeMs - windowStart) / 60_000
        let binFirst = i
        var sum = 0.0
        var time = 0.0
        var moving = 0
        var count = 0
        while i < samples.count, samples[i].timeMs < windowEnd,
          (samples[i].timeMs - windowStart) / 60_000 == minute
        {
          if samples[i].value.isFinite {
            sum += samples[i].value
            time += Double(samples[i].timeMs)
            if samples[i].isMoving { moving += 1 }
            count += 1
          }
          i += 1
        }
        guard count > 0 else { continue }
        let t = time / Double(count)
        // Asleep, the body answers sleep, not the music.
        let nap = asleepStarts.partitioningIndex { $0 > Int64(t) } - 1
        if nap >= 0, Int64(t) < asleep[nap].endMs { continue }
        let binTimes = samples[binFirst..<i].filter(\.value.isFinite).map { Double($0.timeMs) }
        // A song's exposure in the minute: the mean over the minute's readings (the lag curves,
        // so the exposure at their mean time would overstate a rising one).
        func meanExposure(_ play: Play, lagMs: Double) -> Double {
          binTimes.reduce(0.0) {
            $0 + exposure(atMs: $1, startMs: play.startMs, endMs: play.heardEndMs, lagMs: lagMs)
          } / Double(binTimes.count)
        }
        while cursor < plays.count, Double(plays[cursor].heardEndMs) + tailMs < t { cursor += 1 }
        let first = result.entries.count
        var exposureSum = 0.0
        var index = cursor
        while index < plays.count, Double(plays[index].startMs) <= binTimes.last! {
          let play = plays[index]
          let x = meanExposure(play, lagMs: lagMs)
          if x > 1e-3 {
            if let j = result.entries[first...].firstIndex(where: { $0.song == play.songID }) {
              result.entries[j].exposure += x
            } else {
              result.entries.append(Entry(song: play.songID, exposure: x))
            }
          }
          exposureSum += meanExposure(play, lagMs: selectionLagMs)
          index += 1
        }
        guard exposureSum >= configuration.minimumExposure else {
          result.entries.removeSubrange(first...)
          continue
        }
        for j in cursor..<index where !counted.contains(j) {
          if meanExposure(plays[j], lagMs: lagMs) > 1e-3 {
            counted.insert(j)
            result.playsBySong[plays[j].songID, default: 0] += 1
          }
        }
        let current = plays[cursor..<index].last { Double($0.startMs) <= t }
        let blockIndex = Int((Int64(t) - windowStart) / blockMs)
        if blockIndex != lastBlock {
          result.blockCount += 1
          lastBlock = blockIndex
        }
        sessionUsed = true
        var meeting = 0.0
        var work = 0.0
        let m = macTimes.partitioningIndex { $0 > Int64(t) } - 1
        if m >= 0, Int64(t) - macTimes[m] <= macReachMs {
          meeting = mac[m].inMeeting == true ? 1 : 0
          work = mac[m].focusMode?.lowercased() == "work" ? 1 : 0
        }
        result.rows.append(
          Row(
            block: result.blockCount - 1, session: result.sessionCount, y: sum / Double(count),
            moving: Double(moving) / Double(count), meeting: meeting, workFocus: work,
            firstEntry: first, endEntry: result.entries.count, cluster: result.clusterCount - 1,
            timeMs: Int64(t), songStartMs: current?.startMs, chosenOn: current?.chosenOn,
            readings: count))
      }
      if sessionUsed { result.sessionCount += 1 }
    }
    return result
  }
}
