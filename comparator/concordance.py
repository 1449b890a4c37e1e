"""``loopcompare rulesets --trace RULE``: one subrule followed through every text of the
Comprehensive Rules and every renumbering, with its dates and the words changed at each step.

The loop rule's subrules are aligned by their place in the rule (``.4`` of 421, 713, 729 and 732
alike; rule 421 was replaced by rule 713, and each of its subrules is followed into the one at
the same place), as the history aligns them.  The texts are the shipped ones (the Comprehensive
Rules' texts of the rule, a text of one subrule read over the text before it); the numbers and
their dates are :data:`rulesets.history.RULE_NUMBERS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

from loopcompare.rulesets import history, texts
from loopcompare.rulesets.citations import citation

from .amendments import word_runs

_FILE = re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})_cr_(?P<number>\d{3})(?P<part>\.\d+[a-z]?)?\.txt$")
_ID = re.compile(r"^(?:CR\s*)?(?P<number>\d{3})\.(?P<tail>\d+[a-z]?)$")


class TraceError(ValueError):
    """A rule id that can't be followed: the message says why."""


@dataclass(frozen=True)
class Step:
    """One step of a subrule's history: a new text, or a renumbering."""

    date: str
    rule: str
    kind: str
    """"text" (a shipped text of that day) or "renumbering" (the number moved, the words did not)."""
    what: str
    """What happened, in words: the change and its cause."""
    words: tuple[tuple[str, str], ...]
    """The word-level difference from the step before (``=``, ``-``, ``+`` runs); empty when unchanged."""
    source: str
    """The text quoted at this step, as a citation names it."""

    @property
    def changed(self) -> int:
        """How many words were removed or added at this step."""
        return sum(len(t.split()) for op, t in self.words if op != "=")


def _texts() -> list[tuple[str, str, dict[str, str], str]]:
    """The shipped texts of the loop rule, oldest first: (date, number, {place: words}, source),
    a text of one subrule read over the text before it."""
    names = sorted(e.name for e in resources.files("loopcompare.rulesets").joinpath("texts").iterdir() if _FILE.match(e.name))
    out: list[tuple[str, str, dict[str, str], str]] = []
    for name in names:
        match = _FILE.match(name)
        assert match is not None
        number = match["number"]
        rules = {key.partition(".")[2]: text for key, text in texts.document(name).rules if key.startswith(number + ".")}
        if match["part"] and out:
            rules = {**out[-1][2], **rules}
        record = citation(name)
        source = f"the text of {match['date']}" + (f" ({record.archive.words()})" if record else "")
        out.append((match["date"], number, rules, source))
    return out


def _renumber(text: str, old: str, new: str) -> str:
    """A subrule's words with the rule's own number moved (``713.3`` in its text becomes ``720.3``)."""
    return re.sub(rf"\b{old}\.(?=\d)", f"{new}.", text) if old and old != new else text


def trace(rule_id: str) -> tuple[str, list[Step]]:
    """The steps of one subrule, given as any era numbers it ("729.4", "421.4", "CR 713.2a")."""
    match = _ID.match(rule_id.strip())
    numbers = {"421", *history.SHORTCUT_RULE_SEQUENCE}
    if not match or match["number"] not in numbers:
        raise TraceError(
            f"{rule_id!r} is not a subrule of the Comprehensive Rules' loop rule; give one as any era numbers it, "
            f"e.g. 729.4, 713.2a or 421.3 (the rule's numbers: {', '.join(dict.fromkeys(['421', *history.SHORTCUT_RULE_SEQUENCE]))})"
        )
    place = match["tail"]
    found = _texts()
    if not any(place in rules for _, _, rules, _ in found):
        raise TraceError(f"no text of the loop rule has a subrule {place!r} (as {rule_id}): nothing to follow")
    Shipped = tuple[str, str, dict[str, str], str]
    events: list[tuple[str, int, Shipped | history.RuleNumber]] = [(t[0], 0, t) for t in found]
    events += [(n.since, 1, n) for n in history.RULE_NUMBERS]
    steps: list[Step] = []
    words, number, source = "", "", ""
    for date, _, event in sorted(events, key=lambda e: (e[0], e[1])):
        if isinstance(event, history.RuleNumber):
            if not steps or event.number == number:
                continue  # (the first text, and the rewrite of 2009-07-11, come with their texts)
            what = f"{number}.{place} renumbered {event.number}.{place}: {event.cause}" + (f" ({event.caveat})" if event.caveat else "")
            steps.append(Step(date, f"{event.number}.{place}", "renumbering", what + "; the words are the same", (), source))
            number = event.number
            continue
        text_number: str = event[1]
        rules: dict[str, str] = event[2]
        text_source: str = event[3]
        new = rules.get(place, "")
        old = _renumber(words, number, text_number)
        replaced = number == "421" and text_number != "421"
        label = f"{text_number}.{place}"
        if not steps:
            step = Step(date, label, "text", "the first text" if new else "not in this text", (("+", new),) if new else (), text_source)
        elif not old and not new:
            step = Step(date, label, "text", "not in this text", (), text_source)
        elif old == new:
            step = Step(date, label, "text", "the same words" + (f" (rule {number} replaced by rule {text_number})" if replaced else ""), (), text_source)
        elif not old:
            step = Step(date, label, "text", "added", (("+", new),), text_source)
        elif not new:
            step = Step(date, label, "text", "removed", (("-", old),), text_source)
        else:
            why = f"rule {number} replaced by rule {text_number}: the subrule at its place" if replaced else "changed"
            step = Step(date, label, "text", why, word_runs(old, new), text_source)
        steps.append(step)
        words, number, source = new, text_number, text_source
    return place, steps


def render(rule_id: str) -> str:
    """The trace as text: a line a step, then the words changed at each step that changed them."""
    place, steps = trace(rule_id)
    out = [
        f"Subrule .{place} of the Comprehensive Rules' loop rule, followed through every shipped text and every renumbering "
        f"(asked as {rule_id.strip()}). Removed words are shown [-like this-], added words {{+like this+}}.",
        "",
    ]
    width = max(len(s.rule) for s in steps)
    for s in steps:
        count = f" ({s.changed} words)" if s.kind == "text" and s.words and s.what not in ("the first text", "added") else ""
        out.append(f"{s.date}  {s.rule.ljust(width)}  {s.what}{count}")
        if s.words:
            runs = " ".join(t if op == "=" else f"[-{t}-]" if op == "-" else f"{{+{t}+}}" for op, t in s.words if t)
            out.append(f"{'':10}  {'':{width}}  {runs}")
        if s.kind == "text":
            out.append(f"{'':10}  {'':{width}}  from {s.source}")
    return "\n".join(out) + "\n"
