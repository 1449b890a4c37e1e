"""FORMAT "Format 2 details, second round" (items 16-22) and issue 22's loader details.

The real loops that showed each of these wrong (Delina, Ad Nauseam, Torment of Hailfire, Sanguine
Bond against Platinum Angel and against Leyline of Sanctity) are pinned in every era in
tests/library/real_loops/; the tests here pin each reading on the smallest loop that shows it.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from helpers import noted, scenario, settle
from loopcompare.comparator.cli import main
from loopcompare.comparator.loader import ScenarioError
from loopcompare.rulesets import UNBOUNDED, registry
from loopcompare.rulesets.dynamics import Dynamics

ALL = [r.key for r in registry().rulesets]
FORBID = ["cr-2009", "cr-2009-09", "cr-2024", "mtr-2018", "mtr-current"]
OLD = ["cr-2004", "cr-2005", "cr-2008"]


def refused(toml: str) -> str:
    with pytest.raises(ScenarioError) as info:
        scenario(toml)
    return str(info.value)


# --- item 16: chance and conditions inside one resolution --------------------------------------

AD_NAUSEAM = """
format = 2
title = "reveal, lose life, you may repeat"
players = ["Alice", "Bob"]
[state]
cards = 0
[[step]]
by = "Alice"
does = "reveals the top card and puts it into her hand; may repeat"
optional = true
{flag} = true
add = {{ cards = 1 }}
[loop]
within = "resolution"
[intent]
Alice = 6
"""


@pytest.mark.parametrize("key", FORBID)
def test_a_conditional_repetition_a_chooser_maintains_may_not_be_shortcut_since_2009(key):
    # 729.2a / MTR 4.4: the flag is not dropped because the repetition is inside a resolution.
    out = settle(key, AD_NAUSEAM.format(flag="conditional"))
    assert out.result.value == "no_shortcut"


@pytest.mark.parametrize("key", ["mtr-2018", "mtr-current"])
def test_a_random_repetition_a_chooser_maintains_is_non_deterministic_under_the_mtr(key):
    assert settle(key, AD_NAUSEAM.format(flag="random")).result.value == "no_shortcut"


def test_a_random_repetition_is_left_to_the_judge_by_the_1998_summary():
    out = settle("summary-1998", AD_NAUSEAM.format(flag="random"))
    assert (out.result.value, out.judge) == ("unspecified", True)


@pytest.mark.parametrize("key", OLD)
def test_the_421_texts_know_nothing_of_chance_inside_a_resolution_either(key):
    out = settle(key, AD_NAUSEAM.format(flag="conditional"))
    assert (out.result.value, out.iterations, out.deviates) == ("shortcut", 6, "Alice")


def test_a_repetition_nobody_chooses_is_not_a_loop_at_all_whatever_its_flags():
    # No chooser: no loop procedure applies, random step or not (it runs to its end).
    toml = AD_NAUSEAM.format(flag="random").replace("optional = true\n", "").replace("[intent]\nAlice = 6\n", "")
    toml += '[[end]]\nwhen = { value = "cards", at_least = 3 }\neffect = "three cards"\n'
    for key in ALL:
        out = settle(key, toml)
        assert (out.result.value, out.iterations) == ("ends", 3), key


# --- item 17: a chance end comes before "never" -------------------------------------------------

FLIPS = """
format = 2
title = "flip until you lose one"
players = ["Alice", "Bob"]
[state]
wins = 0
[[step]]
by = "Alice"
does = "flips a coin"
optional = true
random = true
ends_loop = {{ when = "a flip is lost", chance = "1/2" }}
[[step]]
by = "Alice"
does = "wins the flip"
add = {{ wins = 1 }}
{extra}
[intent]
Alice = "never"
"""


@pytest.mark.parametrize("key", OLD)
def test_at_priority_the_421_texts_end_a_never_loop_by_its_chance_event(key):
    # The 421 procedure would take it on to "unbounded"; the coin ends it with probability 1.
    out = settle(key, FLIPS.format(extra=""))
    assert (out.result.value, out.iterations, out.deviates, out.stopped_by) == ("ends", None, None, None)
    assert (out.ends_early_if, out.expected_iterations) == ("a flip is lost", 1)
    noted(out, "chance end comes before")


@pytest.mark.parametrize("key", FORBID)
def test_at_priority_a_forbidden_shortcut_stays_forbidden(key):
    out = settle(key, FLIPS.format(extra=""))
    assert out.result.value == "no_shortcut"
    assert (out.ends_early_if, out.expected_iterations) == ("a flip is lost", 1)


def test_at_priority_the_1998_summary_leaves_chance_to_the_judge():
    out = settle("summary-1998", FLIPS.format(extra=""))
    assert (out.result.value, out.judge) == ("unspecified", True)


@pytest.mark.parametrize("key", ALL)
def test_inside_a_resolution_the_chance_end_comes_first_in_every_era(key):
    out = settle(key, FLIPS.format(extra='[loop]\nwithin = "resolution"'))
    assert (out.result.value, out.iterations, out.deviates) == ("ends", None, None)
    assert out.expected_iterations == 1


@pytest.mark.parametrize("key", ALL)
def test_an_end_at_a_fixed_point_comes_first_and_the_event_may_end_it_earlier(key):
    extra = '[[end]]\nwhen = { value = "wins", at_least = 3 }\neffect = "three wins"\n[loop]\nwithin = "resolution"'
    out = settle(key, FLIPS.format(extra=extra))
    assert (out.result.value, out.iterations, out.steps, out.ended_by) == ("ends", 3, 0, "three wins")
    assert out.ends_early_if == "a flip is lost"
    # The earlier of the event and the end (after 3 iterations): 0/2 + 1/4 + 2/8 + 3/8.
    assert out.to_json()["expected_iterations"] == "7/8"


def test_a_mandatory_loop_with_an_event_and_an_end_ends_at_the_end():
    toml = FLIPS.format(extra='[[end]]\nwhen = { value = "wins", at_least = 4 }\neffect = "four wins"')
    toml = toml.replace("optional = true\n", "").replace('[intent]\nAlice = "never"\n', "")
    for key in ALL:
        out = settle(key, toml)
        assert (out.result.value, out.iterations, out.steps, out.ended_by) == ("ends", 4, 0, "four wins"), key
        assert out.ends_early_if == "a flip is lost"


# --- item 18: nobody loses inside a resolution --------------------------------------------------

HAILFIRE = """
format = 2
title = "each opponent loses 3 life, X times"
players = ["Alice", "Bob", "Carol"]
[state]
life = {{ Bob = {bob}, Carol = {carol} }}
done = 0
[[step]]
by = "Alice"
does = "each opponent loses 3 life"
target = {{ among = ["Bob", "Carol"], order = "each" }}
add = {{ life = -3 }}
[[step]]
by = "Alice"
does = "one more repetition done"
add = {{ done = 1 }}
[[end]]
when = {{ value = "done", at_least = {x} }}
effect = "repeated X times"
[[end]]
when = {{ value = "life", at_most = 0 }}
effect = "that player loses the game"
loses = true
[loop]
within = "resolution"
"""


@pytest.mark.parametrize("key", ALL)
def test_every_repetition_happens_and_the_losers_lose_together_after(key):
    out = settle(key, HAILFIRE.format(bob=4, carol=5, x=3))
    # Both opponents lose when the spell has resolved: Alice is the one left, the game is over.
    assert (out.result.value, out.iterations, out.steps, out.ended_by) == ("ends", 3, 0, "repeated X times")
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Bob", 3, 0), ("Carol", 3, 0)]
    assert out.to_json()["state"]["life"] == {"Bob": -5, "Carol": -4}


@pytest.mark.parametrize("key", ALL)
def test_when_everyone_loses_at_the_end_of_the_resolution_the_game_is_a_draw(key):
    toml = HAILFIRE.format(bob=4, carol=5, x=3).replace("life = { Bob = 4, Carol = 5 }", "life = { Alice = 6, Bob = 4, Carol = 5 }")
    toml = toml.replace('among = ["Bob", "Carol"]', 'among = ["Alice", "Bob", "Carol"]')
    out = settle(key, toml)
    assert (out.result.value, out.iterations, out.steps) == ("draw", 3, 0)
    assert [e.player for e in out.eliminated] == ["Alice", "Bob", "Carol"]
    noted(out, "104.4a")


@pytest.mark.parametrize("key", ["cr-2024", "mtr-2018", "cr-2004"])
def test_losses_that_leave_one_player_end_the_game_with_the_repetitions_end(key):
    out = settle(key, HAILFIRE.format(bob=4, carol=50, x=3).replace('players = ["Alice", "Bob", "Carol"]', 'players = ["Alice", "Bob", "Carol"]'))
    assert (out.result.value, out.ended_by) == ("ends", "repeated X times")
    assert [e.player for e in out.eliminated] == ["Bob"]
    two = HAILFIRE.format(bob=4, carol=5, x=3).replace('["Alice", "Bob", "Carol"]', '["Alice", "Bob"]', 1)
    two = two.replace("life = { Bob = 4, Carol = 5 }", "life = { Bob = 4 }").replace('among = ["Bob", "Carol"]', 'among = ["Bob"]')
    out = settle(key, two)
    assert (out.result.value, out.iterations, out.ended_by) == ("ends", 3, "repeated X times")
    assert [(e.player, e.iterations) for e in out.eliminated] == [("Bob", 3)]


def test_a_mandatory_repetition_whose_only_end_is_a_loss_never_finishes():
    toml = HAILFIRE.format(bob=4, carol=5, x=3).replace('[[end]]\nwhen = { value = "done", at_least = 3 }\neffect = "repeated X times"\n', "")
    for key in ALL:
        out = settle(key, toml)
        assert (out.result.value, out.eliminated) == ("draw", ()), key


DRAIN_BY_CHOICE = """
format = 2
title = "a resolution Alice keeps going by choice, draining Bob"
players = ["Alice", "Bob", "Carol"]
[state]
life = { Bob = 3, Carol = 30 }
[[step]]
by = "Alice"
does = "Bob loses 1 life; Alice may repeat"
optional = true
target = { among = ["Bob"], order = "fixed" }
add = { life = -1 }
[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses the game"
loses = true
[loop]
within = "resolution"
[intent]
Alice = ALICE
"""


@pytest.mark.parametrize("key", ALL)
def test_a_chooser_who_stops_inside_a_resolution_leaves_the_losers_to_lose_then(key):
    out = settle(key, DRAIN_BY_CHOICE.replace("ALICE", "5"))
    assert (out.result.value, out.iterations, out.deviates) == ("shortcut", 5, "Alice")
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Bob", 5, 0)]
    assert out.to_json()["state"]["life"] == {"Bob": -2, "Carol": 30}
    noted(out, "704.3", "Bob loses the game at once")


@pytest.mark.parametrize("key", ALL)
def test_a_chooser_who_never_stops_leaves_whoever_is_drained_without_end_to_lose(key):
    out = settle(key, DRAIN_BY_CHOICE.replace("ALICE", '"never"'))
    assert (out.result.value, out.iterations, out.deviates) == ("shortcut", UNBOUNDED, "Alice")
    assert [(e.player, e.iterations) for e in out.eliminated] == [("Bob", UNBOUNDED)]


def test_the_chooser_inside_a_resolution_is_involved_under_the_2018_mtr_too():
    # The 2018 ruling that a choice is not an action concerns choices between actions at priority.
    out = settle("mtr-2018", DRAIN_BY_CHOICE.replace("ALICE", "2"))
    assert (out.result.value, out.iterations, out.deviates, out.eliminated) == ("shortcut", 2, "Alice", ())


# --- item 19: eliminations on the way to an endless loop ----------------------------------------

ON_THE_WAY = """
format = 2
title = "a mandatory drain that kills Carol, then goes on against a player who can't lose"
players = ["Alice", "Bob", "Carol"]
[state]
life = { Alice = 20, Bob = 20, Carol = 2 }
[[step]]
by = "Alice"
does = "target opponent loses 1 life: Carol while she is in, else Bob"
target = { among = ["Carol", "Bob"], order = "fixed" }
add = { life = -1 }
[[step]]
by = "Alice"
does = "Alice gains 1 life"
target = { among = ["Alice"], order = "fixed" }
add = { life = 1 }
[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses the game"
loses = true
except = ["Bob"]
"""


@pytest.mark.parametrize("key", [k for k in ALL if k != "summary-1998"])
def test_a_draw_is_reported_where_the_last_loser_on_the_way_leaves(key):
    out = settle(key, ON_THE_WAY)
    assert (out.result.value, out.iterations, out.steps) == ("draw", 1, 1)
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Carol", 1, 1)]
    assert out.to_json()["state"]["life"] == {"Alice": 21, "Bob": 20, "Carol": 0}
    noted(out, "FORMAT item 19")


# --- item 20: a step with nobody left to affect -------------------------------------------------


@pytest.mark.parametrize("key", ALL)
def test_a_step_with_nobody_left_to_affect_ends_the_loop(key):
    toml = ON_THE_WAY.replace('among = ["Carol", "Bob"]', 'among = ["Carol"]').replace('except = ["Bob"]\n', "")
    out = settle(key, toml)
    assert (out.result.value, out.iterations, out.steps, out.ended_by) == ("ends", 1, 1, "that player loses the game")
    assert [e.player for e in out.eliminated] == ["Carol"]
    assert any("nobody is left" in line for line in out.transcript + out.notes)


def test_a_side_benefit_with_nobody_left_is_skipped_and_the_loop_goes_on():
    toml = """
format = 2
title = "side benefit"
players = ["Alice", "Bob", "Carol"]
[state]
life = { Bob = 2, Carol = 20 }
tokens = 0
[[step]]
by = "Alice"
does = "makes a token"
optional = true
add = { tokens = 1 }
[[step]]
by = "Alice"
does = "may ping Bob"
optional = true
sustains = false
target = { among = ["Bob"], order = "fixed" }
add = { life = -1 }
[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses the game"
loses = true
[intent]
Alice = 5
"""
    out = settle("cr-2024", toml)
    assert (out.result.value, out.iterations) == ("shortcut", 5)
    assert out.to_json()["state"]["tokens"] == 5
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Bob", 2, 0)]


# --- item 21: except -----------------------------------------------------------------------------


def test_a_player_who_cant_lose_keeps_losing_life_and_stays():
    out = settle("cr-2024", ON_THE_WAY.replace('except = ["Bob"]', 'except = ["Bob", "Carol"]'))
    assert out.result.value == "draw" and out.eliminated == ()


@pytest.mark.parametrize(
    "change, words",
    [
        ('except = ["Bob"]', None),
        ('except = ["Zed"]', ["end 1", "except item 1", "'Zed'"]),
        ('except = []', ["end 1", "except", "one or more players"]),
        ('except = ["Bob", "Bob"]', ["end 1", "except", "twice"]),
        ('except = "Bob"', ["end 1", "except", "a list"]),
    ],
)
def test_except_names_players_of_the_file(change, words):
    toml = ON_THE_WAY.replace('except = ["Bob"]', change)
    if words is None:
        assert scenario(toml).scenario.ends[0].exempt == ("Bob",)
        return
    message = refused(toml)
    assert all(w in message for w in words), message


def test_except_is_for_per_player_values_and_needs_format_2():
    plain = ON_THE_WAY.replace("[[end]]", '[[end]]\nwhen = { value = "x", at_most = 0 }\neffect = "x"\nexcept = ["Bob"]\n[[end]]', 1)
    plain = plain.replace("[state]\n", "[state]\nx = 3\n", 1)
    assert "is not a per-player value" in refused(plain)
    one = """
title = "format 1"
players = ["Alice", "Bob"]
[state]
n = 1
[[step]]
by = "Alice"
does = "acts"
[[end]]
when = { value = "n", at_least = 3 }
except = ["Bob"]
"""
    assert "format = 2" in refused(one)


# --- item 22: outcome fields pinnable in a format 1 file -----------------------------------------

FORMAT_1 = """
title = "format 1 with format 2 pins"
players = ["Alice", "Bob"]
[state]
n = 0
[[step]]
by = "Alice"
does = "adds one"
optional = true
add = { n = 1 }
[intent]
Alice = 3
[expect.cr-2024]
result = "shortcut"
stopped_by = "intent"
eliminated = []
ends_early_if = "never"
"""


def test_a_format_1_file_may_pin_every_outcome_field(tmp_path):
    loaded = scenario(FORMAT_1)
    assert loaded.scenario.format == 1
    assert loaded.expect["cr-2024"]["stopped_by"] == "intent"
    path = tmp_path / "one.toml"
    path.write_text(FORMAT_1, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    # The pins are read and checked: ends_early_if is null for this loop, so check fails on it.
    assert result.exit_code == 1 and "ends_early_if" in result.output
    path.write_text(FORMAT_1.replace('ends_early_if = "never"\n', ""), encoding="utf-8")
    assert CliRunner().invoke(main, ["check", str(path)]).exit_code == 0


# --- issue 22 item 3: loader details -------------------------------------------------------------

FLOORED = """
format = 2
title = "mill Bob, who has a floor"
players = ["Alice", "Bob"]
[state]
library = { Bob = { start = 5, min = 0 } }
[[step]]
by = "Alice"
does = "Bob mills two"
optional = true
target = { among = ["Bob"], order = "fixed" }
add = { library = -2 }
[intent]
Alice = 10
"""


def test_a_per_player_entry_may_have_a_floor():
    loaded = scenario(FLOORED)
    assert loaded.scenario.state["library"] == {"Bob": 5}
    assert loaded.scenario.entry_limits["library"]["Bob"].min == 0
    out = settle("cr-2024", FLOORED)
    assert out.to_json()["state"] == {"library": {"Bob": 0}}


def test_a_per_player_floor_is_checked_like_a_plain_one():
    assert "outside [min, max]" in refused(FLOORED.replace("start = 5, min = 0", "start = -1, min = 0"))
    assert "unknown key" in refused(FLOORED.replace("start = 5, min = 0", "start = 5, least = 0"))
    assert "is required" in refused(FLOORED.replace("start = 5, min = 0", "min = 0"))


def test_a_floor_round_trips_through_the_document_written_from_a_scenario():
    from loopcompare.comparator.loader import to_document

    doc = to_document(scenario(FLOORED).scenario)
    assert doc["state"] == {"library": {"Bob": {"start": 5, "min": 0}}}


@pytest.mark.parametrize("name, warned", [("life", False), ("bob_life", False), ("toughness", False), ("mana", True)])
def test_the_no_floor_warning_is_for_resources_not_life_totals(name, warned):
    toml = f"""
title = "lowering"
players = ["Alice", "Bob"]
[state]
{name} = 5
[[step]]
by = "Alice"
does = "lowers it"
optional = true
add = {{ {name} = -1 }}
"""
    assert bool(scenario(toml).warnings) is warned


def test_the_dynamics_engine_clamps_a_per_player_entry_at_its_floor():
    dyn = Dynamics(scenario(FLOORED).scenario)
    assert dyn.run(10).state == {"library": {"Bob": 0}}
