"""The command line's conventions (comparator/conventions.py): lists and any case for -r, format
aliases, errors that list the keys, --json on the list commands, examples in every --help,
compare first, --version, the starters of `new`, and `check --fill`."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

import loopcompare
from loopcompare.comparator.cli import main
from loopcompare.comparator.starter import FORMATS, KINDS

from helpers import ROOT

LIBRARY = ROOT / "comparator" / "library"


def run(*args: str, **kwargs):
    return CliRunner().invoke(main, list(args), **kwargs)


def columns(markdown: str) -> list[str]:
    header = next(line for line in markdown.splitlines() if line.startswith("| Outcome"))
    return [c.strip() for c in header.strip("|").split("|")][1:]


# --- -r and -f --------------------------------------------------------------------------------------


@pytest.mark.parametrize("given", [["-r", "cr-2004,cr-2024"], ["-r", "cr-2004 cr-2024"], ["-r", "cr-2004, cr-2024"], ["-r", "CR-2004", "-r", "Cr-2024"]])
def test_r_takes_lists_in_any_case(given):
    result = run("compare", "flying-relents", *given)
    assert result.exit_code == 0, result.output
    assert columns(result.stdout) == ["CR 421 (2004)", "CR 729 (2024)"]


def test_all_in_any_case():
    assert len(columns(run("compare", "flying", "-r", "ALL").stdout)) == len(loopcompare.rulesets("all"))


@pytest.mark.parametrize("fmt", ["JSON", "Json", "json"])
def test_formats_in_any_case(fmt):
    result = run("compare", "flying-relents", "-f", fmt)
    assert result.exit_code == 0 and json.loads(result.stdout)["format"] == "loopcompare/1"


@pytest.mark.parametrize("fmt", ["markdown", "MD", "Markdown"])
def test_markdown_is_md(fmt):
    assert run("compare", "flying-relents", "-f", fmt).stdout == (ROOT / "reports" / "flying-relents.md").read_text(encoding="utf-8")


def test_an_unknown_ruleset_lists_the_keys_not_the_aliases():
    result = run("compare", "flying-relents", "-r", "cr-2024,mtr-curent")
    assert result.exit_code == 2
    assert "unknown ruleset 'mtr-curent' (did you mean 'mtr-current'?)" in result.stderr
    assert "known rulesets: summary-1998, cr-2004" in result.stderr and "aliases" not in result.stderr
    assert "g21" not in result.stderr  # an alias


# --- list commands -----------------------------------------------------------------------------------


def test_scenarios_json():
    data = json.loads(run("scenarios", "--json").stdout)
    assert [d["name"] for d in data] == list(loopcompare.builtins())
    flying = next(d for d in data if d["name"] == "flying-relents")
    assert flying["players"] == ["Alice", "Bob"] and flying["format"] == 1 and flying["title"] == loopcompare.builtin("flying-relents").scenario.title


def test_rulesets_json():
    data = json.loads(run("rulesets", "--json").stdout)
    assert [d["key"] for d in data] == [r.key for r in loopcompare.rulesets("all")]
    cr2024 = next(d for d in data if d["key"] == "cr-2024")
    assert cr2024["in_force"][0] == "2024-06-07" and cr2024["rules"][0] == "729.1"


# --- help --------------------------------------------------------------------------------------------


def test_compare_comes_first_in_the_top_level_help():
    text = run("--help").stdout
    commands = text.split("Commands:")[1].split()
    assert commands[0] == "compare"
    assert "Examples:" in text and "loopcompare compare flying-relents" in text


def test_every_command_has_examples_in_its_help():
    for name in main.commands:
        text = run(name, "--help").stdout
        examples = text.split("Examples:")
        assert len(examples) == 2, f"{name} --help has no examples"
        assert f"loopcompare {name}" in examples[1], name


def test_the_examples_run(tmp_path, monkeypatch):
    """Every example that names a built-in scenario (or none) runs as shown."""
    from loopcompare.comparator.conventions import EXAMPLES

    monkeypatch.chdir(tmp_path)
    ran = 0
    for rows in EXAMPLES.values():
        for line, _ in rows:
            words = line.split()
            if any(w in ("|", ">") or w.endswith((".toml", ".txt", "/")) or w.isupper() for w in words) or words[1:2] in (["gallery"], ["atlas"], ["history"]):
                continue
            result = run(*words[1:])
            assert result.exit_code == 0, (line, result.output)
            ran += 1
    assert ran >= 8


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and result.stdout == f"loopcompare, version {loopcompare.__version__}\n"
    assert loopcompare.__version__ not in ("", "0+unknown")


# --- new ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind,fmt", [(k, f) for k in KINDS for f in FORMATS[k]])
def test_each_starter_validates_and_compares(tmp_path, kind, fmt):
    target = tmp_path / f"my-{kind}.toml"
    result = run("new", str(target), "--kind", kind, "--format", str(fmt))
    assert result.exit_code == 0, result.output
    sf = loopcompare.load(target)
    assert sf.scenario.format == fmt and sf.scenario.title == f"my {kind.replace('-', ' ')}"
    assert f"loopcompare validate {target.name}" in target.read_text(encoding="utf-8")
    assert len(loopcompare.compare(sf).outcomes) == 4


def test_the_default_starter_is_two_players_in_format_1(tmp_path):
    run("new", str(tmp_path / "x"))
    sf = loopcompare.load(tmp_path / "x.toml")
    assert sf.scenario.format == 1 and {s.by for s in sf.scenario.steps} == {"Alice", "Bob"}


def test_a_kind_in_a_format_it_has_no_starter_for_is_refused(tmp_path):
    result = run("new", str(tmp_path / "x"), "--kind", "multiplayer-drain", "--format", "1")
    assert result.exit_code == 2 and "format 2 only" in result.stderr and not (tmp_path / "x.toml").exists()
    assert run("new", str(tmp_path / "y"), "--format", "3").exit_code == 2


def test_the_drain_starter_uses_a_target_of_one_for_alice_gaining_life(tmp_path):
    run("new", str(tmp_path / "d"), "--kind", "Multiplayer-Drain")
    steps = loopcompare.load(tmp_path / "d.toml").scenario.steps
    assert any(s.target is not None and tuple(s.target.among) == ("Alice",) for s in steps)


# --- check --fill ------------------------------------------------------------------------------------


def _without_expect(text: str) -> str:
    from loopcompare.comparator.fill import without_expect

    return without_expect(text)


@pytest.mark.parametrize("name", ["flying-relents", "sanguine-bond-exquisite-blood", "doubling-googol", "independent", "cross-turn-stalemate", "zndrsplt-coin-flips"])
def test_fill_writes_expectations_that_pass_and_match_the_library(tmp_path, name):
    original = (LIBRARY / f"{name}.toml").read_text(encoding="utf-8")
    path = tmp_path / f"{name}.toml"
    path.write_text(_without_expect(original), encoding="utf-8")
    assert run("check", str(path)).exit_code == 1  # nothing to check yet
    result = run("check", "--fill", str(path))
    assert result.exit_code == 0, result.output
    filled = path.read_text(encoding="utf-8")
    assert filled.startswith(_without_expect(original).rstrip())  # the rest of the file is kept
    assert run("check", str(path)).exit_code == 0
    # What the library's own file pins, the filled file pins the same way.
    mine, theirs = loopcompare.load(path).expect, loopcompare.builtin(name).expect
    for key, fields in theirs.items():
        for field, value in fields.items():
            if field != "rules":
                assert mine[key][field] == value, (key, field)


def test_fill_replaces_the_blocks_a_file_has_and_keeps_its_rulesets(tmp_path):
    path = tmp_path / "f.toml"
    shutil.copy(LIBRARY / "flying-relents.toml", path)
    text = path.read_text(encoding="utf-8").replace('iterations = 1\n', 'iterations = 7\n', 1)
    path.write_text(text, encoding="utf-8")
    assert run("check", str(path)).exit_code == 1
    assert run("check", "--fill", str(path)).exit_code == 0
    assert run("check", str(path)).exit_code == 0
    assert set(loopcompare.load(path).expect) == set(loopcompare.builtin("flying-relents").expect)
    assert run("check", "--fill", "-r", "all", str(path)).exit_code == 0
    assert len(loopcompare.load(path).expect) == len(loopcompare.rulesets("all"))


def test_fill_refuses_a_builtin_name_and_r_without_fill(tmp_path):
    assert run("check", "--fill", "flying-relents").exit_code == 2
    result = run("check", "-r", "cr-2024", str(LIBRARY / "flying.toml"))
    assert result.exit_code == 2 and "--fill" in result.stderr
