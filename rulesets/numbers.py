"""The calendar of the loop rule's numbers: which number the Comprehensive Rules' loop rule had on a
day, release by release, and a rule id renumbered to another day's number.

On its own below the rulesets (the base class and the era classes read today's number; the
history of the rules reads the whole calendar), importing nothing of loopcompare's.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

@dataclass(frozen=True)
class RuleNumber:
    """One number of the CR's loop rule: the first archived release that has it, and what moved it."""

    since: str
    number: str
    cause: str
    #: Where the first release is uncertain (an unarchived release between two archived ones).
    caveat: str = ""


#: Every number the Comprehensive Rules' loop rule has had, with the first archived release that
#: has it and what moved it (read from the section 7 headings of each archived release: GitHub
#: ``xremming/rulesraker`` ``archive/txt/`` and ``pit142857/mtg-cr`` ``Comprehensive Rules/``).
#: 421 "Handling 'Infinite' Loops" until the Magic 2010 rewrite; then "Taking Shortcuts",
#: renumbered with the CR's section 7 as rules were inserted before it or removed.  "Today" is the
#: last entry: add a line here when a release renumbers the rule (``loopcompare sources`` reads
#: the release and says so).
RULE_NUMBERS: tuple[RuleNumber, ...] = (
    RuleNumber("1999-04-23", "421", "the first Comprehensive Rules (the infinity rules; before, the 1998 Rules Summary G.21)"),
    RuleNumber("2009-07-11", "713", "the Magic 2010 rewrite: 421 replaced by 713 \u201cTaking Shortcuts\u201d"),
    RuleNumber("2010-04-23", "714", "710 Leveler Cards inserted"),
    RuleNumber("2011-05-01", "715", "Restarting the Game inserted"),
    RuleNumber("2011-09-30", "716", "711 Double-Faced Cards inserted"),
    RuleNumber(
        "2016-07-22", "718", "712 Meld Cards and 713 Checklist Cards inserted together (no release has 717)",
        "the release of 2016-04-08 still has 716",
    ),
    RuleNumber("2016-08-26", "719", "The Monarch inserted"),
    RuleNumber("2018-04-27", "720", "714 Saga Cards inserted (Dominaria)"),
    RuleNumber("2019-10-04", "721", "Adventurer Cards inserted"),
    RuleNumber("2020-04-17", "722", "Merging with Permanents inserted"),
    RuleNumber("2021-07-12", "724", "706 Rolling a Die and Class Cards inserted together (no release has 723)"),
    RuleNumber(
        "2021-11-15", "725", "Day and Night inserted",
        "it came with the set of 2021-09, whose release is not archived, so 725 may be from then",
    ),
    RuleNumber("2022-06-10", "726", "Initiative inserted"),
    RuleNumber("2022-10-07", "727", "Attraction Cards inserted"),
    RuleNumber("2022-11-18", "728", "Prototype Cards inserted"),
    RuleNumber("2023-04-14", "727", "713 Meld Cards removed: meld folded into 712 Double-Faced Cards"),
    RuleNumber("2024-02-06", "728", "719 Case Cards inserted"),
    RuleNumber("2024-03-08", "729", "725 Rad Counters inserted (Fallout)"),
    RuleNumber("2025-04-04", "730", "Omen Cards inserted"),
    RuleNumber("2025-07-25", "731", "Station Cards inserted"),
    RuleNumber("2026-04-17", "732", "722 Preparation Cards inserted"),
)

#: The same, as (first day, rule number) pairs.
SHORTCUT_RULE_NUMBERS: tuple[tuple[str, str], ...] = tuple((r.since, r.number) for r in RULE_NUMBERS)

#: Every number the shortcut rule has had, in order (421 was rewritten, not renumbered).
SHORTCUT_RULE_SEQUENCE = tuple(r.number for r in RULE_NUMBERS if r.number != "421")


@dataclass(frozen=True)
class Numbering:
    """The loop rule's number on a day, as far as the sources date it.

    ``number`` is the last dated number on or before the day ("" before the first CR) and
    ``since`` its date.  ``certain`` is False when the next dated number is not the next one in
    :data:`SHORTCUT_RULE_SEQUENCE`: the rule was renumbered in between on days the sources don't
    give (``between``), so on this day it may already have had one of those numbers.
    """

    date: str
    number: str
    since: str
    certain: bool
    next: tuple[str, str] | None = None
    between: tuple[str, ...] = ()

    def describe(self) -> str:
        """The answer in words, saying what the sources leave open."""
        if not self.number:
            return f"On {self.date} there was no Comprehensive Rules loop rule yet"
        if self.certain:
            return f"On {self.date} the loop rule was {self.number} (since {self.since})"
        assert self.next is not None
        return (
            f"On {self.date} the loop rule was {self.number} or a later number: {self.number} from {self.since}, "
            f"{self.next[1]} from {self.next[0]}, and {', '.join(self.between)} in between on days the sources don't give"
        )


def _positions() -> list[int]:
    """Each dated number's place in the sequence (421, before it, is -1)."""
    out, at = [], -1
    for _, number in SHORTCUT_RULE_NUMBERS:
        if number in SHORTCUT_RULE_SEQUENCE:
            at = SHORTCUT_RULE_SEQUENCE.index(number, at + 1)
            out.append(at)
        else:
            out.append(-1)
    return out


def numbering_on(date: str) -> Numbering:
    """The loop rule's number on ``date``, and whether the sources settle it (see :class:`Numbering`)."""
    dated = [i for i, (start, _) in enumerate(SHORTCUT_RULE_NUMBERS) if start <= date]
    if not dated:
        return Numbering(date, "", "", True)
    i = dated[-1]
    since, number = SHORTCUT_RULE_NUMBERS[i]
    if i + 1 == len(SHORTCUT_RULE_NUMBERS) or date == since:
        return Numbering(date, number, since, True)
    positions = _positions()
    between = SHORTCUT_RULE_SEQUENCE[positions[i] + 1 : positions[i + 1]]
    return Numbering(date, number, since, not between, SHORTCUT_RULE_NUMBERS[i + 1], tuple(between))


def number_on(date: str) -> str:
    """The CR's loop rule number on ``date`` as far as the sources date it ("713", "729", ...).

    Between two dated numbers the rule may have had an undated number in between; the answer is
    then the last dated one (:func:`numbering_on` says whether it is certain).
    """
    return numbering_on(date).number


def number_today() -> str:
    """The loop rule's number in the newest Comprehensive Rules in the sources."""
    return SHORTCUT_RULE_NUMBERS[-1][1]


def since_today() -> str:
    """The first day of today's number (the newest renumbering in the sources)."""
    return SHORTCUT_RULE_NUMBERS[-1][0]


def numbers_in_words() -> str:
    """The loop rule's numbers over time, each from the first archived release that has it."""
    parts = []
    for start, number in SHORTCUT_RULE_NUMBERS:
        gap = numbering_on(_next_day(start))
        if not gap.certain:
            parts.append(f"{number} from {start} (then {', '.join(gap.between)} on days the sources don't give)")
        else:
            parts.append(f"{number} from {start}")
    return "; ".join(parts) + f". Today it is {number_today()}."


def numbers_table() -> list[list[str]]:
    """The loop rule's numbers as rows: number, first release, what moved it (and any caveat)."""
    rows = []
    for entry in RULE_NUMBERS:
        cause = entry.cause + (f" ({entry.caveat})" if entry.caveat else "")
        rows.append([entry.number, entry.since, cause])
    return rows


def _next_day(date: str) -> str:
    return (_dt.date.fromisoformat(date) + _dt.timedelta(days=1)).isoformat()


def renumbered(rule_id: str, to: str | None = None) -> str:
    """A CR rule id with the loop rule's number replaced (``"713.3"`` -> ``"732.3"``).

    Rule 421 was rewritten, not renumbered: its ids are returned unchanged.
    """
    head, _, tail = rule_id.partition(".")
    if head in SHORTCUT_RULE_SEQUENCE and tail:
        return f"{to or number_today()}.{tail}"
    return rule_id
