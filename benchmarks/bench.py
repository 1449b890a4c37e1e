"""loopcompare benchmarks: run with ``python benchmarks/bench.py`` (after ``pip install .``).

Prints:

* resolutions per second per ruleset over a few thousand generated scenarios;
* the cost of settling an intent of 10^6 against one of 10^100, and of 3 (the ratios should be
  about 1: outcomes are computed in closed form, never iteration by iteration);
* the CLI's start-up time against ``python -c pass``;
* the atlas's size, time and throughput, on one process and on all CPUs;
* the time to render the whole gallery.

Figures vary by machine; the README records one run.  Nothing here is a pass/fail test.
"""

from __future__ import annotations

import platform
import random
import subprocess
import sys
import time

from loopcompare.comparator.cli import gallery_files
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


def main() -> None:
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}; Python {platform.python_version()}; {platform.system()}")
    scenarios = generated(3000)
    print(f"\nresolutions per second over {len(scenarios):,} generated scenarios:")
    for ruleset in registry().rulesets:
        elapsed = best_of(lambda: [ruleset.settle(s) for s in scenarios], repeat=3)
        print(f"  {ruleset.key:<12} {len(scenarios) / elapsed:>10,.0f} /s")

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
    print(f"\nthe atlas: {atlas.size():,} loops, {len(atlas.shapes()):,} shapes, under {len(mission)} rulesets")
    for jobs in (1, None):
        start = time.perf_counter()
        result = atlas.build(mission, jobs=jobs)
        elapsed = time.perf_counter() - start
        label = "1 process" if jobs == 1 else "all CPUs"
        print(f"  {label:<10} {elapsed:6.1f} s   {result.total / elapsed:8,.0f} loops/s   {len(result.classes)} classes")

    start = time.perf_counter()
    files = gallery_files()
    elapsed = time.perf_counter() - start
    print(f"\nrendering the whole gallery ({len(files)} files, atlas included): {elapsed:.1f} s")


if __name__ == "__main__":
    main()
