"""The command line: formats, ruleset selection, exit codes, messages, atomic output, the gallery,
and help on every command.  Exit codes: 0 fine, 1 a check failed, 2 bad usage or bad input.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import click
import pytest
from helpers import ACCEPTANCE, LIBRARY, needs_acceptance, scenario_text
from click.testing import CliRunner

from loopcompare.comparator import library
from loopcompare.comparator.cli import main

KEYS = ["cr-2004", "cr-2008", "cr-2024", "mtr-current"]
GOOGOL = 10**100
OUTCOME_KEYS = ["result", "iterations", "steps", "deviates", "last_action", "state", "judge", "rules", "notes", "transcript",
                "ended_by", "eliminated", "stopped_by", "ends_early_if", "expected_iterations",
                "after_cut", "inner", "inner_results", "part", "parts"]

GOOD = scenario_text("gain-and-lose-flying")


def run(*args: str):
    """Invoke the CLI; stdout and stderr are kept apart (``.stdout``, ``.stderr``)."""
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def assert_clean_exit(result, code: int) -> None:
    """The exit code is ``code`` and no Python exception escaped (no traceback for the user)."""
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


def as_json(result) -> dict:
    assert_clean_exit(result, 0)
    return json.loads(result.stdout)


# --- compare: markdown --------------------------------------------------------------------------------


def test_markdown_shows_four_ruleset_columns_and_marks_differing_rows():
    result = run("compare", "flying-relents", "-f", "md")
    assert_clean_exit(result, 0)
    header = next(line for line in result.stdout.splitlines() if line.startswith("| Outcome"))
    columns = [c.strip() for c in header.strip("|").split("|")][1:]
    assert columns == ["CR 421 (2004)", "CR 421 (2008)", "CR 729 (2024)", "MTR 4.4 (current)"]
    rows = {re.sub(r"[*≠]", "", line.split("|")[1]).strip(): line for line in result.stdout.splitlines() if line.startswith("| ")}
    # flying-relents: CR 729.3 stops at the first repeat, the others give Alice the last word
    assert "≠" in rows["Iterations"]
    assert "≠" in rows["Deviates"]
    assert "≠" not in rows["Result"]
    assert "≠" not in rows["Judge may be needed"]


def test_markdown_is_the_default_format():
    assert run("compare", "flying-relents").stdout == run("compare", "flying-relents", "-f", "md").stdout


def test_output_is_deterministic():
    for fmt in ("md", "html", "json"):
        first = run("compare", "flying-relents", "gond-googol", "-f", fmt)
        second = run("compare", "flying-relents", "gond-googol", "-f", fmt)
        assert first.stdout_bytes == second.stdout_bytes
        assert first.stdout.endswith("\n") and not first.stdout.endswith("\n\n")
        assert "\r" not in first.stdout


# --- compare: HTML ---------------------------------------------------------------------------------------


def _assert_self_contained(page: str) -> None:
    assert page.lstrip().lower().startswith("<!doctype html>")
    assert "<script" not in page.lower()
    # nothing is loaded from elsewhere (a citation's link out, <a href>, loads nothing)
    assert not re.search(r"""src\s*=\s*["']?\s*(?:https?:)?//""", page, re.IGNORECASE)
    assert not re.search(r"""<(?!a\s)[a-z]+[^>]*\shref\s*=\s*["']?\s*(?:https?:)?//""", page, re.IGNORECASE)
    assert "<a href='https://x.example'>" not in page
    assert not re.search(r"<link[^>]*stylesheet", page, re.IGNORECASE)
    assert not re.search(r"""(?:@import|url\()\s*["']?\s*(?:https?:)?//""", page, re.IGNORECASE)


def test_html_is_a_self_contained_page():
    result = run("compare", "flying-relents", "-f", "html")
    assert_clean_exit(result, 0)
    _assert_self_contained(result.stdout)
    assert "CR 729 (2024)" in result.stdout


def test_html_escapes_scenario_text(tmp_path):
    # A title is user text: it must come out as text, never as markup.
    path = tmp_path / "evil.toml"
    path.write_text(GOOD.replace("Gain and lose flying", "<script>alert(1)</script><a href='https://x.example'>x</a>"), encoding="utf-8")
    result = run("compare", str(path), "-f", "html")
    assert_clean_exit(result, 0)
    _assert_self_contained(result.stdout)
    assert "&lt;script&gt;" in result.stdout


# --- compare: JSON ----------------------------------------------------------------------------------------


def test_json_matches_the_documented_shape():
    doc = as_json(run("compare", "flying-relents", "-f", "json"))
    assert list(doc) == ["format", "comparisons", "stamp"]  # the stamp: issue 25
    assert doc["format"] == "loopcompare/1"
    [comparison] = doc["comparisons"]
    assert list(comparison) == ["scenario", "rulesets", "outcomes", "differences"]
    assert comparison["scenario"] == {
        "id": "flying-relents",
        "title": "Gain flying, lose flying: Bob gives up after three",
        "file": "flying-relents.toml",
    }
    assert [list(r) for r in comparison["rulesets"]] == [["key", "name", "effective"]] * 4
    assert [r["key"] for r in comparison["rulesets"]] == KEYS
    assert list(comparison["outcomes"]) == KEYS
    for outcome in comparison["outcomes"].values():
        assert list(outcome) == OUTCOME_KEYS
    assert comparison["outcomes"]["cr-2004"]["iterations"] == 3
    assert comparison["outcomes"]["cr-2024"]["iterations"] == 1
    assert comparison["outcomes"]["cr-2004"]["state"] == {"flying": True}


def test_json_differences_list_compared_fields_only():
    comparison = as_json(run("compare", "flying-relents", "-f", "json"))["comparisons"][0]
    outcomes = comparison["outcomes"].values()
    # the rulesets cite different rules, which never counts as a difference
    assert len({tuple(o["rules"]) for o in outcomes}) > 1
    assert comparison["differences"] == ["iterations", "steps", "deviates", "last_action", "state.flying", "stopped_by"]
    assert not {"rules", "notes", "transcript"} & set(comparison["differences"])


def test_json_integers_are_exact_however_large():
    result = run("compare", "gond-googol", "-f", "json")
    doc = as_json(result)
    outcome = doc["comparisons"][0]["outcomes"]["cr-2004"]
    assert outcome["iterations"] == GOOGOL and type(outcome["iterations"]) is int
    assert outcome["state"]["tokens"] == GOOGOL
    assert f'"iterations": {GOOGOL}' in result.stdout
    assert "e+" not in result.stdout


def test_json_unbounded_and_null_values():
    outcomes = as_json(run("compare", "flying", "-f", "json"))["comparisons"][0]["outcomes"]
    assert outcomes["cr-2004"]["iterations"] == "unbounded"
    assert all(isinstance(o["judge"], bool) and isinstance(o["steps"], int) for o in outcomes.values())


def test_json_several_scenarios_in_argument_order():
    doc = as_json(run("compare", "gond-googol", "flying", "-f", "json"))
    assert [c["scenario"]["id"] for c in doc["comparisons"]] == ["gond-googol", "flying"]


# --- compare: rulesets -------------------------------------------------------------------------------


def test_ruleset_selection_keeps_the_order_given():
    doc = as_json(run("compare", "flying-relents", "-f", "json", "-r", "mtr-current", "-r", "cr-2004"))
    comparison = doc["comparisons"][0]
    assert [r["key"] for r in comparison["rulesets"]] == ["mtr-current", "cr-2004"]
    assert list(comparison["outcomes"]) == ["mtr-current", "cr-2004"]
    # 421.3 and MTR 4.4 agree on this loop
    assert comparison["differences"] == []


def test_ruleset_aliases():
    doc = as_json(run("compare", "flying-relents", "-f", "json", "-r", "cr-current", "-r", "mtr"))
    assert [r["key"] for r in doc["comparisons"][0]["rulesets"]] == ["cr-2024", "mtr-current"]


def test_markdown_with_selected_rulesets_has_only_their_columns():
    result = run("compare", "flying-relents", "-r", "cr-2024")
    header = next(line for line in result.stdout.splitlines() if line.startswith("| Outcome"))
    assert "CR 729 (2024)" in header
    assert "CR 421" not in header


def test_unknown_ruleset_exits_2_with_a_message():
    result = run("compare", "flying-relents", "-r", "cr-1999")
    assert_clean_exit(result, 2)
    assert "cr-1999" in result.stderr
    assert "cr-2004" in result.stderr  # says which keys exist
    assert result.stdout == ""


# --- compare: --only-differences ---------------------------------------------------------------------


def test_only_differences_keeps_only_differing_rows():
    full = run("compare", "flying-relents").stdout
    only = run("compare", "flying-relents", "--only-differences")
    assert_clean_exit(only, 0)
    assert "| Result " in full and "| Judge may be needed" in full
    assert "| Result " not in only.stdout
    assert "| Judge may be needed" not in only.stdout
    assert "≠ Iterations" in only.stdout


def test_only_differences_in_html():
    page = run("compare", "flying-relents", "-f", "html", "--only-differences").stdout
    full = run("compare", "flying-relents", "-f", "html").stdout
    assert "Judge may be needed" in full
    assert "Judge may be needed" not in page
    assert "Iterations" in page


# --- compare: -o FILE --------------------------------------------------------------------------------


def test_output_file_gets_what_stdout_would(tmp_path):
    target = tmp_path / "report.json"
    result = run("compare", "flying-relents", "-f", "json", "-o", str(target))
    assert_clean_exit(result, 0)
    assert result.stdout == ""
    assert target.read_text(encoding="utf-8") == run("compare", "flying-relents", "-f", "json").stdout
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary file left behind


def test_bad_input_leaves_an_existing_output_file_untouched(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("colour = 1\n" + GOOD, encoding="utf-8")
    target = tmp_path / "report.md"
    target.write_text("previous report\n", encoding="utf-8")
    result = run("compare", str(bad), "-o", str(target))
    assert_clean_exit(result, 2)
    assert target.read_text(encoding="utf-8") == "previous report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml", "report.md"]


def test_unknown_ruleset_leaves_an_existing_output_file_untouched(tmp_path):
    target = tmp_path / "report.md"
    target.write_text("previous report\n", encoding="utf-8")
    assert_clean_exit(run("compare", "flying", "-r", "nope", "-o", str(target)), 2)
    assert target.read_text(encoding="utf-8") == "previous report\n"


def test_output_into_a_missing_folder_exits_2(tmp_path):
    result = run("compare", "flying", "-o", str(tmp_path / "no" / "such" / "report.md"))
    assert_clean_exit(result, 2)
    assert "does not exist" in result.stderr


# --- scenario arguments: built-in names, files, folders -----------------------------------------------


def test_builtin_name_and_its_file_give_the_same_report():
    by_name = run("compare", "flying-relents", "-f", "json")
    by_path = run("compare", str(LIBRARY / "flying-relents.toml"), "-f", "json")
    assert_clean_exit(by_path, 0)
    assert by_name.stdout == by_path.stdout


@needs_acceptance
def test_a_folder_stands_for_its_toml_files():
    doc = as_json(run("compare", str(ACCEPTANCE), "-f", "json"))
    assert [c["scenario"]["id"] for c in doc["comparisons"]] == [p.stem for p in sorted(ACCEPTANCE.glob("*.toml"))]


@needs_acceptance
def test_a_path_keeps_no_directory_in_the_report():
    doc = as_json(run("compare", str(ACCEPTANCE / "flying.toml"), "-f", "json"))
    assert doc["comparisons"][0]["scenario"]["file"] == "flying.toml"
    assert str(ACCEPTANCE) not in run("compare", str(ACCEPTANCE / "flying.toml")).stdout


def test_unknown_scenario_name_exits_2():
    result = run("compare", "no-such-loop")
    assert_clean_exit(result, 2)
    assert "no-such-loop" in result.stderr
    assert "scenarios" in result.stderr  # points at 'loopcompare scenarios'


def test_empty_folder_exits_2(tmp_path):
    result = run("validate", str(tmp_path))
    assert_clean_exit(result, 2)
    assert "no .toml" in result.stderr


# --- check ---------------------------------------------------------------------------------------------


@needs_acceptance
def test_check_passes_on_the_acceptance_files():
    files = sorted(str(p) for p in ACCEPTANCE.glob("*.toml"))
    assert len(files) >= 12
    result = run("check", *files)
    assert_clean_exit(result, 0)
    assert "FAIL" not in result.output
    assert result.stdout.count("ok ") == len(files)


@needs_acceptance
def test_check_fails_naming_the_field(tmp_path):
    text = (ACCEPTANCE / "flying-relents.toml").read_text(encoding="utf-8")
    wrong = text.replace("[expect.cr-2004]\nresult = \"shortcut\"\niterations = 3", "[expect.cr-2004]\nresult = \"shortcut\"\niterations = 4", 1)
    assert wrong != text
    path = tmp_path / "wrong.toml"
    path.write_text(wrong, encoding="utf-8")
    result = run("check", str(path))
    assert_clean_exit(result, 1)
    assert "FAIL wrong.toml" in result.stdout
    assert "cr-2004: iterations: expected 4, got 3" in result.stdout
    # the other rulesets' expectations still hold
    assert "cr-2008" not in result.stdout


def test_check_names_a_failing_state_value(tmp_path):
    path = tmp_path / "state.toml"
    path.write_text(GOOD + '\n[expect.cr-2024]\nresult = "shortcut"\nstate = { flying = true }\n', encoding="utf-8")
    result = run("check", str(path))
    assert_clean_exit(result, 1)
    assert "cr-2024: state.flying: expected true, got false" in result.stdout


@needs_acceptance
def test_check_fails_if_any_one_file_fails(tmp_path):
    path = tmp_path / "wrong.toml"
    path.write_text(GOOD + '\n[expect.cr-2004]\nresult = "draw"\n', encoding="utf-8")
    result = run("check", str(ACCEPTANCE / "flying.toml"), str(path))
    assert_clean_exit(result, 1)
    assert "ok   flying.toml" in result.stdout
    assert "result: expected 'draw'" in result.stdout


def test_check_on_an_invalid_file_exits_2(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(GOOD + '\n[expect.cr-1999]\nresult = "draw"\n', encoding="utf-8")
    result = run("check", str(path))
    assert_clean_exit(result, 2)
    assert "[expect.cr-1999]" in result.stderr


# --- validate ----------------------------------------------------------------------------------------


@needs_acceptance
def test_validate_accepts_good_files_and_builtins(tmp_path):
    path = tmp_path / "good.toml"
    path.write_text(GOOD, encoding="utf-8")
    result = run("validate", str(path), "flying-relents", str(ACCEPTANCE))
    assert_clean_exit(result, 0)
    assert "good.toml" in result.stdout


@pytest.mark.parametrize(
    "change, fragments",
    [
        pytest.param(lambda t: "colour = 1\n" + t, ["'colour'", "unknown key"], id="unknown key"),
        pytest.param(lambda t: t.replace('by = "Bob"', 'by = "Carl"'), ["step 2", "'by'", "'Carl'", "Alice, Bob"], id="unknown player"),
        pytest.param(lambda t: t.replace("set = { flying = true }", "set = { flying = 1 }"), ["step 1", "flying", "true or false"], id="wrong type"),
        pytest.param(lambda t: t.replace("Bob = 3", 'Bob = "infinite"'), ["[intent]", "Bob", '"never"', "finite number"], id="infinite"),
        pytest.param(lambda t: t.replace("flying = false", "flying = 'no'", 1), ["[state]", "flying", "string"], id="state type"),
    ],
)
def test_validate_reports_the_file_and_field_with_exit_2(tmp_path, change, fragments):
    path = tmp_path / "bad.toml"
    path.write_text(change(GOOD), encoding="utf-8")
    result = run("validate", str(path))
    assert_clean_exit(result, 2)
    assert str(path) in result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr


def test_validate_refuses_non_utf8_without_a_traceback(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(GOOD.replace("Gain", "Ga\u00efn").encode("latin-1"))
    result = run("validate", str(path))
    assert_clean_exit(result, 2)
    assert "UTF-8" in result.stderr


def test_validate_refuses_a_folder_with_one_bad_file(tmp_path):
    (tmp_path / "a-good.toml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "b-bad.toml").write_text(GOOD.replace("Bob = 3", "Bob = -3"), encoding="utf-8")
    result = run("validate", str(tmp_path))
    assert_clean_exit(result, 2)
    assert "b-bad.toml" in result.stderr
    assert "0 or more" in result.stderr


# --- listings -----------------------------------------------------------------------------------------


def test_rulesets_lists_every_era_in_chronological_order():
    result = run("rulesets")
    assert_clean_exit(result, 0)
    table = result.stdout.split("\n\n", 1)[0]  # (the numbers of the loop rule follow, in a table of their own)
    keys = [line.split("|")[1].strip() for line in table.splitlines()[2:] if line.startswith("|")]
    assert [k for k in keys if k in KEYS] == KEYS
    assert keys == ["summary-1998", "cr-2004", "cr-2005", "cr-2008", "cr-2009", "cr-2009-09", "mtr-2018", "cr-2024", "mtr-current"]


def test_scenarios_lists_the_builtins():
    result = run("scenarios")
    assert_clean_exit(result, 0)
    names = [line.split("|")[1].strip() for line in result.stdout.splitlines()[2:]]
    assert names == sorted(p.stem for p in LIBRARY.glob("*.toml"))
    assert names == list(library.names())
    assert "flying-relents" in names


def test_every_listed_scenario_works_as_an_argument():
    assert_clean_exit(run("validate", *library.names()), 0)


# --- gallery ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def written_gallery(tmp_path_factory) -> Path:
    """``loopcompare gallery --dir`` run once for this module (it renders every report): each test
    below works on a copy of its own."""
    folder = tmp_path_factory.mktemp("written") / "gallery"
    assert_clean_exit(run("gallery", "--dir", str(folder)), 0)
    return folder


@pytest.fixture
def gallery_copy(written_gallery, tmp_path) -> Path:
    folder = tmp_path / "gallery"
    shutil.copytree(written_gallery, folder)
    return folder


def test_gallery_writes_every_format_and_the_index_then_checks(gallery_copy):
    folder = gallery_copy
    names = library.names()
    expected = {f"{n}.{fmt}" for n in names for fmt in ("md", "html", "json")} | {"index.md", "index.html", "timelines", "atlas.md", "atlas.html", "atlas.json", "history.md", "history.html", "history.json", "README.md", ".loopcompare-gallery"}
    assert {p.name for p in folder.iterdir()} == expected
    assert {p.name for p in (folder / "timelines").iterdir()} == {f"{n}.{fmt}" for n in names for fmt in ("md", "html", "json")}
    _assert_self_contained((folder / "index.html").read_text(encoding="utf-8"))
    assert "flying-relents.md" in (folder / "index.md").read_text(encoding="utf-8")
    assert json.loads((folder / "flying-relents.json").read_text(encoding="utf-8"))["format"] == "loopcompare/1"

    assert_clean_exit(run("gallery", "--check", "--dir", str(folder)), 0)

    (folder / "flying-relents.md").write_text("edited by hand\n", encoding="utf-8")
    stale = run("gallery", "--check", "--dir", str(folder))
    assert_clean_exit(stale, 1)
    assert "flying-relents.md" in stale.output
    assert "index.md" not in stale.stdout  # only the modified file is named
    assert (folder / "flying-relents.md").read_text(encoding="utf-8") == "edited by hand\n"  # --check never writes


def test_gallery_check_fails_when_a_file_is_missing(gallery_copy):
    folder = gallery_copy
    (folder / "index.html").unlink()
    result = run("gallery", "--check", "--dir", str(folder))
    assert_clean_exit(result, 1)
    assert "index.html" in result.output


def test_gallery_rerun_rewrites_nothing(gallery_copy):
    folder = gallery_copy
    result = run("gallery", "--dir", str(folder))
    assert_clean_exit(result, 0)
    assert "wrote 0 of" in result.stdout


def test_gallery_matches_compare(gallery_copy):
    folder = gallery_copy
    assert (folder / "gond-googol.json").read_text(encoding="utf-8") == run("compare", "gond-googol", "-f", "json").stdout


# --- version and help -----------------------------------------------------------------------------------


def test_version():
    from importlib import metadata

    result = run("--version")
    assert_clean_exit(result, 0)
    assert result.stdout.strip() == f"loopcompare, version {metadata.version('loopcompare')}"


def _commands():
    return sorted(main.commands)


def test_the_expected_commands_exist():
    assert set(_commands()) >= {"compare", "check", "validate", "rulesets", "scenarios", "gallery"}


@pytest.mark.parametrize("args", [[]] + [[name] for name in sorted(main.commands)], ids=lambda a: a[0] if a else "main")
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_on_every_command(args, flag):
    result = run(*args, flag)
    assert_clean_exit(result, 0)
    assert result.stdout.startswith("Usage: ")


@pytest.mark.parametrize("name", sorted(main.commands))
def test_every_command_and_option_has_help_text(name):
    command = main.commands[name]
    assert command.help and command.help.strip(), f"{name} has no help text"
    assert command.get_short_help_str().strip()
    for param in command.params:
        if isinstance(param, click.Option) and param.name != "help":
            assert param.help, f"{name} {param.opts} has no help text"


def test_group_help_lists_every_command():
    text = run("-h").stdout
    for name in _commands():
        assert name in text


def test_no_arguments_to_compare_is_a_usage_error():
    result = run("compare")
    assert_clean_exit(result, 2)
    assert "Usage:" in result.stderr


def test_unknown_format_is_a_usage_error():
    result = run("compare", "flying", "-f", "pdf")
    assert_clean_exit(result, 2)
    assert "pdf" in result.stderr
