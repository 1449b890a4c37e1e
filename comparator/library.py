"""The built-in scenario library, shipped inside the package, and resolving names to scenarios.

Wherever the command line takes a scenario path it also takes a built-in scenario's name
(``flying-relents``), and a folder stands for the ``*.toml`` files in it.
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from .loader import ScenarioError, ScenarioFile, load, parse_bytes


def _folder() -> Traversable:
    return resources.files("loopcompare.comparator").joinpath("library")


def names() -> tuple[str, ...]:
    """Every built-in scenario's name, sorted."""
    return tuple(sorted(p.name[: -len(".toml")] for p in _folder().iterdir() if p.name.endswith(".toml")))


def load_builtin(name: str) -> ScenarioFile:
    """Load a built-in scenario by name."""
    raw = _folder().joinpath(f"{name}.toml").read_bytes()
    return parse_bytes(raw, f"{name}.toml (built-in)", name, file=f"{name}.toml")


def resolve(argument: str) -> list[ScenarioFile]:
    """The scenarios an argument names: a file, a folder of ``*.toml`` files, or a built-in name."""
    path = Path(argument)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix == ".toml" and p.is_file())
        if not files:
            raise ScenarioError(argument, "", "this folder has no .toml scenario files")
        return [load(p) for p in files]
    if path.exists():
        return [load(path)]
    if argument in names():
        return [load_builtin(argument)]
    import difflib

    close = difflib.get_close_matches(argument, names(), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ScenarioError(argument, "", f"no such file, and no built-in scenario of that name{hint}; see 'loopcompare scenarios'")
