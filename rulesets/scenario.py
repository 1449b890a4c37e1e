"""The loop-description interface every ruleset reads.

A :class:`Scenario` is one loop as the players describe it: who plays, in what turn order, whose
turn it is, one iteration of the loop as an ordered list of :class:`Step`, the values the loop
changes, the actions outside the loop that could break it, and what each player means to do
(:class:`Intent`).  Scenarios are plain frozen data; parsing files is the comparator's job.

Everything a ruleset needs to know about a scenario that is not written in it directly (who is
involved, where each player deviates, the state at any cut point, whether and where the game
state repeats, where the loop ends by itself) is derived here, in closed form: the cost of any
question is independent of how many iterations it is about.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from .linear import Amount
from fractions import Fraction
from typing import Mapping, Union

from .values import UNBOUNDED, Count, CutPoint, Unbounded, Value, cached, higher

__all__ = ["UNBOUNDED", "Count", "CutPoint", "Unbounded", "Value", "higher"]  # re-exported: plugins import them from here

_Unbounded = Unbounded  # the name used before 0.2, kept for plugins that imported it


@dataclass(frozen=True)
class Unless:
    """"[X] unless [Y]": the step's effect happens unless ``by`` performs ``does``."""

    by: str
    does: str
    # --- format 3 (docs/FORMAT.md "Payments and choices that don't end the loop", items 24-25) ---
    breaks: bool = True
    """False for a payment: paying prevents the effect in that application only; the loop goes on."""
    pay: Mapping[str, int] = field(default_factory=dict, hash=False)
    """What paying costs the payer, by value (added: costs are negative)."""
    pay_any: tuple[Mapping[str, int], ...] = field(default=(), hash=False)
    """Alternative costs, tried in order per application (the first the payer can pay)."""
    pays: Union[str, int, Mapping[str, Union[str, int]]] = field(default="always", hash=False)
    """Who pays when able: ``"always"``, ``"never"``, a number N (the first N applications in which
    the payer can), or (``by = "target"``) one of those per player."""
    still_resolves: int = 0
    """On a breaking ``unless``: the loop steps that still resolve after the response (item 24)."""

    @property
    def payment(self) -> bool:
        """True for a payment that doesn't end the loop (``breaks = false``)."""
        return not self.breaks

    @property
    def costs(self) -> tuple[Mapping[str, int], ...]:
        """The costs a payer may pay, in the order tried (``pay``, or ``pay_any``)."""
        if self.pay_any:
            return self.pay_any
        return (self.pay,) if self.pay else ()

    def pays_for(self, player: str) -> Union[str, int]:
        """``"always"``, ``"never"`` or N for ``player`` (FORMAT item 25)."""
        if isinstance(self.pays, Mapping):
            return self.pays.get(player, "always")
        return self.pays


@dataclass(frozen=True)
class Step:
    """One action or choice of the loop, controlled by one player.

    ``optional`` steps may be declined by their controller; the others are mandatory (triggers,
    forced choices).  ``set`` assigns state values; ``add`` adds integer deltas (a step that does
    both to one value assigns first, then adds).
    """

    by: str
    does: str
    optional: bool = False
    choice: bool = False
    hidden: bool = False
    random: bool = False
    conditional: bool = False
    set: Mapping[str, Union[bool, int]] = field(default_factory=dict)
    add: Mapping[str, int] = field(default_factory=dict)
    unless: Unless | None = None
    # --- format 2 (docs/FORMAT.md "Format 2"); the defaults are format 1's meaning ---
    mul: Mapping[str, int] = field(default_factory=dict)
    """x -> x * m, applied before ``add`` and ``set`` in the same application (m >= 0)."""
    requires: Mapping[str, int] = field(default_factory=dict)
    """The step can be taken only while each named plain value is >= the number."""
    times: int = 1
    """How many times the step happens per iteration (each application checks requires and ends)."""
    target: "Target | None" = None
    """Whose per-player value the step's effects touch."""
    sustains: bool = True
    """False for a side benefit: declining it doesn't stop the loop, and it never makes its controller involved."""
    alternative: str = ""
    """For ``choice = true`` on a mandatory step (format 2): what its controller chooses instead."""
    ends_loop: "EndsLoop | None" = None
    """An event at this step that can end the loop (by chance or hidden information)."""
    turn: str = ""
    """Whose turn this step happens in; empty: the previous step's (the first step: the active player)."""
    amounts: "Mapping[str, Amount]" = field(default_factory=dict)
    """Format 3 (FORMAT item 28): amounts added that read other values (``add = { mana = "power" }``),
    evaluated at the start of each application; ``add`` keeps the constant ones."""
    # --- format 3 ---
    priority: bool = True
    """False: nobody receives priority right after this step (a mana ability, a special action;
    FORMAT item 23): other players' points right after it move to the next point with priority."""
    run: "InnerRun | None" = None
    """Format 3 (FORMAT item 29): an inner loop performed inside this step, before its own effects."""


    @property
    def payers(self) -> tuple[str, ...]:
        """Who may pay this step's ``unless``: its ``by``, or with ``by = "target"`` every player
        the step may target (FORMAT item 25); () without an ``unless``."""
        if self.unless is None:
            return ()
        if self.unless.by == "target":
            return self.target.among if self.target is not None else ()
        return (self.unless.by,)

@dataclass(frozen=True)
class InnerLoop:
    """An ``[[inner]]`` loop (FORMAT item 29): its own steps, on the file's values and ends."""

    id: str
    steps: tuple[Step, ...]

    @property
    def deterministic(self) -> bool:
        """True when nothing in it is random, conditional or hidden: it repeats identically."""
        return not any(s.random or s.conditional or s.ends_loop is not None for s in self.steps)


@dataclass(frozen=True)
class InnerRun:
    """A step's ``run``: an inner loop performed ``times`` complete iterations, or until a goal
    holds (complete iterations; none when it already holds), FORMAT item 29."""

    loop: InnerLoop
    times: int | None = None
    until: "Goal | None" = None

    def describe(self) -> str:
        """Plain words: "inner loop 'mana' 3 times", "... until mana is at least 6"."""
        if self.until is None:
            return f"inner loop {self.loop.id!r} {self.times:,} time{'s' if self.times != 1 else ''}"
        goal = self.until
        whose = f"{goal.player}'s " if goal.player else ""
        return f"inner loop {self.loop.id!r} until {whose}{goal.value} is {'at most' if goal.at_most else 'at least'} {goal.bound:,}"


@dataclass(frozen=True)
class Target:
    """Which players a step's effects on per-player values apply to (docs/FORMAT.md "Format 2", item 5).

    ``order`` is ``"rotate"`` (one target per application, cycling through ``among``, skipping
    players who have left), ``"each"`` (all of them) or ``"fixed"`` (the first still in the game).
    """

    among: tuple[str, ...]
    order: str = "fixed"


@dataclass(frozen=True)
class EndsLoop:
    """An event at a step that may end the loop: ``when`` in words, ``chance`` if known."""

    when: str
    chance: Fraction | None = None
    hidden: bool = False


@dataclass(frozen=True)
class Limits:
    """A plain integer's floor and ceiling: every effect is clamped to ``[min, max]``."""

    min: int | None = None
    max: int | None = None


@dataclass(frozen=True)
class End:
    """One way the loop ends by itself (a ``[[end]]`` table; ``[loop].ends_when`` is the one-entry form).

    The end holds when integer ``value`` is <= ``bound`` (``at_most``) or >= it.  ``loses`` names
    the player who then loses the game (a plain value); ``loses_each`` makes each player whose
    own entry of a per-player value reaches the bound lose.
    """

    value: str
    bound: int
    at_most: bool
    effect: str = ""
    loses: str | None = None
    loses_each: bool = False
    exempt: tuple[str, ...] = ()
    """Players for whom the bound never holds (``except``, FORMAT item 21: "You can't lose the
    game"): their entries of a per-player value keep changing and they never leave by this end."""
    # --- format 3 (item 26) ---
    instead: Mapping[str, Union[bool, int]] | None = None
    """With ``once``: the values set instead of the end's action the first time it would act
    (Lich's Mirror); afterwards the end acts normally.  None: no replacement."""
    instead_player: str | None = None
    """On a per-player end: the player whose loss is replaced (``instead.player``)."""
    once: bool = False

    def binds(self, player: str | None) -> bool:
        """True when this end's bound applies to ``player``'s entry (None: a plain value)."""
        return player is None or player not in self.exempt

    @property
    def loses_someone(self) -> bool:
        """True when reaching the bound makes a player lose (``loses``), not end the loop."""
        return self.loses is not None or self.loses_each


@dataclass(frozen=True)
class EndsWhen:
    """The loop ends by itself when integer ``value`` reaches ``bound`` (``at_most`` or not)."""

    value: str
    bound: int
    at_most: bool


@dataclass(frozen=True)
class LoopFlags:
    """Facts about the loop as a whole (docs/FORMAT.md ``[loop]``)."""

    independent: bool = False
    spans_turns: bool = False
    meaningful_change: bool = False
    shortcut_before: bool = False
    ends_when: EndsWhen | None = None
    ends_with: str | None = None
    within: str = "priority"
    """``"resolution"`` for a repetition inside one spell's or ability's resolution (format 2)."""


@dataclass(frozen=True)
class Breaker:
    """An action outside the loop that would end it (Seal of Cleansing's sacrifice)."""

    by: str
    does: str
    hidden: bool = False
    """The out is hidden information (format 2): under the current MTR a judge may be needed."""
    still_resolves: int = 0
    """The loop steps already on the stack that resolve anyway after the response (format 3, item 24)."""


@dataclass(frozen=True)
class Goal:
    """An intent as a goal: keep the loop going until ``value`` (``player``'s entry, for a
    per-player value) is <= ``bound`` (``at_most``) or >= it; converted to a count in closed form."""

    value: str
    bound: int
    at_most: bool
    player: str | None = None


@dataclass(frozen=True)
class Intent:
    """When a player first does something different from keeping the loop going.

    ``after`` is None for "never".  ``step`` is None for a plain number of iterations (the
    player deviates at their own first choice point of the next iteration) or the exact step
    index of the next iteration before which they deviate.
    """

    after: int | None = None
    step: int | None = None
    until: Goal | None = None
    """A goal instead of a count (format 2); ``after`` is then None until the goal is converted."""
    inner: "tuple[int, int] | None" = None
    """Format 3 (FORMAT item 29): a point inside the run of step ``step + 1`` of that iteration,
    after that many complete inner iterations and inner steps."""

    @property
    def never(self) -> bool:
        """True when the player never deviates (no count and no goal)."""
        return self.after is None and self.until is None

    def describe(self) -> str:
        """Plain words for reports: "never", "after 3 iterations", "after 5 iterations and 1 step"."""
        if self.until is not None and self.after is None:
            goal = self.until
            whose = f"{goal.player}'s " if goal.player else ""
            return f"until {whose}{goal.value} is {'at most' if goal.at_most else 'at least'} {goal.bound:,}"
        if self.after is None:
            return "never"
        text = f"after {self.after:,} iteration{'s' if self.after != 1 else ''}"
        if self.step is not None:
            text += f", before step {self.step + 1} of the next"
        if self.inner is not None:
            m, t = self.inner
            text += f", inside its inner loop after {m:,} inner iteration{'s' if m != 1 else ''}"
            if t:
                text += f" and {t} inner step{'s' if t != 1 else ''}"
        return text


NEVER = Intent()


@dataclass(frozen=True)
class OracleText:
    """A card the loop uses, with its Oracle text as read on ``date`` from ``source`` (descriptive)."""

    name: str
    text: str
    date: str
    """When the text was read (or was in force), ``YYYY-MM-DD``."""
    source: str
    """Where it was read: a public address, or a repository path and commit."""


@dataclass(frozen=True)
class Card:
    """A ``[[card]]`` whose Oracle text the loop needs (format 3, item 27): the loop exists only
    from ``oracle_from``, the date of that text."""

    name: str
    oracle_from: str = ""
    printed: str = ""


@dataclass(frozen=True)
class Ruling:
    """A published ruling or article that decides the loop in some era (descriptive)."""

    source: str
    """Its address."""
    title: str
    date: str
    """``YYYY-MM-DD``."""
    quote: str
    """The sentence that decides it, quoted."""
    eras: tuple[str, ...]
    """The ruleset keys it speaks to."""
    author: str = ""


@dataclass(frozen=True)
class Scenario:
    """One loop: players in turn order, the active player, one iteration's steps, and intents."""

    title: str
    players: tuple[str, ...]
    steps: tuple[Step, ...]
    active: str = ""
    state: Mapping[str, Union[bool, int, Mapping[str, int]]] = field(default_factory=dict)
    """Starting values: a boolean, an integer, or (format 2) one integer per player."""
    loop: LoopFlags = field(default_factory=LoopFlags)
    breakers: tuple[Breaker, ...] = ()
    intents: Mapping[str, Intent] = field(default_factory=dict)
    description: str = ""
    source: str = ""
    tags: tuple[str, ...] = ()
    # --- format 2 ---
    format: int = 1
    """The scenario format the file declared (1 or 2)."""
    limits: Mapping[str, Limits] = field(default_factory=dict)
    """Floors and ceilings of plain integers (``{start, min, max}`` in ``[state]``)."""
    entry_limits: Mapping[str, Mapping[str, Limits]] = field(default_factory=dict)
    """Floors and ceilings of per-player entries, by value then player
    (``library = { Bob = { start = 20, min = 0 } }``)."""
    ends: tuple[End, ...] = ()
    """The ``[[end]]`` tables, in file order (format 2)."""
    # --- descriptive metadata, in every format (the library's cards, rulings and simplifications) ---
    oracle: tuple[OracleText, ...] = ()
    """The ``[[oracle]]`` tables: the cards and their Oracle text, in file order."""
    rulings: tuple[Ruling, ...] = ()
    """The ``[[ruling]]`` tables, in file order."""
    simplified: str = ""
    """What the file had to simplify to say the loop in its format (empty: nothing)."""
    # --- format 3: when the loop exists (item 27) ---
    exists_from: str = ""
    """``[loop] exists_from``: the first day the loop could happen (``YYYY-MM-DD``), or empty."""
    because: str = ""
    """Why it didn't exist before (``[loop] because``)."""
    cards: tuple[Card, ...] = ()
    """The ``[[card]]`` tables: cards whose Oracle text of a date the loop needs."""
    inner: tuple[InnerLoop, ...] = ()
    """Format 3 (FORMAT item 29): the ``[[inner]]`` loops that steps ``run``, in file order."""
    parts: tuple["Scenario", ...] = ()
    """The ``[[then]]`` parts: loops played after this one, each from where the previous stopped
    (FORMAT item 30); each has this file's players and values, and its own steps and intents."""

    @cached
    def exists_since(self) -> str:
        """The loop's date: the latest of ``exists_from`` and every card's ``oracle_from`` (empty: always)."""
        dates = [self.exists_from] + [c.oracle_from for c in self.cards]
        return max((d for d in dates if d), default="")

    @property
    def why_not_before(self) -> str:
        """The note of an ``n/a`` outcome: the ``because`` text when ``exists_from`` dates the loop,
        else "NAME: Oracle text of DATE" of the card that does."""
        since = self.exists_since
        if self.exists_from == since and self.because:
            return self.because
        for card in self.cards:
            if card.oracle_from == since:
                return f"{card.name}: Oracle text of {since}"
        return self.because

    def __post_init__(self) -> None:
        if not self.active:
            object.__setattr__(self, "active", self.players[0])

    @cached
    def every_step(self) -> tuple[Step, ...]:
        """The loop's steps, then each inner loop's (FORMAT item 29), in file order."""
        return self.steps + tuple(t for loop in self.inner for t in loop.steps)

    @cached
    def per_player(self) -> tuple[str, ...]:
        """The names of per-player values (``life = { Bob = 12, Carol = 30 }``), in declaration order."""
        # type() first: isinstance against the Mapping ABC costs several times a dict check
        return tuple(name for name, value in self.state.items() if type(value) is dict or isinstance(value, Mapping))

    @property
    def end_conditions(self) -> tuple[End, ...]:
        """Every way the loop ends by itself: the ``[[end]]`` tables, or ``[loop].ends_when`` as one."""
        if self.ends:
            return self.ends
        when = self.loop.ends_when
        if when is None:
            return ()
        return (End(when.value, when.bound, when.at_most, self.loop.ends_with or ""),)

    def intent(self, player: str) -> Intent:
        """The player's intent; a player left out never deviates."""
        return self.intents.get(player, NEVER)

    @cached
    def loop_key(self) -> tuple[tuple[str, ...], "LoopFlags", tuple["Breaker", ...], str]:
        """What identifies the loop itself, whatever its players intend and however it is titled:
        equal loops share their worked-out facts (:func:`.facts.facts_of`)."""
        # Each step's repr is kept on the step (most of the key's cost; equal loops made by
        # dataclasses.replace or with_intents share their Step objects).
        steps = []
        for step in self.steps:
            text = step.__dict__.get("_repr")
            if text is None:
                text = step.__dict__["_repr"] = repr(step)
            steps.append(text)
        # A tuple, not one string: the steps' texts are not quoted again (a repr of their repr),
        # each keeps its hash, and the loop's flags and breakers (frozen, hashable) are
        # compared as values, not written out; the rest (mappings) by its repr.
        rest = (self.players, self.active, self.state, self.format, self.limits, self.entry_limits, self.ends)
        return tuple(steps), self.loop, self.breakers, repr(rest)

    def with_intents(self, intents: Mapping[str, Intent]) -> "Scenario":
        """The same loop with other intents (its facts are shared: :func:`.facts.facts_of`)."""
        other = dataclasses.replace(self, intents=dict(intents))
        if "loop_key" in self.__dict__:
            other.__dict__["loop_key"] = self.loop_key
        return other


def sustaining(step: Step, format: int) -> bool:
    """True when declining ``step`` (or choosing otherwise there) stops the loop: an optional
    step, and in format 2 not a side benefit; or, in format 2, a choice in a mandatory step."""
    if format < 2:
        return step.optional
    if step.optional:
        return step.sustains
    return step.choice


def set_owners(steps: tuple[Step, ...], format: int) -> tuple[str | None, ...]:
    """Which independent set each step belongs to (:attr:`LoopFacts.set_of_step`): a step that
    sustains the loop (:func:`sustaining`: an optional step, or in format 2 a choice) to its
    controller's set, any other to the set of the nearest sustaining step before it, cyclically
    (it is that action's consequence).  A side benefit (``sustains = false``) defines no set:
    it belongs to the set it happens in."""
    owners: list[str | None] = [s.by if sustaining(s, format) else None for s in steps]
    last = next((s.by for s in reversed(steps) if sustaining(s, format)), None)
    for i, owner in enumerate(owners):
        if owner is None:
            owners[i] = last
        else:
            last = owner
    return tuple(owners)
