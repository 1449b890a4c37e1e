"""What the command line promises, kept apart from the commands themselves.

* choices are case-insensitive, and ``-f markdown`` means ``-f md`` (:class:`FormatChoice`);
* ``-r`` takes comma- and space-separated lists (:func:`split_keys`);
* ``compare`` comes first in the top-level help (:class:`Commands`), and every command's help
  ends with examples (:data:`EXAMPLES`, set by :func:`install`);
* the report commands print a screen view on a terminal (``--color``, ``--no-pager``, ``-v``:
  :func:`install` adds them; :func:`emit_screen` prints), and the markdown everywhere else;
* completion of a PATH offers the built-in scenarios and the files, in bash, zsh and fish
  (:func:`complete_paths`).

Nothing here imports the domain: ``loopcompare --help`` stays quick (nor :mod:`pathlib`, which
click does not load for ``--help``: :func:`complete_paths` imports it, issue 27).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

#: Other names of the report formats (choices are compared without regard to case).
FORMAT_ALIASES = {"markdown": "md", "htm": "html"}


class FormatChoice(click.Choice):  # type: ignore[type-arg]
    """A report format: ``md``, ``html`` or ``json``, in any case, or an alias (``markdown``)."""

    def __init__(self, choices: Sequence[str]) -> None:
        super().__init__(choices, case_sensitive=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            value = FORMAT_ALIASES.get(value.strip().lower(), value.strip())
        return super().convert(value, param, ctx)


def split_keys(keys: Iterable[str]) -> list[str]:
    """``-r`` values as keys: each value may hold several, separated by commas or spaces
    (``-r cr-2004,cr-2024``, ``-r "cr-2004 cr-2024"``); repeated ``-r`` add up."""
    return [k for value in keys for k in re.split(r"[,\s]+", value) if k]


#: The top-level help lists these first, in this order; the rest follow alphabetically.
FIRST_COMMANDS = ("compare", "timeline", "check", "validate", "new", "scenarios", "rulesets")


class Commands(click.Group):
    """The command group, listing the everyday commands first (``compare`` at the top)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = super().list_commands(ctx)
        first = [n for n in FIRST_COMMANDS if n in names]
        return first + sorted(n for n in names if n not in first)


#: Examples shown at the end of each command's --help: (command line, what it does).
EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    "": (
        ("loopcompare compare flying-relents", "settle a built-in loop under the four main rulesets"),
        ("loopcompare compare my-loop.toml -r all -o report.html", "every era, as an HTML page"),
        ("loopcompare new my-drain --kind multiplayer-drain", "start a scenario file of your own"),
        ("loopcompare COMMAND --help", "the options and examples of one command"),
    ),
    "compare": (
        ("loopcompare compare flying-relents", "a built-in loop under the four main rulesets"),
        ("loopcompare compare my-loop.toml -r cr-2008,cr-2024", "only these two rulesets"),
        ("loopcompare compare my-loop.toml -r all --only-differences", "every era, only the rows that differ"),
        ("loopcompare compare my-loop.toml -o report.html", "an HTML page (the format from the extension)"),
        ("loopcompare compare my-loop.toml --as-of 2005-01-01", "the rules in force on a day"),
        ("loopcompare compare flying-relents | less", "the markdown report (piped, it is never the screen view)"),
    ),
    "timeline": (
        ("loopcompare timeline flying-relents", "when did this loop's outcome change, era by era?"),
        ("loopcompare timeline my-loop.toml -o timeline.html", "as an HTML page"),
    ),
    "cite": (
        ("loopcompare cite", "every rules text shipped, in plain text"),
        ("loopcompare cite cr-2024 -f bibtex", "one ruleset's texts, as BibTeX for a bibliography"),
        ("loopcompare cite flying-relents -f csl-json", "a scenario's report itself, for Zotero or pandoc"),
    ),
    "site": (
        ("loopcompare site site/", "build the reference site into site/; open site/index.html"),
        ("loopcompare site site/ --base-url https://example.org/loops/", "absolute permalinks and citations for a host"),
    ),
    "check": (
        ("loopcompare check my-loop.toml", "exit 1 if an [expect] block no longer holds"),
        ("loopcompare check --fill my-loop.toml", "write the [expect] blocks from today's outcomes"),
        ("loopcompare check --fill -r all my-loop.toml", "pin every era's outcome"),
    ),
    "validate": (
        ("loopcompare validate my-loop.toml", "every error of the file, with its line"),
        ("loopcompare validate --strict loops/", "a folder; warnings count as errors"),
    ),
    "new": (
        ("loopcompare new my-loop", "a two-player loop (format 1) in my-loop.toml"),
        ("loopcompare new drain --kind multiplayer-drain", "a drain over several players (format 2)"),
        ("loopcompare new tug --kind across-turns --format 1", "a loop across turns"),
    ),
    "scenarios": (
        ("loopcompare scenarios", "the built-in scenarios"),
        ("loopcompare scenarios --json", "the same, for a program"),
    ),
    "rulesets": (
        ("loopcompare rulesets", "the rulesets and the periods they were in force"),
        ("loopcompare rulesets --json", "the same, for a program"),
        ("loopcompare rulesets --diff cr-2024", "what changed in a rule's text from the era before"),
    ),
    "atlas": (
        ("loopcompare atlas", "every small loop, grouped by how the four main rulesets disagree"),
        ("loopcompare atlas -r cr-2008,cr-2024 -o atlas.html", "two rulesets, as an HTML page"),
    ),
    "history": (("loopcompare history -o history.html", "each amendment of the loop rules, with the loops it changed"),),
    "gallery": (
        ("loopcompare gallery", "re-render reports/ (every built-in scenario)"),
        ("loopcompare gallery --check", "exit 1 if reports/ is stale"),
    ),
    "sources": (("loopcompare sources MagicCompRules.txt", "find the loop rule in an official rules file"),),
    "schema": (("loopcompare schema > scenario.schema.json", "the JSON Schema of scenario files, for an editor"),),
}

#: Commands whose markdown is shown as a screen view on a terminal.
SCREEN_COMMANDS = ("compare", "timeline", "rulesets", "scenarios", "history", "atlas")
#: Commands that colour what they print.
COLOUR_COMMANDS = (*SCREEN_COMMANDS, "check")


def examples_text(name: str) -> str:
    """The examples section of a command's help, as gh writes it (click keeps a paragraph after
    ``\\b`` as written)."""
    rows = EXAMPLES.get(name, ())
    if not rows:
        return ""
    return "Examples:\n\n\b\n" + "\n".join(f"  # {what}\n  $ {cmd}" for cmd, what in rows)


def _store(key: str) -> Any:
    def callback(ctx: click.Context, _param: click.Parameter, value: Any) -> Any:
        ctx.meta[key] = value
        if key == "loopcompare.color" and value in ("always", "never"):
            ctx.color = value == "always"
        return value

    return callback


def _fish_completion() -> None:
    """fish's completion script, with one change to click's: a completion is split at its first
    comma only (click's splits at every comma, so ``-r cr-2004,mtr-c`` offered nothing)."""
    from click.shell_completion import FishComplete, add_completion_class  # start-up: only for fish's script

    class Fish(FishComplete):
        source_template = FishComplete.source_template.replace('(string split "," $completion)', '(string split -m 1 "," -- $completion)')

    add_completion_class(Fish)


def install(group: click.Group) -> None:
    """Examples at the end of every command's help; ``--color``, ``--no-pager`` and ``-v`` on the
    commands that show a screen view (``--color`` on ``check`` too); fish's completion script."""
    if os.environ.get("_LOOPCOMPARE_COMPLETE", "").startswith("fish"):
        _fish_completion()
    group.epilog = examples_text("")
    for name, command in group.commands.items():
        if command.epilog is None:
            command.epilog = examples_text(name)
        if name in COLOUR_COMMANDS:
            command.params.append(
                click.Option(
                    ["--color", "--colour", "color"],
                    type=click.Choice(("auto", "always", "never"), case_sensitive=False),
                    default="auto",
                    show_default=True,
                    expose_value=False,
                    callback=_store("loopcompare.color"),
                    help="Colour on a terminal: auto (unless NO_COLOR is set; FORCE_COLOR forces it), always or never.",
                )
            )
        if name in SCREEN_COMMANDS:
            command.params.append(
                click.Option(
                    ["--no-pager"],
                    is_flag=True,
                    expose_value=False,
                    callback=_store("loopcompare.no_pager"),
                    help="On a terminal, print without a pager (else long output goes through PAGER, or less, as git does).",
                )
            )
            command.params.append(
                click.Option(
                    ["-v", "--verbose"],
                    is_flag=True,
                    expose_value=False,
                    callback=_store("loopcompare.verbose"),
                    help="On a terminal, show everything the markdown has: the rule texts quoted, the sources, the diagrams.",
                )
            )


def emit_screen(text: str) -> bool:
    """Show a markdown report as the screen view, if this is the place for one: a report command,
    no ``-f``, no ``-o``, standard output a terminal.  False: the caller writes the markdown."""
    ctx = click.get_current_context(silent=True)
    if ctx is None or ctx.command.name not in SCREEN_COMMANDS or ctx.params.get("fmt") is not None:
        return False
    if ctx.params.get("output") is not None or ctx.params.get("as_json") or not sys.stdout.isatty():
        return False
    from . import terminal  # start-up: only on a terminal (see docs/DEVELOPING.md)

    colour = terminal.colour_wanted(ctx.meta.get("loopcompare.color", "auto"), True)
    shown = terminal.screen(text, width=terminal.terminal_width(), colour=colour, verbose=bool(ctx.meta.get("loopcompare.verbose")), keep_lines=ctx.command.name == "rulesets")
    terminal.show(shown, colour=colour, no_pager=bool(ctx.meta.get("loopcompare.no_pager")))
    return True


def colour_context(ctx: click.Context) -> None:
    """The group's colour: NO_COLOR (not empty) turns it off, FORCE_COLOR (not empty) on."""
    if os.environ.get("FORCE_COLOR", ""):
        ctx.color = True
    elif os.environ.get("NO_COLOR", ""):
        ctx.color = False


def complete_paths(incomplete: str) -> list[CompletionItem]:
    """Completion of a PATH: the built-in scenario names that match, and the files and folders
    that do.  With no name matching, the shell completes file names itself (one ``file`` item:
    click's bash script drops every other item when it meets one)."""
    # Start-up: completion only (click loads shell_completion lazily too); the catalogue lists
    # the names without loading the library, which would load the rulesets.
    from pathlib import Path

    from click.shell_completion import CompletionItem

    from .catalogue import names

    found = [CompletionItem(n) for n in names() if n.startswith(incomplete)]
    if not found:
        return [CompletionItem(incomplete, type="file")]
    folder, _, stem = incomplete.rpartition("/")
    base = Path(folder or ".")
    try:
        for entry in sorted(base.iterdir()):
            if entry.name.startswith(stem) and (entry.is_dir() or entry.suffix == ".toml") and not entry.name.startswith("."):
                shown = f"{folder}/{entry.name}" if folder else entry.name
                found.append(CompletionItem(shown + ("/" if entry.is_dir() else "")))
    except OSError:
        pass
    return found
