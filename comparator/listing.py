"""The list commands' output: the built-in scenarios and the rulesets, as tables for people
(markdown) and as ``--json`` for programs."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from loopcompare.rulesets.history import end_in_words, in_force_today, lines, numbers_in_words, numbers_table, start_in_words

from .controls import json_escaped, visible
from .render import md_table

if TYPE_CHECKING:
    from loopcompare.rulesets import Ruleset

    from .loader import ScenarioFile


def _dump(data: object) -> str:
    return json_escaped(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"


def scenarios_json(found: Sequence[ScenarioFile]) -> str:
    """``loopcompare scenarios --json``: one object per built-in scenario, by name."""
    return _dump(
        [
            {"name": sf.id, "title": sf.scenario.title, "tags": list(sf.scenario.tags), "format": sf.scenario.format, "players": list(sf.scenario.players)}
            for sf in found
        ]
    )


def rulesets_json(rulesets: Sequence[Ruleset]) -> str:
    """``loopcompare rulesets --json``: one object per ruleset, in chronological order."""
    return _dump(
        [
            {
                "key": r.key,
                "name": r.name,
                "aliases": list(r.aliases),
                "effective": r.effective,
                "in_force": list(r.in_force),
                "rules": list(r.rule_ids),
                "source": r.citation,
            }
            for r in rulesets
        ]
    )


def scenarios_markdown(found: Sequence[ScenarioFile]) -> str:
    """``loopcompare scenarios``: a table of the built-in scenarios (name, title, tags)."""
    rows = [[sf.id, sf.scenario.title, ", ".join(sf.scenario.tags)] for sf in found]
    return md_table(["name", "title", "tags"], rows) + "\n"


def rulesets_markdown(rulesets: Sequence[Ruleset]) -> str:
    """``loopcompare rulesets``: a table of the rulesets (key, name, period in force, rules,
    source), their lines of descent, and the CR's loop rule by number."""
    rows = []
    for r in rulesets:
        rules = f"{r.rule_ids[0]}\u2013{r.rule_ids[-1]}" if len(r.rule_ids) > 1 else r.rule_ids[0]
        rows.append([r.key, r.name, start_in_words(r), end_in_words(r) or in_force_today(r), rules, r.citation])
    text = [md_table(["key", "name", "in force from", "to", "rules", "source"], rows), ""]
    text += ["line: " + " -> ".join(r.key for r in line) for line in lines(rulesets)]
    text += ["", "the CR's loop rule, by number (each from the first archived release that has it):", ""]
    text += [md_table(["number", "from", "what moved it"], numbers_table()), ""]
    text.append(f"Today it is {numbers_in_words().rsplit('Today it is ', 1)[1]}")
    return visible("\n".join(text) + "\n")
