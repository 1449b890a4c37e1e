"""The rule texts as data: how a document is read, and which draw rule is quoted on which day."""

from __future__ import annotations

import itertools
import textwrap

import pytest

from loopcompare.rulesets.texts import document, draw_rule

_packages = itertools.count()


@pytest.fixture
def text_package(tmp_path, monkeypatch):
    """``write(filename, text)``: a text file in a fresh importable package's ``texts/`` folder;
    returns the package's name (each test gets its own, since documents are cached by name)."""
    name = f"text_package_{next(_packages)}"
    (tmp_path / name / "texts").mkdir(parents=True)
    (tmp_path / name / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(filename: str, text: str) -> str:
        (tmp_path / name / "texts" / filename).write_text(textwrap.dedent(text), encoding="utf-8")
        return name

    return write


# --- documents --------------------------------------------------------------------------------------


def test_numbered_rules_start_a_line_and_wrapped_lines_join_the_rule_above(text_package):
    package = text_package(
        "cr.txt",
        """\
        # Source: an archive
        #   copied 2030-01-01
        421. Handling "Infinite" Loops
        421.1. The first rule,
        wrapped onto a second line.
        421.2a A subrule without a full stop.
        Example: an example belongs to the rule above, on a line of its own.
        ------
        729.3 A third rule.
        """,
    )
    doc = document("cr.txt", package=package)
    assert doc.provenance == ("Source: an archive", "copied 2030-01-01")
    assert doc.ids() == ("421.1", "421.2a", "729.3")
    assert doc.text("421.1") == "The first rule, wrapped onto a second line."
    assert doc.text("421.2a") == "A subrule without a full stop.\nExample: an example belongs to the rule above, on a line of its own."
    assert doc.body.startswith("421.1 The first rule, wrapped")


def test_an_unknown_rule_id_names_the_document(text_package):
    doc = document("cr.txt", package=text_package("cr.txt", "421.1. Only rule.\n"))
    with pytest.raises(KeyError, match=r"cr.txt has no rule '421.9'"):
        doc.text("421.9")


def test_the_tournament_rules_paragraphs_are_numbered_in_order(text_package):
    package = text_package(
        "mtr.txt",
        """\
        # MTR 4.4
        First paragraph.

        Second paragraph.
        ---
        Third paragraph.
        """,
    )
    doc = document("mtr.txt", "MTR 4.4", package)
    assert doc.ids() == ("MTR 4.4 ¶1", "MTR 4.4 ¶2", "MTR 4.4 ¶3")
    assert doc.text("MTR 4.4 ¶3") == "Third paragraph."


def test_the_rules_summary_closing_note_is_a_ruling_of_its_own(text_package):
    package = text_package(
        "g21.txt",
        """\
        G.21.1 - A loop rule.
        Note - Random loops are up to the judge.
        """,
    )
    doc = document("g21.txt", package=package)
    assert doc.ids() == ("G.21.1", "G.21.Note")
    assert doc.text("G.21.Note") == "Random loops are up to the judge."


# --- draw rules: the wording in force on a day --------------------------------------------------------
#
# rulesets/texts/draw-rules_*.txt holds 102.6 from 1999-04-23, 1999-11-01 and 2001-07-23, then
# 102.4b from 2005-08-01, 104.4b from 2009-07-11 and 2010-07-16, 104.4f from 2010-07-16.


def test_draw_rule_quotes_the_latest_wording_in_force_on_the_day():
    assert "_loops_" in draw_rule("102.6", "1999-04-23")  # the first wording, on its first day
    assert "_loops_" in draw_rule("102.6", "1999-10-31")
    assert '"loops,"' in draw_rule("102.6", "1999-11-01")  # the second, from its first day
    assert 'enters a "loop,"' in draw_rule("102.6", "2003-07-01")  # the third, not an earlier one


def test_draw_rule_quotes_only_the_rule_asked_for():
    # 104.4b and 104.4f change on the same day: each keeps its own wording.
    assert "limited range of influence option (including a two-player game)" in draw_rule("104.4b", "2024-06-07")
    assert "draw for each player who controls" in draw_rule("104.4f", "2024-06-07")
    assert "limited range" not in draw_rule("104.4b", "2009-07-11")


def test_draw_rule_before_any_wording_was_in_force_is_an_error():
    with pytest.raises(KeyError, match="no wording of rule 102.6 in force on 1999-04-22"):
        draw_rule("102.6", "1999-04-22")
    with pytest.raises(KeyError, match="no wording of rule 104.4f in force on 2010-07-15"):
        draw_rule("104.4f", "2010-07-15")
