"""The domain of loopcompare: the loop description, outcomes, and the rulesets that settle loops.

This package imports nothing from ``comparator``.  Its public names:

* :class:`Scenario` and its parts (:class:`Step`, :class:`Unless`, :class:`LoopFlags`,
  :class:`EndsWhen`, :class:`Breaker`, :class:`Intent`), :class:`CutPoint`, :data:`UNBOUNDED`;
* :class:`Outcome` and :class:`Result`;
* :class:`Ruleset`, the base class every ruleset subclasses, and :func:`registry`.
"""

from .base import Ruleset
from .outcome import COMPARED_FIELDS, Outcome, Result
from .registry import registry
from .scenario import (
    NEVER,
    UNBOUNDED,
    Breaker,
    CutPoint,
    EndsWhen,
    Intent,
    LoopFlags,
    OracleText,
    Ruling,
    Scenario,
    Step,
    Unless,
)

__all__ = [
    "COMPARED_FIELDS",
    "NEVER",
    "UNBOUNDED",
    "Breaker",
    "CutPoint",
    "EndsWhen",
    "Intent",
    "LoopFlags",
    "OracleText",
    "Outcome",
    "Result",
    "Ruling",
    "Ruleset",
    "Scenario",
    "Step",
    "Unless",
    "registry",
]
