/// One effect pooled over persons by the random-effects model (`RandomEffects` in the Brain):
/// the mean effect μ with its Hartung–Knapp interval, the spread of the persons' true effects
/// τ, the prediction interval for a new person, and the heterogeneity statistics.
package struct PooledEffect: Sendable, Equatable {
  package var persons: Int
  package var mu: Double
  package var se: Double
  package var lower: Double
  package var upper: Double
  package var tau2: Double
  /// Nil with fewer than three persons.
  package var predictionLower: Double?
  package var predictionUpper: Double?
  /// Cochran's Q and I², as a share.
  package var q: Double
  package var i2: Double
  package var level: Double

  package var tau: Double { tau2.squareRoot() }

  package init(
    persons: Int, mu: Double, se: Double, lower: Double, upper: Double, tau2: Double,
    predictionLower: Double?, predictionUpper: Double?, q: Double, i2: Double, level: Double
  ) {
    self.persons = persons
    self.mu = mu
    self.se = se
    self.lower = lower
    self.upper = upper
    self.tau2 = tau2
    self.predictionLower = predictionLower
    self.predictionUpper = predictionUpper
    self.q = q
    self.i2 = i2
    self.level = level
  }
}

/// What `resonance cohort pool` asks: the cohort folder of hand-offs and where the report goes.
package struct CohortPoolRequest: Sendable, Equatable {
  package var folder: String
  package var out: String
  package var level: Double

  package init(folder: String, out: String, level: Double = 0.95) {
    self.folder = folder
    self.out = out
    self.level = level
  }
}

/// One person's hand-off as `cohort pool` read it.
package struct CohortPerson: Sendable, Equatable {
  package var person: String
  package var effects: [PersonEffect]
  /// `tune`'s last recommendation, nil without a tuning run.
  package var tuneRecommendation: String?

  package init(person: String, effects: [PersonEffect], tuneRecommendation: String?) {
    self.person = person
    self.effects = effects
    self.tuneRecommendation = tuneRecommendation
  }
}

/// What `resonance cohort pool` found and wrote.
package struct CohortPoolResult: Sendable, Equatable {
  package struct Left: Sendable, Equatable {
    /// The folder's name (`person=p001`, or what else was there).
    package var folder: String
    package var reason: String

    package init(folder: String, reason: String) {
      self.folder = folder
      self.reason = reason
    }
  }

  package var out: String
  package var persons: [CohortPerson]
  /// Folders without a complete manifest: skipped, counted.
  package var incomplete: [Left]
  /// Hand-offs refused by name: another schema version, or files that are not the manifest's.
  package var refused: [Left]
  /// Each effect with two persons or more, in `PersonEffect.Name`'s order.
  package var pooled: [(name: PersonEffect.Name, effect: PooledEffect)]
  package var files: [String]

  package init(
    out: String, persons: [CohortPerson], incomplete: [Left], refused: [Left],
    pooled: [(name: PersonEffect.Name, effect: PooledEffect)], files: [String]
  ) {
    self.out = out
    self.persons = persons
    self.incomplete = incomplete
    self.refused = refused
    self.pooled = pooled
    self.files = files
  }

  package static func == (a: CohortPoolResult, b: CohortPoolResult) -> Bool {
    a.out == b.out && a.persons == b.persons && a.incomplete == b.incomplete
      && a.refused == b.refused && a.files == b.files
      && a.pooled.map(\.name) == b.pooled.map(\.name)
      && a.pooled.map(\.effect) == b.pooled.map(\.effect)
  }

  /// Persons with a tuning run, and of them those `tune` told to change.
  package var tuned: (persons: Int, change: Int) {
    let tuned = persons.compactMap(\.tuneRecommendation)
    return (tuned.count, tuned.filter { $0 == "change" }.count)
  }
}
