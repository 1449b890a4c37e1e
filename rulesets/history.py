"""The rules' history as data: which text was in force on a day, lines of descent, rule numbers.

Dates live here and on each ruleset (``in_force``), never in ``if year > ...`` branches.  Where
the sources do not give a date (the day the MTR's "choices" paragraph was added), the period is
recorded as ``"unknown"`` and every answer that depends on it says so.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass

from .base import Ruleset

#: The earliest day any modelled text was in force (the Rules Summary's G.21 rulings).
EARLIEST = "1998-03-31"

UNKNOWN = "unknown"

#: The Comprehensive Rules' loop rule over time: (first day, rule number), where the sources give
#: the day.  421 "Handling 'Infinite' Loops" until the Magic 2010 rewrite; then "Taking
#: Shortcuts", renumbered with the CR's section 7 as new rules were inserted before it.
SHORTCUT_RULE_NUMBERS: tuple[tuple[str, str], ...] = (
    ("1999-04-23", "421"),
    ("2009-07-11", "713"),
    ("2018-07-13", "720"),
    ("2024-06-07", "729"),
    ("2025-04-04", "730"),
    ("2025-07-25", "731"),
)

#: Every number the shortcut rule has had, in order (docs/DOMAIN.md); the sources date only some.
SHORTCUT_RULE_SEQUENCE = (
    "713", "714", "715", "716", "718", "719", "720", "721", "722", "724", "725", "726",
    "727", "728", "727", "728", "729", "730", "731",
)


def number_on(date: str) -> str:
    """The CR's loop rule number on ``date`` as far as the sources date it ("713", "729", ...).

    Between two dated numbers the rule may have had an undated number in between; the answer is
    then the last dated one, which is what a citation of that period's text uses here.
    """
    number = ""
    for start, value in SHORTCUT_RULE_NUMBERS:
        if start <= date:
            number = value
    return number


def number_today() -> str:
    """The loop rule's number in the newest Comprehensive Rules in the sources."""
    return SHORTCUT_RULE_NUMBERS[-1][1]


def renumbered(rule_id: str, to: str | None = None) -> str:
    """A CR rule id with the loop rule's number replaced (``"713.3"`` -> ``"731.3"``).

    Rule 421 was rewritten, not renumbered: its ids are returned unchanged.
    """
    head, _, tail = rule_id.partition(".")
    if head in SHORTCUT_RULE_SEQUENCE and tail:
        return f"{to or number_today()}.{tail}"
    return rule_id


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
    """True/False when the sources settle whether the text was in force on ``date``; None if not."""
    start, end = ruleset.in_force
    if start == UNKNOWN:
        if date <= ruleset.not_before:
            return False
        return None if end is None or date <= end else False
    if date < start:
        return False
    if end is None:
        return True
    if end == UNKNOWN:
        return True if date == start else None
    return date <= end


@dataclass(frozen=True)
class AsOf:
    """The rulesets in force on a day, and what the sources leave open about that day."""

    date: str
    rulesets: tuple[Ruleset, ...]
    notes: tuple[str, ...]


def as_of(rulesets, date: str) -> AsOf:
    """The CR (and the MTR, where one existed) in force on ``date``.

    Where the sources don't date a change, every text that may have been in force is returned,
    with a note.
    """
    date = check_date(date)
    chosen: list[Ruleset] = []
    notes: list[str] = []
    for line in lines(rulesets):
        certain = [r for r in line if in_force_on(r, date) is True]
        maybe = [r for r in line if in_force_on(r, date) is None]
        if maybe and len(certain + maybe) > 1:
            names = ", ".join(r.key for r in certain + maybe)
            notes.append(
                f"The sources don't say which of {names} was in force on {date}: the date of the change "
                "between them is unknown, so each is applied."
            )
        chosen += certain + maybe
    return AsOf(date, tuple(chosen), tuple(notes))


def lines(rulesets) -> list[list[Ruleset]]:
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


def predecessor(rulesets, ruleset: Ruleset) -> Ruleset | None:
    """The ruleset this one amends, if it is registered."""
    return next((r for r in rulesets if r.key == ruleset.amends), None)
