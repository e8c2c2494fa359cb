/// An RR series corrected by the Kubios method, pass after pass, as NeuroKit2 0.3.0's
/// `signal_fixpeaks(method="kubios", iterative=True)` corrects peaks.
///
/// ```swift
/// let correction = KubiosCorrection(rr: rr)   // rr in ms
/// correction.rr                                // the corrected intervals
/// correction.correctedBeats                    // 5 on real-nsrdb
/// ```
///
/// Each pass finds the artefacts (`KubiosArtefacts`) of the beat times and mends them: an extra
/// beat is taken out, a missed one is put back midway between its neighbours, and an ectopic or
/// long/short beat is moved to the middle of its neighbours. The series is searched again after
/// each pass, and the next pass runs only while it finds fewer artefacts than the last one did.
///
/// Where this differs from NeuroKit2: NeuroKit2 holds beats as whole samples and, whenever it
/// moves one, casts every beat time to a whole sample (a whole millisecond at 1000 Hz); here a
/// moved beat sits exactly midway and the other beats keep their fractions of a millisecond.
/// The flags are NeuroKit2's all the same on every fixture series, and the metrics equal
/// NeuroKit2's with that cast left out; against NeuroKit2 itself SDNN and RMSSD move by less
/// than 0.1%, and pNN50 by one interval where whole milliseconds push one successive
/// difference across 50 ms (docs/hrv.md).
///
/// Like NeuroKit2 it leaves beats 0 and 1 as they are when flagged missed, ectopic or
/// long/short, and the last beat when flagged ectopic or long/short; `correctedBeats` does not
/// count them.
///
/// - Complexity: O(*p* · *n* · *w* log *w*) for *p* passes, *n* intervals and the 91-beat window.
package struct KubiosCorrection: Sendable, Equatable {
  /// The corrected intervals, in milliseconds.
  package var rr: [Double]
  /// The artefacts each pass mended, the first being those of the series as read; a pass that
  /// found none is the last.
  package var passes: [KubiosArtefacts]
  /// Beats taken out, put back or moved, over all passes.
  package var correctedBeats: Int

  /// The correction of an RR series, intervals in milliseconds, in order; values that are not
  /// finite are left out first.
  package init(rr raw: [Double]) {
    let finite = raw.filter(\.isFinite)
    var elapsed = 0.0
    var times = [elapsed]
    for interval in finite {
      elapsed += interval
      times.append(elapsed)
    }
    var last = KubiosArtefacts(beatTimes: times)
    passes = [last]
    correctedBeats = 0
    guard last.count > 0 else {
      rr = finite
      return
    }
    correctedBeats += Self.mend(last, &times)
    while true {
      let found = KubiosArtefacts(beatTimes: times)
      guard found.count < last.count else { break }
      passes.append(found)
      correctedBeats += Self.mend(found, &times)
      last = found
    }
    rr = zip(times.dropFirst(), times).map { $0 - $1 }
  }

  /// Mends `artefacts` in the beat times: extra beats out first, then missed beats in (the
  /// other flags' indices following each change), then ectopic and then long/short beats
  /// moved; returns how many beats changed.
  static func mend(_ artefacts: KubiosArtefacts, _ times: inout [Double]) -> Int {
    var missed = artefacts.missed
    var ectopic = artefacts.ectopic
    var longShort = artefacts.longShort
    var changed = 0
    if !artefacts.extra.isEmpty {
      let extra = Set(artefacts.extra)
      times = times.indices.filter { !extra.contains($0) }.map { times[$0] }
      changed += extra.count
      missed = shifted(missed, past: artefacts.extra, by: -1)
      ectopic = shifted(ectopic, past: artefacts.extra, by: -1)
      longShort = shifted(longShort, past: artefacts.extra, by: -1)
    }
    if !missed.isEmpty {
      let restored = Set(missed.filter { $0 > 1 && $0 < times.count })
      var mended: [Double] = []
      for k in times.indices {
        if restored.contains(k) { mended.append(times[k - 1] + (times[k] - times[k - 1]) / 2) }
        mended.append(times[k])
      }
      times = mended
      changed += restored.count
      ectopic = shifted(ectopic, past: missed, by: 1)
      longShort = shifted(longShort, past: missed, by: 1)
    }
    changed += moveToMidpoints(ectopic, &times)
    changed += moveToMidpoints(longShort, &times)
    return changed
  }

  /// Moves each beat to the middle of its neighbours, all computed from the times as they were
  /// before any moved; returns how many moved.
  static func moveToMidpoints(_ beats: [Int], _ times: inout [Double]) -> Int {
    let movable = beats.filter { $0 > 1 && $0 < times.count - 1 }
    let midpoints = movable.map { times[$0 - 1] + (times[$0 + 1] - times[$0 - 1]) / 2 }
    for (beat, midpoint) in zip(movable, midpoints) { times[beat] = midpoint }
    // Two adjacent beats moved at once can cross; the times stay in order, as NeuroKit2's sort
    // keeps them.
    if !movable.isEmpty { times.sort() }
    return movable.count
  }

  /// The beat indices after beats were taken out (`step` −1) or put in (+1) at `sources`, each
  /// index moved once for every source before it, then sorted without repeats.
  static func shifted(_ beats: [Int], past sources: [Int], by step: Int) -> [Int] {
    guard !beats.isEmpty else { return beats }
    var result = beats
    for source in sources { result = result.map { $0 > source ? $0 + step : $0 } }
    return Array(Set(result)).sorted()
  }
}
