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
from typing import Any, ClassVar, Iterable, Mapping, Sequence, Sized

import dataclasses
from fractions import Fraction

from . import texts
from .bignum import TooLarge
from .outcome import Elimination, Iterations, Outcome, Result, StateValue, StoppedBy
from .dynamics import AfterCut as DynAfterCut
from .dynamics import Elimination as DynElimination
from .dynamics import Event as DynEvent
from .facts import LoopFacts, acting, acting_until, facts_of
from .numbers import number_today
from .scenario import EndsLoop, Goal, Intent, Scenario
from .values import UNBOUNDED, Count, CutPoint, Unsettleable

#: The 2004 and 2008 Comprehensive Rules on mana abilities and priority (FORMAT, "The stack and
#: priority"): the sources hold no text of them, so they are cited by the numbers the spec gives.
MANA_RULES_421 = (
    "mana abilities don't use the stack and can't be responded to, CR 406.4 and 411.1 of 2004 and 2008, and the "
    "player who plays one keeps priority, CR 408.2e, cited as docs/FORMAT.md numbers them: the sources hold no text "
    "of those rules, so nothing of them is quoted"
)
#: The 2004 and 2008 rule that an ability on the stack is independent of its source (FORMAT item 24).
STACK_RULE_421 = (
    "an ability on the stack exists independently of its source: CR 402.6 of 2004 and 2008, cited as docs/FORMAT.md "
    "numbers it (the sources hold no text of it)"
)


#: The most bits an exact fraction in an outcome may have in its denominator: about 3,900 digits,
#: under the 4,300 that Python writes as text (a larger expected_iterations is null, with a note).
_MAX_FRACTION_BITS = 13_000


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
    end_state: Mapping[str, StateValue] | None = None
    """The state where independent sets were cut off by the loop's end (else computed from counts)."""
    stopped_by: StoppedBy | None = None
    """Set when a rule forces the deviation (else derived: requirement, intent, or None)."""
    ended_by: str | None = None
    """The effect of the end (or the failed requirement) that ended the loop."""
    left: tuple[Elimination, ...] | None = None
    """Players who left while independent sets ran their own counts up to an end, or when a
    repetition inside one resolution stopped (format 2); None: read off the engine's run."""
    by_chance: bool = False
    """Set by :meth:`Ruleset.chance_end`: nothing but the chance event stops the loop (no
    player's point does), so its expected length is the event's alone."""


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

    def __init__(self, ruleset: "Ruleset", scenario: Scenario, facts: LoopFacts | None = None) -> None:
        self.ruleset = ruleset
        self.scenario = scenario
        self.facts: LoopFacts = facts_of(scenario) if facts is None else facts
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
        if quote is None or isinstance(quote, str):  # one text to quote: the common case
            key = rule if quote is None else quote
            if key not in self.quotes:
                self.quotes.append(key)
            return
        for key in quote or [rule]:
            if key not in self.quotes:
                self.quotes.append(key)

    def _quotes(self) -> tuple[tuple[str, str], ...]:
        """Each quoted rule with its text (:meth:`_quote`): straight from the cached look-up when
        the ruleset doesn't override :meth:`Ruleset.quote` (a plugin may), one call per text."""
        cls = type(self.ruleset)
        if cls.quote is Ruleset.quote:
            try:
                # A class is hashable; mypy does not see type[...] as Hashable (python/mypy#11470).
                return tuple([(key, _quote(cls, key)) for key in self.quotes])  # type: ignore[arg-type]
            except KeyError:
                pass  # a text the sources lack: each quote its own way, below
        return tuple((key, self._quote(key)) for key in self.quotes)

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

    def absorb(self, other: "Settlement") -> None:
        """Add what another settlement recorded (its transcript after this one's; rules, quotes
        and notes not recorded yet; the judge if it called one)."""
        self.transcript.extend(other.transcript)
        self.rules.extend(r for r in other.rules if r not in self.rules)
        self.quotes.extend(k for k in other.quotes if k not in self.quotes)
        for text in other.notes:
            self.note(text)
        self.judge = self.judge or other.judge

    def note(self, text: str) -> None:
        """Record a reading of a silent or ambiguous text."""
        if text not in self.notes:
            self.notes.append(text)

    def end_words(self) -> str:
        """What ends the loop by itself, in words (the end's effect, else its bound)."""
        stop = self.facts.stop_event
        if stop is not None:
            return self.stop_words(stop)
        ends = self.scenario.end_conditions
        if not ends:
            return "it reaches its bound"
        end = ends[0]
        return end.effect or f"{end.value} reaches its bound"

    def stop_words(self, stop: "DynEvent") -> str:
        """How the format 2 engine's run stopped, in words."""
        if stop.kind == "draw":
            return "every player left loses at the same time, so the game is a draw (CR 104.4a)"
        if stop.kind == "nosteps":
            return f"{stop.effect}; no step of the loop is left"
        if stop.kind == "untargeted" and stop.step is not None:
            does = self.scenario.steps[stop.step].does
            return f"{stop.effect}; nobody is left for “{does}” to affect, so that step does nothing and the loop can't go on (CR 800.4a)"
        text = stop.effect
        if stop.times > 1:
            text += f" (application {stop.application + 1} of {stop.times})"
        return text

    def end_result(self) -> "Result":
        """The result of a loop that ends by itself: ``draw`` when every player left lost at the
        same step (CR 104.4a; FORMAT item 6), else ``ends``."""
        stop = self.facts.stop_event
        return Result.DRAW if stop is not None and stop.kind == "draw" else Result.ENDS

    def ended_by(self) -> str | None:
        """FORMAT's ``ended_by``: the effect of the end that stopped the loop (or the requirement)."""
        stop = self.facts.stop_event
        if stop is not None:
            return stop.effect or None
        ends = self.scenario.end_conditions
        if not ends:
            return None
        end = ends[0]
        return end.effect or f"{end.value} {'at most' if end.at_most else 'at least'} {end.bound}"

    def outcome(self, decision: Decision) -> Outcome:
        """Fill in the outcome's fields from the decision, in closed form."""
        facts = self.facts
        iterations: Iterations = None
        steps = 0
        last_action = None
        state: Mapping[str, StateValue] = dict(self.scenario.state)
        eliminated: tuple[Elimination, ...] = ()
        inner: dict[str, int] | None = None
        if decision.counts is not None:
            # Independent sets, each run its own number of times: no single cut, no last action;
            # a set whose player left performed its iterations only until then.
            iterations = facts.counts_performed(decision.counts) if facts.sets_by_engine else dict(decision.counts)
            state = dict(decision.end_state) if decision.end_state is not None else facts.state_with_counts(decision.counts)
            if decision.left is not None:
                eliminated = decision.left
            elif facts.sets_by_engine:
                eliminated = _left(facts, facts.sets_run(decision.counts).eliminations)
        elif decision.point is not None:
            point = decision.point
            steps = point.steps
            state = dict(decision.end_state) if decision.end_state is not None else facts.state_at(point)
            last = facts.last_performed_before(point)
            last_action = last.by if last else None
            iterations = point.iterations
            if decision.per_player:
                iterations = facts.counts_at(point, decision.per_player)
            eliminated = decision.left if decision.left is not None else _left(facts, facts.eliminations_until(point))
            if point.inner is not None:
                inner = {"iterations": point.inner[0], "steps": point.inner[1]}
        stopped_by = decision.stopped_by
        if decision.deviates is None:
            stopped_by = None
        elif stopped_by is None:
            forced = facts.forced_point(decision.deviates)
            stopped_by = StoppedBy.REQUIREMENT if forced is not None and forced == decision.point else StoppedBy.INTENT
        ends_early_if, expected = self._event_fields(decision)
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
            quotes=self._quotes(),
            ended_by=decision.ended_by if decision.result in (Result.ENDS, Result.DRAW) else None,
            eliminated=eliminated,
            stopped_by=stopped_by,
            ends_early_if=ends_early_if,
            expected_iterations=expected,
            inner=inner,
        )

    def _event_fields(self, decision: Decision) -> tuple[str | None, Fraction | None]:
        """FORMAT item 10: ``ends_early_if`` and ``expected_iterations`` for a loop with an event.

        The event can happen at its step in every iteration played before the stop; with a
        chance p per application (``times`` per iteration) it happens in an iteration with
        probability r = 1 - (1 - p)^times, and the expected number of complete iterations at
        the stop (the event, or the outcome's own cut) is a finite geometric sum, exact.
        """
        if self.facts.event is None:
            return None, None  # no step has an event (the common case, asked of the loop's facts once)
        steps = self.scenario.steps
        at = next((i for i, s in enumerate(steps) if s.ends_loop), None)
        if at is None or decision.result in (Result.DRAW, Result.NO_RESTART, Result.UNSPECIFIED):
            return None, None
        event = steps[at].ends_loop
        assert event is not None  # the step was found by it
        facts = self.facts
        cut = decision.point
        if cut is None and decision.by_chance:
            cut = CutPoint(UNBOUNDED)  # only the event stops the loop (chance_end)
        elif cut is None:
            # Played out (no shortcut), or run until the event: the players stop where they mean
            # to (nobody, for a loop run until its event), if the event doesn't come first.
            points = (facts.deviation_point(p) for p in self.scenario.players)
            cut = facts.first_point(p for p in points if p is not None) or facts.end or CutPoint(UNBOUNDED)
        if not cut.unbounded and cut.iterations == 0 and cut.steps <= at:
            return None, None  # the event's step is never reached before the stop
        if event.chance is None:
            return event.when, None
        # r = 1 - (1-p)^times; 1 - r = a/b exactly, in integers (p = u/v: a = (v-u)^times, b = v^times)
        u, v = event.chance.numerator, event.chance.denominator
        a, b = (v - u) ** steps[at].times, v ** steps[at].times
        chance = Fraction(b - a, b)
        after_last = 1 if at == len(steps) - 1 else 0  # an event at the last step counts the iteration
        if cut.iterations is UNBOUNDED:
            expected = (1 - chance) / chance + after_last
            return event.when, expected
        # The iterations completed before the cut each give the event one chance.  In the cut's
        # own iteration the event's step may come before the cut too, but an event there stops
        # the loop with the cut's n complete iterations, as the cut itself does, so that chance
        # changes nothing and is not summed.  (1 - r) has r's denominator: it sizes the terms.
        chances = cut.iterations
        # The exact value's denominator has about chances * log2(b) bits: over what an outcome can
        # write (:data:`_MAX_FRACTION_BITS`), it is not computed at all.
        if chances * chance.denominator.bit_length() > _MAX_FRACTION_BITS:
            self.note(
                "The expected number of iterations has too many digits to write exactly over so many chances; "
                "expected_iterations is null."
            )
            return event.when, None
        # sum_{i < N} r (1-r)^i (i + s) + (1-r)^N * n, with N chances and n the cut's iterations:
        # with (1-r)^N = a^N/b^N, sum_{i<N} r (1-r)^i i = (a b^N - a^N (N (b-a) + a)) / (b^N (b-a)),
        # the whole sum over the one denominator b^N (b-a), reduced once (Fraction arithmetic
        # reduces every intermediate: a tenth of the atlas's time went there)
        aN, bN = a**chances, b**chances
        numerator = a * bN - aN * (chances * (b - a) + a) + after_last * (bN - aN) * (b - a) + cut.iterations * aN * (b - a)
        return event.when, Fraction(numerator, bN * (b - a))

    # --- vocabulary shared by every ruleset's transcript ------------------------------------------

    def who(self, player: str) -> str:
        """A player's name, marked "(active player)" when it is their turn."""
        return f"{player} (active player)" if player == self.scenario.active else player

    def number(self, player: str) -> Count:
        """The number a player names: their intent, or an unbounded one if they never deviate."""
        intent = self.scenario.intent(player)
        return UNBOUNDED if intent.after is None else intent.after  # "never", or a goal never reached

    def point(self, player: str) -> CutPoint:
        """Where a player stops the loop themselves: their deviation point (a partial one as
        given), or, if they never deviate, their first choice after an unbounded number."""
        return self.facts.deviation_point(player) or self.facts.own_point(player, UNBOUNDED)

    def means(self, player: str) -> str | None:
        """How a player outside the loop's optional actions could end it, in words, if at all."""
        for step in self.scenario.steps:
            if step.unless and step.unless.breaks and step.unless.by == player:
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


def _chance_event(scenario: Scenario) -> "EndsLoop | None":
    """The first ``ends_loop`` event with a ``chance`` (FORMAT item 17), if any."""
    return next((s.ends_loop for s in scenario.steps if s.ends_loop is not None and s.ends_loop.chance is not None), None)


def _left(facts: LoopFacts, eliminations: Iterable["DynElimination"]) -> tuple[Elimination, ...]:
    """The engine's eliminations as outcome entries, counted as cut points are."""
    return tuple(Elimination(e.player, *_counted(facts.point(e.position, e.inner)), e.inner) for e in eliminations)


def _counted(point: CutPoint) -> tuple[Count, int]:
    return point.iterations, point.steps


def _quoted(text: str) -> str:
    return f"\u201c{text}\u201d"


def _with_after_cut(outcome: Outcome, facts: LoopFacts, after: "DynAfterCut | None") -> Outcome:
    """The outcome with the steps performed after the cut (FORMAT item 24): ``after_cut``, the state
    they leave, and the players they eliminate, each at the after-cut step's own position."""
    if after is None:
        return outcome
    return dataclasses.replace(
        outcome,
        after_cut=after.performed,
        state=after.state,
        eliminated=outcome.eliminated + _left(facts, after.eliminations),
    )


def _resolve_goals(scenario: Scenario) -> tuple[Scenario, list[tuple[str, Goal, int | None]]]:
    """Goals turned into counts in closed form (FORMAT item 13): the scenario with the counts,
    and (player, goal, count or None) for each goal, for the transcript."""
    goals = [(p, i.until) for p, i in scenario.intents.items() if i.until is not None and i.after is None]
    if not goals:
        return scenario, []
    facts = facts_of(scenario)
    intents = dict(scenario.intents)
    shown: list[tuple[str, Goal, int | None]] = []
    for player, goal in goals:
        count = facts.goal_iterations(goal)
        intents[player] = Intent() if count is None else Intent(count)
        shown.append((player, goal, count))
    return dataclasses.replace(scenario, intents=intents), shown


def describe_count(n: Count) -> str:
    """A number as transcripts show it."""
    return "unbounded (an arbitrarily large finite number)" if n is UNBOUNDED else f"{n:,}"


def listing(items: Iterable[str]) -> str:
    """Items in words: "A", "A and B", "A, B and C"."""
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def be(items: Sized) -> str:
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

    def key(stop: Stop) -> tuple[int, tuple[int, int, int, int], int, int]:
        tie = order.index(stop.player) if stop.player in order else len(order)
        if stop.point.unbounded:
            return (1, (stop.rank, 0, 0, 0), stop.point.steps, tie)
        # a point inside a run falls between the points around its step (FORMAT item 29)
        return (0, facts.key(stop.point), 0, tie)

    # each key once; the index keeps the sort stable without comparing stops
    ranked = sorted((key(s), i, s) for i, s in enumerate(stops))
    head = ranked[0][0][:3]
    return ranked[0][2], [s for k, _, s in ranked[1:] if k[:3] == head]


@lru_cache(maxsize=None)
def _quote(cls: type[Ruleset], key: str) -> str:
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

    # The contract at a glance: every setting an era may change, with its neutral default.  An
    # era's class body sets only what its text changes; the hooks below are its questions.

    # --- identity: which text, and when --------------------------------------------------------
    #: Stable name used on the command line and in files ("cr-2024").
    key: ClassVar[str] = ""
    #: Other names accepted for it ("cr729-2024").
    aliases: ClassVar[tuple[str, ...]] = ()
    #: How reports name it ("CR 729 (2024)").
    name: ClassVar[str] = ""
    #: The document and section, in words.
    document: ClassVar[str] = ""
    #: The date of the text applied (YYYY-MM-DD).
    effective: ClassVar[str] = ""
    #: First and last day in force; None for "still in force", "unknown" where the sources don't say.
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
    #: The rules it numbers, each quotable from its sources.
    rule_ids: ClassVar[tuple[str, ...]] = ()
    #: The text files it quotes, with the prefix its citations carry.
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
    #: The day a comparison ``--as-of`` asks about ("" for none): a loop dated later didn't exist yet.
    as_of_day: ClassVar[str] = ""

    # --- how its text reads a loop ---------------------------------------------------------------
    choice_sustains: ClassVar[bool] = True
    """Whether a ``choice = true`` step makes its controller involved in maintaining the loop.

    True where a choice keeps a loop going as an action does: the CR's "game choices" (since
    2009), the current MTR's paragraph on loops sustained by choices, and the older texts as
    judges read them.  False where a choice is only its maker's way out of the loop, like a
    breaker: the 2018 MTR, as a judge ruled under it (docs/DOMAIN.md section 6).
    """

    # --- what each era's text says, cited: the settings its transcripts read ---
    #: The rule that defines what a loop is (cited when a loop turns out not to be endless).
    loop_rule: ClassVar[str] = ""
    #: What this text gives an inner loop with a random or conditional step, settled as a loop
    #: of its own (FORMAT item 29); a deterministic inner loop is ``shortcut`` in every era.
    random_inner: ClassVar[Result] = Result.SHORTCUT
    #: A rule that says outright that a loop which will end is run to completion, if the text has one.
    ends_rule: ClassVar[str] = ""
    #: The draw rule a loop of only mandatory actions cites, as this text numbers it ("102.6",
    #: "104.4b"); empty for a text with no draw.
    draw_rule: ClassVar[str] = ""
    #: How this text writes a citation of the Comprehensive Rules: "" in the CR itself, "CR " in
    #: the Tournament Rules ("CR 729.6").
    cite: ClassVar[str] = ""
    #: The number of the Comprehensive Rules loop rule this text applies ("713", "729"), or for the
    #: Tournament Rules the one it overrides; empty for a text that has none.
    number: ClassVar[str] = ""
    #: The date of the Comprehensive Rules whose draw rule this ruleset cites (default: its own).
    cr_date: ClassVar[str] = ""
    #: On a release renumbered after the text applied (:meth:`renumbered`): how it came to be so.
    renumbering: ClassVar[str] = ""
    #: What the rule applied is called today, said when :attr:`number` is not the loop rule's
    #: number in the newest Comprehensive Rules: ``{number}`` is :attr:`number`, ``{today}`` that
    #: newest number (:func:`.history.number_today`).  Empty: nothing to say.
    today_words: ClassVar[str] = ""
    #: How this text's notes word a tie, where players would act at the same point and the text
    #: does not say who goes first: ``{first}`` is the player taken to act, ``{others}`` the
    #: rest, ``{reason}`` why (given by each procedure, :meth:`note_ties`).
    tie_wording: ClassVar[str] = "{first} and {others} would act at the same point. Reading taken: {first} acts, {reason}."

    # --- the driver --------------------------------------------------------------------------------

    def settle(self, scenario: Scenario) -> Outcome:
        """Settle a scenario: the order in which every ruleset's hooks are asked lives here.

        A loop outside what the closed form can settle (values too irregular or astronomically
        far from their bounds, see :mod:`.dynamics`) is ``unspecified``, with a note saying why.
        """
        if scenario.parts:
            return self._settle_parts(scenario)
        since = scenario.exists_since
        if since and (self.ended_before(since) or (self.as_of_day and self.as_of_day < since)):
            return self.not_applicable(scenario, since)
        try:
            outcome = self._settle(scenario)
        except TooLarge as exc:
            note = f"This loop is outside what loopcompare can settle in closed form: {exc}. The result is 'unspecified'."
            return Outcome(Result.UNSPECIFIED, state=dict(scenario.state), notes=(note,))
        if since and self.in_force[1] == "unknown" and since > (self.in_force[0] if self.in_force[0] != "unknown" else self.effective):
            note = (
                f"The loop exists only from {since} ({scenario.why_not_before}); this text's last day is unknown "
                f"(the sources attest its successor by {self.superseded_by or 'an unknown day'}), so it is settled as "
                "if the text still applied on that day (FORMAT item 27)."
            )
            outcome = dataclasses.replace(outcome, notes=outcome.notes + (note,))
        return outcome

    def say_replaced(self, ctx: "Settlement", replaced: "Sequence[tuple[CutPoint, int, str | None]]") -> None:
        """FORMAT item 26: each end whose action was replaced once, in the transcript and a note
        (no outcome field records it; ``state`` shows the values set)."""
        ends = ctx.scenario.end_conditions
        for point, index, whose in replaced:
            end = ends[index]
            assert end.instead is not None
            owner = f"{end.instead_player}'s " if end.instead_player else ""
            values = ", ".join(f"{owner if isinstance(ctx.scenario.state.get(name), Mapping) else ''}{name} becomes {value}" for name, value in end.instead.items())
            who = f"{whose}'s " if whose else ""
            what = f"{who}loss ({end.effect})" if end.loses_someone else f"the end \u201c{end.effect}\u201d"
            # Cited to the rule that defines the loop whose run it happens in: no modelled text numbers
            # replacement effects (CR 614 is not among the sources).
            ctx.say(self.loop_rule, f"{point.describe()}, {what} is replaced, once: {values}; the loop goes on.")
            ctx.note(
                f"A replacement effect acts once {point.describe()}: instead of {what}, {values} (FORMAT item 26). "
                "It is game mechanics, the same in every era where the card exists; afterwards that end acts normally."
            )

    def _settle_parts(self, scenario: Scenario) -> Outcome:
        """FORMAT item 30: the file's loops one after another (``[[then]]``), each from the state
        the previous one reached, among the players still in the game, in the turn where it
        stopped.  A part is reached while the game goes on after the previous one (a cut, or an
        end with two or more players left); the top fields are the last reached part's."""
        outcomes: list[Outcome] = []
        current = dataclasses.replace(scenario, parts=())
        unknown: frozenset[str] = frozenset()

        def settle_part(k: int) -> Outcome:
            try:
                return _unknown(self.settle(current), unknown)
            except Unsettleable as error:
                if k == 1:
                    raise
                # an engine limit in a later part names the part, as its loader errors do (FORMAT item 31)
                raise Unsettleable(f"then {k - 1}: {error.where}" if error.where else f"then {k - 1}", error.message) from error

        for k, part in enumerate(scenario.parts, start=2):
            outcomes.append(settle_part(k - 1))
            if not _reaches_next(outcomes[-1], current):
                break
            dated = dataclasses.replace(part, exists_from=scenario.exists_from, because=scenario.because, cards=scenario.cards)
            current, unknown = _next_part(current, outcomes[-1], dated, k, unknown)
        else:
            outcomes.append(settle_part(len(scenario.parts) + 1))
        return dataclasses.replace(outcomes[-1], part=len(outcomes), parts=tuple(outcomes))

    def ended_before(self, day: str) -> bool:
        """True when this text's last day in force is known and comes before ``day`` (YYYY-MM-DD):
        a loop that needs card text of ``day`` could not happen under it (FORMAT item 27)."""
        last = self.in_force[1]
        return last is not None and last != "unknown" and last < day

    def not_applicable(self, scenario: Scenario, since: str) -> Outcome:
        """The ``n/a`` outcome of a loop that could not happen while this text was in force:
        every other field neutral (the state the starting one, as for any outcome without a cut),
        no rule applied, the reason as its note (FORMAT item 27)."""
        why = scenario.why_not_before
        if self.as_of_day and self.as_of_day < since:
            line = f"The loop exists only from {since}: on {self.as_of_day} it didn't exist yet, so there is nothing to settle ({why})."
        else:
            line = (
                f"The loop exists only from {since}; this text was in force from {self.in_force[0]} to "
                f"{self.in_force[1]}, before the loop could happen: not applicable ({why})."
            )
        return Outcome(Result.NOT_APPLICABLE, state=dict(scenario.state), notes=(why,), transcript=(line,))

    def on_day(self, day: str) -> "Ruleset":
        """This ruleset as a comparison ``--as-of`` ``day`` applies it (:attr:`as_of_day`)."""
        cls = type(self)
        attrs = {"__doc__": cls.__doc__, "__module__": cls.__module__, "__qualname__": cls.__qualname__, "as_of_day": day}
        made: type[Ruleset] = type(cls.__name__, (cls,), attrs)
        return made()

    def _settle(self, scenario: Scenario) -> Outcome:
        scenario, goals = _resolve_goals(scenario)
        ctx = Settlement(self, scenario)
        for player, goal, count in goals:
            self.goal(ctx, player, goal, count)
        resolution = scenario.loop.within == "resolution"
        if ctx.facts.offers_payments:
            self.read_payments(ctx)
        decision = self.within_resolution(ctx) if resolution else None
        if decision is None:
            decision = self.until_event(ctx)
        if decision is None and not resolution:
            decision = self.restrictions(ctx)
        if decision is None:
            decision = self.departed(ctx, self._procedure(ctx))
        decision = self.chance_end(ctx, decision)
        decision = self.losses_on_the_way(ctx, decision)
        if resolution:
            decision = self.resolution_losses(ctx, decision)
        else:
            replaced = ctx.facts.replacements_until(decision.point)
            if replaced:
                self.say_replaced(ctx, replaced)
        decision, after = self.after_the_cut(ctx, decision)
        self.priority_notes(ctx, decision)
        nest = self.inner_results(scenario)
        if nest:
            self.read_nest(ctx, nest)
        ctx.judge = ctx.judge or self.judge_needed(ctx, decision)
        outcome = _with_after_cut(ctx.outcome(decision), ctx.facts, after)
        return dataclasses.replace(outcome, inner_results=nest) if nest else outcome

    def inner_results(self, scenario: Scenario) -> dict[str, Result]:
        """FORMAT item 29: each inner loop a step runs, by id, with its own result: a deterministic
        one is ``shortcut`` (its run is finite, so no era decides its length); one with a random or
        conditional step is what this text gives such a loop (:attr:`random_inner`)."""
        out: dict[str, Result] = {}
        for step in scenario.steps:
            if step.run is not None and step.run.loop.id not in out:
                loop = step.run.loop
                out[loop.id] = Result.SHORTCUT if loop.deterministic else self.random_inner
        return out

    def read_nest(self, ctx: Settlement, nest: Mapping[str, Result]) -> None:
        """How this text reads a loop with inner loops (the 421 texts; G.21, the CR since 2009
        and the MTR say it their own way)."""
        ctx.note(
            f"{self.name} speaks of “the loop” only: it says nothing of a loop inside another. Reading taken "
            f"(FORMAT item 29): each inner loop ({', '.join(repr(k) for k in nest)}) is settled as a loop of its own by the same "
            f"procedure as the outer loop; its run is finite (a number of times, or until a goal), so "
            "it is played to its end, and a point inside it is a point of the loop like any other."
        )

    def _procedure(self, ctx: "Settlement", gone: frozenset[str] = frozenset()) -> Decision:
        """The era's loop procedure among the players involved, leaving out those in ``gone``
        (players who have left the game, FORMAT item 6)."""
        involved = tuple(p for p in self.involved(ctx) if p not in gone)
        before = ctx.mark()
        if not involved:
            decision = self.mandatory(ctx)
        elif len(involved) == 1:
            decision = self.one_controller(ctx, involved[0])
        elif ctx.scenario.loop.independent:
            decision = self.independent(ctx, involved)
        else:
            decision = self.dependent(ctx, involved)
        decision = self.moved_cut(ctx, decision)
        decision = self.requirement_cap(ctx, decision)
        return self.run_to_end(ctx, decision, before)

    # --- format 2: goals, resolutions, events, requirements (the same in every era unless overridden) ---

    def goal(self, ctx: "Settlement", player: str, goal: Goal, count: int | None) -> None:
        """Show how a player's goal became a number of iterations (FORMAT item 13)."""
        whose = f"{goal.player}'s " if goal.player else ""
        want = f"{whose}{goal.value} {'at most' if goal.at_most else 'at least'} {goal.bound:,}"
        if count is None:
            ctx.note(
                f"{player}'s goal ({want}) is never reached by this loop; reading taken (FORMAT, goals): it is "
                f"treated as “never”, so {player} wants the loop to go on."
            )
            return
        ctx.say(
            self.loop_rule,
            f"{player} wants {want}: worked out in closed form, that holds first after {count:,} complete "
            f"iteration{'s' if count != 1 else ''}, so {player}'s number is {count:,}.",
            quote=self.loop_quote(),
        )

    def within_resolution(self, ctx: "Settlement") -> Decision | None:
        """A repetition inside one spell's or ability's resolution (FORMAT item 11, docs/DOMAIN.md 6).

        Nobody receives priority inside it, so no loop procedure applies.  With no choice that
        sustains it, it runs to its end, or the game is a draw under the draw rule in force;
        with a chooser, judges treat it as a loop that player maintains.
        """
        facts = ctx.facts
        choosers = facts.optional_controllers
        if not choosers and facts.event is not None:
            # "Repeat until you lose a flip": nobody's choice sustains it, an event ends it (FORMAT item 10).
            return None
        if not choosers:
            end = facts.end
            if end is not None:
                ctx.note(
                    "Inside one resolution no player receives priority and nobody has a choice, so no loop procedure "
                    "applies (docs/DOMAIN.md section 6): the repetition simply runs to its end."
                )
                self.ends(ctx, end)
                return Decision(ctx.end_result(), end, ended_by=ctx.ended_by())
            rule = self.resolution_draw_rule()
            ctx.say(rule, "the repetition happens inside one resolution, where no player receives priority and nobody has a choice that could stop it, and it never ends: the game is a draw.", quote=rule)
            ctx.note(
                f"Inside one resolution no player receives priority, so no loop rule applies; reading taken "
                f"(docs/DOMAIN.md section 6): the game is a draw under the draw rule in force on {self.draw_date()} ({rule})."
            )
            return Decision(Result.DRAW)
        chooser = choosers[0]
        chance = _chance_event(ctx.scenario)
        if not (chance is not None and ctx.scenario.intent(chooser).never):
            # FORMAT item 16: a random or conditional repetition a chooser maintains is a
            # non-deterministic loop, and each era settles it as such.
            restricted = self.restrictions(ctx)
            if restricted is not None:
                return restricted
        if len(choosers) > 1:
            ctx.note(f"Choices of {', '.join(choosers)} sustain this resolution; reading taken: the first in turn order, {chooser}, is the one involved player.")
        ctx.note(
            f"The repetition happens inside one resolution, sustained by {chooser}'s choice. {self.name}'s loop rules speak "
            "of actions taken while players have priority, not of choices inside a resolution. Reading taken, as judges "
            "rule (Magic Judges Rules Tips, 2017-01, Grindstone and Blightsteel Colossus under Rest in Peace; judge forum, "
            f"2015-01, Helm of Obedience against Wheel of Sun and Moon): it is a loop {chooser} maintains; they may repeat "
            "it as often as they like but must eventually choose otherwise."
        )
        if ctx.scenario.intent(chooser).never:
            before = ctx.mark()
            point = facts.own_point(chooser, UNBOUNDED)
            ctx.say(
                self.loop_rule,
                f"{chooser} means to keep choosing the same way, but may not repeat it forever: they repeat it an "
                f"arbitrarily large number of times and then choose otherwise ({point.describe()}).",
                quote=self.loop_quote(),
            )
            # A requirement that fails on the way stops the chooser there, as it would in a loop,
            # and an end reached first ends the repetition (run to completion).
            decision = self.requirement_cap(ctx, Decision(Result.SHORTCUT, point, chooser, stopped_by=StoppedBy.RULE))
            return self.run_to_end(ctx, decision, before)
        return None

    def resolution_draw_rule(self) -> str:
        """The CR draw rule in force on this document's date (102.6, 102.4b, 104.4b), as cited."""
        date = self.draw_date()
        number = "104.4b" if date >= "2009-07-11" else "102.4b" if date >= "2005-08-01" else "102.6"
        return f"{self.cite}{number}"

    def draw_date(self) -> str:
        """The date whose Comprehensive Rules give the draw rule cited."""
        date = self.cr_date or self.effective
        return date if date[:1].isdigit() else "2024-06-07"

    def until_event(self, ctx: "Settlement") -> Decision | None:
        """A loop nobody can stop that runs until a chance or hidden event (FORMAT item 10):
        in every era it ends, with no fixed length."""
        facts = ctx.facts
        event = facts.event
        if event is None or facts.optional_controllers or facts.unless_payers:
            return None
        if any(facts.deviation_point(p) is not None for p in ctx.scenario.players):
            return None
        if ctx.scenario.loop.within == "resolution":
            ctx.note(
                "Inside one resolution no player receives priority and nobody has a choice, so no loop procedure "
                "applies (docs/DOMAIN.md section 6): the repetition simply runs until the event."
            )
        end = facts.end
        if end is not None:
            # FORMAT item 17: the loop's own end, at a fixed point, is where it ends; the event is
            # what may end it earlier (ends_early_if, expected_iterations of the earlier of the two).
            ctx.note(
                f"Nobody controls an action that keeps this loop going; left alone it ends by itself {end.describe()}, "
                f"unless “{event.when}” ends it earlier (ends_early_if)."
            )
            self.ends(ctx, end)
            return Decision(ctx.end_result(), end, ended_by=ctx.ended_by())
        ctx.say(
            self.loop_rule,
            f"nobody controls an action that keeps this loop going, and it ends when “{event.when}”: "
            "it is run until that happens.",
            quote=self.loop_quote(),
        )
        ctx.note(
            f"The loop has no fixed length: it runs until “{event.when}” (FORMAT, events). Reading "
            "taken in every era: it ends by itself, after a number of iterations no one can name in advance."
        )
        return Decision(Result.ENDS)

    def chance_end(self, ctx: "Settlement", decision: Decision) -> Decision:
        """FORMAT item 17: a chance end comes before "never".

        An ``ends_loop`` event with a ``chance`` ends, with probability 1, a loop that nothing
        else would stop.  Where the procedure took the loop on without end (a shortcut to an
        unbounded number, independent sets that all run on, a draw of an endless loop), the
        event ends it instead: ``ends`` with no fixed length.  A result that forbids the shortcut
        (``no_shortcut``), leaves it to the judge (``unspecified``) or stops the loop by a rule
        first stands.
        """
        event = _chance_event(ctx.scenario)
        if event is None:
            return decision
        facts = ctx.facts
        if decision.result is Result.SHORTCUT:
            if decision.counts is not None:
                # The event happens as long as the set holding it runs (a step outside every set:
                # as long as any runs): a set that runs an unbounded number, its player still in
                # the game, meets it with probability 1 whatever the other sets do.
                counts = facts.counts_performed(decision.counts) if facts.sets_by_engine else decision.counts
                owners = facts.set_of_step
                holders = {owners[i] for i, s in enumerate(ctx.scenario.steps) if s.ends_loop is not None and s.ends_loop.chance is not None}
                endless = any(c is UNBOUNDED and (p in holders or None in holders) for p, c in counts.items())
            else:
                endless = decision.point is not None and decision.point.unbounded
        elif decision.result is Result.DRAW:
            endless = facts.stop_event is None  # not everyone losing at once: a loop with no end
        else:
            endless = False
        if not endless:
            return decision
        if decision.result is Result.DRAW:
            what = "would repeat without end (a draw)"
        elif decision.counts is not None:
            what = "would go on an unbounded number of times (a set's number)"
        else:
            who = f"{decision.deviates}'s" if decision.deviates else "the"
            what = f"would go on an unbounded number of times ({who} number)"
        ctx.say(
            self.loop_rule,
            f"the loop {what}, but “{event.when}” has a chance of happening in every iteration, so with "
            "probability 1 it happens and ends the loop, after a number of iterations no one can name in advance.",
            quote=self.loop_quote(),
        )
        ctx.note(
            f"Reading taken (FORMAT item 17): a chance end comes before “never”. Nothing else stops this loop, and "
            f"“{event.when}” ends it with probability 1, so it ends by itself, with no fixed length."
        )
        return Decision(Result.ENDS, by_chance=True)

    def losses_on_the_way(self, ctx: "Settlement", decision: Decision) -> Decision:
        """FORMAT item 19: the players who lose before a loop repeats without end are listed,
        and the draw is reported at the last of those points."""
        facts = ctx.facts
        if decision.result is not Result.DRAW or facts.stop_event is not None or facts.forced_stop is not None:
            return decision
        left = facts.eliminations_until(CutPoint(UNBOUNDED))
        if not left:
            return decision
        last = left[-1]
        if decision.point is not None and not decision.point.unbounded and facts.key(decision.point) >= last.key:
            return decision
        where = facts.point(last.position, last.inner)
        gone = listing(e.player for e in left)
        ctx.note(
            f"Reading taken (FORMAT item 19): played forward in closed form, {gone} {'loses' if len(left) == 1 else 'lose'} "
            f"the game before the loop repeats without end; the draw is reported {where.describe()}, where the last of them leaves."
        )
        return dataclasses.replace(decision, point=where)

    def resolution_losses(self, ctx: "Settlement", decision: Decision) -> Decision:
        """FORMAT item 18: nobody loses inside one resolution.

        State-based actions are performed only when a player would receive priority (CR 704.3),
        so an ``[[end]]`` that makes a player lose doesn't act while the repetition goes on; when
        it stops, every player for whom such a bound then holds loses at once, in turn order
        from the active player.  One player left: the game is over (``ends``); none: a draw.
        """
        facts = ctx.facts
        point = decision.point
        if decision.counts is not None or not any(e.loses_someone for e in ctx.scenario.end_conditions):
            return decision
        if point is None:
            if decision.result is Result.ENDS:
                ctx.note(
                    "The repetition stops at a moment no one can name in advance, so who loses when it stops (state-based "
                    "actions wait until a player would receive priority, CR 704.3) can't be said here (FORMAT item 18)."
                )
            return decision
        if decision.result not in (Result.SHORTCUT, Result.ENDS, Result.NO_SHORTCUT):
            return decision
        losers, after, replaced = facts.stop_losses(point)
        if replaced:
            self.say_replaced(ctx, [(point, index, whose) for index, whose in replaced])
            decision = dataclasses.replace(decision, end_state=after)
        if not losers:
            return decision
        names = listing(p for p, _ in losers)
        ctx.note(
            "Inside one resolution no player receives priority, and state-based actions are performed only when a player "
            "would receive priority (CR 704.3, “State-Based Actions”, cited by title where the sources applied don't "
            f"number it): nobody loses while the repetition goes on. When it stops ({point.describe()}), {names} "
            f"{'loses' if len(losers) == 1 else 'lose'} the game at once (FORMAT item 18)."
        )
        left = tuple(Elimination(p, *_counted(point), point.inner) for p, _ in losers)
        remaining = [p for p in ctx.scenario.players if p not in {q for q, _ in losers}]
        if len(remaining) > 1:
            return dataclasses.replace(decision, left=left)
        if not remaining:
            ctx.note("Every player left loses at the same time, so the game is a draw (CR 104.4a).")
            return Decision(Result.DRAW, point, ended_by=losers[-1][1], left=left, end_state=decision.end_state)
        ctx.note(f"Only {remaining[0]} is left: the game is over.")
        ended = decision.ended_by if decision.result is Result.ENDS and decision.ended_by else losers[-1][1]
        return Decision(Result.ENDS, point, ended_by=ended, left=left, end_state=decision.end_state)

    def departed(self, ctx: "Settlement", decision: Decision) -> Decision:
        """The player who deviates has left the game before their own point (FORMAT item 6).

        If every player involved in maintaining the loop has left by then, the rest is a
        mandatory loop among those left: it runs to its end if it has one, else it is settled
        among them as this text settles a mandatory loop (a draw, a player's way out, an
        unbounded repetition, or no rule).  Otherwise the procedure is applied again among the
        players left (:meth:`_among_those_left`).
        """
        if decision.point is None:
            return decision
        facts = ctx.facts
        gone = facts.eliminations_until(decision.point)
        leaver = next((e for e in gone if e.player == decision.deviates), None)
        if leaver is None:
            return decision
        left_by = {e.player: e for e in gone}
        mark = ctx.mark()
        involved = self.involved(ctx)
        ctx.rollback(mark)  # what involved() says, the procedure has said already
        if not involved or any(p not in left_by for p in involved):
            # The one who was to stop the loop is gone, and it is not that everybody who maintained
            # it has left (or nobody did: the stop was a breaker's or a payer's).
            return self._among_those_left(ctx, decision, leaver, frozenset(left_by), bool(involved))
        last = max((left_by[p] for p in involved), key=lambda e: e.position)
        where = facts.point(last.position, last.inner)
        after = "" if last.player == leaver.player else f"; {last.player}, the last who maintained it, leaves {where.describe()}"
        ctx.note(
            f"{leaver.player} leaves the game {facts.point(leaver.position, leaver.inner).describe()}, before the point where they were "
            f"to deviate{after}, and nobody left in the game maintains the loop: reading taken (FORMAT item 6), the rest "
            "is a mandatory loop among the players left."
        )
        end = facts.end
        if end is not None:
            self.ends(ctx, end)
            return Decision(ctx.end_result(), end, ended_by=ctx.ended_by())
        # The rest is settled among the players left: those who left have no number in it.
        facts_left = facts.among(frozenset(left_by))
        rest_ctx = Settlement(self, facts_left.scenario, facts_left)
        rest = self.mandatory(rest_ctx)
        ctx.absorb(rest_ctx)
        if rest.result is Result.DRAW:
            return Decision(Result.DRAW, where)
        if rest.point is not None and not rest.point.unbounded and facts.key(rest.point) < last.key:
            ctx.note("The way out of the mandatory rest would come before it starts; the cut shown is the procedure's.")
            return decision
        # The rest's own result: a way out after the last maintainer left, the loop repeated an
        # unbounded number of times (G.21.4), or no rule for it at all.
        return rest

    def _among_those_left(
        self, ctx: "Settlement", decision: Decision, leaver: "DynElimination", gone: frozenset[str], involved: bool = True
    ) -> Decision:
        """Apply the procedure again among the players left, when the player who was to deviate
        has left the game first and other players involved remain (docs/READINGS.md).

        The players who left are out of the procedure: they are not involved and their numbers
        no longer count.  A cut the new procedure puts before the point where the player left
        has already been passed; its player stops at their first point from there.
        """
        facts = ctx.facts
        where = facts.point(leaver.position, leaver.inner)
        left = ", ".join(p for p in facts.turn_order if p in gone)
        ctx.say(
            self.loop_rule,
            f"{leaver.player} leaves the game {where.describe()}, before the point where they were to deviate "
            f"({decision.point.describe() if decision.point else 'later'}); the loop goes on among the players left, "
            "and its procedure is applied again among them.",
            quote=self.loop_quote(),
        )
        ctx.note(
            f"{leaver.player} leaves the game before the point where they were to deviate, while "
            f"{'other players involved remain' if involved else 'the loop, which no player maintains, goes on'}. No text says what happens to a procedure's result when a player it relied on leaves; reading taken "
            f"(docs/READINGS.md): the procedure is applied again among the players still in the game, without {left}, "
            "whose numbers no longer count (CR 800.4a: a player who leaves the game is no longer part of it)."
        )
        facts_left = facts.among(gone)
        rest = Settlement(self, facts_left.scenario, facts_left)
        again = self._procedure(rest, gone)
        ctx.absorb(rest)
        if decision.per_player and again.per_player:
            # every set is still counted, a leaver's up to where they left (FORMAT item 6)
            again = dataclasses.replace(again, per_player=decision.per_player)
        point = again.point
        if (
            again.deviates is not None
            and point is not None
            and not point.unbounded
            and again.counts is None
            and facts.key(point) < leaver.key
        ):
            n = where.iterations
            assert n is not UNBOUNDED  # where is facts.point(position): finite
            later = facts.own_point(again.deviates, n)
            if facts.key(later) < leaver.key:
                later = facts.own_point(again.deviates, n + 1)
            ctx.note(
                f"The procedure among the players left gives {point.describe()}, which the loop has already passed when "
                f"{leaver.player} leaves; reading taken: {again.deviates} stops at their first point after that, "
                f"{later.describe()}."
            )
            again = dataclasses.replace(again, point=later)
        if again.deviates in gone:
            return again
        return self.departed(ctx, again)

    def requirement_cap(self, ctx: "Settlement", decision: Decision) -> Decision:
        """A player can't go on past the point where their optional step's requirement fails."""
        facts = ctx.facts
        stop = facts.forced_stop
        if stop is None or decision.point is None or decision.counts is not None:
            return decision
        forced = facts.point(stop.position, stop.inner)
        application = f" (application {stop.application + 1} of {stop.times})" if stop.times > 1 else ""
        because = (
            f"{stop.player} can't perform “{stop.effect}” {forced.describe()}{application}: the requirement fails, so "
            f"{stop.player} stops sustaining the loop there."
        )
        if facts.at_or_before(decision.point, forced):
            if decision.point == forced and decision.deviates == stop.player:
                # The procedure's cut is the failed requirement itself: say why (FORMAT items 4 and 8).
                ctx.say(self.loop_rule, because, quote=self.loop_quote())
            return decision
        ctx.say(self.loop_rule, because, quote=self.loop_quote())
        if decision.deviates != stop.player:
            ctx.note(
                f"The procedure would run the loop past {forced.describe()}, where {stop.player} can no longer take "
                "their step; reading taken: the loop stops there."
            )
        return Decision(Result.SHORTCUT, forced, stop.player, stopped_by=StoppedBy.REQUIREMENT)

    # --- format 3: the stack and priority (FORMAT items 23-24; the same in every era, cited in each) ---

    def priority_reading(self) -> str:
        """The note on where a player can act (FORMAT item 23), in this text's terms and citations."""
        return (
            "Reading taken (FORMAT item 23): a player can act only where they receive priority; right after a mana "
            "ability or a special action (priority = false) only its controller can."
        )

    def stack_reading(self) -> str:
        """Why steps already on the stack still resolve after a response (FORMAT item 24), cited in this text's terms."""
        return "an ability on the stack exists independently of its source"

    def priority_rule(self) -> str:
        """The rule cited where a point moves to the next place where a player can act (FORMAT item 23)."""
        return self.loop_rule

    def moved_cut(self, ctx: "Settlement", decision: Decision) -> Decision:
        """FORMAT item 23: a cut right after another player's priority-free step moves to right after
        the first later step after which players receive priority; the transcript says where it was
        written and where it moved.  (Players' own points are moved by :meth:`LoopFacts.meant_point`;
        here the cut a procedure put there itself, as 421.3's last word or 729.3's forced stop.)"""
        facts = ctx.facts
        point, who = decision.point, decision.deviates
        if not facts.moves_points or point is None or who is None or decision.counts is not None:
            return decision
        move = facts.move_of(who)
        if move is not None and move[1] == point:
            self._say_moved(ctx, who, move[0], point)
            return decision
        moved = facts.moved(point, who)
        if moved == point:
            return decision
        if moved is None:
            ctx.note(
                f"{who}'s stop {point.describe()} comes right after a step after which nobody but its controller can act "
                "(priority = false), and no step of the loop gives players priority; the cut is left where the procedure puts it."
            )
            return decision
        self._say_moved(ctx, who, point, moved)
        return dataclasses.replace(decision, point=moved)

    def _say_moved(self, ctx: "Settlement", who: str, written: CutPoint, moved: CutPoint) -> None:
        free = ctx.facts.last_performed_before(written)
        later = ctx.facts.last_performed_before(moved)
        assert free is not None and later is not None  # a point right after a step moved past another
        rule = self.priority_rule()
        ctx.say(
            rule,
            f"{who}'s point, written {written.describe()}, comes right after \u201c{free.does}\u201d, after which nobody but "
            f"{free.by} can act (priority = false): it moves to {moved.describe()}, right after \u201c{later.does}\u201d, the "
            "first later step after which players receive priority.",
            quote=rule,
        )
        ctx.note(self.priority_reading())

    def priority_notes(self, ctx: "Settlement", decision: Decision) -> None:
        """FORMAT item 23: a moved point that comes only after the loop's own cut is not a cut; the
        loop's cut stands and that player acts after the loop.  Where any point moved, the reading."""
        facts = ctx.facts
        if not facts.moves_points:
            return
        cut = decision.point
        moved_any = False
        # a player who has left the game by the cut doesn't act after the loop (FORMAT item 6)
        left = {e.player for e in facts.eliminations_until(cut)}
        for player in facts.turn_order:
            move = facts.move_of(player)
            if move is None:
                continue
            moved_any = True
            written, moved = move
            if player == decision.deviates or player in left or (cut is not None and facts.before(cut, written)):
                continue
            if moved is None or cut is None or facts.before(cut, moved):
                where = "only after the loop" if moved is None else moved.describe()
                ctx.note(
                    f"{player}'s point, written {written.describe()}, comes right after a step after which nobody but its "
                    f"controller can act (priority = false); {player} could first act {where}, after the loop's own cut, "
                    f"which stands: {player} acts after the loop (FORMAT item 23)."
                )
        if moved_any:
            ctx.note(self.priority_reading())

    def after_the_cut(self, ctx: "Settlement", decision: Decision) -> "tuple[Decision, DynAfterCut | None]":
        """FORMAT item 24: a response with ``still_resolves = N`` leaves the next N loop steps on the
        stack, and they still resolve after the cut: performed as in the loop, their effects reach
        the state, ends and eliminations.  The cut, ``deviates``, the last word and ``stopped_by`` stay
        the response's; when those steps end the game, the result is ``ends`` (or ``draw``)."""
        facts = ctx.facts
        point, who = decision.point, decision.deviates
        engine = facts.dynamics
        if (
            engine is None or not facts.leaves_steps_on_stack or who is None or point is None or point.unbounded or decision.counts is not None
            or decision.result not in (Result.SHORTCUT, Result.NO_SHORTCUT)
        ):
            return decision, None
        steps = ctx.scenario.steps
        at = facts.position(point)
        here = steps[point.steps]
        unless = here.unless
        paid = unless is not None and unless.by == who and unless.breaks
        if unless is not None and paid:
            count, start, words = unless.still_resolves, at + 1, f"pays \u201c{unless.does}\u201d"
        elif facts.sustaining(here) and here.by == who:
            return decision, None  # they stop by not taking their own step: nothing is on the stack
        else:
            breaker = next((b for b in ctx.scenario.breakers if b.by == who), None)
            if breaker is None:
                return decision, None
            count, start, words = breaker.still_resolves, at, f"\u201c{breaker.does}\u201d"
        if not count:
            return decision, None
        if point.inner is not None:
            raise Unsettleable(
                f"step {point.steps + 1} run",
                f"{who}'s cut falls inside the run and {count} loop step{'s' if count != 1 else ''} still resolve after it "
                "(still_resolves): steps that still resolve after a cut inside a run are not settled by this version",
            )
        after = engine.after_cut(at, count, facts.halts_after_cut(facts.point(start), count), paid=paid)
        rule = self.loop_rule
        # A step of a player who has left the game (before the cut or among these steps) drops
        # out (FORMAT item 6): it is passed, not performed, and not named as resolving.
        until = acting_until((*facts.eliminations_until(point), *after.eliminations))
        passed = [steps[p % len(steps)] for p in range(start, start + after.performed)]
        shown = [s.does for p, s in enumerate(passed, start) if acting(until, s.by, p)]
        dropped = [s for p, s in enumerate(passed, start) if not acting(until, s.by, p)]
        ctx.say(
            rule,
            f"{who} responds ({words}); {count} loop step{'s' if count != 1 else ''} already on the stack still "
            f"resolve{'s' if count == 1 else ''} after the cut"
            + (f": {listing(_quoted(d) for d in shown)}" if shown else ", but none is performed")
            + (f"; {listing(_quoted(s.does) for s in dropped)} {'drops' if len(dropped) == 1 else 'drop'} out, "
               f"{listing(dict.fromkeys(s.by for s in dropped))} having left the game" if dropped else "")
            + ".",
            quote=self.loop_quote(),
        )
        ctx.note(
            f"Reading taken (FORMAT item 24): a response leaves what is already on the stack, and it still resolves "
            f"({self.stack_reading()}). The cut, the player who deviates and the last word are the response's; the "
            f"{after.performed} step{'s' if after.performed != 1 else ''} performed after it {'reach' if after.performed != 1 else 'reaches'} the state (after_cut)."
            + (" A step that dropped out with its player is counted in after_cut by its place, as steps are (FORMAT item 4)."
               if dropped else "")
        )
        if after.halted:
            stopped = steps[(start + after.performed) % len(steps)]
            ctx.note(f"\u201c{stopped.does}\u201d is where its player's own point falls: neither it nor the steps after it are performed.")
        for e in after.eliminations:
            ctx.note(f"{e.player} loses the game after the cut, {facts.point(e.position, e.inner).describe()} ({e.effect}), and leaves it (CR 800.4a, \u201cMultiplayer Rules\u201d, cited by title).")
        stop = after.stop
        if stop is None:
            return decision, after
        where = facts.point(stop.position, stop.inner).describe()
        if stop.kind in ("requirement", "forced"):
            ctx.note(f"After the cut, \u201c{stop.effect}\u201d can't be performed {where}: the steps after the cut stop there.")
            return decision, after
        if stop.kind in ("gameover", "draw"):
            what = ctx.stop_words(stop)
            ctx.say(rule, f"after the cut, {what}, {where}: the game is over.", quote=self.loop_quote())
            result = Result.DRAW if stop.kind == "draw" else Result.ENDS
            return dataclasses.replace(decision, result=result, ended_by=stop.effect or None), after
        ctx.note(f"After the cut, the loop's end is reached {where} ({ctx.stop_words(stop)}); the steps after the cut stop there.")
        return decision, after

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
        if self.choice_sustains or ctx.scenario.loop.within == "resolution":
            # Inside one resolution the chooser is the involved player in every era (FORMAT item 18).
            return facts.optional_controllers
        return tuple(p for p in facts.optional_controllers if p not in facts.only_choosers)

    def read_choices(self, ctx: Settlement, choosers: tuple[str, ...]) -> None:
        """Record how this text reads a loop that ``choosers`` keep going by choices rather than
        actions: a citation where the text says it, a note where it is a reading."""

    def read_payments(self, ctx: Settlement) -> None:
        """Record how this text reads payments that don't end the loop (``breaks = false``, FORMAT
        item 25): the numbers are the same in every era; what differs is what the text says."""
        ctx.note(
            f"{self.name} speaks only of actions that would end or break a loop; a payment that prevents an "
            "effect in one iteration and lets the loop go on is neither. Reading taken: each payment is part "
            "of the loop as it is played, made whenever its payer can (and wants to); it makes nobody involved, "
            "and running out of what pays only changes what the next iterations do (FORMAT item 25)."
        )

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
        if decision.counts is not None and decision.result is Result.SHORTCUT and (end is not None or ctx.scenario.end_conditions):
            return self._sets_run_to_end(ctx, decision, before, end)
        if end is None or decision.result not in (Result.SHORTCUT, Result.DRAW):
            if end is not None and decision.result is Result.UNSPECIFIED:
                ctx.note(f"Left alone, the loop would end by itself {end.describe()}.")
            return decision
        if decision.point is not None and ctx.facts.before(decision.point, end):
            return decision
        ctx.rollback(before)
        self.ends(ctx, end)
        if decision.deviates and decision.point is not None:
            ctx.note(f"Had the loop not ended, {decision.deviates} would have stopped it {decision.point.describe()}.")
        elif decision.deviates:
            ctx.note(f"Had the loop not ended, {decision.deviates} would have stopped it later.")
        return Decision(ctx.end_result(), end, ended_by=ctx.ended_by())

    def _sets_run_to_end(
        self, ctx: Settlement, decision: Decision, before: tuple[int, int, int, int], end: CutPoint | None
    ) -> Decision:
        """Independent sets, each run its own number of times, in a loop that may end by itself.

        No text says how separate sets of actions interleave; the readings taken (docs/RULESETS.md, "The
        rulesets") are:

        * the sets run side by side, iteration by iteration, each step in its place in the loop,
          and a set drops out once it has run its own number of times (a set whose number is 0
          never runs);
        * while every set still runs, that is the loop itself, so its end, if it comes by then,
          is the whole loop's (:attr:`LoopFacts.end`, a single cut point);
        * once a set has stopped, the sets still running are a different, smaller loop, which can
          end where the whole loop never would (the stopped set was the one undoing the others'
          progress) and run past a bound the whole loop would have reached: the end is where that
          smaller loop first makes the bound hold (:meth:`LoopFacts.end_with_counts`), and each set
          is reported with the number of times it was performed by then.
        """
        facts = ctx.facts
        if decision.counts is None:  # the caller settles only decisions with counts here
            return decision
        first = min((c for c in decision.counts.values() if c is not UNBOUNDED), default=UNBOUNDED)
        if end is not None and facts.at_or_before(end, CutPoint(first, 0)):
            # Every set is still running when the bound first holds: the whole loop's end.
            ctx.rollback(before)
            self.ends(ctx, end)
            return Decision(Result.ENDS, end, ended_by=ctx.ended_by())
        hit = facts.end_with_counts(decision.counts)
        if hit is None:
            if facts.sets_by_engine:
                self._sets_leaving(ctx, _left(facts, facts.sets_run(decision.counts).eliminations))
            return decision
        reached, state = hit
        ctx.rollback(before)
        if facts.sets_by_engine:
            return self._sets_end_by_engine(ctx, decision, reached, state, end)
        what = ctx.end_words()
        ctx.say(
            self.ends_rule or self.loop_rule,
            f"the loop is not endless: while the independent sets run their own numbers, it ends by itself ({what}).",
            quote=self.ends_rule or self.loop_quote(),
        )
        ctx.note("The sets are taken to run side by side; the end comes when the first step that makes the bound hold is performed.")
        if end is None:
            ctx.note(
                "With every set running the loop would never end; it ends because a set that had run its own "
                "number of times stopped."
            )
        self._ends_note(ctx)
        return Decision(Result.ENDS, counts=reached, end_state=state, ended_by=ctx.ended_by())

    def _sets_end_by_engine(
        self, ctx: Settlement, decision: Decision, reached: Mapping[str, Count], state: Mapping[str, StateValue], end: CutPoint | None
    ) -> Decision:
        """Format 2: independent sets that run their own counts, and the loop stops by itself on the
        way (the engine's run of the sets, :meth:`LoopFacts.sets_run`)."""
        facts = ctx.facts
        run = facts.sets_run(decision.counts or {})
        stop = run.stop
        assert stop is not None
        what = ctx.stop_words(stop)
        ctx.say(
            self.ends_rule or self.loop_rule,
            f"the loop is not endless: while the independent sets run their own numbers, it ends by itself ({what}).",
            quote=self.ends_rule or self.loop_quote(),
        )
        ctx.note("The sets are taken to run side by side; the end comes when the first step that makes the bound hold is performed.")
        left = _left(facts, run.eliminations)
        self._sets_leaving(ctx, left)
        if end is None:
            ctx.note(
                "With every set running the loop would never end; it ends because a set that had run its own "
                "number of times stopped."
            )
        self._ends_note(ctx)
        result = Result.DRAW if stop.kind == "draw" else Result.ENDS
        return Decision(result, counts=reached, end_state=state, ended_by=stop.effect or None, left=left)

    def _sets_leaving(self, ctx: Settlement, left: Iterable[Elimination]) -> None:
        """Notes for players who lose while independent sets run their own counts (CR 800.4a)."""
        for e in left:
            ctx.note(
                f"{e.player} loses the game while the sets run, {CutPoint(e.iterations, e.steps).describe()}, and "
                "leaves it: their steps drop out and targets skip them (CR 800.4a, \u201cMultiplayer Rules\u201d, "
                "cited by title)."
            )

    def ends(self, ctx: Settlement, end: CutPoint) -> None:
        """Record the loop ending by itself (each ruleset says which of its rules admits that)."""
        what = ctx.end_words()
        self.leaving(ctx, end)
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

    def leaving(self, ctx: Settlement, end: CutPoint) -> None:
        """Players who lose during the loop leave the game (CR 800.4a); the game is over for the
        last one left, and a draw if everyone left loses at once (CR 104.4a)."""
        facts = ctx.facts
        gone = facts.eliminations_until(end)
        if not gone:
            return
        for e in gone:
            where = facts.point(e.position, e.inner)
            ctx.note(
                f"{e.player} loses the game {where.describe()} ({e.effect}) and leaves it: their steps drop out and "
                "targets skip them (CR 800.4a, “Multiplayer Rules”: the sources applied don't give its number "
                f"for {self.name}, so it is cited by title)."
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


    def quote(self, key: str) -> str:
        """The text of a cited rule, from this ruleset's sources (or the draw rules it cites)."""
        # A class is hashable; mypy does not see type[...] as Hashable (python/mypy#11470).
        return _quote(type(self), key)  # type: ignore[arg-type]

    def _lookup(self, key: str) -> str:
        for source in self.sources:
            bare = key.removeprefix(source.prefix)
            try:
                return source.load().text(bare)
            except KeyError:
                continue
        return texts.draw_rule(key.split(" ")[-1], self.cr_date or self.effective)


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


    def note_ties(self, ctx: Settlement, first: Stop, ties: Sequence[Stop], reason: str) -> None:
        """Note the reading taken when ``ties`` would act at the same point as ``first``: ``first``
        acts, because of ``reason`` (in this text's :attr:`tie_wording`)."""
        if ties:
            others = ", ".join(t.player for t in ties)
            ctx.note(self.tie_wording.format(first=first.player, others=others, reason=reason))


    def today(self) -> str:
        """What the rule applied is called today, when that differs: :attr:`renumbering`, then
        :attr:`today_words` (empty by default)."""
        now = number_today()
        later = self.today_words.format(number=self.number, today=now) if now != self.number else ""
        return " ".join(part for part in (self.renumbering, later) if part)

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
            bare = key.removeprefix(source.prefix)
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


def _reaches_next(out: Outcome, scenario: Scenario) -> bool:
    """Whether the game goes on after a part, so the next one is played (FORMAT item 30)."""
    left = len(scenario.players) - len({e.player for e in out.eliminated})
    if out.result is Result.SHORTCUT:
        return left >= 2
    if out.result is Result.ENDS:
        return left >= 2
    if out.result is Result.NO_SHORTCUT:
        return out.iterations is not None and left >= 2
    return False


def _unknown(out: Outcome, names: frozenset[str]) -> Outcome:
    """A part's outcome with the values a random part before it changed shown as ``"random"``."""
    if not names:
        return out
    state = {k: ("random" if k in names else v) for k, v in out.state.items()}
    return dataclasses.replace(out, state=state)  # type: ignore[arg-type]  # "random": FORMAT item 30


def _next_part(previous: Scenario, out: Outcome, part: Scenario, number: int, unknown: frozenset[str]) -> tuple[Scenario, frozenset[str]]:
    """The next part as it is played: the players still in the game, the state the previous part
    reached, the turn it stopped in.  After a random stop (no fixed length) the part is played
    only if nothing it reads was changed by the random part, else :class:`Unsettleable`."""
    gone = {e.player for e in out.eliminated}
    players = tuple(p for p in previous.players if p not in gone)
    state: dict[str, Any] = {}
    for name, value in out.state.items():
        state[name] = dict(value) if isinstance(value, Mapping) else value
    for name in unknown:
        state[name] = previous.state[name]  # not known: the part may not read it (below)
    changed = set(unknown)
    if out.iterations is None and out.result is Result.ENDS:
        changed |= {n for s in previous.every_step for n in (*s.add, *s.mul, *s.set, *s.amounts)}
    if changed:
        steps = part.every_step  # the part's steps and its inner loops' (FORMAT item 29)
        read = {n for s in steps for n in s.requires}
        read |= {e.value for e in part.end_conditions}
        read |= {i.until.value for i in part.intents.values() if i.until is not None}
        read |= {n for s in steps if s.unless is not None for c in s.unless.costs for n in c}
        read |= {s.run.until.value for s in steps if s.run is not None and s.run.until is not None}
        read |= {name for s in steps for amount in s.amounts.values() for name, _ in amount.coefficients}
        clash = sorted(changed & read)
        if clash:
            raise Unsettleable(
                f"then {number - 1}",
                f"a part before it stops at random (no fixed length), and this part reads {', '.join(clash)}, which that part "
                "changed: its values there are not known, so this part can't be settled (FORMAT item 30)",
            )
    unknown = frozenset(changed)
    active = previous.active
    if isinstance(out.iterations, int):
        active = facts_of(previous).turn_at(CutPoint(out.iterations, out.steps))
    if active not in players:
        order = previous.players
        i = order.index(active)
        active = next(p for p in order[i + 1 :] + order[:i] if p in players)
    intents = {p: i for p, i in part.intents.items() if p in players}
    return dataclasses.replace(part, players=players, active=active, state=state, intents=intents), unknown
