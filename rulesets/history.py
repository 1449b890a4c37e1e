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

from .base import Ruleset, Source
# The calendar of rule numbers, re-exported: the history of the rules speaks of it.
from .numbers import (
    RuleNumber as RuleNumber,
    RULE_NUMBERS as RULE_NUMBERS,
    SHORTCUT_RULE_NUMBERS as SHORTCUT_RULE_NUMBERS,
    SHORTCUT_RULE_SEQUENCE as SHORTCUT_RULE_SEQUENCE,
    Numbering as Numbering,
    numbering_on as numbering_on,
    number_on as number_on,
    number_today as number_today,
    since_today as since_today,
    numbers_in_words as numbers_in_words,
    numbers_table as numbers_table,
    renumbered as renumbered,
)

#: The earliest day any modelled text was in force (the Rules Summary's G.21 rulings).
EARLIEST = "1998-03-31"

UNKNOWN = "unknown"

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
            attrs = {
                "__doc__": f"{type(ruleset).__name__} in the words of {wording.start}.",
                "__module__": type(ruleset).__module__,
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
    chosen = [worded_on(r, date).on_day(date) for r in chosen]
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
