"""The Python API: load or build a scenario, settle it, compare it, render a report.

Re-exported from :mod:`loopcompare`; the command line is a thin layer over the same calls.
Everything a scenario file must satisfy, a scenario built in code must satisfy too: a
:class:`~loopcompare.rulesets.scenario.Scenario` passed here is validated by the loader's own
rules (a step by someone who is not a player, or no steps at all, is a :class:`ScenarioError`,
never a silent draw).
"""

from __future__ import annotations

import re
from importlib import resources
from os import PathLike
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterable, Mapping, Sequence, Union

from loopcompare.rulesets import Outcome, Ruleset, Scenario
from loopcompare.rulesets import history as _history
from loopcompare.rulesets.registry import Registry, UnknownRuleset
from loopcompare.rulesets.registry import registry as _registry

from . import amendments as _amendments
from . import atlas as _atlas
from . import build as _build
from . import citing as _citing
from . import compare as _compare
from . import concordance as _concordance
from . import crfile as _crfile
from . import fill as _fill
from . import library, loader
from . import listing as _listing
from . import render as _render
from . import textchanges as _textchanges
from . import timeline as _timeline
from .build import Progress
from .compare import Comparison, Mismatch, set_plugin_budget, set_plugin_time_limit
from .concordance import TraceError
from .descriptors import stream_size
from .isolation import enabled as isolation_enabled
from .isolation import set_isolation
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
    return loader.parse_bytes(text.encode("utf-8", "surrogatepass"), name, loader.identifier(name), file=name)


def from_dict(data: Mapping[str, Any], name: str = "<dict>") -> ScenarioFile:
    """Validate a scenario given as a parsed document (the dict ``tomllib`` would return)."""
    if not isinstance(data, Mapping):
        raise ScenarioError(name, "", f"expected a mapping of scenario keys, got {type(data).__name__}")
    try:
        return loader.parse_document(data, name, loader.identifier(str(data.get("title", name))), file=name)
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


def scenarios(argument: str | PathLike[str]) -> list[ScenarioFile]:
    """The scenarios an argument names, as the command line reads a PATH: a file, a folder's
    ``*.toml`` files (sorted), or a built-in scenario's name."""
    return library.resolve(str(argument))


def read(stream: BinaryIO, name: str = "<stdin>") -> ScenarioFile:
    """A scenario read from a binary stream (standard input), at most as long as a file may be:
    an endless stream is refused at once, naming its size."""
    raw = stream.read(loader.MAX_BYTES + 1)
    if len(raw) > loader.MAX_BYTES:
        raise ScenarioError(name, "", f"is {stream_size(stream, len(raw))}; scenario files are limited to {loader.MAX_BYTES:,} bytes")
    return loader.parse_bytes(raw, name, loader.identifier(name), file=name)


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
    return _registry().select([k for k in _keys(keys) if isinstance(k, str)])


def _ruleset(ruleset: RulesetLike) -> Ruleset:
    return ruleset if isinstance(ruleset, Ruleset) else _registry().get(ruleset)


def settle(scenario: ScenarioLike, ruleset: RulesetLike) -> Outcome:
    """One ruleset's outcome for one scenario."""
    chosen = _ruleset(ruleset)
    return _compare.compare(scenario_file(scenario), (chosen,)).outcomes[chosen.key]


def compare(scenario: ScenarioLike, rulesets: RulesetsLike = ()) -> _compare.Comparison:
    """Settle one scenario under one ruleset or several (default: the four mission rulesets).

    ``rulesets``: a key (``"cr-2024"``), keys (``"cr-2008,cr-2024"``, ``["cr-2008", "cr-2024"]``,
    ``"all"``) or Ruleset objects."""
    return _compare.compare(scenario_file(scenario), compare_rulesets(rulesets))


def render(
    report: _compare.Comparison | Sequence[_compare.Comparison] | _timeline.Timeline | Sequence[_timeline.Timeline] | _atlas.Atlas | _amendments.History,
    fmt: str = "md",
    *,
    only_differences: bool = False,
    title: str | None = None,
    table_only: bool = False,
    mermaid: bool = False,
    source_note: bool = True,
    links: Sequence[str] | None = None,
    see_also: Sequence[tuple[str, str]] = (),
    command: str | None = None,
) -> str:
    """A report as ``"md"``, ``"html"`` or ``"json"`` text: of one or more comparisons, of one or
    more timelines (:func:`timeline`), of an atlas (:func:`atlas`) or of the history (:func:`history`).

    Every report carries a stamp naming the command that reproduces it: ``command`` (default:
    the command that would).  For comparisons only: ``only_differences`` keeps the rows where the
    rulesets differ, ``title`` titles the report, ``table_only`` keeps only the outcome tables
    (markdown, or an HTML fragment) with a one-line source note unless ``source_note`` is False,
    ``mermaid`` draws each loop as a Mermaid flowchart (markdown), ``links`` (one per comparison)
    and ``see_also`` ((text, link) pairs) link an index to other reports.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r}; known: {', '.join(FORMATS)}")
    if isinstance(report, _atlas.Atlas):
        return _render.atlas_report(report, fmt, command)
    if isinstance(report, _amendments.History):
        return _amendments.render(report, fmt, command=command)
    items = [report] if isinstance(report, (_compare.Comparison, _timeline.Timeline)) else list(report)
    if items and all(isinstance(t, _timeline.Timeline) for t in items):
        return _render.timeline_report([t for t in items if isinstance(t, _timeline.Timeline)], fmt, command)
    comparisons = [c for c in items if isinstance(c, _compare.Comparison)]
    if len(comparisons) != len(items):
        raise TypeError("render takes comparisons, timelines, an atlas or a history (not a mixture)")
    return _render.report(
        comparisons,
        fmt,
        only_differences=only_differences,
        title=title,
        links=links,
        see_also=see_also,
        mermaid=mermaid,
        table_only=table_only,
        command=command,
        source_note=source_note,
    )


def check(comparison: _compare.Comparison) -> list[_compare.Mismatch]:
    """Every ``[expect]`` field of the comparison's scenario that its outcomes do not meet."""
    return _compare.check(comparison)


def registry() -> Registry:
    """The registry of every ruleset, built-in and plugin: ``.rulesets`` in order, ``.get(key)``,
    ``.select(keys)``, and ``.problems`` and ``.printed``, what plugins did wrong while loading."""
    return _registry()


def in_force(date: str, also: RulesetsLike = ()) -> tuple[tuple[Ruleset, ...], tuple[str, ...]]:
    """The rulesets in force on ``date`` (``YYYY-MM-DD``, from 1998-03-31): the CR, and the MTR
    where one existed, numbered as on that day; then those of ``also`` whose key is not taken
    (one ruleset per key: the text in force that day wins).  With them, the notes on what the
    sources leave open about that day.  A date out of range or malformed: :class:`ValueError`."""
    chosen = _history.as_of(_registry().rulesets, date)
    merged: dict[str, Ruleset] = {}
    for r in (*chosen.rulesets, *(_ruleset(k) for k in _keys(also))):
        merged.setdefault(r.key, r)
    return tuple(merged.values()), tuple(chosen.notes)


def timeline(scenario: ScenarioLike, rulesets: RulesetsLike = "all") -> _timeline.Timeline:
    """One scenario settled under every era in order (default: every ruleset): when did its outcome change?"""
    chosen = [r for k in _keys(rulesets) for r in (_registry().select([k]) if isinstance(k, str) else (k,))]
    return _timeline.build(scenario_file(scenario), chosen)


def atlas(
    rulesets: RulesetsLike = (),
    *,
    space: str = "full",
    fields: Sequence[str] | None = None,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> _atlas.Atlas:
    """Enumerate small loops (``space``: ``"format1"`` or ``"full"``), settle each under the
    rulesets (default: the four mission rulesets; two or more) and group how they disagree, on
    ``jobs`` processes (default: the CPUs available).  ``fields``: the outcome fields compared
    (default: the atlas's own).  ``progress(length, label)`` may return a progress bar (a context
    manager with ``update(n)``), or None for none."""
    chosen = compare_rulesets(rulesets)
    options: dict[str, Any] = {"space": space}
    if fields is not None:
        options["fields"] = fields
    return _build.build_atlas(chosen, jobs, progress, **options)


def atlas_examples(atlas: _atlas.Atlas) -> list[str]:
    """Each class's smallest example of an atlas, as a scenario file's TOML text, in class order."""
    return [_atlas.to_toml(cls.example) for cls in atlas.classes]


def history(rulesets: RulesetsLike = "all", *, jobs: int | None = None, progress: Progress | None = None) -> _amendments.History:
    """The history of the loop rules: each amendment's text diff, the loops it settles
    differently (one atlas run over every era) and the readings it created or closed."""
    chosen = [r for k in _keys(rulesets) for r in (_registry().select([k]) if isinstance(k, str) else (k,))]
    return _build.history(chosen, jobs, progress)


def gallery(progress: Progress | None = None) -> dict[str, str]:
    """Every file of the gallery (``reports/``), ``{name: text}``: each built-in scenario's
    report and timeline in every format, the index, the atlas, the history and a README."""
    return _build.gallery_files(progress)


def site(base_url: str = "", progress: Progress | None = None) -> dict[str, str]:
    """Every file of the static site, ``{path: text}``; ``base_url`` makes permalinks absolute."""
    return _build.site_files(base_url, progress)


def filled(scenario: ScenarioFile, text: str, rulesets: RulesetsLike = ()) -> str:
    """A scenario file's ``text`` with its ``[expect]`` blocks written from today's outcomes
    under ``rulesets`` (default: the four mission rulesets), checked: a :class:`ScenarioError`
    if the result would not load, a :class:`ValueError` if it would not pass its own check."""
    chosen = compare_rulesets(rulesets)
    comparison = _compare.compare(scenario, chosen)
    out = _fill.filled(text, comparison.outcomes, [r.key for r in chosen], scenario.scenario.format)
    again = loader.parse_bytes(out.encode("utf-8"), scenario.file, scenario.id, file=scenario.file)
    problems = _compare.check(_compare.compare(again, chosen))
    if problems:
        raise ValueError(f"the filled file would not pass its check ({problems[0]})")
    return out


def schema() -> str:
    """The JSON Schema of scenario files (format 1), as text."""
    return resources.files("loopcompare.comparator").joinpath("schema", "scenario.schema.json").read_text(encoding="utf-8")


def ruleset_list(fmt: str = "md") -> str:
    """Every ruleset with its period in force, rules and source, its lines of descent and the
    CR's loop rule by number: a markdown table (``"md"``), or ``"json"`` (one object a ruleset)."""
    every = _registry().rulesets
    return _listing.rulesets_json(every) if fmt == "json" else _listing.rulesets_markdown(every)


def scenario_list(fmt: str = "md") -> str:
    """The built-in scenarios (name, title, tags): a markdown table (``"md"``), or ``"json"``."""
    found = [library.load_builtin(name) for name in library.names()]
    return _listing.scenarios_json(found) if fmt == "json" else _listing.scenarios_markdown(found)


def trace(rule: str) -> str:
    """One subrule (any era's number: ``729.4``, ``713.2a``, ``421.3``) followed through every
    text and renumbering, in words; an unknown number: :class:`TraceError` (a ``ValueError``)."""
    return _concordance.render(rule)


def ruleset_diff(ruleset: RulesetLike) -> str:
    """The word-level difference between a ruleset's text and its predecessor's, subrule by subrule."""
    return _textchanges.ruleset_diff(_registry().rulesets, _ruleset(ruleset))


def cite(
    what: str | None = None,
    fmt: str = "text",
    rulesets: Sequence[str] = (),
    report_fmt: str = "md",
    *,
    registry: Callable[[], Registry] = _registry,
    select: Callable[[Sequence[str]], tuple[Ruleset, ...]] | None = None,
    read: Callable[[Sequence[str]], list[ScenarioFile]] | None = None,
) -> str:
    """Citations (``fmt``: ``"text"``, ``"bibtex"``, ``"csl-json"``): with no ``what``, of every
    rules text shipped; with a ruleset key or alias, of its texts; else ``what`` is read as
    scenarios, and their report (under ``rulesets``, in ``report_fmt``) is cited with the texts it
    quotes.  ``registry``, ``select`` and ``read`` find the rulesets and the scenarios (the
    command line passes its own, which report problems as it does)."""
    chosen = select or (lambda keys: _registry().select(list(keys)))
    found = read or (lambda paths: [sf for p in paths for sf in scenarios(p)])
    return _citing.citations_for(what, fmt, rulesets, report_fmt, registry, chosen, found)


def read_cr_files(files: Sequence[str], write_to: str | None = None) -> _crfile.Reading:
    """Official Comprehensive Rules text files read (``loopcompare sources``): each one's
    "Taking Shortcuts" rule, its number and its text against the newest the project knows
    (``.exams``, each with ``.report()``), the problems met (``.errors``), and with ``write_to``
    the source files to write there (``.writes``, target: text; nothing is written here)."""
    return _crfile.read_files(files, write_to)


def compare_rulesets(rulesets: RulesetsLike = ()) -> list[Ruleset]:
    """The rulesets :func:`compare` would use for ``rulesets``: each named once, in order; none
    named, the four mission rulesets."""
    chosen: list[Ruleset] = []
    for item in _keys(rulesets):
        for r in _registry().select([item]) if isinstance(item, str) else (item,):
            if r not in chosen:
                chosen.append(r)
    return chosen or list(_registry().select([]))


FORMATS = ("md", "html", "json")
"""The report formats :func:`render` writes."""

__all__ = [
    "FORMATS",
    "Comparison",
    "Mismatch",
    "Progress",
    "Registry",
    "Ruleset",
    "RulesetLike",
    "RulesetsLike",
    "ScenarioError",
    "ScenarioFile",
    "ScenarioLike",
    "TraceError",
    "UnknownRuleset",
    "atlas",
    "atlas_examples",
    "builtin",
    "builtins",
    "check",
    "cite",
    "compare",
    "compare_rulesets",
    "filled",
    "from_dict",
    "gallery",
    "history",
    "in_force",
    "isolation_enabled",
    "load",
    "loads",
    "read",
    "read_cr_files",
    "registry",
    "render",
    "rulesets",
    "ruleset_diff",
    "ruleset_list",
    "scenario_file",
    "scenario_list",
    "scenarios",
    "schema",
    "set_isolation",
    "set_plugin_budget",
    "set_plugin_time_limit",
    "settle",
    "site",
    "timeline",
    "trace",
]
