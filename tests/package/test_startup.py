"""Start-up: ``--help`` and shell completion load click and the command line, nothing heavier.

Shell completion runs the program on every Tab, so what ``loopcompare --help`` imports is felt
(issue 27): the rulesets, the renderers (and jinja2 under them) and ``importlib.metadata`` (the
plugin entry points) load when a command runs, never for help or for completing a command's name,
an option or a path.  Each case runs the command line in a fresh interpreter under
``python -X importtime``, which lists every module imported, and reads that list; timings are
``benchmarks/bench.py``'s business, not a test's.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: What --help and completion must not import: a name, or a package whose every module is meant.
HEAVY = (
    "loopcompare.rulesets",
    "loopcompare.comparator.api",
    "loopcompare.comparator.loader",
    "loopcompare.comparator.compare",
    "loopcompare.comparator.render",
    "loopcompare.comparator.report",
    "loopcompare.comparator.diagram",
    "loopcompare.comparator.charts",
    "loopcompare.comparator.atlas",
    "loopcompare.comparator.amendments",
    "loopcompare.comparator.site",
    "jinja2",
    "markupsafe",
    "tabulate",
    "importlib.metadata",
)


def _imported(args: list[str], env: dict[str, str] | None = None) -> tuple[list[str], str]:
    """The modules ``python -m loopcompare ARGS`` imports, in order, and what it printed."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "loopcompare", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
        timeout=60,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    names = [line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines() if line.startswith("import time:") and "|" in line]
    assert "click" in names and "loopcompare.comparator.cli" in names  # the list is read right
    return names, run.stdout


def _heavy(names: list[str]) -> list[str]:
    return [n for n in names if any(n == h or n.startswith(h + ".") for h in HEAVY)]


@pytest.mark.parametrize("args", [["--help"], ["compare", "--help"], ["atlas", "--help"], ["gallery", "-h"]], ids=" ".join)
def test_help_imports_nothing_heavy(args):
    names, out = _imported(args)
    assert out.strip(), "the command printed nothing"
    assert _heavy(names) == []


@pytest.mark.parametrize(
    ("words", "cword", "expected"),
    [
        ("loopcompare comp", "1", "compare"),  # a command's name
        ("loopcompare compare --only", "2", "--only-differences"),  # an option
        ("loopcompare compare flying-rel", "2", "flying-relents"),  # a built-in scenario's name
    ],
    ids=["command", "option", "path"],
)
def test_completion_imports_nothing_heavy(words, cword, expected):
    env = {"_LOOPCOMPARE_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": cword}
    names, out = _imported([], env)
    assert expected in out  # the completion was answered
    assert _heavy(names) == []


def test_the_package_imports_its_public_names_when_first_used():
    code = (
        "import sys, loopcompare\n"
        "before = sorted(m for m in sys.modules if m.startswith(('loopcompare.rulesets', 'loopcompare.comparator.api', 'jinja2')))\n"
        "names = dir(loopcompare)\n"
        "outcome = loopcompare.settle('flying-relents', 'cr-2024')\n"
        "from loopcompare import Result, rulesets\n"
        "import loopcompare.rulesets\n"
        "print(before, 'compare' in names and 'Scenario' in names and '__version__' in names, outcome.result is Result.SHORTCUT, callable(loopcompare.rulesets), rulesets is loopcompare.rulesets)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["[]", "True", "True", "True", "True"]
