"""loopcompare: settle Magic: The Gathering loops under every era's rules, side by side.

The Python API (the command line ``loopcompare`` is a thin layer over it)::

    import loopcompare

    loop = loopcompare.builtin("flying-relents")        # or load(path), loads(text), from_dict(d)
    comparison = loopcompare.compare(loop, "cr-2024")   # one ruleset key, or several
    comparison = loopcompare.compare(loop, ["cr-2008", "cr-2024"])
    comparison.outcomes["cr-2024"].result               # Result.SHORTCUT
    print(loopcompare.render(comparison, "md"))

Types: Scenario and Step (a loop built in code, validated exactly as a file is), ScenarioFile
(a loaded scenario), Outcome and Result (what a ruleset settles), Comparison and Mismatch,
Ruleset (the base class of the eras and of plugins), ScenarioError (bad input).  Guide:
https://github.com/loopcompare/loopcompare/blob/main/docs/API.md
"""

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names as a type checker sees them; at run time they load when first asked for
    from .comparator.api import (
        FORMATS,
        builtin,
        builtins,
        compare,
        from_dict,
        load,
        loads,
        render,
        rulesets,
        scenario_file,
        settle,
    )
    from .comparator.compare import Comparison, Mismatch, check
    from .comparator.loader import ScenarioError, ScenarioFile
    from .rulesets import (
        NEVER,
        UNBOUNDED,
        Breaker,
        CutPoint,
        EndsWhen,
        Intent,
        LoopFlags,
        Outcome,
        Result,
        Ruleset,
        Scenario,
        Step,
        Unless,
    )

#: What ``help(loopcompare)`` and ``from loopcompare import *`` show: the functions and the
#: report formats.  The types (Scenario, Step, Outcome, Result, Comparison, Ruleset, ScenarioError
#: and the rest, imported above) are public too: see the module's docstring.
__all__ = [
    "FORMATS",
    "builtin",
    "builtins",
    "check",
    "compare",
    "from_dict",
    "load",
    "loads",
    "render",
    "rulesets",
    "scenario_file",
    "settle",
]

#: Every public name: the functions above and the types.
PUBLIC = (
    *__all__,
    "NEVER",
    "UNBOUNDED",
    "Breaker",
    "Comparison",
    "CutPoint",
    "EndsWhen",
    "Intent",
    "LoopFlags",
    "Mismatch",
    "Outcome",
    "Result",
    "Ruleset",
    "Scenario",
    "ScenarioError",
    "ScenarioFile",
    "Step",
    "Unless",
)


#: Where each public name lives.  The package imports none of them until one is asked for
#: (PEP 562), so that ``loopcompare --help`` and shell completion, which import this package
#: first, stay as quick as click itself (issue 27).
_HOMES = {
    **dict.fromkeys(("FORMATS", "builtin", "builtins", "compare", "from_dict", "load", "loads", "render", "rulesets", "scenario_file", "settle"), ".comparator.api"),
    **dict.fromkeys(("Comparison", "Mismatch", "check"), ".comparator.compare"),
    **dict.fromkeys(("ScenarioError", "ScenarioFile"), ".comparator.loader"),
    **dict.fromkeys(("NEVER", "UNBOUNDED", "Breaker", "CutPoint", "EndsWhen", "Intent", "LoopFlags", "Outcome", "Result", "Ruleset", "Scenario", "Step", "Unless"), ".rulesets"),
}


def __getattr__(name: str) -> object:
    """A public name, imported from its module the first time it is asked for (then kept as a
    global of the package); ``__version__``, the installed distribution's version."""
    if name in _HOMES:
        value = getattr(import_module(_HOMES[name], __name__), name)
        globals()[name] = value
        return value
    if name == "__version__":
        from importlib import metadata  # start-up: importlib.metadata costs ~30 ms, read only when asked

        try:
            return metadata.version("loopcompare")
        except metadata.PackageNotFoundError:  # a source tree that was never installed
            return "0+unknown"
    raise AttributeError(f"module 'loopcompare' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES, "__version__"})


class _Package(ModuleType):
    """The package's module type: ``loopcompare.rulesets`` stays the API function.

    Importing the subpackage ``loopcompare.rulesets`` makes Python set it as an attribute of
    this package; the public name ``rulesets`` is the function of :mod:`.comparator.api` (as it
    was when this package imported everything at once), so that one assignment is not kept."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "rulesets" and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
