"""The nested real loops of issue 29 (FORMAT item 29), pinned in all nine rulesets, every number
worked out by hand (written before the engine for inner loops existed, and unchanged since).
"""

from __future__ import annotations

from typing import Any

import pytest

from loopcompare.comparator.compare import compare
from loopcompare.comparator.library import load_builtin
from loopcompare.rulesets import registry

ALL = ("summary-1998", "cr-2004", "cr-2005", "cr-2008", "cr-2009", "cr-2009-09", "mtr-2018", "cr-2024", "mtr-current")


def _not_applicable(start: dict[str, Any]) -> dict[str, Any]:
    return {
        "result": "n/a",
        "iterations": None,
        "steps": 0,
        "deviates": None,
        "last_action": None,
        "state": start,
        "rules": [],
        "stopped_by": None,
        "inner": None,
        "inner_results": {},
    }


# --- Grim Monolith, Power Artifact, Staff of Domination ---------------------------------------
# Inner round: +3 (tap), -2 (untap, {4} less 2): +1.  A run from 0 mana until mana >= 6 takes 6
# inner rounds (after k rounds: k mana).  Outer round: run, Staff -5, untap -1: back to 0 mana, one
# card drawn.  Library 30 -> goal at most 5 after 25 outer rounds.  Alice alone, deterministic:
# a shortcut of 25 in every era that settles it, the inner loop a shortcut too (item 29).  Dated by
# Staff of Domination (2004-06-04): only summary-1998 (to 1999-04-22) gives n/a.
GRIM = "grim-monolith-power-artifact-staff-of-domination-nested"
GRIM_START = {"mana": 0, "library": 30}
GRIM_SETTLED = {
    "result": "shortcut",
    "iterations": 25,
    "steps": 0,
    "deviates": "Alice",
    "last_action": "Alice",
    "state": {"mana": 0, "library": 5},
    "stopped_by": "intent",
    "inner": None,
    "inner_results": {"monolith": "shortcut"},
}
GRIM_EXPECTED = {era: _not_applicable(GRIM_START) if era == "summary-1998" else GRIM_SETTLED for era in ALL}

# --- Kinnan, Bonder Prodigy, Basalt Monolith, Thrasios, Triton Hero ----------------------------
# Inner round: +4 (3, and Kinnan's 1), -3 (untap): +1.  A run from 0 until mana >= 4: 4 inner rounds;
# Thrasios -4: back to 0, one card off the library; library 40 -> at most 30 after 10 outer rounds.
# The outer loop has a conditional action (what Thrasios reveals), the inner none.  CR since 2009
# (713.2a / 729.2a, "can't include conditional actions") and MTR 4.4 (non-deterministic loops "may
# not be shortcut"): no_shortcut, played out without a cut point (DOMAIN section 6: the MTR's
# repeated-state stop doesn't apply, the library only goes down and Thrasios needs a card in it);
# the deterministic inner loop may be proposed on its own: shortcut (item 29).  Dated by Kinnan
# (2020-04-24): the five rulesets whose period ends before give n/a.
KINNAN = "kinnan-basalt-monolith-thrasios-nested"
KINNAN_START = {"mana": 0, "library": 40}
KINNAN_SETTLED = {
    "result": "no_shortcut",
    "iterations": None,
    "steps": 0,
    "deviates": None,
    "last_action": None,
    "state": KINNAN_START,
    "stopped_by": None,
    "inner": None,
    "inner_results": {"basalt": "shortcut"},
}
KINNAN_EXPECTED = {
    **{era: _not_applicable(KINNAN_START) for era in ("summary-1998", "cr-2004", "cr-2005", "cr-2008", "cr-2009")},
    "cr-2009-09": KINNAN_SETTLED,
    "cr-2024": KINNAN_SETTLED,
    "mtr-2018": KINNAN_SETTLED,
    "mtr-current": KINNAN_SETTLED,
}


@pytest.mark.parametrize("name, expected", [(GRIM, GRIM_EXPECTED), (KINNAN, KINNAN_EXPECTED)], ids=["grim", "kinnan"])
def test_a_nested_loop_settles_as_worked_out_by_hand_in_all_nine_rulesets(name: str, expected: dict[str, dict[str, Any]]) -> None:
    comparison = compare(load_builtin(name), registry().select(["all"]))
    assert set(comparison.outcomes) == set(ALL)
    for era, want in expected.items():
        got = comparison.outcomes[era].to_json()
        wrong = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
        assert not wrong, f"{name} {era}: (got, expected by hand) {wrong}"
