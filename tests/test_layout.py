"""The project's shape: layering, documentation of every command, packaged data."""

from __future__ import annotations

import ast
import re

from click.testing import CliRunner

from loopcompare.comparator.cli import main
from loopcompare.rulesets import registry

from conftest import ROOT


def _imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def test_the_domain_never_imports_the_comparator():
    # STYLE.md 1: rulesets/ is the domain and imports nothing from comparator/.
    offenders = [
        f"{path.name}: {name}"
        for path in sorted((ROOT / "rulesets").glob("*.py"))
        for name in _imports(path)
        if name.split(".")[0] in {"comparator", "click", "jinja2", "tabulate"}
    ]
    assert not offenders


def test_every_command_has_help_and_is_documented_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name, command in main.commands.items():
        assert command.help, f"{name} has no help text"
        assert f"loopcompare {name}" in readme, f"README does not document 'loopcompare {name}'"
        result = CliRunner().invoke(main, [name, "--help"])
        assert result.exit_code == 0


def test_every_ruleset_is_in_the_readme_table():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for ruleset in registry().rulesets:
        assert re.search(rf"^\| `{re.escape(ruleset.key)}` \|", readme, re.M), ruleset.key


def test_every_cited_rule_text_is_shipped():
    # Each ruleset can quote every rule it numbers, from the package's own data files.
    for ruleset in registry().rulesets:
        for rule_id in ruleset.rule_ids:
            if rule_id.startswith("MTR"):
                continue  # the MTR's paragraphs are quoted one by one
            assert ruleset.quote(rule_id).strip(), (ruleset.key, rule_id)
        if ruleset.draw_rule:
            assert ruleset.quote(ruleset.draw_rule), ruleset.key


def test_the_class_tree_agrees_with_amends_and_overrides():
    # A ruleset subclasses the ruleset its document amends, or the one it overrides (the MTR over
    # the CR); the class tree never says something `amends` doesn't.
    from loopcompare.rulesets.registry import registry

    by_class = {type(r): r for r in registry().rulesets if type(r).__module__.startswith("loopcompare.")}
    checked = 0
    for cls, ruleset in by_class.items():
        parent = cls.__mro__[1]
        if parent in by_class:
            checked += 1
            assert by_class[parent].key in (ruleset.amends, ruleset.overrides), (
                f"{cls.__name__} subclasses {parent.__name__} but neither amends nor overrides {by_class[parent].key}"
            )
        if ruleset.amends is not None:
            assert ruleset.amends in {r.key for r in by_class.values()}, ruleset.amends
    assert checked >= 5
