"""What a ruleset says about a loop: the :class:`Outcome` and its :class:`Result`."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Mapping, Union

from .linear import HugeSum
from .bignum import Huge
from .values import UNBOUNDED, Count, Unbounded, Value


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
    NOT_APPLICABLE = "n/a"
    """The loop could not happen while this ruleset's text was in force (format 3, item 27)."""


Iterations = Union[None, Count, Mapping[str, Count]]

#: A tracked value as an outcome holds it: a boolean, an integer (a :class:`~.bignum.Huge` when
#: too large to write out), unbounded, or (format 2) one integer per player.
StateValue = Union[Value, Huge, HugeSum, Mapping[str, Union[int, Huge, HugeSum, Unbounded]]]

#: JSON-ready data, as :func:`plain` returns it.
Plain = Union[None, bool, int, float, str, list["Plain"], dict[str, "Plain"]]


@dataclass(frozen=True)
class Elimination:
    """A player who left the game during the loop, and when (counted as cut points are)."""

    player: str
    iterations: Count
    steps: int = 0
    inner: "tuple[int, int] | None" = None
    """Inside a run (FORMAT item 29): the inner iterations and steps where they left."""

    def to_json(self) -> dict[str, Plain]:
        """docs/FORMAT.md's ``eliminated`` entry (an ``inner`` key only inside a run, item 29)."""
        out: dict[str, Plain] = {"player": self.player, "iterations": plain(self.iterations), "steps": self.steps}
        if self.inner is not None:
            out["inner"] = {"iterations": self.inner[0], "steps": self.inner[1]}
        return out


class StoppedBy(enum.Enum):
    """Why the player who deviates stopped (docs/FORMAT.md "Format 2", item 8)."""

    INTENT = "intent"
    """They meant to (their intent, or a number they named)."""
    REQUIREMENT = "requirement"
    """Their optional step's ``requires`` failed: they couldn't go on."""
    RULE = "rule"
    """A rule forced it (a fragmented loop, the MTR repeated state, a chooser inside a resolution)."""



@dataclass(frozen=True)
class OutcomeField:
    """One field of an outcome, defined once: JSON order, comparisons, report rows and
    ``[expect]`` keys all derive from :data:`OUTCOME_FIELDS`.

    ``compared``: it counts in ``differences`` and has a row in reports.  ``expectable``: a
    scenario's ``[expect]`` table may pin it.  ``since_format``: the scenario format that
    introduced it (any format may pin it, FORMAT item 22).  ``hide_neutral``:
    a report shows its row only when some outcome gives a value other than ``neutral`` (the
    value every format 1 loop gives).
    """

    name: str
    label: str
    compared: bool = True
    expectable: bool = True
    since_format: int = 1
    hide_neutral: bool = False
    neutral: object = None


#: Every outcome field, in docs/FORMAT.md's JSON order (format 1's fields, then format 2's).
OUTCOME_FIELDS: tuple[OutcomeField, ...] = (
    OutcomeField("result", "Result"),
    OutcomeField("iterations", "Iterations"),
    OutcomeField("steps", "Steps into the next iteration"),
    OutcomeField("deviates", "Deviates"),
    OutcomeField("last_action", "Last action (the last word)"),
    OutcomeField("state", "State"),
    OutcomeField("judge", "Judge may be needed"),
    OutcomeField("rules", "Rules applied", compared=False),
    OutcomeField("notes", "Notes", compared=False, expectable=False),
    OutcomeField("transcript", "Transcript", compared=False, expectable=False),
    OutcomeField("ended_by", "Ended by", since_format=2, hide_neutral=True),
    OutcomeField("eliminated", "Eliminated", since_format=2, hide_neutral=True, neutral=[]),
    # stopped_by has a value for format 1 loops too, so its row is always shown.
    OutcomeField("stopped_by", "Stopped by", since_format=2),
    OutcomeField("ends_early_if", "Ends early if", since_format=2, hide_neutral=True),
    OutcomeField("expected_iterations", "Expected iterations", since_format=2, hide_neutral=True),
    OutcomeField("after_cut", "Steps resolved after the cut", since_format=3, hide_neutral=True, neutral=0),
    OutcomeField("inner", "Cut inside the inner loop", since_format=3, hide_neutral=True),
    OutcomeField("inner_results", "Inner loops", since_format=3, hide_neutral=True, neutral={}),
    OutcomeField("part", "Part reached", since_format=3, hide_neutral=True),
    # Each part's outcome: compared part by part ("parts[K].FIELD"), not as one value.
    OutcomeField("parts", "Parts", compared=False, since_format=3, hide_neutral=True, neutral=[]),
)

FIELDS_BY_NAME = {f.name: f for f in OUTCOME_FIELDS}

#: The fields of an outcome that take part in a comparison, in report order.
COMPARED_FIELDS = tuple(f.name for f in OUTCOME_FIELDS if f.compared)

#: The keys an ``[expect.RULESET]`` table may use, by the format a file needs to pin them.  Every
#: outcome carries every field, so each may be pinned in any format (FORMAT item 22): only the
#: input keys of format 2 need ``format = 2``.
EXPECT_KEYS = frozenset(f.name for f in OUTCOME_FIELDS if f.expectable)
EXPECT_KEYS_FORMAT_1 = EXPECT_KEYS
EXPECT_KEYS_FORMAT_2: frozenset[str] = frozenset()

#: Report labels, by field name.
FIELD_LABELS = {f.name: f.label for f in OUTCOME_FIELDS}


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
    state: Mapping[str, StateValue] = field(default_factory=dict)
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
    # --- added with format 3; neutral values for format 1 and 2 loops ---
    after_cut: int = 0
    """Loop steps performed after the cut because they were already on the stack (item 24)."""
    inner: Mapping[str, int] | None = None
    """Where the cut falls inside an inner loop's run, ``{iterations, steps}``, else None (item 29)."""
    inner_results: Mapping[str, Result] = field(default_factory=dict)
    """Each inner loop's own result, by its ``id`` (item 29)."""
    part: int | None = None
    """With ``[[then]]``: the part (1-based) whose outcome the top fields are (item 30)."""
    parts: tuple["Outcome", ...] = ()
    """With ``[[then]]``: every reached part's outcome, in order."""

    def value(self, name: str) -> Plain:
        """A compared field's value in plain data (``state.NAME`` for one state value,
        ``state.NAME.PLAYER`` for one player's entry of a per-player value).

        Unbounded counts and values come out as the string ``"unbounded"``; mappings as dicts;
        huge values as their exact expression; fractions as ``"a/b"``.
        """
        if name.startswith("state."):
            rest = name[len("state.") :]
            if rest in self.state:
                return plain(self.state[rest])
            value_name, _, player = rest.partition(".")
            entry = self.state.get(value_name)
            if isinstance(entry, Mapping):
                return plain(entry.get(player))
            return None
        return plain(getattr(self, name))

    def to_json(self) -> dict[str, Plain]:
        """docs/FORMAT.md's outcome object, keys in the documented order (:data:`OUTCOME_FIELDS`)."""
        out: dict[str, Plain] = {}
        for f in OUTCOME_FIELDS:
            if f.name == "state":
                out["state"] = {k: plain(self.state[k]) for k in sorted(self.state)}
            else:
                out[f.name] = plain(getattr(self, f.name))
        return out


#: Types :func:`plain` returns as they are (exact types: an enum or a subclass takes the long way).
_ALREADY_PLAIN = frozenset({str, int, bool, type(None)})


def plain(value: object) -> Plain:
    """Turn counts and values into JSON-ready data: UNBOUNDED becomes ``"unbounded"``, a huge
    value its exact expression, a fraction ``"a/b"`` (or ``"a"``), enums their value, mappings
    dicts (in their own order), tuples lists.  TypeError for anything JSON could not hold."""
    if type(value) in _ALREADY_PLAIN:
        # The common case first: the isinstance checks below cost more than settling.
        return value  # type: ignore[return-value]  # an exact str, int, bool or None (mypy can't narrow on type() in a set)
    if type(value) is dict:
        return {k: plain(v) for k, v in value.items()}
    if value is UNBOUNDED:
        return "unbounded"
    if isinstance(value, Result):
        return value.value
    if isinstance(value, StoppedBy):
        return value.value
    if isinstance(value, (Huge, HugeSum)):
        return value.plain()
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, Elimination):
        return value.to_json()
    if isinstance(value, Outcome):
        return value.to_json()
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (str, int, float)):
        return value  # a subclass of a plain type: JSON writes it as its base type
    raise TypeError(f"{type(value).__name__} has no plain (JSON) form")

