"""Comparisons: one scenario settled under several rulesets, and where they differ."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from loopcompare.rulesets import COMPARED_FIELDS, Outcome, Result, Ruleset, bignum

from .loader import ScenarioFile


@dataclass(frozen=True)
class Comparison:
    """A scenario, the rulesets it was settled under (in order), and their outcomes."""

    scenario: ScenarioFile
    rulesets: tuple[Ruleset, ...]
    outcomes: Mapping[str, Outcome]

    @property
    def fields(self) -> tuple[str, ...]:
        """Every compared field, with one ``state.NAME`` per tracked value (sorted by name) and
        one ``state.NAME.PLAYER`` per player of a per-player value (FORMAT item 15)."""
        out: list[str] = []
        state = self.scenario.scenario.state
        for name in COMPARED_FIELDS:
            if name == "state":
                for k in sorted(state):
                    if isinstance(state[k], Mapping):
                        out += [f"state.{k}.{p}" for p in sorted(state[k])]
                    else:
                        out.append(f"state.{k}")
            else:
                out.append(name)
        return tuple(out)

    def values(self, field: str) -> tuple[Any, ...]:
        """The field's plain value under each ruleset, in column order."""
        return tuple(self.outcomes[r.key].value(field) for r in self.rulesets)

    @property
    def differences(self) -> tuple[str, ...]:
        """The fields whose values are not all the same (docs/FORMAT.md ``differences``)."""
        return tuple(f for f in self.fields if len({_hashable(v) for v in self.values(f)}) > 1)

    def to_json(self) -> dict:
        """docs/FORMAT.md's comparison object."""
        return {
            "scenario": {"id": self.scenario.id, "title": self.scenario.scenario.title, "file": self.scenario.file},
            "rulesets": [{"key": r.key, "name": r.name, "effective": r.effective} for r in self.rulesets],
            "outcomes": {r.key: self.outcomes[r.key].to_json() for r in self.rulesets},
            "differences": list(self.differences),
        }


def compare(scenario: ScenarioFile, rulesets: Sequence[Ruleset]) -> Comparison:
    """Settle one scenario under each ruleset.

    A third-party ruleset that raises is reported in its outcome (``unspecified``, with the
    error as a note) so the others still run; a built-in one that raises is a bug, and the
    error propagates.
    """
    return Comparison(scenario, tuple(rulesets), {r.key: _settle(r, scenario) for r in rulesets})


def _settle(ruleset: Ruleset, scenario: ScenarioFile) -> Outcome:
    from loopcompare.rulesets.registry import BUILTIN

    if ruleset.key in BUILTIN:
        return ruleset.settle(scenario.scenario)
    try:
        return ruleset.settle(scenario.scenario)
    except Exception as exc:  # a broken plugin is reported, not fatal
        note = f"The ruleset plugin {ruleset.key!r} failed on this scenario: {type(exc).__name__}: {exc}"
        return Outcome(Result.UNSPECIFIED, notes=(note,), state=dict(scenario.scenario.state))


def _hashable(value):
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    # Distinguish True from 1 so a boolean never equals an integer.
    return (type(value).__name__, value)


@dataclass(frozen=True)
class Mismatch:
    """One expectation that an outcome did not meet."""

    scenario: str
    ruleset: str
    field: str
    expected: Any
    got: Any

    def __str__(self) -> str:
        return f"{self.scenario}: {self.ruleset}: {self.field}: expected {_show(self.expected)}, got {_show(self.got)}"


def check(comparison: Comparison) -> list[Mismatch]:
    """Every ``[expect]`` field the comparison's outcomes do not meet.

    Only the fields given are checked; ``state`` checks the values it names; ``rules`` checks that
    each listed rule is cited.
    """
    problems: list[Mismatch] = []
    sf = comparison.scenario
    for key, fields in sf.expect.items():
        outcome = comparison.outcomes.get(key)
        if outcome is None:
            # An expected ruleset the comparison left out is settled here, so no expectation is skipped.
            from loopcompare.rulesets.registry import registry

            outcome = _settle(registry().get(key), sf)
        for name, want in fields.items():
            if name == "state":
                for value_name, value in want.items():
                    if isinstance(value, Mapping):
                        # A per-player value: only the players given are checked (FORMAT item 15).
                        for player, entry in value.items():
                            got = outcome.value(f"state.{value_name}.{player}")
                            if not _same_value(got, entry):
                                problems.append(Mismatch(sf.file, key, f"state.{value_name}.{player}", entry, got))
                        continue
                    got = outcome.value(f"state.{value_name}")
                    if not _same_value(got, value):
                        problems.append(Mismatch(sf.file, key, f"state.{value_name}", value, got))
            elif name == "rules":
                missing = [r for r in want if r not in outcome.rules]
                if missing:
                    problems.append(Mismatch(sf.file, key, "rules", want, list(outcome.rules)))
            else:
                got = outcome.value(name)
                if not _same_value(got, want):
                    problems.append(Mismatch(sf.file, key, name, want, got))
    return problems


def _same_value(got, want) -> bool:
    """Equal as plain data; a huge value written as an expression compares numerically
    (FORMAT item 14), and so does an exact fraction written another way."""
    if _hashable(got) == _hashable(want):
        return True
    if isinstance(got, str) and isinstance(want, (str, int)) and not isinstance(want, bool):
        a = bignum.parse(got)
        b = bignum.parse(want) if isinstance(want, str) else want
        if a is not None and b is not None:
            return bignum.equal(a, b)
        try:
            return Fraction(got) == Fraction(want)
        except (ValueError, ZeroDivisionError):
            return False
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        return all(_same_value(g, w) for g, w in zip(got, want))
    if isinstance(got, dict) and isinstance(want, dict) and got.keys() == want.keys():
        return all(_same_value(got[k], want[k]) for k in got)
    return False


def _show(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return repr(value)
    return str(value)
