"""Library entries the tool settles to something a published ruling contradicts (the ruling's pin
is kept in the file): name -> the reason, naming the defect.  Used by tests/test_library_entries.py
and tests/test_acceptance.py, whose checks of these entries are expected failures."""

from __future__ import annotations

KNOWN_WRONG: dict[str, str] = {
    "torment-of-hailfire-two-opponents": "FORMAT item 18 (nobody loses inside a resolution) is not implemented: the engine eliminates Bob and Carol mid-resolution and stops at the ninth repetition",
    "torment-of-hailfire-three-opponents": "FORMAT item 18 (nobody loses inside a resolution) is not implemented: the engine eliminates Bob and Carol mid-resolution, so their life totals stop at -1 and -2",
    "bloodchief-ascension-mindcrank-four-players": "FORMAT item 20 (a step whose targets have all left the game ends the loop) is not implemented: after Bob leaves, the engine runs the Ascension's step on until Bob's library is empty",
}
