"""``loopcompare rulesets --diff KEY``: a ruleset's text against its predecessor's, subrule by subrule.

Above :mod:`.amendments` (which aligns two texts, as the history does) and :mod:`.textdiff`
(which compares words): the history never needs this page, so neither imports it.
"""

from __future__ import annotations

from collections.abc import Iterable

from loopcompare.rulesets.base import Ruleset
from loopcompare.rulesets.history import predecessor

from .amendments import own_text, text_change


def _title(ruleset: Ruleset) -> str:
    return ruleset.name if ruleset.effective in ruleset.name else f"{ruleset.name}, text of {ruleset.effective}"


def _text(ruleset: Ruleset) -> str:
    """A ruleset's main text, one rule a paragraph; the MTR's paragraphs without their numbers
    (a paragraph inserted would otherwise renumber, and so "change", all that follow)."""
    doc = ruleset.sources[0].load()
    return "\n\n".join(text if key.startswith("MTR") else f"{key} {text}" for key, text in doc.rules)


def _runs(runs: Iterable[tuple[str, str]]) -> str:
    """Word runs (``=``, ``-``, ``+``) as text, wdiff-style."""
    out = [t if op == "=" else f"[-{t}-]" if op == "-" else f"{{+{t}+}}" for op, t in runs if t]
    return " ".join(out)


def ruleset_diff(rulesets: Iterable[Ruleset], ruleset: Ruleset) -> str:
    """A ruleset's text against its predecessor's, subrule by subrule as the history aligns them
    (each subrule against the one at the same place in the rule, so a renumbering alone is no
    change and no difference runs across two subrules), with the one-line summary of the change."""
    before = predecessor(rulesets, ruleset)
    head = [f"# {ruleset.key}: {_title(ruleset)}", "", f"What changed: {ruleset.summary}", ""]
    if before is None:
        head += [f"{ruleset.key} has no predecessor among the rulesets: the whole text is new.", "", _text(ruleset)]
        return "\n".join(head).rstrip("\n") + "\n"
    old, new = own_text(before), own_text(ruleset)
    change = text_change(old, new)
    head += [
        f"Against {before.key}: {_title(before)}. Each subrule against the one at its place in the rule; "
        "removed words are shown [-like this-], added words {+like this+}.",
        "",
        change.sentence,
        "",
    ]
    if change.verdict == "replaced":
        head += [f"Old ({before.key}):", "", *(f"{k} {t}\n" for k, t in old.rules), f"New ({ruleset.key}):", "", *(f"{k} {t}\n" for k, t in new.rules)]
        return "\n".join(head).rstrip("\n") + "\n"
    previous = dict(old.rules)
    for rule in change.rules:
        if rule.status == "changed":
            label = rule.after if rule.before == rule.after else f"{rule.after} (was {rule.before})"
            head += [f"{label} {_runs(rule.words)}", ""]
        elif rule.status == "added":
            head += [f"{rule.after} (added) {_runs(rule.words)}", ""]
        else:
            words = rule.words or (("-", previous.get(rule.before or "", "")),)
            head += [f"{rule.before} (removed) {_runs(words)}", ""]
    if change.renumbered:
        head += ["Renumbered only: " + ", ".join(f"{a} -> {b}" for a, b in change.renumbered) + ".", ""]
    if change.unchanged:
        head += ["Unchanged: " + ", ".join(change.unchanged) + ".", ""]
    return "\n".join(head).rstrip("\n") + "\n"
