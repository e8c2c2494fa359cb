import ResonanceModel

/// RR intervals from the sources resonance reads, and the artefact rule applied to them.
package enum RRSeries {
  /// How ectopic and missed beats are handled (a Model type: commands choose it).
  package typealias ArtefactHandling = RRArtefactHandling

  /// The physiological range kept by `malik`, in ms (200–30 BPM).
  package static let plausibleRange = 300.0...2000.0
  /// The relative jump `malik` treats as an artefact.
  package static let malikThreshold = 0.2

  /// RR intervals from a Health beat list: differences of consecutive beat times (10 ms
  /// resolution), or 60000 / bpm for a beat whose time does not advance.
  package static func intervals(from beats: [HealthBeat]) -> [Double] {
    guard beats.count >= 2 else { return [] }
    var rr: [Double] = []
    for (previous, beat) in zip(beats, beats.dropFirst()) {
      let gap = Double(beat.timeMs - previous.timeMs)
      if gap > 0 {
        rr.append(gap)
      } else if beat.bpm > 0 {
        rr.append(60_000 / beat.bpm)
      }
    }
    return rr
  }

  /// `rr` after the artefact handling; how many intervals it removed (Malik's rule) and how
  /// many beats it corrected (the Kubios method).
  package static func cleaned(_ rr: [Double], _ handling: ArtefactHandling) -> (
    rr: [Double], removed: Int, corrected: Int
  ) {
    switch handling {
    case .off:
      return (rr, 0, 0)
    case .kubios:
      let correction = KubiosCorrection(rr: rr)
      return (correction.rr, 0, correction.correctedBeats)
    case .malik:
      let plausible = rr.filter { plausibleRange.contains($0) }
      guard let overall = Statistics.median(plausible) else { return ([], rr.count, 0) }
      var kept: [Double] = []
      for interval in plausible {
        let reference =
          kept.count >= 5 ? Statistics.median(Array(kept.suffix(5))) ?? overall : overall
        if abs(interval - reference) > malikThreshold * reference { continue }
        kept.append(interval)
      }
      return (kept, rr.count - kept.count, 0)
    }
  }
}

extension HRVSeries {
  /// The HRV of one RR series (ms, in order): artefacts handled as `handling` says, then the
  /// time-domain, Poincaré and frequency metrics of what is kept; and, whatever `handling`,
  /// the intervals of the series as read that the Kubios method flags.
  package init(
    rr raw: [Double], handling: RRSeries.ArtefactHandling, file: String?, start: Timestamp?
  ) {
    let (rr, removed, corrected) = RRSeries.cleaned(raw, handling)
    self.init(
      file: file, start: start, intervals: raw.count, removed: removed, corrected: corrected,
      suspectedArtefacts: KubiosArtefacts(rr: raw).intervals, metrics: HRVMetrics(rr: rr),
      frequency: HRVFrequency(rr: rr))
  }
}
