"""The project's shape: layering, documentation of every command, packaged data."""

from __future__ import annotations

import ast
import re

from click.testing import CliRunner

from loopcompare.comparator.cli import main
from loopcompare.rulesets import registry

from helpers import ROOT


def test_the_layers_hold_over_the_resolved_import_graph(capsys):
    # The layers show in the folders: rulesets/ is the domain and imports nothing from comparator/ nor any face library.
    # import-linter resolves every import (relative ones and those inside functions too) from the
    # installed package; the contracts live in pyproject.toml [tool.importlinter]. Checked by
    # breaking it once: an import of loopcompare.comparator.loader inside a function of
    # rulesets/texts.py makes this test fail, naming the contract.
    from importlinter.cli import lint_imports

    status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    report = capsys.readouterr().out
    assert status == 0, report
    assert "5 kept, 0 broken" in report


def test_the_domain_never_imports_the_comparator_even_relatively():
    # The same rule read straight off the source, relative imports resolved: independent of the
    # installed copy, so a checkout's own files are what is checked.
    offenders = []
    for path in sorted((ROOT / "rulesets").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level >= 2:
                    names = [f"loopcompare.{node.module or ''}"]
                elif node.level == 0 and node.module:
                    names = [node.module]
            for name in names:
                top = name.split(".")
                if top[0] in {"comparator", "click", "jinja2", "tabulate"} or top[:2] == ["loopcompare", "comparator"]:
                    offenders.append(f"{path.name}:{node.lineno}: {name}")
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
