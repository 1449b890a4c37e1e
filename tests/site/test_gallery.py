"""Golden reports: the committed gallery in reports/ is pinned byte for byte.

To regenerate after an intended change: ``pytest --regen-all`` (or ``loopcompare gallery``),
then read ``git diff reports/`` before committing.  A failing comparison leaves the actual
output next to the gold file as ``NAME.obtained``.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path

import pytest

from gallery import gallery

from helpers import ROOT

REPORTS = ROOT / "reports"
FILES = gallery()


def _same_bytes(obtained: Path, expected: Path) -> None:
    got, want = obtained.read_bytes(), expected.read_bytes()
    if got == want:
        obtained.unlink()  # only a failure leaves the actual output behind
        return
    diff = "".join(
        difflib.unified_diff(
            want.decode("utf-8", "replace").splitlines(keepends=True),
            got.decode("utf-8", "replace").splitlines(keepends=True),
            fromfile=str(expected),
            tofile=str(obtained),
            n=2,
        )
    )
    raise AssertionError(
        f"{expected.name} differs from the rendered report (actual output left in {obtained}).\n"
        "If the change is intended: pytest --regen-all, then read git diff reports/.\n" + diff[:6000]
    )


@pytest.mark.parametrize("name", sorted(FILES))
def test_gallery_file_matches_gold(name, file_regression):
    gold = REPORTS / name
    file_regression.check(
        FILES[name].encode("utf-8"),
        binary=True,
        fullpath=gold,
        obtained_filename=gold.with_name(gold.name + ".obtained"),
        check_fn=_same_bytes,
    )


def test_gallery_has_no_stray_reports():
    # A report left behind by a renamed scenario would go stale silently.
    stray = sorted(
        p.relative_to(REPORTS).as_posix()
        for p in REPORTS.rglob("*")
        if p.suffix in {".md", ".html", ".json"} and p.relative_to(REPORTS).as_posix() not in FILES
    )
    assert not stray


def test_every_scenario_has_a_timeline_naming_the_change():
    text = FILES["timelines/flying-relents.md"]
    assert "| 1999-04-23 to 2009-07-10 | CR 421 (2004), CR 421 (2005), CR 421 (2008)" in text
    assert "CR 713 (2009-07), 2009-07-11: Taking Shortcuts replaces 421" in text
    assert "## Tournament Rules" in text


# Targeted checks, so a failure names what matters rather than only "bytes differ".


def test_flying_relents_markdown_marks_the_differing_rows():
    text = FILES["flying-relents.md"]
    assert "| **≠ Iterations**" in text
    assert "| **≠ State: flying**" in text
    assert "| Result " in text  # the same under every ruleset: not marked
    header = next(line for line in text.splitlines() if line.startswith("| Outcome"))
    for name in ("CR 421 (2004)", "CR 421 (2008)", "CR 729 (2024)", "MTR 4.4 (current)"):
        assert name in header


def test_reports_quote_the_rules_they_cite():
    text = FILES["flying-relents.md"]
    assert "> **729.3**" in text
    assert "Sometimes a loop can be fragmented" in text


def test_reports_say_where_each_quoted_text_was_obtained():
    # provenance: every section that quotes rules names each quoted document and its source line
    md = FILES["flying-relents.md"]
    # cited as a historian cites them (issue 25): the document, its date and rule, the archived copy
    assert "- Wizards of the Coast. Magic: The Gathering Comprehensive Rules, effective 2024-06-07, rule 729" in md
    assert "Archived copy: GitHub xremming/rulesraker, archive/txt/2024-06-07.txt, commit 8d5947c" in md
    assert "Archived copy: GitHub EmoShuShu/mtr-zh" in md and "2024-06-07\\_cr\\_729.txt" not in md
    html = FILES["flying-relents.html"]
    assert '<a href="https://github.com/xremming/rulesraker/blob/8d5947c2a8d248d6480a6f7cc3b9478251c8a79d/archive/txt/2024-06-07.txt">' in html
    for name, text in FILES.items():
        if name.endswith(".md") and "atlas" not in name:
            assert text.count("**Rules quoted:**") == text.count("**Sources:**"), name
        if name.endswith(".json"):
            # the JSON contract is unchanged (but for its stamp); a library file's own [[oracle]]/[[ruling]]
            # text may cite anything
            assert "Sources" not in _without_metadata(text) and "rulesraker" not in _without_metadata(text), name


def test_no_report_calls_the_current_rule_731():
    # CR 2026-04-17 renumbered Taking Shortcuts 731 -> 732: "today" is 732 everywhere
    for name, text in FILES.items():
        assert not re.search(r"731 today|numbered 731|is 731\b", text), name
    assert "Rule 729 is numbered 732 today (same rule)." in FILES["flying-relents.md"]
    assert "Today it is 732." in FILES["timelines/flying-relents.md"]


def _without_metadata(text: str) -> str:
    """A JSON report without the scenario's descriptive [[oracle]]/[[ruling]]/simplified (docs/LIBRARY.md)."""
    doc = json.loads(text)
    for comparison in doc.get("comparisons", []):
        for key in ("oracle", "rulings", "simplified"):
            comparison.get("scenario", {}).pop(key, None)
    return json.dumps(doc)


def test_html_reports_are_self_contained():
    for name, text in FILES.items():
        if name.endswith(".html"):
            assert "<script" not in text
            # Nothing is loaded from elsewhere: links out are the citations (issue 25), and an address
            # may appear as text (a library entry cites where its Oracle text and rulings were read).
            loaded = re.sub(r'<a href="https?://[^"]*">', "", text)
            assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", loaded, re.IGNORECASE), name
            assert not re.search(r"""(?:@import|url\()\s*["']?\s*(?:https?:)?//""", loaded, re.IGNORECASE), name
            assert not re.search(r"<link[^>]*stylesheet", text, re.IGNORECASE), name
            assert text.startswith("<!DOCTYPE html>\n<html lang=\"en\">")


def test_json_reports_follow_the_format():
    doc = json.loads(FILES["gond-googol.json"])
    assert doc["format"] == "loopcompare/1"
    outcome = doc["comparisons"][0]["outcomes"]["cr-2004"]
    assert outcome["iterations"] == 10**100
    assert list(outcome) == ["result", "iterations", "steps", "deviates", "last_action", "state", "judge", "rules", "notes", "transcript",
                            "ended_by", "eliminated", "stopped_by", "ends_early_if", "expected_iterations",
                            "after_cut", "inner", "inner_results", "part", "parts"]


def test_index_links_every_scenario():
    index = FILES["index.md"]
    for name in FILES:
        if name.endswith(".md") and name not in ("index.md", "README.md") and "/" not in name:
            assert f"]({name})" in index
    assert "](timelines/" in index


def test_the_atlas_is_in_the_gallery_with_its_summary():
    text = FILES["atlas.md"]
    assert text.startswith("# Divergence atlas: CR 421 (2004), CR 421 (2008), CR 729 (2024), MTR 4.4 (current)\n")
    assert "## How often each pair of rulesets disagrees" in text
    assert '<a id="class-1"></a>' in text
