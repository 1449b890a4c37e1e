"""The divergence atlas: canonical enumeration, classes, smallest examples that reproduce them."""

from __future__ import annotations

import json

import pytest

from loopcompare.comparator import atlas as atlases
from loopcompare.comparator.build import mission_atlas as _mission_atlas
from loopcompare.comparator.render import atlas_report as render_atlas
from loopcompare.comparator.compare import compare
from loopcompare.comparator.loader import parse_bytes
from loopcompare.rulesets import registry


@pytest.fixture(scope="module")
def mission():
    return _mission_atlas()


def test_every_loop_is_counted_once(mission):
    assert mission.total == atlases.size()
    assert mission.agreeing + sum(c.count for c in mission.classes) == mission.total
    assert sum(t for _, t, _ in mission.by_players) == mission.total


def test_no_two_generated_loops_are_the_same_loop():
    # Canonical: the active player is always first, so renamings never repeat a scenario.
    seen = set()
    for shape in atlases.shapes(3):
        for doc in atlases.with_intents(shape):
            key = json.dumps(doc, sort_keys=True)
            assert key not in seen
            seen.add(key)


def test_classes_are_listed_largest_first_with_their_smallest_example(mission):
    counts = [c.count for c in mission.classes]
    assert counts == sorted(counts, reverse=True)
    for cls in mission.classes:
        assert not atlases.agrees(cls.signature)
        assert len(cls.example["players"]) >= 2


def test_every_smallest_example_saved_as_a_file_reproduces_its_class(mission):
    # The "done when": each example, written as TOML and read back, falls in its class.
    rulesets = mission.rulesets
    for i, cls in enumerate(mission.classes, 1):
        text = atlases.to_toml(cls.example)
        sf = parse_bytes(text.encode("utf-8"), f"class-{i}.toml", f"class-{i}")
        assert atlases.signature(compare(sf, rulesets)) == cls.signature, f"class {i}"


def test_the_result_does_not_depend_on_the_number_of_processes():
    rulesets = registry().select(["cr-2008", "cr-2024"])
    one = atlases.build(rulesets, jobs=1, max_players=2)
    two = atlases.build(rulesets, jobs=2, max_players=2)
    assert one == two


def test_pairwise_figures_count_disagreements(mission):
    by_pair = {(a, b): n for a, b, n in mission.pairs}
    # 2008 and 2024 agree more often than 2004 and 2024: 2004 leaves multiplayer loops open.
    assert by_pair[("cr-2008", "cr-2024")] < by_pair[("cr-2004", "cr-2024")]


def test_a_sentence_names_the_rulesets_on_each_side(mission):
    text = atlases.sentence(mission, mission.classes[0])
    assert "CR 421 (2004)" in text and text.endswith(".")


def test_the_full_space_holds_format_2s_era_changing_dimensions():
    full = atlases.shapes(space="full")
    docs = [s for s in full if s.get("format") == 2]
    steps = [step for s in docs for step in s["step"]]
    assert any("ends_loop" in step for step in steps)
    assert any(step.get("choice") and "alternative" in step and not step.get("optional") for step in steps)
    assert any(step.get("sustains") is False for step in steps)
    assert any("requires" in step and isinstance(s["state"].get("mana"), dict) for s in docs for step in s["step"])
    assert any(s.get("loop", {}).get("within") == "resolution" for s in docs)
    # The format 1 space is the full one's prefix in each size, untouched (the gallery's atlas).
    assert [s for s in full if s.get("format") != 2] == atlases.shapes()
    assert atlases.size(space="full") >= 100_000
    with pytest.raises(ValueError):
        atlases.shapes(space="nope")


def test_the_full_space_is_canonical_and_every_loop_is_valid():
    from loopcompare.comparator.loader import parse_document

    seen = set()
    for shape in atlases.shapes(2, "full"):
        for doc in atlases.with_intents(shape):
            key = json.dumps(doc, sort_keys=True)
            assert key not in seen
            seen.add(key)
            parse_document(doc, "atlas.toml", "atlas")  # raises on an invalid loop
    assert len(seen) == atlases.size(2, "full")


def test_swapping_intents_into_a_parsed_shape_gives_the_loaders_scenario():
    # The workers parse each shape once and swap the intents in: it must be the loader's scenario.
    import dataclasses

    from loopcompare.comparator.loader import parse_document
    from loopcompare.rulesets.scenario import Intent

    for shape in atlases.shapes(3, "full")[::5]:
        parsed = parse_document(shape, "atlas.toml", "atlas").scenario
        for table, doc in zip(atlases._intent_tables(shape), atlases.with_intents(shape)):
            swapped = dataclasses.replace(parsed, intents={p: Intent(v) for p, v in table.items()})
            assert swapped == parse_document(doc, "atlas.toml", "atlas").scenario


def test_the_full_atlas_does_not_depend_on_the_number_of_processes():
    rulesets = registry().select(["cr-2008", "mtr-2018", "mtr-current"])
    one = atlases.build(rulesets, jobs=1, max_players=2, space="full")
    two = atlases.build(rulesets, jobs=2, max_players=2, space="full")
    assert one == two
    assert one.total == atlases.size(2, "full")
    assert render_atlas(one, "json") == render_atlas(two, "json")


def test_format_2_examples_saved_as_files_reproduce_their_class():
    rulesets = registry().select(["cr-2008", "cr-2024", "mtr-2018", "mtr-current"])
    result = atlases.build(rulesets, jobs=1, max_players=2, space="full")
    format2 = [c for c in result.classes if c.example.get("format") == 2]
    assert format2, "some class is first found in a format 2 loop"
    for i, cls in enumerate(format2, 1):
        text = atlases.to_toml(cls.example)
        assert text.startswith("format = 2\n")
        sf = parse_bytes(text.encode("utf-8"), f"class-{i}.toml", f"class-{i}")
        assert atlases.signature(compare(sf, rulesets)) == cls.signature, text
