"""Values and steps in words: the one place a report's tables and the loop diagram take them from.

:func:`show` writes a value as every cell shows it; :func:`step_kind`, :func:`step_effect` and
:func:`step_exits` write a step (its kind, what it changes, and its ways out of the loop), so the
table of steps and the boxes of the diagram never word the same step two ways.
"""

from __future__ import annotations

from collections.abc import Mapping

from loopcompare.rulesets import UNBOUNDED
from loopcompare.rulesets.scenario import Step

#: The minus sign of reports (U+2212), not the hyphen.
MINUS = "\u2212"


def show(value: object, *, compact: bool = False) -> str:
    """A value as report cells show it: numbers with thousands separators, none as a dash.

    Powers of ten from 10^15 on are written 10^N (exactly); with ``compact``, other numbers that
    large are rounded (≈1.23×10^99) so summary cells stay readable.  JSON always has every digit.
    """
    if value is None:
        return "\u2014"
    if value is UNBOUNDED or value == "unbounded":
        return "unbounded"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return _number(value, compact)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {show(v, compact=compact)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(show(v, compact=compact) for v in value)
    return str(value)


def _number(value: int, compact: bool) -> str:
    digits = str(abs(value))
    sign = MINUS if value < 0 else ""
    if len(digits) <= 15:
        return f"{value:,}".replace("-", MINUS)
    if digits.rstrip("0") == "1":
        return f"{sign}10^{len(digits) - 1}"
    if compact:
        return f"{sign}\u2248{digits[0]}.{digits[1:3]}\u00d710^{len(digits) - 1}"
    return f"{value:,}".replace("-", MINUS)


def sign(delta: int) -> str:
    """The sign written before an amount added: ``+``, or the minus sign."""
    return "+" if delta >= 0 else MINUS


def step_kind(step: Step) -> str:
    """What kind of step: mandatory or optional, and its flags (``choice``, ``side benefit``, a turn...)."""
    parts = ["optional" if step.optional else "mandatory"]
    parts += [name for name in ("choice", "hidden", "random", "conditional") if getattr(step, name)]
    if not step.sustains:
        parts.append("side benefit")
    if step.turn:
        parts.append(f"{step.turn}'s turn")
    if not step.priority:
        parts.append("no priority after it")
    return ", ".join(parts)


def step_effect(step: Step) -> str:
    """What a step needs and changes (``requires mana ≥ 1; tokens × 2``), "" for nothing; a
    step that runs an inner loop says so first (its own effects come after the run)."""
    parts = [f"requires {k} \u2265 {show(v)}" for k, v in step.requires.items()]
    parts += [f"{k} \u00d7 {show(v)}" for k, v in step.mul.items()]
    parts += [f"{k} = {show(v)}" for k, v in step.set.items()]
    parts += [f"{k} {sign(v)} {abs(v):,}" for k, v in step.add.items()]
    parts += [f"{k} + ({v})" for k, v in step.amounts.items()]  # format 3: an amount read from other values
    if step.target is not None:
        parts.append(f"target: {step.target.order} among {', '.join(step.target.among)}")
    if step.times != 1:
        parts.append(f"{step.times:,} times")
    if step.run is not None:
        own = "; ".join(parts)
        return f"runs {step.run.describe()}" + (f"; then {own}" if own else "")
    return "; ".join(parts)


def step_exits(step: Step) -> str:
    """A step's ways out of the loop: its alternative, an event that may end the loop, an
    "unless" payment; "" for none."""
    parts = []
    if step.alternative:
        parts.append(f"or: {step.alternative}")
    if step.ends_loop is not None:
        chance = f" (chance {step.ends_loop.chance})" if step.ends_loop.chance is not None else ""
        parts.append(f"may end the loop: {step.ends_loop.when}{chance}")
    unless = step.unless
    if unless:
        payer = "each target" if unless.by == "target" else unless.by
        if unless.breaks:
            resolves = f" (then {unless.still_resolves} more step{'s' if unless.still_resolves != 1 else ''} still resolve{'s' if unless.still_resolves == 1 else ''})" if unless.still_resolves else ""
            parts.append(f"unless {payer} {unless.does}{resolves}")
        else:
            costs = " or ".join(", ".join(f"{k} {sign(v)} {abs(v):,}" for k, v in cost.items()) for cost in unless.costs) or "nothing"
            pays = unless.pays if not isinstance(unless.pays, Mapping) else ", ".join(f"{p} {v}" for p, v in unless.pays.items())
            who = "" if pays == "always" else (" never" if pays == "never" else f" ({pays})" if isinstance(unless.pays, Mapping) else f" the first {pays} times")
            parts.append(f"unless {payer} {unless.does} (a payment: {costs}; pays{who or ' whenever able'}; the loop goes on)")
    return "; ".join(parts)


def step_words(step: Step) -> str:
    """A step's effect and its ways out, as the table of steps shows them (a dash for none)."""
    return "; ".join(part for part in (step_effect(step), step_exits(step)) if part) or "\u2014"
