"""Random format 3 documents that mix every feature, for the robustness test.

Like tests/support/format2_fuzz.py, these are not checked against a second implementation: they
reach combinations nobody wrote a test for (a payment inside an inner run, a loss replaced once
right after a mana ability, a part after a random part, an amount that reads a per-phase value...)
and show that every valid one settles under every ruleset and renders with no exception. Each
document mixes format 3's keys (docs/FORMAT.md items 23-31: ``priority``, ``still_resolves``,
payments, ``instead``/``once``, dates, string amounts, ``[[inner]]``/``run``, ``[[then]]``) with
format 2's (targets, per-player values, ends that make players lose, requirements, ``times``,
goals, ``{after, step}`` intents, huge numbers, independent sets, inner points). Roughly a third
to a half of the documents are valid; the loader refuses the rest with a ScenarioError, which is
fine.
"""

from __future__ import annotations

import random
from typing import Any

PLAYERS = ["Alice", "Bob", "Carol", "Dave"]
#: Plain integer values an amount may read (declared in every document).
PLAIN = ["mana", "power", "x", "w"]
DATES = ["1998-05-01", "2004-06-01", "2008-10-01", "2009-07-11", "2018-07-13", "2024-06-07"]
HUGE = ["10^100", "2^64", "3*10^50", "10^999"]


def _int(rng: random.Random, lo: int, hi: int) -> int | str:
    """A small integer, now and then a huge one written as item 14's string."""
    return rng.choice(HUGE) if rng.random() < 0.05 else rng.randint(lo, hi)


def _amount(rng: random.Random) -> str:
    """An item 28 amount over the plain values: ``"x"``, ``"-2*x - w + 1"``..."""
    text = ""
    for k in range(rng.randint(1, 3)):
        coef = rng.choice([1, 1, 2, -1, 3, -2])
        term = rng.choice(PLAIN) if abs(coef) == 1 else f"{abs(coef)}*{rng.choice(PLAIN)}"
        text += ("-" if coef < 0 else "") + term if k == 0 else (" - " if coef < 0 else " + ") + term
    if rng.random() < 0.5:
        c = rng.randint(-3, 3)
        text += f" - {-c}" if c < 0 else f" + {c}"
    return text


def _unless(rng: random.Random, players: list[str], step: dict[str, Any], state: dict[str, Any], *, nested: bool) -> dict[str, Any]:
    """An ``unless``: format 1's breaking kind, or item 25's payment."""
    others = [p for p in players if p != step["by"]] if rng.random() < 0.95 else players
    unless: dict[str, Any] = {"by": rng.choice(others), "does": rng.choice(["pays {1}", "discards", "<i>sacs</i>"])}
    if rng.random() < 0.65 or nested:
        unless["breaks"] = False
        if "target" in step and rng.random() < 0.5:
            unless["by"] = "target"
        costs = [{name: amount} for name, amount in (("mana", -1), ("hand", -1), ("life", -2), ("lib", -1), ("power", -1)) if name in state or rng.random() < 0.05]
        costs = costs or [{"mana": -1}]
        if rng.random() < 0.6:
            unless["pay"] = rng.choice(costs)
        else:
            unless["pay_any"] = rng.sample(costs, rng.randint(1, 3))
        roll = rng.random()
        if roll < 0.3:
            pays: Any = rng.choice(["always", "never", rng.randint(0, 4)])
            if unless["by"] == "target" and rng.random() < 0.7:
                pays = {p: rng.choice(["always", "never", rng.randint(0, 3)]) for p in rng.sample(players, rng.randint(1, len(players)))}
            unless["pays"] = pays
    elif rng.random() < 0.3:
        unless["still_resolves"] = rng.randint(0, 3)
    return unless


def _step(rng: random.Random, players: list[str], state: dict[str, Any], inner_ids: list[str], *, nested: bool) -> dict[str, Any]:
    step: dict[str, Any] = {"by": rng.choice(players), "does": rng.choice(["acts", "<b>x</b>", "zap", "taps for {G}"])}
    roll = rng.random() if not nested or rng.random() < 0.03 else 1.0  # an inner step has no choice (a few do: refused)
    if roll < 0.4:
        step["optional"] = True
        if rng.random() < 0.15:
            step["sustains"] = False
    elif roll < 0.48:
        step["choice"] = True
        step["alternative"] = "does something else"
    kind = rng.random()
    if kind < 0.12:
        step["mul"] = {rng.choice(["tokens", "x", "w"]): rng.choice([0, 1, 2, 3])}
        if rng.random() < 0.3:
            step["add"] = {rng.choice(PLAIN): _amount(rng)}
    elif kind < 0.3:
        step["add"] = {rng.choice(PLAIN): _amount(rng)}
        if rng.random() < 0.4:
            step["add"][rng.choice(PLAIN)] = rng.choice([-2, -1, 1, 2])
        if rng.random() < 0.3:
            step["requires"] = {"mana": rng.randint(0, 3)}
    elif kind < 0.45:
        step["add"] = {"mana": rng.choice([-2, -1, 1, 2, 3])}
        if rng.random() < 0.5:
            step["requires"] = {"mana": rng.randint(0, 2)}
    elif kind < 0.62:
        step["add"] = {"life": rng.choice([-1, -2, -3, 1])}
        among = rng.sample(players, rng.randint(1, len(players)))
        step["target"] = {"among": among, "order": rng.choice(["each", "fixed"] if nested else ["rotate", "each", "fixed"])}
    elif kind < 0.68:
        step["set"] = {"flag": rng.random() < 0.5}
    elif kind < 0.76:
        step["add"] = {"tokens": rng.choice([-1, 1, 5])}
    elif kind < 0.8 and "lib" in state:
        step["add"] = {"lib": rng.choice([-3, -1, 2])}
    elif kind < 0.85:
        step["set"] = {rng.choice(PLAIN): _int(rng, -2, 6)}
    elif kind < 0.9:
        step["mul"] = {"life": rng.choice([0, 2, 3])}
        step["target"] = {"among": rng.sample(players, rng.randint(1, len(players))), "order": rng.choice(["each", "fixed"])}
    if rng.random() < 0.25:
        step["priority"] = False
    if not nested and rng.random() < 0.05:
        step["turn"] = rng.choice(players)
    if rng.random() < 0.1:
        step["times"] = rng.choice([2, 3, 7])
    if rng.random() < (0.005 if nested else 0.07):
        step["random"] = True
        step["ends_loop"] = {"when": "a flip is lost", "chance": rng.choice(["1/2", "1/3", "1/1"])}
    if rng.random() < 0.05:
        step["conditional"] = True
    if rng.random() < 0.08 and (step.get("optional") or step.get("choice")):
        step["hidden"] = True
    if rng.random() < 0.25:
        step["unless"] = _unless(rng, players, step, state, nested=nested)
    if not nested and inner_ids and rng.random() < 0.25:
        run: dict[str, Any] = {"inner": rng.choice(inner_ids)}
        if rng.random() < 0.5:
            run["times"] = _int(rng, 0, 4)
        else:
            run["until"] = {"value": rng.choice(["mana", "tokens", "x"]), rng.choice(["at_least", "at_most"]): rng.randint(-2, 12)}
        step["run"] = run
    return step


def _ends(rng: random.Random, players: list[str], state: dict[str, Any]) -> list[dict[str, Any]]:
    ends: list[dict[str, Any]] = []
    if rng.random() < 0.55:
        end: dict[str, Any] = {"when": {"value": "life", "at_most": 0}, "effect": "that player loses the game", "loses": True}
        if rng.random() < 0.25:
            end["instead"] = {"player": rng.choice(players), "set": {"life": rng.randint(1, 20)}}
            end["once"] = True
        if rng.random() < 0.1:
            end["except"] = [rng.choice(players)]
        ends.append(end)
    if rng.random() < 0.3:
        ends.append({"when": {"value": rng.choice(["tokens", "x", "power"]), "at_least": _int(rng, 5, 60)}, "effect": "enough"})
    if rng.random() < 0.2:
        end = {"when": {"value": "mana", "at_most": 0}, "effect": "out of mana", "loses": rng.choice(players)}
        if rng.random() < 0.3:
            end["instead"] = {"set": {"mana": rng.randint(1, 9)}}
            end["once"] = True
        ends.append(end)
    return ends


def _has_point(player: str, steps: list[dict[str, Any]], breakers: list[dict[str, Any]]) -> bool:
    """Roughly the loader's item 7 (a few documents still get an intent it refuses)."""
    if any(s.get("optional") and s.get("sustains", True) for s in steps):
        return True
    mine = any(s["by"] == player and s.get("choice") for s in steps)
    return mine or any(b["by"] == player for b in breakers) or any(s.get("unless", {}).get("by") == player and s["unless"].get("breaks", True) for s in steps)


def _intents(rng: random.Random, players: list[str], steps: list[dict[str, Any]], breakers: list[dict[str, Any]]) -> dict[str, Any]:
    intents: dict[str, Any] = {}
    runs = [j for j, s in enumerate(steps) if "run" in s]
    for p in players:
        if not _has_point(p, steps, breakers) and rng.random() < 0.9:
            continue
        roll = rng.random()
        if roll < 0.3:
            intents[p] = rng.randint(0, 30)
        elif roll < 0.4:
            intents[p] = "never"
        elif roll < 0.5:
            intents[p] = rng.choice(HUGE)
        elif roll < 0.6:
            intents[p] = {"until": {"value": rng.choice(["tokens", "x", "mana"]), "at_least": rng.randint(1, 100)}}
        elif roll < 0.7:
            intents[p] = {"after": _int(rng, 0, 5), "step": rng.randint(0, len(steps) - 1)}
        elif roll < 0.76 and runs:
            intents[p] = {"after": rng.randint(0, 4), "step": rng.choice(runs), "inner": {"after": rng.randint(0, 3), "step": rng.randint(0, 1)}}
    return intents


def _breakers(rng: random.Random, players: list[str]) -> list[dict[str, Any]]:
    if rng.random() >= 0.25:
        return []
    breaker: dict[str, Any] = {"by": rng.choice(players), "does": "bolts the engine", "hidden": rng.random() < 0.3}
    if rng.random() < 0.5:
        breaker["still_resolves"] = rng.randint(0, 3)
    return [breaker]


def _inner(rng: random.Random, players: list[str], state: dict[str, Any], k: int) -> dict[str, Any]:
    inner: dict[str, Any] = {"id": f"in{k}", "step": [_step(rng, players, state, [], nested=True) for _ in range(rng.randint(1, 2))]}
    if rng.random() < 0.03:
        inner["breaker"] = _breakers(rng, players) or [{"by": rng.choice(players), "does": "stops it"}]
    return inner


def _part(rng: random.Random, players: list[str], state: dict[str, Any], *, top: bool) -> dict[str, Any]:
    """The fields of one loop: the document's own, or a ``[[then]]`` part's."""
    part: dict[str, Any] = {}
    inners = [_inner(rng, players, state, k) for k in range(rng.randint(1, 2))] if rng.random() < 0.3 else []
    ids = [i["id"] for i in inners]
    steps = [_step(rng, players, state, ids, nested=False) for _ in range(rng.randint(1, 4))]
    if inners:
        part["inner"] = inners
    part["step"] = steps
    ends = _ends(rng, players, state)
    if ends:
        part["end"] = ends
    loop: dict[str, Any] = {}
    if rng.random() < 0.15:
        loop["independent"] = True
    if rng.random() < 0.1:
        loop["within"] = "resolution"
    if top and rng.random() < 0.12:
        loop["exists_from"] = rng.choice(DATES)
        loop["because"] = "a card's text changed"
    if loop:
        part["loop"] = loop
    breakers = _breakers(rng, players)
    if breakers:
        part["breaker"] = breakers
    intents = _intents(rng, players, steps, breakers)
    if intents:
        part["intent"] = intents
    return part


def document(rng: random.Random, i: int) -> dict[str, Any]:
    """One random format 3 scenario document (not necessarily valid)."""
    players = PLAYERS[: rng.randint(2, 4)]
    state: dict[str, Any] = {
        "tokens": rng.randint(0, 3),
        "mana": {"start": rng.randint(0, 6), "min": 0},
        "power": rng.randint(-1, 4),
        "x": _int(rng, 0, 3),
        "w": rng.randint(0, 2),
        "flag": rng.random() < 0.5,
        "life": {p: rng.randint(1, 12) for p in players},
    }
    if rng.random() < 0.4:
        state["hand"] = {p: rng.randint(0, 3) for p in players}
    if rng.random() < 0.3:
        state["lib"] = {"start": rng.randint(0, 9), "min": 0, "max": 20}
    if rng.random() < 0.3:
        state["mana"]["max"] = rng.randint(6, 40)
    if rng.random() < 0.2:  # floors and ceilings on the values amounts read, and huge starts
        state[rng.choice(["x", "w", "power"])] = {"start": rng.randint(0, 3), "min": rng.choice([-5, 0]), "max": rng.choice([10, 10**6])}
    if rng.random() < 0.1:
        state["tokens"] = rng.choice(HUGE)
    doc: dict[str, Any] = {"format": 3, "title": f"generated {i}", "players": players, "state": state}
    doc.update(_part(rng, players, state, top=True))
    if rng.random() < 0.12:
        doc["card"] = [{"name": "Time Vault", "oracle_from": rng.choice(DATES)}]
    if rng.random() < 0.25:
        parts = []
        for k in range(rng.randint(1, 2)):
            part = _part(rng, players, state, top=False)
            part["title"] = f"part {k + 2}"
            parts.append(part)
        doc["then"] = parts
    if rng.random() < 0.7:
        _settleable(doc)
    return doc


def _settleable(doc: dict[str, Any]) -> None:
    """Amounts with payments or a replaced end are an engine limit (refused): in most documents
    with amounts, drop the payments and ``instead`` so that the amounts get settled."""
    loops = [doc, *doc.get("then", [])]
    steps = [s for loop in loops for s in loop["step"]] + [t for loop in loops for i in loop.get("inner", []) for t in i["step"]]
    if not any(isinstance(v, str) for s in steps for v in s.get("add", {}).values()):
        return
    for s in steps:
        if s.get("unless", {}).get("breaks") is False:
            del s["unless"]
    for loop in loops:
        for end in loop.get("end", []):
            end.pop("instead", None)
            end.pop("once", None)
