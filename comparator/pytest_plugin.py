"""A pytest plugin for people who pin loop reports in their own test suites.

Installed with loopcompare (entry point ``pytest11``), it gives the ``loop_report`` fixture:
render a scenario under chosen rulesets and check the report against a golden file through
pytest-regressions (``pip install pytest-regressions``)::

    def test_flying_loop(loop_report):
        loop_report("my-loop.toml", rulesets=["cr-2008", "cr-2024"])

The first run writes the golden file next to the test (``test_module/test_flying_loop.md``)
and fails; later runs compare byte for byte; ``pytest --force-regen`` updates it.
"""

from __future__ import annotations

from collections.abc import Iterable
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pytest

if TYPE_CHECKING:
    from loopcompare.comparator.api import Comparison


class LoopReport(Protocol):
    """The ``loop_report`` fixture's value: render a scenario and check it against its golden file."""

    def __call__(
        self,
        scenario: str | PathLike[str],
        rulesets: str | Iterable[str] = (),
        fmt: str = "md",
        basename: str | None = None,
    ) -> Comparison: ...


@pytest.fixture
def loop_report(request: pytest.FixtureRequest) -> LoopReport:
    """``loop_report(scenario, rulesets=(), fmt="md", basename=None)``: check a rendered report.

    ``scenario`` is a path (relative paths are taken from the test file's folder) or a built-in
    scenario's name; ``rulesets`` is one key or alias (``"cr-2024"``, ``"cr-2008,cr-2024"``) or
    several (default: the four mission rulesets).
    Returns the :class:`comparator.compare.Comparison`, for further assertions.
    """
    # Start-up: this plugin loads with every pytest run of every project that has loopcompare
    # installed; the API (and the rulesets) load only when a test asks for the fixture.
    from loopcompare.comparator import api

    def check(
        scenario: str | PathLike[str],
        rulesets: str | Iterable[str] = (),
        fmt: str = "md",
        basename: str | None = None,
    ) -> Comparison:
        path = Path(scenario)
        if not path.is_absolute() and (request.path.parent / path).exists():
            path = request.path.parent / path
        (scenario_file,) = api.scenarios(str(path) if path.exists() else str(scenario))
        comparison = api.compare(scenario_file, api.rulesets(*([rulesets] if isinstance(rulesets, str) else rulesets)))
        text = api.render(comparison, fmt)
        file_regression = request.getfixturevalue("file_regression")
        file_regression.check(text, extension=f".{fmt}", basename=basename, newline="\n", encoding="utf-8")
        return comparison

    return check
