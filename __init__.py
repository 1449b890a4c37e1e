"""loopcompare: settle Magic: The Gathering loops under every era's rules, side by side.

The Python API (the command line ``loopcompare`` is a thin layer over it)::

    import loopcompare

    loop = loopcompare.builtin("flying-relents")        # or load(path), loads(text), from_dict(d)
    comparison = loopcompare.compare(loop, ["cr-2008", "cr-2024"])
    comparison.outcomes["cr-2024"].result               # Result.SHORTCUT
    print(loopcompare.render(comparison, "md"))

A :class:`Scenario` built in code is validated exactly as a file is.  The subpackages are
:mod:`loopcompare.rulesets` (the domain: scenario, outcome, rulesets) and
:mod:`loopcompare.comparator` (loading, comparing, reports, the command line).
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

__all__ = [
    "FORMATS",
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
