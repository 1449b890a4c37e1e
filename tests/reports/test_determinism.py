"""Determinism: the same input gives byte-identical output whatever the hash seed, and the order
of keys in a scenario file or of the files on the command line changes nothing but the order of
the report.  Every output ends with exactly one newline and has no carriage return.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from helpers import ACCEPTANCE, ROOT
from click.testing import CliRunner

from loopcompare.comparator.cli import main
from loopcompare.comparator.library import names
from tomlwrite import to_toml as _toml

LIBRARY = ROOT / "comparator" / "library"
BUILTINS = list(names())
HASH_SEEDS = ("0", "1", "12345")
FORMATS = ("md", "html", "json")
RULESET_CHOICES = {"default": [], "all": ["-r", "all"]}
# (format, ruleset choice) run under every hash seed: every format with the default rulesets, and
# JSON (which carries every transcript and note) with every era.
SEEDED_RUNS = [(fmt, "default") for fmt in FORMATS] + [("json", "all")]


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0 and result.exception is None, (result.output, result.exception)
    return result.stdout


def _first_difference(a: bytes, b: bytes) -> str:
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"first difference at byte {i} of {len(a)}/{len(b)}: {a[max(0, i - 60) : i + 60]!r} vs {b[max(0, i - 60) : i + 60]!r}"


def _assert_clean_ending(data: bytes) -> None:
    assert data.endswith(b"\n") and not data.endswith(b"\n\n"), data[-40:]
    assert b"\r" not in data


# --- hash seeds ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seeded_outputs():
    """``compare <every built-in>`` in each format, ruleset choice and hash seed, run in parallel."""
    procs = {}
    for fmt, choice in SEEDED_RUNS:
        for seed in HASH_SEEDS:
            env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONIOENCODING="utf-8")
            procs[fmt, choice, seed] = subprocess.Popen(
                [sys.executable, "-m", "loopcompare", "compare", *BUILTINS, *RULESET_CHOICES[choice], "-f", fmt],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
    out = {}
    for key, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, (key, stderr.decode("utf-8", "replace")[-2000:])
        out[key] = stdout
    return out


@pytest.mark.parametrize("fmt, choice", SEEDED_RUNS)
def test_every_hash_seed_gives_the_same_bytes(seeded_outputs, fmt, choice):
    first = seeded_outputs[fmt, choice, HASH_SEEDS[0]]
    assert len(first) > 1000
    for seed in HASH_SEEDS[1:]:
        other = seeded_outputs[fmt, choice, seed]
        assert other == first, f"PYTHONHASHSEED={seed} vs {HASH_SEEDS[0]}: {_first_difference(first, other)}"


@pytest.mark.parametrize("fmt, choice", SEEDED_RUNS)
def test_output_ends_with_one_newline_and_has_no_carriage_return(seeded_outputs, fmt, choice):
    for seed in HASH_SEEDS:
        _assert_clean_ending(seeded_outputs[fmt, choice, seed])


def test_the_subprocess_output_is_what_the_command_gives_in_process(seeded_outputs):
    assert seeded_outputs["json", "default", "0"].decode("utf-8") == _cli("compare", *BUILTINS, "-f", "json")


# --- key order inside a file ----------------------------------------------------------------------

def _shuffled(value, rng: random.Random):
    """Every table's keys in a random order; lists (players, steps, tags, rules) keep theirs."""
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: _shuffled(v, rng) for k, v in items}
    if isinstance(value, list):
        return [_shuffled(v, rng) for v in value]
    return value


SCENARIO_FILES = sorted(LIBRARY.glob("*.toml")) + (sorted(ACCEPTANCE.glob("*.toml")) if ACCEPTANCE.is_dir() else [])


def test_the_toml_writer_round_trips_every_scenario_file():
    for path in SCENARIO_FILES:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        assert tomllib.loads(_toml(doc)) == doc, path


def _comparisons(paths, *extra) -> list[dict]:
    return json.loads(_cli("compare", *map(str, paths), *extra, "-f", "json"))["comparisons"]


@pytest.mark.parametrize("choice", list(RULESET_CHOICES))
def test_key_order_in_a_file_does_not_change_the_outcome(tmp_path, choice):
    extra = RULESET_CHOICES[choice]
    rng = random.Random(20240607)
    variants = {"original": [], "reversed": [], "shuffled-1": [], "shuffled-2": []}
    for i, path in enumerate(SCENARIO_FILES):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        for name, written in variants.items():
            if name == "original":
                text = path.read_text(encoding="utf-8")
            elif name == "reversed":
                text = _toml(_reverse(doc))
            else:
                text = _toml(_shuffled(doc, rng))
            target = tmp_path / name / str(i) / path.name
            target.parent.mkdir(parents=True)
            target.write_text(text, encoding="utf-8")
            written.append(target)
    reference = _comparisons(variants["original"], *extra)
    for name in ("reversed", "shuffled-1", "shuffled-2"):
        for want, got, path in zip(reference, _comparisons(variants[name], *extra), SCENARIO_FILES, strict=True):
            assert got == want, f"{path.name}: {name} key order changes the comparison"
            # lists are compared in order: the differences keep the documented field order
            assert got["differences"] == want["differences"]


def _reverse(value):
    if isinstance(value, dict):
        return {k: _reverse(v) for k, v in reversed(list(value.items()))}
    if isinstance(value, list):
        return [_reverse(v) for v in value]
    return value


def test_a_reordered_file_really_is_reordered():
    doc = tomllib.loads((LIBRARY / "flying-relents.toml").read_text(encoding="utf-8"))
    text = _toml(_reverse(doc))
    assert text.index('["intent"]') < text.index('["state"]') and text.index('["expect".') < text.index('[["step"]]')
    assert tomllib.loads(text) == doc
    expect = list(tomllib.loads(text)["expect"])
    assert expect == list(reversed(list(doc["expect"])))


# --- file order on the command line ----------------------------------------------------------------


def _orders() -> dict[str, list[str]]:
    shuffled = BUILTINS[:]
    random.Random(12345).shuffle(shuffled)
    return {"sorted": BUILTINS, "reversed": BUILTINS[::-1], "shuffled": shuffled}


def _markdown_sections(text: str) -> dict[str, str]:
    """A several-scenario markdown report cut at each scenario's anchor, by anchor."""
    # (the stamp that ends the report names the files in the order given: the command is the order)
    parts = text.split("\n\nMade by loopcompare ")[0].split('<a id="')[1:]
    return {part.split('"', 1)[0]: part.rstrip("\n") for part in parts}


def _summary_rows(text: str) -> dict[str, str]:
    return {line.split("](#", 1)[1].split(")", 1)[0]: line for line in text.split("\n") if line.startswith("| [")}


@pytest.mark.parametrize("choice", list(RULESET_CHOICES))
def test_file_order_changes_only_the_order_of_the_report(choice):
    extra = RULESET_CHOICES[choice]
    by_order = {name: _comparisons(order, *extra) for name, order in _orders().items()}
    reference = {c["scenario"]["id"]: c for c in by_order["sorted"]}
    for name, order in _orders().items():
        comparisons = by_order[name]
        assert [c["scenario"]["id"] for c in comparisons] == order  # the report follows the arguments
        for c in comparisons:
            assert c == reference[c["scenario"]["id"]], f"{c['scenario']['id']}: differs when the files come {name}"


def test_file_order_changes_only_the_order_of_the_markdown_sections():
    reports = {name: _cli("compare", *order, "-f", "md") for name, order in _orders().items()}
    reference_sections = _markdown_sections(reports["sorted"])
    reference_rows = _summary_rows(reports["sorted"])
    assert len(reference_sections) == len(reference_rows) == len(BUILTINS)
    for name, text in reports.items():
        assert _markdown_sections(text) == reference_sections, name
        assert _summary_rows(text) == reference_rows, name
        _assert_clean_ending(text.encode("utf-8"))
