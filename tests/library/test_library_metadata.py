"""The library's descriptive keys, [[oracle]], [[ruling]] and `simplified` (docs/LIBRARY.md).

Accepted in every format, required fields checked, dates and era keys checked, unknown keys
still errors; exposed on the scenario as tuples of frozen records; shown (escaped) in the
markdown, HTML and JSON reports; the schema agrees with the loader.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib

import jsonschema
import pytest

from loopcompare.comparator.compare import compare
from loopcompare.comparator.loader import ScenarioError, parse_bytes, validate
from loopcompare.comparator.render import html, json_report, markdown
from loopcompare.comparator.report import build
from loopcompare.rulesets import OracleText, Ruling, registry

from helpers import ROOT

SCHEMA = json.loads((ROOT / "comparator" / "schema" / "scenario.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

LOOP = """
title = "metadata"
players = ["Alice", "Bob"]

[[step]]
by = "Alice"
does = "acts"
optional = true
"""

CARD = """
[[oracle]]
name = "Pestermite"
text = "Flash\\nFlying\\nWhen Pestermite enters, you may tap or untap target permanent."
date = "2026-11-27"
source = "https://example.invalid/pestermite"
"""

RULING = """
[[ruling]]
source = "https://example.invalid/ruling"
title = "A ruling"
author = "A judge"
date = "2013-02-01"
quote = "The loop is a draw."
eras = ["cr-2004", "mtr"]
"""


def parse(source: str):
    return parse_bytes(source.encode("utf-8"), "case.toml", "case")


def refused(source: str) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse(source)
    return [e.one_line() for e in info.value.errors]


@pytest.mark.parametrize("top", ["", "format = 2\n"], ids=["format 1", "format 2"])
def test_the_keys_are_accepted_in_every_format_and_exposed_as_frozen_records(top):
    sc = parse(top + 'simplified = "one step stands for two"\n' + LOOP + CARD + RULING).scenario
    assert sc.oracle == (OracleText("Pestermite", "Flash\nFlying\nWhen Pestermite enters, you may tap or untap target permanent.", "2026-11-27", "https://example.invalid/pestermite"),)
    # An alias names its ruleset's key.
    assert sc.rulings == (Ruling("https://example.invalid/ruling", "A ruling", "2013-02-01", "The loop is a draw.", ("cr-2004", "mtr-current"), "A judge"),)
    assert sc.simplified == "one step stands for two"
    assert isinstance(sc.oracle, tuple) and isinstance(sc.rulings, tuple) and isinstance(sc.rulings[0].eras, tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        sc.oracle[0].text = "changed"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        sc.rulings[0].eras = ()  # type: ignore[misc]


def test_a_file_without_them_has_none():
    sc = parse(LOOP).scenario
    assert (sc.oracle, sc.rulings, sc.simplified) == ((), (), "")


def test_they_change_no_outcome():
    rulesets = registry().select(["all"])
    plain = compare(parse(LOOP), rulesets)
    described = compare(parse(LOOP + CARD + RULING), rulesets)
    assert {k: o.to_json() for k, o in plain.outcomes.items()} == {k: o.to_json() for k, o in described.outcomes.items()}


def test_a_scenario_built_in_code_keeps_them_through_validate():
    sc = parse('simplified = "s"\n' + LOOP + CARD + RULING).scenario
    assert validate(sc).scenario == sc


@pytest.mark.parametrize(
    "key, table",
    [("oracle", CARD), ("ruling", RULING)],
)
def test_every_required_field_is_required(key, table):
    required = {"oracle": ["name", "text", "date", "source"], "ruling": ["source", "title", "date", "quote", "eras"]}[key]
    for field in required:
        lines = [line for line in table.splitlines() if not line.startswith(f"{field} =")]
        errors = refused(LOOP + "\n".join(lines))
        assert any(f"{key} 1: '{field}': is required" in e for e in errors), errors


def test_missing_fields_are_all_named_with_the_line():
    errors = refused(LOOP + "\n[[ruling]]\ntitle = \"t\"\n")
    assert errors == [f"case.toml: line 10: ruling 1: '{k}': is required" for k in ("source", "date", "quote", "eras")]


@pytest.mark.parametrize(
    "replace, message",
    [
        ('date = 2026-11-27', "'date': write the date as a string in quotes"),
        ('date = "27/11/2026"', "'date': expected a date \"YYYY-MM-DD\""),
        ('date = "2026-02-30"', "'date': '2026-02-30' is not a calendar date"),
        ('date = 20261127', "'date': expected a date \"YYYY-MM-DD\""),
        ('name = ""', "'name': must not be empty"),
        ('text = 3', "'text': expected a string"),
        ('colour = "blue"', "'colour': unknown key"),
    ],
)
def test_oracle_fields_are_checked(replace, message):
    key = replace.split(" =")[0]
    if key in ("date", "name", "text"):
        card = "\n".join(line for line in CARD.splitlines() if not line.startswith(f"{key} =")) + "\n" + replace + "\n"
    else:
        card = CARD + replace + "\n"
    errors = refused(LOOP + card)
    assert any(message in e and "oracle 1" in e for e in errors), errors


@pytest.mark.parametrize(
    "eras, message",
    [
        ('[]', "expected a list of one or more ruleset keys"),
        ('"cr-2004"', "expected a list of one or more ruleset keys"),
        ('["cr-2004", "cr-2040"]', "'eras' item 2: unknown ruleset 'cr-2040'"),
        ('["mtr-current", "mtr"]', "'eras' item 2: names mtr-current twice"),
        ('[2004]', "'eras' item 1: expected a ruleset key"),
    ],
)
def test_eras_must_be_known_ruleset_keys(eras, message):
    errors = refused(LOOP + RULING.replace('eras = ["cr-2004", "mtr"]', f"eras = {eras}"))
    assert any(message in e and "ruling 1" in e for e in errors), errors


def test_simplified_is_text_and_card_stays_reserved_for_format_3():
    assert any("'simplified': expected a string" in e for e in refused("simplified = true\n" + LOOP))
    assert any("'simplified': must not be empty" in e for e in refused('simplified = " "\n' + LOOP))
    # [[card]] is format 3's (name, oracle_from, printed): not a metadata key of format 1 or 2.
    assert any("'card': 'card' is format 3" in e for e in refused(LOOP + '[[card]]\nname = "Time Vault"\n'))
    assert any("'oracle': expected [[oracle]] tables" in e for e in refused('oracle = "Pestermite"\n' + LOOP))


def test_too_many_tables_are_refused():
    errors = refused(LOOP + CARD * 65)
    assert any("65 [[oracle]] tables; at most 64" in e for e in errors), errors


def test_the_reports_show_them_escaped():
    hostile = 'simplified = "# not a heading"\n' + LOOP + CARD.replace("Pestermite\"", "<script>x</script> *Pestermite*\"", 1) + RULING.replace('"A judge"', '"<b>judge</b>"')
    comparisons = [compare(parse(hostile), registry().select([]))]
    report = build(comparisons)
    md = markdown(report)
    assert "## Cards and rulings" in md
    assert "**Cards (Oracle text):**\n\n- \\<script\\>x\\</script\\> \\*Pestermite\\*: Flash  \n  Flying" in md
    assert "- A ruling, \\<b\\>judge\\</b\\>, 2013-02-01, speaks to cr-2004, mtr-current: \u201cThe loop is a draw.\u201d https://example.invalid/ruling" in md
    assert "**Simplified:** \\# not a heading" in md
    page = html(report)
    assert "<script>x" not in page and "&lt;script&gt;x&lt;/script&gt; *Pestermite*" in page
    assert "<dd><blockquote>Flash<br>Flying<br>" in page
    assert "&lt;b&gt;judge&lt;/b&gt;" in page and "<q>The loop is a draw.</q>" in page
    doc = json.loads(json_report(comparisons))
    scenario = doc["comparisons"][0]["scenario"]
    assert scenario["oracle"][0]["name"] == "<script>x</script> *Pestermite*"
    assert scenario["rulings"][0]["eras"] == ["cr-2004", "mtr-current"]
    assert scenario["simplified"] == "# not a heading"


def test_a_report_without_them_has_no_section():
    comparisons = [compare(parse(LOOP), registry().select([]))]
    report = build(comparisons)
    assert "Cards and rulings" not in markdown(report) and "Cards and rulings" not in html(report)
    assert set(json.loads(json_report(comparisons))["comparisons"][0]["scenario"]) == {"id", "title", "file"}


@pytest.mark.parametrize(
    "top, tables, accepted",
    [
        ('simplified = "s"\n', CARD + RULING, True),
        ("", CARD.replace('name = "Pestermite"\n', ""), False),
        ("", RULING.replace('date = "2013-02-01"', 'date = "1 Feb 2013"'), False),
        ("", RULING.replace('eras = ["cr-2004", "mtr"]', "eras = []"), False),
        ("", RULING + 'colour = "blue"\n', False),
        ('simplified = ""\n', "", False),
        ("oracle = []\nruling = []\n", "", True),
    ],
)
def test_the_schema_agrees_with_the_loader(top, tables, accepted):
    source = top + LOOP + tables
    schema_ok = not list(VALIDATOR.iter_errors(tomllib.loads(source)))
    try:
        parse(source)
        loader_ok = True
    except ScenarioError:
        loader_ok = False
    assert (schema_ok, loader_ok) == (accepted, accepted)
