"""``loopcompare new``: starter scenario files, one per kind of loop and format.

The templates are ``comparator/starters/KIND.FORMAT.toml``; ``$title`` and ``$file`` are filled in
(:class:`string.Template`, so TOML's braces need no escaping).  Every template validates and
compares (tests/test_starters.py).
"""

from __future__ import annotations

from importlib import resources
from string import Template

#: The kinds of loop a starter is written for, with what each shows, in the order listed.
KINDS = {
    "two-players": "two players undoing each other (gain flying, lose flying)",
    "one-player": "one player's loop (a token maker and an untap trigger)",
    "multiplayer-drain": "a mandatory drain over several players, each with their own life (format 2)",
    "across-turns": "a loop in which each iteration takes turns",
}
#: The formats each kind is written in; the first is the default.
FORMATS = {"two-players": (1, 2), "one-player": (1, 2), "multiplayer-drain": (2,), "across-turns": (1, 2)}


class StarterError(ValueError):
    """A kind or format that has no starter."""


def starter(kind: str, fmt: int | None, *, title: str, file: str) -> str:
    """The text of the starter for ``kind`` in format ``fmt`` (None: the kind's first format)."""
    if kind not in KINDS:
        raise StarterError(f"no starter of kind {kind!r}; known kinds: {', '.join(KINDS)}")
    formats = FORMATS[kind]
    chosen = formats[0] if fmt is None else fmt
    if chosen not in formats:
        raise StarterError(f"--kind {kind}: written in format {' or '.join(map(str, formats))} only, not format {chosen}")
    text = resources.files("loopcompare.comparator").joinpath("starters", f"{kind}.{chosen}.toml").read_text(encoding="utf-8")
    return Template(text).safe_substitute(title=title, file=file)
