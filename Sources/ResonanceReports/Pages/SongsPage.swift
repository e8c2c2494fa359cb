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
    effects: [SongEffect], range: ReportRange
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
      headline =
        "\(calming) of \(hr.count) songs lower your heart rate with 90% confidence, "
        + "\(raising) raise it"
      text += "## Heart rate and HRV\n\n"
      text += "Each song's effect is the change in heart rate (beats per minute) and SDNN "
      text += "(milliseconds) while it plays, against what the moment would have been without "
      text += "it, from the song-response model (`docs/brain.md`), with its 90% interval. "
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
        let certain = table.values.filter(\.isDistinguishableFromZero)
          .sorted { ($0.sd, $0.songID) < ($1.sd, $1.songID) }.prefix(10)
        if certain.isEmpty {
          text += "No song's \(label) effect is told apart from zero yet.\n\n"
        } else {
          text += "The most certain \(label) effects (narrowest intervals that exclude zero):\n\n"
          text += Markdown.table(
            header: ["song", "artist", "plays", "effect (\(unit)), 90% interval"],
            rows: certain.map { e in
              [
                byID[e.songID]?.title ?? "song \(e.songID)", byID[e.songID]?.artist ?? "",
                String(e.plays), Figures.interval(e.estimate, e.low90, e.high90, 1),
              ]
            }, alignments: ["l", "l", "r", "r"])
          text += "\n"
        }
      }
    }

    text += "## The most calming and most energising, by context\n\n"
    if rankings.isEmpty {
      text += "The learning loop has no song with three or more plays in any context yet.\n\n"
    } else {
      text += "From the learning loop's per-context scores (−1 … 1, `song_effects`: how the "
      text += "app itself would rank them; `docs/schema.md` says how they differ from the "
      text += "estimates above), among songs with at least three plays in the context.\n\n"
      for ranking in rankings {
        text += "### \(ranking.context.rawValue)\n\n"
        text += Markdown.table(
          header: ["most calming", "calm", "plays", "most energising", "energy", "plays"],
          rows: (0..<max(ranking.calming.count, ranking.energising.count)).map { i in
            let c = i < ranking.calming.count ? ranking.calming[i] : nil
            let e = i < ranking.energising.count ? ranking.energising[i] : nil
            return [
              c.map { songLabel($0.song, id: $0.song.id) } ?? "",
              c.map { Format.fixed($0.calm, 2) } ?? "",
              c.map { String($0.samples) } ?? "",
              e.map { songLabel($0.song, id: $0.song.id) } ?? "",
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
      ])
  }

  /// `Title — Artist`, short enough for a chart's row label.
  static func songLabel(_ song: SongRecord?, id: Int64) -> String {
    guard let song else { return "song \(id)" }
    let label = song.artist.isEmpty ? song.title : song.title + " — " + song.artist
    return label.count > 30 ? String(label.prefix(29)) + "…" : label
  }
}
