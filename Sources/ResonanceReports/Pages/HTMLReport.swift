import ResonanceIO
import ResonanceModel

/// The report as HTML a person can open in any browser: each Markdown page rendered by
/// cmark-gfm (`MarkdownHTML`) and wrapped in a self-contained page — its charts' SVG inline,
/// its styles in the page, light or dark as the reader's system is, no script and nothing
/// fetched (a Content-Security-Policy forbids every other source). Links to other pages point
/// at their `.html` twins; links to CSVs stay as they are, files beside the page.
package enum HTMLReport {
  /// The HTML twin of every Markdown page among `files` (`songs.md` → `songs.html`), in order.
  /// An image whose file is among `files` and ends in `.svg` is drawn inline.
  package static func pages(_ files: [ReportFile]) -> [ReportFile] {
    let byName = Dictionary(files.map { ($0.name, $0.text) }, uniquingKeysWith: { a, _ in a })
    let pageNames = Set(files.map(\.name).filter { $0.hasSuffix(".md") })
    return files.filter { $0.name.hasSuffix(".md") }.map { file in
      var body = MarkdownHTML.render(file.text)
      body = inlineCharts(body, charts: byName)
      body = linkPages(body, pages: pageNames)
      return ReportFile(
        name: String(file.name.dropLast(3)) + ".html",
        text: page(title: title(of: file.text) ?? file.name, body: body))
    }
  }

  /// The page's first `# ` heading, as the browser's title.
  static func title(of markdown: String) -> String? {
    markdown.split(separator: "\n").first { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) }
  }

  /// Every `<img src="NAME.svg" alt="…" />` cmark-gfm wrote, for a chart among `charts`,
  /// replaced by the chart itself in a `<figure>` whose label is the image's alt text.
  static func inlineCharts(_ html: String, charts: [String: String]) -> String {
    var out = ""
    var rest = Substring(html)
    while let start = rest.range(of: "<img src=\"") {
      guard let end = rest[start.upperBound...].range(of: "/>") else { break }
      let tag = rest[start.lowerBound..<end.upperBound]
      let src = tag.dropFirst(10).prefix { $0 != "\"" }
      out += rest[..<start.lowerBound]
      if src.hasSuffix(".svg"), let svg = charts[String(src)] {
        let alt = attribute("alt", in: tag) ?? ""
        out += "<figure class=\"chart\" aria-label=\"\(alt)\">" + svg + "</figure>"
      } else {
        out += tag
      }
      rest = rest[end.upperBound...]
    }
    return out + rest
  }

  /// The value of `name="…"` in a tag, as cmark-gfm escaped it.
  private static func attribute(_ name: String, in tag: Substring) -> String? {
    guard let start = tag.range(of: " \(name)=\"") else { return nil }
    return String(tag[start.upperBound...].prefix { $0 != "\"" })
  }

  /// `href="NAME.md"` (and `NAME.md#…`) for a page among `pages` pointed at `NAME.html`.
  static func linkPages(_ html: String, pages: Set<String>) -> String {
    var out = html
    for page in pages.sorted() {
      let twin = String(page.dropLast(3)) + ".html"
      out = out.replacingAll("href=\"\(page)\"", with: "href=\"\(twin)\"")
        .replacingAll("href=\"\(page)#", with: "href=\"\(twin)#")
    }
    return out
  }

  /// The whole document around a rendered body.
  static func page(title: String, body: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
    <title>\(escaped(title))</title>
    <style>
    \(style)
    </style>
    </head>
    <body>
    <main>
    \(body)</main>
    </body>
    </html>

    """
  }

  /// GitHub's reading width and colours, light and dark; charts keep their own white ground.
  static let style = """
    :root { color-scheme: light dark; }
    body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; line-height: 1.5;
      margin: 0; background: #ffffff; color: #1f2328; }
    main { max-width: 1012px; margin: 24px auto; padding: 0 16px; }
    table { border-collapse: collapse; display: block; overflow-x: auto; margin: 0 0 16px; }
    th, td { border: 1px solid #d1d9e0; padding: 4px 10px; }
    th { background: #f6f8fa; }
    code { background: #eff1f3; padding: 1px 4px; border-radius: 4px; font-size: 90%; }
    pre { background: #f6f8fa; padding: 12px; overflow-x: auto; }
    a { color: #0969da; }
    figure.chart { margin: 16px 0; overflow-x: auto; }
    figure.chart svg { max-width: 100%; height: auto; border-radius: 6px; }
    @media (prefers-color-scheme: dark) {
      body { background: #0d1117; color: #f0f6fc; }
      th, td { border-color: #3d444d; }
      th { background: #151b23; }
      code, pre { background: #2f353d; }
      a { color: #4493f8; }
    }
    """

  /// By scalar: `&` or `<` followed by a combining mark is one `Character`, which a
  /// character-wise replacement would pass over.
  private static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

extension String {
  /// Every occurrence of `target` replaced (for the links the pages themselves write).
  fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
