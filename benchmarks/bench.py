"""loopcompare benchmarks: run with ``python benchmarks/bench.py`` (after ``pip install .``).

Prints:

* resolutions per second per ruleset over a few thousand generated scenarios (format 1, format 2,
  and format 2's independent sets under the eras that run each set its own number of times);
* the cost of settling an intent of 10^6 against one of 10^100, and of 3 (the ratios should be
  about 1: outcomes are computed in closed form, never iteration by iteration), for a doubling
  loop, a token loop and a format 3 loop whose amounts read other values (Selvala and Umbral
  Mantle: a googol of iterations within 1.1x of three);
* the CLI's start-up time against ``python -c pass``;
* the atlas's size, time and throughput, on one process and on two, for each space;
* the time to render the whole gallery;
* a third-party ruleset's cost per scenario in the tool's process and isolated in a worker
  process (``--isolate-plugins``), and a worker's start-up (``python benchmarks/bench.py
  --plugins`` runs only this part).

Figures vary by machine; docs/DEVELOPING.md records one run.  Nothing here is a pass/fail test.
"""

from __future__ import annotations

import dataclasses
import os
import platform
import random
import subprocess
import sys
import time

from loopcompare.comparator.build import gallery_files
from loopcompare.comparator.loader import parse_document
from loopcompare.rulesets import registry

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


def selvala_loop(number: int):
    """The library's Selvala and Umbral Mantle (format 3: the mana is her power, a quadratic) with
    a count for Alice instead of her goal."""
    import copy
    import tomllib
    from importlib import resources

    if not _SELVALA:
        text = resources.files("loopcompare.comparator").joinpath("library", "selvala-heart-of-the-wilds-umbral-mantle.toml").read_text(encoding="utf-8")
        _SELVALA.append(tomllib.loads(text))
    doc = copy.deepcopy(_SELVALA[0])
    doc["intent"]["Alice"] = number if number < 10**18 else f"10^{len(str(number)) - 1}"
    return parse_document(doc, "selvala.toml", "selvala").scenario


_SELVALA: list = []


def stack_loop(number: int):
    """Format 3 (FORMAT items 23-24): a mana ability (priority = false) in a doubling loop, and a
    breaker whose point moves past it and who leaves both steps on the stack to resolve."""
    from loopcompare.rulesets.scenario import Breaker, Intent, Scenario, Step

    steps = (
        Step("Alice", "taps a land for mana", optional=True, priority=False, add={"mana": 1}),
        Step("Alice", "copies every token", optional=True, mul={"tokens": 2}, add={"mana": -1}),
        Step("Alice", "a trigger untaps the land"),
    )
    return Scenario(
        "stack", ("Alice", "Bob"), steps, state={"tokens": 3, "mana": 0},
        breakers=(Breaker("Bob", "destroys the land in response", still_resolves=2),),
        intents={"Alice": Intent(), "Bob": Intent(number, 1)}, format=3,
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


def main() -> None:
    if "--plugins" in sys.argv[1:]:
        plugins()
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

    print("\nsettling Selvala and Umbral Mantle (format 3 amounts, all rulesets), by the size of the intent (goal: a googol within 1.1x of 3):")
    base = None
    for label, number in (("3", 3), ("10^6", 10**6), ("10^100", 10**100)):
        def settle_selvala():
            scenario = selvala_loop(number)
            return [r.settle(scenario) for r in registry().rulesets]

        elapsed = best_of(lambda: [settle_selvala() for _ in range(50)], repeat=9) / 50
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

    print("\nsettling one token loop (all rulesets), by the size of the intent:")
    base = None
    for label, number in (("3", 3), ("10^6", 10**6), ("10^100", 10**100)):
        scenario = token_loop(number)
        elapsed = best_of(lambda: [r.settle(scenario) for r in registry().rulesets for _ in range(200)]) / 200
        base = base or elapsed
        print(f"  intent {label:<7} {elapsed * 1e6:8.1f} µs   ratio to 3: {elapsed / base:.2f}")

    def run(args):
        return best_of(lambda: subprocess.run(args, check=True, capture_output=True), repeat=5)

    bare = run([sys.executable, "-c", "pass"])
    cli = run([sys.executable, "-m", "loopcompare.comparator.cli", "--help"])
    print(f"\nstart-up: python -c pass {bare * 1000:.0f} ms; loopcompare --help {cli * 1000:.0f} ms (+{(cli - bare) * 1000:.0f} ms)")

    from loopcompare.comparator import atlas

    mission = registry().select([])
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    for space in ("format1", "full"):
        print(f"\nthe atlas, space {space!r}: {atlas.size(space=space):,} loops, {len(atlas.shapes(space=space)):,} shapes, under {len(mission)} rulesets ({cpus} CPUs, load average {load:.1f} at the start)")
        for jobs in (1, 2):
            cpu = _cpu_seconds()
            start = time.perf_counter()
            result = atlas.build(mission, jobs=jobs, space=space)
            elapsed = time.perf_counter() - start
            cpu = _cpu_seconds() - cpu
            label = "1 process" if jobs == 1 else "2 processes"
            # CPU seconds too: on a shared machine the wall time says more about the neighbours.
            print(f"  {label:<11} {elapsed:6.1f} s   {result.total / elapsed:8,.0f} loops/s   CPU {cpu:6.1f} s   {len(result.classes)} classes")

    start = time.perf_counter()
    files = gallery_files()
    elapsed = time.perf_counter() - start
    print(f"\nrendering the whole gallery ({len(files)} files, atlas included): {elapsed:.1f} s")
    plugins()


if __name__ == "__main__":
    main()
