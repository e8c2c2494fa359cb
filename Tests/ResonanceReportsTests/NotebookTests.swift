import ResonanceModel
import Testing

@testable import ResonanceReports

@Suite("notebooks: parsing and rendering")
struct NotebookTests {
  static let text = """
    # A notebook

    Prose with `inline` code.

    ```resonance
    resonance status
    ```

    ```sh
    echo this block is prose
    ```

    ````markdown
    ```sql
    SELECT 'inside another fence: not run'
    ```
    ````

    ```sql
    SELECT 1
    ```

    <!-- output -->
    | 1 |
    |---|
    | 1 |
    <!-- /output -->
    Closing prose.

    """

  @Test("only resonance and sql blocks are found, with their lines and the outputs they hold")
  func parse() {
    let notebook = Notebook(parsing: Self.text)
    #expect(notebook.blocks.map(\.kind) == [.resonance, .sql])
    #expect(notebook.blocks.map(\.line) == [5, 19])
    #expect(notebook.blocks[0].code == "resonance status")
    #expect(notebook.blocks[0].output == nil)
    #expect(notebook.blocks[1].output == "| 1 |\n|---|\n| 1 |")
  }

  @Test(
    "rendering with the outputs a file holds gives the file back; new outputs change only the output sections"
  )
  func render() {
    let notebook = Notebook(parsing: Self.text)
    #expect(notebook.rendered(outputs: []) == Self.text)
    let once = notebook.rendered(outputs: ["```text\nok\n```", "(no rows)"])
    #expect(
      once.contains(
        "```resonance\nresonance status\n```\n\n<!-- output -->\n```text\nok\n```\n<!-- /output -->\n\n```sh"
      ))
    #expect(once.contains("<!-- output -->\n(no rows)\n<!-- /output -->\nClosing prose.\n"))
    #expect(!once.contains("| 1 |"))
    // A second run with the same outputs changes nothing.
    let again = Notebook(parsing: once)
    #expect(again.rendered(outputs: ["```text\nok\n```", "(no rows)"]) == once)
    #expect(again.blocks.map(\.output) == ["```text\nok\n```", "(no rows)"])
    // Everything outside the output sections is untouched.
    #expect(Self.outside(once) == Self.outside(Self.text))
  }

  /// The lines outside output sections, blank ones left out.
  static func outside(_ text: String) -> [Substring] {
    var inside = false
    return text.split(separator: "\n").filter { line in
      if line == Notebook.openMarker { inside = true }
      defer { if line == Notebook.closeMarker { inside = false } }
      return !inside && line != Notebook.closeMarker
    }
  }

  @Test("a block without its closing fence is prose, and runs nothing")
  func unterminated() {
    let text = "intro\n```sql\nSELECT 1\n"
    let notebook = Notebook(parsing: text)
    #expect(notebook.blocks.isEmpty)
    #expect(notebook.rendered(outputs: []) == text)
  }

  @Test(
    "query tables: numbers right-aligned, reals to four decimals, NULL as a dash, and the rows beyond the limit counted"
  )
  func table() {
    let table = QueryTable(
      columns: ["name", "n", "x"],
      rows: [[.text("a|b"), .integer(3), .real(0.123456)], [.text("c"), .null, .real(2)]],
      more: 7)
    let text = NotebookOutput.table(table)
    #expect(
      text.hasPrefix("| name | n | x |\n|---|---:|---:|\n| a\\|b | 3 | 0.1235 |\n| c | – | 2 |"))
    #expect(text.hasSuffix("… and 7 more rows (a `LIMIT` chooses which)"))
    #expect(NotebookOutput.cell(.real(0.00001234)) == "1.23e-5")
    #expect(NotebookOutput.table(QueryTable(columns: ["a"], rows: [])).hasSuffix("(no rows)"))
  }

  @Test("the check's diff shows the changed lines with their context")
  func diff() {
    let diff = NotebookOutput.diff("a\nb\nc\nd\ne\nf\ng", "a\nb\nc\nD\ne\nf\ng", name: "n.md")
    #expect(diff == "--- n.md\n+++ n.md (re-run)\n  b\n  c\n- d\n+ D\n  e\n  f\n")
  }
}
