"""The static site (``loopcompare site DIR``) as a reader, a browser and a validator see it.

The site is built once here, in-process, from the whole library plus one test-only loop (below),
with the gallery's atlas run (shared with tests/site/test_gallery.py in the same process). Then:

- static checks: every page and file is there, every internal link and fragment resolves, no
  script or stylesheet comes from outside the site, each page has one h1, headings in order,
  captioned tables, the site's navigation (home, index, history, atlas; a loop's timeline);
- the Nu HTML Checker finds no error on any page;
- headless Chromium (file:// URLs, as a reader who opens the folder): search finds a loop by a
  card name and by a tag, the index's filters keep exactly the rows they should, no page
  overflows at 390 or 1280 px (light and dark), a loop page prints in a few pages, and no page
  logs anything to the console;
- ``loopcompare site`` itself, in a fresh process with another hash seed, writes the same bytes.

Tools as in tests/site/test_browser.py (``LOOPCOMPARE_VNU_JAR``, ``java``, ``chromium``); without them
these tests skip, or fail with ``LOOPCOMPARE_REQUIRE_BROWSER=1`` (CI).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from loopcompare.comparator import build, cli
from loopcompare.comparator import site as sites
from loopcompare.comparator.loader import parse_bytes

from gallery import gallery
from test_browser import _CANARY, _MEASURE, LAYOUT_RUNS, LOCAL_VNU, _missing, _parse

# A loop only the tests add: a card name and a tag found nowhere else in the library (so search
# can only find it through them), and text a page must escape.
EXTRA = textwrap.dedent(
    """\
    title = "Test-only loop <script>alert(1)</script> & friends"
    description = "Two creatures pass a counter back and forth; nothing here is a real card's text."
    source = "tests/site/test_site.py"
    tags = ["two players", "zz test-only tag"]
    players = ["Alice", "Bob"]

    [state]
    flying = false

    [[oracle]]
    name = "Quixotic Wombatrix"
    text = "When this enters, <b>nothing</b> happens."
    date = "2026-11-27"
    source = "https://example.org/quixotic-wombatrix"

    [[ruling]]
    source = "https://example.org/a-ruling"
    title = "A ruling the tests made up"
    date = "2026-11-27"
    quote = "It is only a test."
    eras = ["cr-2024"]

    [[step]]
    by = "Alice"
    does = "activates '{0}: This creature gains flying'"
    optional = true
    set = { flying = true }

    [[step]]
    by = "Bob"
    does = "activates '{0}: Target creature loses flying'"
    optional = true
    set = { flying = false }
    """
).encode("utf-8")
EXTRA_ID = "zz-test-only"
CARD, TAG = "Quixotic Wombatrix", "zz test-only tag"


def _files():
    extra = parse_bytes(EXTRA, f"{EXTRA_ID}.toml", EXTRA_ID, file=f"{EXTRA_ID}.toml")
    return [*sites.library_files(), (extra, EXTRA)]


def _build() -> dict[str, str]:
    eras = build.builtin_eras()
    return sites.build(_files(), eras, build.eras_atlas(), build.mission_atlas())


@pytest.fixture(scope="module")
def built() -> dict[str, str]:
    return _build()


@pytest.fixture(scope="module")
def site(built, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("site")
    for name, text in built.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _pages(root: Path) -> list[Path]:
    return sorted(root.rglob("*.html"))


# --- what is there ----------------------------------------------------------------------------------


def test_the_site_has_a_page_for_every_loop_era_and_amendment(built):
    ids = [sf.id for sf, _ in _files()]
    for i in ids:
        assert f"loops/{i}.html" in built and f"loops/{i}.toml" in built and f"timelines/{i}.html" in built
    for r in build.builtin_eras():
        assert f"eras/{r.key}.html" in built
    for page in ("index.html", "loops.html", "search.html", "history.html", "atlas.html", "site.css", "site.js", "search-index.js"):
        assert page in built
    assert sum(name.startswith("amendments/") for name in built) >= 5
    # The file offered for download is the library's file, byte for byte.
    raw = dict((sf.id, raw) for sf, raw in _files())
    assert built["loops/flying.toml"].encode("utf-8") == raw["flying"]


def test_the_index_lists_every_loop_sorted_by_title(built):
    titles = [html.unescape(t) for t in re.findall(r'<th scope="row"><a href="loops/[^"]+\.html">([^<]*)</a>', built["loops.html"])]
    assert len(titles) == len(_files())
    assert titles == sorted(titles, key=str.casefold)


def test_untrusted_text_is_escaped(built):
    page = built[f"loops/{EXTRA_ID}.html"]
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page
    assert "<b>nothing</b>" not in page
    assert "<script>alert" not in built["loops.html"] and "<script>alert" not in built["index.html"]


def test_a_loop_page_has_what_a_reader_needs(built):
    page = built[f"loops/{EXTRA_ID}.html"]
    for needed in (CARD, "A ruling the tests made up", "Permalink", "Cite this", f'href="{EXTRA_ID}.toml" download', f"loopcompare compare {EXTRA_ID}.toml", 'class="loop-diagram"', "Timeline", "https://example.org/a-ruling"):
        assert needed in page, needed
    # The outcome under every era, the differing rows marked.
    flying = built["loops/flying.html"]
    for r in build.builtin_eras():
        assert f'<th scope="col">{html.escape(r.name)}</th>' in flying, r.name
    assert 'class="differs"' in flying and "\u2260" in flying


class _Links(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []  # (tag, url)
        self.ids: set[str] = set()
        self.inline_scripts = 0
        self.nav: list[str] = []
        self._in_nav = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "nav" and "site" in (a.get("class") or ""):
            self._in_nav = True
        for attr in ("href", "src"):
            if a.get(attr) is not None and tag in ("a", "link", "script", "img", "iframe", "form", "source"):
                self.links.append((tag, a[attr]))
                if self._in_nav and tag == "a":
                    self.nav.append(a[attr])
        if tag == "form" and a.get("action"):
            self.links.append((tag, a["action"]))
        if tag == "script" and not a.get("src"):
            self.inline_scripts += 1

    def handle_endtag(self, tag):
        if tag == "nav":
            self._in_nav = False


def _links(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_internal_link_resolves(site):
    parsed = {p: _links(p) for p in _pages(site)}
    broken, checked = [], 0
    for page, found in parsed.items():
        for tag, url in found.links:
            parts = urlsplit(url)
            if parts.scheme in ("http", "https"):
                assert tag == "a", f"{page.relative_to(site)}: a {tag} from outside the site: {url}"
                continue
            assert not parts.scheme and not parts.netloc, f"{page.relative_to(site)}: {url}"
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            checked += 1
            if not target.is_file() or site.resolve() not in target.parents:
                broken.append(f"{page.relative_to(site)}: {url}")
            elif parts.fragment and "=" not in parts.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else _links(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{page.relative_to(site)}: {url} (no such id)")
    assert checked > 1000
    assert not broken, "\n".join(broken[:40])


def test_no_script_or_style_from_outside_the_site(site):
    for page in _pages(site):
        found = _links(page)
        assert found.inline_scripts == 0, f"{page}: inline script"
        for tag, url in found.links:
            if tag in ("script", "link", "img", "iframe", "source"):
                assert not urlsplit(url).scheme and not url.startswith("//"), f"{page}: {url}"
    for js in site.glob("*.js"):
        text = js.read_text(encoding="utf-8")
        assert not re.search(r"\b(fetch|XMLHttpRequest|import\s*\(|importScripts)\b", text), js.name
        assert "http" not in text.replace("https://example.org", ""), js.name


def test_every_page_has_the_sites_navigation(site):
    for page in _pages(site):
        rel = page.relative_to(site).as_posix()
        up = "../" * rel.count("/")
        nav = _links(page).nav
        for target in ("index.html", "loops.html", "history.html", "atlas.html"):
            assert up + target in nav, (rel, nav)
        if rel.startswith("loops/"):
            assert f"../timelines/{page.stem}.html" in nav, rel
        if rel.startswith("timelines/"):
            assert f"../loops/{page.stem}.html" in nav, rel


def test_every_page_is_well_formed_for_a_reader(site):
    for page in _pages(site):
        p = _parse(page)
        rel = page.relative_to(site).as_posix()
        assert p.lang == "en" and p.title.strip(), rel
        levels = [level for level, _ in p.headings]
        assert levels and levels[0] == 1 and levels.count(1) == 1, (rel, p.headings[:3])
        for (before, a), (after, b) in zip(p.headings, p.headings[1:]):
            assert after <= before + 1, f"{rel}: h{before} {a!r} then h{after} {b!r}"
        assert p.captions_first == p.tables, rel
        assert not p.th_without_scope, rel
        assert p.regions_without_name == 0, rel
        for row in p.differs_rows:
            assert "\u2260" in row, (rel, row[:80])
    css = (site / "site.css").read_text(encoding="utf-8")
    assert ":focus-visible" in css and re.search(r"@media\s+print", css) and re.search(r"prefers-color-scheme:\s*dark", css)


def test_the_site_is_the_same_bytes_when_built_again(built):
    again = _build()
    assert again.keys() == built.keys()
    assert [k for k in built if built[k] != again[k]] == []


@pytest.mark.slow  # a whole site and atlas in another process: minutes on a busy machine
def test_the_command_writes_the_same_site_in_a_fresh_process(built, tmp_path):
    # Another process, another hash seed, the atlas computed anew: the same bytes as in-process
    # (the library alone: the test-only loop is not part of it).
    out = tmp_path / "site"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    result = subprocess.run([sys.executable, "-m", "loopcompare", "site", str(out)], capture_output=True, text=True, env=env, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    expected = sites.build(sites.library_files(), build.builtin_eras(), build.eras_atlas(), build.mission_atlas())
    written = {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file() and p.name != cli.SITE_MARKER}
    assert written.keys() == expected.keys()
    assert [k for k in expected if written[k] != expected[k]] == []


def test_the_command_refuses_a_folder_that_holds_other_things(tmp_path):
    # Refused before any work, and left as it was (split from the fresh-process build above,
    # which is slow, so that the default run keeps it).
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("mine")
    refused = subprocess.run([sys.executable, "-m", "loopcompare", "site", str(foreign)], capture_output=True, text=True, timeout=900)
    assert refused.returncode == 2 and "not a loopcompare site" in refused.stderr and "Traceback" not in refused.stderr
    assert sorted(p.name for p in foreign.iterdir()) == ["keep.txt"]


# --- the Nu HTML Checker ----------------------------------------------------------------------------


def test_every_page_passes_the_nu_html_checker(site, tmp_path):
    jar = os.environ.get("LOOPCOMPARE_VNU_JAR") or (str(LOCAL_VNU) if LOCAL_VNU.is_file() else "")
    java = shutil.which("java")
    if not jar or not Path(jar).is_file() or not java:
        _missing("no vnu.jar or no java (see tests/site/test_browser.py)")
    broken = tmp_path / "broken.html"
    broken.write_text('<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><p><div></p></body></html>')
    pages = _pages(site)
    result = subprocess.run([java, "-jar", jar, "--errors-only", "--format", "json", *map(str, pages), str(broken)], capture_output=True, text=True, timeout=900)
    messages = json.loads(result.stderr)["messages"]
    errors = [m for m in messages if m.get("type") in ("error", "non-document-error")]
    assert any(m.get("url", "").endswith("/broken.html") for m in errors), messages
    found = [f"{m.get('url', '?').split(str(site))[-1]}:{m.get('lastLine', '?')}: {m.get('message')}" for m in errors if not m.get("url", "").endswith("/broken.html")]
    assert not found, f"{len(found)} errors:\n" + "\n".join(found[:50])


# --- headless Chromium --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browse():
    """``browse(tmp, url, *flags) -> (dom, console)``: a page after its scripts ran (file:// URLs may
    read each other's documents: the layout harness needs it), and what it logged."""
    binary = os.environ.get("LOOPCOMPARE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not binary:
        _missing("chromium is not on the PATH (apt-get install chromium)")

    def run(tmp: Path, url: str, *flags: str, width: int = 1280) -> tuple[str, list[str]]:
        profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"
        profile.mkdir(parents=True)
        command = [
            binary,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--allow-file-access-from-files",
            "--enable-logging=stderr",
            "--v=0",
            f"--user-data-dir={profile}",
            f"--window-size={width},1200",
            "--run-all-compositor-stages-before-draw",
            "--virtual-time-budget=8000",
            *flags,
            *([] if any(f.startswith("--print-to-pdf") for f in flags) else ["--dump-dom"]),
            url,
        ]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300, env={**os.environ, "HOME": str(tmp)})
        assert result.returncode == 0, result.stderr[-3000:]
        console = [line for line in result.stderr.splitlines() if ":CONSOLE" in line]
        return result.stdout, console

    return run


def _shown(dom: str, list_id: str, pattern: str) -> list[str]:
    """The hrefs of what a list or table shows after its script ran (hidden rows left out)."""
    part = re.search(rf'id="{list_id}"(.*?)</(?:ol|table)>', dom, re.S)
    assert part, f"no #{list_id} in the page"
    out = []
    for row in re.findall(r"<(?:li|tr)\b([^>]*)>(.*?)</(?:li|tr)>", part.group(1), re.S):
        if " hidden" in row[0]:
            continue
        out += re.findall(pattern, row[1])
    return out


@pytest.mark.parametrize("query, expected", [(CARD.split()[1].lower(), EXTRA_ID), (CARD, EXTRA_ID), (TAG, EXTRA_ID), ("Zealous Conscripts", "kiki-jiki-zealous-conscripts")])
def test_search_finds_a_loop_by_card_name_and_by_tag(site, browse, tmp_path, query, expected):
    url = (site / "search.html").as_uri() + "?q=" + query.replace(" ", "+")
    dom, console = browse(tmp_path, url)
    found = _shown(dom, "search-results", r'href="loops/([^"]+)\.html"')
    assert expected in found, (query, found[:10])
    if query in (CARD, TAG):  # found nowhere else: the one match
        assert found == [EXTRA_ID]
    assert not console, console


def test_search_finds_nothing_for_nonsense(site, browse, tmp_path):
    dom, console = browse(tmp_path, (site / "search.html").as_uri() + "?q=qqxqqxqq")
    assert _shown(dom, "search-results", r'href="loops/([^"]+)\.html"') == []
    assert "0 loops match" in dom and not console


def _rows(site: Path) -> list[dict[str, str]]:
    """The index's rows as its data attributes say (what the filters read)."""
    text = (site / "loops.html").read_text(encoding="utf-8")
    rows = []
    for attrs in re.findall(r"<tr( class=\"differs\")? data-tags=\"([^\"]*)\" data-results=\"([^\"]*)\" data-changed=\"([^\"]*)\" data-disagree=\"(yes|no)\"><th scope=\"row\"><a href=\"loops/([^\"]+)\.html\"", text):
        differs, tags, results, changed, disagree, ident = attrs
        rows.append({"id": ident, "tags": html.unescape(tags).split("|"), "results": results.split(), "changed": changed.split(), "disagree": disagree})
    assert len(rows) == len(_files())
    return rows


@pytest.mark.parametrize(
    "state",
    [{"tag": TAG}, {"tag": "three players"}, {"disagree": "yes"}, {"result": "draw"}, {"result": "shortcut", "era": "cr-2004"}, {"era": "cr-2009"}, {"tag": "mandatory", "disagree": "yes"}],
    ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()),
)
def test_the_index_filters_keep_exactly_the_matching_loops(site, browse, tmp_path, state):
    from urllib.parse import urlencode

    expected = []
    for row in _rows(site):
        keep = True
        if "tag" in state:
            keep &= state["tag"] in row["tags"]
        if "result" in state:
            if "era" in state:
                keep &= f"{state['era']}={state['result']}" in row["results"]
            else:
                keep &= any(r.endswith("=" + state["result"]) for r in row["results"])
        elif "era" in state:
            keep &= state["era"] in row["changed"]
        if "disagree" in state:
            keep &= row["disagree"] == "yes"
        if keep:
            expected.append(row["id"])
    assert 0 < len(expected) < len(_rows(site)), ("a vacuous filter", state, len(expected))
    dom, console = browse(tmp_path, (site / "loops.html").as_uri() + "#" + urlencode(state))
    shown = _shown(dom, "loops", r'<th scope="row"><a href="loops/([^"]+)\.html"')
    assert shown == expected
    assert f"{len(expected)} of {len(_rows(site))} loops shown" in dom
    assert not console, console


def test_without_scripts_every_page_reads_whole(site):
    # As served (no script run): the index shows every row and hides the filters that need a
    # script; search says it needs one and points to the index. (Chromium's --dump-dom needs
    # scripts itself, so this reads the files.)
    index = (site / "loops.html").read_text(encoding="utf-8")
    assert len(_shown(index, "loops", r'<th scope="row"><a href="loops/([^"]+)\.html"')) == len(_files())
    assert re.search(r'<form id="filters"[^>]* hidden>', index)
    search = (site / "search.html").read_text(encoding="utf-8")
    assert re.search(r'<noscript>.*href="loops.html".*</noscript>', search)
    for page in _pages(site):
        if page.name not in ("loops.html", "search.html"):
            assert "<script" not in page.read_text(encoding="utf-8"), page


WIDTHS = (1280, 390)


def _one_of_each_kind(root: Path) -> list[Path]:
    """The pages at the top, and in each folder (loops, timelines, eras, amendments) its first,
    its largest, flying-relents and the test-only loop where it has them."""
    pages = _pages(root)
    chosen = {p for p in pages if p.parent == root}
    for folder in sorted({p.parent for p in pages} - {root}):
        inside = [p for p in pages if p.parent == folder]
        chosen |= {inside[0], max(inside, key=lambda p: (p.stat().st_size, p.name))}
        chosen |= {p for p in inside if p.stem in ("flying-relents", EXTRA_ID)}
    return sorted(chosen)


# The default run (and CI) lays out one page of each kind in both schemes; every page of the site
# under the slow marker (`pytest -m slow`): test_browser's LAYOUT_RUNS.
@pytest.fixture(scope="module", params=LAYOUT_RUNS)
def laid_out(request, site, browse, tmp_path_factory):
    """The pages at both widths in one colour scheme (one page of each kind, or every page under
    the slow marker), measured by tests/site/test_browser.py's harness (each page in a frame of
    its own width; file:// frames, readable with --allow-file-access-from-files)."""
    scheme, which = request.param
    pages = _one_of_each_kind(site) if which == "one of each kind" else _pages(site)
    tmp = tmp_path_factory.mktemp(f"layout-{scheme}")
    frames = {f"{p.relative_to(site).as_posix()} @{w}": (w, p.as_uri()) for p in pages for w in WIDTHS}
    harness = tmp / "harness.html"
    harness.write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        + _MEASURE
        + "</head><body>"
        + "".join(f'<iframe title="{html.escape(name)}" width="{w}" height="1200" src="{html.escape(url)}"></iframe>' for name, (w, url) in frames.items())
        + f'<iframe title="(canary)" width="390" height="1200" srcdoc="{html.escape(_CANARY)}"></iframe>'
        + "</body></html>",
        encoding="utf-8",
    )
    flags = ["--force-dark-mode"] if scheme == "dark" else []
    dom, console = browse(tmp, harness.as_uri(), *flags)
    found = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S)
    assert found, f"the harness wrote no measurements:\n{dom[-2000:]}"
    result = json.loads(html.unescape(found.group(1)))
    canary = result.pop("(canary)")
    assert canary["scrollWidth"] > canary["clientWidth"] and canary["offenders"], canary
    assert set(result) == set(frames)
    return scheme, result, console


def test_no_page_overflows_at_390_or_1280_px(laid_out):
    scheme, result, _ = laid_out
    for name, m in result.items():
        assert m["innerWidth"] == int(name.rsplit("@", 1)[1]) and m["dark"] == (scheme == "dark"), name
    wide = {name: m["offenders"] for name, m in result.items() if m["scrollWidth"] > m["clientWidth"]}
    assert not wide, json.dumps(wide, indent=1, ensure_ascii=False)[:4000]
    clipped = {name: m["clipped"] for name, m in result.items() if m["clipped"]}
    assert not clipped, json.dumps(clipped, indent=1, ensure_ascii=False)[:4000]


def test_the_loop_diagrams_are_drawn_on_loop_pages(laid_out):
    _, result, _ = laid_out
    for name, m in result.items():
        if name.startswith("loops/"):
            assert m["diagrams"], name
            for d in m["diagrams"]:
                assert d["shown"] and d["width"] > 250 and d["left"] >= 0 and d["right"] <= d["limit"] + 0.5, (name, d)


def test_no_page_logs_to_the_console(laid_out):
    # Every page was loaded (and its scripts run) in the harness: nothing may be logged but the
    # canary's own frame, which logs nothing either.
    _, _, console = laid_out
    assert not console, console[:20]


def test_a_loop_page_prints_in_a_few_pages(site, browse, tmp_path):
    pdf = tmp_path / "loop.pdf"
    browse(tmp_path, (site / "loops" / "flying-relents.html").as_uri(), "--no-pdf-header-footer", f"--print-to-pdf={pdf}")
    pages = max(int(n) for n in re.findall(rb"/Count (\d+)", pdf.read_bytes()))
    assert 1 <= pages <= 8, pages


def test_the_gallery_readme_links_every_report():
    # reports/README.md is what GitHub shows for the folder: every report and timeline linked.
    files = gallery()
    readme = files["README.md"]
    linked = set(re.findall(r"\]\(([^)]+)\)", readme))
    wanted = {name for name in files if name.endswith(".md") and name != "README.md"}  # GitHub renders markdown
    assert wanted <= linked, sorted(wanted - linked)[:10]
    assert all(target in files for target in linked), sorted(linked - set(files))[:10]
