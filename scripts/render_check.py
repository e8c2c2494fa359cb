#!/usr/bin/env python3
"""make render-check: every page of a report folder as a person sees it.

Each Markdown page is turned into HTML by cmark-gfm (GitHub's own Markdown renderer, with its
table extension), wrapped in a page whose colours follow the reader's light or dark scheme as
GitHub's do, and checked:
  - every link and image names a file that exists in the folder (or is an absolute URL);
  - every SVG parses as XML, draws its own background first, and has at least one
    path/rect/circle/line/polygon inside its one <g class="plot"> group;
  - every table row has as many cells as its header, in the HTML and in the Markdown source
    (GitHub's renderer drops a row's extra cells silently, so an unescaped | in a cell would
    lose data without the source check).
Then headless Chromium screenshots each page in a light and in a dark colour scheme into
SCREENSHOTS (not committed).

The HTML pages `resonance report --html` wrote (`*.html` beside the Markdown) are checked as
they are: every link names a file in the folder, every table row has its header's cells, every
inline <svg> parses as XML, nothing is fetched (no src= at all, no <link>, no <script>) and the
page names a Content-Security-Policy; each is screenshot light and dark too. A Markdown page
without its HTML twin fails when the folder has any HTML page. Exit 1 when a check fails.
Standard library only.

usage: render_check.py REPORT_DIR SCREENSHOTS_DIR
"""
import html
import html.parser
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"

PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{title}</title>
<style>
  :root {{ color-scheme: light dark; }}
  body {{ font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 1012px;
         margin: 24px auto; padding: 0 16px; line-height: 1.5; background: #ffffff; color: #1f2328; }}
  table {{ border-collapse: collapse; }} th, td {{ border: 1px solid #d1d9e0; padding: 4px 10px; }}
  img {{ max-width: 100%; }} code {{ background: #eff1f3; padding: 1px 4px; border-radius: 4px; }}
  a {{ color: #0969da; }}
  @media (prefers-color-scheme: dark) {{
    body {{ background: #0d1117; color: #f0f6fc; }} th, td {{ border-color: #3d444d; }}
    code {{ background: #2f353d; }} a {{ color: #4493f8; }}
  }}
</style></head><body>
{body}
</body></html>
"""


class PageParser(html.parser.HTMLParser):
    """Links, images and each table's rows with their cell counts."""

    def __init__(self):
        super().__init__()
        self.targets = []
        self.tables = []
        self.row = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and "href" in attrs:
            self.targets.append(("link", attrs["href"]))
        elif tag == "img" and "src" in attrs:
            self.targets.append(("image", attrs["src"]))
        elif tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.row = 0
        elif tag in ("td", "th") and self.row is not None:
            self.row += 1

    def handle_endtag(self, tag):
        if tag == "tr" and self.row is not None and self.tables:
            self.tables[-1].append(self.row)
            self.row = None


def markdown_rows(text):
    """Per pipe table in Markdown text: each row's cell count (unescaped | outside code)."""
    tables, current, fence = [], [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fence = not fence
        if not fence and line.startswith("|"):
            cells, escaped, code = 0, False, False
            for c in line.strip()[1:]:
                if escaped:
                    escaped = False
                elif c == "\\":
                    escaped = True
                elif c == "`":
                    code = not code
                elif c == "|" and not code:
                    cells += 1
            current.append(cells)
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables


def local(target):
    """Whether a link or image names a file of the folder (not a URL, an anchor or a mail)."""
    return not ("://" in target or target.startswith("#") or target.startswith("mailto:"))


def row_problems(name, tables, what="table"):
    """Each row of each table (cell counts, header first) whose count differs from its header's."""
    return [f"{name}: {what} {t}, row {r}: {cells} cells, the header has {table[0]}"
            for t, table in enumerate(tables, 1)
            for r, cells in enumerate(table[1:], 2) if cells != table[0]]


def check_svg(path):
    problems = []
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as error:
        return [f"{path}: not XML: {error}"]
    if root.tag != SVG + "svg":
        problems.append(f"{path}: the root is not <svg>")
    first = [child for child in root if child.tag != SVG + "title"]
    if not first or first[0].tag != SVG + "rect" or first[0].get("fill") in (None, "none"):
        problems.append(f"{path}: draws no background of its own")
    plots = [g for g in root.iter(SVG + "g") if g.get("class") == "plot"]
    marks = [m for g in plots for m in g.iter()
             if m.tag[len(SVG):] in ("path", "rect", "circle", "line", "polygon")]
    if len(plots) != 1:
        problems.append(f"{path}: {len(plots)} <g class=\"plot\"> groups, expected one")
    elif not marks:
        problems.append(f"{path}: no path, rect, circle or line inside <g class=\"plot\">")
    return problems


def screenshot(chromium, page, name, stem):
    """Screenshots `page` light and dark into STEM-light.png and STEM-dark.png."""
    problems = []
    for scheme, flags in (("light", []), ("dark", ["--force-dark-mode"])):
        out = f"{stem}-{scheme}.png"
        result = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--window-size=1100,1600", f"--screenshot={out}", *flags,
             "file://" + os.path.abspath(page)],
            capture_output=True, text=True, timeout=120)
        if result.returncode != 0 or not os.path.exists(out):
            problems.append(f"{name}: chromium could not screenshot it ({scheme}): {result.stderr.strip()[-200:]}")
    return problems


def main():
    folder, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    pages = sorted(name for name in os.listdir(folder) if name.endswith(".md") and name != "README.md")
    problems = []
    svgs = sorted(name for name in os.listdir(folder) if name.endswith(".svg"))
    for name in svgs:
        problems += check_svg(os.path.join(folder, name))
    chromium = next((c for c in ("chromium", "chromium-browser", "google-chrome")
                     if subprocess.run(["which", c], capture_output=True).returncode == 0), None)
    if chromium is None:
        problems.append("no chromium on the PATH (Debian: apt-get install chromium)")
    rows_checked = 0
    for name in pages:
        path = os.path.join(folder, name)
        body = subprocess.run(["cmark-gfm", "--extension", "table", "--extension", "autolink", path],
                              capture_output=True, text=True, check=True).stdout
        parser = PageParser()
        parser.feed(body)
        for kind, target in parser.targets:
            if local(target) and not os.path.exists(os.path.join(folder, target.split("#")[0])):
                problems.append(f"{name}: broken {kind} {target}")
        rows_checked += sum(len(table) for table in parser.tables)
        problems += row_problems(name, parser.tables)
        with open(path, encoding="utf-8") as f:
            problems += row_problems(name, markdown_rows(f.read()), "Markdown table")
        # Beside the page, so that its relative images resolve; a name no report file has.
        page = os.path.join(folder, ".render-check-" + name[:-3] + ".html")
        with open(page, "w", encoding="utf-8") as f:
            f.write(PAGE.format(title=html.escape(name), body=body))
        if chromium:
            problems += screenshot(chromium, page, name, os.path.join(shots, name[:-3]))
        os.remove(page)
    written = sorted(name for name in os.listdir(folder)
                     if name.endswith(".html") and not name.startswith("."))
    if written:
        for name in pages:
            if name[:-3] + ".html" not in written:
                problems.append(f"{name}: no HTML twin beside it")
    for name in written:
        path = os.path.join(folder, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        parser = PageParser()
        parser.feed(text)
        for kind, target in parser.targets:
            if kind == "image":
                problems.append(f"{name}: fetches an image ({target}); charts must be inline")
            elif local(target) and not os.path.exists(os.path.join(folder, target.split("#")[0])):
                problems.append(f"{name}: broken link {target}")
        rows_checked += sum(len(table) for table in parser.tables)
        problems += row_problems(name, parser.tables)
        for forbidden in ("<script", "<link", " src="):
            if forbidden in text:
                problems.append(f"{name}: holds {forbidden.strip()}: a page must fetch nothing")
        if "Content-Security-Policy" not in text:
            problems.append(f"{name}: no Content-Security-Policy")
        start = 0
        while (start := text.find("<svg", start)) >= 0:
            end = text.find("</svg>", start)
            try:
                ET.fromstring(text[start:end + 6])
            except ET.ParseError as error:
                problems.append(f"{name}: an inline chart is not XML: {error}")
            start = end
        if chromium:
            problems += screenshot(chromium, path, name, os.path.join(shots, name[:-5] + "-html"))
    print(f"render-check: {len(pages)} pages, {len(written)} HTML pages, {len(svgs)} charts, "
          f"{rows_checked} table rows checked; screenshots in {shots}/ (light and dark)")
    for problem in problems:
        print("render-check: " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
