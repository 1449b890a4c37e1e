"""Invariants that hold for every ruleset and every valid scenario (hypothesis property tests)."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loopcompare.comparator.loader import parse_document
from loopcompare.rulesets import Result, registry
from loopcompare.rulesets.facts import facts_of

PLAYERS = ["Alice", "Bob", "Carol", "Dana"]
RULESETS = registry().select(["all"])
MISSION = registry().select([])
RULE_ID = re.compile(r"^(CR )?(\d{3}\.\d+[a-z]?|G\.21\.[\w.]+|MTR 4\.4)$")


@st.composite
def scenarios(draw, *, optional=None, flags=True):
    n = draw(st.integers(2, 4))
    players = PLAYERS[:n]
    size = draw(st.integers(1, 5))
    steps = []
    for _ in range(size):
        step = {"by": draw(st.sampled_from(players)), "does": "acts"}
        step["optional"] = draw(st.booleans()) if optional is None else optional
        if draw(st.booleans()):
            step["add"] = {"n": draw(st.integers(-2, 2))}
        if draw(st.booleans()):
            step["set"] = {"flag": draw(st.booleans())}
        if flags and draw(st.integers(0, 9)) == 0:
            step["unless"] = {"by": draw(st.sampled_from(players)), "does": "pays"}
        if flags and draw(st.integers(0, 19)) == 0:
            step[draw(st.sampled_from(["random", "conditional", "hidden"]))] = True
        steps.append(step)
    intents = {}
    for p in players:
        kind = draw(st.integers(0, 3))
        if kind == 1:
            intents[p] = draw(st.integers(0, 6))
        elif kind == 2:
            intents[p] = {"after": draw(st.integers(0, 4)), "step": draw(st.integers(0, size - 1))}
    doc = {
        "title": "generated",
        "players": players,
        "active": draw(st.sampled_from(players)),
        "state": {"n": draw(st.integers(-3, 3)), "flag": draw(st.booleans())},
        "step": steps,
        "intent": intents,
    }
    if flags:
        loop = {k: True for k in ("independent", "spans_turns", "meaningful_change", "shortcut_before") if draw(st.integers(0, 4)) == 0}
        if draw(st.integers(0, 5)) == 0:
            loop["ends_when"] = {"value": "n", draw(st.sampled_from(["at_most", "at_least"])): draw(st.integers(-6, 6))}
        doc["loop"] = loop
        if draw(st.integers(0, 4)) == 0:
            doc["breaker"] = [{"by": draw(st.sampled_from(players)), "does": "breaks it"}]
    return parse_document(doc, "generated.toml", "generated").scenario


FAST = settings(max_examples=400, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(scenarios())
def test_every_ruleset_settles_every_valid_scenario_citing_its_rules(scenario):
    for ruleset in RULESETS:
        outcome = ruleset.settle(scenario)
        assert outcome.rules, ruleset.key  # every outcome cites at least one rule
        for line in outcome.transcript:
            assert RULE_ID.match(line.split(": ", 1)[0]), (ruleset.key, line)
        if outcome.result is Result.UNSPECIFIED:
            assert outcome.notes, ruleset.key  # and says why the text doesn't settle it


@FAST
@given(scenarios(optional=False, flags=False))
def test_a_mandatory_loop_nobody_can_break_is_a_draw_in_every_ruleset_but_1998(scenario):
    # 421.4, 713.4/729.4, MTR "all choose no action"; the 1998 Summary has no draw (G.21.3).
    for ruleset in RULESETS:
        outcome = ruleset.settle(scenario)
        expected = Result.SHORTCUT if ruleset.key == "summary-1998" else Result.DRAW
        assert outcome.result is expected, ruleset.key


@st.composite
def one_player_loops(draw):
    scenario = draw(scenarios(flags=False))
    controllers = {s.by for s in scenario.steps if s.optional}
    if len(controllers) != 1:
        controller = scenario.steps[0].by
        doc = {
            "title": "one player",
            "players": list(scenario.players),
            "active": scenario.active,
            "state": dict(scenario.state),
            "step": [
                {"by": s.by, "does": s.does, "optional": s.optional and s.by == controller, "add": dict(s.add), "set": dict(s.set)}
                for s in scenario.steps
            ],
            "intent": {},
        }
        doc["step"][0]["optional"] = True
        intent = scenario.intents.get(controller)
        if intent is not None and intent.after is not None and intent.step is None:
            doc["intent"][controller] = intent.after
        return parse_document(doc, "one.toml", "one").scenario
    return scenario


@FAST
@given(one_player_loops())
def test_a_loop_one_player_controls_with_nobody_intervening_agrees_in_all_four(scenario):
    controller = next(s.by for s in scenario.steps if s.optional)
    if any(p != controller and not scenario.intent(p).never for p in scenario.players):
        return  # someone intervenes: not this invariant
    outcomes = [r.settle(scenario) for r in MISSION]
    for field in ("iterations", "steps", "state.n", "state.flag"):
        assert len({repr(o.value(field)) for o in outcomes}) == 1, field


@FAST
@given(scenarios())
def test_a_cut_never_lies_after_the_point_where_the_deviator_said_they_would_act(scenario):
    # CR 729.2b and MTR 4.4: a player's announced point is honoured exactly.
    facts = facts_of(scenario)
    for key in ("cr-2024", "mtr-current", "mtr-2018", "cr-2009-09"):
        outcome = registry().get(key).settle(scenario)
        if outcome.result is not Result.SHORTCUT or not outcome.deviates or isinstance(outcome.iterations, dict):
            continue
        point = facts.deviation_point(outcome.deviates)
        if point is None or outcome.iterations == "unbounded" or outcome.value("iterations") == "unbounded":
            continue
        cut = outcome.iterations * facts.size + outcome.steps
        assert cut <= facts.position(point), key


RENAMES = {"Alice": "Zed", "Bob": "Yannick", "Carol": "Xu", "Dana": "Wilhelmina"}


def _renamed(scenario):
    doc = {
        "title": scenario.title,
        "players": [RENAMES[p] for p in scenario.players],
        "active": RENAMES[scenario.active],
        "state": dict(scenario.state),
        "step": [],
        "intent": {},
        "loop": {
            "independent": scenario.loop.independent,
            "spans_turns": scenario.loop.spans_turns,
            "meaningful_change": scenario.loop.meaningful_change,
            "shortcut_before": scenario.loop.shortcut_before,
        },
    }
    if scenario.loop.ends_when:
        e = scenario.loop.ends_when
        doc["loop"]["ends_when"] = {"value": e.value, "at_most" if e.at_most else "at_least": e.bound}
    for s in scenario.steps:
        step = {"by": RENAMES[s.by], "does": s.does, "optional": s.optional, "choice": s.choice, "hidden": s.hidden,
                "random": s.random, "conditional": s.conditional, "set": dict(s.set), "add": dict(s.add)}
        if s.unless:
            step["unless"] = {"by": RENAMES[s.unless.by], "does": s.unless.does}
        doc["step"].append(step)
    for p, intent in scenario.intents.items():
        doc["intent"][RENAMES[p]] = "never" if intent.never else (intent.after if intent.step is None else {"after": intent.after, "step": intent.step})
    if scenario.breakers:
        doc["breaker"] = [{"by": RENAMES[b.by], "does": b.does} for b in scenario.breakers]
    return parse_document(doc, "renamed.toml", "renamed").scenario


@FAST
@given(scenarios())
def test_outcomes_do_not_depend_on_player_names(scenario):
    renamed = _renamed(scenario)
    back = {v: k for k, v in RENAMES.items()}
    for ruleset in RULESETS:
        a, b = ruleset.settle(scenario), ruleset.settle(renamed)
        assert a.result == b.result, ruleset.key
        assert a.deviates == (back[b.deviates] if b.deviates else None), ruleset.key
        assert a.last_action == (back[b.last_action] if b.last_action else None), ruleset.key
        assert a.state == b.state, ruleset.key
        iterations = b.iterations
        if isinstance(iterations, dict):
            iterations = {back[p]: c for p, c in iterations.items()}
        assert a.iterations == iterations, ruleset.key
