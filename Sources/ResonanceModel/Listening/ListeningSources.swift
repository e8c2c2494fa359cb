/// The sources that reported one play, as a bit set: a play and each entry of the writer's
/// month of plays in memory carry one, where a `Set` would be a heap allocation each.
///
/// One bit per `ListeningSource` case, in declaration order; the store writes the set as its
/// sources' names, sorted and comma-separated (`apple-music,decision-log`), so the bits never
/// reach a file.
package struct ListeningSources: OptionSet, Hashable, Sendable {
  /// One bit per source, in `ListeningSource.allCases` order.
  package let rawValue: UInt8

  /// The set whose bits are `rawValue`.
  package init(rawValue: UInt8) { self.rawValue = rawValue }

  /// The set of one source.
  package init(_ source: ListeningSource) {
    let position = Self.order.firstIndex(of: source) ?? 0
    precondition(position < UInt8.bitWidth, "more listening sources than bits in the set")
    rawValue = 1 << UInt8(position)
  }

  /// `ListeningSource.allCases`, made once: the synthesised property makes a new array each
  /// time, and a set is made for every play.
  private static let order = ListeningSource.allCases

  /// The sources a stored `sources` column names (`apple-music,last-fm`); a name this build
  /// does not know is left out.
  package init(names: String) {
    var set = ListeningSources()
    for name in names.split(separator: ",") {
      if let source = ListeningSource(rawValue: String(name)) { set.insert(Self(source)) }
    }
    self = set
  }

  /// Whether `source` is in the set.
  package func contains(_ source: ListeningSource) -> Bool { contains(Self(source)) }

  /// The sources, in the order `ListeningSource` declares them.
  package var members: [ListeningSource] { Self.order.filter { contains($0) } }

  /// The names, sorted and comma-separated, as the store's `sources` column holds them.
  package var names: String { members.map(\.rawValue).sorted().joined(separator: ",") }
}
