import ResonanceModel

/// `songs.md`: what each song does to heart rate and HRV, which songs calm or energise in each
/// context, and the tempo, energy and valence the tool works with.
package enum SongsPage {
  /// Songs in each forest plot: the most played, then the most certain of the others.
  static let plottedByPlays = 12
  static let plottedByCertainty = 8

  package static func make(
    songs: [SongRecord], estimates: [SongEffectEstimate], features: [SongFeatureEstimate],
    rankings: [(context: ActivityContext, calming: [RankedSong], energising: [RankedSong])],
    effects: [SongEffect], contextEstimates: [SongContextEffectEstimate] = [],
    coverage: [EffectValidation] = [], range: ReportRange
  ) -> ReportPage {
    let byID = Dictionary(uniqueKeysWithValues: songs.map { ($0.id, $0) })
    let hr = Dictionary(
      estimates.filter { $0.signal == .heartRate }.map { ($0.songID, $0) },
      uniquingKeysWith: { a, _ in a })
    let hrv = Dictionary(
      estimates.filter { $0.signal == .hrv }.map { ($0.songID, $0) },
      uniquingKeysWith: { a, _ in a })
    let featureByID = Dictionary(
      features.map { ($0.songID, $0) }, uniquingKeysWith: { a, _ in a })
    var files: [ReportFile] = []
    var text = "# Songs: what each one does to your heart\n\n"
    text += "Song estimates use the whole history, whatever range the report covers "
    text += "(this report covers \(range.text)); a song's effect needs every play of it to be told "
    text += "apart from the moment it was played in.\n\n"

    let headline: String
    if hr.isEmpty && hrv.isEmpty {
      text += "## Heart rate and HRV\n\n"
      text += "No song has an estimate yet: `resonance analyze` fits them from the heart-rate "
      text += "and HRV readings around the plays, and needs Watch data beside the listening "
      text += "history.\n\n"
      headline = "no song effects yet: analyze needs heart-rate readings beside the plays"
    } else {
      let calming = hr.values.filter { $0.high90 < 0 }.count
      let raising = hr.values.filter { $0.low90 > 0 }.count
      let strongest = hr.values.filter { $0.high90 < 0 }.min {
        ($0.estimate, $0.songID) < ($1.estimate, $1.songID)
      }
      headline =
        "\(calming) of \(hr.count) songs lower your heart rate with 90% confidence, "
        + "\(raising) raise it"
        + (strongest.map {
          "; the most calming: \(fullLabel(byID[$0.songID], id: $0.songID)) "
            + "(\(Figures.signed($0.estimate, 1)) bpm)"
        } ?? "")
      text += "## Heart rate and HRV\n\n"
      text += "Each song's effect is the change in heart rate (beats per minute) and SDNN "
      text += "(milliseconds) while it plays, against what the moment would have been without "
      text += "it, from the song-response model (`docs/brain.md`), with its 90% interval"
      text += coverageNote(coverage) + ". "
      text += "\(calming) of the \(hr.count) songs with a heart-rate estimate lower it with 90% "
      text += "confidence and \(raising) raise it; the rest cannot be told apart from no effect "
      text += "yet.\n\n"
      for (signal, label, unit, table) in [
        (Signal.heartRate, "heart rate", "bpm", hr), (Signal.hrv, "HRV (SDNN)", "ms", hrv),
      ] where !table.isEmpty {
        let name = signal == .heartRate ? "songs-hr.svg" : "songs-hrv.svg"
        let mostPlayed = Array(
          table.values.sorted { ($0.plays, -$0.songID) > ($1.plays, -$1.songID) }
            .prefix(plottedByPlays))
        let shown = Set(mostPlayed.map(\.songID))
        let mostCertain = Array(
          table.values.filter { !shown.contains($0.songID) }
            .sorted { ($0.sd, $0.songID) < ($1.sd, $1.songID) }.prefix(plottedByCertainty))
        var chart = SVGChart(
          title: "Effect on \(label) while a song plays",
          xLabel: "change (\(unit)) with its 90% interval", yLabel: "")
        chart.legend = [
          "the \(mostPlayed.count) most-played songs",
          "the \(mostCertain.count) most certain others",
        ]
        let rows = mostPlayed + mostCertain
        chart.yScale = .categories(rows.map { songLabel(byID[$0.songID], id: $0.songID) })
        chart.categoryTitles = rows.map { fullLabel(byID[$0.songID], id: $0.songID) }
        func whiskers(_ list: [SongEffectEstimate], from first: Int) -> [SVGChart.Interval] {
          list.enumerated().map {
            .init(
              Double(first + $0.offset), low: $0.element.low90, high: $0.element.high90,
              estimate: $0.element.estimate)
          }
        }
        chart.marks = [
          .reference(0, vertical: true), .whiskers(whiskers(mostPlayed, from: 0), series: 0),
          .whiskers(whiskers(mostCertain, from: mostPlayed.count), series: 1),
        ]
        chart.height = 80 + 22 * Double(rows.count)
        files.append(ReportFile(name: name, text: chart.svg()))
        text += "### \(label.prefix(1).uppercased() + label.dropFirst())\n\n"
        text += "![Effect on \(label) of the most-played and the most certain songs](\(name))\n\n"
        text += songLists(signal, table: Array(table.values), songs: byID, unit: unit)
      }
    }

    text += byContext(contextEstimates, songs: byID)
    text += "## What the DJ has learned, by context\n\n"
    if rankings.isEmpty {
      text += "The learning loop has no song with three or more plays in any context yet.\n\n"
    } else {
      text += "These are the DJ's own learned scores, not the model's effects above: the app's "
      text += "learning loop keeps a calm and an energy score (−1 … 1, `song_effects`) per song "
      text += "and context from quick before-and-after readings, not adjusted for the moment a "
      text += "song was played in (`docs/schema.md` says how they differ). Each context lists "
      text += "the songs with at least three plays there whose calm or energy score is above 0, "
      text += "each under the larger of the two. "
      text += agreement(effects: effects, heartRate: hr) + "\n\n"
      for ranking in rankings where !(ranking.calming.isEmpty && ranking.energising.isEmpty) {
        text += "### \(ranking.context.rawValue)\n\n"
        text += Markdown.table(
          header: [
            "highest calm score", "calm", "plays", "highest energy score", "energy", "plays",
          ],
          rows: (0..<max(ranking.calming.count, ranking.energising.count)).map { i in
            let c = i < ranking.calming.count ? ranking.calming[i] : nil
            let e = i < ranking.energising.count ? ranking.energising[i] : nil
            return [
              c.map { fullLabel($0.song, id: $0.song.id) } ?? "",
              c.map { Format.fixed($0.calm, 2) } ?? "",
              c.map { String($0.samples) } ?? "",
              e.map { fullLabel($0.song, id: $0.song.id) } ?? "",
              e.map { Format.fixed($0.energy, 2) } ?? "", e.map { String($0.samples) } ?? "",
            ]
          }, alignments: ["l", "r", "r", "l", "r", "r"])
        text += "\n"
      }
    }

    text += "## Tempo, energy and valence\n\n"
    if features.isEmpty {
      text += "No song has feature estimates yet (`resonance analyze` writes them).\n\n"
    } else {
      text += "Where each song's tempo comes from, and how uncertain the estimates are "
      text += "(the mean standard deviation over the songs of each source):\n\n"
      var rows: [[String]] = []
      for source in FeatureSource.allCases {
        let list = features.filter { $0.bpm.source == source }
        guard !list.isEmpty else { continue }
        func meanSD(_ key: (SongFeatureEstimate) -> Estimate) -> String {
          Format.fixed(list.map { key($0).sd }.reduce(0, +) / Double(list.count), 2)
        }
        rows.append([
          source.rawValue, String(list.count), meanSD(\.bpm), meanSD(\.energy), meanSD(\.valence),
        ])
      }
      text += Markdown.table(
        header: ["tempo source", "songs", "tempo SD (BPM)", "energy SD", "valence SD"],
        rows: rows, alignments: ["l", "r", "r", "r", "r"])
      text += "\n"
    }
    text += "Every song, with its plays, effects and features: [songs.csv](songs.csv); the "
    text += "learning loop's scores per context: [songs-by-context.csv](songs-by-context.csv).\n"

    var csv = CSVTable(header: [
      "song_id", "title", "artist", "genre", "plays", "skips", "hr_effect_bpm", "hr_low90_bpm",
      "hr_high90_bpm", "hr_plays", "hrv_effect_ms", "hrv_low90_ms", "hrv_high90_ms",
      "hrv_plays", "bpm", "bpm_sd", "bpm_source", "energy", "energy_sd", "energy_source",
      "valence", "valence_sd", "valence_source", "familiarity",
    ])
    for song in songs {
      let h = hr[song.id]
      let v = hrv[song.id]
      let f = featureByID[song.id]
      csv.append([
        .integer(Int(song.id)), .text(song.title), .text(song.artist), .text(song.genre),
        .integer(song.plays), .integer(song.skips), .value(h?.estimate), .value(h?.low90),
        .value(h?.high90), h.map { .integer($0.plays) } ?? .empty, .value(v?.estimate),
        .value(v?.low90), .value(v?.high90), v.map { .integer($0.plays) } ?? .empty,
        .value(f?.bpm.value), .value(f?.bpm.sd), f.map { .text($0.bpm.source.rawValue) } ?? .empty,
        .value(f?.energy.value), .value(f?.energy.sd),
        f.map { .text($0.energy.source.rawValue) } ?? .empty, .value(f?.valence.value),
        .value(f?.valence.sd), f.map { .text($0.valence.source.rawValue) } ?? .empty,
        .value(f?.familiarity),
      ])
    }
    var contexts = CSVTable(header: [
      "song_id", "title", "artist", "context", "calm_score", "energy_score", "focus_score",
      "mood_score", "plays_in_context",
    ])
    for effect in effects {
      let song = byID[effect.songID]
      contexts.append([
        .integer(Int(effect.songID)), .text(song?.title ?? ""), .text(song?.artist ?? ""),
        .text(effect.context.rawValue), .number(effect.effect.calm), .number(effect.effect.energy),
        .number(effect.effect.focus), .number(effect.effect.mood),
        .integer(effect.effect.sampleCount),
      ])
    }
    return ReportPage(
      name: "songs", title: "Songs", headline: headline,
      files: [ReportFile(name: "songs.md", text: text)] + files + [
        ReportFile(name: "songs.csv", text: csv.text),
        ReportFile(name: "songs-by-context.csv", text: contexts.text),
        ReportFile(
          name: "songs-effects-by-context.csv", text: byContextCSV(contextEstimates, songs: byID)),
      ])
  }

  /// The songs a signal's estimates single out, strongest first, at most `listed` a list.
  /// For heart rate: *calming* songs, whose 90% interval lies below 0, then the *likely
  /// calming*, whose interval reaches 0 but whose effect is below 0 with probability at least
  /// `likely` under the model's normal posterior; the same above 0 for *energising*. For HRV:
  /// the songs whose interval lies above 0 (raising HRV) and below it. No song is in two lists.
  static func songLists(
    _ signal: Signal, table: [SongEffectEstimate], songs: [Int64: SongRecord], unit: String
  ) -> String {
    var text = ""
    func list(_ title: String, _ rows: [SongEffectEstimate], chance: String?) {
      text += "\(title)\n\n"
      var header = ["song", "artist", "plays", "effect (\(unit)), 90% interval"]
      if let chance { header.append(chance) }
      text += Markdown.table(
        header: header,
        rows: rows.map { e in
          var row = [
            songs[e.songID]?.title ?? "song \(e.songID)", songs[e.songID]?.artist ?? "",
            String(e.plays), Figures.interval(e.estimate, e.low90, e.high90, 1),
          ]
          if chance != nil {
            row.append(
              Format.fixed(e.estimate < 0 ? e.probabilityBelowZero : 1 - e.probabilityBelowZero, 2))
          }
          return row
        }, alignments: chance == nil ? ["l", "l", "r", "r"] : ["l", "l", "r", "r", "r"])
      text += "\n"
    }
    let below = table.filter { $0.high90 < 0 }.sorted {
      ($0.estimate, $0.songID) < ($1.estimate, $1.songID)
    }
    let above = table.filter { $0.low90 > 0 }.sorted {
      ($0.estimate, -$0.songID) > ($1.estimate, -$1.songID)
    }
    guard signal == .heartRate else {
      if below.isEmpty && above.isEmpty {
        text += "No song's HRV interval lies on one side of 0 yet.\n\n"
        return text
      }
      if !above.isEmpty {
        list(
          "Songs that raise HRV (interval above 0), strongest first\(Self.atMost(above)):",
          Array(above.prefix(listed)), chance: nil)
      }
      if !below.isEmpty {
        list(
          "Songs that lower HRV (interval below 0), strongest first\(Self.atMost(below)):",
          Array(below.prefix(listed)), chance: nil)
      }
      return text
    }
    for (name, sure, direction) in [("calming", below, -1.0), ("energising", above, 1.0)] {
      text += "#### \(name.prefix(1).uppercased() + name.dropFirst()) songs\n\n"
      let verb = direction < 0 ? "lowers" : "raises"
      if sure.isEmpty {
        text += "No song's heart-rate interval lies \(direction < 0 ? "below" : "above") 0 yet.\n\n"
      } else {
        list(
          "A song is \(name) when its heart-rate interval lies \(direction < 0 ? "below" : "above") "
            + "0: it \(verb) your heart rate while it plays, with 90% confidence. Strongest "
            + "first\(Self.atMost(sure)):", Array(sure.prefix(listed)), chance: nil)
      }
      let sureIDs = Set(sure.map(\.songID))
      let likelyRows = table.filter {
        !sureIDs.contains($0.songID)
          && (direction < 0 ? $0.probabilityBelowZero : 1 - $0.probabilityBelowZero) >= likely
      }.sorted {
        direction < 0
          ? ($0.estimate, $0.songID) < ($1.estimate, $1.songID)
          : ($0.estimate, -$0.songID) > ($1.estimate, -$1.songID)
      }
      let chance = "chance it \(verb) it"
      if likelyRows.isEmpty {
        text += "No other song \(verb) your heart rate with a chance of "
        text += "\(Format.fixed(likely, 1)) or more under the model's posterior.\n\n"
      } else {
        list(
          "Likely \(name): the interval reaches 0, but the model's posterior gives the song a "
            + "chance of \(Format.fixed(likely, 1)) or more that it \(verb) your heart rate"
            + "\(Self.atMost(likelyRows)):", Array(likelyRows.prefix(listed)), chance: chance)
      }
    }
    return text
  }

  /// Songs in each list of `songLists`, and the posterior chance that makes a song likely.
  static let listed = 10
  static let likely = 0.8

  /// ", the 10 strongest of N" when a list is cut; nothing otherwise.
  private static func atMost(_ rows: [SongEffectEstimate]) -> String {
    rows.count > listed ? " (the \(listed) strongest of \(rows.count))" : ""
  }

  /// How often the learning loop's calm score points the way the model's heart-rate effect
  /// does: over the songs with five or more plays behind their scores (the scores of every
  /// context weighted by plays) whose heart-rate interval leaves out 0, the share whose calm
  /// score is above 0 exactly when the effect is below 0.
  static func agreement(effects: [SongEffect], heartRate: [Int64: SongEffectEstimate]) -> String {
    var sums: [Int64: (calm: Double, plays: Int)] = [:]
    for e in effects {
      sums[e.songID, default: (0, 0)].calm += e.effect.calm * Double(e.effect.sampleCount)
      sums[e.songID, default: (0, 0)].plays += e.effect.sampleCount
    }
    var both = 0
    var same = 0
    for (id, sum) in sums where sum.plays >= 5 {
      guard let h = heartRate[id], h.isDistinguishableFromZero else { continue }
      both += 1
      if (sum.calm > 0) == (h.estimate < 0) { same += 1 }
    }
    guard both > 0 else {
      return "No song has both five plays behind its scores and a heart-rate interval that "
        + "leaves out 0, so how far the two agree cannot be told yet."
    }
    return "Where the two can be compared (\(both) songs with five or more plays behind their "
      + "scores and a heart-rate interval that leaves out 0), the DJ's calm score has the sign "
      + "the model's effect implies for \(same) (\(Figures.percent(Double(same) / Double(both)))): "
      + "for what calms you, trust the model's effects above."
  }

  /// `Title — Artist` in full, for tables and a chart label's `<title>`.
  static func fullLabel(_ song: SongRecord?, id: Int64) -> String {
    guard let song else { return "song \(id)" }
    return song.artist.isEmpty ? song.title : song.title + " — " + song.artist
  }

  /// `Title — Artist`, short enough for a chart's row label.
  static func songLabel(_ song: SongRecord?, id: Int64) -> String {
    let label = fullLabel(song, id: id)
    return label.count > 30 ? String(label.prefix(29)) + "…" : label
  }

  /// What the 90% intervals covered: measured against the planted effects when the report
  /// has a simulated person's truth (` — on this simulated person they cover 88% of the planted
  /// heart-rate effects (191 songs) and 86% of the HRV ones (187)`), else where that was
  /// measured.
  static func coverageNote(_ coverage: [EffectValidation]) -> String {
    let parts = coverage.compactMap { e -> String? in
      guard let share = e.coverage else { return nil }
      let name = e.signal == .heartRate ? "heart-rate" : "HRV"
      return "\(Figures.percent(share)) of the planted \(name) effects (\(e.songs) songs)"
    }
    guard !parts.isEmpty else {
      return " (how often such intervals cover the truth is measured on simulated people in "
        + "`docs/validation.md`; a real person's cannot be checked)"
    }
    return " — on this simulated person they cover " + parts.joined(separator: " and ")
      + ", `validation.md`"
  }

  /// Songs listed per context and direction.
  static let listedPerContext = 5

  /// "Which songs calm me, in which context": per context, the songs whose heart-rate effect
  /// there lies below 0 at 90% (strongest first) and those whose effect lies above it, from
  /// the song-response model's per-context estimates.
  static func byContext(_ estimates: [SongContextEffectEstimate], songs: [Int64: SongRecord])
    -> String
  {
    var text = "## Which songs calm me, by context\n\n"
    let hr = estimates.filter { $0.signal == .heartRate }
    guard !hr.isEmpty else {
      text += "No song has three plays with a measured heart rate in any one context yet.\n\n"
      return text
    }
    text += "The same model, fitted with a column per song and context and each context's "
    text += "estimate pulled toward the song's overall effect by how much contexts differ beyond "
    text += "their noise (`docs/brain.md`, \"Per context\"): a song that calms at night may do "
    text += "little on a commute. Each context lists the songs with three plays or more there "
    text += "whose 90% interval lies below 0 (calming) or above 0 (energising), strongest first, "
    text += "at most \(listedPerContext) each; every pair of both signals is in "
    text += "[songs-effects-by-context.csv](songs-effects-by-context.csv).\n\n"
    for context in ActivityContext.allCases {
      let here = hr.filter { $0.context == context }
      guard !here.isEmpty else { continue }
      let calming = here.filter { $0.high90 < 0 }.sorted {
        ($0.estimate, $0.songID) < ($1.estimate, $1.songID)
      }
      let energising = here.filter { $0.low90 > 0 }.sorted {
        ($0.estimate, $0.songID) > ($1.estimate, $1.songID)
      }
      text += "### \(context.rawValue)\n\n"
      guard !calming.isEmpty || !energising.isEmpty else {
        text += "\(here.count) songs estimated here; none apart from 0 at 90%.\n\n"
        continue
      }
      text += "\(here.count) songs estimated here: \(calming.count) calming, "
      text += "\(energising.count) energising.\n\n"
      text += Markdown.table(
        header: [
          "song", "direction", "plays here", "effect here (bpm), 90% interval", "overall (bpm)",
        ],
        rows: (Array(calming.prefix(listedPerContext)) + Array(energising.prefix(listedPerContext)))
          .map { e in
            [
              fullLabel(songs[e.songID], id: e.songID), e.high90 < 0 ? "calming" : "energising",
              String(e.plays), Figures.interval(e.estimate, e.low90, e.high90, 1),
              Figures.signed(e.overall, 1),
            ]
          }, alignments: ["l", "l", "r", "r", "r"])
      text += "\n"
    }
    return text
  }

  /// `songs-by-context.csv`: every per-context estimate of both signals.
  static func byContextCSV(_ estimates: [SongContextEffectEstimate], songs: [Int64: SongRecord])
    -> String
  {
    var csv = CSVTable(header: [
      "song_id", "title", "artist", "signal", "context", "plays", "minutes", "unpooled",
      "overall", "estimate", "sd", "low90", "high90",
    ])
    for e in estimates {
      csv.append([
        .integer(Int(e.songID)), .text(songs[e.songID]?.title ?? ""),
        .text(songs[e.songID]?.artist ?? ""),
        .text(e.signal.rawValue), .text(e.context.rawValue), .integer(e.plays), .value(e.minutes),
        .value(e.unpooled), .value(e.overall), .value(e.estimate), .value(e.sd), .value(e.low90),
        .value(e.high90),
      ])
    }
    return csv.text
  }
}
