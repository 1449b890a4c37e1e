"""The HTML reports as a real validator, a real browser and a careful reader see them.

Three kinds of checks on every HTML file in ``reports/`` (recursively):

- the Nu HTML Checker (``vnu.jar``, from npm's ``vnu-jar``; run with Java) finds no error, all files
  in one java invocation (it is slow to start);
- headless Chromium renders a report to a PNG that is not blank, and lays out every report at
  1280 and 390 px (a desktop, a phone), in the light and the dark scheme: nothing overflows the
  page outside a scroll container, no text is clipped (HTML boxes, and each SVG text inside its
  drawing), every loop diagram is there and visible against the page, row headers stay in view
  while a table scrolls sideways, and no date wraps inside itself;
- static accessibility checks with ``html.parser``: a language, a title, headings in order, tables
  with captions and scoped headers, focus, print and dark styles, and differing rows marked by more
  than colour.

The tools are found through ``LOOPCOMPARE_VNU_JAR`` (the path of ``vnu.jar``; else
``.tools/node_modules/vnu-jar/build/dist/vnu.jar``), ``java`` and
``chromium`` on the PATH (or ``LOOPCOMPARE_CHROMIUM``). Without them these tests skip, saying what
is missing; with ``LOOPCOMPARE_REQUIRE_BROWSER=1`` (set by ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import struct
import subprocess
import zlib
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from helpers import ROOT

REPORTS = ROOT / "reports"
PAGES = sorted(p for p in REPORTS.rglob("*.html") if ".obtained" not in p.name)
REQUIRE = os.environ.get("LOOPCOMPARE_REQUIRE_BROWSER", "") not in ("", "0")
MARK = "\u2260"  # ≠
VIEWPORT = (390, 1200)
# Where a developer's 'npm install --prefix .tools vnu-jar' puts the checker (.tools/ is ignored).
LOCAL_VNU = ROOT / ".tools" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


def _id(path: Path) -> str:
    return path.relative_to(REPORTS).as_posix()


def _missing(reason: str):
    """Skip, or fail where the tools are required (in CI)."""
    if REQUIRE:
        pytest.fail(f"{reason} (LOOPCOMPARE_REQUIRE_BROWSER is set)")
    pytest.skip(reason)


def test_the_gallery_has_html_reports():
    assert len(PAGES) >= 3, PAGES
    names = {_id(p) for p in PAGES}
    assert {"index.html", "atlas.html"} <= names
    assert any(n.startswith("timelines/") for n in names)


# --- the Nu HTML Checker ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def vnu():
    """``[java, -jar, vnu.jar]``."""
    jar = os.environ.get("LOOPCOMPARE_VNU_JAR")
    if not jar and LOCAL_VNU.is_file():
        jar = str(LOCAL_VNU)
    if not jar:
        _missing(
            "no vnu.jar: set LOOPCOMPARE_VNU_JAR, or 'npm install --ignore-scripts --prefix .tools vnu-jar' "
            f"for {LOCAL_VNU.relative_to(ROOT)}"
        )
    if not Path(jar).is_file():
        _missing(f"LOOPCOMPARE_VNU_JAR={jar} is not a file")
    java = shutil.which("java")
    if not java:
        _missing("java is not on the PATH (apt-get install default-jre-headless)")
    return [java, "-jar", jar]


def test_every_report_passes_the_nu_html_checker(vnu, tmp_path):
    # A broken page goes in the same invocation: the checker must name it, and it alone, which
    # shows that it really read and checked the files (an empty answer proves nothing by itself).
    broken = tmp_path / "broken.html"
    broken.write_text('<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><p><div></p></body></html>')
    result = subprocess.run(
        [*vnu, "--errors-only", "--format", "json", *map(str, PAGES), str(broken)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    # vnu writes its report to stderr; exit 1 means some errors.
    try:
        messages = json.loads(result.stderr)["messages"]
    except (ValueError, KeyError):
        pytest.fail(f"vnu exit {result.returncode}, no JSON report:\n{result.stdout}\n{result.stderr}")
    errors = [m for m in messages if m.get("type") in ("error", "non-document-error")]
    assert any(m.get("url", "").endswith("/broken.html") for m in errors), messages
    found = [
        f"{m.get('url', '?').split('/reports/')[-1]}:{m.get('lastLine', '?')}: {m.get('message')}"
        for m in errors
        if not m.get("url", "").endswith("/broken.html")
    ]
    assert not found, f"{len(found)} errors:\n" + "\n".join(found[:50])


# --- headless Chromium -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium():
    """Run headless Chromium with a fresh profile: ``chromium(tmp_path, *args) -> stdout``."""
    binary = os.environ.get("LOOPCOMPARE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not binary:
        _missing("chromium is not on the PATH (apt-get install chromium)")

    def run(tmp: Path, *args: str) -> str:
        profile = tmp / "profile"
        profile.mkdir()
        command = [
            binary,
            "--headless",
            "--no-sandbox",  # we may be root (CI is)
            "--disable-gpu",
            # No network here: without these Chromium keeps trying (and failing) to phone home.
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}",
            *args,
        ]
        result = subprocess.run(command, capture_output=True, text=True, timeout=180, env={**os.environ, "HOME": str(tmp)})
        assert result.returncode == 0, f"chromium exit {result.returncode}:\n{result.stderr[-3000:]}"
        return result.stdout

    return run


def _png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the RGB pixels of an 8-bit, non-interlaced RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    assert header, "no IHDR"
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    bpp = 3 if colour == 2 else 4
    stride = width * bpp
    raw = zlib.decompress(b"".join(idat))
    assert len(raw) == height * (stride + 1)
    pixels: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        if kind == 1:  # Sub
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif kind == 2:  # Up
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prev))
        elif kind == 3:  # Average
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif kind == 4:  # Paeth
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        else:
            assert kind == 0, f"filter {kind}"
        pixels.extend(bytes(line[i : i + 3]) for i in range(0, stride, bpp))
        prev = line
    return width, height, pixels


def _css_colour(name: str) -> bytes:
    css = (ROOT / "comparator" / "templates" / "report.css").read_text(encoding="utf-8")
    value = re.search(rf"--{name}:\s*#([0-9a-fA-F]{{6}})", css).group(1)  # the first: light scheme
    return bytes.fromhex(value)


def test_chromium_renders_a_report_that_is_not_blank(chromium, tmp_path):
    page = REPORTS / "flying-relents.html"
    shot = tmp_path / "shot.png"
    chromium(tmp_path, f"--screenshot={shot}", page.as_uri())
    width, height, pixels = _png_pixels(shot.read_bytes())
    assert (width, height) == VIEWPORT
    counts = Counter(pixels)
    background, _ = counts.most_common(1)[0]
    assert background == _css_colour("bg"), background.hex()  # the page's own background (light)
    ink = sum(n for colour, n in counts.items() if max(abs(a - b) for a, b in zip(colour, background)) > 32)
    dark = sum(n for colour, n in counts.items() if sum(colour) < 3 * 96)
    assert ink > 0.03 * len(pixels), f"only {ink} of {len(pixels)} pixels differ from the background"
    assert dark > 2000, f"only {dark} dark pixels: no text drawn?"
    # The stylesheet applied: the tables' header cells are filled with --head.
    head = _css_colour("head")
    assert sum(n for colour, n in counts.items() if max(abs(a - b) for a, b in zip(colour, head)) <= 2) > 500


# For layout the page must be measured after layout, which needs a script, and the reports must
# stay script-free. So one throwaway harness page, in a temp dir, holds every report in srcdoc
# iframes 1280 and 390 px wide (a srcdoc frame shares the harness's origin, so its script may read
# the frame's layout, which file:// frames may not) plus a canary page that does overflow. On load
# (which waits for every frame) the script writes what it measured into a <pre> that --dump-dom
# prints. A frame is a viewport of its own: its media queries and the width its page is laid out
# in are the frame's, as a phone's or a desktop's window would be (desktop Chromium ignores
# <meta name=viewport> anyway). One Chromium run per colour scheme checks every page at both
# widths; the canary shows the measure does see overflow.
WIDTHS = (1280, 390)
_MEASURE = """
<script>
function offenders(w) {
  const doc = w.document, limit = doc.documentElement.clientWidth, found = [];
  for (const el of doc.body.querySelectorAll('*')) {
    if (el.getBoundingClientRect().right <= limit + 0.5) continue;
    let clipped = false;
    for (let a = el.parentElement; a && a !== doc.body; a = a.parentElement) {
      if (w.getComputedStyle(a).overflowX !== 'visible') { clipped = true; break; }
    }
    if (!clipped) found.push(el.tagName.toLowerCase() + (el.className ? '.' + el.className : '') + ': ' + el.textContent.trim().slice(0, 80));
    if (found.length >= 5) break;
  }
  return found;
}
function clipped(w) {
  // Text cut off by its own box: overflow hidden or clipped, and content wider or taller than it.
  const found = [];
  for (const el of w.document.body.querySelectorAll('*')) {
    const style = w.getComputedStyle(el);
    const hides = v => v === 'hidden' || v === 'clip';
    if ((hides(style.overflowX) && el.scrollWidth > el.clientWidth + 1) || (hides(style.overflowY) && el.scrollHeight > el.clientHeight + 1)) {
      found.push(el.tagName.toLowerCase() + ': ' + el.textContent.trim().slice(0, 80));
    }
  }
  for (const svg of w.document.querySelectorAll('svg.loop-diagram')) {
    const box = svg.viewBox.baseVal;
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBBox();
      if (b.x < box.x - 0.5 || b.y < box.y - 0.5 || b.x + b.width > box.x + box.width + 0.5 || b.y + b.height > box.y + box.height + 0.5) {
        found.push('svg text: ' + t.textContent.slice(0, 80) + ' ' + JSON.stringify([b.x, b.y, b.width, b.height]));
      }
    }
  }
  return found.slice(0, 5);
}
function diagrams(w) {
  const out = [];
  const limit = w.document.documentElement.clientWidth;
  for (const svg of w.document.querySelectorAll('svg.loop-diagram')) {
    const r = svg.getBoundingClientRect(), style = w.getComputedStyle(svg);
    // A drawing in a table that scrolls sideways (the history draws each class in its row) is
    // reached by scrolling that region, which must itself fit the page.
    const region = svg.closest('.scroll');
    const scrolls = !!region && region.scrollWidth > region.clientWidth + 1;
    const box = scrolls ? region.getBoundingClientRect() : r;
    out.push({width: r.width, height: r.height, left: box.left, right: box.right, limit: limit, scrolls: scrolls,
              shown: style.display !== 'none' && style.visibility === 'visible' && style.opacity === '1',
              colour: style.color, background: w.getComputedStyle(w.document.body).backgroundColor});
  }
  return out;
}
function sticky(w) {
  // In each region that scrolls sideways, scroll it: its row headers must stay at its left edge.
  const out = [];
  for (const region of w.document.querySelectorAll('.scroll')) {
    if (region.scrollWidth <= region.clientWidth + 1) continue;
    region.scrollLeft = 60;
    const th = region.querySelector('tbody th');
    if (th) out.push(Math.abs(th.getBoundingClientRect().left - region.getBoundingClientRect().left));
    region.scrollLeft = 0;
  }
  return out;
}
function wrappedDates(w) {
  return Array.from(w.document.querySelectorAll('.date')).filter(d => d.getClientRects().length > 1).map(d => d.textContent).slice(0, 5);
}
window.addEventListener('load', () => {
  const out = {};
  for (const frame of document.querySelectorAll('iframe')) {
    const w = frame.contentWindow, root = w.document.documentElement;
    out[frame.title] = {
      innerWidth: w.innerWidth, clientWidth: root.clientWidth, scrollWidth: root.scrollWidth,
      dark: w.matchMedia('(prefers-color-scheme: dark)').matches,
      offenders: root.scrollWidth > root.clientWidth ? offenders(w) : [],
      clipped: clipped(w), diagrams: diagrams(w), sticky: sticky(w), wrappedDates: wrappedDates(w),
    };
  }
  const pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(out);
  document.body.append(pre);
});
</script>
"""
_CANARY = '<!DOCTYPE html><html lang="en"><title>canary</title><p style="width: 600px">too wide</p><p style="width: 50px; overflow: hidden; white-space: nowrap">clipped text here</p></html>'


def _luminance(css: str) -> float:
    r, g, b = (int(v) for v in re.findall(r"\d+", css)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _largest(pages: list[Path]) -> Path:
    return max(pages, key=lambda p: (p.stat().st_size, p.name))


# The default run (and CI) lays out one page of each kind: the index, the atlas, the history, a
# small and the largest loop report, a small and the largest timeline. Every page of the gallery
# is laid out under the slow marker (`pytest -m slow`), in both schemes. (tests/site/test_site.py
# lays out the site's pages the same way, with these runs.)
_LOOPS = [p for p in PAGES if p.parent == REPORTS and p.stem not in ("index", "atlas", "history")]
_TIMELINES = [p for p in PAGES if p.parent.name == "timelines"]
SMOKE_PAGES = sorted(
    {p for p in PAGES if p.parent == REPORTS and p not in _LOOPS}
    | {REPORTS / "flying-relents.html", REPORTS / "timelines" / "flying-relents.html"}
    | ({_largest(_LOOPS)} if _LOOPS else set())
    | ({_largest(_TIMELINES)} if _TIMELINES else set())
)
LAYOUT_RUNS = [
    pytest.param(("light", "one of each kind"), id="light-one-of-each-kind"),
    pytest.param(("dark", "one of each kind"), id="dark-one-of-each-kind"),
    pytest.param(("light", "every page"), id="light-every-page", marks=pytest.mark.slow),
    pytest.param(("dark", "every page"), id="dark-every-page", marks=pytest.mark.slow),
]


@pytest.fixture(scope="module", params=LAYOUT_RUNS)
def measured(request, chromium, tmp_path_factory):
    """The reports laid out at each width in one colour scheme (one page of each kind, or every
    page under the slow marker): what the harness measured."""
    scheme, which = request.param
    pages = SMOKE_PAGES if which == "one of each kind" else PAGES
    tmp = tmp_path_factory.mktemp(scheme)
    frames = {f"{_id(p)} @{width}": (width, p.read_text(encoding="utf-8")) for p in pages for width in WIDTHS}
    frames["(canary)"] = (VIEWPORT[0], _CANARY)
    harness = tmp / "harness.html"
    harness.write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        + _MEASURE
        + "</head><body>"
        + "".join(
            f'<iframe title="{html.escape(name)}" width="{width}" height="{VIEWPORT[1]}" srcdoc="{html.escape(text)}"></iframe>'
            for name, (width, text) in frames.items()
        )
        + "</body></html>",
        encoding="utf-8",
    )
    flags = ["--force-dark-mode"] if scheme == "dark" else []
    dom = chromium(tmp, *flags, "--run-all-compositor-stages-before-draw", "--virtual-time-budget=5000", "--dump-dom", harness.as_uri())
    found = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S)
    assert found, f"the harness wrote no measurements:\n{dom[-2000:]}"
    result = json.loads(html.unescape(found.group(1)))
    assert set(result) == set(frames)
    canary = result.pop("(canary)")
    assert canary["scrollWidth"] > canary["clientWidth"] and canary["offenders"], canary
    assert canary["clipped"], canary  # the measure does see clipped text
    return scheme, result


def test_every_page_is_laid_out_at_its_width_in_its_scheme(measured):
    scheme, result = measured
    for name, m in result.items():
        assert m["innerWidth"] == int(name.rsplit("@", 1)[1]), (name, m["innerWidth"])
        assert m["dark"] == (scheme == "dark"), name


def test_no_report_overflows_the_page_without_a_scroll_container(measured):
    # clientWidth: the viewport less a vertical scrollbar; past it, the page scrolls sideways.
    _, result = measured
    wide = {name: m for name, m in result.items() if m["scrollWidth"] > m["clientWidth"]}
    assert not wide, json.dumps(wide, indent=1, ensure_ascii=False)[:4000]


def test_no_text_is_clipped(measured):
    _, result = measured
    clipped = {name: m["clipped"] for name, m in result.items() if m["clipped"]}
    assert not clipped, json.dumps(clipped, indent=1, ensure_ascii=False)[:4000]


def test_the_loop_diagrams_are_present_and_visible(measured):
    scheme, result = measured
    for name, m in result.items():
        if name.startswith(("timelines/", "atlas.html")):
            continue  # timelines draw no loop; the atlas's are in closed <details>
        assert m["diagrams"], f"{name}: no loop diagram"
        for d in m["diagrams"]:
            assert d["shown"] and d["width"] > 300 and d["height"] > 100, (name, d)
            assert d["left"] >= 0 and d["right"] <= d["limit"] + 0.5, (name, d)
            # Its ink (currentColor) stands out from the page in this scheme.
            assert abs(_luminance(d["colour"]) - _luminance(d["background"])) > 120, (name, scheme, d)


def test_row_headers_stay_in_view_while_a_table_scrolls(measured):
    _, result = measured
    shifts = [s for name, m in result.items() if name.endswith("@390") for s in m["sticky"]]
    assert shifts, "no table scrolls sideways at 390 px: the check would be vacuous"
    assert max(shifts) <= 1.5, shifts


def test_dates_never_wrap_inside_themselves(measured):
    _, result = measured
    wrapped = {name: m["wrappedDates"] for name, m in result.items() if m["wrappedDates"]}
    assert not wrapped, wrapped


# Printed, the long reports keep to a sensible number of pages: long lists are collapsed in
# <details> (which print closed), and the summaries print. Before that, the atlas printed as 349
# pages and the index as 86 for 27 loops (3.2 a loop); now the index may take 2.5 a loop.
# The history printed in 35 pages before it drew each class's smallest example and in 56 with
# its 44 drawings (about half a page each): it may take 40 and half a page a drawing.
LOOPS_IN_THE_INDEX = len([p for p in REPORTS.glob("*.json") if p.stem not in ("atlas", "history")])
DRAWINGS_IN_THE_HISTORY = (REPORTS / "history.html").read_text(encoding="utf-8").count("<svg ")
PAGE_BUDGETS = {"atlas.html": 80, "index.html": 6 + 5 * LOOPS_IN_THE_INDEX // 2, "flying-relents.html": 8, "history.html": 40 + DRAWINGS_IN_THE_HISTORY // 2}


@pytest.mark.parametrize("name", sorted(PAGE_BUDGETS))
def test_long_reports_print_in_a_sensible_number_of_pages(chromium, tmp_path, name):
    pdf = tmp_path / "out.pdf"
    chromium(tmp_path, "--no-pdf-header-footer", f"--print-to-pdf={pdf}", (REPORTS / name).as_uri())
    pages = max(int(n) for n in re.findall(rb"/Count (\d+)", pdf.read_bytes()))  # the page tree's root counts them all
    assert 1 <= pages <= PAGE_BUDGETS[name], f"{name}: {pages} pages"


# --- static accessibility checks -------------------------------------------------------------------


class _Page(HTMLParser):
    """What the checks need from a page, collected in one pass."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.lang = None
        self.title = ""
        self.headings: list[tuple[int, str]] = []
        self.tables = 0
        self.captions_first = 0  # tables whose first child is their caption
        self.th_without_scope: list[str] = []
        self.style = ""
        self.scripts = 0
        self.regions_without_name = 0
        self.differs_rows: list[str] = []
        self._text: list[str] | None = None
        self._heading: tuple[int, list[str]] | None = None
        self._table_fresh = False
        self._row: list[str] | None = None
        self._row_depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        if tag == "script":
            self.scripts += 1
        if tag == "table":
            self.tables += 1
            self._table_fresh = True
        elif self._table_fresh:
            self.captions_first += tag == "caption"
            self._table_fresh = False
        if tag == "th" and a.get("scope") not in ("col", "row", "colgroup", "rowgroup"):
            self.th_without_scope.append(f"line {self.getpos()[0]}")
        if a.get("tabindex") is not None and not (a.get("aria-label") or a.get("aria-labelledby")):
            self.regions_without_name += 1
        if re.fullmatch(r"h[1-6]", tag):
            self._heading = (int(tag[1]), [])
        if tag == "tr" and "differs" in (a.get("class") or "").split():
            self._row, self._row_depth = [], len(self.stack)
        if tag not in ("meta", "link", "br", "img", "input", "hr", "wbr", "col", "source"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if self._heading and tag == f"h{self._heading[0]}":
            self.headings.append((self._heading[0], "".join(self._heading[1]).strip()))
            self._heading = None
        if tag == "tr" and self._row is not None and len(self.stack) - 1 == self._row_depth:
            self.differs_rows.append("".join(self._row))
            self._row = None
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        where = self.stack[-1] if self.stack else ""
        if where == "title":
            self.title += data
        elif where == "style":
            self.style += data
        if self._heading:
            self._heading[1].append(data)
        if self._row is not None:
            self._row.append(data)


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


@pytest.mark.parametrize("path", PAGES, ids=_id)
def test_static_accessibility(path):
    page = _parse(path)
    assert page.lang, "<html> has no lang"
    assert page.title.strip(), "no <title>"
    assert page.scripts == 0, "reports are script-free"

    # Headings: one h1 first, and never a level skipped going down (h2 -> h4).
    levels = [level for level, _ in page.headings]
    assert levels and levels[0] == 1 and levels.count(1) == 1, page.headings[:3]
    for (before, text_before), (after, text) in zip(page.headings, page.headings[1:]):
        assert after <= before + 1, f"h{before} {text_before!r} then h{after} {text!r}"
    assert all(text for _, text in page.headings), "an empty heading"

    # Tables: each captioned (the caption its first child), each header cell scoped.
    assert page.captions_first == page.tables, f"{page.tables - page.captions_first} tables without a caption"
    assert not page.th_without_scope, f"<th> without scope at {page.th_without_scope[:5]}"
    assert page.regions_without_name == 0, "a focusable scroll region has no accessible name"

    # The stylesheet: visible focus, print and dark styles. <style> is raw text: an escaped
    # character (&#34;) there is not decoded and breaks the declaration.
    css = page.style
    assert ":focus-visible" in css
    assert re.search(r"@media\s+print\s*\{", css)
    assert re.search(r"@media\s*\(\s*prefers-color-scheme:\s*dark\s*\)", css)
    assert not re.search(r"&(#\d+|#x[0-9a-f]+|[a-z]+);", css, re.I), "an HTML entity inside <style>"

    # Differing rows are marked by more than colour: each carries the mark as text.
    for row in page.differs_rows:
        assert MARK in row, f"a differing row without {MARK}: {row[:120]!r}"


def test_the_gallery_does_mark_differing_rows():
    # So that the check above is not vacuous.
    assert sum(len(_parse(p).differs_rows) for p in PAGES) > 10
