"""The history of the loop rules (``loopcompare history``, reports/history.*).

Each amendment's section is computed: its text difference from the rule texts, its changed
outcomes from one atlas run projected onto the two eras, its silences from the notes the eras
give.  The targeted checks below read the gallery's report; the "computed, not written" checks
change one ruleset in a copy of the registry and watch the report follow.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from loopcompare.comparator import amendments
from loopcompare.comparator import atlas as atlases
from gallery import gallery

from loopcompare.comparator.build import builtin_eras as _builtin_eras
from loopcompare.comparator.build import eras_atlas as _eras_atlas
from loopcompare.comparator.compare import compare
from loopcompare.comparator.report import show
from loopcompare.rulesets import history as rule_history
from loopcompare.rulesets import registry
from loopcompare.rulesets.cr421 import Cr2008
from loopcompare.rulesets.registry import Registry
from loopcompare.rulesets.shortcuts import Cr2009

from helpers import scenario

FILES = gallery()
CR_LINE = ["summary-1998", "cr-2004", "cr-2005", "cr-2008", "cr-2009", "cr-2009-09", "cr-2024"]


@pytest.fixture(scope="module")
def gallery_history():
    """The gallery's history, rebuilt from the gallery's one atlas run (no new settling)."""
    return amendments.build(_builtin_eras(), _eras_atlas())


def _entry(history, kind, key):
    return next(e for line in history.lines for e in line.entries if e.kind == kind and e.after.key == key)


def _small(rulesets):
    """A history over the 2-player part of the atlas space: enough to see a change, quick."""
    atlas = amendments.build_atlas(rulesets, jobs=1, max_players=2)
    return amendments.build(rulesets, atlas)


# --- the report in the gallery ------------------------------------------------------------------


def test_every_consecutive_pair_of_each_line_has_a_section(gallery_history):
    # The issue: the six changes of the CR line and the one of the MTR line, in date order.
    lines = {line.name: [e for e in line.entries if e.kind == "amendment"] for line in gallery_history.lines}
    cr, mtr = lines.values()
    assert [(e.before.key, e.after.key) for e in cr] == list(zip(CR_LINE, CR_LINE[1:]))
    assert [(e.before.key, e.after.key) for e in mtr] == [("mtr-2018", "mtr-current")]
    for e in cr + mtr:
        assert e.text.verdict in ("replaced", "changed", "renumbered only", "unchanged")
        section = FILES["history.md"].split(f'<a id="{e.anchor}"></a>')[1].split("<a id=")[0]
        assert "#### The text" in section and "#### What changed in practice" in section
        assert ("| Class " in section) == bool(e.classes)
        assert ("No outcome changed" in section) == (not e.classes)


def test_each_renumbering_of_the_history_data_is_listed(gallery_history):
    # Read from rulesets.history, so a number added there shows here without a change of code.
    numbers = rule_history.SHORTCUT_RULE_NUMBERS
    starts = {r.in_force[0] for r in rule_history.lines(_builtin_eras())[0]}  # the CR line's own texts
    expected = [(date, old, new) for (_, old), (date, new) in zip(numbers, numbers[1:]) if date not in starts]
    listed = [(e.date, e.rules_before, e.rules_after) for line in gallery_history.lines for e in line.entries if e.kind == "renumbering"]
    assert listed == [(d, f"rule {a}", f"rule {b}") for d, a, b in expected]
    assert expected, "the sources date renumberings (720, 730, 731)"


def test_a_number_added_to_the_history_data_shows_as_a_renumbering(monkeypatch):
    # As another rule is inserted before Taking Shortcuts, a dated number is added to
    # rulesets/history.py; the report lists it under the text then in force, with no other change.
    later = rule_history.SHORTCUT_RULE_NUMBERS + (("2099-01-01", "799"),)
    monkeypatch.setattr(rule_history, "SHORTCUT_RULE_NUMBERS", later)
    history = amendments.build(_builtin_eras(), _eras_atlas())
    (entry,) = [e for line in history.lines for e in line.entries if e.date == "2099-01-01"]
    assert (entry.kind, entry.after.key, entry.rules_after) == ("renumbering", "cr-2024", "rule 799")
    assert entry.text.verdict == "not shipped"  # no text numbered 799 ships with loopcompare
    assert "2099-01-01: rule " in amendments.render(history, "md")


def test_a_renumbering_to_a_new_number_is_renumbered_only_when_the_words_are_the_same():
    # 729 (2024) to 731 (2026-01-16 text): only the examples' wording and a web address changed.
    before = amendments.own_text(registry().get("cr-2024"))
    same = amendments.Text("copy", "731", tuple((k.replace("729.", "731."), t.replace("729.", "731.")) for k, t in before.rules))
    assert amendments.text_change(before, same).verdict == "renumbered only"
    edited = amendments.Text("edit", "731", same.rules[:-1] + ((same.rules[-1][0], same.rules[-1][1] + " Extra."),))
    change = amendments.text_change(before, edited)
    assert change.verdict == "changed"
    assert [(c.before, c.after) for c in change.rules] == [("729.6", "731.6")]
    assert ("+", "Extra.") in change.rules[0].words


def test_the_2009_07_section_shows_the_flying_relents_kind_of_loop(gallery_history):
    # CR 713.3 of 2009: the fragmented rule makes the active player stop at the first repetition.
    e = _entry(gallery_history, "amendment", "cr-2009")
    kinds = []
    for c in e.classes:
        sc = c.example.scenario.scenario
        new = c.example.outcomes["cr-2009"]
        old = c.example.outcomes["cr-2008"]
        two_players_each_acting = len(sc.players) == 2 and {s.by for s in sc.steps if s.optional} == set(sc.players)
        if two_players_each_acting and not sc.loop.independent and "713.3" in new.rules and old.state != new.state:
            kinds.append(c.number)
    assert kinds, "a dependent two-player toggle settled differently by 713.3"
    assert e.text.verdict == "replaced"


def test_the_2005_section_shows_multiplayer_loops(gallery_history):
    e = _entry(gallery_history, "amendment", "cr-2005")
    assert e.classes
    assert any(len(c.example.scenario.scenario.players) >= 3 for c in e.classes)
    assert all(c.example.outcomes["cr-2004"].result.value == "unspecified" for c in e.classes)


def test_2008_closes_the_unless_gap_of_2004_and_2005(gallery_history):
    # 421.6 (2008): the note that reads "not paying" as an optional action is closed.
    e = _entry(gallery_history, "amendment", "cr-2008")
    assert any("421.6 closed in 2008" in r.text for r in e.closed)
    assert not any("421.6 closed in 2008" in r.text for r in e.created)
    assert any(c.status == "added" and c.after == "421.6" for c in e.text.rules)


def test_shares_are_of_the_whole_space(gallery_history):
    total = gallery_history.atlas.total
    assert total == atlases.size()
    for line in gallery_history.lines:
        for e in line.entries:
            assert e.changed == sum(c.count for c in e.classes) <= total


def test_the_json_twin_has_the_same_sections():
    doc = json.loads(FILES["history.json"])
    assert doc["format"] == "loopcompare/history/1"
    md = FILES["history.md"]
    for line in doc["lines"]:
        for entry in line["entries"]:
            assert entry["heading"] in md
            if entry["kind"] == "amendment":
                for c in entry["outcomes"]["classes"]:
                    assert c["sentence"] in md
                    assert set(c["example"]["outcomes"]) == {entry["before"], entry["after"]}


def test_the_report_says_how_it_was_computed():
    md = FILES["history.md"]
    assert "one run of the divergence atlas" in md
    assert "Created: notes the later era gives" in md


# --- computed, not written: change a ruleset in a copy of the registry -----------------------------


class Cr2009WithoutFragments(Cr2009):
    """A counterfactual 2009 text whose 713.3 never applies (no fragmented-loop rule)."""

    def fragmented_player(self, ctx, involved):
        return None


class Cr2008WithAReading(Cr2008):
    """A counterfactual 2008 ruleset with one more reading on every mandatory loop."""

    def mandatory(self, ctx):
        ctx.note("A reading only this test takes.")
        return super().mandatory(ctx)


def _copy(**replace):
    """The built-in rulesets, with some replaced (keyed by ruleset key)."""
    return Registry([replace.get(r.key, r) for r in _builtin_eras()], []).rulesets


@pytest.fixture(scope="module")
def baseline():
    return _small(_copy())


def test_a_ruleset_that_settles_differently_changes_its_sections(baseline):
    changed = _small(_copy(**{"cr-2009": Cr2009WithoutFragments()}))
    before, after = (_entry(h, "amendment", "cr-2009") for h in (baseline, changed))
    assert [c.sentence for c in before.classes] != [c.sentence for c in after.classes]
    assert before.changed != after.changed
    # The next amendment (2009-09 amends 2009-07) changes too; one two eras away does not.
    assert _entry(baseline, "amendment", "cr-2009-09").classes != _entry(changed, "amendment", "cr-2009-09").classes
    assert [c.sentence for c in _entry(baseline, "amendment", "cr-2005").classes] == [c.sentence for c in _entry(changed, "amendment", "cr-2005").classes]
    assert amendments.render(baseline, "md") != amendments.render(changed, "md")
    # The drawings follow: the 2009 section draws other examples, or cuts them elsewhere.
    drawn = [_svgs(_html_section(amendments.render(h, "html"), "amendment-cr-2009")) for h in (baseline, changed)]
    assert drawn[0] and drawn[1] and drawn[0] != drawn[1]


def test_a_ruleset_with_a_new_reading_changes_the_silences(baseline):
    changed = _small(_copy(**{"cr-2008": Cr2008WithAReading()}))
    created = [r.text for r in _entry(changed, "amendment", "cr-2008").created]
    closed = [r.text for r in _entry(changed, "amendment", "cr-2009").closed]
    assert "A reading only this test takes." in created
    assert "A reading only this test takes." in closed
    assert "A reading only this test takes." not in [r.text for r in _entry(baseline, "amendment", "cr-2008").created]


# --- the method ------------------------------------------------------------------------------------


def test_restricting_the_atlas_equals_building_it_for_those_rulesets():
    # One run answers every pair: the projection is exactly the atlas of the pair.
    reg = registry()
    every = atlases.build(reg.select(["all"]), jobs=1, max_players=2, fields=amendments.FIELDS)
    for keys in (["cr-2008", "cr-2009"], ["cr-2004", "cr-2008", "cr-2024", "mtr-current"]):
        rulesets = reg.select(keys)
        assert atlases.restrict(every, rulesets, atlases.FIELDS) == atlases.build(rulesets, jobs=1, max_players=2)
        assert atlases.restrict(every, rulesets) == atlases.build(rulesets, jobs=1, max_players=2, fields=amendments.FIELDS)


def test_notes_are_compared_without_names_counts_or_the_era():
    cr2009, cr2024 = registry().get("cr-2009-09"), registry().get("cr-2024")
    a = amendments._normalised("Alice and Bob would act at the same point (713.2b); after 2 iterations.", ["Alice", "Bob"])
    b = amendments._normalised("Carol, Dana would act at the same point (729.2b); after 1 iteration.", ["Carol", "Dana"])
    assert a != b
    assert amendments._era_free(a, cr2009) == amendments._era_free(b, cr2024)
    # A scenario's own words (what a step does) are set aside like its players' names.
    quoted = amendments._normalised("Here Bob's choice \u201cdiscards Nexus of Fate\u201d is no action.", ["Bob"], ["discards Nexus of Fate"])
    assert quoted == "Here \u27e8player\u27e9's choice \u201c\u27e8action\u27e9\u201d is no action."
    # Rule ids, dates and big numbers are not counts.
    kept = amendments._normalised("CR 421 (2004), 102.4b, 2009-07-11 and 1,000,000 tokens", [])
    assert kept == "CR 421 (2004), 102.4b, 2009-07-11 and 1,000,000 tokens"


def test_markdown_shortens_long_unchanged_stretches_but_json_keeps_every_word():
    change = amendments.RuleChange("changed", "1.1", "1.1", (("=", " ".join(["w"] * 40)), ("+", "new"), ("=", "end")))
    shown = amendments.shown_runs(change)
    assert shown[0] == ("=", "\u2026 " + " ".join(["w"] * amendments.CONTEXT))
    assert shown[1:] == change.words[1:]


# --- the loop diagrams of the smallest examples (item 5) --------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def _svgs(page: str) -> list[str]:
    return re.findall(r"<svg\b.*?</svg>", page, re.S)


def _html_section(page: str, anchor: str) -> str:
    return page.split(f'<section id="{anchor}"', 1)[1].split("</section>", 1)[0]


def _md_section(page: str, anchor: str) -> str:
    return page.split(f'<a id="{anchor}"></a>', 1)[1].split("<a id=", 1)[0]


def _marks(svg: str) -> dict[tuple[str, ...], str]:
    """The cut marks of a drawing: the eras each names (its bold lines) -> where it cuts (the rest)."""
    root = ET.fromstring(svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
    marks = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class") != "lc-cut":
            continue
        lines = list(group.iter(f"{SVG}text"))
        names = " ".join(t.text for t in lines if t.get("font-weight"))
        assert names.endswith(":"), names
        marks[tuple(names[:-1].split(", "))] = " ".join(t.text for t in lines if not t.get("font-weight"))
    return marks


def _cut_where(example, ruleset) -> str | None:
    """Where an era cuts the example, as the drawing words it ("3 it. + 1 step"), or None."""
    out = example.outcomes[ruleset.key]
    if out.iterations is None:
        return None
    steps = out.steps % len(example.scenario.scenario.steps)
    return f"{show(out.iterations)} it. + {steps} step{'' if steps == 1 else 's'}"


def test_each_smallest_example_is_drawn_with_both_eras_cut_points(gallery_history):
    # The historian's question: where does each of the two eras stop the same loop?
    page = FILES["history.html"]
    drawn = 0
    for line in gallery_history.lines:
        for e in line.entries:
            svgs = _svgs(_html_section(page, e.anchor))
            # (a class that neither era cuts has nothing to draw: its row says so, issue 25)
            shown = [c for c in e.classes if amendments.drawn(c.example)]
            assert len(svgs) == len(shown), e.anchor
            for c, svg in zip(shown, svgs):
                marks = _marks(svg)
                named = [name for names in marks for name in names]
                assert set(named) <= {e.before.name, e.after.name} and len(named) == len(set(named)), (e.anchor, c.number, marks)
                for era in (e.before, e.after):
                    where = _cut_where(c.example, era)
                    if where is None:
                        assert f"{era.name}: {c.example.outcomes[era.key].result.value.replace('_', ' ')}, no cut point" in svg
                        assert era.name not in named
                    else:
                        (mark,) = [w for names, w in marks.items() if era.name in names]
                        assert mark.startswith(where) or f", {where}" in mark, (era.name, where, mark)
                assert f'id="{e.anchor}-class-{c.number}-diagram-title"' in svg
                drawn += 1
    assert drawn == sum(amendments.drawn(c.example) for line in gallery_history.lines for e in line.entries for c in e.classes) > 10


def test_both_eras_are_named_on_a_mark_in_some_drawing(gallery_history):
    # Not vacuous: many examples are cut by both eras, at different points or at one shared mark.
    both = 0
    page = FILES["history.html"]
    for line in gallery_history.lines:
        for e in line.entries:
            for svg in _svgs(_html_section(page, e.anchor)):
                named = {name for names in _marks(svg) for name in names}
                both += named == {e.before.name, e.after.name}
    assert both > 5


def test_ids_are_unique_on_the_history_page():
    page = FILES["history.html"]
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(_svgs(page)) > 10
    assert len(ids) == len(set(ids))
    for labelled in re.findall(r'aria-labelledby="([^"]+)"', page):
        assert set(labelled.split()) <= set(ids), labelled


def test_the_markdown_draws_each_example_as_mermaid(gallery_history):
    page = FILES["history.md"]
    for line in gallery_history.lines:
        for e in line.entries:
            blocks = re.findall(r"```mermaid\n(.*?)\n```", _md_section(page, e.anchor), re.S)
            shown = [c for c in e.classes if amendments.drawn(c.example)]  # (none drawn empty: issue 25)
            assert len(blocks) == len(shown), e.anchor
            for c, block in zip(shown, blocks):
                flags = [line for line in block.split("\n") if re.match(r"  c\d+>", line)]
                for era in (e.before, e.after):
                    if _cut_where(c.example, era) is not None:
                        assert any(era.name in flag for flag in flags), (e.anchor, c.number, era.name)
                    else:
                        result = c.example.outcomes[era.key].result.value.replace("_", " ")
                        assert f'["{era.name}: {result}, no cut point"]' in block, (e.anchor, c.number, era.name)


def test_the_json_carries_no_drawing():
    # The outcomes there already give every era's cut point; a drawing would repeat them.
    assert "<svg" not in FILES["history.json"] and "mermaid" not in FILES["history.json"]


def test_the_figure_hook_is_given_each_example_under_its_two_eras(gallery_history):
    seen = []

    def figure(example, id_prefix):
        seen.append(([r.key for r in example.rulesets], id_prefix))
        return ("*drawn*", "<p>drawn</p>")

    page = amendments.render(gallery_history, "html", figure)
    # (a class neither era cuts is not drawn: the hook is not asked for it)
    expected = [([e.before.key, e.after.key], f"{e.anchor}-class-{c.number}") for line in gallery_history.lines for e in line.entries for c in e.classes if amendments.drawn(c.example)]
    assert seen == expected
    assert page.count("<p>drawn</p>") == len(expected) and "<svg" not in page
    assert "<svg" not in amendments.render(gallery_history, "html", None)
    assert "```mermaid" not in amendments.render(gallery_history, "md", None)


def test_a_drawing_of_a_hostile_loop_is_inert():
    # The history draws atlas loops, but the figure escapes whatever a scenario holds.
    hostile = scenario(
        """
        title = "<script>x</script> ```"
        players = ["<b>A\u202eli</b>", "Bob ```"]
        [[step]]
        by = "<b>A\u202eli</b>"
        does = "<img src=x onerror=alert(1)> ``` end"
        optional = true
        [[step]]
        by = "Bob ```"
        does = "]]> & \\"q\\""
        optional = true
        [intent]
        "Bob ```" = 2
        """
    )
    md, svg = amendments.loop_figure(compare(hostile, registry().select(["cr-2008", "cr-2009"])), "p")
    assert "<script" not in svg and "<img" not in svg and "<b>" not in svg and "\u202e" not in svg
    ET.fromstring(svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
    assert md.startswith("```mermaid\n") and md.endswith("\n```") and md.count("```") == 2
