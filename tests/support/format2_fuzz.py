"""Random format 2 documents that mix every feature, for the robustness test.

Unlike the oracle's generator (tests/support/oracle.py), these are not checked against a second
implementation: they are meant to reach combinations nobody wrote a test for (independent sets
with per-player values, a breaker who leaves the game, events inside a resolution...) and show
that every valid one settles under every ruleset and renders, with no exception. About half of
the documents are valid; the loader refuses the rest with a ScenarioError, which is fine.
"""

from __future__ import annotations

import random
from typing import Any

PLAYERS = ["Alice", "Bob", "Carol", "Dave"]


def document(rng: random.Random, i: int) -> dict[str, Any]:
    """One random format 2 scenario document (not necessarily valid)."""
    players = PLAYERS[: rng.randint(2, 4)]
    state: dict[str, Any] = {
        "tokens": rng.randint(0, 3),
        "mana": {"start": rng.randint(0, 6), "min": 0},
        "flag": rng.random() < 0.5,
        "life": {p: rng.randint(1, 12) for p in players},
    }
    if rng.random() < 0.3:
        state["lib"] = {"start": rng.randint(0, 9), "min": 0, "max": 20}
    steps: list[dict[str, Any]] = []
    for _ in range(rng.randint(1, 5)):
        step: dict[str, Any] = {"by": rng.choice(players), "does": rng.choice(["acts", "<b>x</b>", "zap"])}
        roll = rng.random()
        if roll < 0.45:
            step["optional"] = True
            if rng.random() < 0.2:
                step["sustains"] = False
        elif roll < 0.55:
            step["choice"] = True
            step["alternative"] = "does something else"
        kind = rng.random()
        if kind < 0.2:
            step["mul"] = {"tokens": rng.choice([0, 1, 2, 3])}
        elif kind < 0.4:
            step["add"] = {"mana": rng.choice([-2, -1, 1, 2])}
            if rng.random() < 0.6:
                step["requires"] = {"mana": rng.randint(0, 2)}
        elif kind < 0.6:
            step["add"] = {"life": rng.choice([-1, -2, 1])}
            among = rng.sample(players, rng.randint(1, len(players)))
            step["target"] = {"among": among, "order": rng.choice(["rotate", "each", "fixed"])}
        elif kind < 0.7:
            step["set"] = {"flag": rng.random() < 0.5}
        elif kind < 0.8:
            step["add"] = {"tokens": rng.choice([-1, 1, 5])}
        elif kind < 0.85 and "lib" in state:
            step["add"] = {"lib": rng.choice([-3, -1, 2])}
        if rng.random() < 0.15:
            step["times"] = rng.choice([2, 3, 7])
        if rng.random() < 0.1:
            step["random"] = True
            step["ends_loop"] = {"when": "a flip is lost", "chance": rng.choice(["1/2", "1/3", "1/1"])}
        if rng.random() < 0.1 and (step.get("optional") or step.get("choice")):
            step["hidden"] = True
        if rng.random() < 0.1 and steps:
            step["turn"] = rng.choice(players)
        if rng.random() < 0.1:
            step["unless"] = {"by": rng.choice(players), "does": "pays {1}"}
        steps.append(step)
    doc: dict[str, Any] = {"format": 2, "title": f"generated {i}", "players": players, "state": state, "step": steps}
    ends = []
    if rng.random() < 0.6:
        ends.append({"when": {"value": "life", "at_most": 0}, "effect": "that player loses the game", "loses": True})
    if rng.random() < 0.3:
        ends.append({"when": {"value": "tokens", "at_least": rng.randint(5, 50)}, "effect": "enough tokens"})
    if rng.random() < 0.2:
        ends.append({"when": {"value": "mana", "at_most": 0}, "effect": "out of mana", "loses": rng.choice(players)})
    if ends:
        doc["end"] = ends
    loop: dict[str, Any] = {}
    if rng.random() < 0.2:
        loop["independent"] = True
    if rng.random() < 0.1:
        loop["within"] = "resolution"
    if loop:
        doc["loop"] = loop
    if rng.random() < 0.2:
        doc["breaker"] = [{"by": rng.choice(players), "does": "destroys the engine", "hidden": rng.random() < 0.5}]
    intents: dict[str, Any] = {}
    for p in players:
        roll = rng.random()
        if roll < 0.3:
            intents[p] = rng.randint(0, 30)
        elif roll < 0.4:
            intents[p] = "never"
        elif roll < 0.5:
            intents[p] = "10^50"
        elif roll < 0.6:
            intents[p] = {"until": {"value": "tokens", "at_least": rng.randint(1, 100)}}
        elif roll < 0.65:
            intents[p] = {"after": rng.randint(0, 5), "step": rng.randint(0, len(steps) - 1)}
    if intents:
        doc["intent"] = intents
    return doc
