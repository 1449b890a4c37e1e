"""The list commands' ``--json``: the built-in scenarios and the rulesets, for programs."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .controls import json_escaped

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
