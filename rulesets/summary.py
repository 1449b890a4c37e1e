"""The Rules Summary's "Infinity" rulings (G.21), before the Comprehensive Rules.

Until the first Comprehensive Rules (1999-04-23), the official Rules Summary and its rulings were
the rules for loops.  G.21 has no draw: a loop nobody controls repeats the *larger* of the
numbers the players pick, and then stops where it would begin again.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from .base import MANA_RULES_421, STACK_RULE_421, Decision, Ruleset, Settlement, Source, Stop, be, describe_count, earliest, listing, times
from .outcome import Result
from .values import UNBOUNDED, CutPoint



class Summary1998(Ruleset):
    """Rules Summary G.21 "Infinity" (rulings of 1998-03-31 to 1998-11-03; Fifth Edition era).

    * G.21.2: a combination completely under player control: the player demonstrates it and
      states how many times (a positive, finite integer); any player may stop it sooner to act.
    * G.21.3: a loop the players have no control over: each player picks a number, the active
      player first, and the loop repeats the *larger* number of times; a player with a legal
      action can stop it sooner.  There is no draw.
    * G.21.4: cards remain where they would be at the end of the loop.
    * Ruling 4 (1998-11-03): a loop that will end is run to completion.
    * The closing note: for loops with randomness (coin flips, shuffles) there is no ruling;
      "the result will be up to the judge".

    G.21 says nothing about loops that need several players' actions, "unless" effects, loops
    across turns, restarts or hidden information.
    """

    key = "summary-1998"
    aliases = ("g21", "rules-summary")
    name = "Rules Summary G.21 (1998)"
    document = "Official Rules Summary (Fifth Edition), G.21 \u201cInfinity\u201d"
    citation = "Official Magic: The Gathering Rules Summary, final Fifth Edition release, rulings 1998-03-31 to 1998-11-03"
    effective = "1998-03-31"
    in_force = ("1998-03-31", "1999-04-22")
    rule_ids = ("G.21.1", "G.21.2", "G.21.3", "G.21.4", "G.21.Ruling.4", "G.21.Note")
    sources = (Source("1998-03-31_rulings-summary_G21.txt"),)
    summary = "Before the CR: a loop nobody controls repeats the larger number chosen (no draw); a loop that will end runs to completion."
    loop_rule = "G.21.1"
    ends_rule = "G.21.Ruling.4"
    random_inner = Result.UNSPECIFIED
    draw_rule = ""
    today_words = "Replaced by Comprehensive Rules 421 on 1999-04-23; the loop rule is Taking Shortcuts today."
    tie_wording = "{first} and {others} would act at the same point; reading taken: {first}, {reason}."

    def priority_rule(self) -> str:
        """G.21.2: a player stops the loop "to take some action (which is legal at that time)"."""
        return "G.21.2"

    def priority_reading(self) -> str:
        """G.21 knows no priority: its "legal at that time" is read as the Comprehensive Rules have it."""
        return (
            "G.21.2 lets a player stop the loop \u201cto take some action (which is legal at that time)\u201d. Reading taken "
            "(FORMAT item 23): that is where the player could act, not right after another player's mana ability or special "
            "action (priority = false), which nobody can respond to; G.21 itself says nothing of it, so the later "
            f"Comprehensive Rules' reading is taken ({MANA_RULES_421})."
        )

    def stack_reading(self) -> str:
        """G.21 says nothing of the stack: the Comprehensive Rules' reading."""
        return f"G.21 says nothing of it; read as the Comprehensive Rules have it, {STACK_RULE_421}"

    def restrictions(self, ctx: Settlement) -> Decision | None:
        """The closing note: loops with randomness are left to the judge."""
        steps = ctx.scenario.steps
        # "an element of randomness involved, such as coin flipping": a random or conditional
        # step, or an event with a chance of ending the loop (docs/DOMAIN.md section 6).
        if any(s.random or s.conditional or (s.ends_loop is not None and s.ends_loop.chance is not None) for s in steps):
            ctx.say(
                "G.21.Note",
                "there is no ruling for loops with an element of randomness (or repeated until a condition occurs): "
                "the result is up to the judge.",
            )
            ctx.judge = True
            ctx.note("G.21 leaves loops with randomness to the judge: the text gives no outcome, so the result is 'unspecified' and a judge is needed.")
            return Decision(Result.UNSPECIFIED)
        loop = ctx.scenario.loop
        event = ctx.facts.event
        if event is not None:
            ctx.note(
                "G.21 knows nothing of loops that may end on an unforeseen event. Reading taken (docs/DOMAIN.md section 6): "
                f"the loop is shortcut as a deterministic one; it may end sooner if “{event.when}” (ends_early_if)."
            )
        for flag, what in (
            (loop.spans_turns, "loops that continue across turns"),
            (loop.shortcut_before, "restarting a loop (G.21.2 says stopping a loop \u201cdoes not stop the player from starting the loop again\u201d)"),
            ("hidden" in ctx.facts.step_flags, "choices that involve hidden information"),
        ):
            if flag:
                ctx.note(f"G.21 says nothing about {what}; the loop is settled as any other (reading).")
        return None

    def involved(self, ctx: Settlement) -> tuple[str, ...]:
        """Players in control: optional actions, and (reading) the choice not to pay an "unless" cost."""
        facts = ctx.facts
        payers = facts.unless_payers
        if payers:
            ctx.note(
                "G.21 has no rule for \u201c[X] unless [Y]\u201d effects. Reading taken (as for CR 421 before 2008): the "
                f"choice not to perform [Y] puts the loop under the control of {', '.join(payers)}."
            )
        return facts.in_turn_order(self.sustainers(ctx) + payers)

    def read_choices(self, ctx: Settlement, choosers: tuple[str, ...]) -> None:
        """G.21 speaks of control, not of choices: a choice puts the loop under its maker's control."""
        ctx.note(
            "G.21 speaks of combinations \u201ccompletely under player control\u201d (G.21.2) and of loops \u201cfor which "
            "the players have no control\u201d (G.21.3), not of choices. Reading taken, as for CR 421: a choice that "
            "keeps the loop going puts it under the control of the player who makes it, so "
            f"{listing(choosers)} {be(choosers)} in control of the loop ({ctx.choices(choosers)})."
        )

    def mandatory(self, ctx: Settlement) -> Decision:
        """G.21.3: each player picks a number, the active player first; the larger one counts.

        Ruling 4: not for a loop that will end: that one runs to completion, unless a player
        with a legal action stops it sooner.
        """
        facts = ctx.facts
        if facts.end is not None:
            breakers = self.intervening(ctx, facts.turn_order, need_means=True)
            first = earliest(breakers, facts, facts.turn_order)[0] if breakers else None
            if first is not None and facts.before(first.point, facts.end):
                ctx.say("G.21.Ruling.4", "the loop is not really infinite, so nobody picks a number (G.21.3 does not apply).")
                ctx.say("G.21.3", f"{first.player} has a legal action and stops the loop sooner, {first.point.describe()}, to take it ({ctx.means(first.player)}).")
                return Decision(Result.SHORTCUT, first.point, first.player)
            # The driver runs it to completion (G.21.Ruling.4).
            return Decision(Result.SHORTCUT, CutPoint(UNBOUNDED, 0))
        numbers = {}
        for player in facts.turn_order:
            numbers[player] = ctx.number(player)
            ctx.say("G.21.3", f"{ctx.who(player)} picks a number: {describe_count(numbers[player])}.")
        largest = UNBOUNDED if UNBOUNDED in numbers.values() else max(n for n in numbers.values() if n is not UNBOUNDED)
        ctx.say("G.21.3", f"the loop repeats {times(largest)}, the larger of the numbers chosen; there is no draw.")
        breakers = self.intervening(ctx, facts.turn_order, need_means=True)
        end = CutPoint(largest, 0)
        if breakers:
            first, ties = earliest(breakers, facts, facts.turn_order)
            if facts.before(first.point, end):
                ctx.say("G.21.3", f"{first.player} has a legal action and stops the loop sooner, {first.point.describe()}, to take it ({ctx.means(first.player)}).")
                self.note_ties(ctx, first, ties, "first in turn order from the active player")
                return Decision(Result.SHORTCUT, first.point, first.player)
        ctx.say("G.21.4", f"the loop ends where it would begin again, {end.describe()}; cards remain where they would be at the end of the loop.")
        return Decision(Result.SHORTCUT, end, None)

    def intervening(self, ctx: Settlement, players: Iterable[str], *, need_means: bool) -> list[Stop]:
        """As the base class, but under G.21.3 a number without a way to act is still a number."""
        stops = []
        for p in players:
            point = ctx.facts.deviation_point(p)
            if point is not None and (not need_means or ctx.means(p) is not None):
                stops.append(Stop(p, point))
        return stops

    def one_controller(self, ctx: Settlement, controller: str) -> Decision:
        """G.21.2: the player states how many times; any player may stop it sooner to act."""
        facts = ctx.facts
        number = ctx.number(controller)
        ctx.say("G.21.2", f"the loop is completely under {ctx.who(controller)}'s control: they demonstrate it and state a number: {describe_count(number)}.")
        if number == 0:
            ctx.note("G.21.2 asks for \u201ca positive, finite integer\u201d; a number of 0 is read as not starting the loop.")
        own = Stop(controller, ctx.point(controller))
        others = [p for p in facts.turn_order if p != controller]
        first, ties = earliest([own] + self.intervening(ctx, others, need_means=False), facts, [controller] + others)
        if first.player == controller:
            ctx.say("G.21.2", f"nobody interferes: the actions occur {times(number)}.")
        else:
            ctx.say("G.21.2", f"{first.player} says that after a smaller number of times they want to stop the loop to take an action: {first.point.describe()}.")
        self.note_ties(ctx, first, ties, "who named the number or comes first in turn order")
        return Decision(Result.SHORTCUT, first.point, first.player)

    def dependent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """G.21.2 speaks of one player stating a number; a loop needing several players is not covered."""
        return self.unspecified(ctx, "G.21.2", f"G.21.2 covers a combination one player demonstrates and numbers; here {len(involved)} players' actions sustain the loop")

    def independent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """Not covered either (no rule for several players' sets of actions)."""
        return self.unspecified(ctx, "G.21.2", f"G.21.2 covers a combination one player demonstrates and numbers; here {len(involved)} players each control actions")

    def read_nest(self, ctx: Settlement, nest: Mapping[str, Result]) -> None:
        """G.21 speaks of "the loop"; its ruling 4 runs a loop that will end to completion."""
        ctx.say(
            "G.21.Ruling.4",
            f"each inner loop ({', '.join(repr(k) for k in nest)}) runs a set number of times or until a goal: it will end, "
            "so “the game will run it to completion”.",
        )
        ctx.note(
            "G.21 speaks of “the loop” only: it says nothing of a loop inside another. Reading taken (FORMAT item 29): "
            "each inner loop is settled as a loop of its own by the same procedure; a point inside it is a point of the "
            "loop like any other, and an inner loop with an element of randomness is left to the judge (unspecified)."
        )
