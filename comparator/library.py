"""The built-in scenario library, shipped inside the package, and resolving names to scenarios.

Wherever the command line takes a scenario path it also takes a built-in scenario's name
(``flying-relents``), and a folder stands for the ``*.toml`` files in it.
"""

from __future__ import annotations

import difflib
import errno
import os
from pathlib import Path

from .catalogue import folder, names
from .loader import ScenarioError, ScenarioFile, load, parse_bytes

__all__ = ["folder", "load_builtin", "names", "resolve"]


def load_builtin(name: str) -> ScenarioFile:
    """Load a built-in scenario by name."""
    raw = folder().joinpath(f"{name}.toml").read_bytes()
    return parse_bytes(raw, f"{name}.toml (built-in)", name, file=f"{name}.toml")


def resolve(argument: str) -> list[ScenarioFile]:
    """The scenarios an argument names: a file, a folder of ``*.toml`` files, or a built-in name."""
    path = Path(argument)
    problem = _unreachable(path)
    if problem:
        raise ScenarioError(argument, "", problem)
    if path.is_dir():
        try:
            files = sorted(p for p in path.iterdir() if p.suffix == ".toml" and p.is_file())
        except OSError as exc:
            raise ScenarioError(argument, "", f"this folder can't be read: {exc.strerror or exc}") from None
        if not files:
            raise ScenarioError(argument, "", "this folder has no .toml scenario files")
        return [load(p) for p in files]
    if path.exists():
        return [load(path)]
    if argument in names():
        return [load_builtin(argument)]
    close = difflib.get_close_matches(argument, names(), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ScenarioError(argument, "", f"no such file, and no built-in scenario of that name{hint}; see 'loopcompare scenarios'")


def _unreachable(path: Path) -> str | None:
    """Why a path that is there can't be followed (a symlink loop, a dangling symlink), if so.

    A path that is simply missing gives None: it may be a built-in scenario's name.
    """
    try:
        path.stat()
    except FileNotFoundError:
        if os.path.islink(path):
            return f"is a symbolic link to {os.readlink(path)!r}, which does not exist"
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "is a loop of symbolic links: following them never reaches a file"
        return f"can't be read: {exc.strerror or exc}"
    except ValueError:  # an embedded NUL: no such file, but perhaps not a name either
        return None
    return None
