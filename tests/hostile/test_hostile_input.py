"""Hostile input: whatever bytes a scenario file holds, loading gives a ScenarioFile or a
ScenarioError (never another exception), what loads also settles, limits refuse oversized input
cheaply, and user text never turns into markup in a report.

Property tests run derandomized with a fixed number of examples so the suite stays fast and
reproducible. The bugs it found (deep tables, endless streams, quadratic dotted keys, huge numbers,
undecodable file names, markup in names) are fixed; their minimal inputs stay here as tests.
"""

from __future__ import annotations

import copy
import datetime
import functools
import json
import math
import os
import re
import resource
import signal
import subprocess
import sys
import tomllib
import tracemalloc
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from helpers import ROOT, scenario_text
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from loopcompare.comparator import render
from loopcompare.comparator.cli import main
from loopcompare.comparator.compare import compare
from loopcompare.comparator.loader import (
    MAX_BYTES,
    MAX_DIGITS,
    MAX_PLAYERS,
    MAX_STEPS,
    MAX_TEXT,
    ScenarioError,
    ScenarioFile,
    load,
    parse_bytes,
)
from loopcompare.comparator.report import build
from loopcompare.rulesets import registry
from loopcompare.rulesets.outcome import Result

LIBRARY = ROOT / "comparator" / "library"
LIBRARY_FILES = sorted(LIBRARY.glob("*.toml"))
SEEDS = [p.read_bytes() for p in LIBRARY_FILES]
BOM = b"\xef\xbb\xbf"

GOOD = scenario_text("gain-and-lose-flying")
GOOD_BYTES = GOOD.encode("utf-8")


def fast(max_examples: int) -> settings:
    """Derandomized (reproducible, no example database) with a fixed budget of examples."""
    return settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


# --- TOML writing (the stdlib only reads TOML) -----------------------------------------------------

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def toml_str(text: str) -> str:
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_str(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_str(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(type(value))


def to_toml(doc: dict, *, tables: bool = False) -> str:
    """A TOML document: every value inline, or (``tables``) top-level tables as [t] / [[t]]."""
    head, tail = [], []
    for key, value in doc.items():
        if tables and isinstance(value, dict):
            tail.append(f"\n[{toml_str(key)}]\n" + "".join(f"{toml_str(k)} = {toml_value(v)}\n" for k, v in value.items()))
        elif tables and isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for item in value:
                tail.append(f"\n[[{toml_str(key)}]]\n" + "".join(f"{toml_str(k)} = {toml_value(v)}\n" for k, v in item.items()))
        else:
            head.append(f"{toml_str(key)} = {toml_value(value)}\n")
    return "".join(head) + "".join(tail)


# --- the property every input must have -------------------------------------------------------------


def load_or_refuse(raw: bytes) -> ScenarioFile | None:
    """Load ``raw``; a refusal must be a ScenarioError naming the file; what loads must settle."""
    try:
        sf = parse_bytes(raw, "fuzz.toml", "fuzz")
    except ScenarioError as exc:
        assert str(exc).startswith("fuzz.toml: "), str(exc)
        return None
    assert isinstance(sf, ScenarioFile)
    if currently_in_test_context():
        event("loaded")  # --hypothesis-show-statistics: how often the input was usable
    for ruleset in registry().rulesets:
        ruleset.settle(sf.scenario)
    return sf


# --- strategies -----------------------------------------------------------------------------------

PLAYER_NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve", "<b>Frank</b>", "G|H", "\u03a9mega", "\u540d\u524d"]
STATE_NAMES = ["flying", "tokens", "life", "cards", "x y", "\u00e9t\u00e9"]
LOADER_KEYS = [
    "format", "title", "description", "source", "tags", "players", "active", "state", "step", "loop", "breaker",
    "intent", "expect", "by", "does", "optional", "choice", "hidden", "random", "conditional", "set", "add", "unless",
    "independent", "spans_turns", "meaningful_change", "shortcut_before", "ends_when", "ends_with", "value",
    "at_most", "at_least", "after", "result", "iterations", "steps", "deviates", "last_action", "judge", "rules",
]
WORDS = ["never", "infinite", "Infinity", "unbounded", "\u221e", "", " ", "Alice", "Bob", "flying", "cr-2004", "shortcut", "1"]

ints = st.one_of(st.integers(-20, 20), st.sampled_from([10**6, 10**100, 2**63, -(10**100)]), st.integers(-(10**30), 10**30))
counts = st.one_of(st.integers(0, 10), st.sampled_from([10**6, 10**100]))
texts = st.text(min_size=1, max_size=30).filter(lambda s: s.strip())
scalars = st.one_of(
    st.booleans(),
    st.integers(),
    st.integers(-(10**120), 10**120),
    st.floats(),
    st.text(max_size=20),
    st.sampled_from(WORDS),
    st.dates(),
    st.times(),
    st.datetimes(),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(LOADER_KEYS) | st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
# Values at and beyond the limits (10^4000 is within Python's 4,300-digit conversion limit).
EXTREMES = [
    "x" * (MAX_TEXT + 1),
    "x" * MAX_TEXT,
    10**4000,
    -(10**4000),
    float("inf"),
    float("nan"),
    ["Alice"] * (MAX_PLAYERS + 1),
    [f"P{i}" for i in range(MAX_PLAYERS + 1)],
    [{"by": "Alice", "does": "x"}] * (MAX_STEPS + 1),
    {"after": 10**100, "step": 0},
    {"after": 0, "step": -1},
    {"value": "tokens", "at_most": 0, "at_least": 0},
]


@st.composite
def valid_docs(draw, ints=ints, counts=counts):
    """A scenario document that the loader should accept (in random key order)."""
    players = draw(st.lists(st.sampled_from(PLAYER_NAMES), min_size=2, max_size=5, unique=True))
    names = draw(st.lists(st.sampled_from(STATE_NAMES), max_size=3, unique=True))
    state = {n: draw(st.booleans() | ints) for n in names}
    int_names = [n for n, v in state.items() if not isinstance(v, bool)]
    steps = []
    for _ in range(draw(st.integers(1, 4))):
        step = {"by": draw(st.sampled_from(players)), "does": draw(texts)}
        for flag in ("optional", "choice", "hidden", "random", "conditional"):
            if draw(st.booleans()):
                step[flag] = draw(st.booleans())
        if names and draw(st.booleans()):
            chosen = draw(st.lists(st.sampled_from(names), unique=True))
            step["set"] = {n: draw(st.booleans()) if isinstance(state[n], bool) else draw(ints) for n in chosen}
        if int_names and draw(st.booleans()):
            step["add"] = {n: draw(ints) for n in draw(st.lists(st.sampled_from(int_names), unique=True))}
        if draw(st.booleans()):
            step["unless"] = {"by": draw(st.sampled_from(players)), "does": draw(texts)}
        steps.append(step)
    doc: dict = {"title": draw(texts), "players": players, "step": steps}
    if names or draw(st.booleans()):
        doc["state"] = state
    for key in ("description", "source"):
        if draw(st.booleans()):
            doc[key] = draw(st.text(max_size=30))
    if draw(st.booleans()):
        doc["tags"] = draw(st.lists(texts, max_size=3))
    if draw(st.booleans()):
        doc["format"] = 1
    if draw(st.booleans()):
        doc["active"] = draw(st.sampled_from(players))
    loop = {f: draw(st.booleans()) for f in ("independent", "spans_turns", "meaningful_change", "shortcut_before") if draw(st.booleans())}
    if int_names and draw(st.booleans()):
        loop["ends_when"] = {"value": draw(st.sampled_from(int_names)), draw(st.sampled_from(["at_most", "at_least"])): draw(ints)}
        if draw(st.booleans()):
            loop["ends_with"] = draw(texts)
    if loop or draw(st.booleans()):
        doc["loop"] = loop
    if draw(st.booleans()):
        doc["breaker"] = [{"by": draw(st.sampled_from(players)), "does": draw(texts)} for _ in range(draw(st.integers(0, 2)))]
    intents = {}
    for p in draw(st.lists(st.sampled_from(players), unique=True)):
        intents[p] = draw(st.one_of(st.just("never"), counts, st.fixed_dictionaries({"after": counts, "step": st.integers(0, len(steps) - 1)})))
    if intents or draw(st.booleans()):
        doc["intent"] = intents
    expect = {}
    for key in draw(st.lists(st.sampled_from(registry().keys()), unique=True, max_size=3)):
        fields = {
            "result": st.sampled_from([r.value for r in Result]),
            "iterations": st.one_of(counts, st.just("unbounded"), st.dictionaries(st.sampled_from(players), counts | st.just("unbounded"), max_size=2)),
            "steps": counts,
            "deviates": st.sampled_from(players),
            "last_action": st.sampled_from(players),
            "judge": st.booleans(),
            "rules": st.lists(texts, max_size=2),
        }
        chosen = {f: draw(s) for f, s in fields.items() if draw(st.booleans())}
        if names and draw(st.booleans()):
            chosen["state"] = {n: draw(st.booleans()) if isinstance(state[n], bool) else draw(ints | st.just("unbounded")) for n in names}
        expect[key] = chosen
    if expect or draw(st.booleans()):
        doc["expect"] = expect
    return dict(draw(st.permutations(list(doc.items()))))


def _slots(node):
    """Every (container, key) in a document, depth first."""
    for key, value in list(node.items() if isinstance(node, dict) else enumerate(node)):
        yield node, key
        if isinstance(value, (dict, list)):
            yield from _slots(value)


def _near(key) -> st.SearchStrategy:
    key = str(key)
    return st.sampled_from([key.upper(), key + "s", key[:-1], " " + key, key + " ", key.replace("_", "-"), key.title(), "step", "title", ""]) | st.text(max_size=6)


# Weighted: edits that keep the keys known reach the deeper checks more often than new keys do.
OPS = ["retype"] * 4 + ["extreme"] * 2 + ["swap"] * 2 + ["drop", "empty", "wrap", "unwrap", "duplicate", "rename", "insert"]


def mutate(data, doc: dict) -> dict:
    """1-4 random edits anywhere in the document: drop, retype, empty, extreme, wrap, unwrap,
    duplicate, rename (typos), swap and insert."""
    for _ in range(data.draw(st.sampled_from([1, 1, 1, 2, 3, 4]), label="edits")):
        where = list(_slots(doc))
        if not where:
            doc[data.draw(st.sampled_from(LOADER_KEYS))] = data.draw(values)
            continue
        node, key = data.draw(st.sampled_from(where), label="where")
        op = data.draw(st.sampled_from(OPS), label="op")
        if op == "drop":
            del node[key]
        elif op == "retype":
            node[key] = data.draw(scalars | values)
        elif op == "empty":
            node[key] = data.draw(st.sampled_from(["", " ", [], {}, 0, -1, False]))
        elif op == "extreme":
            node[key] = copy.deepcopy(data.draw(st.sampled_from(EXTREMES)))
        elif op == "wrap":
            node[key] = [node[key]]
        elif op == "unwrap":
            value = node[key]
            if isinstance(value, list) and value:
                node[key] = value[0]
            elif isinstance(value, dict) and value:
                node[key] = next(iter(value.values()))
        elif op == "duplicate":
            if isinstance(node, list):
                node.insert(key, copy.deepcopy(node[key]))
            else:
                node[data.draw(_near(key))] = copy.deepcopy(node[key])
        elif op == "rename":
            if isinstance(node, list):
                node.reverse()
            else:
                node[data.draw(_near(key))] = node.pop(key)
        elif op == "swap":
            other, other_key = data.draw(st.sampled_from(where))
            a, b = copy.deepcopy(node[key]), copy.deepcopy(other[other_key])
            node[key] = b
            other[other_key] = a
        elif op == "insert":
            target = node[key] if isinstance(node[key], dict) else node if isinstance(node, dict) else doc
            target[data.draw(st.sampled_from(LOADER_KEYS) | st.text(max_size=6))] = data.draw(values)
    return doc


@st.composite
def mutated_bytes(draw):
    """A built-in scenario file with 1-4 byte- or line-level edits."""
    raw = bytearray(draw(st.sampled_from(SEEDS)))
    junk = st.binary(max_size=8) | st.sampled_from([b"\x00", b"\xff", BOM, b"[", b"]]", b"{", b"}", b'"', b"'''", b'"""', b"=", b"\n", b"\r", b"\\", b"#", b".", b"9" * 500])
    for _ in range(draw(st.integers(1, 4))):
        n = len(raw)
        i = draw(st.integers(0, n))
        j = draw(st.integers(i, min(n, i + 60)))
        op = draw(st.sampled_from(["truncate", "delete", "duplicate", "insert", "replace", "dup_line", "drop_line", "swap_lines"]))
        if op == "truncate":
            del raw[i:]
        elif op == "delete":
            del raw[i:j]
        elif op == "duplicate":
            raw[j:j] = raw[i:j]
        elif op == "insert":
            raw[i:i] = draw(junk)
        elif op == "replace":
            raw[i:j] = draw(junk)
        else:
            lines = bytes(raw).split(b"\n")
            a = draw(st.integers(0, len(lines) - 1))
            b = draw(st.integers(0, len(lines) - 1))
            if op == "dup_line":
                lines.insert(b, lines[a])
            elif op == "drop_line":
                del lines[a]
            else:
                lines[a], lines[b] = lines[b], lines[a]
            raw = bytearray(b"\n".join(lines))
    return bytes(raw)


# --- properties -------------------------------------------------------------------------------------


@fast(80)
@given(valid_docs(), st.booleans())
def test_generated_valid_documents_load_and_settle(doc, tables):
    # Guards the generator too: the documents the mutation test starts from really are valid.
    text = to_toml(doc, tables=tables)
    assert tomllib.loads(text) == doc
    assert load_or_refuse(text.encode("utf-8")) is not None


@fast(200)
@given(valid_docs(), st.booleans(), st.data())
def test_mutated_documents_load_or_raise_scenario_error(doc, tables, data):
    load_or_refuse(to_toml(mutate(data, copy.deepcopy(doc)), tables=tables).encode("utf-8"))


@fast(200)
@given(mutated_bytes())
def test_mutated_files_load_or_raise_scenario_error(raw):
    load_or_refuse(raw)


def _shaped(keys, inner) -> st.SearchStrategy:
    """A table with some of ``keys`` (in random order), each holding anything ``inner`` makes."""
    return st.fixed_dictionaries({}, optional={k: inner for k in keys})


_any = scalars | values
_names = st.sampled_from(PLAYER_NAMES[:3]) | _any
# Documents with the right shape (known keys, tables and arrays where they belong) holding values
# of any type: they get past the unknown-key check and reach every field's own validation.
shaped_docs = st.fixed_dictionaries(
    {},
    optional={
        "format": st.sampled_from([1, 2, 0, True, "1", 1.0]) | _any,
        "title": _any,
        "description": _any,
        "source": _any,
        "tags": st.lists(_any, max_size=3) | _any,
        "players": st.lists(_names, min_size=2, max_size=4) | _any,
        "active": _names,
        "state": st.dictionaries(st.sampled_from(STATE_NAMES[:3]), _any, max_size=3) | _any,
        "step": st.lists(_shaped(["by", "does", "optional", "choice", "hidden", "random", "conditional", "set", "add", "unless"], _any | st.dictionaries(st.sampled_from(STATE_NAMES[:3] + ["by", "does"]), _any, max_size=2)), min_size=1, max_size=3) | _any,
        "loop": _shaped(["independent", "spans_turns", "meaningful_change", "shortcut_before", "ends_with"], _any) | st.fixed_dictionaries({"ends_when": _shaped(["value", "at_most", "at_least"], _any | st.sampled_from(STATE_NAMES[:3]))}) | _any,
        "breaker": st.lists(_shaped(["by", "does"], _names), max_size=2) | _any,
        "intent": st.dictionaries(_names.filter(lambda v: isinstance(v, str)), _any | _shaped(["after", "step"], _any), max_size=3) | _any,
        "expect": st.dictionaries(st.sampled_from(["cr-2004", "mtr-current", "cr-current", "mtr", "cr-1999"]), _shaped(["result", "iterations", "steps", "deviates", "last_action", "state", "judge", "rules"], _any) | _any, max_size=2) | _any,
    },
)


@fast(150)
@given(shaped_docs | st.dictionaries(st.sampled_from(LOADER_KEYS) | st.text(max_size=8), values, max_size=8), st.booleans())
def test_random_documents_load_or_raise_scenario_error(doc, tables):
    load_or_refuse(to_toml(doc, tables=tables).encode("utf-8"))


@fast(100)
@given(st.binary(max_size=2000))
def test_random_bytes_load_or_raise_scenario_error(raw):
    load_or_refuse(raw)


@fast(100)
@given(st.text(max_size=500) | st.text(st.sampled_from(list("[]{}=.,\"'#\n \\abtrue1-_")), max_size=200))
def test_random_text_loads_or_raises_scenario_error(text):
    load_or_refuse(text.encode("utf-8"))


# --- fixed hostile files ----------------------------------------------------------------------------


def _steps(n: int) -> bytes:
    return ('title = "many steps"\nplayers = ["Alice", "Bob"]\n' + '[[step]]\nby = "Alice"\ndoes = "x"\n' * n).encode()


def _players(n: int) -> bytes:
    names = ", ".join(f'"P{i}"' for i in range(n))
    return f'title = "many players"\nplayers = [{names}]\n[[step]]\nby = "P0"\ndoes = "x"\n'.encode()


GOOGOLPLEX_ISH = "1" + "0" * 10_000  # 10^10000
DEEP = 10_000

# name -> (bytes, a fragment the message must contain)
HOSTILE_FILES = {
    "truncated-in-string": (GOOD_BYTES[: GOOD_BYTES.index(b"and lose")], "not valid TOML"),
    "truncated-in-header": (GOOD_BYTES[: GOOD_BYTES.index(b"[state]") + 4], "not valid TOML"),
    "truncated-in-inline-table": (GOOD_BYTES[: GOOD_BYTES.index(b"set = {") + 12], "not valid TOML"),
    "truncated-in-utf8-character": ('title = "\u03a9mega"\n'.encode()[:10], "UTF-8"),
    "truncated-before-steps": (GOOD_BYTES[: GOOD_BYTES.index(b"[[step]]")], "'step'"),
    "binary-junk": (bytes(range(256)) * 16, "UTF-8"),
    "nul-bytes": (b"\x00" * 4096, "TOML"),
    "png-header": (b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "UTF-8"),
    "latin-1": (GOOD.replace("Gain", "Ga\u00efn").encode("latin-1"), "UTF-8"),
    "utf-16": (GOOD.encode("utf-16"), "UTF-8"),
    "lone-continuation-byte": (b'title = "\x80"\n', "UTF-8"),
    "overlong-encoding": (b'title = "\xc0\xaf"\n', "UTF-8"),
    "encoded-surrogate": (b'title = "\xed\xa0\x80"\n', "UTF-8"),
    "empty": (b"", "'title'"),
    "bom-only": (BOM, "'title'"),
    "double-bom": (BOM + BOM + GOOD_BYTES, "TOML"),
    "duplicate-key": (b'title = "again"\n' + GOOD_BYTES, "TOML"),
    "duplicate-table": (GOOD_BYTES + b"[state]\nflying = true\n", "TOML"),
    "10000-steps": (_steps(10_000), f"at most {MAX_STEPS}"),
    "257-steps": (_steps(MAX_STEPS + 1), f"at most {MAX_STEPS}"),
    "500-players": (_players(500), f"at most {MAX_PLAYERS}"),
    "65-players": (_players(MAX_PLAYERS + 1), f"at most {MAX_PLAYERS}"),
    "long-title": (f'title = "{"x" * (MAX_TEXT + 1)}"\nplayers = ["A", "B"]\n[[step]]\nby = "A"\ndoes = "x"\n'.encode(), "characters"),
    "10^10000-intent": (GOOD_BYTES.replace(b"Bob = 3", b"Bob = " + GOOGOLPLEX_ISH.encode()), "numbers are limited to 1,000 digits"),
    "10^10000-state": (GOOD_BYTES.replace(b"[state]\n", b"[state]\ntokens = -" + GOOGOLPLEX_ISH.encode() + b"\n"), "numbers are limited to 1,000 digits"),
    "10^10000-title": (GOOD_BYTES.replace(b'title = "Gain and lose flying"', b"title = " + GOOGOLPLEX_ISH.encode()), "numbers are limited to 1,000 digits"),
    "1e10000-intent": (GOOD_BYTES.replace(b"Bob = 3", b"Bob = 1e10000"), "infinity"),
    "deep-arrays": (b"title = " + b"[" * DEEP + b"]" * DEEP + b"\n", "TOML"),
    "deep-inline-tables": (b"title = " + b"{a = " * DEEP + b"1" + b"}" * DEEP + b"\n", "TOML"),
    "deep-array-in-state": (GOOD_BYTES.replace(b"flying = false", b"flying = " + b"[" * DEEP + b"]" * DEEP), "TOML"),
    "deep-table-header": (b"[" + b".".join([b"a"] * DEEP) + b"]\n", "dotted parts"),
    "deep-table-header-in-state": (GOOD_BYTES + b"[state.x." + b".".join([b"a"] * DEEP) + b"]\n", "dotted parts"),
    "deep-table-header-in-intent": (GOOD_BYTES + b"[intent.Alice." + b".".join([b"a"] * DEEP) + b"]\n", "dotted parts"),
}


@pytest.mark.parametrize("name", list(HOSTILE_FILES))
def test_hostile_file_is_refused_with_a_scenario_error(name):
    raw, fragment = HOSTILE_FILES[name]
    assert len(raw) <= MAX_BYTES, "a fixed case meant for another limit than the size"
    with pytest.raises(ScenarioError) as info:
        parse_bytes(raw, f"{name}.toml", name)
    message = str(info.value)
    assert message.startswith(f"{name}.toml: ")
    assert fragment in message, message
    assert len(message) < 2_000, "the message quotes too much of the input"


@pytest.mark.parametrize("name", list(HOSTILE_FILES))
def test_validate_refuses_a_hostile_file_with_exit_2(tmp_path, name):
    path = tmp_path / f"{name}.toml"
    path.write_bytes(HOSTILE_FILES[name][0])
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert_clean_exit(result, 2)
    assert str(path) in result.stderr
    assert HOSTILE_FILES[name][1] in result.stderr


def assert_clean_exit(result, code: int) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output


DEEP_EXPECT_RESULT = GOOD_BYTES + b"\n[expect.cr-2004.result." + b".".join([b"a"] * DEEP) + b"]\n"


def test_deeply_nested_expect_result_is_a_scenario_error():
    with pytest.raises(ScenarioError) as info:
        parse_bytes(DEEP_EXPECT_RESULT, "deep.toml", "deep")
    assert "dotted parts" in str(info.value)


def test_validate_refuses_a_deeply_nested_expect_result(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_bytes(DEEP_EXPECT_RESULT)
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert_clean_exit(result, 2)
    assert str(path) in result.stderr


def test_a_bom_prefixed_file_is_accepted(tmp_path):
    plain = parse_bytes(GOOD_BYTES, "good.toml", "good")
    for raw in (BOM + GOOD_BYTES, BOM + GOOD_BYTES.replace(b"\n", b"\r\n")):
        assert parse_bytes(raw, "good.toml", "good") == plain
        path = tmp_path / "bom.toml"
        path.write_bytes(raw)
        result = CliRunner().invoke(main, ["validate", str(path)])
        assert_clean_exit(result, 0)
        assert "Gain and lose flying" in result.stdout


def test_every_truncation_of_a_file_loads_or_is_refused():
    raw = (LIBRARY / "seal-of-cleansing.toml").read_bytes()
    refused = sum(load_or_refuse(raw[:n]) is None for n in range(0, len(raw), 3))
    assert refused > 0


# --- size, limits, memory ---------------------------------------------------------------------------


def _traced_peak(fn) -> tuple[object, int]:
    tracemalloc.start()
    try:
        try:
            out = fn()
        except ScenarioError as exc:
            out = exc
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_10_megabyte_file_is_refused_without_being_read(tmp_path):
    path = tmp_path / "huge.toml"
    with path.open("wb") as handle:
        handle.write(GOOD_BYTES)
        handle.write(b"# padding padding padding padding padding padding padding padding padding pad\n" * 140_000)
    assert path.stat().st_size > 10 * 2**20
    error, peak = _traced_peak(lambda: load(path))
    assert isinstance(error, ScenarioError)
    assert str(path) in str(error) and f"{MAX_BYTES:,} bytes" in str(error)
    assert peak < 256 * 1024, f"loading a refused 10 MB file allocated {peak:,} bytes"

    raw = path.read_bytes()
    error, peak = _traced_peak(lambda: parse_bytes(raw, "huge.toml", "huge"))
    assert isinstance(error, ScenarioError) and "limited to" in str(error)
    assert peak < 256 * 1024, f"refusing 10 MB of bytes allocated {peak:,} bytes"

    result = CliRunner().invoke(main, ["validate", str(path)])
    assert_clean_exit(result, 2)
    assert str(path) in result.stderr and "limited to" in result.stderr


def test_one_byte_over_the_size_limit_is_refused_and_at_the_limit_loads_in_bounded_memory(tmp_path):
    pad = b"# " + b"x" * 1021 + b"\n"
    body = GOOD_BYTES + pad * ((MAX_BYTES - len(GOOD_BYTES)) // len(pad))
    at_limit = body + b" " * (MAX_BYTES - len(body))
    assert len(at_limit) == MAX_BYTES
    sf, peak = _traced_peak(lambda: parse_bytes(at_limit, "big.toml", "big"))
    assert isinstance(sf, ScenarioFile)
    assert peak < 16 * MAX_BYTES, f"loading a 1 MiB file allocated {peak:,} bytes"
    with pytest.raises(ScenarioError, match="limited to"):
        parse_bytes(at_limit + b" ", "big.toml", "big")
    path = tmp_path / "over.toml"
    path.write_bytes(at_limit + b"\n")
    with pytest.raises(ScenarioError, match="limited to"):
        load(path)


def test_a_scenario_at_every_limit_loads_and_settles():
    players = [f"P{i}" for i in range(MAX_PLAYERS)]
    big = 10**MAX_DIGITS - 1  # MAX_DIGITS digits: the largest number a file may hold
    steps = [
        {"by": players[i % MAX_PLAYERS], "does": f"step {i}", "optional": i % 3 != 0, "add": {"n": i % 5 - 2}, "set": {"f": i % 2 == 0}}
        for i in range(MAX_STEPS)
    ]
    steps[0]["add"] = {"n": big}
    steps[1]["unless"] = {"by": players[-1], "does": "pays " + "x" * (MAX_TEXT - 5)}
    doc = {
        "title": "x" * MAX_TEXT,
        "players": players,
        "state": {"n": -big, "f": False},
        "step": steps,
        "loop": {"independent": True, "ends_when": {"value": "n", "at_least": big}},
        "intent": {"P0": big, "P1": {"after": big, "step": MAX_STEPS - 1}, "P2": 7},
    }
    raw = to_toml(doc, tables=True).encode()
    assert len(raw) <= MAX_BYTES
    assert load_or_refuse(raw) is not None


def _limited(cpu_seconds: int, memory: int | None = None):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
        if memory:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return apply


def _run_cli(args, *, cpu_seconds: int, memory: int | None = None):
    return subprocess.run(
        [sys.executable, "-m", "loopcompare", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        errors="replace",
        preexec_fn=_limited(cpu_seconds, memory),
        timeout=120,
        check=False,
    )


@pytest.mark.skipif(not sys.platform.startswith("linux") or not os.path.exists("/dev/zero"), reason="needs /dev/zero and RLIMIT_AS")
def test_an_endless_stream_is_refused_by_the_size_limit():
    result = _run_cli(["validate", "/dev/zero"], cpu_seconds=20, memory=512 * 2**20)
    assert "Traceback" not in result.stderr, result.stderr[-500:]
    assert result.returncode == 2, (result.returncode, result.stderr[-500:])
    assert "/dev/zero" in result.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs RLIMIT_CPU")
def test_a_one_megabyte_dotted_key_is_refused_quickly(tmp_path):
    path = tmp_path / "dotted.toml"
    path.write_bytes(b"[" + b".".join([b"a"] * ((MAX_BYTES - 8) // 2)) + b"]\n")
    assert path.stat().st_size <= MAX_BYTES
    # Not a speed assertion: a fixed loader answers in milliseconds; this only stops a runaway.
    result = _run_cli(["validate", str(path)], cpu_seconds=3)
    killed = {-signal.SIGXCPU: "stopped by the CPU limit", -signal.SIGKILL: "killed at the CPU limit"}
    assert result.returncode == 2, f"exit {result.returncode}: {killed.get(result.returncode, result.stderr[-300:])}"
    assert str(path) in result.stderr


# --- large numbers ----------------------------------------------------------------------------------

HUGE = "1" + "0" * 2200  # 10^2200: its square would pass Python's 4,300-digit printing limit
HUGE_PRODUCT = f"""\
title = "big"
players = ["A", "B"]

[state]
n = 0

[[step]]
by = "A"
does = "x"
optional = true
add = {{ n = {HUGE} }}

[intent]
A = {HUGE}
"""


def test_numbers_beyond_the_digit_limit_are_refused_so_results_stay_printable():
    # 10^2200 iterations of +10^2200 would reach 10^4400, past Python's 4,300-digit printing limit.
    with pytest.raises(ScenarioError, match="digits"):
        parse_bytes(HUGE_PRODUCT.encode(), "big.toml", "big")


def test_the_largest_product_within_the_limits_settles_and_prints():
    big = 10**MAX_DIGITS - 1
    sf = parse_bytes(HUGE_PRODUCT.replace(HUGE, str(big)).encode(), "big.toml", "big")
    outcome = registry().get("cr-2004").settle(sf.scenario)
    assert outcome.state["n"] == big * big
    assert str(outcome.state["n"])


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_a_state_value_beyond_4300_digits_is_reported_or_refused(tmp_path, fmt):
    path = tmp_path / "big.toml"
    path.write_text(HUGE_PRODUCT, encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", str(path), "-f", fmt])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 2)
    if result.exit_code == 2:
        assert str(path) in result.stderr
    elif fmt == "json":
        states = [o["state"]["n"] for o in json.loads(result.stdout)["comparisons"][0]["outcomes"].values()]
        assert 10**4400 in states


# --- file names -------------------------------------------------------------------------------------


def _non_utf8_file(tmp_path) -> Path:
    path = Path(os.fsdecode(os.fsencode(tmp_path) + b"/bad\xff.toml"))
    try:
        path.write_bytes(GOOD_BYTES)
    except (OSError, UnicodeError):
        pytest.skip("the file system refuses non-UTF-8 file names")
    return path




def test_a_non_utf8_file_name_validates(tmp_path):
    path = _non_utf8_file(tmp_path)
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert_clean_exit(result, 0)


def test_a_non_utf8_file_name_is_reported_without_a_crash(tmp_path):
    path = _non_utf8_file(tmp_path)
    out = tmp_path / "report.md"
    result = CliRunner().invoke(main, ["compare", str(path), "-o", str(out)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 2)
    if result.exit_code == 0:
        assert out.is_file()


# --- injection --------------------------------------------------------------------------------------

PAYLOAD = (
    "<script>alert(1)</script> & &amp; \"dq\" 'sq' a|b|c `tick` ``two`` *bold* _em_ ~~del~~ "
    "[link](http://x) <img src=x onerror=y>\n# heading\n- item\n> quote\r\n1. one"
)


def base_doc() -> dict:
    """A benign scenario using every kind of user text, whose state value differs between rulesets."""
    return {
        "title": "Plain title",
        "description": "Plain description",
        "source": "Plain source",
        "tags": ["plain tag", "second tag"],
        "players": ["Alice", "Bob"],
        "state": {"flying": False, "count": 0},
        "step": [
            {"by": "Alice", "does": "plain action", "optional": True, "set": {"flying": True}, "add": {"count": 1}, "unless": {"by": "Bob", "does": "plain payment"}},
            {"by": "Bob", "does": "other action", "optional": True, "set": {"flying": False}},
        ],
        "loop": {"ends_when": {"value": "count", "at_least": 100}, "ends_with": "plain ending"},
        "breaker": [{"by": "Bob", "does": "plain breaker"}],
        "intent": {"Bob": 3},
    }


def _with(field: str, text: str) -> dict:
    doc = base_doc()
    if field == "title":
        doc["title"] = text
    elif field in ("description", "source"):
        doc[field] = text
    elif field == "tag":
        doc["tags"][0] = text
    elif field == "player":
        doc["players"][0] = text
        for step in doc["step"]:
            if step["by"] == "Alice":
                step["by"] = text
    elif field == "does":
        doc["step"][1]["does"] = text
    elif field == "unless":
        doc["step"][0]["unless"]["does"] = text
    elif field == "breaker":
        doc["breaker"][0]["does"] = text
    elif field == "ends_with":
        doc["loop"]["ends_with"] = text
    elif field == "state-name":
        doc["state"] = {text: False, "count": 0}
        doc["step"][0]["set"] = {text: True}
        doc["step"][1]["set"] = {text: False}
    else:
        raise AssertionError(field)
    return doc


def _write(folder: Path, doc: dict, stem: str = "case") -> Path:
    path = folder / f"{stem}.toml"
    path.write_text(to_toml(doc, tables=True), encoding="utf-8")
    return path


def _reports(path: Path, command: str, fmt: str) -> list[str]:
    """The report on the scenario alone, and beside a built-in (with contents and a summary)."""
    out = []
    for args in ([str(path)], [str(path), "flying"]):
        result = CliRunner().invoke(main, [command, *args, "-f", fmt])
        assert_clean_exit(result, 0)
        out.append(result.stdout)
    return out


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: Counter = Counter()
        self.attrs: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] += 1
        self.attrs.update(name for name, _ in attrs)

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.text.append(data)


def html_shape(page: str) -> _Tags:
    parser = _Tags()
    parser.feed(page)
    parser.close()
    return parser


def check_html_like(page: str, clean: str) -> _Tags:
    """The page uses exactly the elements of the clean page, and no attribute it doesn't use."""
    got, want = html_shape(page), html_shape(clean)
    assert set(got.tags) == set(want.tags), f"elements differ: {set(got.tags) ^ set(want.tags)}"
    # The loop diagram wraps a text into as many SVG <text> lines as it needs: only their number may vary.
    counts, wanted = Counter({k: n for k, n in got.tags.items() if k != "text"}), Counter({k: n for k, n in want.tags.items() if k != "text"})
    assert counts == wanted, f"element counts differ: {counts - wanted} / {wanted - counts}"
    assert got.attrs <= want.attrs, f"new attributes: {got.attrs - want.attrs}"
    assert not [a for a in got.attrs if a.startswith("on")]
    return got


_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def strip_code_spans(line: str) -> str:
    """The line with each CommonMark code span (a run of n backticks up to the next run of exactly
    n) replaced by a placeholder; a backslash-escaped backtick opens nothing."""
    out, i = [], 0
    while i < len(line):
        ch = line[i]
        if ch == "\\":
            out.append(line[i : i + 2])
            i += 2
            continue
        if ch != "`":
            out.append(ch)
            i += 1
            continue
        j = i
        while j < len(line) and line[j] == "`":
            j += 1
        close = None
        k = j
        while k < len(line):
            if line[k] == "`":
                m = k
                while m < len(line) and line[m] == "`":
                    m += 1
                if m - k == j - i:
                    close = m
                    break
                k = m
            else:
                k += 1
        if close is None:
            out.append(line[i:j])
            i = j
        else:
            out.append("\u2039code\u203a")
            i = close
    return "".join(out)


def md_kind(line: str):
    """The markdown block a line starts, with a table row's column separators counted."""
    if not line.strip():
        return "blank"
    if m := re.match(r" {0,3}(#{1,6})(?:[ \t]|$)", line):
        return f"h{len(m.group(1))}"
    if re.match(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$", line):
        return "hr"
    if line.startswith("|"):
        return ("row", len(_UNESCAPED_PIPE.findall(line)))
    if re.match(r" {0,3}\d{1,9}[.)](?:[ \t]|$)", line):
        return "ol"
    if re.match(r" {0,3}[-+*](?:[ \t]|$)", line):
        return "ul"
    if re.match(r" {0,3}>", line):
        return "quote"
    if re.match(r" {0,3}(?:```|~~~)", line):
        return "fence"
    if re.match(r" {0,3}<", line):
        return "html"
    return "text"


def md_blocks(text: str) -> list:
    return [md_kind(line) for line in text.split("\n")]


def check_markdown_tables(text: str) -> None:
    """Every row of every pipe table has as many unescaped '|' as its header row."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("|"):
            i += 1
            continue
        header = len(_UNESCAPED_PIPE.findall(lines[i]))
        j = i
        while j < len(lines) and lines[j].startswith("|"):
            assert len(_UNESCAPED_PIPE.findall(lines[j])) == header, f"a row with other columns than its header:\n{lines[i]}\n{lines[j]}"
            j += 1
        i = j


_RAW_TAG = re.compile(r"(?<!\\)<(/?)([A-Za-z][\w-]*)([^>]*)>?")


def check_markdown_is_inert(text: str) -> None:
    """Outside code spans: no raw HTML but the renderer's own <a id> anchors, no link to http."""
    for line in text.split("\n"):
        bare = strip_code_spans(line)
        for tag in _RAW_TAG.finditer(bare):
            shape = html_shape(tag.group(0))
            assert tag.group(2).lower() == "a" and shape.attrs <= {"id"}, f"raw HTML in markdown: {line!r}"
        assert not re.search(r"(?<!\\)\]\(\s*http", bare), f"a link made of user text: {line!r}"


def links(text: str) -> list[str]:
    return re.findall(r"(?<!\\)\]\(([^)]*)\)", "\n".join(strip_code_spans(line) for line in text.split("\n")))


COMMANDS = ["compare", "timeline"]
INJECTION_FIELDS = ["title", "description", "source", "tag", "player", "does", "unless", "breaker", "ends_with", "state-name"]


@pytest.fixture(scope="module")
def benign(tmp_path_factory):
    path = _write(tmp_path_factory.mktemp("benign"), base_doc())
    return {(command, fmt): _reports(path, command, fmt) for command in COMMANDS for fmt in ("md", "html")}


def test_the_benign_scenario_shows_its_state_among_the_differences():
    # The state-name case relies on the state value differing between the rulesets.
    sf = parse_bytes(to_toml(base_doc(), tables=True).encode(), "case.toml", "case")
    assert "state.flying" in compare(sf, registry().select([])).differences


def _fields(command):
    return [pytest.param(command, f) for f in INJECTION_FIELDS]


@pytest.mark.parametrize("command, field", _fields("compare") + _fields("timeline"))
def test_markdown_keeps_user_text_inert(tmp_path, benign, command, field):
    path = _write(tmp_path, _with(field, PAYLOAD))
    for clean, report in zip(benign[command, "md"], _reports(path, command, "md")):
        check_markdown_tables(report)
        check_markdown_is_inert(report)
        assert md_blocks(report) == md_blocks(clean), "user text changed the markdown's block structure"
        assert links(report) == links(clean)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("field", INJECTION_FIELDS)
def test_html_keeps_user_text_inert(tmp_path, benign, command, field):
    path = _write(tmp_path, _with(field, PAYLOAD))
    for clean, page in zip(benign[command, "html"], _reports(path, command, "html")):
        got = check_html_like(page, clean)
        if command == "compare":  # the comparison shows every text, as typed
            text = "".join(got.text)
            assert "<script>alert(1)</script>" in text and "<img src=x onerror=y>" in text




@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_a_carriage_return_in_user_text_does_not_reach_the_output(tmp_path, command, fmt):
    doc = _with("title", "a\r\nb\rc")
    doc["description"] = "d\r\ne"
    path = _write(tmp_path, doc)
    for report in _reports(path, command, fmt):
        assert "\r" not in report
        assert report.endswith("\n") and not report.endswith("\n\n")


LINE_STARTS = ["***", "___", "* * *", "- x", "+ x", "1. x", "1) x", "> x", "# x", "###### x", "=== x", "```", "~~~", "    indented", "| a | b |", "<div>", "[x]: http://x", "\\", "---x"]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("text", LINE_STARTS + ["---", "-- -", "------"])
def test_a_description_cannot_start_a_markdown_block(tmp_path, benign, command, text):
    path = _write(tmp_path, _with("description", text))
    for clean, report in zip(benign[command, "md"], _reports(path, command, "md")):
        assert md_blocks(report) == md_blocks(clean)


STEMS = {
    "plain": "plain|pipe*star_[x](y)&amp;#",
    "backtick": "id`<img src=x onerror=y>`",
    "newline": "id\n# heading",
    "quote": 'q" onmouseover="alert(1)',
}


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX file names")
@pytest.mark.parametrize(
    "command, stem",
    [
        ("compare", "plain"),
        pytest.param("compare", "backtick"),
        pytest.param("compare", "newline"),
        ("compare", "quote"),
        ("timeline", "plain"),
        pytest.param("timeline", "backtick"),
        pytest.param("timeline", "newline"),
        pytest.param("timeline", "quote"),
    ],
)
def test_a_hostile_file_name_stays_text(tmp_path, benign, command, stem):
    try:
        path = _write(tmp_path, base_doc(), STEMS[stem])
    except OSError:
        pytest.skip("the file system refuses this name")
    for clean, page in zip(benign[command, "html"], _reports(path, command, "html")):
        check_html_like(page, clean)
    for clean, report in zip(benign[command, "md"], _reports(path, command, "md")):
        check_markdown_tables(report)
        check_markdown_is_inert(report)
        assert md_blocks(report) == md_blocks(clean)


@fast(40)
@given(valid_docs(ints=st.integers(-(10**100), 10**100), counts=st.integers(0, 10**100)))
def test_valid_documents_render_cleanly(doc):
    sf = load_or_refuse(to_toml(doc).encode("utf-8"))
    comparison = compare(sf, registry().select([]))
    render.json_report([comparison])
    report = build([comparison])
    text = render.markdown(report)
    check_markdown_tables(text)
    assert text.endswith("\n") and not text.endswith("\n\n") and "\r" not in text
    shape = html_shape(render.html(report))
    assert shape.tags.keys() <= allowed_tags()
    assert not [a for a in shape.attrs if a.startswith("on")]


@functools.cache
def allowed_tags() -> frozenset[str]:
    """Every element a clean report uses: all built-ins in one report, and one alone."""
    from loopcompare.comparator.library import load_builtin, names

    comparisons = [compare(load_builtin(n), registry().rulesets) for n in names()]
    return frozenset(html_shape(render.html(build(comparisons))).tags) | frozenset(html_shape(render.html(build(comparisons[:1]))).tags)
