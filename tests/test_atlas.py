"""The divergence atlas: canonical enumeration, classes, smallest examples that reproduce them."""

from __future__ import annotations

import json

import pytest

from loopcompare.comparator import atlas as atlases
from loopcompare.comparator.cli import _mission_atlas
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
