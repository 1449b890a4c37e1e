"""What changed between two versions of a rules text: a word-level difference."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from loopcompare.rulesets.base import Ruleset
from loopcompare.rulesets.history import predecessor


def words(text: str) -> list[str]:
    """Words and paragraph breaks, in order."""
    return re.findall(r"\n\n|[^\s]+", text)


def word_diff(old: str, new: str) -> str:
    """The difference as text, wdiff-style: ``[-removed-]`` and ``{+added+}``."""
    a, b = words(old), words(new)
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.extend(a[i1:i2])
            continue
        if op in ("delete", "replace"):
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if op in ("insert", "replace"):
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    text = " ".join(out)
    return re.sub(r" ?\n\n ?", "\n\n", text)


def _title(ruleset: Ruleset) -> str:
    return ruleset.name if ruleset.effective in ruleset.name else f"{ruleset.name}, text of {ruleset.effective}"


def _text(ruleset: Ruleset) -> str:
    """A ruleset's main text, one rule a paragraph; the MTR's paragraphs without their numbers
    (a paragraph inserted would otherwise renumber, and so "change", all that follow)."""
    doc = ruleset.sources[0].load()
    return "\n\n".join(text if key.startswith("MTR") else f"{key} {text}" for key, text in doc.rules)


def ruleset_diff(rulesets: Iterable[Ruleset], ruleset: Ruleset) -> str:
    """A ruleset's text against its predecessor's, with the one-line summary of the change."""
    before = predecessor(rulesets, ruleset)
    new = _text(ruleset)
    head = [f"# {ruleset.key}: {_title(ruleset)}", "", f"What changed: {ruleset.summary}", ""]
    if before is None:
        head += [f"{ruleset.key} has no predecessor among the rulesets: the whole text is new.", "", new]
        return "\n".join(head).rstrip("\n") + "\n"
    old = _text(before)
    head += [
        f"Against {before.key}: {_title(before)}. Removed words are shown [-like this-], added words {{+like this+}}.",
        "",
        word_diff(old, new),
    ]
    return "\n".join(head).rstrip("\n") + "\n"
