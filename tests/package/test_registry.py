"""The registry, in process: the plugin contract, clashes, the built-ins' fallback, selection.

tests/package/test_plugins.py installs real plugin packages and runs loopcompare in subprocesses; these
tests call :func:`loopcompare.rulesets.registry.build` directly with loaders made here, so each
rule of the contract has a test that names it.
"""

from __future__ import annotations

import tomllib

import pytest

from helpers import ROOT
from loopcompare.rulesets import registry
from loopcompare.rulesets.base import Ruleset
from loopcompare.rulesets.cr421 import Cr2004
from loopcompare.rulesets.shortcuts import Cr2024
from loopcompare.rulesets.registry import (
    BUILTIN,
    MISSION,
    Registry,
    UnknownRuleset,
    _builtin_loader,
    _moved,
    build,
    chronological,
)


class House(Ruleset):
    """A minimal ruleset that meets the contract."""

    key = "house"
    aliases = ("home",)
    name = "House rules"
    document = "The house's loop rule"
    effective = "2030-01-01"
    in_force = ("2030-01-01", None)


def ruleset(**attrs) -> type:
    """A subclass of :class:`House` with some attributes changed."""
    return type("Variant", (House,), attrs)


def entry(cls, name: str = "plugin"):
    return (name, lambda: cls)


def problems(reg: Registry) -> dict[str, str]:
    return {p.name: p.error for p in reg.problems}


# --- the contract -----------------------------------------------------------------------------------


def test_a_ruleset_that_meets_the_contract_is_registered():
    reg = build([entry(House)])
    assert reg.keys() == ("house",) and not reg.problems
    assert reg.get("home") is reg.get("house")


def test_a_plugin_that_is_not_a_ruleset_subclass_is_refused():
    reg = build([entry(object, "not-a-class"), entry(House(), "an-instance")])
    assert reg.keys() == ()
    assert "is not a subclass of loopcompare.rulesets.base.Ruleset" in problems(reg)["not-a-class"]
    assert "is not a subclass" in problems(reg)["an-instance"]


@pytest.mark.parametrize("attr", ["key", "name", "document", "effective"])
def test_each_identity_string_must_be_set(attr):
    for value in ("", None, 2030):
        reg = build([entry(ruleset(**{attr: value}))])
        assert reg.keys() == ()
        assert problems(reg)["plugin"] == f"Variant.{attr} must be a non-empty string"


@pytest.mark.parametrize("in_force", [(), ("", None), ("", "2031-01-01")])
def test_in_force_must_give_the_first_day(in_force):
    # Either missing part is enough to refuse: no tuple at all, or an empty first day.
    reg = build([entry(ruleset(in_force=in_force))])
    assert reg.keys() == ()
    assert problems(reg)["plugin"] == "Variant.in_force must give the first day the text was in force"


def test_in_force_with_a_first_day_and_no_last_is_accepted():
    reg = build([entry(ruleset(in_force=("2030-01-01", None)))])
    assert reg.keys() == ("house",) and not reg.problems


def test_a_plugin_that_fails_to_load_is_reported_and_the_others_still_run():
    def broken():
        raise RuntimeError("no such thing")

    reg = build([("broken", broken), entry(House)])
    assert reg.keys() == ("house",)
    assert problems(reg)["broken"] == "failed to load: RuntimeError: no such thing"


def test_a_plugin_written_for_the_old_import_path_is_told_the_new_one():
    def old():
        raise ModuleNotFoundError("No module named 'rulesets'", name="rulesets.base")

    error = problems(build([("old", old)]))["old"]
    assert "import from 'loopcompare.rulesets.base' instead" in error
    assert _moved(ModuleNotFoundError("x", name="somewhere.else")) == ""
    assert _moved(ValueError("rulesets")) == ""


def test_a_key_or_alias_already_taken_is_refused_and_the_first_keeps_it():
    clash_key = ruleset(aliases=())
    clash_alias = ruleset(key="other", aliases=("home",))
    reg = build([entry(House, "first"), entry(clash_key, "second"), entry(clash_alias, "third")])
    assert reg.keys() == ("house",)
    assert reg.get("home").__class__ is House
    assert "refused: key or alias 'house' is already used by" in problems(reg)["second"]
    assert "refused: key or alias 'home' is already used by" in problems(reg)["third"]


def test_a_plugin_cannot_take_a_built_in_key():
    imposter = ruleset(key="cr-2024", aliases=())
    entries = [(name, _builtin_loader(target)) for name, target in BUILTIN.items()] + [entry(imposter, "imposter")]
    built = build(entries)
    assert built.get("cr-2024").__class__ is Cr2024
    assert "'cr-2024' is already used by loopcompare.rulesets.shortcuts.Cr2024" in problems(built)["imposter"]


# --- the built-ins --------------------------------------------------------------------------------


def test_the_fallback_loader_of_each_built_in_gives_its_class():
    # Used when the package metadata is missing (a bare source tree): each must load a real class.
    for key, target in BUILTIN.items():
        cls = _builtin_loader(target)()
        assert isinstance(cls, type) and issubclass(cls, Ruleset), key
        assert cls.key == key
    assert _builtin_loader("loopcompare.rulesets.cr421:Cr2004")() is Cr2004


def test_built_ins_load_from_the_fallback_alone():
    built = build([(name, _builtin_loader(target)) for name, target in BUILTIN.items()])
    assert not built.problems
    assert set(built.keys()) == set(BUILTIN)


def test_the_fallback_table_is_the_entry_point_table():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert BUILTIN == declared["project"]["entry-points"]["loopcompare.rulesets"]


# --- order and selection --------------------------------------------------------------------------


def test_rulesets_are_in_chronological_order_and_a_current_text_comes_last():
    later = ruleset(key="later", aliases=(), effective="2031-01-01", in_force=("2031-01-01", None))
    current = ruleset(key="now", aliases=(), effective="current", in_force=("unknown", None))
    reg = build([entry(current, "a"), entry(later, "b"), entry(House, "c")])
    assert reg.keys() == ("house", "later", "now")
    assert chronological(current()) > chronological(later())


def test_select_with_no_names_gives_the_mission_in_chronological_order():
    reg = registry()
    assert tuple(r.key for r in reg.select([])) == MISSION


def test_select_keeps_the_order_named_and_names_each_ruleset_once():
    reg = registry()
    assert [r.key for r in reg.select(["mtr", "cr-2004", "cr-current", "cr729"])] == ["mtr-current", "cr-2004", "cr-2024"]
    everything = reg.select(["cr-2024", "all"])
    assert everything[0].key == "cr-2024" and len(everything) == len(reg.rulesets)


def test_an_unknown_name_lists_the_keys_not_the_aliases():
    reg = build([entry(House)])
    with pytest.raises(UnknownRuleset) as raised:
        reg.get("hose")
    assert str(raised.value) == "unknown ruleset 'hose' (did you mean 'house'?); known rulesets: house"
    bare = build([entry(ruleset(aliases=()))])
    with pytest.raises(UnknownRuleset) as raised:
        bare.get("x")
    assert str(raised.value) == "unknown ruleset 'x'; known rulesets: house"


def test_texts_of_the_same_date_are_ordered_by_their_first_day_in_force():
    # The date of the text applied comes first; on a tie, the first day it was in force.
    early = ruleset(key="early", aliases=(), effective="2030-01-01", in_force=("2030-01-01", "2030-06-30"))
    late = ruleset(key="late", aliases=(), effective="2030-01-01", in_force=("2030-07-01", None))
    reg = build([entry(late, "a"), entry(early, "b")])
    assert reg.keys() == ("early", "late")


def test_the_registry_is_built_once_per_process():
    # Plugins are imported, and their problems reported, once: every caller shares one registry.
    assert registry() is registry()
