"""Start-up: ``--help`` and shell completion load click and the command line, nothing heavier.

Shell completion runs the program on every Tab, so what ``loopcompare --help`` imports is felt
(issue 27): the rulesets, the renderers (and jinja2 under them) and ``importlib.metadata`` (the
plugin entry points) load when a command runs, never for help or for completing a command's name,
an option or a path.  Each case runs the command line in a fresh interpreter under
``python -X importtime``, which lists every module imported, and reads that list; timings are
``benchmarks/bench.py``'s business, not a test's.

Beyond the heavy modules, the floor: a bare click program answering the same ``--help`` or the
same completion imports what click itself needs (``shutil``, ``textwrap`` and ``locale`` for help,
``shlex`` for completion); the command line may add only its own few modules (:data:`OWN`), so a
module-level ``import signal`` or ``import tempfile`` in one of them shows up here.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import subprocess
import sys
import tempfile

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


#: The package's modules that --help and completion may import beyond what a bare click program
#: answering the same imports: the command line and what building its commands needs.
OWN = {
    "loopcompare",
    "loopcompare.comparator",
    "loopcompare.comparator.cli",
    "loopcompare.comparator.conventions",  # the group's class, the format choice, the examples
    "loopcompare.comparator.controls",  # InputError shows control characters as codes
    "loopcompare.comparator.interrupts",  # the group's base class (Ctrl-C exits 130)
    "loopcompare.comparator.descriptors",  # the group's callback, which runs before COMMAND --help
    "loopcompare.comparator.catalogue",  # completing a PATH: the built-in scenarios' names
}

#: A bare click program with the same name, a command and an option: the floor of what a click
#: program imports for --help and for completion.
BARE = """
import click
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main():
    "A group."
@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("-r", "--ruleset", type=click.Choice(("a", "b")), help="A choice.")
@click.option("--only-differences", is_flag=True, help="A flag.")
def compare(paths, ruleset, only_differences):
    "A command whose help is too long to be shown whole where a shell completes its name."
for name in ("atlas", "gallery"):
    main.command(name)(lambda: None)
main(prog_name="loopcompare")
"""

#: What the ``loopcompare`` console script runs (``python -m`` would add runpy's own imports).
SCRIPT = "import sys\nfrom loopcompare.comparator.cli import main\nsys.exit(main(prog_name='loopcompare'))"


def _without_site() -> dict[str, str]:
    """The environment of a ``python -S`` that finds click and this package: without the site
    module, which an editable install's finder makes import pathlib, urllib.parse and more before
    the program starts (so that what the program itself imports is seen as a regular install
    sees it)."""
    import click

    import loopcompare

    folders = (_package_parent(loopcompare.__file__ or ""), os.path.dirname(os.path.dirname(os.path.abspath(click.__file__ or ""))))
    return {"PYTHONPATH": os.pathsep.join(dict.fromkeys(folders))}


@functools.lru_cache(maxsize=None)
def _package_parent(init: str) -> str:
    """A folder in which ``import loopcompare`` finds this package: the package's own parent when
    its folder is named ``loopcompare`` (an installed package), else (a checkout under another
    name, installed editable) a temporary folder holding a ``loopcompare`` link to it."""
    package = os.path.dirname(os.path.abspath(init))
    if os.path.basename(package) == "loopcompare":
        return os.path.dirname(package)
    folder = tempfile.mkdtemp(prefix="loopcompare-startup-test-")
    atexit.register(shutil.rmtree, folder, True)
    os.symlink(package, os.path.join(folder, "loopcompare"))
    return folder


def _imported(args: list[str], env: dict[str, str] | None = None, *, bare: str | None = None, site: bool = True) -> tuple[list[str], str]:
    """The modules ``python -m loopcompare ARGS`` (or the program ``bare``) imports, in order, and
    what it printed (``site=False``: the console script's code, run without the site module, see
    :func:`_without_site`)."""
    program = [*([] if site else ["-S"]), *(["-c", bare] if bare else ["-m", "loopcompare"] if site else ["-c", SCRIPT])]
    run = subprocess.run(
        [sys.executable, "-X", "importtime", *program, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1", **(env or {}), **({} if site else _without_site())},
        timeout=60,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    names = [line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines() if line.startswith("import time:") and "|" in line]
    assert "click" in names and (bare is not None or "loopcompare.comparator.cli" in names)  # the list is read right
    return names, run.stdout


def _beyond_click(args: list[str], env: dict[str, str] | None = None, also: tuple[str, ...] = ()) -> list[str]:
    """What ``loopcompare ARGS`` imports that the bare click program (importing the modules
    ``also`` too) does not, but its own :data:`OWN`: both run without the site module, as a
    regular install would run them."""
    floor = set(_imported(args, env, bare="".join(f"import {m}\n" for m in also) + BARE, site=False)[0])
    names = _imported(args, env, site=False)[0]
    assert "site" not in names and "site" not in floor  # the site module (and what it brings) is out of the way
    return [n for n in names if n not in floor and n not in OWN]


def _heavy(names: list[str]) -> list[str]:
    return [n for n in names if any(n == h or n.startswith(h + ".") for h in HEAVY)]


@pytest.mark.parametrize("args", [["--help"], ["compare", "--help"], ["atlas", "--help"], ["gallery", "-h"]], ids=" ".join)
def test_help_imports_nothing_heavy(args):
    names, out = _imported(args)
    assert out.strip(), "the command printed nothing"
    assert _heavy(names) == []


@pytest.mark.parametrize("args", [["--help"], ["compare", "--help"], ["gallery", "-h"]], ids=" ".join)
def test_help_imports_only_what_click_does(args):
    assert _beyond_click(args) == []


@pytest.mark.parametrize(
    ("words", "cword", "expected", "also"),
    [
        ("loopcompare comp", "1", "compare", ()),  # a command's name
        ("loopcompare compare --only", "2", "--only-differences", ()),  # an option
        # A built-in scenario's name: the names are listed from a folder (comparator/catalogue.py) with pathlib.
        ("loopcompare compare flying-rel", "2", "flying-relents", ("pathlib",)),
    ],
    ids=["command", "option", "path"],
)
def test_completion_imports_nothing_heavy(words, cword, expected, also):
    env = {"_LOOPCOMPARE_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": cword}
    names, out = _imported([], env)
    assert expected in out  # the completion was answered
    assert _heavy(names) == []
    assert _beyond_click([], env, also) == []


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


#: Runs the command line in-process with ``re.compile`` watched: the patterns the package's own
#: modules compile (a module-level constant compiled at import is paid by every --help and Tab).
WATCHED = """
import os, re, sys
compiled = []
original = re.compile
def spy(pattern, flags=0):
    compiled.append((sys._getframe(1).f_code.co_filename, pattern))
    return original(pattern, flags)
re.compile = spy
re.compile("canary")  # the watch is seen to work
import loopcompare
from loopcompare.comparator.cli import main
try:
    main(sys.argv[1:], prog_name="loopcompare")
except SystemExit:
    pass
root = os.path.dirname(os.path.abspath(loopcompare.__file__)) + os.sep
print("compiled:", sorted({os.path.relpath(f, root) for f, _ in compiled if not f.startswith("<") and os.path.abspath(f).startswith(root)}), "canary" in [p for _, p in compiled])
"""


@pytest.mark.parametrize(
    ("args", "env"),
    [(["--help"], {}), (["compare", "--help"], {}), ([], {"_LOOPCOMPARE_COMPLETE": "bash_complete", "COMP_WORDS": "loopcompare compare flying-rel", "COMP_CWORD": "2"})],
    ids=["--help", "compare --help", "completion"],
)
def test_help_and_completion_compile_no_pattern_of_the_package(args, env):
    run = subprocess.run([sys.executable, "-c", WATCHED, *args], capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1", **env}, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    line = run.stdout.splitlines()[-1]
    assert line == "compiled: [] True"  # True: the canary was seen, the watch works


def test_the_control_character_patterns_take_their_own_place_when_first_used():
    """comparator/controls.py compiles its patterns when first used (not at import, see above);
    each stand-in then puts the compiled pattern in its own place, so that later uses cost what a
    plain pattern's do.  A stand-in named wrongly would stay, and delegate on every call."""
    code = (
        "import re\n"
        "from loopcompare.comparator import controls\n"
        "names = [n for n, v in vars(controls).items() if isinstance(v, controls._CompiledWhenUsed)]\n"
        "shown = [controls.visible('a\\x1b'), controls.visible('\\U0001f600\\x1b'), controls.json_escaped('\"\\x85\"'), controls.json_escaped('\"\\U0001f600\\x85\"'), controls.is_clean('a')]\n"
        "print(sorted(names), all(isinstance(getattr(controls, n), re.Pattern) for n in names), shown)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "['_UNSAFE', '_UNSAFE_BMP', '_UNSAFE_IN_JSON', '_UNSAFE_IN_JSON_BMP'] True ['a\\\\x1b', '😀\\\\x1b', '\"\\\\u0085\"', '\"😀\\\\u0085\"', True]"
