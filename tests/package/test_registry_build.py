"""Building the registry from entry points (rulesets/registry.py ``build``), pinned case by case.

A broken plugin is reported, never fatal: an object that is not a Ruleset, a class whose
contract fails, an import that fails (with a hint when it uses the pre-0.2 package names).
README, "Mutation testing": each test names the case a changed operator broke.
"""

from __future__ import annotations

from loopcompare.rulesets.registry import OLD_PACKAGES, _moved, build, registry


def test_an_import_of_an_old_package_name_gets_the_new_path_as_a_hint():
    for top in OLD_PACKAGES:
        hint = _moved(ModuleNotFoundError(f"No module named '{top}.base'", name=f"{top}.base"))
        assert f"'loopcompare.{top}.base'" in hint and "since loopcompare 0.2" in hint


def test_another_missing_module_gets_no_hint():
    assert _moved(ModuleNotFoundError("No module named 'numpy'", name="numpy")) == ""
    assert _moved(ModuleNotFoundError("no name")) == ""
    assert _moved(ImportError("rulesets")) == ""


def test_an_entry_that_is_not_a_ruleset_is_a_problem_and_the_rest_load():
    good = type(registry().get("cr-2024"))
    reg = build([("bad", lambda: object), ("good", lambda: good)])
    assert [r.key for r in reg.rulesets] == ["cr-2024"]
    (problem,) = reg.problems
    assert problem.name == "bad" and "is not a subclass" in problem.error


def test_a_ruleset_class_with_a_broken_contract_is_a_problem():
    good = type(registry().get("cr-2024"))
    broken = type("Broken", (good,), {"key": "broken-x", "name": ""})
    reg = build([("broken", lambda: broken)])
    assert list(reg.rulesets) == []
    (problem,) = reg.problems
    assert "Broken.name must be a non-empty string" in problem.error
