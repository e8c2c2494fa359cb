/// The pages `resonance report` can write, in the index's order. The stages layer's registry
/// gives each its loader and writer; `--only` and the help list come from it.
package enum ReportPageName: String, Sendable, Equatable, Hashable, CaseIterable {
  case songs, sessions, sleep, hrv, breathing, tuning, experiment
  /// Only with a simulated person's truth (`--truth`).
  case validation
}

/// What `resonance report` asks: which pages, over which days, into which folder.
package struct ReportRequest: Sendable, Equatable {
  package var store: StoreLocation
  package var folder: String
  package var days: DayRange
  /// The pages to write (the index always), in any order; they are written in the index's.
  package var pages: [ReportPageName]
  /// A simulated person's truth.json, for the validation page.
  package var truthPath: String?
  /// The run that made the store, for the index (the demo's stages); nil for a plain report.
  package var pipeline: ReportPipeline?
  /// Whether every Markdown page also gets a self-contained HTML twin (`index.html` too).
  package var html: Bool

  package init(
    store: StoreLocation, folder: String = "Reports", days: DayRange = DayRange(),
    pages: [ReportPageName], truthPath: String? = nil, pipeline: ReportPipeline? = nil,
    html: Bool = false
  ) {
    self.html = html
    self.store = store
    self.folder = folder
    self.days = days
    self.pages = pages
    self.truthPath = truthPath
    self.pipeline = pipeline
  }
}

/// The run that made a store, as the index tells it: where the data came from, and a line per
/// stage.
package struct ReportPipeline: Sendable, Equatable {
  package var dataPath: String
  package var storePath: String
  /// The stages in the order they ran, each with its outcome in one sentence.
  package var stages: [StageOutcome]

  package init(dataPath: String, storePath: String, stages: [StageOutcome]) {
    self.dataPath = dataPath
    self.storePath = storePath
    self.stages = stages
  }
}

/// One stage of a run and what it came to, in a sentence.
package struct StageOutcome: Sendable, Equatable {
  package var stage: String
  package var outcome: String

  package init(stage: String, outcome: String) {
    self.stage = stage
    self.outcome = outcome
  }
}

/// What `resonance report` wrote: each page's name, title, one-line answer and files.
package struct ReportResult: Sendable, Equatable {
  package struct Page: Sendable, Equatable {
    package var name: String
    package var title: String
    package var headline: String
    /// The page's files, relative to the folder: the page first, then its CSVs and charts.
    package var files: [String]

    package init(name: String, title: String, headline: String, files: [String]) {
      self.name = name
      self.title = title
      self.headline = headline
      self.files = files
    }
  }

  package var folder: String
  package var days: DayRange
  package var pages: [Page]
  /// Every file written, the index and the metadata included.
  package var fileCount: Int

  package init(folder: String, days: DayRange, pages: [Page], fileCount: Int) {
    self.folder = folder
    self.days = days
    self.pages = pages
    self.fileCount = fileCount
  }
}
