"""The loader for format 2 (FORMAT.md, "Format 2"): its keys, its errors, and what it warns about.

Every bad file is refused with a ScenarioError naming the file, the field and, where the text shows
it, the line; all the errors of a file come at once.  Probable mistakes are warnings (errors in a
format 2 file where FORMAT.md says so); `validate --strict` turns warnings into errors.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from click.testing import CliRunner

from loopcompare.comparator.cli import main
from loopcompare.comparator.loader import ScenarioError, parse_bytes, to_document, validate

from helpers import ACCEPTANCE_FORMAT2, needs_acceptance_format2

FORMAT2 = ACCEPTANCE_FORMAT2

BASE = """format = 2
title = "Sanguine Bond in a three-player game"
players = ["Alice", "Bob", "Carol"]

[state]
life = { Bob = 5, Carol = 9 }
mana = { start = 7, min = 0 }
tokens = 3

[[step]]
by = "Alice"
does = "pays {2}: creates a token"
optional = true
requires = { mana = 2 }
add = { mana = -2 }
mul = { tokens = 2 }

[[step]]
by = "Alice"
does = "the trigger: target opponent loses 1 life"
target = { among = ["Bob", "Carol"], order = "rotate" }
add = { life = -1 }
times = 2

[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses the game"
loses = true
"""


def parse(text: str, name: str = "case"):
    return parse_bytes(text.encode("utf-8"), f"{name}.toml", name)


def refused(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse(text)
    assert str(info.value).startswith("case.toml: ")
    return info.value


def test_the_base_document_loads_every_format_2_key():
    sc = parse(BASE).scenario
    assert sc.format == 2
    assert sc.state["life"] == {"Bob": 5, "Carol": 9}
    assert sc.limits["mana"].min == 0 and sc.state["mana"] == 7
    first, second = sc.steps
    assert first.requires == {"mana": 2} and first.mul == {"tokens": 2}
    assert second.target.among == ("Bob", "Carol") and second.target.order == "rotate" and second.times == 2
    (end,) = sc.ends
    assert end.loses_each and end.effect == "that player loses the game"


@needs_acceptance_format2
@pytest.mark.parametrize("path", sorted(FORMAT2.glob("*.toml")), ids=lambda p: p.stem)
def test_every_format_2_acceptance_file_loads(path):
    sf = parse_bytes(path.read_bytes(), path.name, path.stem)
    assert sf.scenario.format == 2
    assert sf.expect


def test_big_integers_written_as_strings():
    # FORMAT.md item 14: "INT", "INT^INT", "INT*10^INT" are exact integers.
    text = BASE.replace("tokens = 3", 'tokens = "3"') + '\n[intent]\nAlice = "10^100"\n'
    sc = parse(text).scenario
    assert sc.state["tokens"] == 3
    assert sc.intents["Alice"].after == 10**100
    sc = parse(BASE.replace('requires = { mana = 2 }', 'requires = { mana = "2*10^3" }')).scenario
    assert sc.steps[0].requires == {"mana": 2000}


def test_a_goal_intent_and_an_event_with_a_chance():
    text = BASE.replace('does = "pays {2}: creates a token"', 'does = "flips a coin"\nrandom = true\nends_loop = { when = "Alice loses a flip", chance = "1/2" }')
    text += '\n[intent]\nAlice = { until = { value = "tokens", at_least = 50 } }\n'
    sc = parse(text).scenario
    assert sc.steps[0].ends_loop.chance == Fraction(1, 2)
    goal = sc.intents["Alice"].until
    assert (goal.value, goal.bound, goal.at_most) == ("tokens", 50, False)
    assert not sc.intents["Alice"].never


# (id, a change to BASE, fragments the message must hold)
BAD = [
    ("format 2 key without format = 2", lambda t: t.replace("format = 2\n", ""), ["'mul", "format 2", "format = 2"]),
    ("mul of a boolean", lambda t: t.replace("tokens = 3", "tokens = 3\nflag = false").replace("mul = { tokens = 2 }", "mul = { flag = 2 }"), ["step 1", "mul.flag", "boolean"]),
    ("mul given a boolean", lambda t: t.replace("mul = { tokens = 2 }", "mul = { tokens = true }"), ["mul.tokens", "whole number"]),
    ("negative mul", lambda t: t.replace("mul = { tokens = 2 }", "mul = { tokens = -2 }"), ["mul.tokens", "0 or more"]),
    ("target among a non-player", lambda t: t.replace('among = ["Bob", "Carol"]', 'among = ["Bob", "Zed"]'), ["step 2", "target.among", "'Zed'", "not one of the players"]),
    ("unknown target order", lambda t: t.replace('order = "rotate"', 'order = "random"'), ["target.order", "rotate, each, fixed"]),
    ("per-player value without a target", lambda t: t.replace('target = { among = ["Bob", "Carol"], order = "rotate" }\n', ""), ["step 2", "add.life", "per-player", "target"]),
    ("target without an entry", lambda t: t.replace("life = { Bob = 5, Carol = 9 }", "life = { Bob = 5 }"), ["Carol", "no entry"]),
    ("loses = true on a plain value", lambda t: t.replace('when = { value = "life", at_most = 0 }', 'when = { value = "tokens", at_most = 0 }'), ["end 1", "loses", "not a per-player value"]),
    ("loses a named player on a per-player value", lambda t: t.replace("loses = true", 'loses = "Bob"'), ["end 1", "loses", "per-player"]),
    ("loses a non-player", lambda t: t.replace('when = { value = "life", at_most = 0 }', 'when = { value = "tokens", at_least = 100 }').replace("loses = true", 'loses = "Zed"'), ["end 1", "loses", "'Zed'"]),
    ("chance over one", lambda t: t.replace('does = "pays {2}: creates a token"', 'does = "flips"\nrandom = true\nends_loop = { when = "x", chance = "3/2" }'), ["ends_loop.chance", "(0, 1]"]),
    ("chance as a decimal", lambda t: t.replace('does = "pays {2}: creates a token"', 'does = "flips"\nrandom = true\nends_loop = { when = "x", chance = 0.5 }'), ["ends_loop.chance", "p/q"]),
    ("chance zero", lambda t: t.replace('does = "pays {2}: creates a token"', 'does = "flips"\nrandom = true\nends_loop = { when = "x", chance = "0/2" }'), ["ends_loop.chance", "(0, 1]"]),
    ("ends_loop on a step that is neither random nor hidden", lambda t: t.replace('does = "pays {2}: creates a token"', 'does = "flips"\nends_loop = { when = "x" }'), ["step 1", "ends_loop", "random"]),
    ("resolution with a breaker", lambda t: t + '\n[loop]\nwithin = "resolution"\n\n[[breaker]]\nby = "Bob"\ndoes = "casts a spell"\n', ["breaker 1", "resolution"]),
    ("resolution with an intent for a player without a choice", lambda t: t + '\n[loop]\nwithin = "resolution"\n\n[intent]\nBob = 3\n', ["[intent]", "'Bob'", "no choice inside the resolution"]),
    ("resolution across turns", lambda t: t + '\n[loop]\nwithin = "resolution"\nspans_turns = true\n', ["[loop]", "spans_turns", "resolution"]),
    ("within something else", lambda t: t + '\n[loop]\nwithin = "stack"\n', ["[loop]", "within", "priority"]),
    ("ends_when and [[end]] together", lambda t: t + '\n[loop]\nends_when = { value = "tokens", at_least = 100 }\n', ["'end'", "don't mix"]),
    ("a bound that already holds", lambda t: t.replace("at_most = 0", "at_most = 5"), ["end 1", "already holds"]),
    ("choice on a mandatory step without an alternative", lambda t: t.replace("times = 2", "times = 2\nchoice = true"), ["step 2", "choice", "alternative"]),
    ("an alternative without a choice", lambda t: t.replace("times = 2", 'times = 2\nalternative = "x"'), ["step 2", "alternative", "no choice"]),
    ("unless paid by the step's controller", lambda t: t.replace("times = 2", 'times = 2\nunless = { by = "Alice", does = "pays" }'), ["step 2", "unless.by", "controls the step itself"]),
    ("hidden on a mandatory step", lambda t: t.replace("times = 2", "times = 2\nhidden = true"), ["step 2", "hidden", "neither optional nor a choice"]),
    ("an intent with no point to deviate", lambda t: t.replace("optional = true\n", "") + "\n[intent]\nBob = 3\n", ["[intent]", "'Bob'", "no point to deviate"]),
    ("side benefit on a mandatory step", lambda t: t.replace("times = 2", "times = 2\nsustains = false"), ["step 2", "sustains", "mandatory"]),
    ("requires on a per-player value", lambda t: t.replace("requires = { mana = 2 }", "requires = { life = 2 }"), ["requires.life", "plain integers"]),
    ("times zero", lambda t: t.replace("times = 2", "times = 0"), ["step 2", "times", "between 1"]),
    ("first turn not the active player's", lambda t: t.replace('does = "pays {2}: creates a token"', 'does = "x"\nturn = "Bob"'), ["step 1", "turn", "active player"]),
    ("min above max", lambda t: t.replace("mana = { start = 7, min = 0 }", "mana = { start = 7, min = 9, max = 8 }"), ["[state]", "mana", "greater than max"]),
    ("an integer string too big", lambda t: t.replace("tokens = 3", 'tokens = "2^100000"'), ["[state]", "tokens", "more than 1,000 digits"]),
    ("a goal on an undeclared value", lambda t: t + '\n[intent]\nAlice = { until = { value = "gold", at_least = 5 } }\n', ["[intent]", "Alice.until", "'gold'"]),
    ("a goal on a per-player value without a player", lambda t: t + '\n[intent]\nAlice = { until = { value = "life", at_most = 1 } }\n', ["Alice.until.player", "whose"]),
]


@pytest.mark.parametrize("change, fragments", [pytest.param(c, f, id=i) for i, c, f in BAD])
def test_format_2_bad_input_is_refused_with_file_field_and_line(change, fragments):
    error = refused(change(BASE))
    message = str(error)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} missing from: {message}"
    assert all(e.line is not None for e in error.errors), message


def test_the_line_is_the_line_of_the_field():
    error = refused(BASE.replace('among = ["Bob", "Carol"]', 'among = ["Bob", "Zed"]'))
    line = BASE.splitlines().index('target = { among = ["Bob", "Carol"], order = "rotate" }') + 1
    assert error.line == line
    assert f"case.toml: line {line}: step 2: " in str(error)


def test_every_error_of_a_file_is_reported_at_once():
    text = BASE.replace('by = "Alice"\ndoes = "the trigger', 'by = "Zed"\ndoes = "the trigger').replace("mul = { tokens = 2 }", "mul = { tokens = -1 }")
    text += '\n[intent]\nQuinn = 3\n'
    error = refused(text)
    wheres = [e.where for e in error.errors]
    assert len(error.errors) == 3, str(error)
    assert any("step 1" in w for w in wheres) and any("step 2" in w for w in wheres) and any("Quinn" in w for w in wheres)
    assert len(str(error).splitlines()) == 3


def test_format_1_gets_warnings_where_format_2_gets_errors():
    # FORMAT.md: choice on a step with nothing to choose, hidden with no choice, an unless paid by
    # the step's own controller, an intent with no point to deviate: warnings in format 1.
    text = """title = "t"
players = ["Alice", "Bob"]

[[step]]
by = "Alice"
does = "a trigger"
choice = true
unless = { by = "Alice", does = "pays" }

[[step]]
by = "Bob"
does = "another trigger"
hidden = true

[intent]
Bob = 2
"""
    sf = parse(text)
    joined = "\n".join(sf.warnings)
    for fragment in ("step 1: 'choice'", "step 2: 'hidden'", "step 1: 'unless.by'", "[intent]: 'Bob'"):
        assert fragment in joined, joined
    assert all(w.startswith("line ") for w in sf.warnings)


def test_a_value_that_goes_below_zero_without_a_floor_is_warned_about():
    text = BASE.replace("mana = { start = 7, min = 0 }", "mana = 7")
    (warning,) = [w for w in parse(text).warnings if "mana" in w]
    assert "min" in warning and "below zero" in warning


def test_validate_strict_turns_warnings_into_errors(tmp_path):
    path = tmp_path / "loose.toml"
    path.write_text(BASE.replace("mana = { start = 7, min = 0 }", "mana = 7"), encoding="utf-8")
    runner = CliRunner()
    plain = runner.invoke(main, ["validate", str(path)])
    assert plain.exit_code == 0 and "warning: loose.toml:" in plain.stderr
    strict = runner.invoke(main, ["validate", "--strict", str(path)])
    assert strict.exit_code == 2 and "under --strict" in strict.stderr


def test_a_format_2_scenario_round_trips_through_its_document():
    sf = parse(BASE + '\n[intent]\nAlice = { until = { value = "tokens", at_least = 50 } }\n')
    assert validate(sf.scenario).scenario == sf.scenario
    assert to_document(sf.scenario)["format"] == 2
