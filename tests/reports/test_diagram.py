"""The loop diagram: drawn in every HTML report, inert and valid for hostile names, the same bytes
under every hash seed, its text inside its box, and the same picture as Mermaid in markdown."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

from click.testing import CliRunner

from loopcompare.comparator import diagram
from loopcompare.comparator.cli import main
from loopcompare.comparator.compare import compare
from loopcompare.comparator.library import load_builtin, names
from loopcompare.comparator.loader import parse_bytes
from loopcompare.comparator.report import odd_ones
from loopcompare.rulesets import registry

from helpers import ROOT

SVG = "{http://www.w3.org/2000/svg}"
ELEMENTS = {"svg", "title", "desc", "path", "polygon", "rect", "circle", "text", "g"}
HOSTILE = """\
title = "<script>alert(1)</script> ]]> \\u202eevil\\u202c \\"dq\\" 'sq'"
players = ["<b>Al\\u2066ice</b>", "Bob ]]> & \\"Q\\""]

[state]
flying = false

[[step]]
by = "<b>Al\\u2066ice</b>"
does = "<script>alert('x')</script> ]]> <![CDATA[ x ]]> \\u0001\\u001f tab\\tend \\u200f"
optional = true
set = { flying = true }
unless = { by = "Bob ]]> & \\"Q\\"", does = "pays <img src=x onerror=alert(1)>" }

[[step]]
by = "Bob ]]> & \\"Q\\""
does = "{0}: loses flying \\u202d\\u2067 x"
optional = true
set = { flying = false }

[[breaker]]
by = "Bob ]]> & \\"Q\\""
does = "<svg onload=alert(1)>"

[intent]
"Bob ]]> & \\"Q\\"" = 3
"""


def _svgs(page: str) -> list[str]:
    return re.findall(r"<svg\b.*?</svg>", page, re.S)


def _hostile():
    return parse_bytes(HOSTILE.encode(), "hostile.toml", "hostile")


def _check_inert(svg_text: str) -> ET.Element:
    """The SVG is well-formed XML with only the diagram's own elements and attributes."""
    # Inline in HTML the namespace is implied; as XML it must be given. Raises unless well-formed.
    root = ET.fromstring(svg_text.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
    for el in root.iter():
        assert el.tag.startswith(SVG) and el.tag[len(SVG) :] in ELEMENTS, el.tag
        for name in el.attrib:
            assert not name.lower().startswith("on") and "href" not in name.lower(), name
    assert "CDATA" not in svg_text.replace("&lt;![CDATA[", "")
    assert not re.search("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\x00-\x08\x0b\x0c\x0e-\x1f]", svg_text)
    return root


# --- every report has its picture -------------------------------------------------------------------


def test_every_html_report_draws_each_of_its_loops():
    # Every page that compares loops, and the history (each class's smallest example); the atlas's
    # own page is about rulesets.
    pages = sorted(p for p in (ROOT / "reports").glob("*.html") if p.name != "atlas.html")
    assert len(pages) > 20
    for page in pages:
        text = page.read_text(encoding="utf-8")
        svgs = _svgs(text)
        sections = text.count('<h2 class="loop-heading"') or text.count("<figure class=\"diagram\">")
        assert svgs and len(svgs) >= sections, page.name
        for svg in svgs:
            root = _check_inert(svg)
            labelled = root.get("aria-labelledby").split()
            assert root.get("role") == "img" and len(labelled) == 2
            ids = {el.get("id") for el in root.iter() if el.get("id")}
            assert set(labelled) <= ids, (page.name, labelled)
            assert root.find(f"{SVG}title").text.startswith("Loop diagram: ")


def test_ids_are_unique_on_a_page_with_many_diagrams():
    text = (ROOT / "reports" / "index.html").read_text(encoding="utf-8")
    ids = re.findall(r'\bid="([^"]+)"', text)
    # one diagram per loop, and one more per later part of a file of loops in a row (FORMAT item 30)
    assert len(_svgs(text)) == sum(1 + len(load_builtin(n).scenario.parts) for n in names())
    assert len(ids) == len(set(ids))


def test_the_cut_points_sit_where_the_rulesets_cut():
    # flying-relents: 421.3 and the MTR cut after 3 iterations and 1 step (before step 2, Bob
    # deviating); CR 729.3 after 1 iteration (before step 1, Alice deviating).
    c = compare(load_builtin("flying-relents"), registry().select([]))
    d = diagram.build(c)
    cuts = {cut.steps: cut for cut in d.cuts}
    assert set(cuts) == {0, 1}
    assert cuts[1].rulesets == ("CR 421 (2004)", "CR 421 (2008)", "MTR 4.4 (current)") and cuts[1].deviates == "Bob"
    assert cuts[1].label == "CR 421 (2004), CR 421 (2008), MTR 4.4 (current): 3 it. + 1 step, Bob deviates"
    assert cuts[0].label == "CR 729 (2024): 1 it. + 0 steps, Alice deviates"
    assert cuts[0].shape != cuts[1].shape  # a shape of its own, not only a colour
    svg = diagram.svg(d, "t")
    root = _check_inert(svg)
    boxes = [int(r.get("y")) for r in root.iter(f"{SVG}rect") if "lc-box" in r.get("class")]
    marks = [el for el in root.iter() if "lc-mark" in (el.get("class") or "")]
    assert len(boxes) == 2 and len(marks) == 2
    # The square (second group) is above step 1, the circle (first group) between steps 1 and 2.
    square = next(m for m in marks if m.tag == f"{SVG}rect")
    circle = next(m for m in marks if m.tag == f"{SVG}circle")
    assert int(square.get("y")) < boxes[0] < int(circle.get("cy")) < boxes[1]


def test_rulesets_without_a_cut_are_listed_not_marked():
    c = compare(load_builtin("seal-of-cleansing"), registry().select([]))
    d = diagram.build(c)
    assert d.cuts == () and [r for _, r in d.uncut] == ["draw"] * 4
    assert d.breakers and "could break it: Bob" in diagram.svg(d, "t")
    # The Mermaid picture lists them too, each apart from the cycle.
    assert diagram.mermaid(d).count(", no cut point") == 4


def test_every_text_line_fits_inside_the_drawing():
    # The layout's own measure: every line, by the generous width estimate, ends inside the
    # viewBox (the browser test checks the real glyphs).
    cases = [compare(load_builtin(n), registry().select(["all"])) for n in names()]
    cases.append(compare(_hostile(), registry().select(["all"])))
    for c in cases:
        root = _check_inert(diagram.svg(diagram.build(c), "t"))
        width = int(root.get("viewBox").split()[2])
        for t in root.iter(f"{SVG}text"):
            bold = t.get("font-weight") == "600"
            assert int(t.get("x")) + diagram.width(t.text or "", int(t.get("font-size")), bold) <= width, t.text


# --- hostile names ------------------------------------------------------------------------------------


def test_a_hostile_scenario_draws_inert_and_valid():
    c = compare(_hostile(), registry().select([]))
    svg = diagram.svg(diagram.build(c), "x")
    root = _check_inert(svg)
    text = " ".join("".join(el.itertext()) for el in root.iter(f"{SVG}text"))
    alt = root.find(f"{SVG}desc").text
    # What was typed is shown, as text: markup, the CDATA end, and bidi controls by code point.
    assert "<script>alert('x')</script>" in alt and "]]>" in alt and "U+202Eevil" in root.find(f"{SVG}title").text
    assert "U+2066" in text and "\\x01" in alt and "tab end U+200F" in alt  # controls shown as codes, as in the page
    assert "<svg onload=alert(1)>" in alt


def test_a_hostile_scenario_keeps_the_html_page_valid_around_the_drawing(tmp_path):
    path = tmp_path / "hostile.toml"
    path.write_text(HOSTILE, encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", str(path), "-f", "html"])
    assert result.exit_code == 0, result.output
    (svg,) = _svgs(result.stdout)
    _check_inert(svg)
    assert "<script" not in result.stdout.replace("&lt;script", "")


def test_the_same_hostile_input_gives_the_same_bytes_under_three_hash_seeds(tmp_path):
    path = tmp_path / "hostile.toml"
    path.write_text(HOSTILE, encoding="utf-8")
    outputs = set()
    for seed in ("0", "1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONIOENCODING="utf-8")
        run = subprocess.run(
            [sys.executable, "-m", "loopcompare", "compare", str(path), "-r", "all", "-f", "html"], cwd=tmp_path, env=env, capture_output=True, check=True
        )
        outputs.add(b"".join(re.findall(rb"<svg\b.*?</svg>", run.stdout, re.S)))
    assert len(outputs) == 1 and len(next(iter(outputs))) > 1000


# --- text wrapping ------------------------------------------------------------------------------------


def test_wrapping_cuts_long_words_and_ends_in_an_ellipsis():
    lines = diagram.wrap("x" * 10_000, 100, 3)
    assert len(lines) == 3 and lines[-1].endswith("\u2026")
    assert all(diagram.width(line) <= 100 for line in lines)
    assert diagram.wrap("two words", 1000, 1) == ["two words"]
    assert diagram.wrap("aaa bbb ccc", diagram.width("aaa bbb"), 2) == ["aaa bbb", "ccc"]


def test_wide_characters_count_wider():
    assert diagram.width("\u6f22\u5b57") > diagram.width("ab") and diagram.width("W") > diagram.width("i")


# --- Mermaid in markdown ----------------------------------------------------------------------------------


def test_markdown_has_no_mermaid_unless_asked():
    plain = CliRunner().invoke(main, ["compare", "flying-relents"]).stdout
    drawn = CliRunner().invoke(main, ["compare", "flying-relents", "--mermaid"]).stdout
    assert "```mermaid" not in plain
    block = re.search(r"```mermaid\n(.*?)\n```\n", drawn, re.S).group(1)
    assert block.startswith("flowchart TD\n") and "s2 -->|" in block and "s1" in block
    # the same report but for the drawing, and the stamp's command, which says --mermaid
    assert drawn.replace(f"```mermaid\n{block}\n```\n\n", "").replace(" --mermaid -f md", " -f md") == plain


def test_mermaid_labels_stay_inside_their_quotes(tmp_path):
    text = diagram.mermaid(diagram.build(compare(_hostile(), registry().select([]))))
    for line in text.split("\n")[1:]:
        labels = re.findall(r'"([^"]*)"', line)
        assert line.count('"') == 2 * len(labels), line
        for label in labels:
            assert not re.search(r"[<>`*\[\]{}|\"#&]", re.sub(r"#\d+;|<br>", "", label)), label
    assert "#60;script#62;" in text and "#93;#93;#62;" in text


# --- tables: the differing cells ------------------------------------------------------------------------


def test_the_odd_cells_are_the_ones_unlike_the_rest_of_their_row():
    assert odd_ones(["3", "3", "1", "3"]) == (False, False, True, False)
    assert odd_ones(["a", "b"]) == (False, True)  # a tie: the first value is the reference
    assert odd_ones(["x", "y", "y"]) == (True, False, False)


def test_with_every_era_a_differing_row_marks_only_its_odd_cells():
    result = CliRunner().invoke(main, ["compare", "flying-relents", "-r", "all", "-f", "html"])
    rows = re.findall(r'<tr class="differs">(.*?)</tr>', result.stdout)
    assert rows
    for row in rows:
        cells = row.count("<td")
        assert 0 < row.count('<td class="odd">') < cells / 2 + 1, row


# --- format 2 steps draw with their own words -----------------------------------------------------------

FORMAT_2 = """\
format = 2
title = "Doubling, draining, flipping"
players = ["Alice", "Bob", "Carol"]

[state]
tokens = 1
mana = { start = 6, min = 0 }
life = { Bob = 3, Carol = 4 }

[[step]]
by = "Alice"
does = "Rhys: create a copy of each token"
optional = true
mul = { tokens = 2 }
requires = { mana = 2 }
add = { mana = -2 }
times = 2

[[step]]
by = "Alice"
does = "Sanguine Bond: target opponent loses 1 life"
target = { among = ["Bob", "Carol"], order = "rotate" }
add = { life = -1 }

[[step]]
by = "Bob"
does = "taps a land on the way"
optional = true
sustains = false

[[step]]
by = "Alice"
does = "Krark flips a coin"
random = true
ends_loop = { when = "Alice loses a flip", chance = "1/2" }

[[end]]
when = { value = "tokens", at_least = 100 }
effect = "Alice has enough tokens"
"""


def test_format_2_steps_draw_with_their_own_words():
    # Settling format 2 is another piece of work; the picture of the loop needs only the scenario.
    sf = parse_bytes(FORMAT_2.encode(), "f2.toml", "f2")
    d = diagram.build(compare(sf, []))
    first, drain, land, flip = d.steps
    assert first.effect == "requires mana \u2265 2; tokens \u00d7 2; mana \u2212 2; 2 times"  # the report's words (comparator/wording.py)
    assert drain.effect == "life \u2212 1; target: rotate among Bob, Carol" and "side benefit" in land.kind
    assert flip.exit == "may end the loop: Alice loses a flip (chance 1/2)"
    assert d.ends == "ends by itself when tokens \u2265 100: Alice has enough tokens"
    _check_inert(diagram.svg(d, "f2"))


ELIMINATIONS = """\
format = 2
title = "Each opponent loses 2 life every iteration"
players = ["Alice", "Bob", "Carol"]

[state]
life = { Bob = 5, Carol = 9 }

[[step]]
by = "Alice"
does = "creates a creature token"
optional = true

[[step]]
by = "Alice"
does = "her enchantment's trigger: each opponent loses 2 life"
target = { among = ["Bob", "Carol"], order = "each" }
add = { life = -2 }

[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses the game"
loses = true
"""


def test_players_who_leave_the_game_are_marked_where_they_leave():
    # Bob (5 life) loses after the third iteration, Carol (9) after the fifth (FORMAT.md, item 6).
    sf = parse_bytes(ELIMINATIONS.encode(), "e.toml", "e")
    d = diagram.build(compare(sf, registry().select([])))
    leaving = [(c.leaves, c.iterations, c.steps) for c in d.cuts if c.leaves]
    assert leaving == [("Bob", "3", 0), ("Carol", "5", 0)]
    assert all(c.shape == -1 for c in d.cuts if c.leaves) and [c.shape for c in d.cuts if not c.leaves] == [0]
    svg = diagram.svg(d, "e")
    assert svg.count("lc-leaves") == 2 and "Bob leaves the game: 3 it. + 0 steps" in svg and 'An "x"' in svg.replace("&quot;", '"')
    _check_inert(svg)
