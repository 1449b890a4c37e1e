"""The ruleset base class: one driver, many hooks.

:meth:`Ruleset.settle` fixes the order in which every ruleset's questions are asked:

1. :meth:`~Ruleset.restrictions`: may this loop be shortcut (or restarted) at all?
2. :meth:`~Ruleset.involved`: who controls the loop's optional actions?
3. by how many players are involved: :meth:`~Ruleset.mandatory`,
   :meth:`~Ruleset.one_controller`, :meth:`~Ruleset.independent` or :meth:`~Ruleset.dependent`;
4. a loop that ends by itself before the cut runs to completion;
5. :meth:`~Ruleset.judge_needed`.

A ruleset overrides only the hooks its document changes; a later document that amends an
earlier one subclasses it.  Each hook records what it decides, and why, through a
:class:`Settlement`: every transcript line names the rule it applies, and every reading of a
silent or ambiguous text becomes a note.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, Iterable, Mapping, Sequence

from . import texts
from .outcome import Outcome, Result
from .scenario import UNBOUNDED, Count, CutPoint, LoopFacts, Scenario


@dataclass(frozen=True)
class Decision:
    """What a procedure decided, before the outcome is filled in from the cut.

    Either a single ``point`` (with the player who ``deviates`` there) or, for independent sets
    that each run their own number of times, ``counts`` per player.  ``per_player`` names the
    independent sets whose counts are read off a single cut point.
    """

    result: Result
    point: CutPoint | None = None
    deviates: str | None = None
    counts: Mapping[str, Count] | None = None
    per_player: tuple[str, ...] | None = None
    end_state: Mapping[str, object] | None = None
    """The state where independent sets were cut off by the loop's end (else computed from counts)."""


@dataclass(frozen=True)
class Stop:
    """A player's announced stopping point in a procedure (their number, or where they act)."""

    player: str
    point: CutPoint
    rank: int = 0
    """Order among unbounded points: a later namer names a larger number."""


@dataclass(frozen=True)
class Source:
    """A text file a ruleset quotes, and the prefix its citations carry ("CR " from the MTR).

    The file lives in the ``texts/`` folder of ``package``: ``rulesets`` for the built-ins, the
    plugin's own package for a third-party ruleset.
    """

    filename: str
    prefix: str = ""
    mtr_section: str | None = None
    package: str = "loopcompare.rulesets"
    #: Quote the text under this rule number (a renumbered release whose text is not archived).
    number: str = ""

    def load(self) -> texts.Document:
        """The parsed document."""
        doc = texts.document(self.filename, self.mtr_section, self.package)
        return doc.renumbered(self.number) if self.number else doc


class Settlement:
    """The working record of one ruleset settling one scenario: transcript, rules, notes."""

    def __init__(self, ruleset: "Ruleset", scenario: Scenario) -> None:
        self.ruleset = ruleset
        self.scenario = scenario
        self.facts: LoopFacts = scenario.facts
        self.transcript: list[str] = []
        self.rules: list[str] = []
        self.quotes: list[str] = []
        self.notes: list[str] = []
        self.judge = False

    def say(self, rule: str, text: str, quote: str | Sequence[str] | None = None) -> None:
        """Add a transcript line citing ``rule``; ``quote`` names the text to quote (default: rule)."""
        self.transcript.append(f"{rule}: {text}")
        if rule not in self.rules:
            self.rules.append(rule)
        keys = [quote] if isinstance(quote, str) else list(quote or [rule])
        for key in keys:
            if key not in self.quotes:
                self.quotes.append(key)

    def _quote(self, key: str) -> str:
        try:
            return self.ruleset.quote(key)
        except KeyError:
            return f"(the sources of {self.ruleset.name} have no text for {key})"

    def mark(self) -> tuple[int, int, int, int]:
        """A point to :meth:`rollback` to: the lengths of the transcript, rules, quotes and notes."""
        return len(self.transcript), len(self.rules), len(self.quotes), len(self.notes)

    def rollback(self, mark: tuple[int, int, int, int]) -> None:
        """Forget what was recorded since ``mark`` (a procedure whose result did not stand)."""
        del self.transcript[mark[0]:], self.rules[mark[1]:], self.quotes[mark[2]:], self.notes[mark[3]:]

    def note(self, text: str) -> None:
        """Record a reading of a silent or ambiguous text."""
        if text not in self.notes:
            self.notes.append(text)

    def outcome(self, decision: Decision) -> Outcome:
        """Fill in the outcome's fields from the decision, in closed form."""
        facts = self.facts
        iterations: object = None
        steps = 0
        last_action = None
        state = dict(self.scenario.state)
        if decision.counts is not None:
            # Independent sets, each run its own number of times: no single cut, no last action.
            iterations = dict(decision.counts)
            state = dict(decision.end_state) if decision.end_state is not None else facts.state_with_counts(decision.counts)
        elif decision.point is not None:
            point = decision.point
            steps = point.steps
            state = facts.state_at(point)
            last = facts.last_step_before(point)
            last_action = last.by if last else None
            iterations = point.iterations
            if decision.per_player:
                iterations = facts.counts_at(point, decision.per_player)
        return Outcome(
            result=decision.result,
            iterations=iterations,
            steps=steps,
            deviates=decision.deviates,
            last_action=last_action,
            state=state,
            judge=self.judge,
            rules=tuple(self.rules),
            notes=tuple(self.notes),
            transcript=tuple(self.transcript),
            quotes=tuple((key, self._quote(key)) for key in self.quotes),
        )

    # --- vocabulary shared by every ruleset's transcript ------------------------------------------

    def who(self, player: str) -> str:
        """A player's name, marked "(active player)" when it is their turn."""
        return f"{player} (active player)" if player == self.scenario.active else player

    def number(self, player: str) -> Count:
        """The number a player names: their intent, or an unbounded one if they never deviate."""
        intent = self.scenario.intent(player)
        return UNBOUNDED if intent.never else intent.after

    def point(self, player: str) -> CutPoint:
        """Where a player stops the loop themselves: their deviation point (a partial one as
        given), or, if they never deviate, their first choice after an unbounded number."""
        return self.facts.deviation_point(player) or self.facts.own_point(player, UNBOUNDED)

    def means(self, player: str) -> str | None:
        """How a player outside the loop's optional actions could end it, in words, if at all."""
        for step in self.scenario.steps:
            if step.unless and step.unless.by == player:
                return f"\u201c{step.unless.does}\u201d"
        for breaker in self.scenario.breakers:
            if breaker.by == player:
                return f"\u201c{breaker.does}\u201d"
        if not self.ruleset.choice_sustains:
            # Where a choice does not sustain a loop, it is its maker's way out, like a breaker.
            points = self.facts.choice_points(player)
            if points:
                return f"a different choice than \u201c{self.scenario.steps[points[0]].does}\u201d"
        return None

    def choices(self, players: Iterable[str]) -> str:
        """Each player's choice in the loop, in words: "Bob's choice “discards ...”"."""
        steps = self.scenario.steps
        return listing(f"{p}'s choice \u201c{steps[self.facts.choice_points(p)[0]].does}\u201d" for p in players)


def describe_count(n: Count) -> str:
    """A number as transcripts show it."""
    return "unbounded (an arbitrarily large finite number)" if n is UNBOUNDED else f"{n:,}"


def listing(items: Iterable[str]) -> str:
    """Items in words: "A", "A and B", "A, B and C"."""
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def be(items) -> str:
    """The verb "to be" agreeing with ``items``: "is" for one, "are" for more."""
    return "is" if len(items) == 1 else "are"


def times(n: Count) -> str:
    """"3 times", "once", "any number of times": how often a loop repeats, in words."""
    if n is UNBOUNDED:
        return "an unbounded number of times"
    return "once" if n == 1 else f"{n:,} times"


def earliest(stops: Iterable[Stop], facts: LoopFacts, order: Sequence[str]) -> tuple[Stop, list[Stop]]:
    """The stop that comes first, and any others at exactly the same point.

    Finite points come before unbounded ones; among unbounded ones the lower ``rank`` (the
    earlier namer) comes first; at an equal point the player earlier in ``order`` wins.
    """

    def key(stop: Stop):
        tie = order.index(stop.player) if stop.player in order else len(order)
        if stop.point.unbounded:
            return (1, stop.rank, stop.point.steps, tie)
        return (0, facts.position(stop.point), 0, tie)

    ranked = sorted(stops, key=key)
    first = ranked[0]
    ties = [s for s in ranked[1:] if key(s)[:3] == key(first)[:3]]
    return first, ties


@lru_cache(maxsize=None)
def _quote(cls: type, key: str) -> str:
    """Rule texts never change while running: look each up once per ruleset class."""
    return cls._lookup(cls(), key)


class Ruleset:
    """A rules document's way of settling loops.

    Identity is data: ``key`` (stable, used on the command line and in files), ``aliases``,
    ``name``, ``document``, ``effective`` (the date of the text applied), ``in_force`` (first and
    last day, None for "still in force", "unknown" where the sources don't give it, with the
    bounds they do give in ``not_before``, ``attested`` and ``superseded_by``), ``rule_ids`` (the
    rules it numbers), ``sources`` (the
    text files it quotes, with the prefix its citations carry), and ``amends`` (the key of the
    ruleset it changes, if any).
    """

    key: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    name: ClassVar[str] = ""
    document: ClassVar[str] = ""
    effective: ClassVar[str] = ""
    in_force: ClassVar[tuple[str, str | None]] = ("", None)
    #: For a text whose first day is "unknown": a day on which it surely was not yet in force (its
    #: first day came after it).
    not_before: ClassVar[str] = ""
    #: For a text whose first day is "unknown": a day on which it surely was in force (a dated
    #: copy), so its first day came on or before it.
    attested: ClassVar[str] = ""
    #: For a text whose last day is "unknown": a day by which it surely had been replaced (its
    #: successor is attested that day).
    superseded_by: ClassVar[str] = ""
    rule_ids: ClassVar[tuple[str, ...]] = ()
    sources: ClassVar[tuple["Source", ...]] = ()
    amends: ClassVar[str | None] = None
    """The key of the ruleset this one amends or replaces: its predecessor in its line."""
    overrides: ClassVar[str | None] = None
    """The key of a ruleset of *another* document that this one takes as its baseline and overrides
    where they contradict (the Tournament Rules over the CR, CR 720.1c/729.1c).  A ruleset class
    subclasses the class of the ruleset it amends or of the one it overrides, never another."""
    summary: ClassVar[str] = ""
    """One line: what this text changed, as it matters to outcomes."""
    #: Where the text applied was published, for people (the source files say where it was copied from).
    citation: ClassVar[str] = ""
    choice_sustains: ClassVar[bool] = True
    """Whether a ``choice = true`` step makes its controller involved in maintaining the loop.

    True where a choice keeps a loop going as an action does: the CR's "game choices" (since
    2009), the current MTR's paragraph on loops sustained by choices, and the older texts as
    judges read them.  False where a choice is only its maker's way out of the loop, like a
    breaker: the 2018 MTR, as a judge ruled under it (docs/DOMAIN.md section 6).
    """

    # --- the driver --------------------------------------------------------------------------------

    def settle(self, scenario: Scenario) -> Outcome:
        """Settle a scenario: the order in which every ruleset's hooks are asked lives here."""
        ctx = Settlement(self, scenario)
        decision = self.restrictions(ctx)
        if decision is None:
            involved = self.involved(ctx)
            before = ctx.mark()
            if not involved:
                decision = self.mandatory(ctx)
            elif len(involved) == 1:
                decision = self.one_controller(ctx, involved[0])
            elif scenario.loop.independent:
                decision = self.independent(ctx, involved)
            else:
                decision = self.dependent(ctx, involved)
            decision = self.run_to_end(ctx, decision, before)
        ctx.judge = ctx.judge or self.judge_needed(ctx, decision)
        return ctx.outcome(decision)

    # --- hooks: the "no special rule" defaults ------------------------------------------------------

    def restrictions(self, ctx: Settlement) -> Decision | None:
        """A decision when the loop may not be shortcut or restarted at all; None otherwise."""
        return None

    def involved(self, ctx: Settlement) -> tuple[str, ...]:
        """The players who control the loop's optional actions, in turn order."""
        return self.sustainers(ctx)

    def sustainers(self, ctx: Settlement) -> tuple[str, ...]:
        """The players whose optional steps keep the loop going, in turn order, as this text
        reads choices (:attr:`choice_sustains`); the reading is recorded by :meth:`read_choices`.

        Every :meth:`involved` starts from these.  Where a choice does not sustain a loop, a
        player whose only optional steps are choices is left out: their choice is their way out
        of the loop, like a breaker (:meth:`Settlement.means`), taken where their intent says.
        """
        facts = ctx.facts
        if facts.choosers:
            self.read_choices(ctx, facts.choosers)
        if self.choice_sustains:
            return facts.optional_controllers
        return tuple(p for p in facts.optional_controllers if p not in facts.only_choosers)

    def read_choices(self, ctx: Settlement, choosers: tuple[str, ...]) -> None:
        """Record how this text reads a loop that ``choosers`` keep going by choices rather than
        actions: a citation where the text says it, a note where it is a reading."""

    def mandatory(self, ctx: Settlement) -> Decision:
        """A loop of mandatory actions only."""
        return self.unspecified(ctx, self.loop_rule, "it has no rule for a loop of mandatory actions")

    def one_controller(self, ctx: Settlement, controller: str) -> Decision:
        """A loop whose optional actions one player controls."""
        return self.unspecified(ctx, self.loop_rule, "it has no rule for a loop one player controls")

    def dependent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """A loop that needs the optional actions of two or more players."""
        return self.unspecified(ctx, self.loop_rule, "it has no rule for loops several players sustain")

    def independent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """Independent sets of optional actions controlled by different players."""
        return self.unspecified(ctx, self.loop_rule, "it has no rule for independent sets of actions")

    def judge_needed(self, ctx: Settlement, decision: Decision) -> bool:
        """Whether the document says a judge may be needed to decide."""
        return False

    # --- shared machinery ----------------------------------------------------------------------------

    def unspecified(self, ctx: Settlement, rule: str, why: str) -> Decision:
        """The text does not determine an outcome: cite the rule that comes closest, say why."""
        ctx.say(rule, f"does not cover this loop: {why}.")
        ctx.note(f"{self.name} does not settle this loop: {why}. The result is 'unspecified'.")
        return Decision(Result.UNSPECIFIED)

    def run_to_end(self, ctx: Settlement, decision: Decision, before: tuple[int, int, int, int]) -> Decision:
        """A loop that ends by itself before its cut runs to completion (Rules Summary G.21).

        The procedure's own result (a draw, or a cut nobody reaches) is withdrawn from the
        transcript; a note says who would have stopped the loop, and when.
        """
        end = ctx.facts.end
        if end is None or decision.result not in (Result.SHORTCUT, Result.DRAW):
            if end is not None and decision.result is Result.UNSPECIFIED:
                ctx.note(f"Left alone, the loop would end by itself {end.describe()}.")
            return decision
        first = min((c for c in (decision.counts or {}).values() if c is not UNBOUNDED), default=UNBOUNDED)
        all_running = first is UNBOUNDED or ctx.facts.position(end) <= first * ctx.facts.size
        if decision.counts is not None and not all_running:
            # The end comes, if at all, after some sets have stopped: follow the sets that still run.
            hit = ctx.facts.end_with_counts(decision.counts)
            if hit is None:
                return decision
            reached, state = hit
            ctx.rollback(before)
            what = ctx.scenario.loop.ends_with or f"{ctx.scenario.loop.ends_when.value} reaches its bound"
            ctx.say(self.ends_rule or self.loop_rule, f"the loop is not endless: while the independent sets run their own numbers, it ends by itself ({what}).", quote=self.loop_quote() if not self.ends_rule else self.ends_rule)
            ctx.note("The sets are taken to run side by side; the end comes when the first step that makes the bound hold is performed.")
            self._ends_note(ctx)
            return Decision(Result.ENDS, counts=reached, end_state=state)
        elif decision.point is not None and not decision.point.unbounded:
            if ctx.facts.position(end) > ctx.facts.position(decision.point):
                return decision
        ctx.rollback(before)
        self.ends(ctx, end)
        if decision.deviates and decision.point is not None:
            ctx.note(f"Had the loop not ended, {decision.deviates} would have stopped it {decision.point.describe()}.")
        elif decision.deviates:
            ctx.note(f"Had the loop not ended, {decision.deviates} would have stopped it later.")
        return Decision(Result.ENDS, end)

    def ends(self, ctx: Settlement, end: CutPoint) -> None:
        """Record the loop ending by itself (each ruleset says which of its rules admits that)."""
        flags = ctx.scenario.loop
        what = flags.ends_with or f"{flags.ends_when.value} reaches its bound"
        if end == CutPoint(0, 0):
            ctx.note("The bound already holds before the loop starts; the loop ends at once.")
        if self.ends_rule:
            ctx.say(self.ends_rule, f"the loop is not really infinite: it ends by itself {end.describe()} ({what}) and is run to completion.")
            return
        self._ends_note(ctx)
        ctx.say(
            self.loop_rule,
            f"the loop is not endless: it ends by itself {end.describe()} ({what}), before anyone stops it, and is run to completion.",
            quote=self.loop_quote(),
        )

    def _ends_note(self, ctx: Settlement) -> None:
        """The reading that lets a loop which ends by itself run to completion, where it is one."""
        if self.ends_rule:
            return
        ctx.note(
            f"{self.name} has no rule for a loop that ends by itself: its loop rules are for actions that could be "
            f"repeated indefinitely ({self.loop_rule}). Reading taken: such a loop is simply run to completion, as the "
            "1998 Rules Summary (G.21) ruled: \u201cIf a loop will end, the game will run it to completion.\u201d"
        )

    def loop_quote(self) -> str:
        """The text quoted for :attr:`loop_rule` (by default the rule itself)."""
        return self.loop_rule

    #: The rule that defines what a loop is (cited when a loop turns out not to be endless).
    loop_rule: ClassVar[str] = ""
    #: A rule that says outright that a loop which will end is run to completion, if the text has one.
    ends_rule: ClassVar[str] = ""

    def quote(self, key: str) -> str:
        """The text of a cited rule, from this ruleset's sources (or the draw rules it cites)."""
        return _quote(type(self), key)

    def _lookup(self, key: str) -> str:
        for source in self.sources:
            bare = key[len(source.prefix):] if source.prefix and key.startswith(source.prefix) else key
            try:
                return source.load().text(bare)
            except KeyError:
                continue
        return texts.draw_rule(key.split(" ")[-1], self.cr_date or self.effective)

    #: The date of the Comprehensive Rules whose draw rule this ruleset cites (default: its own).
    cr_date: ClassVar[str] = ""

    def paragraph(self, words: str) -> str:
        """The id of the paragraph of this ruleset's main (unnumbered) text that contains ``words``."""
        doc = self.sources[0].load()
        for rule_id, text in doc.rules:
            if words in text:
                return rule_id
        raise KeyError(f"{doc.filename} has no paragraph containing {words!r}")

    def intervening(self, ctx: Settlement, players: Iterable[str], *, need_means: bool) -> list[Stop]:
        """Stops of players who mean to act during the loop (intervene, break it, or pay).

        With ``need_means`` (a loop of mandatory actions) only players with a breaker or an
        "unless" payment can end it; any other player's number is noted and ignored.
        """
        stops = []
        for p in players:
            point = ctx.facts.deviation_point(p)
            if point is None:
                continue
            if need_means and ctx.means(p) is None:
                ctx.note(
                    f"{p} means to stop {point.describe()}, but nothing {p} controls can end a loop "
                    "of mandatory actions, so that intent is ignored."
                )
                continue
            stops.append(Stop(p, point))
        return stops

    def today(self) -> str:
        """What the rule applied is called today, when that differs (empty by default)."""
        return ""

    def renumbered(self, number: str, since: str, text: tuple[str, str] | None = None) -> "Ruleset":
        """This ruleset as a later release of its document numbers it: ``number`` from ``since``.

        ``text`` is (date, file name) of the archived text with that number, if there is one.
        :func:`~rulesets.history.as_of` asks for it when the loop rule was renumbered after the
        text applied and before the day asked about.  The default, for a text whose citations
        carry no number to change: the ruleset itself.
        """
        return self

    def source_of(self, key: str) -> texts.Document | None:
        """The document a quoted rule is taken from (None when no source has it)."""
        for source in self.sources:
            bare = key[len(source.prefix):] if source.prefix and key.startswith(source.prefix) else key
            doc = source.load()
            if bare in doc.ids():
                return doc
        try:
            texts.draw_rule(key.split(" ")[-1], self.cr_date or self.effective)
        except KeyError:
            return None
        return texts.document(texts.DRAW_RULES)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key}>"
