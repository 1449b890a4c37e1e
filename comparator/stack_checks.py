"""The loader's checks of format 3's "The stack and priority" (docs/FORMAT.md item 23).

Kept apart from :mod:`.loader` so that its own checks stay where they are: the loader calls
:func:`check` once the whole scenario is known.  Where a point moves is asked of
:class:`~loopcompare.rulesets.facts.LoopFacts`, the one place that knows.
"""

from __future__ import annotations

from typing import Protocol

from loopcompare.rulesets.facts import LoopFacts
from loopcompare.rulesets.scenario import Scenario, Step
from loopcompare.rulesets.values import CutPoint


class Recorder(Protocol):
    """What the loader's parser offers: a warning."""

    def warn(self, where: str, message: str) -> None: ...


def check(parser: Recorder, scenario: Scenario) -> None:
    """A warning for each intent whose point moves past a priority-free step (FORMAT item 23).

    (The loader itself refuses ``priority = false`` on a step whose "unless" breaks the loop and
    warns that the key is redundant inside one resolution, where no point moves.)"""
    inner = (t for s in scenario.steps if s.run is not None for t in s.run.loop.steps)
    if (all(s.priority for s in scenario.steps) and all(t.priority for t in inner)) or scenario.loop.within == "resolution":
        return
    facts = LoopFacts(scenario)
    for player, intent in scenario.intents.items():
        if intent.never:
            continue
        where = f"[intent]: '{player}'"
        if intent.after is None:
            # A goal: its count is worked out when the loop is settled; where it falls in an
            # iteration is known now (any iteration after the first has the same step before it).
            k = facts.first_choice(player) or 0
            written = CutPoint(1, k)
            moved = facts.moved(written, player)
            if moved != written:
                parser.warn(where, f"{_falls(scenario, player, k)}; {player} can first act {_where_then(written, moved)}")
            continue
        move = facts.move_of(player)
        if move is None:
            continue
        written, at = move
        first = f"the point written {written.describe()}"
        before = facts.last_step_before(written)
        falls = _falls(scenario, player, written.steps) if written.inner is None or before is None else _falls_after(player, before)
        parser.warn(where, f"{first}: {falls}; it moves to {_where(at)} (FORMAT item 23)")


def _falls(scenario: Scenario, player: str, k: int) -> str:
    steps = scenario.steps
    return _falls_after(player, steps[(k - 1) % len(steps)])


def _falls_after(player: str, before: Step) -> str:
    return (
        f"{player}'s point falls right after \u201c{before.does}\u201d ({before.by}'s, priority = false), where only "
        f"{before.by} can act"
    )


def _where(point: CutPoint | None) -> str:
    return "after the loop (no later step of it gives players priority)" if point is None else point.describe()


def _where_then(written: CutPoint, moved: CutPoint | None) -> str:
    """Where a goal's point moves, within an iteration (its count is not known yet)."""
    if moved is None:
        return "only after the loop (no later step of it gives players priority)"
    iteration = "the same iteration" if moved.iterations == written.iterations else "the next iteration"
    if moved.steps == 0:
        return "at the start of the iteration after"
    return f"before step {moved.steps + 1} of {iteration} (FORMAT item 23)"
