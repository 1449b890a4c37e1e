"""Comprehensive Rules "Taking Shortcuts" (rule 713 in 2009; today's number is in history.py).

The Magic 2010 rewrite (2009-07-11) replaced rule 421 with a shortcut procedure: the player with
priority proposes a sequence, every other player accepts or shortens it (.2), a fragmented loop
makes the active player stop as soon as a game state repeats (.3), a loop of only mandatory
actions is a draw (.4), nobody can be forced to break a loop (.5) or to pay an "unless" cost
(.6).  Three texts are modelled: 713 of 2009-07-11 (two-player 713.3), 713 of 2009-09-04
(multiplayer 713.3; the same rule, renumbered, until 2024), and 729 of 2024-06-07, still in
force, renumbered 730 (2025-04-04), 731 (2025-07-25) and 732 (2026-04-17).  Rule ids are built
from each text's ``number``, so every citation uses the number the rule had in the document
applied; :meth:`Cr2009.renumbered` gives the same rule as a later release numbered it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar, Iterable, Mapping, cast

from .base import Decision, Ruleset, Settlement, Source, Stop, be, earliest, listing, times
from .outcome import Result, StoppedBy
from .numbers import SHORTCUT_RULE_NUMBERS, renumbered
from .scenario import Scenario
from .values import Count, CutPoint, higher


def _numbered(number: str, *parts: str) -> tuple[str, ...]:
    return tuple(f"{number}.{p}" for p in parts)


class Cr2009(Ruleset):
    """CR 713 "Taking Shortcuts", first text (2009-07-11, the Magic 2010 rewrite).

    Replaced rule 421 of 2008 with a general shortcut procedure:

    * 713.2: the player with priority proposes a sequence; each other player, in turn order after
      the proposer, accepts or shortens it; a shortcut may cross turns (713.2a) but can't include
      conditional actions;
    * 713.3 (new): a *fragmented* loop, where the game state repeats, obliges the active player to
      make a different choice, whatever anyone intended; written for two players ("each player
      performs an independent action ... the active player must then ..."), so a game in which
      not every player takes part in the loop is left unspecified;
    * 713.4-713.6: draw for mandatory loops (rule 104.4b); nobody can be forced to break a loop or
      to pay an "unless" cost.
    """

    random_inner = Result.NO_SHORTCUT

    key = "cr-2009"
    aliases: ClassVar[tuple[str, ...]] = ("cr713-2009",)
    name = "CR 713 (2009-07)"
    document = "Comprehensive Rules, rule 713 \u201cTaking Shortcuts\u201d, first text"
    citation = "Comprehensive Rules effective 2009-07-11 (Magic 2010)"
    effective = "2009-07-11"
    in_force: ClassVar[tuple[str, str | None]] = ("2009-07-11", "2009-09-03")
    number = "713"
    sources: ClassVar[tuple[Source, ...]] = (Source("2009-07-11_cr_713.txt"),)
    amends: ClassVar[str | None] = "cr-2008"
    summary = "Taking Shortcuts replaces 421: propose and shorten (713.2); a repeated state makes the active player stop (713.3, two-player wording)."
    draw_rule = "104.4b"

    rule_ids = _numbered("713", "1", "1a", "1b", "2", "2a", "2b", "2c", "3", "4", "5", "6")
    loop_rule = "713.1b"

    today_words = "Rule {number} is numbered {today} today (same rule)."

    def renumbered(self, number: str, since: str, text: tuple[str, str] | None = None) -> Ruleset:
        """The same rule as the release of ``since`` numbers it: every citation carries ``number``.

        The rules quoted come from the archived text of that number (``text``: date, file name)
        where there is one; otherwise from this text, under the new ids, and the report says so.
        """
        if number == self.number:
            return self
        old = self.number
        sources: list[Source] = []
        for source in self.sources:
            if source.mtr_section is None:
                source = Source(text[1], prefix=source.prefix) if text else replace(source, number=number)
            if source not in sources:
                sources.append(source)
        applied = self.cr_date or self.effective
        steps = [f"{n} from {d}" for d, n in SHORTCUT_RULE_NUMBERS if applied < d <= since]
        steps = steps or [f"{number} from {since}"]
        how = f"numbered {', '.join(steps[:-1])} and {steps[-1]}" if len(steps) > 1 else f"numbered {steps[0]}"
        quoted = (
            f"quoted from the text of {text[0]}" if text
            else f"no text numbered {number} is archived: quoted from the text of {applied}, under the new numbers"
        )
        attrs = {
            "__doc__": f"{type(self).__name__} as numbered from {since}: rule {number} (the same rule as {old}).",
            "number": number,
            "rule_ids": tuple(renumbered(r, number) for r in self.rule_ids),
            "loop_rule": renumbered(self.loop_rule, number),
            "sources": tuple(sources),
            **self.edition(number, since, text),
        }
        attrs["renumbering"] = self.renumbering_note(f"{old} of {applied}", how, quoted)
        # The class made here subclasses type(self), which type() can't say in its return type.
        return cast(type[Cr2009], type(type(self).__name__, (type(self),), attrs))()

    def edition(self, number: str, since: str, text: tuple[str, str] | None) -> dict[str, str]:
        """What else a renumbered release changes: the column's name, the document, the date of
        the text applied."""
        date = text[0] if text else since
        return {
            "name": f"CR {number} ({date})",
            "document": self.document.replace(f"rule {self.number}", f"rule {number}"),
            "effective": text[0] if text else self.effective,
            "citation": f"Comprehensive Rules effective {since} (rule {number}); the same rule as {self.number} of {self.effective}",
        }

    def renumbering_note(self, old: str, how: str, quoted: str) -> str:
        """The sentence a report gives a renumbered release."""
        return f"The rule {old}, {how}; {quoted}."

    def fragmented_player(self, ctx: Settlement, involved: tuple[str, ...]) -> str | None:
        """Who must stop a fragmented loop; None where this text does not say (713.3, 2009-07-11)."""
        if set(involved) != set(ctx.scenario.players):
            return None
        return self.active_at_repeat(ctx)

    def active_at_repeat(self, ctx: Settlement) -> str:
        """"The active player" where the state repeats: the turn of that step when steps say
        whose turn they happen in (FORMAT item 12), else the active player."""
        repeat = ctx.facts.first_repeat
        if repeat is not None and any(s.turn for s in ctx.scenario.steps):
            return ctx.facts.turn_at(repeat)
        return ctx.scenario.active

    def rule(self, part: str) -> str:
        """A rule of this CR as cited: ``rule("3")`` is "729.3"; a full id ("104.4b") keeps its number."""
        return f"{self.cite}{part}" if "." in part else f"{self.cite}{self.number}.{part}"

    # --- hooks ----------------------------------------------------------------------------------

    def priority_rule(self) -> str:
        """729.2a: a shortcut's ending point "must be a place where a player has priority"."""
        return self.rule("2a")

    def priority_reading(self) -> str:
        """729.2a, with the rules on mana abilities and priority (FORMAT item 23)."""
        applied = self.cr_date or self.effective
        return (
            f"{self.rule('2a')}: the ending point of a shortcut \u201cmust be a place where a player has priority\u201d. "
            "Reading taken (FORMAT item 23): a mana ability doesn't use the stack and the player who takes it, or a special "
            "action, keeps priority, so right after one (priority = false) only that player can act. The Comprehensive Rules "
            "of 2026-02-27 (in the sources) say so in 605.3b, \u201cAn activated mana ability doesn\u2019t go on the stack, so it "
            "can\u2019t be targeted, countered, or otherwise responded to.\u201d, and 117.3c, \u201cIf a player has priority when "
            "they cast a spell, activate an ability, or take a special action, that player receives priority afterward.\u201d; "
            f"the sources hold no full text of {applied}, so for it they are cited by title (\u201cMana Abilities\u201d, "
            "\u201cTiming and Priority\u201d)."
        )

    def stack_reading(self) -> str:
        applied = self.cr_date or self.effective
        return (
            "CR 113.7a as the Comprehensive Rules of 2026-02-27 number it: \u201cOnce activated or triggered, an ability "
            f"exists on the stack independently of its source.\u201d; cited by title (\u201cAbilities\u201d) for the text of {applied}"
        )

    def restrictions(self, ctx: Settlement) -> Decision | None:
        """729.2a: a shortcut can't include conditional actions; it may cross turns."""
        loop = ctx.scenario.loop
        flags = ctx.facts.step_flags
        if "run" in flags and ("random" in flags or "conditional" in flags):
            # FORMAT item 29: the nest's random or conditional part decides what comes next
            ctx.say(
                self.rule("2a"),
                "the proposal may include “multiple loops, or nested loops” but can't include conditional actions, "
                "where the outcome of a game event determines the next action: this nest's random or conditional part "
                "decides what is done next, so the loop as a whole must be played out; each deterministic inner loop in it "
                "may still be proposed on its own (inner_results).",
            )
            return Decision(Result.NO_SHORTCUT)
        if "conditional" in flags:
            ctx.say(self.rule("2a"), "a shortcut can't include conditional actions, where the outcome of a game event determines the next action: this loop must be played out.")
            return Decision(Result.NO_SHORTCUT)
        event = ctx.facts.event
        if event is not None:
            ctx.say(
                self.rule("2a"),
                f"a shortcut is built from the predictable results of the actions and can't include conditional actions; whether "
                f"“{event.when}” happens is not predictable, so this loop must be played out.",
            )
            ctx.note(
                f"Reading taken (docs/DOMAIN.md section 6): an event that may end the loop at some iteration makes each further "
                f"action depend on whether it happened, which {self.number}.2a does not allow in a shortcut."
            )
            return Decision(Result.NO_SHORTCUT)
        if "random" in flags:
            ctx.note(
                f"{self.number}.2a forbids conditional actions but not randomness as such. Reading taken: a random step whose "
                f"result does not decide the next action may be shortcut (though {self.number}.2a also speaks of the "
                "\u201cpredictable results\u201d of the sequence)."
            )
        if loop.spans_turns:
            ctx.say(self.rule("2a"), "the proposed sequence \u201cmay even cross multiple turns\u201d.")
        if loop.shortcut_before:
            ctx.note(f"Rule {self.number} has no rule against restarting a loop that was shortcut before; it is settled as if new.")
        if "hidden" in flags:
            ctx.note(f"Rule {self.number} says nothing about choices involving hidden information; no judge is called for.")
        return None

    def read_nest(self, ctx: Settlement, nest: Mapping[str, Result]) -> None:
        """{number}.2a: one proposal may include "multiple loops, or nested loops"."""
        ctx.say(
            self.rule("2a"),
            f"the proposed sequence may include “multiple loops, or nested loops”: one proposal covers the nest "
            f"(inner loop{'s' if len(nest) != 1 else ''} {', '.join(repr(k) for k in nest)}), and a player may shorten it anywhere in it, "
            "inside an inner loop too.",
        )

    def involved(self, ctx: Settlement) -> tuple[str, ...]:
        """729.6: an "unless" cost nobody pays makes its effect mandatory, not optional."""
        for step in ctx.scenario.steps:
            if step.unless and step.unless.breaks:
                ctx.say(
                    self.rule("6"),
                    f"\u201c{step.does}\u201d: no player can be forced to perform \u201c{step.unless.does}\u201d; "
                    "if nobody does, the loop continues as though the effect were mandatory.",
                )
                break
        return self.sustainers(ctx)

    def read_payments(self, ctx: Settlement) -> None:
        """A payment is a game choice the proposal states (2a); a payer who stops paying makes a
        different game choice (2b), so each stretch of payments is its own shortcut."""
        ctx.say(
            self.rule("2a"),
            "each payment that doesn't end the loop is one of the game choices the proposed shortcut states "
            "for its payer: it makes the payer neither involved nor the loop conditional.",
        )
        ctx.note(
            f"A payer who can no longer pay makes “a game choice that’s different than what’s been "
            f"proposed” ({self.rule('2b')}): read as the end of one shortcut and the start of the next, with the "
            "same numbers as one run of the loop (FORMAT item 25)."
        )

    def read_choices(self, ctx: Settlement, choosers: tuple[str, ...]) -> None:
        """729 speaks of "game choices" throughout: a choice that keeps the loop going is one."""
        ctx.note(
            f"Rule {self.number} speaks of game choices throughout: a shortcut is \u201ca sequence of game choices, for "
            f"all players\u201d ({self.rule('2a')}), and a player stops a loop by making \u201ca different game "
            f"choice\u201d ({self.rule('2c')}, {self.rule('3')}). Reading taken: a choice that keeps the loop going is "
            f"such a game choice, so {listing(choosers)} {be(choosers)} involved in the loop "
            f"({ctx.choices(choosers)}), though {self.rule('1')} glosses a game choice as \u201ceither taking an action "
            "or passing priority\u201d."
        )

    def mandatory(self, ctx: Settlement) -> Decision:
        """729.4 draw, unless a player chooses to break the loop (729.5, 729.6)."""
        facts = ctx.facts
        stops = self.intervening(ctx, facts.turn_order, need_means=True)
        if not stops:
            for breaker in ctx.scenario.breakers:
                ctx.say(self.rule("5"), f"{breaker.by} could \u201c{breaker.does}\u201d but can't be forced to, and doesn't.")
            ctx.say(self.rule("4"), "the loop contains only mandatory actions: the game is a draw.")
            ctx.say(self.rule(self.draw_rule), "a loop of mandatory actions with no way to stop: the game is a draw.")
            return Decision(Result.DRAW)
        first, ties = earliest(stops, facts, facts.turn_order)
        rule = "6" if any(s.unless and s.unless.breaks and s.unless.by == first.player for s in ctx.scenario.steps) else "5"
        ctx.say(self.rule(rule), f"nobody can be forced to end the loop, but {first.player} chooses to break it ({ctx.means(first.player)}) {first.point.describe()}.")
        ctx.say(self.rule("2c"), f"the loop is shortcut to that point, where {first.player} makes a different choice.", quote=[self.rule("2c")])
        self.note_ties(ctx, first, ties, "the first in turn order from the active player, who receives priority first")
        return Decision(Result.SHORTCUT, first.point, first.player)

    def one_controller(self, ctx: Settlement, controller: str) -> Decision:
        """729.2: the controller proposes; each other player accepts or shortens."""
        return self._propose(ctx, controller, ctx.point(controller), [controller])

    def _propose(self, ctx: Settlement, proposer: str, end: CutPoint, involved: Iterable[str]) -> Decision:
        """729.2a-c: ``proposer`` proposes ending at ``end``; others in turn order accept or shorten."""
        facts = ctx.facts
        number = ctx.number(proposer)
        ctx.say(self.rule("2a"), f"{ctx.who(proposer)} proposes a shortcut: repeat the loop {times(number)}, ending {end.describe()}.")
        current = Stop(proposer, end)
        others = facts.players_after(proposer)
        for player in others:
            point = facts.deviation_point(player)
            if point is not None and facts.before(point, current.point):
                ctx.say(self.rule("2b"), f"{player} shortens it to {point.describe()}, where they will make a different game choice.")
                current = Stop(player, point)
            else:
                ctx.say(self.rule("2b"), f"{player} accepts.")
                if point is not None and point == current.point:
                    reason = (
                        f"since a shortening must name an earlier point than the proposal ({self.rule('2b')})"
                        if current.player == proposer
                        else f"who shortened it first, in turn order after the proposer ({self.rule('2b')})"
                    )
                    self.note_ties(ctx, current, [Stop(player, point)], reason)
        ctx.say(self.rule("2c"), f"the shortcut is taken to {current.point.describe()}; {current.player} makes a different game choice there.")
        return Decision(Result.SHORTCUT, current.point, current.player)

    def dependent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """729.3 for a fragmented loop; otherwise the 729.2 procedure."""
        return self._settle_shared(ctx, involved, per_player=None)

    def independent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """729.3 if the state repeats; otherwise each player shortcuts their own loop."""
        facts = ctx.facts
        if self.first_repeat(ctx) is not None:
            return self._settle_shared(ctx, involved, per_player=involved)
        ctx.note(
            f"Rule {self.number} has no rule for independent sets of actions. Reading taken: each player proposes a "
            "shortcut of their own loop (the active player first) and each set repeats its own number of times."
        )
        counts: dict[str, Count] = {}
        for player in involved:
            counts[player] = ctx.number(player)
        # A breaker is an action outside the loop that ends it (FORMAT, [[breaker]]): its player
        # shortens every proposal to where they break it (2b), and no set goes on from there.
        breakers = {b.by for b in ctx.scenario.breakers}
        outside = [Stop(p, point) for p in facts.turn_order if p not in involved and p in breakers
                   for point in [facts.deviation_point(p)] if point is not None and not point.unbounded]
        breaking = earliest(outside, facts, facts.turn_order)[0] if outside else None
        if breaking is not None:
            ctx.note(
                f"{self.rule('2b')} lets each other player shorten a proposal; {breaking.player}'s breaker is an action "
                "outside the loop that ends it, for every set at once. Reading taken: every set still running stops "
                f"where {breaking.player} breaks the loop; a set that has run its own number by then keeps it."
            )
            stopped = facts.counts_at(breaking.point, involved)
            if all(not higher(stopped[p], counts[p]) for p in involved):
                # every set still runs there: the loop stops at the breaker's point
                for player in involved:
                    ctx.say(self.rule("2a"), f"{ctx.who(player)} proposes to repeat their own actions {times(counts[player])}.")
                ctx.say(
                    self.rule("2b"),
                    f"{breaking.player} shortens each proposal to {breaking.point.describe()}, where they break the loop "
                    f"({_breaker_does(ctx.scenario, breaking.player)}): no set goes on from there.",
                )
                return Decision(Result.SHORTCUT, breaking.point, breaking.player, per_player=involved)
            counts = {p: c if not higher(c, stopped[p]) else stopped[p] for p, c in counts.items()}
            ctx.say(
                self.rule("2b"),
                f"{breaking.player} breaks the loop {breaking.point.describe()} ({_breaker_does(ctx.scenario, breaking.player)}): "
                "the sets still running stop there, the others have run their own numbers.",
            )
        for player in involved:
            ctx.say(self.rule("2a"), f"{ctx.who(player)} proposes to repeat their own actions {times(counts[player])}; the others accept.")
        for player in facts.turn_order:
            point = facts.deviation_point(player)
            if player not in involved and player not in breakers and point is not None:
                ctx.note(
                    f"{player} means to act {point.describe()}. {self.rule('2b')} lets them shorten a proposal to act "
                    "there, but these actions don't depend on anything they do, so each player can propose their "
                    "own loop again. Reading taken: the sets run their own numbers."
                )
        return Decision(Result.SHORTCUT, counts=counts)

    def _settle_shared(self, ctx: Settlement, involved: tuple[str, ...], per_player: tuple[str, ...] | None) -> Decision:
        facts = ctx.facts
        proposer = involved[0]
        repeat = self.first_repeat(ctx)
        if repeat is not None:
            designated = self.fragmented_player(ctx, involved)
            if designated is None:
                return self.unspecified(
                    ctx,
                    self.rule("3"),
                    f"the loop is fragmented, but {self.rule('3')} of {self.effective} is written for a game in which each "
                    f"player performs an action of the loop and names only \u201cthe active player\u201d; here "
                    f"{_people(p for p in ctx.scenario.players if p not in involved)} no part",
                )
            proposer = designated
        own = ctx.point(proposer)
        end = own
        if repeat is not None:
            if not ctx.scenario.state:
                ctx.note("No state values are tracked, so the game state is taken to repeat every iteration.")
            forced = self._forced_point(ctx, involved, proposer, repeat)
            who = "the active player" if proposer == self.active_at_repeat(ctx) else "the first player in turn order who is involved"
            if facts.at_or_before(forced, own):
                end = forced
                if forced != repeat:
                    ctx.note(
                        f"{self.number}.3 says the player \u201cmust then make a different game choice\u201d; {proposer} has no choice at the "
                        f"point where the state repeats ({repeat.describe()}). Reading taken: they deviate at their next "
                        f"choice, {forced.describe()}."
                    )
                if ctx.scenario.loop.spans_turns and not any(s.turn for s in ctx.scenario.steps):
                    ctx.note(
                        f"Across turns \u201cthe active player\u201d of {self.number}.3 changes from turn to turn. Reading taken: the "
                        "active player when the loop began."
                    )
                ctx.say(
                    self.rule("3"),
                    f"the loop is fragmented: the same game state is reached again {repeat.describe()}. {proposer}, {who}, "
                    f"must then make a different game choice, at their next action: {forced.describe()}.",
                )
            else:
                ctx.say(
                    self.rule("3"),
                    f"the game state would repeat {repeat.describe()}, but {proposer}, {who}, stops sooner of their own accord.",
                )
        decision = self._propose(ctx, proposer, end, involved)
        forced_by_rule = repeat is not None and end != own and decision.deviates == proposer and decision.point == end
        stopped_by = StoppedBy.RULE if forced_by_rule else None
        return Decision(
            decision.result, decision.point, decision.deviates,
            per_player=tuple(per_player) if per_player else None, stopped_by=stopped_by,
        )

    def first_repeat(self, ctx: Settlement) -> CutPoint | None:
        """Where the game state first repeats (729.3), if it does."""
        loop = ctx.scenario.loop
        repeat = ctx.facts.first_repeat
        if repeat is not None and loop.spans_turns and loop.meaningful_change:
            ctx.note(
                "The game state changes meaningfully from turn to turn (e.g. cards drawn), so it is never the same "
                f"game state again even where the tracked values repeat: {self.number}.3 does not apply (reading)."
            )
            return None
        return repeat

    def _forced_point(self, ctx: Settlement, involved: tuple[str, ...], proposer: str, repeat: CutPoint) -> CutPoint:
        """The designated player's first choice point at or after the first repeated state."""
        point = ctx.facts.next_point(repeat, ctx.facts.choice_steps(proposer, unless=False))
        if point is None:
            raise AssertionError("an involved player has a choice every iteration")
        return point

    def judge_needed(self, ctx: Settlement, decision: Decision) -> bool:
        return False


class Cr2009Sept(Cr2009):
    """CR 713 "Taking Shortcuts" with the multiplayer 713.3 of 2009-09-04.

    Amends the 2009-07-11 text in one rule: a fragmented loop is one where "each player *involved
    in the loop*" performs an independent action, and the player who must stop is the active
    player "or, if the active player is not involved in the loop, the first player in turn order
    who is involved".  The same text, renumbered 714 .. 728 (and 720.1c added on 2018-07-13: the
    Tournament Rules take precedence in tournaments), stood until the 2024 text.
    """

    key = "cr-2009-09"
    aliases: ClassVar[tuple[str, ...]] = ("cr713-2009-09",)
    name = "CR 713 (2009-09)"
    document = "Comprehensive Rules, rule 713 \u201cTaking Shortcuts\u201d, multiplayer 713.3"
    citation = "Comprehensive Rules effective 2009-09-04 (713.3); the same rule, renumbered, until 2024-06-06"
    effective = "2009-09-04"
    in_force: ClassVar[tuple[str, str | None]] = ("2009-09-04", "2024-06-06")
    number = "713"
    sources: ClassVar[tuple[Source, ...]] = (Source("2009-09-04_cr_713.3.txt"), Source("2009-07-11_cr_713.txt"))
    amends: ClassVar[str | None] = "cr-2009"
    summary = "713.3 made multiplayer: the active player, or the first involved player, must stop a fragmented loop."

    def fragmented_player(self, ctx: Settlement, involved: tuple[str, ...]) -> str | None:
        """The active player, or the first involved player in turn order."""
        active = self.active_at_repeat(ctx)
        if active in involved:
            return active
        order = ctx.facts.seating  # the active player may have left the game (LoopFacts.among)
        start = order.index(active)
        return next(p for p in order[start:] + order[:start] if p in involved)


class Cr2024(Cr2009Sept):
    """CR 729 "Taking Shortcuts", text of 2024-06-07 (the current CR; renumbered 730, 731, 732).

    The same rules as the multiplayer text of 2009-09-04, renumbered (713 became 729 by way of
    714 .. 728) and with 729.1c (since 2018-07-13 as 720.1c): in a tournament the Tournament Rules
    take precedence.  Still in force: renumbered 730 on 2025-04-04, 731 on 2025-07-25 (only the
    examples' wording changed, text of 2026-01-16) and 732 on 2026-04-17, when rule 722
    "Preparation Cards" was inserted (the same text as 2026-01-16's, number masked).
    """

    key = "cr-2024"
    aliases = ("cr-current", "cr729", "cr")
    name = "CR 729 (2024)"
    document = "Comprehensive Rules, rule 729 \u201cTaking Shortcuts\u201d"
    citation = "Comprehensive Rules effective 2024-06-07 (Modern Horizons 3)"
    effective = "2024-06-07"
    in_force = ("2024-06-07", None)
    number = "729"
    rule_ids = _numbered("729", "1", "1a", "1b", "1c", "2", "2a", "2b", "2c", "3", "4", "5", "6")
    loop_rule = "729.1b"
    sources = (Source("2024-06-07_cr_729.txt"),)
    amends = "cr-2009-09"
    summary = "Taking Shortcuts as today: propose and shorten; a repeated game state makes the active player stop (729.3)."


def _people(names: Iterable[str]) -> str:
    names = list(names)
    return f"{names[0]} takes" if len(names) == 1 else f"{', '.join(names)} take"


def _breaker_does(scenario: Scenario, player: str) -> str:
    """What ``player``'s breaker does, quoted (their first breaker)."""
    return f"\u201c{next(b.does for b in scenario.breakers if b.by == player)}\u201d"
