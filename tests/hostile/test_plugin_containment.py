"""What a misbehaving plugin can't do (issue 30, item 2), through real entry points.

- change the scenario it is given (each plugin gets its own copy): the built-ins' outcomes and
  the report stay what they are without it;
- write to file descriptor 1 (``os.write``, a subprocess) into the report on standard output;
- make a run endless by being slow on every scenario (a time budget over the whole run);
- with ``--isolate-plugins``: end the process (``os._exit``), or monkeypatch the built-ins.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import ROOT
from fake_plugins import fake_distribution

BASE = """
from loopcompare.rulesets.shortcuts import Cr2024

class Base(Cr2024):
    aliases = ()
    amends = None
"""

PLUGINS = {
    # Changes the frozen scenario it is given, in every way a plain object.__setattr__ can.
    "mutates": BASE
    + """
class Plugin(Base):
    key = "mutates"
    name = "Mutating rules"
    def settle(self, scenario):
        outcome = super().settle(scenario)
        object.__setattr__(scenario, "players", ("Mallory",))
        object.__setattr__(scenario, "title", "changed by a plugin")
        object.__setattr__(scenario, "steps", ())
        return outcome
""",
    # Writes to the descriptor itself, on import and while settling, and through a subprocess.
    "fd-writer": BASE
    + """
import os, subprocess, sys
os.write(1, b"fd1 on import\\n")
class Plugin(Base):
    key = "fd-writer"
    name = "Descriptor rules"
    def settle(self, scenario):
        os.write(1, b"fd1 while settling\\n")
        subprocess.run([sys.executable, "-c", "print('from a subprocess')"])
        return super().settle(scenario)
""",
    # A quarter of a second on every scenario: within the per-scenario limit, endless in bulk.
    "slow": BASE
    + """
import time
class Plugin(Base):
    key = "slow"
    name = "Slow rules"
    def settle(self, scenario):
        time.sleep(0.25)
        return super().settle(scenario)
""",
    # Ends the whole process, without a word.
    "exits-hard": BASE
    + """
import os
class Plugin(Base):
    key = "exits-hard"
    name = "Hard exit rules"
    def settle(self, scenario):
        os._exit(7)
""",
    # Monkeypatches a built-in ruleset while settling: every later outcome would change.
    "patches": BASE
    + """
from loopcompare.rulesets.outcome import Outcome, Result
class Plugin(Base):
    key = "patches"
    name = "Patching rules"
    def settle(self, scenario):
        outcome = super().settle(scenario)
        Cr2024.settle = lambda self, s: Outcome(Result.DRAW, state=dict(s.state))
        return outcome
""",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("containment")
    for key, code in PLUGINS.items():
        module = "contained_" + key.replace("-", "_")
        fake_distribution(folder, module.replace("_", "-"), f"[loopcompare.rulesets]\n{key} = {module}:Plugin\n", module=module, code=code)
    return folder


def loopcompare(*args, site: Path, timeout: float = 300, **env):
    environment = dict(os.environ, PYTHONPATH=str(site), **env)
    return subprocess.run([sys.executable, "-m", "loopcompare", *map(str, args)], capture_output=True, text=True, env=environment, timeout=timeout, cwd=ROOT)


def outcomes(stdout: str) -> list[dict]:
    return [c["outcomes"] for c in json.loads(stdout)["comparisons"]]


def test_a_plugin_that_changes_its_scenario_changes_nothing_else(site):
    alone = loopcompare("compare", "flying", "gond-alarm", "-f", "json", "-r", "cr-2004", "-r", "cr-2024", site=site)
    assert alone.returncode == 0, alone.stderr
    # The plugin first, so that the built-ins settle after it changed its scenario.
    result = loopcompare("compare", "flying", "gond-alarm", "-f", "json", "-r", "mutates", "-r", "cr-2004", "-r", "cr-2024", site=site)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    doc = json.loads(result.stdout)
    assert [c["scenario"]["title"] for c in doc["comparisons"]] == [c["scenario"]["title"] for c in json.loads(alone.stdout)["comparisons"]]
    for mixed, plain in zip(outcomes(result.stdout), outcomes(alone.stdout)):
        assert {k: mixed[k] for k in plain} == plain
        assert mixed["mutates"]["result"] == plain["cr-2024"]["result"]


def test_writes_to_descriptor_1_never_reach_the_report_on_standard_output(site):
    result = loopcompare("compare", "flying", "flying-relents", "-f", "json", "-r", "fd-writer", site=site)
    assert result.returncode == 0, result.stderr
    assert [o["fd-writer"]["result"] for o in outcomes(result.stdout)] == ["shortcut", "shortcut"]  # nothing but JSON
    assert "fd1 on import" in result.stderr
    assert result.stderr.count("fd1 while settling") == 2
    assert result.stderr.count("from a subprocess") == 2


def test_writes_to_descriptor_1_never_reach_a_markdown_report_either(site):
    result = loopcompare("compare", "flying", "-r", "fd-writer", site=site)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# ")
    assert "fd1" not in result.stdout and "subprocess" not in result.stdout


def test_a_slow_plugin_is_marked_slow_after_its_budget_and_skipped_with_a_note(site):
    library = ROOT / "comparator" / "library"
    count = len(list(library.glob("*.toml")))
    assert count >= 12
    started = time.monotonic()
    result = loopcompare("compare", library, "-f", "json", "-r", "cr-2024", "-r", "slow", "--plugin-budget", "1", site=site)
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    slow = [o["slow"] for o in outcomes(result.stdout)]
    skipped = [o for o in slow if any("it is slow: it used up its time budget" in n for n in o["notes"])]
    assert all(o["result"] == "unspecified" for o in skipped)
    assert 1 <= count - len(skipped) <= 6, count - len(skipped)  # 1 s at a quarter second each, then no more
    assert all(not any("plugin" in n for n in o["cr-2024"]["notes"]) for o in outcomes(result.stdout))
    assert elapsed < count * 0.25 + 60


def test_the_budget_comes_from_the_environment_and_bad_values_are_refused(site):
    result = loopcompare("compare", "flying", "gond-alarm", "flying-relents", "-f", "json", "-r", "slow", site=site, LOOPCOMPARE_PLUGIN_BUDGET="0.3")
    assert result.returncode == 0, result.stderr
    assert "it is slow" in result.stdout
    bad = loopcompare("compare", "flying", "-r", "slow", "--plugin-budget", "0", site=site)
    assert bad.returncode == 2 and "--plugin-budget" in bad.stderr and "Traceback" not in bad.stderr


# --- isolation: what only a worker process contains ---------------------------------------------


def test_os_exit_in_a_plugin_ends_the_tool_when_not_isolated_and_is_contained_when_isolated(site):
    bare = loopcompare("compare", "flying", "-f", "json", "-r", "cr-2024", "-r", "exits-hard", site=site)
    assert bare.returncode == 7 and bare.stdout == ""  # what isolation is for (docs/PLUGINS.md)
    result = loopcompare("compare", "flying", "flying-relents", "-f", "json", "-r", "cr-2024", "-r", "exits-hard", "--isolate-plugins", site=site)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    for outcome in outcomes(result.stdout):
        assert outcome["cr-2024"]["result"] == "shortcut"
        assert outcome["exits-hard"]["result"] == "unspecified"
        assert "its worker process ended (exit status 7)" in outcome["exits-hard"]["notes"][0]


def test_monkeypatching_by_an_isolated_plugin_does_not_change_the_built_ins(site):
    args = ("compare", "flying", "flying-relents", "-f", "json", "-r", "patches", "-r", "cr-2024")
    bare = loopcompare(*args, site=site)
    assert bare.returncode == 0, bare.stderr
    assert outcomes(bare.stdout)[1]["cr-2024"]["result"] == "draw"  # patched in-process: what isolation is for
    result = loopcompare(*args, site=site, LOOPCOMPARE_ISOLATE_PLUGINS="1")
    assert result.returncode == 0, result.stderr
    assert [o["cr-2024"]["result"] for o in outcomes(result.stdout)] == ["shortcut", "shortcut"]
    assert outcomes(result.stdout)[0]["patches"]["result"] == "shortcut"  # (its own process is patched from then on)


def test_isolated_plugins_give_the_same_report_as_in_process_ones(site):
    args = ("compare", "flying", "gond-alarm", "-f", "json", "-r", "cr-2024", "-r", "mutates", "-r", "fd-writer")
    bare = loopcompare(*args, site=site)
    isolated = loopcompare(*args, "--isolate-plugins", site=site)
    assert bare.returncode == isolated.returncode == 0, bare.stderr + isolated.stderr
    assert isolated.stdout == bare.stdout


def test_a_plugin_that_fails_to_load_in_its_worker_is_reported(site, tmp_path):
    fake_distribution(tmp_path, "exits-on-import", "[loopcompare.rulesets]\nexits-on-import = exits_on_import:Plugin\n", module="exits_on_import", code="import sys\nsys.exit(3)\n")
    result = loopcompare("compare", "flying", "-f", "json", "--isolate-plugins", site=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "ruleset plugin 'exits-on-import' skipped" in result.stderr and "sys.exit(3)" in result.stderr
    json.loads(result.stdout)


def test_o_dev_stdout_still_reaches_standard_output(site):
    # Descriptor 1 points at stderr while loopcompare runs: /dev/stdout means the report's stdout.
    result = loopcompare("compare", "flying", "-f", "json", "-o", "/dev/stdout", site=site)
    assert result.returncode == 0, result.stderr
    json.loads(result.stdout)


def test_the_atlas_gives_a_slow_plugin_one_budget_for_the_whole_run(site, monkeypatch):
    # A quarter of a second a loop: hours over the atlas without a budget.  Each of the two
    # worker processes gets half of it, so the plugin costs about the budget, then is skipped.
    from loopcompare.comparator import atlas as atlases
    from loopcompare.comparator.compare import set_plugin_budget
    from loopcompare.rulesets import registry

    monkeypatch.syspath_prepend(str(site))
    registry.cache_clear()
    set_plugin_budget(2)
    try:
        chosen = registry().select(["cr-2024", "slow"])
        started = time.monotonic()
        result = atlases.build(chosen, jobs=2, max_players=2)
        elapsed = time.monotonic() - started
    finally:
        set_plugin_budget(None)
        registry.cache_clear()
    assert result.total == atlases.size(2)
    assert result.total * 0.25 / 2 > 150  # seconds it would take on two processes without the budget
    assert {c.signature[0] for c in result.classes} >= {("shortcut", "unspecified")}
    assert elapsed < 120
