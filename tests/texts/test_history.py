"""The rules' history: which text was in force on a day, the lines of descent, the loop rule's
numbers; and the commands built on it (``compare --as-of``, ``timeline``, ``rulesets --diff``).

Every date below is taken from the sources' provenance headers: the Rules Summary's rulings of
1998-03-31; CR 421 from 1999-04-23, its multiplayer rewrite 2005-08-01, its final text 2008-10-01;
rule 713 on 2009-07-11, its multiplayer 713.3 on 2009-09-04; 720 on 2018-07-13, 729 on 2024-06-07,
730 on 2025-04-04, 731 on 2025-07-25, 732 on 2026-04-17 (rule 722 inserted); MTR 4.4 from
2018-07-13, the choices paragraph on a day the sources don't give: after 2018-07-13, by 2025-11-10
(the current text's first dated copy).
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from loopcompare.comparator.cli import main
from loopcompare.rulesets import registry
from loopcompare.rulesets import texts
from loopcompare.rulesets.history import (
    SHORTCUT_RULE_SEQUENCE,
    as_of,
    in_force_on,
    lines,
    number_on,
    number_today,
    numbering_on,
    numbers_in_words,
    period_in_words,
    renumbered,
    shortcut_texts,
    since_today,
)

from helpers import ROOT

RULESETS = registry().rulesets


def keys_on(date: str) -> list[str]:
    return [r.key for r in as_of(RULESETS, date).rulesets]


def run(*args: str):
    """Invoke the CLI; stdout and stderr are kept apart."""
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def assert_clean_exit(result, code: int) -> None:
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


def outcome_columns(stdout: str) -> list[str]:
    header = next(line for line in stdout.splitlines() if line.startswith("| Outcome"))
    return [c.strip() for c in header.strip().strip("|").split("|")][1:]


# --- as_of: the text in force on a day ------------------------------------------------------------


@pytest.mark.parametrize(
    "date, expected",
    [
        ("1998-03-31", ["summary-1998"]),  # the Rules Summary's G.21 rulings
        ("1999-04-22", ["summary-1998"]),  # the day before the first CR
        ("1999-04-23", ["cr-2004"]),  # the first Comprehensive Rules: 421, two-player
        ("2005-07-31", ["cr-2004"]),
        ("2005-08-01", ["cr-2005"]),  # multiplayer rules merged into the CR
        ("2006-03-01", ["cr-2005"]),
        ("2008-09-30", ["cr-2005"]),
        ("2008-10-01", ["cr-2008"]),
        ("2009-07-10", ["cr-2008"]),
        ("2009-07-11", ["cr-2009"]),  # Magic 2010: 421 replaced by 713 "Taking Shortcuts"
        ("2009-09-03", ["cr-2009"]),
        ("2009-09-04", ["cr-2009-09"]),  # 713.3 given its multiplayer wording
        ("2018-07-12", ["cr-2009-09"]),  # the day before MTR 4.4 existed
    ],
)
def test_as_of_one_text_in_force(date, expected):
    # history: each day has exactly the texts whose period in force contains it; the only thing
    # left open on some of these days is the rule's undated number (see the numbering tests)
    chosen = as_of(RULESETS, date)
    assert [r.key for r in chosen.rulesets] == expected
    assert all("the number is not guessed" in note for note in chosen.notes)
    assert chosen.date == date


def test_as_of_2020_applies_both_mtr_texts_with_a_note():
    # MTR 4.4: the day the choices paragraph was added is not in the sources: both texts, and a note
    chosen = as_of(RULESETS, "2020-01-01")
    assert [r.key for r in chosen.rulesets] == ["cr-2009-09", "mtr-2018", "mtr-current"]
    (note,) = [n for n in chosen.notes if "which of" in n]
    assert "mtr-2018" in note and "mtr-current" in note
    assert "unknown" in note
    # the interval the sources give, not a made-up day
    assert "after 2018-07-13, by 2025-11-10" in note
    assert "cr-2009-09" not in note
    # and the rule's number that day: 720 or later, not guessed
    assert not [n for n in chosen.notes if "not guessed" in n]
    # and the rule's number that day, dated: 721 (Adventurer Cards inserted on 2019-10-04)
    assert [r.number for r in chosen.rulesets] == ["721", "721", "721"]
    assert chosen.rulesets[0].name == "CR 721 (2019-10-04)"


def test_as_of_2024_06_07_applies_the_current_cr():
    # CR 729 (2024-06-07) replaces the 2009-09 text on its first day; the MTR question stays open
    chosen = keys_on("2024-06-07")
    assert "cr-2024" in chosen
    assert "cr-2009-09" not in chosen
    assert [k for k in chosen if k.startswith("cr-")] == ["cr-2024"]
    assert {"mtr-2018", "mtr-current"} <= set(chosen)


def test_as_of_2024_06_06_still_applies_the_2009_09_text():
    # CR 713 (2009-09) stands, renumbered, until the day before the 2024 text
    assert [k for k in keys_on("2024-06-06") if k.startswith("cr-")] == ["cr-2009-09"]


def test_as_of_2018_07_13_applies_only_the_first_mtr_text():
    # MTR 4.4 was new on 2018-07-13, without the choices paragraph: no doubt on that day
    chosen = as_of(RULESETS, "2018-07-13")
    assert [r.key for r in chosen.rulesets] == ["cr-2009-09", "mtr-2018"]
    assert chosen.notes == ()


def test_in_force_on_is_open_for_the_2018_mtr_after_its_first_day():
    # history: whether MTR 4.4 (2018) was still in force in 2020 is not in the sources: None, not True
    assert in_force_on(registry().get("mtr-2018"), "2020-01-01") is None


def test_in_force_on_is_open_for_the_current_mtr_after_2018():
    # history: the current MTR text's first day is unknown: None after 2018-07-13, False before
    current = registry().get("mtr-current")
    assert in_force_on(current, "2020-01-01") is None
    assert in_force_on(current, "2018-07-12") is False


@pytest.mark.parametrize(
    "date, old, new",
    [
        ("2018-07-13", True, False),  # the 2018 section, new that day
        ("2018-07-14", None, None),  # from the next day on, the paragraph may have come
        ("2025-11-09", None, None),
        ("2025-11-10", False, True),  # the current text's first dated copy
        ("2026-05-01", False, True),
    ],
)
def test_mtr_texts_dated_by_an_interval(date, old, new):
    # MTR 4.4: the choices paragraph came after 2018-07-13 and by 2025-11-10; no day in between is made up
    assert in_force_on(registry().get("mtr-2018"), date) is old
    assert in_force_on(registry().get("mtr-current"), date) is new


def test_as_of_after_2025_11_10_applies_only_the_current_mtr():
    # MTR 4.4 of 2025-11-10 (and 2026-02-27) has the choices paragraph: the 2018 text is no longer a candidate
    chosen = as_of(RULESETS, "2025-11-10")
    assert [r.key for r in chosen.rulesets] == ["cr-2024", "mtr-current"]
    assert chosen.notes == ()


@pytest.mark.parametrize("date", ["1998-03-30", "1990-01-01", "0001-01-01"])
def test_as_of_before_the_earliest_rules_is_refused(date):
    # history: nothing was modelled before the Rules Summary's rulings of 1998-03-31
    with pytest.raises(ValueError) as err:
        as_of(RULESETS, date)
    message = str(err.value)
    assert date in message
    assert "1998-03-31" in message
    assert "earliest" in message


@pytest.mark.parametrize("text", ["2006-13-01", "2006-02-30", "yesterday", "2006/03/01", "", "2006-3-1"])
def test_as_of_malformed_date_is_refused_with_the_format(text):
    # history: a date a person mistyped gets a message saying how to write it
    with pytest.raises(ValueError) as err:
        as_of(RULESETS, text)
    message = str(err.value)
    assert "YYYY-MM-DD" in message
    assert "not a date" in message


# --- lines of descent, rule numbers ---------------------------------------------------------------


def test_lines_are_the_cr_and_the_mtr():
    # history: the CR (with the Rules Summary before it) and the Tournament Rules, each oldest first
    got = [[r.key for r in line] for line in lines(RULESETS)]
    assert got == [
        ["summary-1998", "cr-2004", "cr-2005", "cr-2008", "cr-2009", "cr-2009-09", "cr-2024"],
        ["mtr-2018", "mtr-current"],
    ]


@pytest.mark.parametrize(
    "rule_id, expected",
    [
        ("713.3", "732.3"),  # the 2009 fragmented-loop rule is 732.3 today
        ("729.2a", "732.2a"),
        ("731.6", "732.6"),
        ("421.3", "421.3"),  # rewritten, not renumbered
        ("104.4b", "104.4b"),  # not the loop rule
        ("713", "713"),  # no sub-rule: left alone
    ],
)
def test_renumbered(rule_id, expected):
    # history: a shortcut-rule id, renumbered to the number of the newest CR in the sources
    assert renumbered(rule_id) == expected


def test_renumbered_to_a_given_number():
    # history: 713.3 of 2009 is 729.3 of 2024
    assert renumbered("713.3", to="729") == "729.3"


@pytest.mark.parametrize(
    "date, number",
    [
        ("1998-03-31", ""),  # the Rules Summary: no CR yet
        ("1999-04-23", "421"),
        ("2009-07-10", "421"),
        ("2009-07-11", "713"),
        ("2010-04-22", "713"),
        ("2010-04-23", "714"),  # 710 Leveler Cards inserted
        ("2016-07-21", "716"),
        ("2016-07-22", "718"),  # 712 and 713 inserted together: no release has 717
        ("2018-04-26", "719"),
        ("2018-04-27", "720"),  # 714 Saga Cards (Dominaria), not 2018-07-13
        ("2018-05-01", "720"),
        ("2023-04-13", "728"),
        ("2023-04-14", "727"),  # 713 Meld Cards removed: the number went down
        ("2024-03-07", "728"),
        ("2024-03-08", "729"),  # 725 Rad Counters (Fallout), not 2024-06-07
        ("2024-06-07", "729"),
        ("2025-04-03", "729"),
        ("2025-04-04", "730"),
        ("2025-07-24", "730"),
        ("2025-07-25", "731"),
        ("2026-04-16", "731"),
        ("2026-04-17", "732"),  # rule 722 "Preparation Cards" inserted
        ("2026-09-25", "732"),
    ],
)
def test_number_on(date, number):
    # history: the CR's loop rule number on a day, as far as the sources date it
    assert number_on(date) == number


@pytest.mark.parametrize(
    "date, number, certain",
    [
        ("2009-07-11", "713", True),  # a dated point
        ("2009-08-01", "713", True),  # every number is dated since rule-numbers.md
        ("2019-01-01", "720", True),
        ("2024-06-07", "729", True),
        ("2025-05-01", "730", True),  # 729 -> 730 -> 731: consecutive, so nothing in between
        ("2026-03-01", "731", True),
        ("2026-05-01", "732", True),
    ],
)
def test_numbering_on_says_when_the_number_is_not_dated(date, number, certain):
    # history: between two dated points whose numbers are not consecutive, the number is not guessed
    numbering = numbering_on(date)
    assert (numbering.number, numbering.certain) == (number, certain)
    if not certain:
        assert "or a later number" in numbering.describe()
        assert "on days the sources don't give" in numbering.describe()


def test_today_comes_from_the_renumbering_list():
    # the newest entry of the list is "today": 732, since the CR of 2026-04-17
    assert (number_today(), since_today()) == ("732", "2026-04-17")
    assert SHORTCUT_RULE_SEQUENCE[-1] == "732"
    assert numbers_in_words().endswith("732 from 2026-04-17. Today it is 732.")


def test_the_shipped_texts_agree_with_the_renumbering_list():
    # every archived text of the whole rule carries the number the list gives for its date
    found = shortcut_texts()
    assert [(d, n) for d, n, _ in found][-2:] == [("2026-01-16", "731"), ("2026-04-17", "732")]
    for date, number, filename in found:
        assert number_on(date) == number, filename
        assert all(key.startswith(number + ".") for key in texts.document(filename).ids()), filename


def test_the_readme_says_what_the_list_says_today():
    # README: "today" statements come from the list, not from prose written once
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"(rule {number_today()})" in readme
    assert not re.search(r"\b731 today|is 731\b|\(rule 731\)", readme)


# --- compare --as-of ----------------------------------------------------------------------------


def test_compare_as_of_2026_05_01_cites_732():
    # CR 2026-04-17 inserted 722: on 2026-05-01 the rule is 732, quoted from the text of 2026-04-17
    result = run("compare", "flying-relents", "--as-of", "2026-05-01", "-f", "md")
    assert_clean_exit(result, 0)
    out = result.stdout
    assert outcome_columns(out) == ["CR 732 (2026-04-17)", "MTR 4.4 (current)"]
    assert "| Rules applied" in out and "732.3, 732.2a, 732.2b, 732.2c" in out
    assert "> **732.3**" in out
    assert "Archived copy: GitHub muz/mtgrulediff, rules/MagicCompRules 20260417.txt, commit 723ddcb (https://github.com/muz/mtgrulediff/blob/723ddcb15a127c8267d01dd4de0fa9a516bb1442/rules/MagicCompRules%2020260417.txt)" in out
    assert "2026-04-17\\_cr\\_732.txt" not in out  # no file of the project named as a source
    assert not re.search(r"\b7(29|30|31)\.\d", out.split("## How each ruleset settles it")[1].replace("729 of 2024-06-07", ""))
    assert result.stderr == ""
    doc = json.loads(run("compare", "flying-relents", "--as-of", "2026-05-01", "-f", "json").stdout)
    outcomes = doc["comparisons"][0]["outcomes"]
    assert outcomes["cr-2024"]["rules"] == ["732.3", "732.2a", "732.2b", "732.2c"]


def test_compare_as_of_2026_03_01_cites_731():
    # on 2026-03-01 (CR of 2026-02-27) the rule was 731, quoted from the archived text of 2026-01-16
    result = run("compare", "seal-of-cleansing", "--as-of", "2026-03-01")
    assert_clean_exit(result, 0)
    out = result.stdout
    assert outcome_columns(out) == ["CR 731 (2026-01-16)", "MTR 4.4 (current)"]
    assert "731.5, 731.4, 104.4b" in out
    assert "> **731.5**" in out
    assert "Rule 731 is numbered 732 today (same rule)." in out
    assert "effective 2026-01-16, rule 731 “Taking Shortcuts”. Official copy: https://media.wizards.com/2026/downloads/MagicCompRules%2020260116.txt." in out
    assert "2026-01-16\\_cr\\_731.txt" not in out


def test_compare_as_of_a_number_without_an_archived_text_quotes_the_older_text_and_says_so():
    # 730 (2025-04-04 .. 2025-07-24): no copy is archived; the 2024 text is quoted under the new ids
    result = run("compare", "flying-relents", "--as-of", "2025-05-01", "-r", "cr-2024")
    assert_clean_exit(result, 0)
    out = result.stdout
    assert "CR 730 (2025-04-04)" in outcome_columns(out)
    assert "> **730.3**" in out
    assert "no text numbered 730 is archived: quoted from the text of 2024-06-07, under the new numbers" in out


@pytest.mark.parametrize(
    "date, column, number",
    [
        ("2018-05-01", "CR 720 (2018-04-27)", "720"),  # Dominaria: 720 months before 2018-07-13 (not 713)
        ("2012-01-01", "CR 716 (2011-09-30)", "716"),
        ("2023-06-01", "CR 727 (2023-04-14)", "727"),  # back down when 713 Meld Cards was removed
        ("2024-04-01", "CR 729 (2024-03-08)", "729"),  # Fallout: 729 before 2024-06-07
    ],
)
def test_compare_as_of_cites_the_number_in_force_that_day(date, column, number):
    # every number is dated (rule-numbers.md): the era's words under that day's number, no note
    result = run("compare", "flying-relents", "--as-of", date)
    assert_clean_exit(result, 0)
    assert column in outcome_columns(result.stdout)
    assert f"> **{number}.3**" in result.stdout
    (applied,) = [line for line in result.stdout.splitlines() if line.startswith("| Rules applied")]
    assert f"{number}.3, {number}.2a" in applied and "713." not in applied
    assert "not guessed" not in result.stderr


# --- rulesets: the dated MTR, the numbers to today ------------------------------------------------


def test_rulesets_dates_the_mtr_texts_by_interval_and_says_732():
    # MTR 4.4: the 2018 text to a day before 2025-11-10; the current since a day after 2018-07-13, by 2025-11-10
    result = run("rulesets")
    assert_clean_exit(result, 0)
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.strip().strip("|").split("|")] for line in result.stdout.splitlines() if line.startswith("| ")}
    assert rows["mtr-2018"][2:4] == ["2018-07-13", "a day before 2025-11-10"]
    assert rows["mtr-current"][2:4] == ["a day after 2018-07-13, by 2025-11-10", "in force"]
    assert "2026-02-27" in rows["mtr-current"][5]
    assert rows["cr-2024"][3] == "in force (rule 732 since 2026-04-17)"
    assert "unknown" not in result.stdout
    assert "Today it is 732." in result.stdout


def test_timeline_cites_732_and_dates_the_mtr_change():
    # the timeline names today's number, and an MTR change as the interval the sources give
    result = run("timeline", "hidden-choice")
    assert_clean_exit(result, 0)
    out = result.stdout
    assert "*The loop rule's numbers:* 421 from 1999-04-23;" in out
    assert "732 from 2026-04-17. Today it is 732." in out
    assert "a day after 2018-07-13, by 2025-11-10" in out
    assert "unknown date" not in out


def test_compare_as_of_2006_shows_only_the_2005_text():
    # 421 (2005-08-01) was the only loop rule in force on 2006-03-01; no MTR existed
    result = run("compare", "flying", "--as-of", "2006-03-01")
    assert_clean_exit(result, 0)
    assert outcome_columns(result.stdout) == ["CR 421 (2005)"]


def test_compare_as_of_2020_shows_both_mtr_texts_and_says_why():
    # 2020-01-01: CR 713 (2009-09) and both MTR texts, with the note on stderr
    result = run("compare", "flying", "--as-of", "2020-01-01")
    assert_clean_exit(result, 0)
    assert outcome_columns(result.stdout) == ["CR 721 (2019-10-04)", "MTR 4.4 (2018)", "MTR 4.4 (current)"]
    assert "unknown" in result.stderr


@pytest.mark.parametrize("date, words", [("1990-01-01", "1998-03-31"), ("2006-3-1", "YYYY-MM-DD")])
def test_compare_as_of_bad_date_exits_2_with_a_message(date, words):
    # --as-of: a date before the earliest rules, or malformed, is bad input: exit 2, no traceback
    result = run("compare", "flying", "--as-of", date)
    assert_clean_exit(result, 2)
    assert "--as-of" in result.stderr
    assert words in result.stderr
    assert result.stdout == ""


def test_compare_all_has_nine_columns():
    # -r all: every era, in chronological order of the text applied
    result = run("compare", "flying", "-r", "all")
    assert_clean_exit(result, 0)
    columns = outcome_columns(result.stdout)
    assert len(columns) == 9
    assert columns[0] == "Rules Summary G.21 (1998)"
    assert set(columns) == {r.name for r in RULESETS}


# --- timeline -----------------------------------------------------------------------------------


def _rows(markdown: str) -> list[list[str]]:
    return [
        [c.strip() for c in line.strip().strip("|").split("|")]
        for line in markdown.splitlines()
        if line.startswith("| ") and not line.startswith("| Period")
    ]


def test_timeline_markdown_collapses_the_421_eras_and_names_the_2009_change():
    # flying-relents: 2004, 2005 and 2008 settle it alike (Bob's 3 gives Alice the last word); 713.3 changed it
    result = run("timeline", "flying-relents")
    assert_clean_exit(result, 0)
    rows = _rows(result.stdout)
    spans = [row[0] for row in rows]
    assert spans[:3] == ["1998-03-31 to 1999-04-22", "1999-04-23 to 2009-07-10", "since 2009-07-11"]
    row_421 = rows[1]
    assert row_421[1] == "CR 421 (2004), CR 421 (2005), CR 421 (2008)"
    assert "flying true" in row_421[2]
    row_713 = rows[2]
    assert row_713[1] == "CR 713 (2009-07), CR 713 (2009-09), CR 729 (2024)"
    assert "flying false" in row_713[2]
    assert "CR 713 (2009-07)" in row_713[3] and "2009-07-11" in row_713[3]
    assert "713.3" in row_713[3]
    # The Tournament Rules: one period since 2018-07-13 (both texts settle it alike).
    assert spans[3:] == ["since 2018-07-13"]


def test_timeline_json():
    # timeline -f json: format loopcompare/timeline/1; periods with from, to, rulesets, outcome, changed, cause
    result = run("timeline", "-f", "json", "flying-relents")
    assert_clean_exit(result, 0)
    doc = json.loads(result.stdout)
    assert doc["format"] == "loopcompare/timeline/1"
    (timeline,) = doc["timelines"]
    assert timeline["scenario"]["id"] == "flying-relents"
    cr, mtr = timeline["lines"]
    for period in cr["periods"] + mtr["periods"]:
        assert list(period) == ["from", "to", "rulesets", "outcome", "changed", "cause"]
    first, middle, last = cr["periods"]
    assert (first["from"], first["to"], first["rulesets"]) == ("1998-03-31", "1999-04-22", ["summary-1998"])
    assert (first["changed"], first["cause"]) == ([], None)
    assert first["outcome"]["result"] == "unspecified"
    assert (middle["from"], middle["to"]) == ("1999-04-23", "2009-07-10")
    assert middle["rulesets"] == ["cr-2004", "cr-2005", "cr-2008"]
    assert middle["outcome"]["state"] == {"flying": True}
    assert (last["from"], last["to"]) == ("2009-07-11", None)
    assert last["rulesets"] == ["cr-2009", "cr-2009-09", "cr-2024"]
    assert last["outcome"]["iterations"] == 1
    assert last["changed"] == ["iterations", "steps", "deviates", "last_action", "state.flying", "stopped_by"]
    assert "2009-07-11" in last["cause"]
    assert [p["rulesets"] for p in mtr["periods"]] == [["mtr-2018", "mtr-current"]]


def test_timeline_of_teferi_nexus_shows_the_mtr_change_dated_as_the_data_allows():
    # MTR 4.4: the choices paragraph turned Alice's loop to stop (2018 ruling) into a draw; periods from in_force
    result = run("timeline", "-f", "json", "teferi-nexus")
    assert_clean_exit(result, 0)
    (timeline,) = json.loads(result.stdout)["timelines"]
    old, new = registry().get("mtr-2018"), registry().get("mtr-current")
    first, second = timeline["lines"][1]["periods"]
    assert first["rulesets"] == ["mtr-2018"] and second["rulesets"] == ["mtr-current"]
    assert (first["from"], first["to"]) == tuple(old.in_force)
    assert (second["from"], second["to"]) == tuple(new.in_force)
    assert (first["outcome"]["result"], first["outcome"]["deviates"]) == ("shortcut", "Alice")
    assert second["outcome"]["result"] == "draw"
    assert {"result", "deviates"} <= set(second["changed"])
    assert new.summary in second["cause"]
    # The markdown names the days as the data gives them: dates, or the interval the sources give.
    spans = [row[0] for row in _rows(run("timeline", "teferi-nexus").stdout)]
    assert spans[-2:] == [period_in_words(old), period_in_words(new)]
    assert spans[-1] == "since a day after 2018-07-13, by 2025-11-10"


def test_as_of_applies_to_teferi_nexus_whichever_mtr_text_was_in_force():
    # --as-of: on the first MTR's first day Alice must stop; on the newest text's date, the current text's draw
    first_day = registry().get("mtr-2018").in_force[0]
    on_first = run("compare", "-f", "json", "--as-of", first_day, "teferi-nexus")
    assert_clean_exit(on_first, 0)
    outcomes = json.loads(on_first.stdout)["comparisons"][0]["outcomes"]
    assert "mtr-current" not in outcomes
    assert (outcomes["mtr-2018"]["result"], outcomes["mtr-2018"]["deviates"]) == ("shortcut", "Alice")
    later = run("compare", "-f", "json", "--as-of", "2026-02-27", "teferi-nexus")
    assert_clean_exit(later, 0)
    outcomes = json.loads(later.stdout)["comparisons"][0]["outcomes"]
    assert outcomes["mtr-current"]["result"] == "draw"
    if "mtr-2018" in outcomes:
        # The sources leave the day of the change open: both texts are applied, and stderr says so.
        assert in_force_on(registry().get("mtr-2018"), "2026-02-27") is None
        assert outcomes["mtr-2018"]["result"] == "shortcut"
        assert "mtr-2018" in later.stderr and "mtr-current" in later.stderr


# --- rulesets --diff ------------------------------------------------------------------------------


def test_rulesets_diff_cr_2005_shows_another_player():
    # 421.2: "the other player" (2004) became "another player" (2005)
    result = run("rulesets", "--diff", "cr-2005")
    assert_clean_exit(result, 0)
    out = result.stdout
    line_421_2 = next(line for line in out.splitlines() if line.startswith("421.2 "))
    assert "[-the other-] {+another+}" in line_421_2
    assert f"What changed: {registry().get('cr-2005').summary}" in out
    assert "Against cr-2004" in out
    # 421.5: "In APNAP order" is new in 2005.
    assert "{+In APNAP order, the+}" in out


def test_rulesets_diff_mtr_current_shows_the_choices_paragraph_added():
    # MTR 4.4: the one change since 2018-07-13 is the paragraph on loops sustained by choices
    result = run("rulesets", "--diff", "mtr-current")
    assert_clean_exit(result, 0)
    out = result.stdout
    assert "Against mtr-2018" in out
    body = out.split("added words {+like this+}.", 1)[1]
    added = re.findall(r"\{\+(.*?)\+\}", body, re.S)
    assert any("Some loops are sustained by choices rather than actions" in a for a in added)
    assert any("a judge may be needed" in a for a in added)
    # Nothing else of the 2018 text changed but a serial comma (the 2026-02-27 wording).
    assert re.findall(r"\[-(.*?)-\]", body, re.S) == ["probability"]
    assert "{+probability,+}" in body


def test_rulesets_diff_summary_1998_has_no_predecessor():
    # G.21 (1998) is the earliest text modelled
    result = run("rulesets", "--diff", "summary-1998")
    assert_clean_exit(result, 0)
    assert "has no predecessor" in result.stdout
    assert "G.21.3" in result.stdout


def test_rulesets_diff_unknown_key_exits_2():
    # rulesets --diff: an unknown key is bad input, named in the message
    result = run("rulesets", "--diff", "cr-1066")
    assert_clean_exit(result, 2)
    assert "cr-1066" in result.stderr
    assert "known rulesets" in result.stderr
