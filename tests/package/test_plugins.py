"""Third-party rulesets through real entry points, and the pytest plugin.

Discovery is tested the way users get it: the example plugin package is built and installed
(pip, into a temporary folder), and loopcompare runs in a subprocess that sees it on its path,
so importlib.metadata reads its real ``entry_points.txt``.  Broken plugins are made the same
way, with hand-written distribution metadata.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fake_plugins import fake_distribution
from helpers import ROOT

EXAMPLE = ROOT / "examples" / "loopcompare-house-rules"
GOLDEN_EXAMPLE = ROOT / "examples" / "pytest-golden"


def run(args, *, path: list[Path] = (), cwd: Path = ROOT):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in path)
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=600
    )


@pytest.fixture(scope="module")
def installed_example(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), str(EXAMPLE)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    return site


def test_the_example_plugin_is_discovered_through_its_entry_point(installed_example):
    result = run(["-m", "loopcompare", "rulesets"], path=[installed_example])
    assert result.returncode == 0, result.stderr
    assert "| house-three " in result.stdout
    assert "House rule: three and done" in result.stdout


def test_the_plugin_works_with_r_and_shows_its_own_name_and_rules(installed_example):
    result = run(["-m", "loopcompare", "compare", "gond-alarm", "-r", "cr-2024", "-r", "three-and-done"], path=[installed_example])
    assert result.returncode == 0, result.stderr
    assert "| House rule: three and done " in result.stdout
    assert "> **H.1**" in result.stdout  # its own rule text, quoted from the plugin's package


def test_the_example_plugins_own_tests_pass(installed_example):
    result = run(["-m", "pytest", "-q", "-p", "no:cacheprovider", str(EXAMPLE / "tests")], path=[installed_example], cwd=EXAMPLE)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_plugin_that_fails_to_import_is_reported_and_the_others_still_run(tmp_path):
    fake_distribution(tmp_path, "broken-rules", "[loopcompare.rulesets]\nbroken = no_such_module:Nothing\n")
    result = run(["-m", "loopcompare", "compare", "flying", "-f", "json"], path=[tmp_path])
    assert result.returncode == 0, result.stderr
    assert "ruleset plugin 'broken' skipped" in result.stderr
    assert "ModuleNotFoundError" in result.stderr
    assert '"cr-2024"' in result.stdout


def test_a_plugin_that_breaks_the_contract_is_reported(tmp_path):
    fake_distribution(
        tmp_path,
        "odd-rules",
        "[loopcompare.rulesets]\nodd = odd_rules:NotARuleset\n",
        module="odd_rules",
        code="class NotARuleset:\n    key = 'odd'\n",
    )
    result = run(["-m", "loopcompare", "rulesets"], path=[tmp_path])
    assert result.returncode == 0
    assert "ruleset plugin 'odd' skipped" in result.stderr
    assert "not a subclass of loopcompare.rulesets.base.Ruleset" in result.stderr


def test_a_plugin_whose_key_clashes_is_refused(tmp_path):
    fake_distribution(
        tmp_path,
        "clash-rules",
        "[loopcompare.rulesets]\nclash = clash_rules:Clash\n",
        module="clash_rules",
        code="""
        from loopcompare.rulesets.shortcuts import Cr2024

        class Clash(Cr2024):
            key = "my-cr"
            aliases = ("cr-current",)
        """,
    )
    result = run(["-m", "loopcompare", "rulesets"], path=[tmp_path])
    assert result.returncode == 0
    assert "ruleset plugin 'clash' skipped: refused: key or alias 'cr-current' is already used" in result.stderr
    assert "| my-cr " not in result.stdout


def test_a_plugin_that_raises_while_settling_does_not_stop_a_comparison(tmp_path):
    fake_distribution(
        tmp_path,
        "crashing-rules",
        "[loopcompare.rulesets]\ncrash = crashing_rules:Crash\n",
        module="crashing_rules",
        code="""
        from loopcompare.rulesets.shortcuts import Cr2024

        class Crash(Cr2024):
            key = "crash"
            aliases = ()
            name = "Crashing rules"

            def dependent(self, ctx, involved):
                raise RuntimeError("boom")
        """,
    )
    result = run(["-m", "loopcompare", "compare", "flying", "-r", "cr-2024", "-r", "crash"], path=[tmp_path])
    assert result.returncode == 0, result.stderr
    assert "| Crashing rules " in result.stdout
    assert "RuntimeError: boom" in result.stdout


def test_the_pytest_plugin_example_passes_against_its_golden_files():
    # The loop_report fixture comes from loopcompare's pytest11 entry point.
    result = run(["-m", "pytest", "-q", "-p", "no:cacheprovider", str(GOLDEN_EXAMPLE)], cwd=GOLDEN_EXAMPLE)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed" in result.stdout


def test_the_pytest_plugin_fails_when_a_report_changes(tmp_path):
    (tmp_path / "test_pin.py").write_text(
        "def test_pin(loop_report):\n    loop_report('flying', rulesets=['cr-2024'])\n", encoding="utf-8"
    )
    (tmp_path / "test_pin").mkdir()
    (tmp_path / "test_pin" / "test_pin.md").write_text("an old report\n", encoding="utf-8")
    result = run(["-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)], cwd=tmp_path)
    assert result.returncode == 1
    assert "1 failed" in result.stdout
