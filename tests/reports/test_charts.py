"""The timeline chart and the atlas's heat map: bands at their dates, letters as well as fills,
figures that add up, shares to a useful precision."""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET

import pytest

from loopcompare.comparator import atlas as atlases
from loopcompare.comparator import charts
from loopcompare.comparator.build import mission_atlas as _mission_atlas
from loopcompare.comparator.library import load_builtin
from loopcompare.comparator.loader import parse_bytes
from loopcompare.comparator.render import heat_map
from loopcompare.comparator.render import share as _share
from loopcompare.comparator.timeline import build
from loopcompare.rulesets import registry
from loopcompare.rulesets.history import SHORTCUT_RULE_NUMBERS
from loopcompare.rulesets.registry import BUILTIN

SVG = "{http://www.w3.org/2000/svg}"


def _eras():
    return tuple(r for r in registry().rulesets if r.key in BUILTIN)


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))


def _bands(root):
    return [r for r in root.iter(f"{SVG}rect") if "tl-band" in r.get("class") and int(r.get("width")) != 20]


def test_bands_sit_at_their_dates_and_share_letters_with_their_outcome():
    timeline = build(load_builtin("flying-relents"), _eras())
    svg = charts.timeline_svg(timeline, "t")
    root = _parse(svg)
    start, end = charts.axis_years([timeline])
    first, last = dt.date(start, 1, 1), dt.date(end, 1, 1)
    cr = timeline.lines[0].periods
    bands = _bands(root)
    assert len(bands) == sum(len(line.periods) for line in timeline.lines)
    # The CR line: 1998 summary, the 421 texts from 1999-04-23, Taking Shortcuts from 2009-07-11.
    xs = [int(b.get("x")) for b in bands[: len(cr)]]
    assert xs == [charts._x(dt.date.fromisoformat(p.start), first, last) for p in cr]
    assert int(bands[len(cr) - 1].get("x")) + int(bands[len(cr) - 1].get("width")) == charts.X1  # still in force
    # Same outcome, same class: the 421 era and the whole Tournament Rules line are "B".
    assert bands[1].get("class") == bands[len(cr)].get("class")
    letters = [t.text for t in root.iter(f"{SVG}text") if t.text in ("A", "B", "C")]
    # In the bands (a smaller one in the 1998 summary's narrow year), then the legend.
    assert letters == ["A", "B", "C", "B", "A", "B", "C"]
    # Every dated renumbering is named under the CR row.
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert {n for _, n in SHORTCUT_RULE_NUMBERS} <= texts


def test_an_undated_boundary_is_drawn_as_an_overlap():
    timeline = build(load_builtin("hidden-choice"), _eras())
    mtr = timeline.lines[1].periods
    assert len(mtr) == 2 and mtr[0].end == "unknown"
    root = _parse(charts.timeline_svg(timeline, "t"))
    upper, lower = _bands(root)[-2:]
    assert upper.get("x") == lower.get("x") and int(upper.get("y")) < int(lower.get("y"))
    assert upper.get("stroke-dasharray") and "not dated in the sources" in root.find(f"{SVG}desc").text


def test_the_axis_ends_with_the_newest_known_date_not_today():
    timeline = build(load_builtin("flying"), _eras())
    assert charts.axis_years([timeline]) == (1998, int(SHORTCUT_RULE_NUMBERS[-1][0][:4]) + 1)


def test_a_hostile_title_is_inert_in_the_chart():
    raw = b'title = "<script>x</script> ]]> \\u202e"\nplayers = ["A<b>", "B"]\n[[step]]\nby = "A<b>"\ndoes = "x"\noptional = true\n'
    svg = charts.timeline_svg(build(parse_bytes(raw, "h.toml", "h"), _eras()), "h")
    assert "<script>" not in svg and "\u202e" not in svg
    assert "<script>x</script> ]]> U+202E" in _parse(svg).find(f"{SVG}title").text


def test_the_timeline_page_has_the_chart():
    from loopcompare.comparator.render import timeline_html

    page = timeline_html([build(load_builtin("flying-relents"), _eras())])
    assert page.count('<svg class="timeline-chart"') == 1 and re.search(r'aria-labelledby="timeline-flying-relents-chart-title', page)


# --- the atlas's heat map ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mission():
    return _mission_atlas()


def test_the_heat_map_adds_up(mission):
    kinds = [k for k, _ in atlases.KINDS]
    assert [name for name, _, _ in mission.by_kind] == [k for k in kinds if k in {n for n, _, _ in mission.by_kind}]
    assert sum(total for _, total, _ in mission.by_kind) == mission.total
    for i, (_, _, count) in enumerate(mission.pairs):
        assert sum(cells[i][0] for _, _, cells in mission.by_kind) == count


def test_each_cell_links_to_a_class_on_which_that_pair_disagrees(mission):
    n = len(mission.rulesets)
    pair_index = [a * n + b for a in range(n) for b in range(a + 1, n)]
    for name, total, cells in mission.by_kind:
        for (count, number), index in zip(cells, pair_index):
            assert (number is None) == (count == 0)
            if number:
                assert index in atlases._disagreeing_pairs(mission.classes[number - 1].signature, n), (name, number)


def test_every_loop_has_one_kind():
    seen = {atlases.kind(shape) for shape in atlases.shapes(3)}
    assert seen == {k for k, _ in atlases.KINDS}


def test_the_heat_map_rows_read_as_words(mission):
    rows = heat_map(mission)
    assert rows[0][0] == "mandatory (nobody involved)"
    assert all(0 <= level <= 5 for _, _, cells in rows for _, level, _ in cells)


@pytest.mark.parametrize(
    "part, whole, text",
    [(1, 42327, "0.0024%"), (21, 42327, "0.050%"), (2662, 42327, "6.3%"), (0, 5, "0%"), (5, 5, "100%"), (9999, 10000, "99.99%"), (1, 3, "33.3%"), (0, 0, "\u2014")],
)
def test_shares_keep_a_useful_precision(part, whole, text):
    assert _share(part, whole) == text
