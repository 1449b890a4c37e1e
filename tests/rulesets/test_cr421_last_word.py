"""421.3 (2004, 2005): who had the last word, looking back over a whole iteration (rulesets/cr421.py).

The player who made the last loop choice before a cut is found by looking back up to one whole
iteration.  In a one-step loop whose only choice is shared (Alice's optional action, which Bob
can stop by paying: 'unless'), that last choice is the same step one iteration earlier; a look
back one step short finds nobody, and the driver has no last word to give.  README, "Mutation
testing": this test names that case.
"""

from __future__ import annotations

import pytest

from helpers import scenario
from loopcompare.rulesets import registry

ONE_SHARED_STEP = """
title = "one step, two choosers"
players = ["Alice", "Bob"]
[state]
n = 0
[[step]]
by = "Alice"
does = "makes a token"
optional = true
add = { n = 1 }
unless = { by = "Bob", does = "pays 1 life" }
[intent]
Alice = 3
Bob = 5
"""


@pytest.mark.parametrize("key", ["cr-2004", "cr-2005"])
def test_the_last_word_in_a_one_step_loop_is_the_same_step_an_iteration_earlier(key):
    out = registry().get(key).settle(scenario(ONE_SHARED_STEP).scenario)
    # Alice (active) names 3, Bob wants more and agrees: the loop stops after 3 iterations, with
    # Alice, whose choice came last, the one to do something different.
    assert (out.result.value, out.iterations, out.steps) == ("shortcut", 3, 0)
    assert out.deviates == "Alice" and out.last_action == "Alice"
    assert out.to_json()["state"] == {"n": 3}
