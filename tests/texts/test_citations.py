"""Citations (rulesets/citations.py, ``loopcompare cite``) and the stamp every report carries.

Issue 25 items 1 and 2, issue 22 item 2 (the 1999 text, the {0} of the 2003 text): every shipped
text has a citation record pointing outside the project; reports cite with links; ``cite`` prints
text, BibTeX (read back by pybtex, strictly) and CSL-JSON (read back as JSON); no output names a
file of the project as a source; the stamp is deterministic and its command reproduces the report.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from loopcompare.comparator.cli import main
from loopcompare.rulesets import citations, history, texts
from loopcompare.rulesets.registry import registry

from helpers import SHARED

TEXTS = Path(texts.__file__).parent / "texts"
SHIPPED = sorted(p.name for p in TEXTS.glob("*.txt"))
SOURCES = SHARED / "sources"


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# --- the records ----------------------------------------------------------------------------------


@pytest.mark.parametrize("filename", SHIPPED)
def test_every_shipped_text_has_a_full_citation_record(filename):
    record = citations.citation(filename)
    assert record is not None, f"{filename} has no citation record"
    assert record.title and record.publisher == "Wizards of the Coast"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", record.effective)
    assert record.rule
    archive = record.archive
    assert archive.address.startswith("https://")
    if archive.repository:
        assert re.fullmatch(r"[0-9a-f]{40}", archive.commit), filename
        assert archive.address.startswith(f"https://github.com/{archive.repository}/")
        assert archive.commit in archive.address and " " not in archive.address
    # a citation points outside the project: no text file of its own is named
    for shipped in SHIPPED:
        assert shipped not in record.text() and shipped not in record.markdown() and shipped not in record.html()


@pytest.mark.parametrize("filename", [n for n in SHIPPED if re.match(r"\d{4}-\d{2}-\d{2}_cr_\d{3}", n)])
def test_a_cr_record_cites_the_number_in_force_on_its_date(filename):
    # "rule 729" for the text of 2024-06-07: the number the dated list gives that day
    record = citations.citation(filename)
    number = history.number_on(record.effective)
    assert record.rule.startswith(f"rule {number}"), (filename, number)
    assert filename.startswith(record.effective)


@pytest.mark.skipif(not SOURCES.is_dir(), reason="../shared/sources is not beside this checkout")
@pytest.mark.parametrize("filename", SHIPPED)
def test_the_shipped_copy_is_the_source_with_its_header(filename):
    # rulesets/texts/ copies ../shared/sources/: the same provenance lines, the same words;
    # a copy edited here says so in a "# Edited here" line (and only how it is written changes)
    shipped = (TEXTS / filename).read_text(encoding="utf-8").splitlines()
    source = (SOURCES / filename).read_text(encoding="utf-8").splitlines()
    header = [line for line in shipped if line.startswith("# ") and not line.startswith("# Edited here")]
    assert header == [line for line in source if line.startswith("# ")]
    edits = [line for line in shipped if line.startswith("# Edited here")]
    body = [line for line in shipped if not line.startswith("# ")]
    original = [line for line in source if not line.startswith("# ")]
    if not edits:
        assert body == original
        return

    def written(lines: list[str]) -> list[str]:
        # the edits the header announces: {o0} for {0}, straight quotes for typographic ones
        table = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"})
        return [line.replace("{o0}", "{0}").translate(table) for line in lines]

    assert body != original and written(body) == written(original)


def test_the_2003_text_writes_0_as_the_2005_text_does_and_says_so():
    doc = texts.document("2003-07-01_cr_421.txt")
    assert "{o0}" not in doc.text("421.3") and '"{0}: [This creature] gains flying."' in doc.text("421.3")
    assert '"{0}:' in texts.document("2005-08-01_cr_421.txt").text("421.3")
    assert any("{o0}" in line and "2005-08-01" in line for line in doc.provenance)


# --- the 1999 text, quoted for its dates -----------------------------------------------------------


@pytest.mark.parametrize(
    "date, quoted",
    [
        ("1999-04-23", "1999-04-23_cr_421.txt"),  # the first CR
        ("2001-07-22", "1999-04-23_cr_421.txt"),
        ("2001-07-23", "2003-07-01_cr_421.txt"),  # the release that reworded 421.3's example
        ("2005-07-31", "2003-07-01_cr_421.txt"),
    ],
)
def test_the_1999_text_is_quoted_for_the_days_it_was_in_force(date, quoted):
    (ruleset,) = history.as_of(registry().rulesets, date).rulesets
    assert ruleset.key == "cr-2004"
    assert [s.filename for s in ruleset.sources] == [quoted]
    assert ruleset.source_of("421.3").filename == quoted
    assert ("EXAMPLE: The active player controls" in ruleset.quote("421.3")) is (quoted.startswith("1999"))


def test_compare_as_of_2000_quotes_the_1999_words_and_cites_them():
    out = run("compare", "flying", "--as-of", "2000-01-01").stdout
    assert "| Outcome" in out and "CR 421 (1999)" in out
    assert "EXAMPLE: The active player controls a creature" in out
    assert "effective 1999-04-23, rule 421" in out and "pit142857/mtg-cr/blob/" in out


# --- reports cite with links; no output names a project file ----------------------------------------


def _no_project_file(text: str) -> None:
    unescaped = text.replace("\\_", "_")
    for name in SHIPPED:
        assert name not in unescaped, name


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_a_report_cites_its_texts_with_links_and_names_no_project_file(fmt):
    out = run("compare", "seal-of-cleansing", "-r", "all", "-f", fmt).stdout
    _no_project_file(out)
    if fmt == "md":
        # the addresses bare: GitHub links them, and the report makes no link outside itself
        assert "Archived copy: GitHub xremming/rulesraker, archive/txt/2024-06-07.txt, commit 8d5947c (https://github.com/xremming/rulesraker/blob/" in out
        assert "Official copy: https://media.wizards.com/2024/downloads/MagicCompRules%2020240607.txt." in out
    if fmt == "html":
        assert '<a href="https://media.wizards.com/2024/downloads/MagicCompRules%2020240607.txt">Official copy</a>' in out
        assert "<cite>Magic: The Gathering Tournament Rules</cite>" in out


@pytest.mark.parametrize("args", [["rulesets"], ["cite"], ["cite", "-f", "bibtex"], ["cite", "-f", "csl-json"], ["timeline", "flying"], ["cite", "flying"]])
def test_no_command_names_a_project_file_as_a_source(args):
    result = run(*args)
    assert result.exit_code == 0
    _no_project_file(result.stdout)


# --- cite ---------------------------------------------------------------------------------------


def test_cite_a_ruleset_gives_its_texts():
    out = run("cite", "mtr-current").stdout
    assert out.count("\n\n") == 1  # the MTR of 2026-02-27 and the CR it is read with (729 of 2024-06-07)
    assert "Magic: The Gathering Tournament Rules, effective 2026-02-27, section 4.4 \u201cLoops\u201d." in out
    assert "Official copy: https://media.wizards.com/ContentResources/WPN/MTG_MTR_2026_Feb27_EN.pdf." in out
    assert "GitHub EmoShuShu/mtr-zh, snapshots/2026-02-27/a627fb8c8568/extracted/official.md, commit 19fd335" in out


def test_cite_bibtex_parses_as_bibtex():
    from pybtex.database import parse_string
    from pybtex.errors import set_strict_mode

    set_strict_mode(True)
    out = run("cite", "-f", "bibtex").stdout
    data = parse_string(out, "bibtex")
    assert len(data.entries) == len(SHIPPED)
    entry = data.entries["cr-2024-06-07-729"]
    assert entry.fields["url"] == "https://media.wizards.com/2024/downloads/MagicCompRules%2020240607.txt"
    assert entry.fields["date"] == "2024-06-07"
    assert "\u201cTaking Shortcuts\u201d" in entry.fields["title"]
    assert [str(p) for p in entry.persons["author"]] == ["{Wizards of the Coast}"]
    # a report cited: the tool, its version and the command, no date
    report = parse_string(run("cite", "flying", "-f", "bibtex").stdout, "bibtex")
    (key,) = [k for k in report.entries if k.startswith("loopcompare-flying-")]
    assert "loopcompare compare flying -f md" in report.entries[key].fields["note"]
    assert "year" not in report.entries[key].fields


def test_a_broken_bibtex_entry_fails_the_parser():
    # the check above can fail: pybtex, strict, refuses an entry with an unbalanced brace (BibTeX
    # counts braces even after a backslash, so a brace in a value is written \textbraceleft{})
    from pybtex.database import parse_string
    from pybtex.errors import set_strict_mode
    from pybtex.scanner import PrematureEOF, PybtexSyntaxError

    set_strict_mode(True)
    broken = citations.bibtex_entry("misc", "k", [("title", "a {b")])
    with pytest.raises((PybtexSyntaxError, PrematureEOF)):
        parse_string(broken.replace(r"\textbraceleft{}", "{"), "bibtex")
    assert parse_string(broken, "bibtex").entries["k"].fields["title"] == r"a \textbraceleft{}b"


def test_cite_csl_json_reads_back_as_csl_items():
    items = json.loads(run("cite", "-f", "csl-json").stdout)
    assert len(items) == len(SHIPPED)
    assert len({i["id"] for i in items}) == len(items)
    for item in items:
        assert set(item) >= {"id", "type", "title", "author", "issued", "URL", "archive_location"}
        (parts,) = item["issued"]["date-parts"]
        assert len(parts) == 3 and all(isinstance(p, int) for p in parts)
        assert item["type"] == "document"
    (current,) = [i for i in items if i["id"] == "cr-2026-04-17-732"]
    assert current["archive"] == "muz/mtgrulediff"
    report = json.loads(run("cite", "flying", "-f", "csl-json").stdout)
    assert report[0]["type"] == "report" and report[0]["version"] and "issued" not in report[0]


def test_cite_an_unknown_name_exits_2():
    result = CliRunner().invoke(main, ["cite", "no-such-thing"])
    assert result.exit_code == 2 and "Traceback" not in result.output


# --- the stamp ----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_every_report_is_stamped_and_its_command_reproduces_it(fmt):
    out = run("compare", "flying", "-r", "cr-2008", "-r", "cr-2024", "-f", fmt).stdout
    if fmt == "json":
        stamp = json.loads(out)["stamp"]
        command = stamp["command"]
        assert stamp["version"] and len(stamp["texts"]) == len(SHIPPED) and stamp["texts_digest"]
    else:
        (command,) = re.findall(r"reproduce with:\*? ?<?c?o?d?e?>?`?(loopcompare [^`<\n]*)", out)
    assert command == f"loopcompare compare flying --ruleset cr-2008 --ruleset cr-2024 -f {fmt}"
    assert run(*command.split()[1:]).stdout == out  # the same bytes: no clock in the stamp
    assert re.search(r"\b20\d\d-\d\d-\d\dT|\d\d:\d\d:\d\d", out) is None


def test_the_stamp_changes_with_a_text(monkeypatch):
    # the texts' versions are digests of their bytes: another text gives another stamp
    before = citations.stamp("x")
    monkeypatch.setattr(citations, "text_version", lambda name, package="": "0" * 12 if name.startswith("2024") else "1" * 12)
    assert citations.stamp("x").digest() != before.digest()


def test_table_only_keeps_a_source_note_unless_asked_not_to():
    md = run("compare", "flying", "--table-only").stdout
    assert md.rstrip().splitlines()[-1].startswith("Source: Made by loopcompare")
    assert "loopcompare compare flying --table-only -f md" in md
    bare = run("compare", "flying", "--table-only", "--no-source-note").stdout
    assert "Made by loopcompare" not in bare and bare.rstrip().endswith("|")


def test_table_only_html_marks_differing_cells_in_strong_keeping_the_class():
    html = run("compare", "flying-relents", "--table-only", "-f", "html").stdout
    odd = re.findall(r'<td class="odd"><strong>[^<]+</strong></td>', html)
    assert odd, "flying-relents differs between the eras"
    assert '<td class="odd">' not in html.replace('<td class="odd"><strong>', "")
    assert '<p class="stamp"><small>Source: Made by loopcompare' in html
