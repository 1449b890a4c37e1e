"""`loopcompare sources CRFILE...`: reading a whole official Comprehensive Rules file.

The two releases in ``../shared/sources/full/`` (UTF-8, CRLF; the 2026-06-19 one with a
byte-order mark) are real input: 2026-02-27 has "Taking Shortcuts" as 731, 2026-06-19 as 732
(rule 722 "Preparation Cards" was inserted on 2026-04-17), the same text.  Small files built here
from the shipped texts stand in for the bad inputs and for a release that renumbers the rule
again, so those tests run everywhere.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from loopcompare.comparator import crfile
from loopcompare.comparator.cli import main
from loopcompare.rulesets import texts

from helpers import SHARED

FULL = SHARED / "sources" / "full"
CR_0227 = FULL / "MagicCompRules 20260227.txt"
CR_0619 = FULL / "MagicCompRules 20260619.txt"
needs_full = pytest.mark.skipif(not CR_0619.is_file(), reason="../shared/sources/full is not beside this checkout")


def run(*args) -> object:
    """Invoke the CLI; stdout and stderr are kept apart."""
    return CliRunner().invoke(main, ["sources", *map(str, args)], catch_exceptions=True)


def assert_clean_exit(result, code: int) -> None:
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


def cr_file(rule: str, *, date: str = "June 19, 2026", number: str = "732", contents: bool = True) -> bytes:
    """A small Comprehensive Rules file in the official layout (BOM, CRLF): title, date, contents,
    the rules of section 7 around the loop rule, a glossary."""
    toc = [f"{int(number) - 1}. Day and Night", f"{number}. Taking Shortcuts", f"{int(number) + 1}. Handling Illegal Actions"]
    lines = [
        "Magic: The Gathering Comprehensive Rules",
        "",
        f"These rules are effective as of {date}.",
        "",
        "Contents",
        "",
        *(toc if contents else []),
        "Glossary",
        "Credits",
        "",
        f"{int(number) - 1}. Day and Night",
        "",
        f"{int(number) - 1}.1. Day and night are designations.",
        "",
        *rule.rstrip("\n").split("\n"),
        "",
        f"{int(number) + 1}. Handling Illegal Actions",
        "",
        f"{int(number) + 1}.1. If a player takes an illegal action, the action is reversed.",
        "",
        "Glossary",
        "",
        "Loop",
        f"A set of actions that could be repeated indefinitely. See rule {number}, \u201cTaking Shortcuts.\u201d",
        "",
    ]
    return "\ufeff".encode() + "\r\n".join(lines).encode("utf-8")


def shipped(filename: str) -> str:
    """A shipped text without its provenance lines."""
    raw = (Path(texts.__file__).parent / "texts" / filename).read_text(encoding="utf-8")
    return "\n".join(line for line in raw.splitlines() if not line.startswith("#")).strip("\n")


RULE_732 = shipped("2026-04-17_cr_732.txt")


# --- the two official releases --------------------------------------------------------------------


@needs_full
def test_the_2026_06_19_release_is_732_renumbered_from_731_with_the_same_text():
    # CR 2026-06-19: rule 732, the same text as 731 of 2026-01-16, renumbered (722 inserted on 2026-04-17)
    result = run(CR_0619)
    assert_clean_exit(result, 0)
    out = result.stdout
    assert out.startswith("MagicCompRules 20260619.txt: Comprehensive Rules effective 2026-06-19;")
    assert "\u201cTaking Shortcuts\u201d is rule 732 (line 6360; 732.1 to 732.6, 12 rules)" in out
    assert "the newest text known by then, 2026-04-17_cr_732.txt (rule 732, text of 2026-04-17): same text." in out
    assert "2026-01-16_cr_731.txt (rule 731, text of 2026-01-16): renumbered (731 -> 732), the same text." in out
    assert "732 from 2026-04-17 in the renumbering list; this file agrees." in out
    assert "changed" not in out


@needs_full
def test_the_2026_02_27_release_is_731_with_the_same_text():
    # CR 2026-02-27: rule 731, word for word the 731 of 2026-01-16; no BOM in this one
    result = run(CR_0227)
    assert_clean_exit(result, 0)
    out = result.stdout
    assert "effective 2026-02-27; \u201cTaking Shortcuts\u201d is rule 731 (line 6290;" in out
    assert "2026-01-16_cr_731.txt (rule 731, text of 2026-01-16): same text." in out
    assert "renumbered" not in out and "changed" not in out
    assert "731 from 2025-07-25 in the renumbering list; this file agrees." in out


@needs_full
def test_the_rule_is_found_in_the_rules_not_in_the_contents():
    # the contents list "731. Taking Shortcuts" too (line 152), with "732. Handling Illegal Actions" right under it
    rule = crfile.rule_from(CR_0227.read_bytes(), CR_0227.name)
    assert rule.line == 6290
    assert rule.lines[0] == "731. Taking Shortcuts"
    assert rule.lines[-1].startswith("731.6. If a loop contains an effect that says")
    assert not [line for line in rule.lines if "Handling Illegal Actions" in line or "\r" in line]


@needs_full
def test_a_copy_with_one_changed_word_reports_that_word(tmp_path):
    # one word of 732.3 changed: "changed (732.3)", and the word diff shows just that word, in context
    data = CR_0619.read_bytes()
    at = data.index(b"732.3. Sometimes a loop can be fragmented")
    changed = tmp_path / "MagicCompRules 20260619.txt"
    changed.write_bytes(data[:at] + data[at:].replace(b"can be fragmented", b"can be splintered", 1))
    result = run(changed)
    assert_clean_exit(result, 0)
    out = result.stdout
    assert "2026-04-17_cr_732.txt (rule 732, text of 2026-04-17): changed (732.3)." in out
    (diff,) = [line for line in out.splitlines() if line.startswith("    732.3: ")]
    assert "[-fragmented,-] {+splintered,+}" in diff
    assert re.findall(r"\[-(.*?)-\]|\{\+(.*?)\+\}", diff) == [("fragmented,", ""), ("", "splintered,")]
    # the rest of the subrule is cut to a few words of context
    assert diff.endswith("\u2026") and len(diff) < 200


@needs_full
def test_write_gives_a_source_file_in_the_projects_format(tmp_path):
    # --write: DATE_cr_NUMBER.txt with provenance lines; the rule parses as the shipped 732 text does
    result = run("--write", tmp_path, CR_0619, CR_0227)
    assert_clean_exit(result, 0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["2026-02-27_cr_731.txt", "2026-06-19_cr_732.txt"]
    written = (tmp_path / "2026-06-19_cr_732.txt").read_text(encoding="utf-8")
    header = [line for line in written.splitlines() if line.startswith("#")]
    assert len(header) == 2
    assert header[0].startswith("# Comprehensive Rules effective 2026-06-19: rule 732 \u201cTaking Shortcuts\u201d.")
    assert header[1].startswith("# Source: MagicCompRules 20260619.txt, sha256 ")
    assert "These rules are effective as of June 19, 2026." in header[1]
    assert "\r" not in written and written.endswith("\n")
    doc = texts.parse(written, "2026-06-19_cr_732.txt")
    assert doc.rules == texts.document("2026-04-17_cr_732.txt").rules
    assert doc.source_line().startswith("MagicCompRules 20260619.txt, sha256 ")


@needs_full
def test_write_never_overwrites_a_different_file(tmp_path):
    # the same file again is left alone; a different one of that name is refused, exit 2, untouched
    assert_clean_exit(run("--write", tmp_path, CR_0619), 0)
    again = run("--write", tmp_path, CR_0619)
    assert_clean_exit(again, 0)
    assert "unchanged" in again.stdout
    target = tmp_path / "2026-06-19_cr_732.txt"
    target.write_text("# my own notes\n", encoding="utf-8")
    refused = run("--write", tmp_path, CR_0619)
    assert_clean_exit(refused, 2)
    assert "2026-06-19_cr_732.txt: already exists" in refused.stderr
    assert target.read_text(encoding="utf-8") == "# my own notes\n"


# --- releases built here: renumbered again, changed --------------------------------------------------


def test_a_release_that_renumbers_the_rule_says_from_what_to_what(tmp_path):
    # a later release with the rule as 733: renumbered (732 -> 733), and the list to update is named
    rule_733 = re.sub(r"(?m)^732\.", "733.", RULE_732)
    path = tmp_path / "MagicCompRules 20261002.txt"
    path.write_bytes(cr_file(rule_733, date="October 2, 2026", number="733"))
    result = run(path)
    assert_clean_exit(result, 0)
    out = result.stdout
    assert "is rule 733" in out
    assert "2026-04-17_cr_732.txt (rule 732, text of 2026-04-17): renumbered (732 -> 733), the same text." in out
    assert 'RuleNumber("2026-10-02", "733", "<what moved it>")' in out and "to RULE_NUMBERS in rulesets/history.py" in out


def test_a_release_with_a_new_subrule_shows_it(tmp_path):
    # an added subrule is reported as new, with its words
    rule = RULE_732 + "\n\n732.7. A new rule about loops."
    path = tmp_path / "cr.txt"
    path.write_bytes(cr_file(rule))
    result = run(path)
    assert_clean_exit(result, 0)
    assert "changed (732.7)" in result.stdout
    assert "732.7: new: {+A new rule about loops.+}" in result.stdout


def test_line_ends_and_byte_order_mark_do_not_matter():
    # CRLF with a BOM (as published in 2026-06) and LF without one give the same rule
    crlf = crfile.rule_from(cr_file(RULE_732), "a.txt")
    lf = crfile.rule_from(cr_file(RULE_732)[3:].replace(b"\r\n", b"\n"), "b.txt")
    assert crlf.lines == lf.lines
    assert crlf.effective == lf.effective == "2026-06-19"
    assert crlf.text == RULE_732 + "\n"


# --- bad input: exit 2, the file named, nothing written -----------------------------------------------


def _bad_inputs(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    def file(name: str, data: bytes) -> Path:
        path = tmp_path / name
        path.write_bytes(data)
        return path

    huge = tmp_path / "huge.txt"
    with huge.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # a sparse 50 MB file: refused before it is read whole
    no_rules = cr_file(RULE_732).replace(b"Taking Shortcuts", b"Taking Breaks")
    return {
        "not a CR file": (file("notes.txt", b"Just some notes.\r\n"), "not a Comprehensive Rules file"),
        "no shortcut rule": (file("no-rule.txt", no_rules), "no rule titled \u201cTaking Shortcuts\u201d"),
        "no date": (file("no-date.txt", cr_file(RULE_732).replace(b"These rules are effective as of", b"Effective")), "no effective date"),
        "a bad date": (file("bad-date.txt", cr_file(RULE_732, date="February 30, 2026")), "is not a date"),
        "Windows-1252": (file("cp1252.txt", cr_file(RULE_732).replace("\u201c".encode(), b"\x93")), "not UTF-8 text"),
        "binary": (file("binary.txt", cr_file(RULE_732) + b"\x00\x01\x02"), "binary"),
        "50 MB": (huge, "larger than 20 MB"),
        "missing": (tmp_path / "missing.txt", "can't read"),
        "two shortcut rules": (file("twice.txt", cr_file(RULE_732 + "\n\n" + re.sub(r"(?m)^732\.", "740.", RULE_732))), "more than one rule"),
    }


BAD = ["not a CR file", "no shortcut rule", "no date", "a bad date", "Windows-1252", "binary", "50 MB", "missing", "two shortcut rules"]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_exits_2_naming_the_file_and_writes_nothing(tmp_path, case):
    # sources: a clear message naming the file, exit 2, no traceback, nothing written
    path, words = _bad_inputs(tmp_path)[case]
    out = tmp_path / "out"
    out.mkdir()
    result = run("--write", out, path)
    assert_clean_exit(result, 2)
    assert f"{path.name}: " in result.stderr
    assert words in result.stderr
    assert "nothing was written" in result.stderr
    assert list(out.iterdir()) == []


def test_a_title_only_in_the_contents_is_not_the_rule(tmp_path):
    # the contents list the title with no subrules under it: that is not the rule
    data = cr_file(RULE_732).replace("732. Taking Shortcuts\r\n\r\n732.1.".encode(), "732. Taking Shortcuts (moved)\r\n\r\n732.1.".encode())
    path = tmp_path / "contents-only.txt"
    path.write_bytes(data)
    result = run(path)
    assert_clean_exit(result, 2)
    assert "contents-only.txt: no rule titled \u201cTaking Shortcuts\u201d with its subrules" in result.stderr
    assert "only in the table of contents" in result.stderr


def test_one_bad_file_among_good_ones_writes_nothing(tmp_path):
    # several files: if any is bad, none of the good ones is written either
    good = tmp_path / "good.txt"
    good.write_bytes(cr_file(RULE_732))
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe not text")
    out = tmp_path / "out"
    out.mkdir()
    result = run("--write", out, good, bad)
    assert_clean_exit(result, 2)
    assert "bad.txt: not UTF-8 text" in result.stderr
    assert list(out.iterdir()) == []


def test_write_to_a_missing_folder_exits_2(tmp_path):
    good = tmp_path / "good.txt"
    good.write_bytes(cr_file(RULE_732))
    result = run("--write", tmp_path / "nope", good)
    assert_clean_exit(result, 2)
    assert "nope: no such folder" in result.stderr
