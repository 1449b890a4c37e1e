"""Reading a whole official Comprehensive Rules file: the loop rule, its number, its text.

Wizards publish the Comprehensive Rules as one plain-text file (UTF-8, usually with a byte-order
mark, CRLF line ends): a title, "These rules are effective as of June 19, 2026.", a table of
contents, the rules, a glossary and credits.  :func:`examine` finds the effective date and the
rule titled "Taking Shortcuts" in the rules (the contents list the title too, with no subrules),
whatever its number, and compares it, number masked, with the texts the project ships
(``rulesets/texts/DATE_cr_NNN.txt``): the same text, renumbered, or changed (a word diff of the
subrules that changed).  :func:`source_file` gives the rule as a source file in the project's
format, so that adding a release is one command and a review.

Nothing here touches files: the command line reads the bytes (at most :data:`MAX_BYTES`) and
writes what it is given.  Every error is a :class:`CrFileError` whose message names the file.
"""

from __future__ import annotations

import codecs
import datetime
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from loopcompare.rulesets import texts
from loopcompare.rulesets.history import numbering_on, shortcut_texts

from .textdiff import word_diff

#: A Comprehensive Rules file is about 1 MB; anything past this is not one (and is not read).
MAX_BYTES = 20 * 1024 * 1024

TITLE = "Taking Shortcuts"

_MONTHS = {
    name: i
    for i, name in enumerate(
        ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"), 1
    )
}
_EFFECTIVE = re.compile(r"These rules are effective as of (?P<month>[A-Z][a-z]+) (?P<day>\d{1,2}), (?P<year>\d{4})\.")
_HEADING = re.compile(rf"^(?P<number>\d{{3}})\. {re.escape(TITLE)}\s*$")
# Where a rule ends: the next rule ("732. Handling Illegal Actions"), the next section
# ("8. Multiplayer Rules"), or the glossary.
_NEXT = re.compile(r"^(?:\d{1,3}\. \S|Glossary\s*$)")


class CrFileError(ValueError):
    """A file that is not a readable Comprehensive Rules file with the loop rule; the message names it."""


@dataclass(frozen=True)
class Rule:
    """The loop rule as one release of the Comprehensive Rules has it."""

    file: str
    """The file's name as given (no folder)."""
    effective: str
    """The release's date, ISO (from "These rules are effective as of ...")."""
    effective_line: str
    number: str
    line: int
    """Where the rule's title is in the file (1-based)."""
    lines: tuple[str, ...]
    """The rule verbatim, title first, line ends and trailing blank lines removed."""
    sha256: str

    @property
    def text(self) -> str:
        """The rule as text, one line a line, with a final newline."""
        return "\n".join(self.lines) + "\n"

    def document(self) -> texts.Document:
        """The rule parsed as the shipped texts are: one entry per subrule."""
        return texts.parse(self.text, self.file)


@dataclass(frozen=True)
class Against:
    """The rule against one shipped text: "same text", "renumbered" or "changed"."""

    filename: str
    date: str
    number: str
    verdict: str
    changes: tuple[tuple[str, str], ...] = ()
    """For "changed": (subrule id as in the new file, word diff), in the new file's order."""


@dataclass(frozen=True)
class Examination:
    """What a Comprehensive Rules file says about the loop rule, against what the project knows."""

    rule: Rule
    newest: Against | None
    """Against the newest shipped text dated on or before the file (or the oldest, if none is)."""
    lineage: Against | None
    """When ``newest`` has the same number and text: the nearest older shipped text with the same
    text under another number (where the number came from)."""
    numbering: str
    """What the renumbering list says of that day, and whether the file agrees."""
    written_name: str
    """The file name ``--write`` gives the rule: ``DATE_cr_NUMBER.txt``."""

    def report(self) -> str:
        """The examination in a few lines of plain text."""
        r = self.rule
        doc = r.document()
        ids = doc.ids()
        out = [
            f"{r.file}: Comprehensive Rules effective {r.effective}; \u201c{TITLE}\u201d is rule {r.number} "
            f"(line {r.line}; {ids[0]} to {ids[-1]}, {len(ids)} rules)."
        ]
        if self.newest is None:
            out.append("  the project ships no text of the rule to compare with.")
        else:
            which = "the newest text known by then" if self.newest.date <= r.effective else "the oldest text known (all are later)"
            out.append(f"  against {which}, {_against(self.newest)}: {self.newest.verdict}.")
            for rule_id, diff in self.newest.changes:
                out.append(f"    {rule_id}: {diff}")
        if self.lineage is not None:
            out.append(f"  against the last text known under another number, {_against(self.lineage)}: {self.lineage.verdict}.")
        out.append(f"  numbering: {self.numbering}")
        return "\n".join(out) + "\n"


def _against(a: Against) -> str:
    return f"{a.filename} (rule {a.number}, text of {a.date})"


def rule_from(data: bytes, name: str) -> Rule:
    """The loop rule of a Comprehensive Rules file's bytes; CrFileError naming ``name`` if there is none."""
    if len(data) > MAX_BYTES:
        raise CrFileError(f"{name}: larger than {MAX_BYTES // (1024 * 1024)} MB: not a Comprehensive Rules text file (those are about 1 MB)")
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        text = data[bom:].decode("utf-8")
    except UnicodeDecodeError as exc:
        at = bom + exc.start
        raise CrFileError(
            f"{name}: not UTF-8 text (byte {at:,}: {data[at:at + 1]!r}); the official "
            "Comprehensive Rules text files are UTF-8: save it as UTF-8 and try again"
        ) from None
    if "\x00" in text:
        raise CrFileError(f"{name}: a binary file (it holds NUL characters), not a Comprehensive Rules text file")
    lines = re.split(r"\r\n|\r|\n", text)
    head = [line.strip() for line in lines[:20] if line.strip()]
    if not head or "Comprehensive Rules" not in head[0]:
        raise CrFileError(
            f"{name}: not a Comprehensive Rules file: it should begin with the title "
            "\u201cMagic: The Gathering Comprehensive Rules\u201d"
        )
    effective, effective_line = _effective(lines[:50], name)
    candidates = []
    for i, line in enumerate(lines):
        match = _HEADING.match(line)
        if match:
            body = _body(lines, i)
            if any(b.startswith(match["number"] + ".") for b in body[1:]):
                candidates.append((i, match["number"], body))
    if not candidates:
        where = "only in the table of contents, with no rules under it" if any(_HEADING.match(x) for x in lines) else "nowhere"
        raise CrFileError(f"{name}: no rule titled \u201c{TITLE}\u201d with its subrules: the title is found {where}")
    if len(candidates) > 1:
        numbers = ", ".join(n for _, n, _ in candidates)
        raise CrFileError(f"{name}: more than one rule titled \u201c{TITLE}\u201d ({numbers}); which one is meant can't be told")
    i, number, body = candidates[0]
    return Rule(name, effective, effective_line, number, i + 1, tuple(body), hashlib.sha256(data).hexdigest())


def _effective(lines: list[str], name: str) -> tuple[str, str]:
    for line in lines:
        match = _EFFECTIVE.search(line)
        if match:
            month = _MONTHS.get(match["month"])
            day, year = int(match["day"]), int(match["year"])
            try:
                return datetime.date(year, month or 0, day).isoformat(), match.group(0)
            except ValueError:
                raise CrFileError(f"{name}: the effective date \u201c{match.group(0)}\u201d is not a date") from None
    raise CrFileError(
        f"{name}: no effective date: a Comprehensive Rules file says near its top "
        "\u201cThese rules are effective as of <Month> <day>, <year>.\u201d"
    )


def _body(lines: list[str], start: int) -> list[str]:
    """The rule whose title is at ``start``: up to the next rule, section or the glossary."""
    body = [lines[start].rstrip()]
    for line in lines[start + 1 :]:
        if _NEXT.match(line):
            break
        body.append(line.rstrip())
    while body and not body[-1].strip():
        body.pop()
    return body


# --- comparing with the shipped texts ---------------------------------------------------------------


def _masked(doc: texts.Document, number: str) -> list[tuple[str, str]]:
    """Subrules with the rule number masked in their ids and in the text's references to itself."""
    own = re.compile(rf"\b{re.escape(number)}(?=\.\d)")
    out = []
    for key, text in doc.rules:
        if key.startswith(number + "."):
            out.append((key[len(number) + 1 :], own.sub("NNN", text)))
    return out


def compare(rule: Rule, filename: str, date: str, number: str) -> Against:
    """The rule against one shipped text (``filename``, dated ``date``, numbered ``number``)."""
    new = _masked(rule.document(), rule.number)
    old = _masked(texts.document(filename), number)
    renumbered = f"renumbered ({number} -> {rule.number})" if number != rule.number else ""
    if new == old:
        return Against(filename, date, number, f"{renumbered}, the same text" if renumbered else "same text")
    before = dict(old)
    after = dict(new)
    changes = []
    for part, text in new:
        if part not in before:
            changes.append((f"{rule.number}.{part}", f"new: {{+{text}+}}"))
        elif before[part] != text:
            changes.append((f"{rule.number}.{part}", _in_context(word_diff(before[part], text).replace("NNN", rule.number))))
    for part, text in old:
        if part not in after:
            changes.append((f"{number}.{part}", f"removed: [-{text}-]"))
    ids = ", ".join(key for key, _ in changes)
    verdict = f"changed ({ids})" + (f", and {renumbered}" if renumbered else "")
    return Against(filename, date, number, verdict, tuple(changes))


_DIFF_TOKEN = re.compile(r"\[-.*?-\]|\{\+.*?\+\}|\S+", re.S)


def _in_context(diff: str, words: int = 8) -> str:
    """A word diff cut down to the changes and ``words`` words either side ("…" for the rest):
    a subrule with one changed word need not be read whole."""
    tokens = _DIFF_TOKEN.findall(diff)
    changed = [i for i, tok in enumerate(tokens) if tok.startswith(("[-", "{+"))]
    keep = {j for i in changed for j in range(i - words, i + words + 1)}
    out: list[str] = []
    for i, tok in enumerate(tokens):
        if i in keep:
            out.append(tok)
        elif not out or out[-1] != "\u2026":
            out.append("\u2026")
    return " ".join(out)


def examine(data: bytes, name: str) -> Examination:
    """Read a Comprehensive Rules file's bytes and compare its loop rule with the shipped texts."""
    rule = rule_from(data, name)
    known = shortcut_texts()
    on_or_before = [k for k in known if k[0] <= rule.effective]
    newest = None
    lineage = None
    if known:
        date, number, filename = on_or_before[-1] if on_or_before else known[0]
        newest = compare(rule, filename, date, number)
        if newest.verdict == "same text":
            for date, number, filename in reversed([k for k in known if k[0] < newest.date]):
                older = compare(rule, filename, date, number)
                if older.changes:
                    break
                if number != rule.number:
                    lineage = older
                    break
    return Examination(rule, newest, lineage, _numbering(rule), f"{rule.effective}_cr_{rule.number}.txt")


def _numbering(rule: Rule) -> str:
    """The renumbering list (rulesets/history.py) on the file's day, and whether the file agrees."""
    listed = numbering_on(rule.effective)
    if listed.number == rule.number:
        return f"{listed.number} from {listed.since} in the renumbering list; this file agrees."
    if not listed.certain and rule.number in listed.between:
        return (
            f"{listed.describe()}; this file dates {rule.number} on {rule.effective}: add "
            f"RuleNumber(\"{rule.effective}\", \"{rule.number}\", \"<what moved it>\") to RULE_NUMBERS in rulesets/history.py."
        )
    return (
        f"the renumbering list has {listed.number or 'no number'} on {rule.effective}"
        f"{f' (since {listed.since})' if listed.since else ''}, this file {rule.number}: add "
        f"RuleNumber(\"{rule.effective}\", \"{rule.number}\", \"<what moved it>\") to RULE_NUMBERS in rulesets/history.py "
        "(or the date of the first release so numbered, if an earlier one is known)."
    )


def source_file(exam: Examination) -> str:
    """The rule as a source file in the format of ``rulesets/texts/``: provenance lines, then the
    rule verbatim."""
    r = exam.rule
    against = f" Against {exam.newest.filename}: {exam.newest.verdict}." if exam.newest else ""
    header = [
        f"# Comprehensive Rules effective {r.effective}: rule {r.number} \u201c{TITLE}\u201d.{against} "
        "Extracted by `loopcompare sources`: review it before adding it to rulesets/texts/.",
        f"# Source: {r.file}, sha256 {r.sha256} (header line: \u201c{r.effective_line}\u201d; say here where the file "
        f"was obtained). Rule {r.number} \u201c{TITLE}\u201d, verbatim (CRLF stripped).",
    ]
    return "\n".join(header) + "\n" + r.text


@dataclass(frozen=True)
class Reading:
    """``loopcompare sources``: the files read, what stopped any of them, and what ``--write`` would write."""

    exams: tuple[Examination, ...]
    errors: tuple[str, ...]
    """Each problem, naming the file as given (nothing is written if there is one)."""
    writes: dict[Path, str]
    """Each source file to write, by target: one already there with the same text is left be."""


def read_files(files: Sequence[str], folder: str | None = None) -> Reading:
    """Read and examine each CR text file; with ``folder`` (``--write``), plan each rule's source
    file there, refusing one that is already there with other contents."""
    exams: list[Examination] = []
    errors: list[str] = []
    for name in files:
        try:
            with open(name, "rb") as handle:
                data = handle.read(MAX_BYTES + 1)
            exams.append(examine(data, Path(name).name))
        except CrFileError as exc:
            # Reports name the file alone; a message names the path as given (/dev/zero, not zero).
            text, base = str(exc), Path(name).name
            errors.append(name + text[len(base):] if text.startswith(base + ":") else text)
        except OSError as exc:
            errors.append(f"{name}: can't read: {exc.strerror or exc}")
    writes: dict[Path, str] = {}
    if folder and not Path(folder).is_dir():
        errors.append(f"{folder}: no such folder (--write)")
    elif folder and not errors:
        for exam in exams:
            target, text = Path(folder) / exam.written_name, source_file(exam)
            if writes.get(target, text) != text or (target.is_file() and target.read_text(encoding="utf-8", errors="replace") != text):
                errors.append(f"{target}: already exists with other contents; not overwritten (move it away to write it anew)")
            writes[target] = text
    return Reading(tuple(exams), tuple(errors), writes)
