"""The scenario model and the engine's results are immutable values.

A loaded :class:`Scenario` and every part of it (steps, targets, ends, intents, cut points...) is
shared: a ruleset settles the same scenario for each intent variant, LoopFacts memoises on it,
and the engine keys its memoised runs by goals and counts.  So none of them may be changed after
it is made (assignment raises ``FrozenInstanceError``), and those used as keys hash by value.
"""

from __future__ import annotations

import dataclasses

import pytest

from helpers import scenario
from loopcompare.rulesets import UNBOUNDED, CutPoint
from loopcompare.rulesets import additive as additive_module
from loopcompare.rulesets import dynamics as dynamics_module
from loopcompare.rulesets import scenario as scenario_module
from loopcompare.rulesets.scenario import Goal

#: Every dataclass of the scenario model, and the engine's value types.
MODEL = [getattr(scenario_module, name) for name in (
    "Unless", "Step", "Target", "EndsLoop", "Limits", "End", "EndsWhen", "LoopFlags", "Breaker",
    "Goal", "Intent", "CutPoint", "Scenario", "OracleText", "Ruling", "Card", "InnerLoop", "InnerRun",
)] + [getattr(dynamics_module, name) for name in ("Event", "Elimination")]

#: The engines' maps: named tuples (cheaper to build than frozen dataclasses, issue 27).
MAPS = [dynamics_module.Affine, additive_module._Affine]


@pytest.mark.parametrize("cls", MAPS, ids=lambda c: c.__name__)
def test_the_engines_maps_are_immutable_and_hash_by_value(cls):
    value, same = cls(), cls()
    for name in cls._fields:
        with pytest.raises(AttributeError):
            setattr(value, name, 1)
        with pytest.raises(AttributeError):
            delattr(value, name)
    assert {value: "a"}[same] == "a"


def test_the_list_covers_every_dataclass_of_the_scenario_model():
    found = {
        name for name, obj in vars(scenario_module).items()
        if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == scenario_module.__name__
    }
    assert found == {cls.__name__ for cls in MODEL if cls.__module__ == scenario_module.__name__}


@pytest.mark.parametrize("cls", MODEL, ids=lambda c: c.__name__)
def test_no_field_can_be_assigned_after_it_is_made(cls):
    value = object.__new__(cls)  # frozen or not, assignment goes through the class's __setattr__
    for f in dataclasses.fields(cls):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, f.name, None)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(value, f.name)


LOADED = """
format = 2
title = "a loaded scenario"
players = ["Alice", "Bob", "Carol"]
[state]
life = { Bob = 3, Carol = 5 }
mana = { start = 0, min = 0 }
[[step]]
by = "Alice"
does = "pings an opponent"
optional = true
target = { among = ["Bob", "Carol"], order = "rotate" }
add = { life = -1 }
[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses"
loses = true
"""


def test_a_loaded_scenario_and_its_parts_reject_assignment():
    sc = scenario(LOADED).scenario
    step = sc.steps[0]
    for obj, name in [(sc, "title"), (sc, "steps"), (step, "by"), (step, "target"), (step.target, "among"),
                      (sc.end_conditions[0], "bound"), (sc.loop, "independent")]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, None)
    assert sc.steps[0].by == "Alice" and sc.title == "a loaded scenario"


def test_cut_points_and_goals_are_hashable_by_value():
    assert hash(CutPoint(3, 1)) == hash(CutPoint(3, 1))
    assert {CutPoint(3, 1): "a"}[CutPoint(3, 1)] == "a"
    assert {CutPoint(UNBOUNDED, 0), CutPoint(UNBOUNDED, 0)} == {CutPoint(UNBOUNDED, 0)}
    assert {Goal("tokens", 10, False): 1}[Goal("tokens", 10, False)] == 1
    assert Goal("tokens", 10, False) != Goal("tokens", 10, True)
    assert hash(dynamics_module.Affine(2, 1)) == hash(dynamics_module.Affine(2, 1))
