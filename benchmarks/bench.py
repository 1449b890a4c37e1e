"""loopcompare benchmarks: run with ``python benchmarks/bench.py`` (after ``pip install .``).

Prints:

* resolutions per second per ruleset over a few thousand generated scenarios (format 1, format 2,
  and format 2's independent sets under the eras that run each set its own number of times);
* the cost of settling an intent of 10^6 against one of 10^100, and of 3 (the ratios should be
  about 1: outcomes are computed in closed form, never iteration by iteration), for a format 2
  doubling loop, a format 1 token loop and a format 3 loop of payments;
* the CLI's start-up time against ``python -c pass``;
* the atlas (each space) and the whole gallery on one CPU and on two, in children pinned to
  them: wall and CPU seconds, the load, the CPUs the rest of the machine took meanwhile, and
  the speed-up of two CPUs over one (``python benchmarks/bench.py --parallel`` runs only this);
* a third-party ruleset's cost per scenario in the tool's process and isolated in a worker
  process (``--isolate-plugins``), and a worker's start-up (``python benchmarks/bench.py
  --plugins`` runs only this part).

``python benchmarks/bench.py --against REV [--rounds N] [--only=WORD ...]`` runs a shorter set
(formats 1, 2 and 3 per ruleset, a googol of format 3 payments, start-up against ``import click``)
on this tree and on commit REV (checked out into a temporary git worktree), in alternating
processes, and prints both figures and their ratio per benchmark: a ratio measured in one run,
on one machine under one load, which is the figure to quote. ``--only=WORD`` keeps the
benchmarks whose name contains WORD; the slow ones (the gallery and the atlas on one CPU and on
two, tens of seconds each) run only when ``--only`` names them (``--only=gallery``).  A commit
that can't set a group up (9043a8f has no format 2) runs the rest, and the output says which
groups were skipped and why.

Figures vary by machine; docs/DEVELOPING.md records one run.  Nothing here is a pass/fail test.
"""

from __future__ import annotations

import atexit
import dataclasses
import importlib
import importlib.util
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

# The package is imported through these two helpers, never at the top, so that ``--against REV``
# can run this file's benchmarks on another commit's checkout (``--serve``, in a subprocess whose
# PYTHONPATH names that checkout). Commits before the package was ``loopcompare`` (its rulesets and
# comparator were top-level packages) are imported without the prefix.
_PREFIX = os.environ.get("LOOPCOMPARE_BENCH_PREFIX", "loopcompare.")


def _module(name: str) -> Any:
    return importlib.import_module(_PREFIX + name)


def _has(name: str) -> bool:
    return importlib.util.find_spec(_PREFIX + name) is not None


def parse_document(doc: dict, name: str, scenario_id: str) -> Any:
    return _module("comparator.loader").parse_document(doc, name, scenario_id)


def registry() -> Any:
    return _module("rulesets").registry()

PLAYERS = ["Alice", "Bob", "Carol", "Dana"]


def generated(count: int, seed: int = 20261121) -> list:
    """Valid small scenarios: 2-4 players, 1-5 steps, mixed optional/mandatory, effects, intents."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        players = PLAYERS[: rng.randint(2, 4)]
        size = rng.randint(1, 5)
        steps = []
        for _ in range(size):
            step = {"by": rng.choice(players), "does": "acts", "optional": rng.random() < 0.6}
            if rng.random() < 0.5:
                step["add"] = {"n": rng.choice([-1, 0, 1, 2])}
            if rng.random() < 0.3:
                step["set"] = {"flag": rng.random() < 0.5}
            if rng.random() < 0.1:
                step["unless"] = {"by": rng.choice(players), "does": "pays"}
            steps.append(step)
        intents = {}
        for p in players:
            roll = rng.random()
            if roll < 0.4:
                intents[p] = rng.randint(0, 6)
            elif roll < 0.5:
                intents[p] = {"after": rng.randint(0, 4), "step": rng.randrange(size)}
        doc = {
            "title": f"generated {i}",
            "players": players,
            "active": rng.choice(players),
            "state": {"n": 0, "flag": False},
            "step": steps,
            "intent": intents,
            "loop": {"independent": rng.random() < 0.2, "spans_turns": rng.random() < 0.1},
        }
        if rng.random() < 0.2:
            doc["breaker"] = [{"by": rng.choice(players), "does": "breaks"}]
        out.append(parse_document(doc, f"gen{i}.toml", f"gen{i}").scenario)
    return out


def generated_format2(count: int, seed: int = 20261123) -> list:
    """Valid small format 2 scenarios: growth, floors, requirements, rotating targets, eliminations."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        players = PLAYERS[: rng.randint(2, 4)]
        opponents = players[1:]
        steps = []
        for _ in range(rng.randint(1, 4)):
            step = {"by": players[0], "does": "acts", "optional": rng.random() < 0.5}
            roll = rng.random()
            if roll < 0.3:
                step["mul" if rng.random() < 0.3 else "add"] = {"tokens": rng.choice([2, 3])}
            elif roll < 0.6:
                step["add"] = {"mana": rng.choice([-2, -1, 1])}
                if step["add"]["mana"] < 0:
                    step["requires"] = {"mana": -step["add"]["mana"]}
            else:
                step["add"] = {"life": rng.choice([-1, -2])}
                step["target"] = {"among": opponents, "order": rng.choice(["rotate", "each", "fixed"])}
                step["times"] = rng.choice([1, 2])
            steps.append(step)
        if not any(s["optional"] for s in steps):
            steps[0]["optional"] = True
        doc = {
            "format": 2,
            "title": f"generated {i}",
            "players": players,
            "state": {"tokens": 1, "mana": {"start": rng.randint(0, 9), "min": 0}, "life": {p: rng.randint(5, 40) for p in opponents}},
            "step": steps,
            "end": [{"when": {"value": "life", "at_most": 0}, "effect": "loses", "loses": True}],
            "intent": {players[0]: rng.choice(["never", rng.randint(0, 50), "10^40"])},
        }
        out.append(parse_document(doc, f"gen2-{i}.toml", f"gen2-{i}").scenario)
    return out


def independent_sets_format2(count: int, seed: int = 20261123) -> list:
    """Independent sets with per-player life and targets, which the 2005 and 2008 texts run
    each its own number of times (the format 2 engine's sets, FORMAT item 3)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        players = PLAYERS[: rng.randint(2, 4)]
        steps = []
        for p in players[: rng.randint(2, len(players))]:
            steps.append({"by": p, "does": "acts", "optional": True})
            steps.append({"by": p, "does": "drains", "add": {"life": -1}, "target": {"among": [q for q in players if q != p], "order": rng.choice(["rotate", "each"])}})
        doc = {
            "format": 2,
            "title": f"sets {i}",
            "players": players,
            "state": {"life": {p: rng.randint(5, 40) for p in players}},
            "step": steps,
            "loop": {"independent": True},
            "end": [{"when": {"value": "life", "at_most": 0}, "effect": "loses", "loses": True}],
            "intent": {s["by"]: rng.choice(["never", rng.randint(0, 60), "10^30"]) for s in steps if s.get("optional")},
        }
        out.append(parse_document(doc, f"sets-{i}.toml", f"sets-{i}").scenario)
    return out


def doubling_loop(number: int):
    doc = {
        "format": 2,
        "title": "doubling",
        "players": ["Alice", "Bob"],
        "state": {"tokens": 3},
        "step": [
            {"by": "Alice", "does": "copies every token", "optional": True, "mul": {"tokens": 2}},
            {"by": "Alice", "does": "untaps"},
        ],
        "intent": {"Alice": number if number < 10**18 else f"10^{len(str(number)) - 1}"},
    }
    return parse_document(doc, "doubling.toml", "doubling").scenario


def best_of(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def token_loop(number: int):
    doc = {
        "title": "tokens",
        "players": ["Alice", "Bob"],
        "state": {"tokens": 0},
        "step": [
            {"by": "Alice", "does": "makes a token", "optional": True, "add": {"tokens": 1}},
            {"by": "Bob", "does": "untaps it"},
        ],
        "intent": {"Alice": number, "Bob": 7 * number + 3},
    }
    return parse_document(doc, "tokens.toml", "tokens").scenario


def rhystic_loop(after: int | str) -> Any:
    """Format 3: tests/format3/scenarios/rhystic-study.toml's loop (Bob pays {1} whenever able, a
    payment that doesn't end the loop) with 10^50 mana for Bob and Alice's intent ``after``."""
    doc = {
        "format": 3,
        "title": "Rhystic Study tax on a loop",
        "players": ["Alice", "Bob"],
        "state": {"bob_mana": {"start": "10^50", "min": 0}, "alice_cards": 0, "storm": 0},
        "step": [
            {"by": "Alice", "does": "casts a spell", "optional": True, "add": {"storm": 1}},
            {
                "by": "Alice",
                "does": "Rhystic Study: she may draw a card",
                "add": {"alice_cards": 1},
                "unless": {"by": "Bob", "does": "pays {1}", "breaks": False, "pay": {"bob_mana": -1}, "pays": "always"},
            },
        ],
        "intent": {"Alice": after},
    }
    return parse_document(doc, "rhystic.toml", "rhystic").scenario


def selvala_loop(number: int) -> Any:
    """The library's Selvala and Umbral Mantle (format 3: the mana is her power, a quadratic) with
    a count for Alice instead of her goal."""
    import copy
    import tomllib
    from importlib import resources

    if not _SELVALA:
        text = resources.files(_PREFIX + "comparator").joinpath("library", "selvala-heart-of-the-wilds-umbral-mantle.toml").read_text(encoding="utf-8")
        _SELVALA.append(tomllib.loads(text))
    doc = copy.deepcopy(_SELVALA[0])
    doc["intent"]["Alice"] = number if number < 10**18 else f"10^{len(str(number)) - 1}"
    return parse_document(doc, "selvala.toml", "selvala").scenario


_SELVALA: list = []


def nest_loop(number: int) -> Any:
    """The library's Grim Monolith feeding Staff of Domination (format 3: an inner loop run until
    six mana inside each draw) with a count for Alice instead of her goal."""
    import copy
    import tomllib
    from importlib import resources

    if not _NEST:
        text = resources.files(_PREFIX + "comparator").joinpath("library", "grim-monolith-power-artifact-staff-of-domination-nested.toml").read_text(encoding="utf-8")
        _NEST.append(tomllib.loads(text))
    doc = copy.deepcopy(_NEST[0])
    doc["intent"]["Alice"] = number if number < 10**18 else f"10^{len(str(number)) - 1}"
    doc["state"]["library"] = {"start": 0}  # no bound: the library only counts the draws here
    for step in doc["step"]:
        step.get("requires", {}).pop("library", None)
    return parse_document(doc, "nest.toml", "nest").scenario


_NEST: list = []


def stack_loop(number: int) -> Any:
    """Format 3 (FORMAT items 23-24): a mana ability (priority = false) in a doubling loop, and a
    breaker whose point moves past it and who leaves both steps on the stack to resolve."""
    sc = _module("rulesets.scenario")
    steps = (
        sc.Step("Alice", "taps a land for mana", optional=True, priority=False, add={"mana": 1}),
        sc.Step("Alice", "copies every token", optional=True, mul={"tokens": 2}, add={"mana": -1}),
        sc.Step("Alice", "a trigger untaps the land"),
    )
    return sc.Scenario(
        "stack", ("Alice", "Bob"), steps, state={"tokens": 3, "mana": 0},
        breakers=(sc.Breaker("Bob", "destroys the land in response", still_resolves=2),),
        intents={"Alice": sc.Intent(), "Bob": sc.Intent(number, 1)}, format=3,
    )


def _cpu_seconds() -> float:
    """User + system CPU time of this process and its finished children (the atlas's workers)."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def plugins() -> None:
    """A third-party ruleset (a look-alike of cr-2024, so the settling is the same work) per
    scenario: in the tool's process (its own thread, a copy of the scenario) and isolated."""
    from loopcompare.comparator import isolation
    from loopcompare.comparator.compare import compare
    from loopcompare.comparator.loader import ScenarioFile
    from loopcompare.rulesets.shortcuts import Cr2024

    class LookAlike(Cr2024):
        key = "look-alike"
        aliases = ()

    point = __import__("importlib.metadata").metadata.EntryPoint(name="look-alike", value="loopcompare.rulesets.shortcuts:Cr2024", group="loopcompare.rulesets")
    start = time.perf_counter()
    stand_in = isolation.isolated_loader(point)()
    started = time.perf_counter() - start
    isolated = stand_in()  # type: ignore[operator]
    isolated.__class__.key = "look-alike"
    files = [ScenarioFile(f"s{i}", f"s{i}.toml", s) for i, s in enumerate(generated(500))]
    builtin = registry().get("cr-2024")
    print(f"\na third-party ruleset, per scenario over {len(files)} generated scenarios (cr-2024's work):")
    rows = (("built-in, direct", builtin), ("plugin, in process", LookAlike()), ("plugin, isolated", isolated))
    base = None
    for label, ruleset in rows:
        elapsed = best_of(lambda: [compare(f, [ruleset]) for f in files], repeat=3) / len(files)
        base = base or elapsed
        print(f"  {label:<20} {elapsed * 1e6:8.1f} µs   ratio to built-in: {elapsed / base:.2f}")
    print(f"  starting an isolated plugin's worker process (spawn, import, identity): {started * 1000:.0f} ms")


# --- --against REV: the same benchmarks on two commits, alternating -----------------------------

# Each benchmark gives (value, unit); units in HIGHER are better when larger, the rest (times) when smaller.
HIGHER = {"/s"}


def _rate(count: int, fn: Callable[[], object]) -> tuple[float, str]:
    """Settles per second of this process's CPU time: on a shared machine the wall clock measures
    the neighbours (at a load of 10 on 2 cores, per-round wall-clock ratios of the same code
    ranged from 0.5 to 3)."""
    start = time.process_time()
    fn()
    return count / (time.process_time() - start), "/s"


#: Benchmarks that take tens of seconds each (the gallery, the atlas on one and on two CPUs):
#: ``--against`` runs them only when ``--only`` names them (``--only=gallery``, ``--only=atlas``).
SLOW = ("gallery", "atlas")

#: Why a group of benchmarks could not be set up on the commit under test (its scenarios need a
#: format that commit doesn't read, say): group -> the error.  ``serve`` reports it.
SKIPPED: dict[str, str] = {}


def worker_benchmarks() -> dict[str, Callable[[], tuple[float, str]]]:
    """The benchmarks ``--against`` runs, each once per round in a fresh process. The scenarios
    are generated (and parsed by the commit under test) before the clock starts; every settle is
    of a fresh scenario object, so nothing cached by object identity carries over.  A group the
    commit can't set up (an older commit without format 2, say) is left out and named in
    :data:`SKIPPED`; the others still run."""
    rulesets = registry().rulesets
    out: dict[str, Callable[[], tuple[float, str]]] = {}

    def group(name: str, make: Callable[[], None]) -> None:
        try:
            make()
        except Exception as exc:  # this commit can't set these benchmarks up
            SKIPPED[name] = f"{type(exc).__name__}: {exc}".splitlines()[0][:160]

    def format1() -> None:
        scenarios = generated(1500)
        for r in rulesets:
            out[f"format 1 {r.key}"] = lambda r=r: _rate(len(scenarios), lambda: [r.settle(dataclasses.replace(s)) for s in scenarios])

    def format2() -> None:
        scenarios = generated_format2(400)
        for r in rulesets:
            out[f"format 2 {r.key}"] = lambda r=r: _rate(len(scenarios), lambda: [r.settle(dataclasses.replace(s)) for s in scenarios])

    def sets() -> None:
        scenarios = independent_sets_format2(150)
        for r in rulesets:
            if r.key in ("cr-2005", "cr-2008"):
                out[f"format 2 sets {r.key}"] = lambda r=r: _rate(len(scenarios), lambda: [r.settle(dataclasses.replace(s)) for s in scenarios])

    def all_rulesets(make: Callable[[], Any], copies: int) -> tuple[float, str]:
        scenarios = [make() for _ in range(copies)]
        return _rate(copies * len(rulesets), lambda: [r.settle(s) for s in scenarios for r in rulesets])

    def checked(name: str, make: Callable[[], Any], copies: int) -> None:
        make()  # parsed once here, so that a commit that can't read it skips it
        out[name] = lambda: all_rulesets(make, copies)

    group("format 1", format1)
    group("format 2", format2)
    group("format 2 sets", sets)
    group("format 2 doubling", lambda: checked("format 2 doubling 10^100, all rulesets", lambda: doubling_loop(10**100), 150))
    group("format 3 payments", lambda: checked("format 3 payments, intent 3, all rulesets", lambda: rhystic_loop(3), 150))
    group("format 3 payments", lambda: checked("format 3 payments, intent 10^100, all rulesets", lambda: rhystic_loop("10^100"), 150))
    if _has("rulesets.linear"):
        group("format 3 amounts", lambda: checked("format 3 amounts (Selvala), intent 3, all rulesets", lambda: selvala_loop(3), 50))
        group("format 3 amounts", lambda: checked("format 3 amounts (Selvala), intent 10^100, all rulesets", lambda: selvala_loop(10**100), 50))
    else:
        SKIPPED["format 3 amounts"] = "no rulesets.linear on this commit"
    group("format 3 nest", lambda: checked("format 3 nest (Grim Monolith), intent 3, all rulesets", lambda: nest_loop(3), 50))
    group("format 3 nest", lambda: checked("format 3 nest (Grim Monolith), intent 10^100, all rulesets", lambda: nest_loop(10**100), 50))

    # Start-up children run in an empty folder: ``python -m`` puts the working folder first on
    # sys.path, and this process's folder holds the other commit's checkout (measuring it twice).
    # Their bytecode goes to a cache of their own, written by an untimed first run, as an
    # installed package has it (PYTHONDONTWRITEBYTECODE would compile the package every run).
    quiet = tempfile.mkdtemp(prefix="loopcompare-startup-")
    atexit.register(shutil.rmtree, quiet, True)
    child_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    child_env["PYTHONPYCACHEPREFIX"] = os.path.join(quiet, "pycache")
    # What the ``loopcompare`` console script runs, with the checkout under test imported.
    script = f"import sys; from {_PREFIX}comparator.cli import main; sys.argv[0] = 'loopcompare'; sys.exit(main())"

    def startup(args: list[str], extra: dict[str, str] | None = None) -> tuple[float, str]:
        """The CPU time (user + system) of the command, best of 15 after an untimed run, in ms
        (a start-up differs from another by a few ms: fewer runs at a load of 2 gave per-pair
        ratios of 0.6 to 1.6)."""
        import resource

        env = {**child_env, **(extra or {})}
        subprocess.run(args, check=True, capture_output=True, cwd=quiet, env=env)
        times = []
        for _ in range(15):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(args, check=True, capture_output=True, cwd=quiet, env=env)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        return min(times) * 1000, "ms"

    completion = {"_LOOPCOMPARE_COMPLETE": "bash_complete", "COMP_WORDS": "loopcompare co", "COMP_CWORD": "1"}
    out["start-up: python -c 'import click'"] = lambda: startup([sys.executable, "-c", "import click"])
    out["start-up: loopcompare --help"] = lambda: startup([sys.executable, "-c", script, "--help"])
    out["start-up: completing 'loopcompare co'"] = lambda: startup([sys.executable, "-c", script], completion)

    # The slow ones (SLOW): wall-clock seconds, on one CPU and on two, in a child process whose
    # CPUs are pinned (the tool sizes its pool by the CPUs it may use), and that child's CPU seconds.
    for what in ("gallery", "atlas"):
        for cpus in (1, 2):
            if cpus <= len(_usable_cpus()):
                label = f"{what}: {'1 CPU' if cpus == 1 else f'{cpus} CPUs'}"
                out[f"{label}, wall"] = lambda what=what, cpus=cpus: (_pinned(what, cpus, fresh=True)[0], "s")
                out[f"{label}, CPU"] = lambda what=what, cpus=cpus: (_pinned(what, cpus, fresh=False)[1], "s")
    return out


def _usable_cpus() -> list[int]:
    return sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else list(range(os.cpu_count() or 1))


_PINNED: dict[tuple[str, int], tuple[float, float]] = {}


def _pinned(what: str, cpus: int, fresh: bool) -> tuple[float, float]:
    """(wall seconds, CPU seconds of it and its workers) of ``bench.py --once WHAT`` (the whole
    gallery rendered, or the gallery's atlas of the four mission rulesets, ``format1`` space)
    in a child process pinned to the first ``cpus`` of the CPUs this one may use.  The wall and
    the CPU benchmarks of one configuration share one run: the wall one runs it (``fresh``), the
    CPU one, run next, takes its figures (so a round costs one run per configuration)."""
    key = (what, cpus)
    if not fresh and key in _PINNED:
        return _PINNED.pop(key)
    import resource

    chosen = set(_usable_cpus()[:cpus])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--once", what],
        check=True, capture_output=True, preexec_fn=(lambda: os.sched_setaffinity(0, chosen)) if hasattr(os, "sched_setaffinity") else None,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    figures = (wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    _PINNED[key] = figures
    return figures


def once(what: str) -> None:
    """``--once gallery``: render the whole gallery (writing nothing); ``--once atlas``: the atlas
    of the four mission rulesets over the ``format1`` space, on the CPUs this process may use."""
    if what == "gallery":
        (_module("comparator.build") if _has("comparator.build") else _module("comparator.cli")).gallery_files()
    else:
        _module("comparator.atlas").build(registry().select([]), **({"space": "full"} if what == "atlas-full" else {}))


def _busy_cpu_seconds() -> float | None:
    """CPU seconds every process of the machine has used so far (/proc/stat; None elsewhere)."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    # user nice system idle iowait irq softirq steal: busy is all but idle and iowait
    busy = sum(fields[:8]) - fields[3] - fields[4]
    return busy / os.sysconf("SC_CLK_TCK")


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            return next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), platform.processor() or "unknown CPU")
    except OSError:
        return platform.processor() or "unknown CPU"


def parallel() -> None:
    """The atlas (the four mission rulesets, each space) and the whole gallery on one CPU and on
    two, each in a child pinned to its CPUs (the tool sizes its pool by the CPUs it may use), with
    what the neighbours took meanwhile: the speed-up of two CPUs over one is worth quoting only
    where both CPUs were free, and this says whether they were (``python benchmarks/bench.py
    --parallel`` runs only this part)."""
    usable = _usable_cpus()
    print(f"\non one CPU and on two ({len(usable)} usable of {os.cpu_count()}, {cpu_model()}); 'others' is the CPUs the rest of the machine used meanwhile (/proc/stat):")
    if len(usable) < 2:
        print("  only one CPU is usable here: no speed-up to measure")
        return
    for what, label in (("atlas", "atlas, format1 space (42,327 loops)"), ("atlas-full", "atlas, full space (137,603 loops)"), ("gallery", "the whole gallery (atlas and history included)")):
        walls = {}
        for cpus in (1, 2):
            busy = _busy_cpu_seconds()
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
            wall, cpu = _pinned(what, cpus, fresh=True)
            _PINNED.clear()
            others = None if busy is None else max(0.0, ((_busy_cpu_seconds() or 0.0) - busy - cpu) / wall)
            walls[cpus] = wall
            shown = "unknown" if others is None else f"{others:.1f} CPUs"
            print(f"  {label:<48} {cpus} CPU{'s' if cpus > 1 else ' '}  wall {wall:6.1f} s  CPU {cpu:6.1f} s  load at start {load:4.1f}  others {shown}")
            if cpus == 2 and others is not None and others > 0.5:
                print(f"  {'':<48} (others took {others:.1f} CPUs: fewer than 2 were free, so the speed-up below is the neighbours' as much as the tool's)")
        print(f"  {label:<48} speed-up of 2 CPUs over 1: {walls[1] / walls[2]:.2f}x")


def serve(only: list[str]) -> None:
    """A benchmark server on the commit this process imports: it prints its module and its
    benchmarks' names (JSON, one line), then runs each name it reads on stdin and prints the
    result, ``[value, unit]`` or null where the benchmark fails on this commit (a format it
    doesn't read). Each benchmark starts with no loop facts shared from the one before (commits
    that share them between equal loops, rulesets/facts.py's facts_of)."""
    module = _module("rulesets").__file__
    try:
        benchmarks = worker_benchmarks()
    except Exception as exc:  # the commit can't even generate the scenarios
        print(json.dumps({"module": module, "error": repr(exc), "names": []}), flush=True)
        return
    names = [n for n in benchmarks if (not only and not n.startswith(SLOW)) or any(word in n for word in only)]
    print(json.dumps({"module": module, "names": names, "skipped": SKIPPED}), flush=True)
    shared = getattr(_module("rulesets.facts"), "_shared", None) if _has("rulesets.facts") else None
    for line in sys.stdin:
        name = line.strip()
        if not name:
            break
        try:
            result: Any = None
            for _ in range(1 if name.startswith(SLOW) else 2):  # the better of two runs: a neighbour's burst or a collection hits one
                if shared is not None:
                    shared.clear()
                value, unit = benchmarks[name]()
                if result is None or (value > result[0] if unit in HIGHER else value < result[0]):
                    result = (value, unit)
        except Exception:
            result = None
        print(json.dumps(result), flush=True)


def machine() -> str:
    cpus = os.cpu_count()
    free = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cpus
    load = "load average %.1f %.1f %.1f" % os.getloadavg() if hasattr(os, "getloadavg") else "load unknown"
    return f"{platform.machine()} {cpu_model()}, {cpus} cores ({free} usable); Python {platform.python_version()}; {platform.system()}; {load}"


def _git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout.strip()


class _Side:
    """A benchmark server (:func:`serve`) in a fresh process importing ``checkout`` (a folder
    named loopcompare), checked to import that checkout's code."""

    def __init__(self, checkout: str, only: list[str], scratch: str) -> None:
        env = dict(os.environ)
        if os.path.exists(os.path.join(checkout, "__init__.py")):
            path, prefix = os.path.dirname(checkout), "loopcompare."
        else:  # before the package was loopcompare: rulesets and comparator were top-level packages
            path, prefix = checkout, ""
        env["PYTHONPATH"] = path + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env["LOOPCOMPARE_BENCH_PREFIX"] = prefix
        args = [sys.executable, os.path.abspath(__file__), "--serve", *[f"--only={w}" for w in only]]
        self.process = subprocess.Popen(args, env=env, cwd=scratch, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = json.loads(self._read(checkout))
        expected = os.path.join(os.path.realpath(checkout), "rulesets") + os.sep
        if not os.path.realpath(hello["module"]).startswith(expected):
            self.close()
            sys.exit(f"bench.py: {checkout} was not the code benchmarked ({hello['module']} was imported)")
        self.names: list[str] = hello["names"]
        self.skipped: dict[str, str] = hello.get("skipped", {})
        self.checkout = checkout

    def _read(self, checkout: str) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            sys.exit(f"bench.py: the benchmark failed on {checkout} (its traceback is above)")
        return line

    def run(self, name: str) -> Any:
        assert self.process.stdin is not None
        self.process.stdin.write(name + "\n")
        self.process.stdin.flush()
        return json.loads(self._read(self.checkout))

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def against(rev: str, rounds: int, only: list[str]) -> None:
    """This tree against commit ``rev``: one benchmark server per side, each benchmark run on one
    side then at once on the other (which goes first alternates), ``rounds`` times, and per
    benchmark both medians and the median of the per-pair ratios (above 1: this tree is faster).
    Figures are per CPU second of the benchmarking process (start-up: of the command), not of
    the wall clock, and the two sides never run at the same time."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sha = _git(here, "rev-parse", "--verify", f"{rev}^{{commit}}")
    label_here = _git(here, "describe", "--always", "--dirty")
    label_rev = _git(here, "describe", "--always", sha)
    import signal

    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))  # the worktree is removed below even then
    scratch = tempfile.mkdtemp(prefix="loopcompare-against-")
    checkout = os.path.join(scratch, "loopcompare")  # the folder's name is the package's name
    _git(here, "worktree", "add", "--detach", checkout, sha)
    sides: list[_Side] = []
    try:
        print(f"machine: {machine()}")
        print(f"this tree {label_here} ({here}) against {label_rev} ({sha[:12]}), {rounds} rounds, alternating\n")
        sides = [_Side(here, only, scratch), _Side(checkout, only, scratch)]
        mine, theirs = sides
        names = list(dict.fromkeys(mine.names + theirs.names))
        for side, label in ((mine, "this tree"), (theirs, label_rev)):
            for group, why in side.skipped.items():
                print(f"skipped on {label}: the {group} benchmarks ({why})")
            missing = [n for n in names if n not in side.names]
            if missing:
                print(f"not on {label} (n/a below): {', '.join(missing)}")
        results: dict[str, list[tuple[Any, Any]]] = {n: [] for n in names}
        for number in range(rounds):
            for index, name in enumerate(names):
                if (number + index) % 2 == 0:
                    a = mine.run(name) if name in mine.names else None
                    b = theirs.run(name) if name in theirs.names else None
                else:
                    b = theirs.run(name) if name in theirs.names else None
                    a = mine.run(name) if name in mine.names else None
                results[name].append((a, b))
            print(f"  round {number + 1} of {rounds} done ({machine().rsplit('; ', 1)[-1]})", file=sys.stderr)
        width = max(len(n) for n in names) if names else 10
        print(f"{'benchmark':<{width}}  {'this tree':>12}  {label_rev:>12}  {'ratio':>6}  (per-pair ratios: min-max)")
        for name in names:
            pairs = [(a, b) for a, b in results[name] if a and b]
            if not pairs:
                shown = next((a for a, _ in results[name] if a), None)
                value = f"{shown[0]:,.1f} {shown[1]}" if shown else "n/a"
                print(f"{name:<{width}}  {value:>12}  {'n/a':>12}")
                continue
            unit = pairs[0][0][1]
            ratios = [(a[0] / b[0]) if unit in HIGHER else (b[0] / a[0]) for a, b in pairs]
            fmt = "{:,.0f}" if unit in HIGHER else "{:,.1f}"
            print(
                f"{name:<{width}}  {fmt.format(statistics.median(a[0] for a, _ in pairs)) + ' ' + unit:>12}"
                f"  {fmt.format(statistics.median(b[0] for _, b in pairs)) + ' ' + unit:>12}"
                f"  {statistics.median(ratios):5.2f}x  ({min(ratios):.2f}-{max(ratios):.2f})"
            )
        key3, keyg = "format 3 payments, intent 3, all rulesets", "format 3 payments, intent 10^100, all rulesets"
        for side, label in ((0, "this tree"), (1, label_rev)):
            both = [(r3[side][0], rg[side][0]) for r3, rg in zip(results.get(key3, []), results.get(keyg, [])) if r3[side] and rg[side]]
            if both:
                ratio = statistics.median(three / googol for three, googol in both)
                print(f"format 3 payments, a googol of iterations costs {ratio:.2f}x intent 3's time ({label})")
        print("ratio: this tree's speed over the other's (for times, the other's time over this tree's); rates and times in CPU time")
        print(f"machine at the end: {machine()}")
    finally:
        for side in sides:
            side.close()
        subprocess.run(["git", "-C", here, "worktree", "remove", "--force", checkout], capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)


def _option(name: str, default: str | None = None) -> str | None:
    for i, arg in enumerate(sys.argv[1:], 1):
        if arg == name and i + 1 < len(sys.argv):
            return sys.argv[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return default


def main() -> None:
    only = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--only=")]
    what = _option("--once")
    if what is not None:
        once(what)
        return
    if "--serve" in sys.argv[1:]:
        serve(only)
        return
    rev = _option("--against")
    if rev is not None:
        against(rev, int(_option("--rounds", "5") or 5), only)
        return
    if "--plugins" in sys.argv[1:]:
        plugins()
        return
    if "--parallel" in sys.argv[1:]:
        print(f"machine: {machine()}")
        parallel()
        return
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}; Python {platform.python_version()}; {platform.system()}")
    scenarios = generated(3000)
    print(f"\nresolutions per second over {len(scenarios):,} generated scenarios:")
    for ruleset in registry().rulesets:
        elapsed = best_of(lambda: [ruleset.settle(s) for s in scenarios], repeat=3)
        print(f"  {ruleset.key:<12} {len(scenarios) / elapsed:>10,.0f} /s")

    format2 = generated_format2(1000)
    print(f"\nformat 2: resolutions per second over {len(format2):,} generated scenarios:")
    for ruleset in registry().rulesets:
        # A fresh scenario object each round, so nothing cached from the previous round is reused.
        elapsed = best_of(lambda: [ruleset.settle(dataclasses.replace(s)) for s in format2], repeat=3)
        print(f"  {ruleset.key:<12} {len(format2) / elapsed:>10,.0f} /s")

    sets = independent_sets_format2(300)
    print(f"\nformat 2 independent sets (per-player values, run by the engine): resolutions per second over {len(sets):,}:")
    for key in ("cr-2005", "cr-2008"):
        ruleset = registry().get(key)
        elapsed = best_of(lambda: [ruleset.settle(dataclasses.replace(s)) for s in sets], repeat=3)
        print(f"  {key:<12} {len(sets) / elapsed:>10,.0f} /s")

    print("\nsettling one doubling loop (format 2, all rulesets), by the size of the intent:")
    base = None
    for label, number in (("3", 3), ("10^6", 10**6), ("10^100", 10**100)):
        def settle_fresh():
            scenario = doubling_loop(number)
            return [r.settle(scenario) for r in registry().rulesets]

        elapsed = best_of(lambda: [settle_fresh() for _ in range(50)]) / 50
        base = base or elapsed
        print(f"  intent {label:<7} {elapsed * 1e6:8.1f} µs   ratio to 3: {elapsed / base:.2f}")

    print("\nsettling one token loop (all rulesets), by the size of the intent:")
    base = None
    for label, number in (("3", 3), ("10^6", 10**6), ("10^100", 10**100)):
        scenario = token_loop(number)
        elapsed = best_of(lambda: [r.settle(scenario) for r in registry().rulesets for _ in range(200)]) / 200
        base = base or elapsed
        print(f"  intent {label:<7} {elapsed * 1e6:8.1f} µs   ratio to 3: {elapsed / base:.2f}")

    print("\nsettling one format 3 payments loop (tests/format3/scenarios/rhystic-study.toml's, all rulesets), by the size of the intent:")
    base = None
    for label, after in (("3", 3), ("10^6", 10**6), ("10^100", "10^100")):
        scenario = rhystic_loop(after)
        elapsed = best_of(lambda: [r.settle(dataclasses.replace(scenario)) for r in registry().rulesets for _ in range(50)]) / 50
        base = base or elapsed
        print(f"  intent {label:<7} {elapsed * 1e6:8.1f} µs   ratio to 3: {elapsed / base:.2f}")

    print("\nsettling Selvala and Umbral Mantle (format 3 amounts, all rulesets), by the size of the intent (goal: a googol within 1.1x of 3):")
    base = None
    for label, number in (("3", 3), ("10^6", 10**6), ("10^100", 10**100)):
        def settle_selvala():
            scenario = selvala_loop(number)
            return [r.settle(scenario) for r in registry().rulesets]

        elapsed = best_of(lambda: [settle_selvala() for _ in range(50)], repeat=9) / 50
        base = base or elapsed
        print(f"  intent {label:<7} {elapsed * 1e6:8.1f} µs   ratio to 3: {elapsed / base:.2f}")

    print("\nsettling Grim Monolith feeding Staff of Domination (format 3, an inner loop inside each iteration; all rulesets), by the size of the intent:")
    base = None
    for label, number in (("3", 3), ("10^6", 10**6), ("10^100", 10**100)):
        def settle_nest():
            scenario = nest_loop(number)
            return [r.settle(scenario) for r in registry().rulesets]

        elapsed = best_of(lambda: [settle_nest() for _ in range(20)], repeat=5) / 20
        base = base or elapsed
        print(f"  intent {label:<7} {elapsed * 1e6:8.1f} µs   ratio to 3: {elapsed / base:.2f}")

    print("\nsettling one format 3 stack loop (a moved point, two steps after the cut; all rulesets), by the size of the intent:")
    base = None
    for label, number in (("3", 3), ("10^6", 10**6), ("10^100", 10**100)):
        def settle_stack():
            scenario = stack_loop(number)
            return [r.settle(scenario) for r in registry().rulesets]

        elapsed = best_of(lambda: [settle_stack() for _ in range(50)]) / 50
        base = base or elapsed
        print(f"  intent {label:<7} {elapsed * 1e6:8.1f} µs   ratio to 3: {elapsed / base:.2f}")

    def run(args):
        return best_of(lambda: subprocess.run(args, check=True, capture_output=True), repeat=5)

    bare = run([sys.executable, "-c", "pass"])
    cli = run([sys.executable, "-m", "loopcompare.comparator.cli", "--help"])
    print(f"\nstart-up: python -c pass {bare * 1000:.0f} ms; loopcompare --help {cli * 1000:.0f} ms (+{(cli - bare) * 1000:.0f} ms)")

    parallel()
    plugins()


if __name__ == "__main__":
    main()
