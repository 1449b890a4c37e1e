"""What a ruleset says about a loop: the :class:`Outcome` and its :class:`Result`."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Mapping, Union

from .scenario import UNBOUNDED, Count, Value


class Result(enum.Enum):
    """How the loop is settled (docs/FORMAT.md ``result``)."""

    SHORTCUT = "shortcut"
    """The loop is shortcut to a cut point."""
    DRAW = "draw"
    """The game is a draw."""
    ENDS = "ends"
    """The loop ends by itself (``ends_when``) and is run to completion."""
    NO_SHORTCUT = "no_shortcut"
    """The loop may not be shortcut and must be played out."""
    NO_RESTART = "no_restart"
    """The loop may not be restarted."""
    UNSPECIFIED = "unspecified"
    """This ruleset's text does not determine an outcome."""


Iterations = Union[None, Count, Mapping[str, Count]]


@dataclass(frozen=True)
class Elimination:
    """A player who left the game during the loop, and when (counted as cut points are)."""

    player: str
    iterations: Count
    steps: int = 0

    def to_json(self) -> dict:
        """docs/FORMAT.md's ``eliminated`` entry."""
        return {"player": self.player, "iterations": plain(self.iterations), "steps": self.steps}


class StoppedBy(enum.Enum):
    """Why the player who deviates stopped (docs/FORMAT.md "Format 2", item 8)."""

    INTENT = "intent"
    """They meant to (their intent, or a number they named)."""
    REQUIREMENT = "requirement"
    """Their optional step's ``requires`` failed: they couldn't go on."""
    RULE = "rule"
    """A rule forced it (a fragmented loop, the MTR repeated state, a chooser inside a resolution)."""

# The fields of an outcome that take part in a comparison, in report order.
COMPARED_FIELDS = ("result", "iterations", "steps", "deviates", "last_action", "state", "judge")


@dataclass(frozen=True)
class Outcome:
    """One ruleset's settlement of one scenario.

    ``iterations`` is an int, :data:`~rulesets.scenario.UNBOUNDED`, None (no cut), or a mapping
    player -> count for independent sets.  ``state`` holds every tracked value at the cut (the
    starting values where there is no cut).  ``quotes`` lists the rule texts the transcript
    relies on, as (rule id, text) pairs, for reports; it is not part of the JSON contract.
    """

    result: Result
    iterations: Iterations = None
    steps: int = 0
    deviates: str | None = None
    last_action: str | None = None
    state: Mapping[str, Value] = field(default_factory=dict)
    judge: bool = False
    rules: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    transcript: tuple[str, ...] = ()
    quotes: tuple[tuple[str, str], ...] = ()
    # --- added with format 2; neutral values for format 1 loops ---
    ended_by: str | None = None
    """The ``effect`` of the end that stopped the loop (or the failed requirement), else None."""
    eliminated: tuple[Elimination, ...] = ()
    """Players who lost during the loop, in order."""
    stopped_by: StoppedBy | None = None
    """Why ``deviates`` stopped; None when nobody deviates."""
    ends_early_if: str | None = None
    """The ``when`` of an event that may end the loop before the cut, else None."""
    expected_iterations: Fraction | None = None
    """With a ``chance`` on that event: the expected number of iterations at the stop."""

    def value(self, name: str):
        """A compared field's value in plain data (``state.NAME`` for one state value).

        Unbounded counts and values come out as the string ``"unbounded"``; mappings as dicts.
        """
        if name.startswith("state."):
            return plain(self.state.get(name[len("state.") :]))
        raw = getattr(self, name)
        if isinstance(raw, Result):
            return raw.value
        return plain(raw)

    def to_json(self) -> dict:
        """docs/FORMAT.md's outcome object, keys in the documented order."""
        return {
            "result": self.result.value,
            "iterations": plain(self.iterations),
            "steps": self.steps,
            "deviates": self.deviates,
            "last_action": self.last_action,
            "state": {k: plain(self.state[k]) for k in sorted(self.state)},
            "judge": self.judge,
            "rules": list(self.rules),
            "notes": list(self.notes),
            "transcript": list(self.transcript),
        }


def plain(value):
    """Turn counts and values into JSON-ready data: UNBOUNDED becomes ``"unbounded"``."""
    if value is UNBOUNDED:
        return "unbounded"
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
