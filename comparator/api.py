"""The Python API: load or build a scenario, settle it, compare it, render a report.

Re-exported from :mod:`loopcompare`; the command line is a thin layer over the same calls.
Everything a scenario file must satisfy, a scenario built in code must satisfy too: a
:class:`~loopcompare.rulesets.scenario.Scenario` passed here is validated by the loader's own
rules (a step by someone who is not a player, or no steps at all, is a :class:`ScenarioError`,
never a silent draw).
"""

from __future__ import annotations

import re
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
"""A ruleset object, or a key or alias (``"cr-2008"``, ``"mtr"``), in any case."""

RulesetsLike = Union[RulesetLike, Iterable[RulesetLike]]
"""One ruleset or several: ``"cr-2024"``, ``"cr-2008,cr-2024"``, ``["cr-2008", "cr-2024"]``, or Ruleset objects."""


def _keys(value: RulesetsLike) -> list[RulesetLike]:
    """One ruleset or many as a list (a string may name several, separated by commas or spaces)."""
    items: Iterable[RulesetLike] = [value] if isinstance(value, (str, Ruleset)) else value
    out: list[RulesetLike] = []
    for item in items:
        out.extend(k for k in re.split(r"[,\s]+", item) if k) if isinstance(item, str) else out.append(item)
    return out


# Where a scenario came from Python (a dict, a Scenario), its errors speak of Python's values,
# not of a TOML file's tables: (pattern, replacement) applied to the field and the message.
_PYTHON_WORDS_DICT = (
    (re.compile(r"\[\[(\w+)\]\] tables?"), r"'\1' entries (a list of dicts)"),
    (re.compile(r"\[expect\.([^\]]+)\]"), r"expect['\1']"),
    (re.compile(r"\[(\w+)\]"), r"'\1'"),
    (re.compile(r"^(step|breaker|end) (\d+)\b"), lambda m: f"{m.group(1)}[{int(m.group(2)) - 1}]"),
    (re.compile(r"\b(a|one) table\b"), r"\1 dict"),
    (re.compile(r"\btables\b"), "dicts"),
    (re.compile(r"\btable\b"), "dict"),
    (re.compile(r"\btrue or false\b"), "True or False"),
    (re.compile(r"\bTOML\b"), "Python"),
)
_PYTHON_WORDS_SCENARIO = (
    *_PYTHON_WORDS_DICT[:3],  # the brackets first: the indexes below write brackets of their own
    (re.compile(r"^step (\d+)\b"), lambda m: f"steps[{int(m.group(1)) - 1}]"),
    (re.compile(r"^breaker (\d+)\b"), lambda m: f"breakers[{int(m.group(1)) - 1}]"),
    *_PYTHON_WORDS_DICT[3:],
)


def _in_python_words(exc: ScenarioError, words: tuple[tuple[re.Pattern[str], Any], ...]) -> ScenarioError:
    """The same errors, worded for input that came from Python (no line numbers, no TOML tables)."""

    def say(text: str) -> str:
        for pattern, replacement in words:
            text = pattern.sub(replacement, text)
        return text

    reworded = [ScenarioError(e.source, say(e.where), say(e.message)) for e in exc.errors]
    first = reworded[0]
    return ScenarioError(first.source, first.where, first.message, errors=tuple(reworded))


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
    try:
        return loader.parse_document(data, name, loader._identifier(str(data.get("title", name))), file=name)
    except ScenarioError as exc:
        raise _in_python_words(exc, _PYTHON_WORDS_DICT) from None


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
        try:
            return loader.validate(scenario)
        except ScenarioError as exc:
            raise _in_python_words(exc, _PYTHON_WORDS_SCENARIO) from None
    if isinstance(scenario, (str, PathLike)):
        found = library.resolve(str(scenario))
        if len(found) != 1:
            raise ScenarioError(str(scenario), "", f"names {len(found)} scenarios (a folder); pass one file or name")
        return found[0]
    raise ScenarioError(repr(scenario)[:60], "", "expected a Scenario, a ScenarioFile, a path or a built-in scenario's name")


def rulesets(*keys: str) -> tuple[Ruleset, ...]:
    """Rulesets by key or alias, in any case (``"all"`` for every one; a string may name several:
    ``"cr-2008,cr-2024"``); none given: the four mission rulesets."""
    return registry().select([k for k in _keys(keys) if isinstance(k, str)])


def _ruleset(ruleset: RulesetLike) -> Ruleset:
    return ruleset if isinstance(ruleset, Ruleset) else registry().get(ruleset)


def settle(scenario: ScenarioLike, ruleset: RulesetLike) -> Outcome:
    """One ruleset's outcome for one scenario."""
    chosen = _ruleset(ruleset)
    return _compare.compare(scenario_file(scenario), (chosen,)).outcomes[chosen.key]


def compare(scenario: ScenarioLike, rulesets: RulesetsLike = ()) -> _compare.Comparison:
    """Settle one scenario under one ruleset or several (default: the four mission rulesets).

    ``rulesets``: a key (``"cr-2024"``), keys (``"cr-2008,cr-2024"``, ``["cr-2008", "cr-2024"]``,
    ``"all"``) or Ruleset objects."""
    chosen: list[Ruleset] = []
    for item in _keys(rulesets):
        for r in registry().select([item]) if isinstance(item, str) else (item,):
            if r not in chosen:
                chosen.append(r)
    chosen = chosen or list(registry().select([]))
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
