"""Format 3 item 30: ``[[then]]``, loops played one after another, each from where the previous
one stopped; ``part`` and ``parts`` in the outcome, ``parts[K].FIELD`` in differences."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from loopcompare.comparator.cli import main
from loopcompare.comparator.compare import compare
from loopcompare.comparator.loader import ScenarioError, load, parse_bytes
from loopcompare.rulesets import registry
from loopcompare.rulesets.outcome import Result

SCENARIOS = Path(__file__).parent / "scenarios"
TWO = (SCENARIOS / "two-loops-in-a-row.toml").read_text(encoding="utf-8")


def parse(text: str):
    return parse_bytes(text.encode("utf-8"), "case.toml", "case")


def settle(text: str, key: str = "cr-2024"):
    return registry().get(key).settle(parse(text).scenario)


def test_the_second_loop_starts_where_the_first_stopped():
    # Part 1: 10 tokens. Part 2: each token drains Bob by 1 until none is left (a failed requirement).
    out = settle(TWO)
    assert out.part == 2 and len(out.parts) == 2
    first, second = out.parts
    assert (first.result, first.iterations, first.state["tokens"]) == (Result.SHORTCUT, 10, 10)
    assert (second.iterations, second.state["tokens"], second.state["life"]) == (10, 0, {"Alice": 20, "Bob": 10})
    # The top fields are the last part's.
    assert (out.result, out.iterations, out.state) == (second.result, second.iterations, second.state)
    assert first.part is None and first.parts == ()


def test_a_part_that_ends_the_game_ends_the_file():
    text = TWO.replace("Alice = 10", "Alice = 25").replace('[then.intent]\nAlice = "never"\n', '[then.intent]\nAlice = "never"\n\n[[then]]\ntitle = "never reached"\n\n[[then.step]]\nby = "Alice"\ndoes = "x"\noptional = true\n')
    out = settle(text)
    # 25 tokens drain Bob's 20 life: he loses in part 2, so part 3 is not reached.
    assert out.part == 2 and out.result is Result.ENDS
    assert [e.player for e in out.eliminated] == ["Bob"]


def test_parts_are_compared_part_by_part_in_json():
    sf = load(SCENARIOS / "two-loops-in-a-row.toml")
    comparison = compare(sf, [registry().get(k) for k in ("cr-2004", "cr-2024")])
    assert [p["iterations"] for p in comparison.to_json()["outcomes"]["cr-2024"]["parts"]] == [10, 10]
    assert not [d for d in comparison.differences if d.startswith("parts[")]


def test_differences_name_the_part():
    # Part 2 has a conditional step: CR 421 (2004) shortcuts it, the CR since 2009 does not.
    text = TWO.replace('does = "sacrifices a token: Bob loses 1"', 'does = "sacrifices a token: Bob loses 1"\nconditional = true')
    text = text.replace('[then.intent]\nAlice = "never"', "[then.intent]\nAlice = 3")
    comparison = compare(parse(text), [registry().get(k) for k in ("cr-2004", "cr-2024")])
    assert comparison.outcomes["cr-2004"].parts[1].result is not comparison.outcomes["cr-2024"].parts[1].result
    assert "parts[1].result" in comparison.differences and "parts[0].result" not in comparison.differences


@pytest.mark.parametrize(
    "extra, fragment",
    [
        ('[[then]]\ntitle = "no steps"\n', "then 1: 'step': is required"),
        ('[[then]]\n[[then.step]]\nby = "Alice"\ndoes = "x"\nadd = { mana = 1 }\n', "then 1: step 1: 'add.mana': 'mana' is not declared in [state]"),
        ('[[then]]\n[[then.step]]\nby = "Zed"\ndoes = "x"\n', "then 1: step 1: 'by'"),
        ('[[then]]\n[[then.inner]]\nid = "m"\n[[then.step]]\nby = "Alice"\ndoes = "x"\n', "then 1: inner 1: 'step': is required"),
        ('[[inner]]\nid = "m"\n', "inner 1: 'step': is required"),
        ('[[then]]\ncolour = 1\n[[then.step]]\nby = "Alice"\ndoes = "x"\n', "then 1: 'colour': unknown key"),
    ],
)
def test_a_bad_part_is_named(extra, fragment):
    text = TWO.split("[[then]]")[0] + extra
    with pytest.raises(ScenarioError) as info:
        parse(text)
    message = "\n".join(e.one_line() for e in (info.value.errors or (info.value,)))
    assert fragment in message, message


def test_then_needs_format_3():
    with pytest.raises(ScenarioError) as info:
        parse(TWO.replace("format = 3", "format = 2"))
    assert "'then' is format 3" in "\n".join(e.one_line() for e in info.value.errors)


RANDOM_THEN = """\
format = 3
title = "random, then"
players = ["Alice", "Bob"]

[state]
tokens = { start = 0, min = 0 }
flips = 0

[[step]]
by = "Alice"
does = "flips a coin: a token on heads, stops on tails"
random = true
ends_loop = { when = "tails", chance = "1/2" }
add = { tokens = 1 }

[[then]]
[[then.step]]
by = "Alice"
does = "uses the tokens"
optional = true
{reads}
add = { flips = 1 }

[then.intent]
Alice = 2
"""


def test_after_a_random_stop_a_part_that_reads_what_changed_is_refused_with_exit_2(tmp_path):
    path = tmp_path / "random-then.toml"
    path.write_text(RANDOM_THEN.replace("{reads}", "requires = { tokens = 1 }"), encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", str(path), "-r", "cr-2004"])
    assert result.exit_code == 2, result.output
    assert "random-then.toml: then 1:" in result.output and "tokens" in result.output and "Traceback" not in result.output


def test_after_a_random_stop_a_part_that_does_not_read_it_is_settled_with_random_values():
    out = settle(RANDOM_THEN.replace("{reads}", ""), "cr-2004")
    assert out.part == 2 and out.state["tokens"] == "random" and out.state["flips"] == 2


def test_reports_have_one_table_per_part():
    result = CliRunner().invoke(main, ["compare", str(SCENARIOS / "two-loops-in-a-row.toml"), "-f", "md", "--no-pager"])
    assert result.exit_code == 0, result.output
    assert "Part 1: Two loops one after another" in result.output and "Part 2: then each token drains" in result.output
    result = CliRunner().invoke(main, ["compare", str(SCENARIOS / "two-loops-in-a-row.toml"), "-f", "html"])
    assert "Part 2: the outcome of each ruleset" in result.output


def test_a_part_a_ruleset_never_reached_says_so():
    from loopcompare.comparator.report import part_views

    # A conditional second part under the MTR is not shortcut (no cut), so a third part is not reached there.
    text = TWO.replace('does = "sacrifices a token: Bob loses 1"', 'does = "sacrifices a token: Bob loses 1"\nconditional = true')
    text = text.replace('[then.intent]\nAlice = "never"', "[then.intent]\nAlice = 3")
    text += '\n[[then]]\ntitle = "third"\n[[then.step]]\nby = "Alice"\ndoes = "x"\noptional = true\n[then.intent]\nAlice = 1\n'
    comparison = compare(parse(text), [registry().get(k) for k in ("cr-2004", "mtr-current")])
    views = part_views(comparison)
    third = next(v for v in views if v.number == 3)
    assert third.rows[0].cells == ("shortcut", "not reached")
    assert "parts[2].result" not in comparison.differences  # compared among the rulesets that reached it


def test_each_part_has_its_own_diagram_and_steps():
    # Part 1 stops after 4 tokens here, part 2 after 2 drains: the file's diagram marks part 1's
    # cut (4 it.), part 2's diagram part 2's (2 it.), and part 2's steps are listed under it.
    from loopcompare.comparator.diagram import build
    from loopcompare.comparator.report import comparison_view

    text = TWO.replace("Alice = 10\n", "Alice = 4\n", 1).replace('[then.intent]\nAlice = "never"', "[then.intent]\nAlice = 2")
    comparison = compare(parse(text), [registry().get("cr-2024")])
    first = build(comparison)
    assert [c.iterations for c in first.cuts] == ["4"]
    assert first.steps[0].does == parse(text).scenario.steps[0].does
    view = comparison_view(comparison, "case")
    later = view.parts[1]
    assert later.diagram is not None and later.steps
    assert later.steps[0].does == parse(text).scenario.parts[0].steps[0].does
    assert later.diagram.steps[0].does == later.steps[0].does
    assert [c.iterations for c in later.diagram.cuts] == ["2"]
    html = CliRunner().invoke(main, ["compare", "-f", "html", "-"], input=text).output
    assert html.count("<svg") == 2 and "Part 2: one iteration, step by step" in html
