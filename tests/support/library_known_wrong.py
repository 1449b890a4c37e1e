"""Library entries the tool settles to something a published ruling contradicts (the ruling's pin
is kept in the file): name -> the reason, naming the defect.  Used by tests/library/test_library_entries.py
and tests/rulesets/test_acceptance.py, whose checks of these entries are expected failures."""

from __future__ import annotations

KNOWN_WRONG: dict[str, str] = {}
