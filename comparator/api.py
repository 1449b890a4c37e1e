"""The Python API: load or build a scenario, settle it, compare it, render a report.

Re-exported from :mod:`loopcompare`; the command line is a thin layer over the same calls.
Everything a scenario file must satisfy, a scenario built in code must satisfy too: a
:class:`~loopcompare.rulesets.scenario.Scenario` passed here is validated by the loader's own
rules (a step by someone who is not a player, or no steps at all, is a :class:`ScenarioError`,
never a silent draw).
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence, Union

from loopcompare.rulesets import Outcome, Ruleset, Scenario
from loopcompare.rulesets.registry import registry

from . import compare as _compare
from . import library, loader, render as _render
from .loader import ScenarioError, ScenarioFile

ScenarioLike = Union[ScenarioFile, Scenario, str, "PathLike[str]"]
"""What the API accepts as a scenario: a loaded file, a :class:`Scenario` built in code, a path
to a TOML file, or a built-in scenario's name."""

RulesetLike = Union[Ruleset, str]
"""A ruleset object, or a key or alias (``"cr-2008"``, ``"mtr"``)."""


def load(path: str | PathLike[str]) -> ScenarioFile:
    """Load and validate a scenario file (TOML, format 1 or 2)."""
    return loader.load(Path(path))


def loads(text: str, name: str = "<text>") -> ScenarioFile:
    """Validate a scenario given as TOML text; ``name`` stands for the file in messages."""
    if not isinstance(text, str):
        raise ScenarioError(name, "", f"expected TOML text, got {type(text).__name__}")
    return loader.parse_bytes(text.encode("utf-8", "surrogatepass"), name, loader._identifier(name), file=name)


def from_dict(data: Mapping[str, Any], name: str = "<dict>") -> ScenarioFile:
    """Validate a scenario given as a parsed document (the dict ``tomllib`` would return)."""
    if not isinstance(data, Mapping):
        raise ScenarioError(name, "", f"expected a mapping of scenario keys, got {type(data).__name__}")
    return loader.parse_document(data, name, loader._identifier(str(data.get("title", name))), file=name)


def builtin(name: str) -> ScenarioFile:
    """A built-in scenario of the library, by name (see :func:`builtins`)."""
    if name not in library.names():
        raise ScenarioError(name, "", "no built-in scenario of that name (see loopcompare.builtins())")
    return library.load_builtin(name)


def builtins() -> tuple[str, ...]:
    """The names of the built-in scenarios, sorted."""
    return library.names()


def scenario_file(scenario: ScenarioLike) -> ScenarioFile:
    """Anything :data:`ScenarioLike` as a validated :class:`ScenarioFile`."""
    if isinstance(scenario, ScenarioFile):
        return scenario
    if isinstance(scenario, Scenario):
        return loader.validate(scenario)
    if isinstance(scenario, (str, PathLike)):
        found = library.resolve(str(scenario))
        if len(found) != 1:
            raise ScenarioError(str(scenario), "", f"names {len(found)} scenarios (a folder); pass one file or name")
        return found[0]
    raise ScenarioError(repr(scenario)[:60], "", "expected a Scenario, a ScenarioFile, a path or a built-in scenario's name")


def rulesets(*keys: str) -> tuple[Ruleset, ...]:
    """Rulesets by key or alias (``"all"`` for every one); none given: the four mission rulesets."""
    return registry().select(list(keys))


def _ruleset(ruleset: RulesetLike) -> Ruleset:
    return ruleset if isinstance(ruleset, Ruleset) else registry().get(ruleset)


def settle(scenario: ScenarioLike, ruleset: RulesetLike) -> Outcome:
    """One ruleset's outcome for one scenario."""
    chosen = _ruleset(ruleset)
    return _compare.compare(scenario_file(scenario), (chosen,)).outcomes[chosen.key]


def compare(scenario: ScenarioLike, rulesets: Iterable[RulesetLike] = ()) -> _compare.Comparison:
    """Settle one scenario under several rulesets (default: the four mission rulesets)."""
    chosen = [_ruleset(r) for r in rulesets] or list(registry().select([]))
    return _compare.compare(scenario_file(scenario), chosen)


def render(
    comparisons: _compare.Comparison | Sequence[_compare.Comparison],
    fmt: str = "md",
    *,
    only_differences: bool = False,
    title: str | None = None,
) -> str:
    """A report of one or more comparisons, as ``"md"``, ``"html"`` or ``"json"`` text."""
    if isinstance(comparisons, _compare.Comparison):
        comparisons = [comparisons]
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r}; known: {', '.join(FORMATS)}")
    return _render.report(list(comparisons), fmt, only_differences=only_differences, title=title)


FORMATS = ("md", "html", "json")
"""The report formats :func:`render` writes."""
