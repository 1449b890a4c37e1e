"""The records the rulesets and the loader hand around are values: once made, they cannot change.

They are shared, so a change made through one holder would reach the others: a parsed rules
``Document`` and a ruleset's ``Source`` are cached per process (``texts.document``,
``base._quote``), an ``Outcome`` is read by every report format and by the atlas's tallies, a
``Decision`` or ``Stop`` is compared across players' procedures, and the history's numberings
and dates are module-level tables.  Each class below must refuse assignment to any of its
fields, and (being a value) compare and hash by its fields.
"""

from __future__ import annotations

import dataclasses

import pytest

from loopcompare.comparator.loader import ScenarioFile
from loopcompare.rulesets.base import Decision, Source, Stop
from loopcompare.rulesets.history import AsOf, Numbering
from loopcompare.rulesets.outcome import Elimination, Outcome, OutcomeField
from loopcompare.rulesets.registry import PluginProblem
from loopcompare.rulesets.scenario import OracleText, Ruling
from loopcompare.rulesets.texts import Document

VALUE_RECORDS = [Decision, Stop, Source, Elimination, OutcomeField, Outcome, Numbering, AsOf, PluginProblem, Document, ScenarioFile, OracleText, Ruling]


@pytest.mark.parametrize("cls", VALUE_RECORDS, ids=lambda c: c.__name__)
def test_a_shared_record_refuses_assignment_to_every_field(cls):
    # Made without __init__ so that the test needs no valid arguments: a frozen dataclass's
    # __setattr__ refuses every field whatever the instance holds.
    record = cls.__new__(cls)
    for field in dataclasses.fields(cls):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, field.name, None)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(record, field.name)


def test_equal_stops_are_one_value_in_a_set():
    from loopcompare.rulesets.scenario import UNBOUNDED, CutPoint

    point = CutPoint(iterations=UNBOUNDED, steps=2)
    assert len({Stop("Alice", point), Stop("Alice", point), Stop("Alice", point, rank=1)}) == 2


def test_equal_sources_are_one_cache_key():
    assert hash(Source("cr-2024.txt", "CR ")) == hash(Source("cr-2024.txt", "CR "))
    assert Source("cr-2024.txt", "CR ") == Source("cr-2024.txt", "CR ")
    assert Source("cr-2024.txt", "CR ") != Source("cr-2024.txt", "")
