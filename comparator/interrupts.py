"""Ctrl-C on the command line: exit status 130, and nothing left half-made.

The README reserves exit status 1 for "a check failed"; an interrupted command exits with 130
(128 + SIGINT, the shell's convention) and says so on standard error, without a traceback.
What a command writes as a whole (a gallery's files, an atlas and its examples) is written
with Ctrl-C held back (:func:`held_interrupt`), and a folder a command created for its output
is removed again when the command ends before writing into it (:func:`new_folder`).

Start-up: the command line imports this module for ``--help`` and shell completion too, so
:mod:`signal` (which click does not load for them) is imported in the functions that set a
handler, when they run, and :mod:`pathlib` only for the type checker (issue 27).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from pathlib import Path

#: The exit status of a command ended by Ctrl-C: 128 + SIGINT (2 on every system Python runs on;
#: written out, so that the module needs no :mod:`signal` for ``--help``).
INTERRUPTED = 130


class Interruptible(click.Group):
    """A command group whose commands exit with status 130 on Ctrl-C (click's own handling
    prints "Aborted!" and exits with 1, the status of a failed check)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ValueError as exc:
            from .loader import ScenarioError  # (here, not at start-up: the loader is not needed for --help)

            if not isinstance(exc, ScenarioError):
                raise
            # A file the engine can't settle, found while settling (FORMAT items 28-31): bad input, exit 2.
            click.echo(f"Error: {exc}", err=True)
            raise click.exceptions.Exit(2) from None
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            raise click.exceptions.Exit(INTERRUPTED) from None


@contextmanager
def held_interrupt() -> Iterator[None]:
    """Hold Ctrl-C back while the block runs, then act on it: files written together are all
    written, or (interrupted before) none.  Outside the main thread, nothing is held."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    import signal  # start-up: see the module's docstring

    pressed: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        pressed.append(signum)

    previous = signal.signal(signal.SIGINT, note)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed:
        raise KeyboardInterrupt


@contextmanager
def new_folder(path: Path) -> Iterator[Path]:
    """Create ``path`` (and any missing parents); if the block ends with an exception (Ctrl-C
    included) the folders created here are removed again, when still empty."""
    created: list[Path] = []
    here = path
    while not here.exists() and here != here.parent:
        created.append(here)
        here = here.parent
    path.mkdir(parents=True, exist_ok=True)
    try:
        yield path
    except BaseException:
        for folder in created:  # deepest first
            try:
                os.rmdir(folder)
            except OSError:
                break  # not empty (or gone): leave it and its parents
        raise


class DeadlinePassed(BaseException):
    """Settling one file took longer than ``--timeout`` (a BaseException, so that no ``except
    Exception`` on the way swallows it)."""


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`DeadlinePassed` in the block after ``seconds`` (None: no deadline).

    For users who settle untrusted files in bulk (``--timeout``).  A timer signal interrupts
    Python code at once and a long multiplication when it ends; it needs the main thread and a
    POSIX system (elsewhere there is no deadline).
    """
    import signal  # start-up: see the module's docstring

    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def passed(signum: int, frame: FrameType | None) -> None:
        raise DeadlinePassed

    previous = signal.signal(signal.SIGALRM, passed)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
