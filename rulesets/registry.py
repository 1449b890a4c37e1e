"""Finding rulesets: built-in and third-party, through one entry-point group.

Every ruleset, the built-in ones included, registers in the ``loopcompare.rulesets`` entry-point
group under its key.  A plugin that fails to import or breaks the ruleset contract is reported by
name with its error and left out; the others still run.  A key or alias that clashes with one
already registered is refused.
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from dataclasses import dataclass
from functools import lru_cache
from importlib import import_module
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from .base import Ruleset

if TYPE_CHECKING:
    from importlib import metadata

GROUP = "loopcompare.rulesets"

#: The built-in rulesets, as registered in pyproject.toml; used when the package's metadata is
#: not installed (running from a bare source tree).
BUILTIN = {
    "summary-1998": "loopcompare.rulesets.summary:Summary1998",
    "cr-2004": "loopcompare.rulesets.cr421:Cr2004",
    "cr-2005": "loopcompare.rulesets.cr421:Cr2005",
    "cr-2008": "loopcompare.rulesets.cr421:Cr2008",
    "cr-2009": "loopcompare.rulesets.shortcuts:Cr2009",
    "cr-2009-09": "loopcompare.rulesets.shortcuts:Cr2009Sept",
    "cr-2024": "loopcompare.rulesets.shortcuts:Cr2024",
    "mtr-2018": "loopcompare.rulesets.mtr:Mtr2018",
    "mtr-current": "loopcompare.rulesets.mtr:MtrCurrent",
}

#: The four rulesets of the mission, compared by default: the two infinity rules, the current
#: CR and the current Tournament Rules.
MISSION = ("cr-2004", "cr-2008", "cr-2024", "mtr-current")


@dataclass(frozen=True)
class PluginProblem:
    """A ruleset entry point that could not be used, and why."""

    name: str
    error: str


class UnknownRuleset(KeyError):
    """A ruleset key or alias that no registered ruleset answers to."""

    def __init__(self, key: str, known: tuple[str, ...], aliases: tuple[str, ...] = ()) -> None:
        super().__init__(key)
        self.key = key
        self.known = known
        self.aliases = aliases

    def __str__(self) -> str:
        import difflib

        close = difflib.get_close_matches(str(self.key), self.known + self.aliases, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        # The keys only: the aliases (two or three per ruleset) would bury them.
        return f"unknown ruleset {self.key!r}{hint}; known rulesets: {', '.join(self.known)}"


def chronological(ruleset: Ruleset) -> tuple[bool, str, str, str]:
    """Sort key: by the date of the text applied; a text marked "current" comes last."""
    date = ruleset.effective
    return (not date[:1].isdigit(), date, ruleset.in_force[0], ruleset.key)


class Registry:
    """The rulesets available in this installation, in chronological order."""

    def __init__(
        self, rulesets: list[Ruleset], problems: list[PluginProblem], printed: Iterable[tuple[str, str]] = ()
    ) -> None:
        self.rulesets = tuple(sorted(rulesets, key=chronological))
        self.problems = tuple(problems)
        #: (entry point name, text) for each plugin that printed while loading.
        self.printed = tuple(printed)
        self._by_name: dict[str, Ruleset] = {}
        for r in self.rulesets:
            for name in (r.key, *r.aliases):
                self._by_name[name] = r

    def keys(self) -> tuple[str, ...]:
        """Every ruleset key, in chronological order."""
        return tuple(r.key for r in self.rulesets)

    def get(self, name: str) -> Ruleset:
        """The ruleset with this key or alias, in any case; :class:`UnknownRuleset` otherwise."""
        if name in self._by_name:
            return self._by_name[name]
        folded = {n.casefold(): r for n, r in self._by_name.items()}
        try:
            return folded[name.casefold()]
        except (KeyError, AttributeError):
            aliases = tuple(a for r in self.rulesets for a in r.aliases)
            raise UnknownRuleset(name, self.keys(), aliases) from None

    def select(self, names: Sequence[str]) -> tuple[Ruleset, ...]:
        """The named rulesets, in the order named.

        No names: the four mission rulesets (:data:`MISSION`), in chronological order; ``all``:
        every registered ruleset, in chronological order (it can be mixed with other names).
        """
        if not names:
            return tuple(r for r in self.rulesets if r.key in MISSION)
        chosen: list[Ruleset] = []
        for name in names:
            for r in self.rulesets if name.lower() == "all" else (self.get(name),):
                if r not in chosen:
                    chosen.append(r)
        return tuple(chosen)


def _contract_problem(obj: object) -> str | None:
    """What is wrong with an entry point's object as a ruleset, if anything."""
    if not (isinstance(obj, type) and issubclass(obj, Ruleset)):
        return f"{obj!r} is not a subclass of loopcompare.rulesets.base.Ruleset (loopcompare.Ruleset)"
    for attr in ("key", "name", "document", "effective"):
        if not isinstance(getattr(obj, attr, None), str) or not getattr(obj, attr):
            return f"{obj.__name__}.{attr} must be a non-empty string"
    if not obj.in_force or not obj.in_force[0]:
        return f"{obj.__name__}.in_force must give the first day the text was in force"
    return None


#: The top-level packages of loopcompare before 0.2, now subpackages of ``loopcompare``.
OLD_PACKAGES = ("rulesets", "comparator")


def _moved(exc: BaseException) -> str:
    """A hint for a plugin written against the old import path (``from rulesets.base import ...``)."""
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        top = exc.name.split(".")[0]
        if top in OLD_PACKAGES:
            return (
                f" (loopcompare's '{top}' package is 'loopcompare.{top}' since loopcompare 0.2: "
                f"import from 'loopcompare.{exc.name}' instead)"
            )
    return ""


#: Loads a plugin's entry point: whatever the plugin's module holds under that name.
Loader = Callable[[], object]

#: How third-party entry points are loaded when not in this process: set by
#: ``loopcompare.comparator.isolation`` (``--isolate-plugins``) to start a worker process per
#: plugin and load a stand-in; None: imported here.
isolate: Callable[[metadata.EntryPoint], Loader] | None = None


def build(entries: Iterable[tuple[str, Loader]]) -> Registry:
    """A registry from (name, loader) pairs, where ``loader()`` returns a ruleset class.

    Loading a plugin can't take the tool down: any exception, ``SystemExit`` (a plugin that
    calls ``sys.exit`` on import) and ``KeyboardInterrupt`` included, makes it a reported
    problem; what it prints while loading is kept off standard output and recorded
    (:attr:`Registry.printed`) for the command line to show on standard error.
    """
    rulesets: list[Ruleset] = []
    problems: list[PluginProblem] = []
    printed: list[tuple[str, str]] = []
    taken: dict[str, str] = {}
    for name, loader in entries:
        captured = io.StringIO()
        try:
            with redirect_stdout(captured):
                loaded = loader()
                problem = _contract_problem(loaded)
                cls = loaded if problem is None and isinstance(loaded, type) and issubclass(loaded, Ruleset) else None
                instance = None if cls is None else cls()
        except (Exception, SystemExit, KeyboardInterrupt) as exc:  # a broken plugin is reported, not fatal
            problems.append(PluginProblem(name, f"failed to load: {describe(exc)}{_moved(exc)}"))
            continue
        finally:
            if captured.getvalue():
                printed.append((name, captured.getvalue()))
        if instance is None:  # (a contract problem leaves it None: cls is then None)
            problems.append(PluginProblem(name, problem or "failed to load: no ruleset"))
            continue
        cls = type(instance)
        clash = next((n for n in (cls.key, *cls.aliases) if n in taken), None)
        if clash:
            problems.append(PluginProblem(name, f"refused: key or alias {clash!r} is already used by {taken[clash]}"))
            continue
        for n in (cls.key, *cls.aliases):
            taken[n] = f"{cls.__module__}.{cls.__name__}"
        rulesets.append(instance)
    return Registry(rulesets, problems, printed)


def describe(exc: BaseException) -> str:
    """An exception from a plugin in words: ``sys.exit`` is named as such."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r}) while being imported"
    if isinstance(exc, KeyboardInterrupt):
        return "KeyboardInterrupt raised while it was being imported"
    return f"{type(exc).__name__}: {exc}"


def _builtin_loader(target: str) -> Loader:
    module, _, attr = target.partition(":")
    return lambda: getattr(import_module(module), attr)


@lru_cache(maxsize=1)
def registry() -> Registry:
    """Every ruleset registered in the ``loopcompare.rulesets`` group (built-ins included)."""
    # Start-up: importlib.metadata costs about 30 ms, so it is imported when the registry is
    # first built (a command that settles), never for --help or completion of a command's name.
    from importlib import metadata

    points = sorted(metadata.entry_points(group=GROUP), key=lambda ep: (ep.name, ep.value))
    registered = {ep.value for ep in points}
    # Built-ins missing from the installed metadata (a bare source tree, an old install) still load.
    entries: list[tuple[str, Loader]] = [(name, _builtin_loader(target)) for name, target in BUILTIN.items() if target not in registered]
    # Built-ins first, so a plugin can never take a built-in key or alias away from them.
    builtin_targets = set(BUILTIN.values())
    entries += [(ep.name, ep.load) for ep in points if ep.value in builtin_targets]
    entries += [(ep.name, isolate(ep) if isolate else ep.load) for ep in points if ep.value not in builtin_targets]
    return build(entries)
