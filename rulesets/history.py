"""The rules' history as data: which text was in force on a day, lines of descent, rule numbers.

Dates live here and on each ruleset (``in_force``), never in ``if year > ...`` branches.  Where
the sources do not give a date (the day the MTR's "choices" paragraph was added), the period is
recorded as ``"unknown"``, bounded where the sources bound it (``not_before``, ``attested``,
``superseded_by``), and every answer that depends on it says so.  The loop rule's number is dated
release by release in :data:`RULE_NUMBERS`; should a dated number skip one of
:data:`SHORTCUT_RULE_SEQUENCE`, the number between them is not guessed.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Collection, Iterable

from .base import Ruleset

#: The earliest day any modelled text was in force (the Rules Summary's G.21 rulings).
EARLIEST = "1998-03-31"

UNKNOWN = "unknown"

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


_SHORTCUT_TEXT = re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})_cr_(?P<number>\d{3})\.txt$")


@lru_cache(maxsize=1)
def shortcut_texts() -> tuple[tuple[str, str, str], ...]:
    """The archived texts of the whole loop rule 713 and later: (date, number, file name), oldest first.

    Files named ``DATE_cr_NNN.txt`` in ``rulesets/texts/`` (a file holding one subrule, such as
    ``2009-09-04_cr_713.3.txt``, is not a whole text).
    """
    out = []
    for entry in resources.files("loopcompare.rulesets").joinpath("texts").iterdir():
        match = _SHORTCUT_TEXT.match(entry.name)
        if match and match["number"] in SHORTCUT_RULE_SEQUENCE:
            out.append((match["date"], match["number"], entry.name))
    return tuple(sorted(out))


def text_numbered(number: str, date: str) -> tuple[str, str] | None:
    """The newest archived text of the loop rule numbered ``number`` and dated on or before ``date``."""
    found = [(d, name) for d, n, name in shortcut_texts() if n == number and d <= date]
    return found[-1] if found else None


def check_date(text: str) -> str:
    """Validate an ISO date for "rules as of"; ValueError with a message a person can act on."""
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            raise ValueError(text)
        day = _dt.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a date; write it as YYYY-MM-DD, e.g. 2006-03-01") from None
    if day.isoformat() < EARLIEST:
        raise ValueError(
            f"{text} is before {EARLIEST}, the earliest rules modelled (the Rules Summary's G.21 "
            "rulings); there is nothing to apply"
        )
    return day.isoformat()


def in_force_on(ruleset: Ruleset, date: str) -> bool | None:
    """True/False when the sources settle whether the text was in force on ``date``; None if not.

    An unknown first or last day is bounded where the sources bound it: not in force on or before
    ``not_before``, in force (if not yet replaced) from ``attested``, replaced by ``superseded_by``.
    """
    start, end = ruleset.in_force
    if start == UNKNOWN:
        if ruleset.not_before and date <= ruleset.not_before:
            return False
        begun = True if ruleset.attested and date >= ruleset.attested else None
    else:
        if date < start:
            return False
        begun = True
    if end is None:
        ended: bool | None = False
    elif end == UNKNOWN:
        if ruleset.superseded_by and date >= ruleset.superseded_by:
            return False
        ended = False if date == start else None
    else:
        if date > end:
            return False
        ended = False
    return True if begun is True and ended is False else None


def start_in_words(ruleset: Ruleset) -> str:
    """The first day a text was in force, in words: a date, or the interval the sources give."""
    start = ruleset.in_force[0]
    if start != UNKNOWN:
        return start
    if ruleset.not_before and ruleset.attested:
        return f"a day after {ruleset.not_before}, by {ruleset.attested}"
    if ruleset.not_before:
        return f"a day after {ruleset.not_before}"
    if ruleset.attested:
        return f"a day by {ruleset.attested}"
    return "an unknown date"


def end_in_words(ruleset: Ruleset) -> str | None:
    """The last day a text was in force, in words (None: still in force)."""
    end = ruleset.in_force[1]
    if end is None or end != UNKNOWN:
        return end
    if ruleset.superseded_by:
        return f"a day before {ruleset.superseded_by}"
    return "an unknown date"


def in_force_today(ruleset: Ruleset) -> str:
    """ "in force", and for a CR loop rule renumbered since its text, the number it has today."""
    number = ruleset.number
    if is_cr_loop_rule(ruleset) and number != number_today():
        return f"in force (rule {number_today()} since {since_today()})"
    return "in force"


def is_cr_loop_rule(ruleset: Ruleset) -> bool:
    """True for a Comprehensive Rules "Taking Shortcuts" text (its rules carry the loop rule's number)."""
    number = ruleset.number
    return number in SHORTCUT_RULE_SEQUENCE and any(r.startswith(number + ".") for r in ruleset.rule_ids)


def period_in_words(ruleset: Ruleset) -> str:
    """A text's period in force: "2008-10-01 to 2009-07-10", "since a day after 2018-07-13, by 2025-11-10"."""
    start, end = start_in_words(ruleset), end_in_words(ruleset)
    return f"since {start}" if end is None else f"{start} to {end}"


@dataclass(frozen=True)
class Wording:
    """An earlier wording of a ruleset's text, quoted on the days it was in force: the rules the
    ruleset applies are the same, only the words quoted are that release's."""

    key: str
    start: str
    end: str
    filename: str
    name: str
    why: str


#: The wordings shipped for days before a ruleset's own text: the first Comprehensive Rules
#: (1999-04-23) until the first archived release that rewords the rule (2001-07-23 rewrote
#: 421.3's example as the 2003 text has it; 1999-11-01 changed only how the archive writes the
#: {0} symbol).  From 2001-07-23 the 2003 text is quoted (its example; 421.1 reached its 2003
#: words by 2003-07-01).
EARLIER_WORDINGS: tuple[Wording, ...] = (
    Wording(
        "cr-2004", "1999-04-23", "2001-07-22", "1999-04-23_cr_421.txt", "CR 421 (1999)",
        "the words of the first Comprehensive Rules (1999-04-23), in force until the release of 2001-07-23 "
        "reworded 421.3's example; the rules are those of the 2003 text",
    ),
)


def worded_on(ruleset: Ruleset, date: str) -> Ruleset:
    """``ruleset`` quoting the wording in force on ``date`` (:data:`EARLIER_WORDINGS`), or itself."""
    for wording in EARLIER_WORDINGS:
        if wording.key == ruleset.key and wording.start <= date <= wording.end:
            from .base import Source

            attrs = {
                "__doc__": f"{type(ruleset).__name__} in the words of {wording.start}.",
                "name": wording.name,
                "effective": wording.start,
                "sources": (Source(wording.filename),),
                "citation": f"Comprehensive Rules effective {wording.start}",
                "renumbering": f"Quoted in {wording.why}.",
            }
            made: type[Ruleset] = type(type(ruleset).__name__, (type(ruleset),), attrs)
            return made()
    return ruleset


@dataclass(frozen=True)
class AsOf:
    """The rulesets in force on a day, and what the sources leave open about that day."""

    date: str
    rulesets: tuple[Ruleset, ...]
    notes: tuple[str, ...]


def as_of(rulesets: Collection[Ruleset], date: str) -> AsOf:
    """The CR (and the MTR, where one existed) in force on ``date``, numbered as on that day.

    Where the sources don't date a change, every text that may have been in force is returned,
    with a note.  A text still in force after its rule was renumbered is returned as the document
    of that day numbered it (:meth:`Ruleset.renumbered`), quoting the archived text of that number
    where there is one; where the number on that day is not dated, it keeps its own, with a note.
    """
    date = check_date(date)
    chosen: list[Ruleset] = []
    notes: list[str] = []
    numbering = numbering_on(date)
    for line in lines(rulesets):
        certain = [r for r in line if in_force_on(r, date) is True]
        maybe = [r for r in line if in_force_on(r, date) is None]
        if maybe and len(certain + maybe) > 1:
            names = ", ".join(r.key for r in certain + maybe)
            bounds = [f" ({start_in_words(r)})" for r in certain + maybe if r.in_force[0] == UNKNOWN]
            notes.append(
                f"The sources don't say which of {names} was in force on {date}: the date of the change between "
                f"them is unknown{bounds[0] if bounds else ''}, so each is applied."
            )
        chosen += certain + maybe
    undated: list[str] = []
    for i, ruleset in enumerate(chosen):
        number = ruleset.number
        if number not in SHORTCUT_RULE_SEQUENCE or not numbering.number:
            continue
        if not numbering.certain:
            undated.append(f"{ruleset.key} {number}")
        elif numbering.number != number:
            chosen[i] = ruleset.renumbered(numbering.number, numbering.since, text_numbered(numbering.number, date))
    chosen = [worded_on(r, date) for r in chosen]
    if undated:
        notes.append(
            f"{numbering.describe()}: the number is not guessed, and each text is "
            f"cited as it numbers the rule ({', '.join(undated)})."
        )
    return AsOf(date, tuple(chosen), tuple(notes))


def lines(rulesets: Collection[Ruleset]) -> list[list[Ruleset]]:
    """The rulesets grouped into lines of descent (via ``amends``), each oldest first.

    The built-ins form two lines: the Comprehensive Rules (with the Rules Summary before them)
    and the Tournament Rules.
    """
    by_key = {r.key: r for r in rulesets}
    children: dict[str | None, list[Ruleset]] = {}
    for r in rulesets:
        parent = r.amends if r.amends in by_key else None
        children.setdefault(parent, []).append(r)
    out = []
    for root in children.get(None, []):
        line = [root]
        while children.get(line[-1].key):
            line.append(children[line[-1].key][0])
        out.append(line)
    return out


def predecessor(rulesets: Iterable[Ruleset], ruleset: Ruleset) -> Ruleset | None:
    """The ruleset this one amends, if it is registered."""
    return next((r for r in rulesets if r.key == ruleset.amends), None)
