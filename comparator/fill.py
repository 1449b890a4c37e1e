"""``loopcompare check --fill``: write a scenario's ``[expect]`` blocks from today's outcomes.

For people who pin goldens: the file's own ``[expect]`` blocks (if any) are replaced by blocks
holding what each ruleset settles now, every other line of the file kept as it is.  The new text
is loaded and checked before anything is written: a file that would not pass its own check is
never written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from loopcompare.rulesets.outcome import EXPECT_KEYS_FORMAT_1, EXPECT_KEYS_FORMAT_2, OUTCOME_FIELDS

if TYPE_CHECKING:
    from loopcompare.rulesets import Outcome

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
# A table header: [name], [[name]], [expect.KEY] (spaces allowed inside the brackets).
_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]*?)\s*\]\]?\s*(#.*)?$")


def _key(name: str) -> str:
    return name if _BARE.match(name) else _string(name)


def _string(text: str) -> str:
    return '"' + "".join(_ESCAPES.get(c, f"\\u{ord(c):04X}" if ord(c) < 0x20 or ord(c) == 0x7F else c) for c in text) + '"'


def toml_value(value: object) -> str:
    """A JSON-ready value as TOML (booleans, integers, strings, lists, tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(str(k))} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"can't write {type(value).__name__} as TOML")


def expect_block(key: str, outcome: Outcome, scenario_format: int) -> str:
    """One ``[expect.KEY]`` block: every field a file of this format may pin, that has a value."""
    allowed = set(EXPECT_KEYS_FORMAT_1) | (set(EXPECT_KEYS_FORMAT_2) if scenario_format >= 2 else set())
    data = outcome.to_json()
    lines = [f"[expect.{_key(key)}]"]
    for field in OUTCOME_FIELDS:
        if field.name not in allowed or field.name == "rules":
            continue
        value = data.get(field.name)
        if value is None or (field.hide_neutral and value == field.neutral):
            continue
        lines.append(f"{field.name} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


def without_expect(text: str) -> str:
    """The file's text without its ``[expect...]`` tables (from such a header to the next header
    that is not one), and without the blank lines that ended it."""
    out: list[str] = []
    inside = False
    for line in text.splitlines(keepends=True):
        m = _HEADER.match(line)
        if m:
            inside = m.group(1) == "expect" or m.group(1).startswith("expect.") or m.group(1).startswith("expect ")
        if not inside:
            out.append(line)
    return "".join(out).rstrip() + "\n"


def filled(text: str, outcomes: Mapping[str, Outcome], keys: Sequence[str], scenario_format: int) -> str:
    """``text`` with its ``[expect]`` blocks replaced by today's outcomes under ``keys``."""
    blocks = [expect_block(k, outcomes[k], scenario_format) for k in keys]
    return without_expect(text) + "\n" + "\n".join(blocks)
