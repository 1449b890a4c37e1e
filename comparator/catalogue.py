"""The names of the built-in scenarios and where their files are, without loading any.

Kept apart from :mod:`.library` (which loads and validates them through the loader and the
rulesets) so that shell completion of a PATH lists the names at the cost of reading a folder.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.abc import Traversable


def folder() -> Traversable:
    """The folder of the built-in scenario files, inside the package."""
    here = Path(__file__).with_name("library")
    if here.is_dir():  # an installed or checked-out package: a folder on disk
        return here
    # Start-up: importlib.resources brings zipfile, tempfile and random (tens of milliseconds on
    # every Tab of a completion), so it is asked only for a package that is not a folder (a zip).
    from importlib import resources

    return resources.files("loopcompare.comparator").joinpath("library")


def names() -> tuple[str, ...]:
    """Every built-in scenario's name, sorted.  A folder on disk is listed again only when it
    changed (its modification time): every report's stamp asks (the gallery, 880 times).  A
    folder changed in the last two seconds is always listed again: a file system's clock may
    tick too coarsely to tell two changes within one tick apart (git's "racy" timestamps)."""
    where = folder()
    if isinstance(where, Path):
        try:
            modified = where.stat().st_mtime_ns
        except OSError:
            modified = None
        key = (str(where), modified) if modified is not None and time.time_ns() - modified > 2_000_000_000 else None
        last_key, last = _LISTED[-1]
        if key is not None and key == last_key:
            return last
        listed = _list(where)
        if key is not None:
            _LISTED[-1] = (key, listed)  # one item replaced whole: a thread reads the old or the new
        return listed
    return _list(where)


def _list(where: Traversable) -> tuple[str, ...]:
    return tuple(sorted(p.name[: -len(".toml")] for p in where.iterdir() if p.name.endswith(".toml")))


#: The last listing of a folder on disk: ((its path, its modification time), its names).
_LISTED: list[tuple[Any, tuple[str, ...]]] = [(None, ())]
