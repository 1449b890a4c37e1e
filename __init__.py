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


def __getattr__(name: str) -> str:
    """``loopcompare.__version__``: the installed distribution's version, looked up when asked for."""
    if name == "__version__":
        from importlib import metadata

        try:
            return metadata.version("loopcompare")
        except metadata.PackageNotFoundError:  # a source tree that was never installed
            return "0+unknown"
    raise AttributeError(f"module 'loopcompare' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), "__version__"})
