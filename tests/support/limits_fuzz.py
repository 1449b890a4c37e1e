"""Random format 2 documents at the loader's limits, for the settling-cost property test.

Each knob the loader bounds is drawn either small or at its limit: the number of players
(:data:`~loopcompare.comparator.loader.MAX_PLAYERS`), of steps (``MAX_STEPS``), a step's
``times`` (``MAX_TIMES``) and the digits of a number (``MAX_DIGITS``), in multiplications,
additions, requirements, bounds, floors, ceilings, starts and intents.  The documents are
meant to be valid (the loader may still refuse a few, which is fine): what is tested is that
whatever loads settles in bounded work.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from loopcompare.comparator.loader import MAX_DIGITS, MAX_PLAYERS, MAX_STEPS, MAX_TIMES

#: The largest number a file may hold, and other far ones.
BIG = 10**MAX_DIGITS - 1


def _number(draw: Any, *, positive: bool = False, small: tuple[int, int] = (-3, 5)) -> int:
    """A number: small, or huge (up to the loader's limit on digits)."""
    lo, hi = (1, small[1]) if positive else small
    kind = draw(st.sampled_from(["small", "small", "power", "limit"]))
    if kind == "small":
        return draw(st.integers(lo, hi))
    if kind == "power":
        return draw(st.sampled_from([10**6, 2**64, 10**100, 10**500]))
    return BIG if positive or draw(st.booleans()) else -BIG


def _size(draw: Any, limit: int, small: int) -> int:
    """1 to ``small``, or the loader's limit itself."""
    return draw(st.sampled_from([draw(st.integers(1, small)), limit]))


@st.composite
def limit_docs(draw: Any) -> dict[str, Any]:
    """A format 2 scenario with players, steps, ``times`` and digits at or near the limits."""
    n_players = max(2, _size(draw, MAX_PLAYERS, 4))
    players = [f"P{i}" for i in range(n_players)]
    tokens = min(_number(draw, positive=True), BIG - 1)
    ceiling = draw(st.sampled_from([BIG, 10**6, 20]))
    state: dict[str, Any] = {
        "tokens": tokens,
        "mana": {"start": draw(st.sampled_from([0, 3])), "min": 0, "max": ceiling},
        "flag": False,
        "life": {p: _number(draw, positive=True) for p in players},
    }
    n_steps = _size(draw, MAX_STEPS, 4)
    steps: list[dict[str, Any]] = []
    for i in range(n_steps):
        step: dict[str, Any] = {"by": players[i % n_players], "does": f"step {i}"}
        if draw(st.booleans()):
            step["optional"] = True
        kind = draw(st.sampled_from(["mul", "add", "life", "set", "requires"]))
        if kind == "mul":
            step["mul"] = {"tokens": draw(st.sampled_from([0, 2, 3, 10**6, BIG]))}
        elif kind == "add":
            step["add"] = {"tokens": _number(draw), "mana": _number(draw)}
        elif kind == "life":
            step["add"] = {"life": -_number(draw, positive=True)}
            step["target"] = {"among": players, "order": draw(st.sampled_from(["rotate", "each", "fixed"]))}
        elif kind == "set":
            step["set"] = {"flag": draw(st.booleans())}
        else:
            step["add"] = {"mana": -_number(draw, positive=True)}
            step["requires"] = {"mana": _number(draw, positive=True)}
        if draw(st.booleans()):
            step["times"] = draw(st.sampled_from([2, 7, MAX_TIMES - 1, MAX_TIMES]))
        steps.append(step)
    doc: dict[str, Any] = {"format": 2, "title": "at the limits", "players": players, "state": state, "step": steps}
    ends = []
    if draw(st.booleans()):
        ends.append({"when": {"value": "tokens", "at_least": min(tokens + _number(draw, positive=True), BIG)}, "effect": "enough tokens"})
    if draw(st.booleans()):
        ends.append({"when": {"value": "life", "at_most": 0}, "effect": "that player loses the game", "loses": True})
    if draw(st.booleans()):
        ends.append({"when": {"value": "mana", "at_least": ceiling}, "effect": "mana to spare"})
    if ends:
        doc["end"] = ends
    intents: dict[str, Any] = {}
    for p in players[:3]:
        roll = draw(st.sampled_from(["none", "count", "big", "never", "until"]))
        if roll == "count":
            intents[p] = draw(st.integers(0, 30))
        elif roll == "big":
            intents[p] = BIG
        elif roll == "never":
            intents[p] = "never"
        elif roll == "until":
            intents[p] = {"until": {"value": "tokens", "at_least": _number(draw, positive=True)}}
    if intents:
        doc["intent"] = intents
    return doc
