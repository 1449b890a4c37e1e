"""Comprehensive Rules 421, "Handling 'Infinite' Loops": the "infinity rules".

Rule 421 was in the Comprehensive Rules from the first edition (1999-04-23) until the Magic 2010
rewrite (2009-07-11) replaced it with rule 713, "Taking Shortcuts".  Two of its texts are
modelled here: the two-player text (the 2004 ruleset, 2003-07-01) and the final multiplayer text
(the 2008 ruleset, 2008-10-01), which amends it.
"""

from __future__ import annotations

from typing import ClassVar, Iterable, Mapping

from .base import MANA_RULES_421, STACK_RULE_421, Decision, Ruleset, Settlement, Source, Stop, be, describe_count, earliest, listing, times
from .facts import acting, acting_until
from .outcome import Result
from .values import UNBOUNDED, Count, CutPoint, higher

#: Who acts first at a tie, in every 421 procedure.
_FIRST_NAMER = "who named the number or comes first in turn order from the active player (who receives priority first)"


class Cr2004(Ruleset):
    """CR 421 as written for two players (text of 2003-07-01; the same rules since 1999-04-23).

    * 421.2: the one player who controls a loop's optional actions names a number; the loop
      repeats that many times "or until the other player intervenes, whichever comes first".
    * 421.3: when both players' actions are needed, the active player names a number and the
      nonactive player lowers it (the active player gets "the last word") or agrees (the
      nonactive player gets it).
    * 421.4: a loop of only mandatory actions is a draw (rule 102.6).
    * 421.5: independent actions: the nonactive player may agree or choose a *higher* number.

    The text is silent on "[X] unless [Y]" effects (421.6 arrived in 2008), on actions outside
    the loop that could break it (no counterpart of CR 729.5), on randomness, conditional
    actions, loops across turns and restarts; each reading taken is noted in the outcome.
    """

    key = "cr-2004"
    citation = "Comprehensive Rules effective 2003-07-01 (same text 2003-07-01 to 2005-02-01)"
    aliases = ("cr421-2004", "infinity-2004")
    name = "CR 421 (2004)"
    document = "Comprehensive Rules, rule 421 \u201cHandling \u2018Infinite\u2019 Loops\u201d, two-player text"
    effective = "2003-07-01"
    in_force = ("1999-04-23", "2005-07-31")
    rule_ids: ClassVar[tuple[str, ...]] = ("421.1", "421.2", "421.3", "421.4", "421.5")
    sources = (Source("2003-07-01_cr_421.txt"),)
    amends = "summary-1998"
    summary = "Two-player infinity rules: the nonactive player has the last word; independent sets may only go higher."
    loop_rule = "421.1"
    draw_rule = "102.6"
    today_words = "Rule 421 was replaced by rule 713 \u201cTaking Shortcuts\u201d on 2009-07-11; that rule is {today} today."
    tie_wording = (
        "{first} and {others} would act at the same point; the text does not say who acts first. "
        "Reading taken: {first}, {reason}."
    )

    # --- hooks ----------------------------------------------------------------------------------

    def priority_rule(self) -> str:
        """421.2: the loop repeats "until another player intervenes"."""
        return "421.2"

    def priority_reading(self) -> str:
        """421.2's intervening, read as where a player may act (FORMAT item 23)."""
        other = "the other player" if self.two_player_text else "another player"
        return (
            f"421.2 has the loop repeat \u201cuntil {other} intervenes\u201d. Reading taken (FORMAT item 23), the same for "
            "every loop: a player intervenes only where they may act, not right after another player's mana ability or "
            f"special action (priority = false), which nobody can respond to ({MANA_RULES_421})."
        )

    def stack_reading(self) -> str:
        return STACK_RULE_421

    def restrictions(self, ctx: Settlement) -> Decision | None:
        """Rule 421 restricts nothing; where the scenario raises a question it is silent on, say so."""
        for what in self._silences(ctx):
            ctx.note(f"{self.name} says nothing about {what}; the loop is settled as any other (reading: no restriction).")
        event = ctx.facts.event
        if event is not None:
            ctx.note(
                f"{self.name} knows nothing of chance or of loops that may end on an unforeseen event. Reading taken "
                f"(docs/DOMAIN.md section 6): the loop is shortcut as a deterministic one; it may end sooner if "
                f"“{event.when}” (ends_early_if)."
            )
        return None

    def _silences(self, ctx: Settlement) -> list[str]:
        """What this scenario asks that the 421 texts say nothing about."""
        flags = ctx.facts.step_flags
        loop = ctx.scenario.loop
        checks = [
            ("random" in flags, "loops that involve randomness"),
            ("conditional" in flags, "conditional actions in a loop"),
            (loop.spans_turns, "loops that continue across turns"),
            (loop.shortcut_before, "restarting a loop that was shortcut before"),
            ("hidden" in flags, "choices that involve hidden information"),
        ]
        return [what for flag, what in checks if flag]

    def involved(self, ctx: Settlement) -> tuple[str, ...]:
        """Optional-action controllers, and (2004 only) whoever could pay an "unless" cost."""
        facts = ctx.facts
        payers = facts.unless_payers
        if payers:
            ctx.note(
                f"{self.name} has no rule for \u201c[X] unless [Y]\u201d effects. Reading taken: the choice "
                f"not to perform [Y] is an optional action of its controller ({', '.join(payers)}), so the "
                "loop is not one of only mandatory actions and can never be a draw. This is the gap "
                "that rule 421.6 closed in 2008."
            )
        return facts.in_turn_order(self.sustainers(ctx) + payers)

    def read_choices(self, ctx: Settlement, choosers: tuple[str, ...]) -> None:
        """Rule 421 speaks of optional actions only: a choice counts as one, by the judges' practice."""
        ctx.note(
            f"{self.name} speaks of optional actions (421.2, 421.3, 421.5), not of choices that keep a loop going. "
            "Reading taken, by the judges' practice: such a choice is an optional action of the player who makes it, "
            f"so {listing(choosers)} {be(choosers)} involved in the loop ({ctx.choices(choosers)}). Judges rule "
            "loops kept going by a choice so: with Worldgorger Dragon and Animate Dead, if another creature card "
            "can be chosen, \u201cyou must do so after as many iterations of this loop as you'd like\u201d "
            "(Oracle ruling, 2016-06-08)."
        )

    def choice_steps(self, ctx: Settlement, player: str) -> tuple[int, ...]:
        """The steps at which an involved player keeps the loop going (their optional actions)."""
        return ctx.facts.choice_steps(player, unless=bool(ctx.facts.unless_payers) and self._unless_optional)

    _unless_optional = True

    def mandatory(self, ctx: Settlement) -> Decision:
        """421.4: a loop of only mandatory actions is a draw; a player may still break it."""
        facts = ctx.facts
        stops = self.intervening(ctx, facts.turn_order, need_means=True)
        if not stops:
            ctx.say("421.4", "the loop contains only mandatory actions, and nobody acts to break it: the game is a draw.")
            ctx.say(self.draw_rule, "the game loops with no way to stop: the game is a draw.")
            return Decision(Result.DRAW)
        first, ties = earliest(stops, facts, facts.turn_order)
        ctx.note(
            f"421.4 makes a loop of mandatory actions a draw and, unlike CR 729.5, does not say whether a player "
            f"with a way to break it must or may use it. Reading taken (as judges of the time ruled): {first.player} "
            "may break it, and is not forced to."
        )
        ctx.say(
            "421.4",
            f"the loop contains only mandatory actions; {first.player} means to break it ({ctx.means(first.player)}) "
            f"{first.point.describe()}, so it runs until then and {first.player} breaks it.",
        )
        self.note_ties(ctx, first, ties, _FIRST_NAMER)
        return Decision(Result.SHORTCUT, first.point, first.player)

    def one_controller(self, ctx: Settlement, controller: str) -> Decision:
        """421.2: the controller names a number; another player may intervene first."""
        facts = ctx.facts
        number = ctx.number(controller)
        own = Stop(controller, ctx.point(controller))
        ctx.say("421.2", f"{ctx.who(controller)} controls every optional action in the loop and chooses a number: {describe_count(number)}.")
        others = [p for p in facts.turn_order if p != controller]
        if len(ctx.scenario.players) > 2 and self.two_player_text:
            ctx.note(
                f"421.2 of {self.name} speaks of \u201cthe other player\u201d; with {len(ctx.scenario.players)} "
                "players each other player is read as able to intervene."
            )
        stops = [own] + self.intervening(ctx, others, need_means=False)
        first, ties = earliest(stops, facts, [controller] + others)
        if first.player == controller:
            ctx.say("421.2", f"nobody intervenes sooner: the loop repeats {times(number)} and {controller} stops {first.point.describe()}.")
        else:
            ctx.say("421.2", f"{first.player} intervenes {first.point.describe()}, before {controller}'s number is reached: \u201cwhichever comes first\u201d.")
        self.note_ties(ctx, first, ties, _FIRST_NAMER)
        return Decision(Result.SHORTCUT, first.point, first.player)

    two_player_text = True

    def dependent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """421.3 (2004): two players, each needed: the active player names, the other lowers or agrees."""
        players = ctx.scenario.players
        if len(players) != 2:
            return self.unspecified(
                ctx,
                "421.3",
                f"421.3 of {self.name} covers a loop with an optional action \u201ccontrolled by each player\u201d "
                f"of a two-player game; here {len(involved)} of {len(players)} players are involved",
            )
        return self._last_word(ctx, involved, first=ctx.scenario.active)

    def _last_word(self, ctx: Settlement, involved: tuple[str, ...], first: str) -> Decision:
        """The 421.3 sequence of choices: name, then lower or agree, in turn order from ``first``."""
        facts = ctx.facts
        number = ctx.number(first)
        holder = first
        label = "the active player" if first == ctx.scenario.active else "the first involved player after the active player"
        ctx.say("421.3", f"{first}, {label}, chooses a number: {describe_count(number)}.")
        for player in involved:
            if player == first:
                continue
            theirs = ctx.number(player)
            if higher(number, theirs):
                ctx.say("421.3", f"{player} chooses a lower number, {theirs:,}: the loop continues that many times plus the fraction that gives {holder} the last word.")
                number, holder = theirs, player
            else:
                ctx.say("421.3", f"{player} agrees to {describe_count(number)}: the loop continues that many times plus the fraction that gives {player} the last word.")
        deviator = holder
        found = self.last_word_point(ctx, involved, number, deviator)
        if found is None:
            # Every other involved player has left the game: nobody else's action can be the last.
            others = [p for p in involved if p != deviator]
            point = facts.own_point(deviator, number)
            ctx.note(
                f"421.3 gives another player the last word, but every other involved player ({listing(others)}) has left the game "
                "by then (CR 800.4a) and performs no more loop actions. Reading taken (FORMAT item 6): no fraction can give "
                f"them the last word, so it is zero: {deviator} stops at their first point {point.describe()}."
            )
            ctx.say("421.3", f"the loop stops {point.describe()}: nobody else involved is left in the game to act, and {deviator}, next to act, does something different.")
        else:
            point = found
            last = facts.last_performed_before(point)
            ctx.say(
                "421.3",
                f"the loop stops {point.describe()}: {last.by if last else 'nobody'} has acted last and {deviator}, next to act, does something different.",
            )
        own = facts.deviation_point(deviator)
        if own is not None and not point.unbounded and facts.before(own, point):
            ctx.note(
                f"421.3 fixes the fraction by who has the last word, so the loop runs past the point {deviator} "
                f"announced ({own.describe()})."
            )
        for player in involved:
            intent = ctx.scenario.intent(player)
            if intent.step is not None:
                ctx.note(f"421.3 has players choose whole numbers; {player}'s partial point is read as {intent.after:,} and the fraction is fixed by the rule.")
        return Decision(Result.SHORTCUT, point, deviator)

    def last_word_point(self, ctx: Settlement, involved: tuple[str, ...], number: Count, deviator: str) -> CutPoint | None:
        """The first choice point of ``deviator`` after ``number`` iterations at which another
        involved player's loop action was the last one performed ("the last word"); None when
        every other involved player has left the game by then (FORMAT item 6: a player who left
        performs no more loop actions, so nobody else can have the last word).

        Looking back from a candidate point, the last step at which any involved player made a
        loop choice must include someone other than the deviator.  Such a point exists within two
        iterations whenever another involved player has a choice, so the scan is bounded.
        """
        facts = ctx.facts
        choosers: dict[int, set[str]] = {}
        for p in involved:
            for i in self.choice_steps(ctx, p):
                choosers.setdefault(i, set()).add(p)
        # An unbounded number is as good as any number past the start: two iterations in, the
        # steps before each point are those of a whole iteration.
        start = CutPoint(2 if number is UNBOUNDED else number, 0)
        # A player who has left the game performs no more loop actions (FORMAT item 6): their
        # choices no longer give them the last word.  Far enough out (an unbounded number),
        # everyone who ever leaves has left.
        window = CutPoint(UNBOUNDED) if number is UNBOUNDED else CutPoint(number + 2, 0)
        unbounded = number is UNBOUNDED
        until = acting_until(facts.eliminations_until(window), ever=unbounded)
        for point in facts.points_from(start, 2 * facts.size):
            if deviator not in choosers.get(point.steps, ()):
                continue
            # Who made the last loop choice performed before this point (nobody at the start).
            previous: set[str] = set()
            if not until:  # nobody leaves: the last choice step before the point
                previous = next((choosers[k] for k in facts.steps_before(point) if k in choosers), previous)
            else:
                at = facts.position(point)
                for back, k in enumerate(facts.steps_before(point), 1):
                    there = {p for p in choosers.get(k, ()) if acting(until, p, at - back)}
                    if there:
                        previous = there
                        break
            if previous - {deviator}:
                return CutPoint(UNBOUNDED, point.steps) if unbounded else point
        if all(p in until for p in involved if p != deviator):
            return None  # every other involved player has left: nobody else's action can be the last
        raise AssertionError("a dependent loop always gives some player the last word")

    def independent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """421.5 (2004): the active player names; the nonactive player agrees or goes higher."""
        players = ctx.scenario.players
        if len(players) != 2:
            return self.unspecified(
                ctx,
                "421.5",
                f"421.5 of {self.name} speaks of \u201cthe active player\u201d and \u201cthe nonactive player\u201d "
                f"of a two-player game; here the game has {len(players)} players",
            )
        active = ctx.scenario.active
        other = next(p for p in players if p != active)
        number = ctx.number(active)
        ctx.say("421.5", f"{ctx.who(active)} chooses a number: {describe_count(number)}.")
        theirs = ctx.number(other)
        counts: dict[str, Count] = {active: number}
        if higher(theirs, number):
            ctx.say("421.5", f"{other} chooses a higher number for their own actions: {describe_count(theirs)}.")
            counts[other] = theirs
            ctx.note(
                f"421.5 of {self.name} does not say whose actions the higher number governs. Reading taken: the "
                f"nonactive player's own set runs {describe_count(theirs)} times; the active player's runs the number "
                "she chose (she can't be made to act more often)."
            )
        else:
            ctx.say("421.5", f"{other} agrees to {describe_count(number)}: the rule allows only agreeing or a higher number.")
            counts[other] = number
            if theirs != number:
                ctx.note(
                    f"{other} wanted {describe_count(theirs)}, but 421.5 of {self.name} lets the nonactive player only "
                    "agree or choose a higher number; the reading taken is that the agreed number binds their own actions too."
                )
        return Decision(Result.SHORTCUT, counts=_in_order(counts, ctx.scenario.players))

    def judge_needed(self, ctx: Settlement, decision: Decision) -> bool:
        return False


    def _outside_independent(self, ctx: Settlement, involved: tuple[str, ...], decision: Decision) -> Decision:
        """421.5 gives each set its number; a player outside the sets doesn't change them."""
        facts = ctx.facts
        # a player who has left the game before their point doesn't act (FORMAT item 6)
        run = facts.sets_run(decision.counts) if decision.counts is not None and facts.sets_by_engine else None
        left = {e.player: e.key for e in run.eliminations} if run is not None else {}
        for player in facts.turn_order:
            point = facts.deviation_point(player)
            if point is not None and player in left and (point.unbounded or left[player] <= facts.key(point)):
                continue
            if player not in involved and point is not None:
                ctx.note(
                    f"{player} means to act {point.describe()}, but 421.5 gives each set of actions its own number "
                    "and says nothing of players outside the sets. Reading taken: the sets run their numbers; "
                    f"{player} acts when they get priority, without ending the others' actions."
                )
        return decision

    def _outside_players(self, ctx: Settlement, involved: tuple[str, ...], decision: Decision, rule: str) -> Decision:
        """Players outside a multiplayer 421.3 loop who act first (the rule is silent on them)."""
        facts = ctx.facts
        outsiders = [p for p in facts.turn_order if p not in involved]
        stops = self.intervening(ctx, outsiders, need_means=False)
        if not stops:
            return decision
        first, ties = earliest(stops, facts, facts.turn_order)
        if decision.point is not None and not facts.before(first.point, decision.point):
            return decision
        ctx.note(
            f"{rule} does not mention players outside the loop. Reading taken: as 421.2 says, another player "
            "may intervene, and the loop stops there."
        )
        ctx.say("421.2", f"{first.player} intervenes {first.point.describe()}, before the loop reaches that number.")
        self.note_ties(ctx, first, ties, _FIRST_NAMER)
        return Decision(Result.SHORTCUT, first.point, first.player)


class Cr2005(Cr2004):
    """CR 421 as rewritten for multiplayer games on 2005-08-01 (in force until 2008-09-30).

    Amends the 2004 text when the multiplayer rules were merged into the Comprehensive Rules:

    * 421.2: "until *another* player intervenes";
    * 421.3: "the first player (or the first involved player after the active player in turn
      order)" names the number; "extended to all applicable players" for three or more; a lower
      number still gives "the active player" the last word (a slip the 2008 text corrected to
      "the first player");
    * 421.4: still "(See rule 102.6.)", though the draw rule had become 102.4b (corrected on
      2006-02-01);
    * 421.5: the active player chooses a number and "in APNAP order, the nonactive players can each
      either agree to that number or choose a higher number".

    Like 2004 it has no rule for "[X] unless [Y]" effects.
    """

    key = "cr-2005"
    aliases = ("cr421-2005", "infinity-2005")
    name = "CR 421 (2005)"
    document = "Comprehensive Rules, rule 421 \u201cHandling \u2018Infinite\u2019 Loops\u201d, multiplayer rewrite"
    citation = "Comprehensive Rules effective 2005-08-01 (multiplayer rules merged); the same rules until 2008-09-30"
    effective = "2005-08-01"
    in_force = ("2005-08-01", "2008-09-30")
    rule_ids: ClassVar[tuple[str, ...]] = ("421.1", "421.2", "421.3", "421.4", "421.5")
    sources = (Source("2005-08-01_cr_421.txt"),)
    amends = "cr-2004"
    summary = "Multiplayer rewrite: the first involved player names; independent sets: nonactive players in APNAP order agree or go higher."
    draw_rule = "102.4b"
    two_player_text = False
    #: 421.4 says "(See rule 102.6.)" though the draw rule is 102.4b (until 2006-02-01).
    cites_stale_draw_rule = True
    #: 421.3 gives "the active player" the last word after a lower number (2008: "the first player").
    lower_gives_active_player = True

    def mandatory(self, ctx: Settlement) -> Decision:
        """421.4 still pointed at 102.6, which was no longer the draw rule."""
        decision = super().mandatory(ctx)
        if decision.result is Result.DRAW and self.cites_stale_draw_rule:
            ctx.note(
                "421.4 of 2005-08-01 says \u201c(See rule 102.6.)\u201d, but from that date the draw rule is 102.4b; "
                "the reference was corrected on 2006-02-01. 102.4b is cited."
            )
        return decision

    def dependent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """421.3 (multiplayer): started by the first involved player; extended to all involved players."""
        if len(involved) > 2:
            ctx.note(
                "421.3 \u201cis extended to all applicable players\u201d without saying how. Reading taken: each other "
                "involved player in turn order agrees or chooses a lower number; whoever holds the final, lowest "
                "number does something different at their first action after another player's action was the last."
            )
        decision = self._last_word(ctx, involved, first=involved[0])
        if self.lower_gives_active_player and ctx.scenario.active not in involved and decision.deviates != involved[0]:
            ctx.note(
                "421.3 of 2005 gives the last word after a lower number to \u201cthe active player\u201d, who is not "
                "involved here. Reading taken: the first player, as the 2008 text says."
            )
        return self._outside_players(ctx, involved, decision, "421.3")

    def independent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """421.5 (2005): the active player names; nonactive players in APNAP order agree or go higher."""
        active = ctx.scenario.active
        first = active if active in involved else involved[0]
        if first != active:
            ctx.note(
                f"421.5 of 2005 has \u201cthe active player\u201d choose the number, but {active} takes no part in the "
                f"loop. Reading taken: {first}, the first involved player after the active player, chooses it (as 421.3 says)."
            )
        number = ctx.number(first)
        ctx.say("421.5", f"{ctx.who(first)} chooses a number: {describe_count(number)}.")
        counts: dict[str, Count] = {first: number}
        for player in involved:
            if player == first:
                continue
            theirs = ctx.number(player)
            if higher(theirs, number):
                ctx.say("421.5", f"{player}, in APNAP order, chooses a higher number for their own actions: {describe_count(theirs)}.")
                counts[player] = theirs
            else:
                ctx.say("421.5", f"{player}, in APNAP order, agrees to {describe_count(number)}: the rule allows only agreeing or a higher number.")
                counts[player] = number
                if theirs != number:
                    ctx.note(
                        f"{player} wanted {describe_count(theirs)}, but 421.5 of {self.name} lets nonactive players only agree "
                        "or choose a higher number; the reading taken is that the agreed number binds their own actions too."
                    )
        decision = Decision(Result.SHORTCUT, counts=_in_order(counts, ctx.scenario.players))
        return self._outside_independent(ctx, involved, decision)

class Cr2008(Cr2005):
    """CR 421, final text (2008-10-01 to 2009-07-10): the multiplayer infinity rules.

    Amends the 2005 text:

    * 421.3: a lower number gives "the first player" (no longer "the active player") the last word;
    * 421.4: cites the draw rule by its number, 102.4b;
    * 421.5: the first involved player chooses a number for their own set, and each other player
      chooses one for theirs: "higher, lower, or the same";
    * 421.6 (new): "[X] unless [Y]": nobody can be forced to perform [Y]; if nobody does, the
      loop continues as though [X] were mandatory.
    """

    key = "cr-2008"
    citation = "Comprehensive Rules effective 2008-10-01 (Shards of Alara), the last CR with rule 421"
    aliases = ("cr421-2008", "infinity-2008")
    name = "CR 421 (2008)"
    document = "Comprehensive Rules, rule 421 \u201cHandling \u2018Infinite\u2019 Loops\u201d, final text"
    effective = "2008-10-01"
    in_force = ("2008-10-01", "2009-07-10")
    rule_ids = ("421.1", "421.2", "421.3", "421.4", "421.5", "421.6")
    sources = (Source("2008-10-01_cr_421.txt"),)
    amends = "cr-2005"
    summary = "Final infinity rules: independent sets choose freely; 421.6 'unless' effects can't force a payment."
    draw_rule = "102.4b"
    _unless_optional = False
    cites_stale_draw_rule = False
    lower_gives_active_player = False

    def involved(self, ctx: Settlement) -> tuple[str, ...]:
        """421.6: an "unless" cost nobody must pay is no optional action of the loop."""
        for step in ctx.scenario.steps:
            if step.unless and step.unless.breaks:
                ctx.say(
                    "421.6",
                    f"\u201c{step.does}\u201d: no player can be forced to perform \u201c{step.unless.does}\u201d; "
                    "if nobody does, the loop continues as though the effect were mandatory.",
                )
                break
        return self.sustainers(ctx)

    def mandatory(self, ctx: Settlement) -> Decision:
        """421.4, and 421.6: nobody must pay an "unless" cost, but a player may, ending the loop."""
        facts = ctx.facts
        stops = self.intervening(ctx, facts.turn_order, need_means=True)
        first = earliest(stops, facts, facts.turn_order)[0] if stops else None
        if first is None or not any(s.unless and s.unless.breaks and s.unless.by == first.player for s in ctx.scenario.steps):
            return super().mandatory(ctx)
        ties = earliest(stops, facts, facts.turn_order)[1]
        ctx.say(
            "421.6",
            f"nobody can be forced to pay, but {first.player} chooses to ({ctx.means(first.player)}) "
            f"{first.point.describe()}: the loop runs until then and the payment breaks it.",
        )
        self.note_ties(ctx, first, ties, _FIRST_NAMER)
        return Decision(Result.SHORTCUT, first.point, first.player)

    def independent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """421.5 (2008): each involved player chooses a number for their own set."""
        first = involved[0]
        counts: dict[str, Count] = {}
        for player in involved:
            counts[player] = ctx.number(player)
            how = "chooses a number for their set of actions" if player == first else "then chooses a number for their own set (higher, lower, or the same)"
            ctx.say("421.5", f"{ctx.who(player)} {how}: {describe_count(counts[player])}.")
        ctx.say("421.5", "each set of actions occurs its own number of times.")
        decision = Decision(Result.SHORTCUT, counts=_in_order(counts, ctx.scenario.players))
        return self._outside_independent(ctx, involved, decision)


def _in_order(counts: Mapping[str, Count], players: Iterable[str]) -> dict[str, Count]:
    return {p: counts[p] for p in players if p in counts}
