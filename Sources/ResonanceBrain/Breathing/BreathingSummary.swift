import ResonanceModel

/// Breathing sessions compared: by pacer pattern and by the local month they started in.
package enum BreathingSummary {
  /// One session's figures from its recording (`BreathingAnalysis`), with its identity.
  package static func analyse(_ recording: BreathingRecording, file: String)
    -> BreathingSessionResult
  {
    BreathingSessionResult(
      file: file, session: recording.session, pattern: recording.pattern,
      started: recording.started, result: BreathingAnalysis(recording).result)
  }

  /// Per pattern, in name order: sessions, and the means of score, rate and phase locking.
  package static func byPattern(_ sessions: [BreathingSessionResult]) -> [BreathingGroup] {
    Set(sessions.map(\.pattern)).sorted().map { pattern in
      group(pattern, sessions.filter { $0.pattern == pattern }.map(\.result))
    }
  }

  /// Per local month of the sessions' starts (sessions without a start are left out), in
  /// order: sessions, mean score, mean phase locking (and rate).
  package static func byMonth(_ sessions: [BreathingSessionResult]) -> [BreathingGroup] {
    var months: [String: [BreathingResult]] = [:]
    for session in sessions {
      guard let started = session.started else { continue }
      let month = String(CalendarDay(started).description.prefix(7))
      months[month, default: []].append(session.result)
    }
    return months.keys.sorted().map { group($0, months[$0] ?? []) }
  }

  /// `results` as one group named `name`: how many, and the means of what they have.
  package static func group(_ name: String, _ results: [BreathingResult]) -> BreathingGroup {
    BreathingGroup(
      name: name, sessions: results.count,
      meanScore: Statistics.mean(results.map(\.resonanceScore)),
      meanBreathsPerMinute: Statistics.mean(results.map(\.breathsPerMinute)),
      meanPhaseLocking: Statistics.mean(results.map(\.phaseLocking)))
  }
}
