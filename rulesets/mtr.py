"""Magic Tournament Rules section 4.4, "Loops".

In a tournament the Tournament Rules take precedence over the Comprehensive Rules wherever they
contradict them (CR 729.1c).  The MTR ruleset is therefore a delta on the current CR: it replaces
the proposal procedure and the fragmented-loop rule with "everyone names a number, the lowest
wins", forbids shortcutting non-deterministic loops, limits loops across turns, forbids
restarting a loop without a relevant change, and otherwise leaves the CR in force (729.5 and
729.6 are cited from the CR).
"""

from __future__ import annotations

from typing import ClassVar, Iterable, Mapping

from .base import Decision, Settlement, Source, Stop, be, describe_count, earliest, listing
from .outcome import Result, StoppedBy
from .scenario import Breaker, Step
from .values import UNBOUNDED, Count
from .shortcuts import Cr2009Sept

MTR = "MTR 4.4"


class Mtr2018(Cr2009Sept):
    """MTR 4.4 "Loops" as of 2018-07-13, when the section was new.

    Overrides the CR's shortcut rules (then rule 720, the multiplayer text of 2009-09-04
    renumbered) in tournaments, as CR 720.1c allows:

    * no players involved: each player in turn order names when they will break the loop, or
      no action; all "no action" is a draw;
    * one player involved: the others agree or announce a lower number; the lowest wins;
    * two or more involved: each names a number, the lowest wins, and that player receives
      priority where they stop sustaining the loop; across turns, all "indefinitely" is a draw;
    * non-deterministic loops (probability, shuffling) and conditional actions can't be shortcut;
    * a loop may span turns only if the game state is not meaningfully changing;
    * once shortcut, a loop may not be restarted until the game changes in a relevant way.

    It has no paragraph on loops sustained by choices (added later; see :class:`MtrCurrent`), and
    a judge ruled under it that a choice is not an action that sustains a loop (Scott Marshall,
    judge forum, 2018-10-08): a player who only chooses is not involved (:attr:`choice_sustains`).
    """

    key = "mtr-2018"
    aliases: ClassVar[tuple[str, ...]] = ("mtr-4.4-2018",)
    name = "MTR 4.4 (2018)"
    document = "Magic Tournament Rules, section 4.4 \u201cLoops\u201d, first text"
    citation = "Magic Tournament Rules effective 2018-07-13, section 4.4"
    effective = "2018-07-13"
    # Replaced by the current text on a day the sources don't give, but by 2025-11-10, when a
    # dated copy of the current text exists.
    in_force: ClassVar[tuple[str, str | None]] = ("2018-07-13", "unknown")
    superseded_by = "2025-11-10"
    rule_ids = (MTR,)
    number = "720"
    sources = (Source("2018-07-13_mtr_4.4.txt", mtr_section=MTR), Source("2018-07-13_cr_720.txt", prefix="CR "))
    amends: ClassVar[str | None] = None
    overrides = "cr-2009-09"
    summary = "Tournament loops: everyone names a number, the lowest wins; no non-deterministic loops; no restarts."
    cite = "CR "
    cr_date = "2018-07-13"
    loop_rule = MTR
    #: No choices paragraph, and the ruling under this text: a choice is its maker's way out.
    choice_sustains = False
    today_words = "The CR rule it overrides, {number}, is numbered {today} today."

    def edition(self, number: str, since: str, text: tuple[str, str] | None) -> dict[str, str]:
        """The MTR's own text stays; only the CR it is read with is cited as renumbered."""
        return {"cr_date": text[0] if text else self.cr_date}

    def renumbering_note(self, old: str, how: str, quoted: str) -> str:
        return f"The CR rule it overrides, {old}, is cited as {how}; {quoted}."

    def loop_quote(self) -> str:
        return self.paragraph("A loop is a form of tournament shortcut")

    def mtr(self, ctx: Settlement, words: str, text: str) -> None:
        """Cite MTR 4.4, quoting the paragraph that contains ``words``."""
        ctx.say(MTR, text, quote=self.paragraph(words))

    # --- hooks ----------------------------------------------------------------------------------

    def read_nest(self, ctx: Settlement, nest: Mapping[str, Result]) -> None:
        """MTR 4.4 has no sentence on nests: loop actions "must be identical in each iteration"."""
        split = [k for k, r in nest.items() if r is Result.SHORTCUT]
        self.mtr(
            ctx,
            "identical in each iteration",
            "loop actions must be identical in each iteration: "
            + (f"the deterministic inner loop{'s' if len(split) != 1 else ''} {', '.join(repr(k) for k in split)} repeat identically and may be shortcut." if split
               else "no inner loop here is deterministic."),
        )
        ctx.note(
            "MTR 4.4 has no sentence on loops inside loops. Reading taken (FORMAT item 29): the nest is split part by part; "
            "a deterministic inner loop repeats identically and is shortcut (inner_results), while the outer loop is "
            "settled as a loop of its own, non-deterministic when it or its inner loop is."
        )

    def restrictions(self, ctx: Settlement) -> Decision | None:
        """Conditional and non-deterministic loops, loops across turns, restarts."""
        loop = ctx.scenario.loop
        flags = ctx.facts.step_flags
        if "conditional" in flags:
            self.mtr(ctx, "cannot include conditional actions", "loop actions must be identical in each iteration and cannot include conditional actions: this loop may not be shortcut.")
            return self._repeated_state(ctx)
        if "random" in flags:
            self.mtr(ctx, "Non-deterministic loops", "a loop that relies on probability (here, a random step) is non-deterministic and may not be shortcut; it is played out.")
            return self._repeated_state(ctx)
        event = ctx.facts.event
        if event is not None:
            self.mtr(ctx, "Non-deterministic loops", f"whether “{event.when}” happens depends on information no one can predict: the loop is non-deterministic and may not be shortcut; it is played out.")
            ctx.note(
                "Reading taken (docs/DOMAIN.md section 6): a loop that may end on a hidden event relies on the same kind of "
                "unpredictability as one that relies on probability, so MTR 4.4's non-deterministic loops paragraph applies."
            )
            return self._repeated_state(ctx)
        if loop.spans_turns:
            if loop.meaningful_change:
                self.mtr(ctx, "span multiple turns", "a loop may span turns only if the game state is not meaningfully changing; this one changes meaningfully, so it may not be shortcut across turns.")
                return Decision(Result.NO_SHORTCUT)
            self.mtr(ctx, "span multiple turns", "the loop may span turns: the game state is not meaningfully changing.")
        elif loop.meaningful_change:
            ctx.note("'meaningful_change' matters only for a loop across turns; this loop stays within a turn, so it is ignored.")
        if loop.shortcut_before:
            self.mtr(ctx, "may not be restarted", "this loop was shortcut before and the game has not changed in a relevant way since: it may not be restarted.")
            return Decision(Result.NO_RESTART)
        return None

    def _repeated_state(self, ctx: Settlement) -> Decision:
        """A non-deterministic loop played out must stop once a previous game state is reached again.

        The state repeats when every tracked integer's net change per iteration is zero (the
        shuffle puts everything back): then the first iteration already brings the loop back to
        where it started, and the player attempting it may not go past it.  A published ruling
        on the Four Horsemen combo reads the sentence so ("not allowed to continue past the
        first iteration").  Otherwise the loop is simply played out, with no cut point.
        """
        facts = ctx.facts
        if not facts.state_repeats:
            return Decision(Result.NO_SHORTCUT)
        involved = self.involved(ctx)
        if not involved:
            ctx.note(
                "The tracked state repeats after every iteration, but no player controls an action in this loop, so "
                "nobody can stop it at the repetition; it is played out."
            )
            return Decision(Result.NO_SHORTCUT)
        player = involved[0]
        point = facts.repeat_stop(player)
        assert point is not None  # the state repeats
        after = point.iterations
        own = facts.deviation_point(player)
        forced = True
        if own is not None and facts.before(own, point):
            point, forced = own, False
        self.mtr(
            ctx,
            "previous game state",
            "a player attempting to execute a nondeterministic loop must stop if a previous game state is reached again: "
            "nothing the loop tracks changes from one iteration to the next, so "
            + ("the state of the start is reached again after the first iteration" if after == 1 else f"a state is reached again after {_iterations(after)}")
            + f", and {ctx.who(player)} must stop there ({point.describe()}).",
        )
        ctx.note(
            "Reading taken for MTR 4.4's “must stop if at any point during the process a previous game state (or one "
            "identical in all relevant ways) is reached again”: when every tracked value's net change per iteration is "
            "zero, the loop's first involved player (in turn order from the active player) stops after the first "
            "iteration, as a published ruling on the Four Horsemen combo puts it (“not allowed to continue past the "
            "first iteration”). The values the scenario does not track (the library's order) are taken to be "
            "identical in all relevant ways."
        )
        return Decision(Result.NO_SHORTCUT, point, player, stopped_by=StoppedBy.RULE if forced else None)

    def read_payments(self, ctx: Settlement) -> None:
        """MTR 4.4: loop actions identical in each iteration, so each stretch of payments is its own loop."""
        ctx.note(
            "MTR 4.4: “The loop actions must be identical in each iteration”; a payment made in some iterations "
            "and not in others (a payer who runs out) makes each stretch its own loop, shortcut one after the other "
            "with the same numbers as one run (FORMAT item 25). The payments themselves make nobody involved."
        )

    def involved(self, ctx: Settlement) -> tuple[str, ...]:
        """As in the CR; an "unless" effect falls to CR 729.6, which the MTR does not contradict."""
        if any(s.unless and s.unless.breaks for s in ctx.scenario.steps):
            ctx.note(
                f"MTR 4.4 has no rule on \u201c[X] unless [Y]\u201d effects; {self.rule('6')} applies, since the Tournament "
                f"Rules do not contradict it ({self.rule('1c')})."
            )
        return super().involved(ctx)

    def read_choices(self, ctx: Settlement, choosers: tuple[str, ...]) -> None:
        """No paragraph on choices in the 2018 text: the ruling made under it (a choice is its
        maker's way out, not an action that maintains the loop)."""
        if ctx.scenario.loop.within == "resolution":
            return  # inside one resolution the chooser is involved in every era (FORMAT item 18)
        facts = ctx.facts
        left_out = [p for p in choosers if p in facts.only_choosers]
        acting = [p for p in choosers if p not in facts.only_choosers]
        here = ""
        if left_out:
            here += f" Here {ctx.choices(left_out)} {be(left_out)} no action: {listing(left_out)} {be(left_out)} not involved."
        if acting:
            here += f" {listing(acting)} also {'takes' if len(acting) == 1 else 'take'} actions in the loop and {be(acting)} involved through them."
        ctx.note(
            "This text of MTR 4.4 has no paragraph on loops sustained by choices (the current text added one). Reading "
            "taken, as Scott Marshall ruled under it (judge forum, 2018-10-08, Teferi, Hero of Dominaria against a Nexus of "
            "Fate discarded to hand size every turn): \u201cThe Nexus player is simply doing what the game rules instruct "
            "them to do - yes, they're choosing which card to discard, but it's not a game action they're taking, it's "
            "following the rules of the game.\u201d A choice does not make the player who makes it involved in maintaining "
            "the loop; it is their way out of it, like an action that breaks the loop, taken where their intent says."
            f"{here} The ruling itself calls this \u201can odd outcome\u201d and says that a judge who rules such a loop a "
            "draw would not be called wrong."
        )

    def mandatory(self, ctx: Settlement) -> Decision:
        """No players involved: each names when they'll break it, or no action; all none: draw."""
        facts = ctx.facts
        stops = self.intervening(ctx, facts.turn_order, need_means=True)
        words = "no players are involved"
        if not stops:
            self.mtr(ctx, words, "no player is involved in maintaining the loop; each player in turn order chooses to take no action to break it, so the game is a draw.")
            return Decision(Result.DRAW)
        for player in facts.turn_order:
            chosen = next((s for s in stops if s.player == player), None)
            if chosen:
                self.mtr(ctx, words, f"{player} chooses {_iterations(chosen.point.iterations)}, after which they will break the loop ({ctx.means(player)}).")
            else:
                self.mtr(ctx, words, f"{player} chooses to take no action.")
        first, ties = earliest(stops, facts, facts.turn_order)
        self.mtr(ctx, words, f"the game advances through the lowest number, {_iterations(first.point.iterations)}, and {first.player} takes an action to break the loop.")
        self._partial(ctx, first)
        self.note_ties(ctx, first, ties, "the first to choose it in turn order")
        return Decision(Result.SHORTCUT, first.point, first.player)

    def one_controller(self, ctx: Settlement, controller: str) -> Decision:
        """One player involved: they choose; the others agree or announce a lower number."""
        facts = ctx.facts
        words = "If one player is involved"
        number = ctx.number(controller)
        self.mtr(ctx, words, f"{ctx.who(controller)} is the one player involved in maintaining the loop and chooses a number of iterations: {describe_count(number)}.")
        others = [p for p in facts.turn_order if p != controller]
        stops = [Stop(controller, ctx.point(controller))]
        for stop in self.intervening(ctx, others, need_means=False):
            if not facts.before(stop.point, stops[0].point):
                self.mtr(ctx, words, f"{stop.player} agrees.")
            elif not facts.same_iteration(stop.point, stops[0].point):
                self.mtr(ctx, words, f"{stop.player} announces a lower number, intending to intervene {stop.point.describe()}.")
            else:
                self.mtr(ctx, words, f"{stop.player} announces the same number, intending to intervene earlier in the next iteration: {stop.point.describe()}.")
            stops.append(stop)
        first, ties = earliest(stops, facts, [controller] + others)
        if self._forced(ctx, first):
            self.mtr(ctx, words, f"the game advances to {first.point.describe()}, where {first.player} can no longer take their step (its requirement fails), and {first.player} receives priority.")
        else:
            self.mtr(ctx, words, f"the game advances through the lowest number of iterations chosen, to {first.point.describe()}, and {first.player} receives priority.")
        self._partial(ctx, first)
        self._choice(ctx, first)
        self.note_ties(ctx, first, ties, "who chose the number first (the player involved, then the others in turn order)")
        self._same_number(ctx, first, stops)
        return Decision(Result.SHORTCUT, first.point, first.player)

    def dependent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """Two or more involved: each names a number; the lowest wins (overrides CR 729.3)."""
        return self._lowest_number(ctx, involved, per_player=None)

    def independent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """No separate rule for independent actions: read literally, the lowest number wins."""
        ctx.note(
            "MTR 4.4 has no separate rule for independent sets of actions. Reading taken, literally: the "
            "players involved each choose a number, the game advances through the lowest, and the player "
            "who chose it receives priority; every set stops there."
        )
        return self._lowest_number(ctx, involved, per_player=involved)

    def _lowest_number(self, ctx: Settlement, involved: tuple[str, ...], per_player: tuple[str, ...] | None) -> Decision:
        facts = ctx.facts
        across = ctx.scenario.loop.spans_turns
        words = "across turns" if across else "within a turn"
        stops: list[Stop] = []
        for rank, player in enumerate(p for p in facts.turn_order if p in involved):
            point = facts.deviation_point(player)
            if point is None:
                if across:
                    self.mtr(ctx, words, f"{player} announces their intent to continue indefinitely.")
                else:
                    self.mtr(ctx, words, f"{player}, wanting the loop to go on, chooses a number higher than any chosen before: {describe_count(UNBOUNDED)}.")
                stops.append(Stop(player, facts.own_point(player, UNBOUNDED), rank=rank))
            else:
                self.mtr(ctx, words, f"{player} chooses {_iterations(point.iterations)}, stopping {point.describe()}.")
                stops.append(Stop(player, point))
        outsiders = [p for p in facts.turn_order if p not in involved]
        interventions = self.intervening(ctx, outsiders, need_means=False)
        if interventions:
            ctx.note("The paragraph on two or more players involved does not mention other players. Reading taken: as in the one-player paragraph, another player may announce a point where they intervene.")
            for stop in interventions:
                self.mtr(ctx, "If one player is involved", f"{stop.player} intends to intervene {stop.point.describe()}.")
        stops += interventions
        if across and all(s.point.unbounded for s in stops):
            self.mtr(ctx, words, "every player chooses to continue indefinitely: the game is a draw.")
            return Decision(Result.DRAW)
        first, ties = earliest(stops, facts, facts.turn_order)
        if first.player not in involved:
            where = "where they intervene"
        elif across:
            where = "at the point they stop taking an action to sustain the loop"
        else:
            where = "where they stop sustaining the loop"
        if self._forced(ctx, first):
            self.mtr(ctx, words, f"the game advances to {first.point.describe()}, where {first.player} can no longer take their step (its requirement fails), and {first.player} receives priority there.")
        else:
            self.mtr(ctx, words, f"the game advances through the lowest number of iterations chosen ({first.player}'s) and {first.player} receives priority {where}: {first.point.describe()}.")
        self._partial(ctx, first)
        self._choice(ctx, first)
        self.note_ties(ctx, first, ties, "the first to choose it in turn order")
        self._same_number(ctx, first, stops)
        return Decision(Result.SHORTCUT, first.point, first.player, per_player=tuple(per_player) if per_player else None)

    @staticmethod
    def _forced(ctx: Settlement, stop: Stop) -> bool:
        """Whether ``stop`` is where its player's optional step can no longer be paid for, before
        the number they chose (FORMAT item 8): nobody chose that point."""
        facts = ctx.facts
        forced = facts.forced_point(stop.player)
        if forced is None or stop.point != forced:
            return False
        meant = facts.meant_point(stop.player)
        return meant is None or facts.before(forced, meant)

    def _same_number(self, ctx: Settlement, first: Stop, stops: Iterable[Stop]) -> None:
        """The MTR compares numbers of iterations; say so when equal numbers stop at different points."""
        if first.point.unbounded:
            return
        facts = ctx.facts
        same = [s.player for s in stops if s.player != first.player
                and facts.same_iteration(s.point, first.point) and s.point != first.point]
        if same:
            ctx.note(
                f"{first.player} and {', '.join(same)} chose the same number of iterations; MTR 4.4 does not say who then "
                f"stops. Reading taken: {first.player}, whose stopping point comes first in the next iteration."
            )

    def _partial(self, ctx: Settlement, stop: Stop) -> None:
        """A player may stop part-way through an iteration to act at the right point."""
        if ctx.scenario.intent(stop.player).step is not None and stop.point.steps:
            self.mtr(ctx, "only partly performed", f"{stop.player} specifies that the last iteration is only partly performed, up to step {stop.point.steps}.")

    def _choice(self, ctx: Settlement, stop: Stop) -> None:
        """Loops sustained by choices: the player makes a different choice instead of stopping."""
        steps = ctx.scenario.steps
        step = steps[stop.point.steps] if stop.point.steps < len(steps) else None
        if step is None or not step.choice or step.by != stop.player:
            return
        self.choice_made(ctx, stop)

    def choice_made(self, ctx: Settlement, stop: Stop) -> None:
        """What the text says when a player stops a loop by choosing otherwise: nothing in 2018
        (the choice is the player's way out, the reading :meth:`read_choices` notes)."""

    def judge_needed(self, ctx: Settlement, decision: Decision) -> bool:  # noqa: D102
        """A choice involving hidden information, or a hidden out: a judge may be needed."""
        # A player who has left the game by the cut no longer holds an out, nor makes the hidden
        # choice of a step of theirs: their breakers and steps drop out (FORMAT item 6).
        left = {e.player for e in ctx.facts.eliminations_until(decision.point)}
        hidden = [s for s in ctx.scenario.steps if s.hidden and s.by not in left]
        outs = [b for b in ctx.scenario.breakers if b.hidden and b.by not in left]
        if (not hidden and not outs) or decision.result not in (Result.SHORTCUT, Result.DRAW, Result.ENDS):
            return False
        return self.hidden_information(ctx, hidden, outs)

    def hidden_information(self, ctx: Settlement, hidden: list[Step], outs: list[Breaker]) -> bool:
        """A hidden choice or a hidden out: the 2018 text has no sentence about it (no judge)."""
        if not hidden:
            ctx.note(
                f"{outs[0].by}'s way to break the loop is hidden information; this text of MTR 4.4 has no sentence about "
                "hidden information (the later choices paragraph has), so no judge is called for."
            )
        else:
            ctx.note("This text of MTR 4.4 says nothing about choices involving hidden information; no judge is called for.")
        return False


def _iterations(n: Count) -> str:
    assert n is not UNBOUNDED, "a number of iterations a player names here is finite"
    return "1 iteration" if n == 1 else f"{n:,} iterations"


class MtrCurrent(Mtr2018):
    """MTR 4.4 "Loops", current text: the 2018 section plus the paragraph on loops sustained by
    choices ("a judge may be needed" when the choice involves hidden information).

    The text applied is that of 2026-02-27, the same as 2025-11-10's; it differs from 2018's only
    by that paragraph and a serial comma ("probability, or mathematical convergence").  The day
    the paragraph was added is not in the sources: after 2018-07-13, by 2025-11-10 (an interval,
    ``not_before`` .. ``attested``, never a made-up day).  It is read with the current CR (rule 729
    of 2024-06-07, cited as "CR 729.x"; as renumbered on a later day with ``--as-of``).
    """

    key = "mtr-current"
    aliases = ("mtr", "mtr-4.4")
    name = "MTR 4.4 (current)"
    document = "Magic Tournament Rules, section 4.4 \u201cLoops\u201d"
    citation = "Magic Tournament Rules effective 2026-02-27, section 4.4 (the same text 2025-11-10)"
    effective = "2026-02-27"
    in_force = ("unknown", None)
    not_before = "2018-07-13"
    attested = "2025-11-10"
    number = "729"
    sources = (Source("2026-02-27_mtr_4.4.txt", mtr_section=MTR), Source("2024-06-07_cr_729.txt", prefix="CR "))
    amends = "mtr-2018"
    summary = (
        "Adds loops sustained by choices: a choice keeps its maker involved, as an action does (a loop kept going across "
        "turns by one player's actions and another's choice becomes a draw); a judge may be needed when the choice "
        "involves hidden information."
    )
    cr_date = "2024-06-07"
    choice_sustains = True

    def read_choices(self, ctx: Settlement, choosers: tuple[str, ...]) -> None:
        """The paragraph on loops sustained by choices: a choice keeps its maker involved."""
        self.mtr(
            ctx,
            "sustained by choices",
            f"the loop is sustained by {'a choice' if len(choosers) == 1 else 'choices'} ({ctx.choices(choosers)}): the rules above apply "
            f"with {listing(choosers)} making a different choice rather than ceasing to take an action, so "
            f"{listing(choosers)} {be(choosers)} involved in maintaining the loop.",
        )

    def choice_made(self, ctx: Settlement, stop: Stop) -> None:
        """The paragraph on choices: the game moves to the point of the different choice."""
        self.mtr(ctx, "sustained by choices", f"the loop is sustained by {stop.player}'s choice; the game moves to the point where {stop.player} makes a different choice.")

    def hidden_information(self, ctx: Settlement, hidden: list[Step], outs: list[Breaker]) -> bool:
        """The paragraph's last sentence: with hidden information a judge may be needed."""
        if not hidden:
            self.mtr(ctx, "hidden information", f"{outs[0].by}'s way out (“{outs[0].does}”) is hidden information: a judge may be needed to determine whether any choice is available that will not continue the loop.")
        else:
            self.mtr(ctx, "hidden information", f"{hidden[0].by}'s choice involves hidden information: a judge may be needed to determine whether any choice is available that will not continue the loop.")
        return True
