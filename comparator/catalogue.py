"""The names of the built-in scenarios and where their files are, without loading any.

Kept apart from :mod:`.library` (which loads and validates them through the loader and the
rulesets) so that shell completion of a PATH lists the names at the cost of reading a folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

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
    """Every built-in scenario's name, sorted."""
    return tuple(sorted(p.name[: -len(".toml")] for p in folder().iterdir() if p.name.endswith(".toml")))
