internal import CCmark

/// Markdown to HTML through libcmark-gfm, GitHub's own renderer: CommonMark with GitHub's
/// tables, autolinks and strikethrough, as github.com shows a `.md` file. Raw HTML in the
/// source is never passed through (cmark's safe default leaves it out); the reports' Markdown
/// escapes what could read as a tag (`Markdown.escape`), so a title that holds markup reaches
/// the page as text.
package enum MarkdownHTML {
  /// The GitHub extensions cmark-gfm registers once per process.
  private static let registered: Bool = {
    cmark_gfm_core_extensions_ensure_registered()
    return true
  }()

  /// The extensions a page is rendered with. `tagfilter` is GitHub's: should raw HTML ever be
  /// let through, it still disarms `<script>`, `<iframe>`, `<style>` and the other tags GFM
  /// lists; cmark's safe default (no `CMARK_OPT_UNSAFE`) already drops raw HTML and blanks
  /// `javascript:`, `vbscript:`, `file:` and `data:` link targets.
  static let extensions = ["table", "autolink", "strikethrough", "tagfilter"]

  /// The HTML body of `markdown` (no `<html>` or `<head>`: the caller wraps it).
  package static func render(_ markdown: String) -> String {
    precondition(registered)
    let options = CMARK_OPT_DEFAULT
    guard let parser = cmark_parser_new(options) else {
      preconditionFailure("cmark-gfm could not allocate a parser")
    }
    defer { cmark_parser_free(parser) }
    for name in extensions {
      guard let extensionHandle = cmark_find_syntax_extension(name) else {
        preconditionFailure("cmark-gfm has no '\(name)' extension")
      }
      cmark_parser_attach_syntax_extension(parser, extensionHandle)
    }
    var text = markdown
    text.withUTF8 { bytes in
      bytes.withMemoryRebound(to: CChar.self) { chars in
        if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
      }
    }
    guard let document = cmark_parser_finish(parser) else {
      preconditionFailure("cmark-gfm could not finish a document")
    }
    defer { cmark_node_free(document) }
    guard
      let html = cmark_render_html(
        document, options, cmark_parser_get_syntax_extensions(parser))
    else { preconditionFailure("cmark-gfm could not render a document") }
    defer { cmark_get_default_mem_allocator().pointee.free?(html) }
    return String(cString: html)
  }
}
