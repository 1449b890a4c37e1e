"""The history a historian can read in one sitting (issue 25 items 3-5): a table of every change
at its head, old beside new where a rule was replaced, word diffs GitHub renders, each class drawn
beside its row with the legend once and no empty drawing, shares as the atlas gives them, print
styles; ``rulesets --trace`` and ``--diff`` aligned by subrule; a permalink on every heading.

The history is built here over the two-player part of the atlas space (quick); the gallery's own
history is checked by the goldens and tests/site/test_browser.py.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from markupsafe import escape
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from loopcompare.comparator import amendments
from loopcompare.comparator.build import builtin_eras as _builtin_eras
from loopcompare.comparator.cli import main
from loopcompare.comparator.render import permalinks
from loopcompare.comparator.render import share as _share
from loopcompare.comparator.render import md as md_escape
from loopcompare.rulesets import history as rule_history


@pytest.fixture(scope="module")
def small():
    eras = _builtin_eras()
    atlas = amendments.build_atlas(eras, jobs=1, max_players=2)
    report = amendments.build(eras, atlas)
    return report, amendments.render(report, "md"), amendments.render(report, "html")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


# --- the table at the head --------------------------------------------------------------------------


def test_the_head_has_one_row_per_change_linking_to_its_section(small):
    report, md, html = small
    head = md.split("## At a glance", 1)[1].split("\n## ", 1)[0]
    entries = [e for line in report.lines for e in line.entries]
    for e in entries:
        assert f"](#{e.anchor})" in head, e.heading
        assert f'<a href="#{e.anchor}">' in html and f'id="{e.anchor}"' in html
    rows = [line for line in head.splitlines() if line.startswith("| [")]
    assert len(rows) == len(entries)
    # every dated number of the loop rule is a row, with what moved it
    for n in rule_history.RULE_NUMBERS[2:]:
        assert any(f"[{n.since}]" in r and n.cause in r for r in rows), n
    # an amendment's row: its rules, its sentence, its loops with their share, its readings
    (row,) = [r for r in rows if "(#amendment-cr-2009)" in r]
    e = next(e for e in entries if e.anchor == "amendment-cr-2009")
    assert "421.1–421.6 → 713.1–713.6" in row and e.after.summary in row
    assert f"{e.changed:,} ({_share(e.changed, report.atlas.total)}) in {len(e.classes)} classes" in row
    assert f"+{len(e.created)} / \u2212{len(e.closed)}" in row
    assert "## Contents" not in md


def test_a_rule_replaced_whole_is_shown_old_beside_new(small):
    report, md, html = small
    section = md.split('<a id="amendment-cr-2009"></a>', 1)[1].split("#### What changed", 1)[0]
    assert "| CR 421 (2008) (old) | CR 713 (2009-07) (new) |" in section
    (row,) = [line for line in section.splitlines() if line.startswith("| **421.1**")]
    assert "These rules (sometimes called" in row and "**713.1** When playing a game" in row
    assert "(removed)" not in section
    part = html.split('id="amendment-cr-2009"', 1)[1].split("</table>", 1)[0]
    assert '<table class="side-by-side">' in part and "<strong>421.6</strong>" in part and "<strong>713.6</strong>" in part


def test_word_diffs_are_del_and_ins_that_github_renders(small):
    _, md, html = small
    section = md.split('<a id="amendment-cr-2005"></a>', 1)[1].split("#### What changed", 1)[0]
    assert "<del>the other</del> <ins>another</ins>" in section
    assert "[-" not in md and "{+" not in md and "\\[-" not in md
    assert "<del>the other</del> <ins>another</ins>" in html


def test_each_class_is_drawn_beside_its_row_with_the_legend_once_and_no_empty_drawing(small):
    report, md, html = small
    for line in report.lines:
        for e in line.entries:
            if not e.classes:
                continue
            part = html.split(f'id="{e.anchor}"', 1)[1].split("</section>", 1)[0]
            rows = re.findall(r"<tr><th scope=\"row\">\d+</th>.*?</tr>", part, re.S)
            assert len(rows) == len(e.classes)
            for c, row in zip(e.classes, rows):
                has = "<svg" in row
                assert has is amendments.drawn(c.example), (e.anchor, c.number)
                if has:
                    assert row.count("<svg") == 1 and "lc-legend" not in row
            assert part.count(str(escape(amendments.LEGEND))) == (1 if any(amendments.drawn(c.example) for c in e.classes) else 0)
    assert "Dashed box: optional (its controller may stop)" not in html  # the drawings' own legend
    assert md.count(md_escape(amendments.LEGEND)) == html.count(str(escape(amendments.LEGEND))) > 0


def test_a_class_with_no_cut_point_is_not_drawn():
    # not vacuous: some smallest examples are cut by neither era (a draw against no shortcut)
    from loopcompare.comparator.build import eras_atlas as _eras_atlas

    report = amendments.build(_builtin_eras(), _eras_atlas())
    undrawn = [c for line in report.lines for e in line.entries for c in e.classes if not amendments.drawn(c.example)]
    drawn = [c for line in report.lines for e in line.entries for c in e.classes if amendments.drawn(c.example)]
    assert undrawn and drawn


@pytest.mark.parametrize("part, whole, shown", [(2, 42327, "0.0047%"), (21, 42327, "0.050%"), (402, 1395, "28.8%")])
def test_shares_are_formatted_as_the_atlas_formats_them(part, whole, shown):
    assert amendments.share(part, whole) == _share(part, whole) == shown


def test_print_styles_keep_headings_with_what_follows(small):
    _, _, html = small
    css = html.split("<style>", 1)[1].split("</style>", 1)[0]
    prints = " ".join(re.findall(r"@media print \{(.*?)\n\}", css, re.S))
    assert re.search(r"h1, h2, h3, h4, h5, h6 \{[^}]*break-after: avoid", prints)
    assert re.search(r"h4 \+ \*[^{]*\{[^}]*break-before: avoid", prints)
    assert ".permalink { display: none; }" in prints


def _chromium():
    return os.environ.get("LOOPCOMPARE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(not _chromium(), reason="chromium is not on the PATH")
def test_the_table_at_the_head_prints_on_two_pages(tmp_path):
    # measured as the pictures are: headless Chromium prints the page of the gallery's history cut
    # after its table (the table alone, with the page's styles) to PDF, and its pages are counted
    from loopcompare.comparator.build import eras_atlas as _eras_atlas

    html = amendments.render(amendments.build(_builtin_eras(), _eras_atlas()), "html")
    start = html.index('<nav aria-labelledby="at-a-glance"')
    end = html.index("</nav>", start) + len("</nav>")
    page = tmp_path / "head.html"
    page.write_text(html[: html.index("<main>") + len("<main>")] + html[start:end] + "</main></body></html>\n", encoding="utf-8")
    pdf = tmp_path / "head.pdf"
    profile = tmp_path / "profile"
    profile.mkdir()
    command = [
        _chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={profile}", "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri(),
    ]
    subprocess.run(command, capture_output=True, timeout=180, env={**os.environ, "HOME": str(tmp_path)}, check=True)
    pages = max(int(n) for n in re.findall(rb"/Count (\d+)", pdf.read_bytes()))
    assert 1 <= pages <= 2, f"the table at the head prints on {pages} pages"


# --- anchors ------------------------------------------------------------------------------------


class _Headings(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.open: list[dict[str, str | None]] = []
        self.headings: list[tuple[str, list[str]]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if re.fullmatch(r"h[1-6]", tag):
            self.open.append(attrs)
            self.headings.append((attrs.get("id") or "", []))
        elif tag == "a" and self.open and "permalink" in (attrs.get("class") or ""):
            self.headings[-1][1].append(attrs.get("href") or "")

    def handle_endtag(self, tag):
        if re.fullmatch(r"h[1-6]", tag) and self.open:
            self.open.pop()


@pytest.mark.parametrize("args", [["compare", "flying", "-f", "html"], ["compare", "flying", "seal-of-cleansing", "-f", "html"], ["timeline", "flying", "-f", "html"]])
def test_every_heading_has_a_stable_id_and_a_visible_permalink(args):
    html = run(*args).stdout
    parser = _Headings()
    parser.feed(html)
    assert parser.headings
    ids = [i for i, _ in parser.headings]
    assert all(ids) and len(set(ids)) == len(ids)
    assert all(links == [f"#{i}"] for i, links in parser.headings)
    assert run(*args).stdout == html  # stable: the same ids every time


def test_history_headings_are_anchored_within_their_section(small):
    _, _, html = small
    parser = _Headings()
    parser.feed(html)
    ids = [i for i, _ in parser.headings]
    assert len(set(ids)) == len(ids) and all(ids)
    assert "amendment-cr-2005-the-text" in ids and "amendment-cr-2005-what-changed-in-practice" in ids
    assert all(links == [f"#{i}"] for i, links in parser.headings)


def test_a_heading_id_is_kept_and_a_repeated_one_is_numbered():
    page = '<h1 id="top">T</h1><section id="s"><h2>A b</h2><h2>A b</h2></section><h2>A &amp; b</h2>'
    out = permalinks(page)
    assert re.findall(r'<h\d id="([^"]+)"', out) == ["top", "s-a-b", "s-a-b-2", "a-b"]
    assert out.count('class="permalink"') == 4


# --- the concordance and the diff -------------------------------------------------------------------


def test_trace_follows_one_subrule_through_every_text_and_renumbering():
    result = run("rulesets", "--trace", "729.4")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if re.match(r"\d{4}-\d{2}-\d{2}  ", line)]
    rules = [line.split()[1] for line in lines]
    # 421.4 -> 713.4 -> 714.4 ... 729.4 -> 732.4, each number at its date
    assert rules[0] == "421.4" and rules[-1] == "732.4"
    for n in rule_history.RULE_NUMBERS[2:]:
        assert any(line.startswith(f"{n.since}  {n.number}.4") for line in lines), n
    (rewrite,) = [line for line in lines if line.startswith("2009-07-11")]
    assert "713.4" in rewrite and "rule 421 replaced by rule 713" in rewrite and "(4 words)" in rewrite
    assert "If [-the-] {+a+} loop contains only mandatory actions" in result.stdout
    (wording,) = [line for line in lines if line.startswith("2018-07-13")]
    assert "changed (9 words)" in wording
    assert "[-ends in-] {+is+}" in result.stdout
    # any era's number gives the same trace
    assert run("rulesets", "--trace", "421.4").stdout.split("\n", 1)[1] == result.stdout.split("\n", 1)[1]


def test_trace_of_a_subrule_added_later_says_when():
    out = run("rulesets", "--trace", "732.1c").stdout
    assert re.search(r"^2009-07-11  713\.1c\s+not in this text", out, re.M)
    assert re.search(r"^2018-07-13  720\.1c\s+added", out, re.M)


@pytest.mark.parametrize("rule, words", [("99.1", "is not a subrule"), ("729.9", "no text of the loop rule has a subrule"), ("abc", "is not a subrule")])
def test_trace_of_a_bad_rule_exits_2(rule, words):
    result = run("rulesets", "--trace", rule)
    assert result.exit_code == 2 and words in result.stderr and "Traceback" not in result.output


def test_diff_aligns_by_subrule_as_the_history_does():
    out = run("rulesets", "--diff", "cr-2008").stdout
    paragraphs = [p for p in out.split("\n\n") if re.match(r"421\.\d", p)]
    # each difference stays within its subrule: 421.5's words never run into 421.6
    (five,) = [p for p in paragraphs if p.startswith("421.5 ")]
    assert "421.6" not in five and "unless" not in five
    assert any(p.startswith("421.6 (added) {+If the loop contains an effect") for p in paragraphs)
    assert "Unchanged: 421.1, 421.2." in out
    replaced = run("rulesets", "--diff", "cr-2009").stdout
    assert "The rule is replaced" in replaced and "Old (cr-2008):" in replaced and "New (cr-2009):" in replaced
