"""Every entry of the built-in library is checked (docs/LIBRARY.md): it validates with --strict, it
settles under every registered ruleset, and the outcomes it pins hold.

A real loop (a file with [[oracle]] tables) cites its cards and pins only what a published ruling
decides: each [expect.<era>] it holds is an era one of its [[ruling]] tables speaks to.  Where the
tool settles a loop to something a ruling contradicts, the file keeps the ruling's pin and the entry
is listed in :data:`KNOWN_WRONG` with the reason, and its check is an expected failure (strict: it
fails the suite once the tool is fixed, so the list is kept short).
"""

from __future__ import annotations

import pytest

from loopcompare.comparator.compare import check, compare
from loopcompare.comparator.library import load_builtin, names
from loopcompare.rulesets import registry

from library_known_wrong import KNOWN_WRONG

NAMES = names()
#: Abstract scenarios whose warning is the point they make (an intent nobody can act on).
WARN_ON_PURPOSE = {
    "seal-too-late": "Bob's intent has no point to deviate: the Seal was not used in time",
    "two-outs": "Alice's intent has no point to deviate in a loop of mandatory actions",
}


def test_the_library_is_there():
    assert len(NAMES) >= 57
    assert set(KNOWN_WRONG) <= set(NAMES), sorted(set(KNOWN_WRONG) - set(NAMES))


@pytest.mark.parametrize("name", NAMES)
def test_an_entry_validates_strictly_and_settles_under_every_ruleset(name):
    sf = load_builtin(name)
    # `validate --strict` refuses warnings; a real loop (one with [[oracle]]) has none.
    assert bool(sf.warnings) == (name in WARN_ON_PURPOSE and not sf.scenario.oracle), sf.warnings
    comparison = compare(sf, registry().select(["all"]))
    assert set(comparison.outcomes) == set(registry().keys())


@pytest.mark.parametrize("name", [n if n not in KNOWN_WRONG else pytest.param(n, marks=pytest.mark.xfail(reason=KNOWN_WRONG[n], strict=True)) for n in NAMES])
def test_an_entrys_pins_hold(name):
    sf = load_builtin(name)
    if not sf.expect:
        # Only a real loop may pin nothing (no ruling, or none whose words decide an outcome
        # field); it says so in its description.
        assert sf.scenario.oracle, f"{name} pins nothing"
        assert "computed" in sf.scenario.description, f"{name}: say in the description that every era's outcome is computed"
        return
    problems = check(compare(sf, [registry().get(k) for k in sf.expect]))
    assert problems == [], "\n".join(map(str, problems))


REAL = [n for n in NAMES if load_builtin(n).scenario.oracle]


@pytest.mark.parametrize("name", REAL)
def test_a_real_loop_pins_only_what_its_rulings_decide(name):
    sc = load_builtin(name).scenario
    assert sc.source or sc.rulings, f"{name} cites nothing"
    spoken = {era for r in sc.rulings for era in r.eras}
    pinned = set(load_builtin(name).expect)
    assert pinned <= spoken, f"{name} pins {sorted(pinned - spoken)}, which none of its rulings speaks to"
    for card in sc.oracle:
        assert card.source.startswith(("https://", "http://")), f"{name}: {card.name}'s Oracle text needs a public address"


# FORMAT item 16: a random repetition a chooser keeps going inside one resolution is settled as
# the same loop at priority would be (it was a shortcut in every era before issue 22).
@pytest.mark.parametrize("era", ["summary-1998", "mtr-2018", "mtr-current"])
def test_ad_nauseams_random_reveals_count_inside_the_resolution(era):
    import dataclasses

    from loopcompare.comparator.loader import validate

    sf = load_builtin("ad-nauseam")
    at_priority = validate(dataclasses.replace(sf.scenario, loop=dataclasses.replace(sf.scenario.loop, within="priority")))
    ruleset = registry().get(era)
    inside = compare(sf, [ruleset]).outcomes[era].result
    outside = compare(at_priority, [ruleset]).outcomes[era].result
    assert outside.value in ("no_shortcut", "unspecified")  # how each era settles the chance at priority
    assert inside == outside
