"""Citation records for every rules text the product ships, and their renderings.

A record says what a historian needs to cite a text and to check the copy used: the document's
title, its effective date, its publisher, the rule or section number in force that day, the
official address where one is known, and the archived copy the shipped text was taken from
(repository, path, commit) with its address.  The facts are those of the text files' provenance
headers (``rulesets/texts/*.txt``); the commits are those of the archive repositories at which
the files were read.  No record names a file of this project: a citation points outside it.

Renderings: plain text, markdown and HTML with links, BibTeX, and CSL-JSON (what Zotero and
pandoc read).  :func:`stamp` is the deterministic line every report carries: the tool's version,
the texts' versions and the command that reproduces the report.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from importlib import resources
from typing import Iterable, Sequence
from urllib.parse import quote

PUBLISHER = "Wizards of the Coast"
CR = "Magic: The Gathering Comprehensive Rules"
MTR = "Magic: The Gathering Tournament Rules"


@dataclass(frozen=True)
class Archive:
    """The archived copy a shipped text was taken from: a file at a commit of a public repository,
    or a web archive (``repository`` empty, ``url`` its address)."""

    repository: str = ""
    path: str = ""
    commit: str = ""
    url: str = ""

    @property
    def address(self) -> str:
        """The copy's web address (a GitHub file at its commit)."""
        if not self.repository:
            return self.url
        kind = "tree" if self.path.endswith("/") else "blob"
        return f"https://github.com/{self.repository}/{kind}/{self.commit}/{quote(self.path.rstrip('/'))}"

    def words(self) -> str:
        """"GitHub owner/repo, path, commit 1234567" (or the web archive's address)."""
        if not self.repository:
            return self.url
        return f"GitHub {self.repository}, {self.path}, commit {self.commit[:7]}"


@dataclass(frozen=True)
class Citation:
    """One shipped rules text, as a historian cites it."""

    filename: str
    title: str
    effective: str
    rule: str
    archive: Archive
    official_url: str = ""
    publisher: str = PUBLISHER
    #: What else the header says the copy covers ("same text 2009-02-01 and 2009-05-01").
    note: str = ""

    @property
    def id(self) -> str:
        """A stable key: BibTeX key and CSL id ("cr-2024-06-07-729")."""
        kind = "mtr" if self.title == MTR else "cr" if self.title == CR else "summary"
        number = re.sub(r"[^0-9a-z.]+", "-", self.rule.lower().split("\u201c")[0]).strip("-")
        number = re.sub(r"^(rule|section|rules)-", "", number)
        return f"{kind}-{self.effective}-{number}".replace(".", "-")

    def text(self) -> str:
        """The citation in one line of plain text, addresses included."""
        parts = [f"{self.publisher}. {self.title}, effective {self.effective}, {self.rule}."]
        if self.official_url:
            parts.append(f"Official copy: {self.official_url}.")
        parts.append(f"Archived copy: {self.archive.words()} ({self.archive.address}).")
        if self.note:
            parts.append(self.note.rstrip(".") + ".")
        return " ".join(parts)

    def markdown(self) -> str:
        """The citation in markdown: its words escaped, its addresses bare (GitHub links them;
        a markdown report makes no link of its own outside the gallery)."""
        return md_escape(self.text())

    def html(self) -> str:
        """The citation with links, as an HTML fragment (every word escaped)."""
        parts = [f'<cite>{escape(self.title)}</cite>, effective <time datetime="{self.effective}">{self.effective}</time>, {escape(self.rule)} ({escape(self.publisher)}).']
        if self.official_url:
            parts.append(f'<a href="{escape(self.official_url)}">Official copy</a>.')
        parts.append(f'Archived copy: <a href="{escape(self.archive.address)}">{escape(self.archive.words())}</a>.')
        if self.note:
            parts.append(escape(self.note.rstrip(".") + "."))
        return " ".join(parts)

    def csl(self) -> dict[str, object]:
        """The citation as a CSL-JSON item."""
        year, month, day = (int(p) for p in self.effective.split("-"))
        item: dict[str, object] = {
            "id": self.id,
            "type": "document",
            "title": f"{self.title}, {self.rule}",
            "container-title": self.title,
            "publisher": self.publisher,
            "author": [{"literal": self.publisher}],
            "issued": {"date-parts": [[year, month, day]]},
            "section": self.rule,
            "URL": self.official_url or self.archive.address,
            "archive": self.archive.repository or self.archive.url,
            "archive_location": self.archive.address,
            "note": self.text(),
        }
        return item

    def bibtex(self) -> str:
        """The citation as a BibTeX ``@misc`` entry (biblatex reads ``date`` and ``url``)."""
        year, month, _ = self.effective.split("-")
        fields = [
            ("title", f"{self.title}, {self.rule}"),
            ("author", "{" + self.publisher + "}"),
            ("organization", self.publisher),
            ("year", year),
            ("month", str(int(month))),
            ("date", self.effective),
            ("url", self.official_url or self.archive.address),
            ("note", f"Archived copy: {self.archive.words()}, \\url{{{self.archive.address}}}" + (f". {self.note}" if self.note else "")),
        ]
        return bibtex_entry("misc", self.id, fields)


def md_escape(text: str) -> str:
    """Markdown's active characters escaped (as the reports escape scenario text)."""
    flat = " ".join(str(text).split())  # on one line: a newline in a file name can't start markup
    return re.sub(r"([\\`*_\[\]<>|&~])", r"\\\1", flat)


def bibtex_entry(kind: str, key: str, fields: Sequence[tuple[str, str]]) -> str:
    """One BibTeX entry; values are braced, with LaTeX's special characters escaped except in
    ``url`` (read verbatim by the url package) and inside ``\\url{}``."""
    lines = [f"@{kind}{{{key},"]
    for name, value in fields:
        if name != "url":
            value = _latex(value)
        lines.append(f"  {name} = {{{value}}},")
    lines.append("}")
    return "\n".join(lines)


_URL = re.compile(r"\\url\{[^{}]*\}")
_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\textbraceleft{}", "}": r"\textbraceright{}", "~": r"\~{}", "^": r"\^{}", "\\": r"\textbackslash{}"}


def _latex(text: str) -> str:
    """LaTeX's special characters escaped, leaving ``\\url{...}`` and a braced author alone."""
    if text.startswith("{") and text.endswith("}") and "{" not in text[1:-1] and "}" not in text[1:-1]:
        return "{" + _latex(text[1:-1]) + "}"
    out, at = [], 0
    for match in _URL.finditer(text):
        out.append("".join(_SPECIAL.get(ch, ch) for ch in text[at:match.start()]))
        out.append(match.group(0).replace("%", r"\%").replace("#", r"\#"))
        at = match.end()
    out.append("".join(_SPECIAL.get(ch, ch) for ch in text[at:]))
    return "".join(out)


def _pit(path: str, commit: str = "29697eec5fb196dc118e68d8cc2b8538ba8b9544") -> Archive:
    return Archive("pit142857/mtg-cr", path, commit)


def _raker(date: str, commit: str) -> Archive:
    return Archive("xremming/rulesraker", f"archive/txt/{date}.txt", commit)


_SHORTCUTS = "\u201cTaking Shortcuts\u201d"
_INFINITE = "\u201cHandling \u2018Infinite\u2019 Loops\u201d"

#: Every shipped rules text, by file name (the facts of its provenance header).
CITATIONS: dict[str, Citation] = {
    c.filename: c
    for c in (
        Citation(
            "1998-03-31_rulings-summary_G21.txt",
            "Official Magic: The Gathering Rules Summary (Fifth Edition)",
            "1998-03-31",
            "rule G.21 \u201cInfinity\u201d",
            _pit("Comprehensive Rules/CR-1999-04-21.txt", "063051b29919e39efa1d75030860248d030e5f11"),
            note="Rulings dated 1998-03-31 to 1998-11-03; the archive names the file as a CR of 1999-04-21",
        ),
        Citation("1999-04-23_cr_421.txt", CR, "1999-04-23", f"rule 421 {_INFINITE}", _pit("Comprehensive Rules/CR-1999-04-23.txt"), note="The first Comprehensive Rules"),
        Citation(
            "2003-07-01_cr_421.txt", CR, "2003-07-01", f"rule 421 {_INFINITE}",
            _raker("2003-07-01", "9dea1c3ea5248dfcff30b73bcdb89dc61f376599"),
            note="The same text in the releases of 2003-10-01 to 2004-10-01; the archive's {o0} is written {0}",
        ),
        Citation(
            "2005-08-01_cr_421.txt", CR, "2005-08-01", f"rule 421 {_INFINITE}", _pit("Comprehensive Rules/CR-2005-08-01.txt"),
            note="The same text 2005-10-01; to 2008-07-15 the same but for 421.4's \u201c(See rule 102.4b.)\u201d",
        ),
        Citation(
            "2008-10-01_cr_421.txt", CR, "2008-10-01", f"rule 421 {_INFINITE}", _pit("Comprehensive Rules/CR-2008-10-01.txt"),
            note="The same text 2009-02-01 and 2009-05-01, the last releases with rule 421",
        ),
        Citation(
            "2009-07-11_cr_713.txt", CR, "2009-07-11", f"rule 713 {_SHORTCUTS}", _pit("Comprehensive Rules/CR-2009-07-08.txt"),
            official_url="http://www.wizards.com/magic/comprules/MagicCompRules_20090708.txt",
            note="The Magic 2010 rewrite; the archive's file is dated 2009-07-08, the day it was published",
        ),
        Citation(
            "2009-09-04_cr_713.3.txt", CR, "2009-09-04", "rule 713.3", _pit("Comprehensive Rules/CR-2009-09-04.txt"),
            official_url="http://www.wizards.com/magic/comprules/MagicCompRules_20090904.txt",
            note="713.3 in its multiplayer wording; the rest of 713 unchanged",
        ),
        Citation(
            "2018-07-13_cr_720.txt", CR, "2018-07-13", f"rule 720 {_SHORTCUTS}", _pit("Comprehensive Rules/CR-2018-07-13.txt"),
            official_url="https://media.wizards.com/2018/downloads/MagicCompRules%2020180713.txt",
            note="The first text with 720.1c",
        ),
        Citation(
            "2018-07-13_mtr_4.4.txt", MTR, "2018-07-13", "section 4.4 \u201cLoops\u201d",
            Archive(url="https://vensersjournal.com/archives"),
            note="Copied without annotations; the section was new in that release",
        ),
        Citation(
            "2024-06-07_cr_729.txt", CR, "2024-06-07", f"rule 729 {_SHORTCUTS}", _raker("2024-06-07", "8d5947c2a8d248d6480a6f7cc3b9478251c8a79d"),
            official_url="https://media.wizards.com/2024/downloads/MagicCompRules%2020240607.txt",
        ),
        Citation(
            "2026-01-16_cr_731.txt", CR, "2026-01-16", f"rule 731 {_SHORTCUTS}", _raker("2026-01-16", "bc7a70fb88511c2c61fe24bf2558f6cb68a607fb"),
            official_url="https://media.wizards.com/2026/downloads/MagicCompRules%2020260116.txt",
        ),
        Citation(
            "2026-02-27_mtr_4.4.txt", MTR, "2026-02-27", "section 4.4 \u201cLoops\u201d",
            Archive("EmoShuShu/mtr-zh", "snapshots/2026-02-27/a627fb8c8568/extracted/official.md", "19fd335b82d475c4b1466b0ec59a1082a61c9784"),
            official_url="https://media.wizards.com/ContentResources/WPN/MTG_MTR_2026_Feb27_EN.pdf",
            note="Text extracted from the official PDF (pages 24-25); the same text 2025-11-10",
        ),
        Citation(
            "2026-04-17_cr_732.txt", CR, "2026-04-17", f"rule 732 {_SHORTCUTS}",
            Archive("muz/mtgrulediff", "rules/MagicCompRules 20260417.txt", "723ddcb15a127c8267d01dd4de0fa9a516bb1442"),
            note="The official text file; the same text and number on 2026-06-19",
        ),
        Citation(
            "draw-rules_102.6_102.4b_104.4b_104.4f.txt", CR, "1999-04-23", "the draw rules 102.6, 102.4b, 104.4b and 104.4f",
            _pit("Comprehensive Rules/"),
            note="Each wording from the release that introduced it to the last that has it (1999-04-23 to 2026-01-16); "
            "later releases in GitHub xremming/rulesraker, archive/txt/",
        ),
    )
}


def citation(filename: str) -> Citation | None:
    """The citation record of a shipped text (None for a plugin's own text)."""
    return CITATIONS.get(filename)


# --- the stamp ------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def version() -> str:
    """The tool's version (``0+unknown`` from a bare source tree); read once per process (the
    gallery stamps 891 files, and reading the installed metadata is a directory scan)."""
    from importlib import metadata

    try:
        return metadata.version("loopcompare")
    except metadata.PackageNotFoundError:
        return "0+unknown"


@lru_cache(maxsize=None)
def text_version(filename: str, package: str = "loopcompare.rulesets") -> str:
    """A shipped text's version: the first 12 hex digits of the SHA-256 of its bytes."""
    data = resources.files(package).joinpath("texts", filename).read_bytes()
    return hashlib.sha256(data).hexdigest()[:12]


def texts_version(filenames: Iterable[str]) -> str:
    """The versions of several texts in one: "2024-06-07_cr_729 3f2a..; ..." sorted by name."""
    return "; ".join(f"{name.removesuffix('.txt')} {text_version(name)}" for name in sorted(set(filenames)))


def texts_digest(filenames: Iterable[str]) -> str:
    """One digest for a set of texts (the stamp's short form)."""
    joined = "\n".join(f"{name} {text_version(name)}" for name in sorted(set(filenames)))
    return hashlib.sha256(joined.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Stamp:
    """What produced a report: the tool's version, the texts' versions, and the command that
    reproduces it.  No clock time: the same inputs give the same stamp."""

    tool: str
    texts: tuple[tuple[str, str], ...]
    command: str

    def line(self) -> str:
        """The stamp in one line of plain text."""
        return f"Made by loopcompare {self.tool} with the rules texts {self.digest()}; reproduce with: {self.command}"

    def digest(self) -> str:
        joined = "\n".join(f"{name} {v}" for name, v in self.texts)
        return hashlib.sha256(joined.encode()).hexdigest()[:12]

    def markdown(self) -> str:
        return md_escape(f"Made by loopcompare {self.tool} with the rules texts {self.digest()} ({len(self.texts)} files); reproduce with: {self.command}")

    def html(self) -> str:
        listed = ", ".join(f"{escape(n)} {v}" for n, v in self.texts)
        return (
            f'<p class="stamp">Made by loopcompare {escape(self.tool)} with the rules texts '
            f'<span title="{listed}">{self.digest()}</span> ({len(self.texts)} files); reproduce with: '
            f"<code>{escape(self.command)}</code></p>"
        )

    def json(self) -> dict[str, object]:
        return {"tool": "loopcompare", "version": self.tool, "texts": dict(self.texts), "texts_digest": self.digest(), "command": self.command}


@lru_cache(maxsize=1)
def all_texts() -> tuple[str, ...]:
    """Every shipped text file's name (the package's files, listed once per process)."""
    return tuple(sorted(e.name for e in resources.files("loopcompare.rulesets").joinpath("texts").iterdir() if e.name.endswith(".txt")))


def stamp(command: str, filenames: Iterable[str] | None = None) -> Stamp:
    """The stamp of a report made by ``command`` from ``filenames`` (default: every shipped text)."""
    names = sorted(set(filenames)) if filenames is not None else list(all_texts())
    shipped = set(all_texts())
    return Stamp(version(), tuple(sorted((label(n), text_version(n)) for n in names if n in shipped)), command)


def label(filename: str) -> str:
    """How a stamp names a shipped text: its citation's id (never a file of the project)."""
    found = CITATIONS.get(filename)
    return found.id if found else filename.removesuffix(".txt")


def csl_json(items: Sequence[dict[str, object]]) -> str:
    """CSL-JSON: a list of items, with a stable order of keys."""
    return json.dumps(list(items), indent=2, ensure_ascii=False) + "\n"


# --- a report itself ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReportCitation:
    """A report made by loopcompare, cited as what made it: its title, the tool's version, the
    texts' versions and the command that reproduces it (no date: the same command gives the
    same report, whenever it is run)."""

    title: str
    made: Stamp
    key: str

    @property
    def id(self) -> str:
        return f"loopcompare-{self.key}-{self.made.digest()}"

    def text(self) -> str:
        return f"loopcompare {self.made.tool}. {self.title}. {self.made.line()}."

    def csl(self) -> dict[str, object]:
        return {
            "id": self.id,
            "type": "report",
            "title": self.title,
            "author": [{"literal": "loopcompare"}],
            "genre": "Report made by loopcompare",
            "version": self.made.tool,
            "note": self.made.line(),
        }

    def bibtex(self) -> str:
        fields = [
            ("title", self.title),
            ("author", "{loopcompare}"),
            ("version", self.made.tool),
            ("howpublished", f"Report made by loopcompare {self.made.tool}"),
            ("note", self.made.line()),
        ]
        return bibtex_entry("misc", self.id, fields)


Citable = Citation | ReportCitation


def render(items: Sequence[Citable], fmt: str) -> str:
    """Citations as ``text`` (one a paragraph), ``bibtex`` or ``csl-json``."""
    if fmt == "bibtex":
        return "\n\n".join(i.bibtex() for i in items) + "\n"
    if fmt == "csl-json":
        return csl_json([i.csl() for i in items])
    return "\n\n".join(i.text() for i in items) + "\n"


FORMATS = ("text", "bibtex", "csl-json")
