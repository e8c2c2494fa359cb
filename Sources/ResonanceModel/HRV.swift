/// Time-domain and Poincaré HRV metrics of an RR series, in milliseconds (pNN50 and pNN20
/// in percent, mean HR in beats per minute); a metric the series is too short for is `nil`.
/// The Brain's `HRVMetrics(rr:)` computes them with NeuroKit2's definitions (`docs/hrv.md`).
package struct HRVMetrics: Sendable, Equatable, Codable {
  /// Intervals the metrics are computed over.
  package var count: Int
  package var meanNN: Double?
  package var sdnn: Double?
  package var rmssd: Double?
  package var sdsd: Double?
  package var pnn50: Double?
  package var pnn20: Double?
  package var sd1: Double?
  package var sd2: Double?
  package var meanHR: Double?

  package init(
    count: Int, meanNN: Double? = nil, sdnn: Double? = nil, rmssd: Double? = nil,
    sdsd: Double? = nil, pnn50: Double? = nil, pnn20: Double? = nil, sd1: Double? = nil,
    sd2: Double? = nil, meanHR: Double? = nil
  ) {
    self.count = count
    self.meanNN = meanNN
    self.sdnn = sdnn
    self.rmssd = rmssd
    self.sdsd = sdsd
    self.pnn50 = pnn50
    self.pnn20 = pnn20
    self.sd1 = sd1
    self.sd2 = sd2
    self.meanHR = meanHR
  }
}

/// LF and HF power of an RR series, in ms², and their ratio; `reason` says why they are
/// missing when they are. The Brain's `HRVFrequency(rr:)` computes them (`docs/hrv.md`).
package struct HRVFrequency: Sendable, Equatable {
  package var lf: Double?
  package var hf: Double?
  /// LF / HF, `nil` when either is missing or HF is zero.
  package var lfhf: Double?
  /// Why the powers are missing, when they are.
  package var reason: String?

  package init(lf: Double?, hf: Double?, lfhf: Double?, reason: String?) {
    self.lf = lf
    self.hf = hf
    self.lfhf = lfhf
    self.reason = reason
  }
}

/// One RR series' HRV, as `resonance hrv` reports it: a file, or one of the Health export's
/// beat lists.
package struct HRVSeries: Sendable, Equatable {
  /// The file, or nil for a beat list from the store.
  package var file: String?
  /// When a beat list began; nil for a file.
  package var start: Timestamp?
  /// Intervals read, and how many the artefact rule removed (Malik's rule; 0 otherwise).
  package var intervals: Int
  package var removed: Int
  /// Beats the Kubios correction took out, put back or moved (0 unless it ran).
  package var corrected: Int
  /// The intervals of the series as read that look like artefacts by the Kubios method,
  /// 0-based, whatever the artefact handling: what `--artefacts off` reports, so that a user
  /// knows when a correction would matter.
  package var suspectedArtefacts: [Int]
  package var metrics: HRVMetrics
  package var frequency: HRVFrequency

  package init(
    file: String?, start: Timestamp?, intervals: Int, removed: Int, corrected: Int = 0,
    suspectedArtefacts: [Int] = [], metrics: HRVMetrics, frequency: HRVFrequency
  ) {
    self.file = file
    self.start = start
    self.intervals = intervals
    self.removed = removed
    self.corrected = corrected
    self.suspectedArtefacts = suspectedArtefacts
    self.metrics = metrics
    self.frequency = frequency
  }
}

/// One of the Health export's beat-to-beat lists (an HRV record's `InstantaneousBeatsPerMinute`
/// entries), with its record's start.
package struct BeatList: Sendable, Equatable {
  package var start: Timestamp
  package var beats: [HealthBeat]

  package init(start: Timestamp, beats: [HealthBeat]) {
    self.start = start
    self.beats = beats
  }
}

/// How ectopic and missed beats are handled.
package enum RRArtefactHandling: String, Sendable, CaseIterable {
  /// The raw series, as NeuroKit2, Kubios and pyHRV take it unless asked to correct it:
  /// `resonance hrv`'s default.
  case off
  /// The Kubios method (Lipponen & Tarvainen 2019), as NeuroKit2 corrects peaks with it:
  /// artefacts are classified beat by beat and mended in place — an extra beat taken out, a
  /// missed one put back, an ectopic or outlying one moved midway between its neighbours
  /// (`KubiosCorrection`).
  case kubios
  /// Malik's rule: an interval differing by more than 20% from the reference — the median of
  /// the last five accepted intervals, or of the whole series before five are accepted — is
  /// dropped (an ectopic beat or a missed one), as are intervals outside 300–2000 ms. What
  /// the analysis stage applies to Apple's one-minute beat lists (docs/hrv.md).
  case malik
}
