"""The stamp every report carries: the tool's version, the rules texts' versions, and the command
that reproduces the report (no clock time: the same inputs give the same bytes).

Markdown ends with it after a rule; an HTML page has it in a ``<footer>`` at the end of ``<main>``;
a JSON document has it under ``"stamp"``.  A renderer is given the command by the command line;
called from Python, it is the command that would make the same report.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING

from loopcompare.rulesets.citations import Stamp, stamp
from loopcompare.rulesets.registry import registry

from .catalogue import names
from .loader import printable

if TYPE_CHECKING:
    from loopcompare.rulesets import Ruleset

    from .compare import Comparison
    from .loader import ScenarioFile


def command(*words: str) -> str:
    """A shell command line, each word quoted where the shell needs it."""
    return " ".join(shlex.quote(w) for w in words if w != "")


def path_word(argument: str) -> str:
    """A command's scenario argument as a report may show it: no folder (a report names no path),
    a built-in's file by the built-in's name (the same report either way)."""
    if argument == "-":
        return argument
    name = printable(PurePath(argument).name)  # (undecodable bytes as \\xNN: a report is text)
    return name.removesuffix(".toml") if name.removesuffix(".toml") in names() and name.endswith(".toml") else name


def scenario_argument(sf: ScenarioFile) -> str:
    """How a command names a scenario: a built-in by its name, a file by the path it was read from."""
    if sf.file == f"{sf.id}.toml" and sf.id in names():
        return sf.id
    return path_word(sf.file)


def ruleset_options(rulesets: Sequence[Ruleset]) -> list[str]:
    """``-r KEY`` for each ruleset, or nothing for the four mission rulesets (the default)."""
    if tuple(r.key for r in rulesets) == tuple(r.key for r in registry().select([])):
        return []
    if tuple(r.key for r in rulesets) == registry().keys():
        return ["-r", "all"]
    return [w for r in rulesets for w in ("-r", r.key)]


def compare_command(comparisons: Sequence[Comparison], fmt: str, *options: str) -> str:
    """The ``compare`` command that makes a report of these comparisons."""
    rulesets: list[Ruleset] = []
    for c in comparisons:
        rulesets += [r for r in c.rulesets if r not in rulesets]
    args = [scenario_argument(c.scenario) for c in comparisons]
    return command("loopcompare", "compare", *args, *ruleset_options(rulesets), "-f", fmt, *options)


def of(text: str) -> Stamp:
    """The stamp of a report made by the command ``text``."""
    return stamp(text)


def markdown(text: str, made: Stamp) -> str:
    """A markdown report with its stamp at the end."""
    return text.rstrip("\n") + "\n\n" + made.markdown() + "\n"


def html(text: str, made: Stamp) -> str:
    """An HTML page with its stamp in a footer at the end of ``<main>`` (or of the body)."""
    footer = f"<footer>\n{made.html()}\n</footer>\n"
    for end in ("</main>", "</body>"):
        at = text.rfind(end)
        if at >= 0:
            return text[:at] + footer + text[at:]
    return text.rstrip("\n") + "\n" + footer


def stamped(text: str, fmt: str, made: Stamp) -> str:
    """A markdown or HTML report with its stamp (JSON takes it in its document: :func:`json_field`)."""
    return markdown(text, made) if fmt == "md" else html(text, made)


def json_field(made: Stamp) -> dict[str, object]:
    """The ``"stamp"`` member of a JSON report."""
    return made.json()


def files_of(rulesets: Iterable[Ruleset]) -> list[str]:
    """The text files a set of rulesets quotes."""
    return sorted({s.filename for r in rulesets for s in r.sources})
