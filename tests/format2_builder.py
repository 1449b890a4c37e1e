"""Test-only: build a format 2 :class:`Scenario` from TOML text, without validation.

The real loader (comparator/loader.py) validates every key and reports errors; this helper only
maps well-formed test documents onto the data model, so the engine's tests don't depend on the
loader.  It reads the keys of FORMAT.md "Format 2" and nothing else.
"""

from __future__ import annotations

import re
import textwrap
import tomllib
from fractions import Fraction

from loopcompare.rulesets.scenario import (
    Breaker,
    End,
    EndsLoop,
    EndsWhen,
    Goal,
    Intent,
    Limits,
    LoopFlags,
    Scenario,
    Step,
    Target,
    Unless,
)


def big(value):
    """A TOML integer, or a string "INT", "INT^INT", "INT*10^INT"."""
    if isinstance(value, int):
        return value
    m = re.fullmatch(r"(-?\d+)\*10\^(\d+)", value)
    if m:
        return int(m[1]) * 10 ** int(m[2])
    m = re.fullmatch(r"(-?\d+)\^(\d+)", value)
    if m:
        return int(m[1]) ** int(m[2])
    return int(value)


def _intent(value) -> Intent:
    if value == "never":
        return Intent()
    if isinstance(value, dict):
        if "until" in value:
            u = value["until"]
            at_most = "at_most" in u
            return Intent(until=Goal(u["value"], big(u["at_most" if at_most else "at_least"]), at_most, u.get("player")))
        return Intent(big(value["after"]), value.get("step"))
    return Intent(big(value))


def _step(d: dict) -> Step:
    target = d.get("target")
    ends_loop = d.get("ends_loop")
    chance = None
    if ends_loop and "chance" in ends_loop:
        chance = Fraction(ends_loop["chance"])
    return Step(
        by=d["by"],
        does=d["does"],
        optional=d.get("optional", False),
        choice=d.get("choice", False),
        hidden=d.get("hidden", False),
        random=d.get("random", False),
        conditional=d.get("conditional", False),
        set=d.get("set", {}),
        add={k: big(v) for k, v in d.get("add", {}).items()},
        unless=Unless(**d["unless"]) if "unless" in d else None,
        mul={k: big(v) for k, v in d.get("mul", {}).items()},
        requires={k: big(v) for k, v in d.get("requires", {}).items()},
        times=d.get("times", 1),
        target=Target(tuple(target["among"]), target.get("order", "fixed")) if target else None,
        sustains=d.get("sustains", True),
        alternative=d.get("alternative", ""),
        ends_loop=EndsLoop(ends_loop["when"], chance, ends_loop.get("hidden", False)) if ends_loop else None,
        turn=d.get("turn", ""),
    )


def build(doc: dict) -> Scenario:
    """A Scenario from a parsed TOML document (format 1 or 2)."""
    state, limits = {}, {}
    for name, value in doc.get("state", {}).items():
        if isinstance(value, dict) and "start" in value:
            state[name] = big(value["start"])
            limits[name] = Limits(value.get("min"), value.get("max"))
        elif isinstance(value, dict):
            state[name] = {p: big(v) for p, v in value.items()}
        else:
            state[name] = value if isinstance(value, bool) else big(value)
    loop = dict(doc.get("loop", {}))
    ends_when = loop.pop("ends_when", None)
    flags = LoopFlags(
        ends_when=EndsWhen(ends_when["value"], big(ends_when.get("at_most", ends_when.get("at_least"))), "at_most" in ends_when) if ends_when else None,
        **loop,
    )
    ends = []
    for e in doc.get("end", []):
        w = e["when"]
        at_most = "at_most" in w
        loses = e.get("loses")
        ends.append(End(w["value"], big(w["at_most" if at_most else "at_least"]), at_most, e.get("effect", ""),
                        loses if isinstance(loses, str) else None, loses is True))
    return Scenario(
        title=doc["title"],
        players=tuple(doc["players"]),
        steps=tuple(_step(s) for s in doc["step"]),
        active=doc.get("active", ""),
        state=state,
        loop=flags,
        breakers=tuple(Breaker(b["by"], b["does"], b.get("hidden", False)) for b in doc.get("breaker", [])),
        intents={p: _intent(v) for p, v in doc.get("intent", {}).items()},
        description=doc.get("description", ""),
        format=doc.get("format", 1),
        limits=limits,
        ends=tuple(ends),
    )


def scenario(text: str) -> Scenario:
    """A Scenario from TOML text (dedented)."""
    return build(tomllib.loads(textwrap.dedent(text)))


def expectations(text: str) -> dict:
    """The ``[expect]`` tables of a TOML text, as written."""
    return tomllib.loads(textwrap.dedent(text)).get("expect", {})
