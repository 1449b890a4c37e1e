"""Plugins installed without pip: a fake distribution's metadata and entry points in a folder
that a subprocess puts on its path (tests/package/test_plugins.py, tests/hostile/)."""

from __future__ import annotations

import textwrap
from pathlib import Path


def fake_distribution(site: Path, name: str, entry_points: str, module: str | None = None, code: str = "") -> None:
    """A minimal installed distribution: METADATA and entry_points.txt, plus an optional module."""
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points), encoding="utf-8")
    if module:
        (site / f"{module}.py").write_text(textwrap.dedent(code), encoding="utf-8")
