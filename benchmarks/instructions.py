"""Instructions per settle, counted by valgrind: a figure the machine's load doesn't move.

``python benchmarks/instructions.py [--against REV] [--format 1|2] [--count N]`` (needs
``valgrind``, Debian's package) settles ``N`` generated scenarios (bench.py's own generators:
``generated`` for format 1, ``generated_format2`` for format 2; 300 and 100 by default) under every
ruleset, each a fresh copy with no loop facts shared, in a child process under ``valgrind
--tool=cachegrind --cache-sim=no``, and once more without settling; the difference, over the number
of settles, is the instructions one settle costs.  With ``--against REV`` the same runs on commit
REV (checked out in a temporary worktree, as ``bench.py --against`` does) and the ratio is
printed.  ``PYTHONHASHSEED=0`` in both children.  On a shared machine CPU-time ratios of the same
code spread by a third (docs/DEVELOPING.md); instruction counts repeat to a fraction of a percent.
Each child runs about 50 times slower than natively: a minute or two per side.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(HERE, "benchmarks")
sys.path.insert(0, BENCH)
from bench import _option  # noqa: E402  (the options are read as bench.py reads its own)

CHILD = """
import dataclasses, importlib, sys
sys.path.insert(0, {bench!r})
import bench
try:
    importlib.import_module(bench._PREFIX + "rulesets.facts").SHARED = 0
except ImportError:
    pass
scenarios = bench.generated({count}) if {fmt} == 1 else bench.generated_format2({count})
rulesets = bench.registry().rulesets
if {settle}:
    for r in rulesets:
        for s in scenarios:
            r.settle(dataclasses.replace(s))
print(bench._module("rulesets").__file__, len(rulesets) * len(scenarios))
"""


def _instructions(env: dict[str, str], code: str, scratch: str) -> tuple[int, str, int]:
    """(instructions, the module imported, the settles made) of ``python -c code`` under
    cachegrind, run in the empty folder ``scratch`` (``-c`` puts the working folder first on
    sys.path)."""
    run = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", sys.executable, "-c", code],
        env=env, cwd=scratch, capture_output=True, text=True, check=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if found is None:
        sys.exit(f"instructions.py: no instruction count in valgrind's output:\n{run.stderr[-2000:]}")
    module, settles = run.stdout.split()[-2:]
    return int(found.group(1).replace(",", "")), module, int(settles)


def per_settle(checkout: str, fmt: int, count: int, scratch: str) -> tuple[float, str]:
    """Instructions per settle of the code in ``checkout`` (a folder named loopcompare, or this
    tree), and the module the child imported (checked by the caller)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONHASHSEED"] = "0"
    # as bench.py's sides: the checkout's parent first on the path (this tree, where its folder
    # isn't named loopcompare, is found by its install)
    if os.path.exists(os.path.join(checkout, "__init__.py")):
        env["PYTHONPATH"], env["LOOPCOMPARE_BENCH_PREFIX"] = os.path.dirname(checkout), "loopcompare."
    else:  # before the package was loopcompare: top-level rulesets and comparator
        env["PYTHONPATH"], env["LOOPCOMPARE_BENCH_PREFIX"] = checkout, ""
    idle, _, _ = _instructions(env, CHILD.format(bench=BENCH, count=count, fmt=fmt, settle=False), scratch)
    busy, module, settles = _instructions(env, CHILD.format(bench=BENCH, count=count, fmt=fmt, settle=True), scratch)
    expected = os.path.join(os.path.realpath(checkout), "rulesets") + os.sep
    if not os.path.realpath(module).startswith(expected):
        sys.exit(f"instructions.py: {checkout} was not the code measured ({module} was imported)")
    return (busy - idle) / settles, module


def main() -> None:
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py: needs valgrind (apt-get install valgrind)")
    fmt = int(_option("--format", "1") or 1)
    count = int(_option("--count", "300" if fmt == 1 else "100") or 0)
    rev = _option("--against")
    scratch = tempfile.mkdtemp(prefix="loopcompare-instructions-")
    empty = os.path.join(scratch, "run")
    os.mkdir(empty)
    try:
        mine, _ = per_settle(HERE, fmt, count, empty)
        print(f"format {fmt}, {count} scenarios, every ruleset: this tree {mine / 1000:,.1f} K instructions per settle")
        if rev:
            checkout = os.path.join(scratch, "tree", "loopcompare")
            subprocess.run(["git", "-C", HERE, "worktree", "add", "--detach", checkout, rev], check=True, capture_output=True)
            try:
                theirs, _ = per_settle(checkout, fmt, count, empty)
            finally:
                subprocess.run(["git", "-C", HERE, "worktree", "remove", "--force", checkout], capture_output=True)
            print(f"format {fmt}, {count} scenarios, every ruleset: {rev} {theirs / 1000:,.1f} K instructions per settle")
            print(f"ratio: {theirs / mine:.2f}x (above 1: this tree settles in fewer instructions)")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
