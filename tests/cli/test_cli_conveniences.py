"""What a user expects of a command line: standard input, a format guessed from -o, "did you
mean", NO_COLOR, progress bars only on a terminal, a table-only output and a title, shell
completion (documented)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from loopcompare.comparator import cli
from loopcompare.comparator.cli import main
from loopcompare.comparator.library import load_builtin

from helpers import ROOT

FLYING = (ROOT / "comparator" / "library" / "flying-relents.toml").read_text(encoding="utf-8")


def run(*args: str, stdin: str | None = None, env=None):
    return CliRunner().invoke(main, list(args), input=stdin, env=env)


# --- standard input ---------------------------------------------------------------------------------


def test_a_dash_reads_the_scenario_from_standard_input():
    piped = run("compare", "-", "-f", "json", stdin=FLYING)
    named = run("compare", "flying-relents", "-f", "json")
    assert piped.exit_code == 0, piped.output
    assert '"file": "<stdin>"' in piped.stdout
    assert piped.stdout.replace('"id": "stdin"', "").replace('"file": "<stdin>"', "") == named.stdout.replace(
        '"id": "flying-relents"', ""
    ).replace('"file": "flying-relents.toml"', "").replace("compare flying-relents -f json", "compare - -f json")  # (the stamp's command)


def test_bad_standard_input_is_named_and_exits_2():
    result = run("validate", "-", stdin="title = 1\n")
    assert result.exit_code == 2 and "<stdin>" in result.stderr and "Traceback" not in result.output


def test_standard_input_is_read_once():
    result = run("compare", "-", "-", stdin=FLYING)
    assert result.exit_code == 2 and "only once" in result.stderr


def test_an_endless_standard_input_is_refused_without_reading_it_all():
    # More than the 1 MiB limit arrives; one byte past it is enough to refuse.
    result = run("compare", "-", stdin="#" * (3 << 20))
    assert result.exit_code == 2 and "bytes" in result.stderr


# --- the format from -o's extension -------------------------------------------------------------------


@pytest.mark.parametrize("name, start", [("r.html", "<!DOCTYPE html>"), ("r.json", "{"), ("r.md", "# "), ("r.txt", "# ")])
def test_the_format_follows_the_output_file(tmp_path, name, start):
    target = tmp_path / name
    result = run("compare", "flying-relents", "-o", str(target))
    assert result.exit_code == 0, result.output
    assert target.read_text(encoding="utf-8").startswith(start)


def test_an_explicit_format_wins_over_the_extension(tmp_path):
    target = tmp_path / "r.html"
    assert run("compare", "flying-relents", "-o", str(target), "-f", "md").exit_code == 0
    assert target.read_text(encoding="utf-8").startswith("# ")


def test_timeline_and_atlas_follow_the_extension_too(tmp_path):
    target = tmp_path / "t.json"
    assert run("timeline", "flying-relents", "-o", str(target)).exit_code == 0
    assert target.read_text(encoding="utf-8").startswith('{\n  "format": "loopcompare/timeline/1"')
    assert cli._format(None, "atlas.HTML") == "html" and cli._format(None, None) == "md" and cli._format("json", "a.md") == "json"


# --- did you mean -----------------------------------------------------------------------------------------


def test_an_unknown_scenario_name_gets_a_suggestion():
    result = run("compare", "flying-relent")
    assert result.exit_code == 2 and "did you mean 'flying-relents'?" in result.stderr


def test_an_unknown_ruleset_key_gets_a_suggestion():
    result = run("compare", "flying", "-r", "cr-2042")
    assert result.exit_code == 2 and "did you mean 'cr-2024'?" in result.stderr


def test_an_unknown_toml_key_gets_a_suggestion(tmp_path):
    path = tmp_path / "typo.toml"
    path.write_text(FLYING.replace("optional = true", "optinal = true", 1), encoding="utf-8")
    result = run("validate", str(path))
    assert result.exit_code == 2 and "'optinal': unknown key (did you mean 'optional'?)" in result.stderr


def test_no_suggestion_when_nothing_is_close():
    result = run("compare", "zzzzzzzz")
    assert result.exit_code == 2 and "did you mean" not in result.stderr


# --- colour, progress ---------------------------------------------------------------------------------------


def test_check_colours_its_verdicts_on_a_terminal_unless_no_color(tmp_path):
    path = tmp_path / "flying.toml"
    path.write_text(FLYING, encoding="utf-8")
    coloured = CliRunner().invoke(main, ["check", str(path)], color=True)
    plain = CliRunner().invoke(main, ["check", str(path)], color=True, env={"NO_COLOR": "1"})
    empty = CliRunner().invoke(main, ["check", str(path)], color=True, env={"NO_COLOR": ""})
    assert "\x1b[" in coloured.stdout and "\x1b[" in empty.stdout  # an empty NO_COLOR is unset
    assert "\x1b[" not in plain.stdout and plain.stdout.startswith("ok ")


def test_no_progress_bar_when_stderr_is_not_a_terminal():
    # CliRunner's streams are not terminals: nothing may appear on stderr. (The smaller space:
    # the bar is the same; the full one took minutes here. tests/reports/test_atlas.py checks the full space.)
    result = run("atlas", "--space", "format1", "-r", "cr-2008", "-r", "cr-2024", "-j", "1")
    assert result.exit_code == 0 and result.stderr == ""


def test_a_progress_bar_on_a_terminal(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    bar = cli._progress(3, "settling loops")
    assert bar is not None
    with bar:
        bar.update(3)
    assert "settling loops" in stream.getvalue()
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert cli._progress(3, "x") is None


# --- table only, title -------------------------------------------------------------------------------------


def test_table_only_gives_just_the_outcome_table():
    text = run("compare", "flying-relents", "--table-only").stdout
    lines = text.splitlines()
    # the table, then its one-line source note (issue 25; --no-source-note leaves it out)
    assert lines[0].startswith("| Outcome ") and all(line.startswith("|") for line in lines[:-2])
    assert lines[-2:] == ["", lines[-1]] and lines[-1].startswith("Source: Made by loopcompare")
    assert "| **≠ Iterations**" in text and "**1**" in text


def test_table_only_in_html_is_a_fragment_with_captions():
    text = run("compare", "flying-relents", "flying", "--table-only", "-f", "html", "--title", "Two <loops>").stdout
    assert text.startswith("<h2>Two &lt;loops&gt;</h2>\n<table>") and "<html" not in text and "<style" not in text
    assert text.count("<caption>") == 2


def test_table_only_refuses_json():
    result = run("compare", "flying-relents", "--table-only", "-f", "json")
    assert result.exit_code == 2 and "--table-only" in result.stderr


def test_a_title_names_the_report():
    md = run("compare", "flying-relents", "--title", "My *article*").stdout
    html = run("compare", "flying-relents", "--title", "My <article>", "-f", "html").stdout
    assert md.startswith("# My \\*article\\*\n")
    assert "<title>My &lt;article&gt;</title>" in html and "<h1 id=\"my-article\">My &lt;article&gt; <a class=\"permalink\"" in html


# --- shell completion -------------------------------------------------------------------------------------


def test_shell_completion_is_documented_and_works():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "_LOOPCOMPARE_COMPLETE=bash_source loopcompare" in readme
    env = dict(os.environ, _LOOPCOMPARE_COMPLETE="bash_source")
    script = subprocess.run([sys.executable, "-m", "loopcompare"], env=env, capture_output=True, text=True)
    assert "complete" in script.stdout and "_LOOPCOMPARE_COMPLETE" in script.stdout, script.stderr


def test_completion_offers_scenario_names_and_ruleset_keys():
    env = dict(os.environ, _LOOPCOMPARE_COMPLETE="bash_complete", COMP_WORDS="loopcompare compare flying-rel", COMP_CWORD="2")
    out = subprocess.run([sys.executable, "-m", "loopcompare"], env=env, capture_output=True, text=True, cwd=ROOT).stdout
    assert "flying-relents" in out
    env.update(COMP_WORDS="loopcompare compare flying -r cr-20", COMP_CWORD="4")
    out = subprocess.run([sys.executable, "-m", "loopcompare"], env=env, capture_output=True, text=True, cwd=ROOT).stdout
    assert "cr-2024" in out and "cr-2004" in out and not re.search(r"\bmtr\b", out)


def test_the_builtin_used_here_exists():
    assert load_builtin("flying-relents").scenario.players == ("Alice", "Bob")
