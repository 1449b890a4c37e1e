"""A small TOML writer for the tests: scenario documents (dicts) back to TOML text.

Used to round-trip the built-in scenarios (test_determinism.py) and to print a generated
scenario that broke something as a file ready to paste into a test (test_format2_robustness.py).
"""

from __future__ import annotations

import math

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _str(text: str) -> str:
    return '"' + "".join(_ESCAPES.get(c, f"\\u{ord(c):04X}" if ord(c) < 0x20 or ord(c) == 0x7F else c) for c in text) + '"'


def _value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        assert not (isinstance(value, float) and not math.isfinite(value))
        return repr(value)
    if isinstance(value, str):
        return _str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_str(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(type(value))


def to_toml(doc: dict) -> str:
    """The document as TOML, in its key order: scalars, then [table] / [[array]] / [expect.KEY]."""
    lines, tables = [], []
    for key, value in doc.items():
        if isinstance(value, dict) or isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            tables.append((key, value))
        else:
            lines.append(f"{_str(key)} = {_value(value)}")
    for key, value in tables:
        if isinstance(value, list):
            for item in value:
                lines += ["", f"[[{_str(key)}]]"] + [f"{_str(k)} = {_value(v)}" for k, v in item.items()]
        elif value and all(isinstance(v, dict) for v in value.values()):
            for sub, table in value.items():
                lines += ["", f"[{_str(key)}.{_str(sub)}]"] + [f"{_str(k)} = {_value(v)}" for k, v in table.items()]
        else:
            lines += ["", f"[{_str(key)}]"] + [f"{_str(k)} = {_value(v)}" for k, v in value.items()]
    return "\n".join(lines) + "\n"
