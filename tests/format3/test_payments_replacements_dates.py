"""Format 3, part 1 (docs/FORMAT.md items 25-27, 31): payments that don't end the loop, a loss
replaced once, when a loop exists (``n/a``), and the keys that need ``format = 3``.

The scenario files beside this one pin every era's outcome (``[expect]``, checked by hand: the
arithmetic is in each test's comment); the naive player below plays payments and replacements
step by step, independently of the engine, for random small loops.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from loopcompare.comparator.cli import main
from loopcompare.comparator.compare import check, compare
from loopcompare.comparator.loader import ScenarioError, load, parse_bytes
from loopcompare.rulesets import registry
from loopcompare.rulesets.outcome import Result

HERE = Path(__file__).parent
SCENARIOS = HERE / "scenarios"
PART_1 = ("rhystic-study", "hailfire-payments", "lichs-mirror", "dated-loop")


def parse(text: str):
    return parse_bytes(text.encode("utf-8"), "case.toml", "case")


def refused(text: str) -> str:
    with pytest.raises(ScenarioError) as info:
        parse(text)
    return "\n".join(e.one_line() for e in (info.value.errors or (info.value,)))


def settle(text: str, key: str = "cr-2024"):
    return registry().get(key).settle(parse(text).scenario)


@pytest.mark.parametrize("name", PART_1)
def test_each_part_1_scenario_settles_as_pinned_in_every_era(name):
    sf = load(SCENARIOS / f"{name}.toml")
    assert len(sf.expect) == 9
    comparison = compare(sf, [registry().get(k) for k in sf.expect])
    assert check(comparison) == []


# --- payments -------------------------------------------------------------------------------------

RHYSTIC = """\
format = 3
title = "Rhystic Study"
players = ["Alice", "Bob"]

[state]
bob_mana = {{ start = {mana}, min = 0 }}
alice_cards = 0

[[step]]
by = "Alice"
does = "casts a spell"
optional = true

[[step]]
by = "Alice"
does = "Rhystic Study: she may draw a card"
add = {{ alice_cards = 1 }}
unless = {{ by = "Bob", does = "pays {{1}}", breaks = false, pay = {{ bob_mana = -1 }}{pays} }}

[intent]
Alice = {after}
"""


@pytest.mark.parametrize(
    "mana, pays, after, cards, left",
    [
        (3, "", 10, 7, 0),  # pays whenever able: 3 payments, then 7 cards
        (3, ', pays = "never"', 10, 10, 3),  # never pays: every draw happens
        (5, ", pays = 2", 10, 8, 3),  # the first 2 applications, then never
        (0, "", 4, 4, 0),  # can't pay at all
        (3, ", pays = 0", 6, 6, 3),  # "the first 0": never
    ],
)
def test_a_payment_prevents_the_effect_only_while_paid(mana, pays, after, cards, left):
    out = settle(RHYSTIC.format(mana=mana, pays=pays, after=after))
    assert out.result is Result.SHORTCUT and out.iterations == after
    assert out.state == {"bob_mana": left, "alice_cards": cards}


def test_payments_in_closed_form_a_googol_of_iterations():
    out = settle(RHYSTIC.format(mana='"10^50"', pays=", pays = 5", after='"10^100"'))
    assert out.state == {"bob_mana": 10**50 - 5, "alice_cards": 10**100 - 5}
    out = settle(RHYSTIC.format(mana='"10^50"', pays="", after='"10^100"'))
    assert out.state == {"bob_mana": 0, "alice_cards": 10**100 - 10**50}


def test_a_payment_makes_nobody_involved_and_is_no_point_to_deviate():
    # Bob only pays: the loop is Alice's alone, in every era, and no era's rule on breaking a loop applies.
    for ruleset in registry().rulesets:
        out = ruleset.settle(parse(RHYSTIC.format(mana=3, pays="", after=10)).scenario)
        assert out.deviates == "Alice", ruleset.key
        assert not any(r.endswith((".6", "421.6")) for r in out.rules), (ruleset.key, out.rules)
    # In a loop of mandatory actions, Bob's only role is to pay: no intent governs that (item 25).
    mandatory = RHYSTIC.format(mana=3, pays="", after=10).replace("optional = true\n", "").replace("Alice = 10\n", "Bob = 2\n")
    assert "only role in the loop is to pay" in refused(mandatory)
    # Where Alice's loop has optional actions, Bob may still intervene (421.2, 729.2b): an intent is his.
    assert parse(RHYSTIC.format(mana=3, pays="", after=10) + "Bob = 2\n").scenario.intents["Bob"].after == 2


def test_each_era_says_how_it_reads_a_payment():
    text = RHYSTIC.format(mana=3, pays="", after=10)
    assert "729.2a" in settle(text, "cr-2024").rules
    assert any("729.2b" in n for n in settle(text, "cr-2024").notes)
    assert any("identical in each iteration" in n for n in settle(text, "mtr-current").notes)
    assert any("neither" in n for n in settle(text, "cr-2004").notes)


def test_targeted_players_pay_for_themselves_with_the_first_cost_they_can():
    # Bob: 2 permanents + 1 card = 3 payments, then 9 x 3 life: 20 - 27 = -7; Carol: 3 cards, the same.
    sf = load(SCENARIOS / "hailfire-payments.toml")
    out = registry().get("cr-2024").settle(sf.scenario)
    assert out.state["permanents"] == {"Alice": 5, "Bob": 0, "Carol": 0}
    assert out.state["hand"] == {"Alice": 5, "Bob": 0, "Carol": 0}
    assert out.state["life"] == {"Alice": 20, "Bob": -7, "Carol": -7}
    assert [e.player for e in out.eliminated] == ["Bob", "Carol"]


# --- a loss replaced once ---------------------------------------------------------------------------


def test_a_loss_is_replaced_once_then_the_end_acts():
    # Bob at 7 loses 1 per iteration: at 0 after 6 iterations and 1 step, Lich's Mirror sets 20;
    # 20 more: he loses after 26 iterations and 1 step. Alice gained 1 in each of 26 iterations.
    out = registry().get("cr-2024").settle(load(SCENARIOS / "lichs-mirror.toml").scenario)
    assert (out.result, out.iterations, out.steps) == (Result.ENDS, 26, 1)
    assert out.state["life"] == {"Alice": 46, "Bob": 0}
    assert any("replaced, once" in line and "6 iterations and 1 step" in line for line in out.transcript)
    assert any("FORMAT item 26" in n for n in out.notes)


LICH_GOOGOL = """\
format = 3
title = "A replaced loss, far away"
players = ["Alice", "Bob"]

[state]
life = {{ Alice = 20, Bob = {life} }}

[[step]]
by = "Alice"
does = "drains"
target = {{ among = ["Bob"], order = "fixed" }}
add = {{ life = -1 }}

[[end]]
when = {{ value = "life", at_most = 0 }}
loses = true
effect = "life 0"
instead = {{ player = "Bob", set = {{ life = {again} }} }}
once = true
"""


def test_a_replacement_costs_the_same_far_away():
    out = settle(LICH_GOOGOL.format(life='"10^100"', again='"10^99"'))
    assert out.result is Result.ENDS
    assert out.iterations == 10**100 + 10**99
    assert out.state["life"]["Bob"] == 0


def test_inside_a_resolution_the_replacement_comes_at_the_stop():
    text = LICH_GOOGOL.format(life=3, again=20).replace("[state]", '[loop]\nwithin = "resolution"\n\n[state]')
    text = text.replace('does = "drains"', 'does = "drains"\nchoice = true\nalternative = "stops"').replace('by = "Alice"', 'by = "Alice"', 1)
    text += "\n[intent]\nAlice = 5\n"
    out = settle(text)
    # Bob at 3 - 5 = -2 when the repetition stops: his loss is replaced (life 20), nobody loses.
    assert out.state["life"]["Bob"] == 20
    assert out.eliminated == ()


# --- when a loop exists -----------------------------------------------------------------------------


def test_eras_before_the_loops_date_give_n_a_with_the_reason():
    sf = load(SCENARIOS / "dated-loop.toml")
    for ruleset in registry().rulesets:
        out = ruleset.settle(sf.scenario)
        before = ruleset.key in ("summary-1998", "cr-2004", "cr-2005")
        assert (out.result is Result.NOT_APPLICABLE) == before, ruleset.key
        if before:
            assert out.rules == () and out.notes == ("Time Vault: Oracle text of 2008-10-01",)
    # mtr-2018's last day is unknown: never n/a; a loop dated after its first day gets a note.
    assert not any("last day is unknown" in n for n in registry().get("mtr-2018").settle(sf.scenario).notes)
    later = (SCENARIOS / "dated-loop.toml").read_text(encoding="utf-8").split("[expect")[0].replace("2008-10-01", "2020-01-01")
    out = registry().get("mtr-2018").settle(parse(later).scenario)
    assert out.result is Result.SHORTCUT and any("last day is unknown" in n for n in out.notes)
    assert registry().get("cr-2009-09").settle(parse(later).scenario).result is Result.SHORTCUT


def test_n_a_counts_in_differences_with_its_result_only():
    sf = load(SCENARIOS / "dated-loop.toml")
    comparison = compare(sf, [registry().get(k) for k in ("cr-2004", "cr-2008", "cr-2024")])
    assert comparison.differences == ("result",)


def test_a_loop_dated_on_a_rulesets_first_day_is_its_own():
    text = (SCENARIOS / "dated-loop.toml").read_text(encoding="utf-8").split("[expect")[0]
    text = text.replace('oracle_from = "2008-10-01"', 'oracle_from = "2008-09-30"')
    assert settle(text, "cr-2005").result is Result.SHORTCUT
    text = text.replace('oracle_from = "2008-09-30"', 'oracle_from = "2008-10-01"')
    assert settle(text, "cr-2005").result is Result.NOT_APPLICABLE
    assert settle(text, "cr-2008").result is Result.SHORTCUT


def test_as_of_before_the_loops_date_says_it_did_not_exist_yet():
    result = CliRunner().invoke(main, ["compare", str(SCENARIOS / "dated-loop.toml"), "--as-of", "2005-01-01", "-f", "json"])
    assert result.exit_code == 0, result.output
    assert '"result": "n/a"' in result.output and "didn't exist yet" in result.output
    result = CliRunner().invoke(main, ["compare", str(SCENARIOS / "dated-loop.toml"), "--as-of", "2015-01-01", "-f", "json"])
    assert '"result": "shortcut"' in result.output and '"n/a"' not in result.output


def test_exists_from_needs_its_reason_and_the_latest_date_wins():
    base = (SCENARIOS / "dated-loop.toml").read_text(encoding="utf-8").split("[expect")[0]
    assert "'because': is required with 'exists_from'" in refused(base.replace("[state]", '[loop]\nexists_from = "2001-01-01"\n\n[state]'))
    text = base.replace("[state]", '[loop]\nexists_from = "2010-05-05"\nbecause = "the combo piece was printed"\n\n[state]')
    sc = parse(text).scenario
    assert sc.exists_since == "2010-05-05" and sc.why_not_before == "the combo piece was printed"
    assert settle(text, "cr-2008").result is Result.NOT_APPLICABLE


# --- the loader -----------------------------------------------------------------------------------

PLAIN = """\
format = {format}
title = "t"
players = ["Alice", "Bob"]

[state]
x = {{ start = 5, min = 0 }}
life = {{ Alice = 20, Bob = 20 }}

[[step]]
by = "Alice"
does = "acts"
optional = true
{step}

[[step]]
by = "Alice"
does = "hits"
target = {{ among = ["Bob"], order = "fixed" }}
add = {{ life = -1 }}
{step2}
{extra}
"""


def doc(step: str = "", step2: str = "", extra: str = "", format: int = 3) -> str:
    return PLAIN.format(format=format, step=step, step2=step2, extra=extra)


@pytest.mark.parametrize(
    "text, fragment",
    [
        (doc(step="priority = false", format=2), "step 1: 'priority': 'priority' is format 3"),
        (doc(step='unless = { by = "Bob", does = "pays", breaks = false, pay = { x = -1 } }', format=2), "'unless.breaks': 'breaks' is format 3"),
        (doc(extra='[[card]]\nname = "Time Vault"\n', format=2), "'card': 'card' is format 3"),
        (doc(extra='[[end]]\nwhen = { value = "x", at_most = 0 }\ninstead = { set = { x = 5 } }\nonce = true\n', format=2), "'instead' is format 3"),
        (doc(step='unless = { by = "Bob", does = "pays", pay = { x = -1 } }'), "'unless.pay': describes a payment that doesn't end the loop: it needs 'breaks = false'"),
        (doc(step='unless = { by = "Bob", does = "pays", breaks = false, pay = { x = -1 }, pay_any = [{ x = -1 }] }'), "give one of the two"),
        (doc(step='unless = { by = "Bob", does = "pays", breaks = false, pay = { y = -1 } }'), "'unless.pay.y'"),
        (doc(step='unless = { by = "Bob", does = "pays", breaks = false, pays = "sometimes" }'), "'unless.pays': expected \"always\", \"never\" or a number"),
        (doc(step='unless = { by = "Bob", does = "pays", breaks = false, still_resolves = 1 }'), "a payment ('breaks = false') doesn't break it"),
        (doc(step='unless = { by = "target", does = "pays", breaks = false }'), "the step has no 'target'"),
        (doc(step2='unless = { by = "target", does = "pays" }'), "is \"target\", which is for payments"),
        (doc(step='unless = { by = "Bob", does = "pays", still_resolves = 3 }'), "'unless.still_resolves': is 3, more than one iteration's 2 steps"),
        (doc(step="priority = false\n" + 'unless = { by = "Bob", does = "responds" }'), "step 1: 'priority': is false on a step with an 'unless' that breaks the loop"),
        (doc(extra='[[end]]\nwhen = { value = "x", at_most = 0 }\ninstead = { set = { x = 5 } }\n'), "'once': must be true with 'instead'"),
        (doc(extra='[[end]]\nwhen = { value = "x", at_most = 0 }\nonce = true\n'), "'once': goes with 'instead'"),
        (doc(extra='[[end]]\nwhen = { value = "life", at_most = 0 }\nloses = true\ninstead = { set = { life = 20 } }\nonce = true\n'), "'instead.player': is required on an end of a per-player value"),
        (doc(extra='[[card]]\nname = "Time Vault"\noracle_from = 2008-10-01\n'), "write the date as a string"),
        (doc(extra='[[card]]\nname = "Time Vault"\noracle_from = "1990-01-01"\n'), "before 1993-08-05"),
        (doc(extra='[[card]]\nname = "Time Vault"\noracle_from = "2999-01-01"\n'), "is in the future"),
        (doc(extra='[[card]]\nname = "Time Vault"\noracle_from = "2008-02-30"\n'), "not a day of the calendar"),
        (doc(extra='[[card]]\noracle_from = "2008-10-01"\n'), "card 1: 'name': is required"),
    ],
)
def test_bad_format_3_input_names_the_file_and_the_key(text, fragment):
    message = refused(text)
    assert message.startswith("case.toml"), message
    assert fragment in message, message


def test_bad_input_exits_2_with_no_traceback(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(doc(step="priority = false", format=2), encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", str(path)])
    assert result.exit_code == 2
    assert "bad.toml" in result.output and "priority" in result.output and "Traceback" not in result.output


def test_priority_false_inside_a_resolution_is_redundant():
    text = doc(step="priority = false\nchoice = true", step2="").replace("[state]", '[loop]\nwithin = "resolution"\n\n[state]')
    text = text.replace("optional = true\n", "")
    sf = parse(text.replace("choice = true", 'choice = true\nalternative = "stops"'))
    assert any("redundant inside one resolution" in w for w in sf.warnings)


def test_format_3_keys_survive_to_document_and_back():
    from loopcompare.comparator.loader import to_document, validate

    for name in PART_1:
        sc = load(SCENARIOS / f"{name}.toml").scenario
        assert to_document(validate(sc).scenario) == to_document(sc)
        assert to_document(sc)["format"] == 3


# --- the naive player: payments and one replacement, step by step ------------------------------------


def _naive(mana: int, pays: str | int, price: int, gain: int, life: int, again: int, iterations: int) -> tuple[int, int, int]:
    """Alice's loop: Bob pays ``price`` mana or Alice gains ``gain`` cards; then Bob loses 1 life,
    replaced once by ``again``. Returns (mana, cards, life) after ``iterations`` or at Bob's loss."""
    cards, used, paid = 0, False, 0
    for _ in range(iterations):
        allowed = pays == "always" or (isinstance(pays, int) and paid < pays)
        if allowed and mana - price >= 0:
            mana -= price
            paid += 1
        else:
            cards += gain
        life -= 1
        if life <= 0:
            if not used:
                used, life = True, again
            else:
                break
    return mana, cards, life


NAIVE = """\
format = 3
title = "naive"
players = ["Alice", "Bob"]

[state]
mana = {{ start = {mana}, min = 0 }}
cards = 0
life = {{ start = {life} }}

[[step]]
by = "Alice"
does = "draws unless Bob pays"
optional = true
add = {{ cards = {gain} }}
unless = {{ by = "Bob", does = "pays", breaks = false, pay = {{ mana = -{price} }}, pays = {pays} }}

[[step]]
by = "Alice"
does = "drains"
add = {{ life = -1 }}

[[end]]
when = {{ value = "life", at_most = 0 }}
effect = "Bob at 0"
instead = {{ set = {{ life = {again} }} }}
once = true

[intent]
Alice = {n}
"""


def test_the_engine_agrees_with_a_naive_player_step_by_step():
    rng = random.Random(28)
    for _ in range(120):
        mana, price, gain = rng.randint(0, 9), rng.randint(1, 3), rng.randint(1, 3)
        life, again, n = rng.randint(1, 12), rng.randint(1, 12), rng.randint(1, 30)
        pays = rng.choice(["always", "never", 0, 1, 2, 5])
        text = NAIVE.format(mana=mana, life=life, gain=gain, price=price, pays=f'"{pays}"' if isinstance(pays, str) else pays, again=again, n=n)
        out = settle(text)
        want = _naive(mana, pays, price, gain, life, again, n)
        got = (out.state["mana"], out.state["cards"], out.state["life"])
        assert got == want, text
