"""The terminal view (comparator/terminal.py): what a report looks like when standard output is a
terminal, run for real under a pseudo-terminal, and the markdown unchanged everywhere else."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from loopcompare.comparator import terminal
from loopcompare.comparator.cli import main

from helpers import ROOT

REPORTS = ROOT / "reports"
ESCAPES = re.compile(r"\\[\\`*_\[\]<>|&~#.\-]|\*\*|^\|.*\|$|^#{1,6} \S", re.M)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def in_a_terminal(args: list[str], columns: int, env: dict[str, str] | None = None, timeout: float = 120) -> str:
    """Run ``python -m loopcompare ARGS`` with standard output (and input) a pseudo-terminal of
    ``columns`` columns; what it printed, with the terminal's CR LF turned back into LF."""
    controller, child = pty.openpty()
    environment = dict(os.environ, COLUMNS=str(columns), LINES="40", TERM="xterm", **(env or {}))
    environment.pop("FORCE_COLOR", None) if "FORCE_COLOR" not in (env or {}) else None
    environment.pop("NO_COLOR", None) if "NO_COLOR" not in (env or {}) else None
    process = subprocess.Popen([sys.executable, "-m", "loopcompare", *args], stdin=child, stdout=child, stderr=subprocess.PIPE, env=environment, close_fds=True)
    os.close(child)
    chunks = []
    while True:
        ready, _, _ = select.select([controller], [], [], timeout)
        if not ready:
            process.kill()
            raise AssertionError("no output from the command in a terminal")
        try:
            data = os.read(controller, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    process.wait(timeout=timeout)
    os.close(controller)
    assert process.returncode == 0, process.stderr.read() if process.stderr else ""
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def widths(text: str) -> list[int]:
    return [terminal.width_of(ANSI.sub("", line)) for line in text.splitlines()]


# --- through a real terminal --------------------------------------------------------------------------


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_the_readme_command_in_a_terminal_fits_and_shows_no_markdown(columns):
    shown = in_a_terminal(["compare", "flying-relents", "--no-pager"], columns)
    assert max(widths(shown)) <= columns
    assert not ESCAPES.search(ANSI.sub("", shown)), ESCAPES.search(ANSI.sub("", shown))
    assert "Outcomes side by side" in shown and "CR 729 (2024)" in shown.replace("\n", " ")
    assert "\x1b[" in shown  # colour, on a terminal
    # The cell that differs is marked by a sign too, not only by colour.
    assert re.search(r"Bob \*", ANSI.sub("", shown))


def test_no_color_keeps_the_marks_and_drops_the_colour():
    shown = in_a_terminal(["compare", "flying-relents", "--no-pager"], 100, env={"NO_COLOR": "1"})
    assert "\x1b[" not in shown
    assert "≠ Iterations" in shown and re.search(r"\b1 \*", shown) and "marked * differ" in shown
    never = in_a_terminal(["compare", "flying-relents", "--no-pager", "--color", "NEVER"], 100)
    assert "\x1b[" not in never
    forced = in_a_terminal(["compare", "flying-relents", "--no-pager"], 100, env={"NO_COLOR": "1", "FORCE_COLOR": "1"})
    assert "\x1b[" in forced


def test_the_rule_texts_and_sources_come_with_v():
    short = in_a_terminal(["compare", "flying-relents", "--no-pager"], 100)
    full = in_a_terminal(["compare", "flying-relents", "--no-pager", "-v"], 100)
    assert "Sources:" not in short and "-v shows them" in short
    assert "Sources:" in full and "│ 729.3" in ANSI.sub("", full)
    assert len(full.splitlines()) > len(short.splitlines()) + 20


def test_long_output_is_paged_with_less_defaults_as_git_does(tmp_path):
    seen = tmp_path / "seen"
    pager = tmp_path / "pager.sh"
    pager.write_text(f'#!/bin/sh\necho "LESS=$LESS" > "{seen}"\ncat > /dev/null\n', encoding="utf-8")
    pager.chmod(0o755)
    in_a_terminal(["compare", "flying-relents"], 100, env={"PAGER": str(pager)})
    assert seen.read_text(encoding="utf-8").strip() == "LESS=FRX"
    seen.unlink()
    in_a_terminal(["compare", "flying-relents"], 100, env={"PAGER": str(pager), "LESS": "R"})
    assert seen.read_text(encoding="utf-8").strip() == "LESS=R"  # the user's LESS is kept
    seen.unlink()
    printed = in_a_terminal(["compare", "flying-relents", "--no-pager"], 100, env={"PAGER": str(pager)})
    assert not seen.exists() and "Outcomes side by side" in printed
    short = in_a_terminal(["scenarios", "--json"], 100, env={"PAGER": str(pager)})
    assert not seen.exists() and short.startswith("[")  # JSON is never the screen view


@pytest.mark.parametrize("command", [["timeline", "flying-relents"], ["rulesets"], ["scenarios"], ["compare", "flying-relents", "-r", "all"]])
def test_every_report_command_fits_a_narrow_terminal(command):
    shown = in_a_terminal([*command, "--no-pager"], 70)
    assert max(widths(shown)) <= 70 and not ESCAPES.search(ANSI.sub("", shown))


def test_a_file_format_or_a_file_is_never_the_screen_view(tmp_path):
    golden = (REPORTS / "flying-relents.md").read_text(encoding="utf-8")
    assert in_a_terminal(["compare", "flying-relents", "-f", "md"], 80) == golden
    assert in_a_terminal(["compare", "flying-relents", "-f", "Markdown"], 80) == golden
    in_a_terminal(["compare", "flying-relents", "-o", str(tmp_path / "r.md")], 80)
    assert (tmp_path / "r.md").read_text(encoding="utf-8") == golden


def test_piped_output_is_the_markdown_byte_for_byte():
    piped = subprocess.run([sys.executable, "-m", "loopcompare", "compare", "flying-relents"], capture_output=True, check=True, env=dict(os.environ, FORCE_COLOR="1"))
    assert piped.stdout == (REPORTS / "flying-relents.md").read_bytes()
    timeline = CliRunner().invoke(main, ["timeline", "flying-relents"]).stdout
    assert timeline == (REPORTS / "timelines" / "flying-relents.md").read_text(encoding="utf-8")


# --- the view itself ------------------------------------------------------------------------------


GALLERY = sorted(p for p in REPORTS.glob("*.md") if p.name not in ("atlas.md",))[:12] + sorted((REPORTS / "timelines").glob("*.md"))[:6] + [REPORTS / "history.md"]


@pytest.mark.parametrize("path", GALLERY, ids=lambda p: p.name)
def test_no_line_is_wider_than_the_terminal(path: Path):
    text = path.read_text(encoding="utf-8")
    for width in (20, 41, 80, 133):
        for verbose in (False, True):
            shown = terminal.screen(text, width=width, colour=True, verbose=verbose)
            assert max(widths(shown)) <= width, (width, verbose)
            assert not ESCAPES.search(ANSI.sub("", shown))


def test_wide_characters_count_twice():
    shown = terminal.screen("| a | b |\n|:--|:--|\n| 漢字漢字漢字漢字漢字 | ok ok ok ok ok ok ok |\n", width=20, colour=False)
    assert max(widths(shown)) <= 20 and "漢字" in shown


def test_text_from_a_scenario_is_shown_not_obeyed():
    shown = terminal.screen("# Title \x1b[2J\n\n| a |\n|:--|\n| \x1b]0;x\x07 |\n", width=40, colour=True)
    assert "\x1b[2J" not in shown and "\\x1b[2J" in shown and "\x07" not in shown


def test_colour_follows_the_flag_then_force_color_then_no_color(monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert terminal.colour_wanted("auto", True) and not terminal.colour_wanted("auto", False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not terminal.colour_wanted("auto", True) and terminal.colour_wanted("always", True)
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert terminal.colour_wanted("auto", False) and not terminal.colour_wanted("never", True)


def test_the_differing_cells_are_bold_and_coloured():
    md = (REPORTS / "flying-relents.md").read_text(encoding="utf-8")
    shown = terminal.screen(md, width=120, colour=True)
    assert click.style("1 *", bold=True, fg="yellow") in shown
