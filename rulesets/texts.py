"""The rule texts, as data.

Each file in ``rulesets/texts/`` is one version of one rules document, copied from the project's
sources with its provenance header (``#`` lines).  Rulesets cite rules by id; reports quote the
text from here, so a ruleset never paraphrases a rule away.

Three shapes of file are read:

* Comprehensive Rules and the Rules Summary: each rule starts a line with its number
  (``421.3.``, ``729.2a``, ``G.21.3 -``); wrapped lines and examples belong to the rule above.
* The Tournament Rules section 4.4: unnumbered paragraphs, given the ids ``MTR 4.4 ¶1`` .. ``¶n``.
* The draw rules: ``## 102.6, CR 2001-07-23 .. 2005-02-01`` sections, one per wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

_RULE_START = re.compile(
    r"^(?P<id>(?:\d{3}\.\d+[a-z]?)|(?:G\.21\.(?:\d+|Ruling\.\d+))|(?:[A-Z]{1,3}\.\d+(?:\.\d+)*[a-z]?))(?:\.|\s+-)?\s+(?P<text>.*)$"
)
_NUMBERED = re.compile(r"^\d{3}\.")
_DRAW_HEADING = re.compile(r"^## (?P<id>\d{3}\.\d+[a-z]?), CR (?P<start>\d{4}-\d{2}-\d{2})")


@dataclass(frozen=True)
class Document:
    """One version of one rules document: its provenance and its rules by id."""

    filename: str
    provenance: tuple[str, ...]
    rules: tuple[tuple[str, str], ...]

    def text(self, rule_id: str) -> str:
        """The text of one rule; KeyError names the document when the id is unknown."""
        for key, text in self.rules:
            if key == rule_id:
                return text
        raise KeyError(f"{self.filename} has no rule {rule_id!r}")

    def ids(self) -> tuple[str, ...]:
        """Every rule id, in document order."""
        return tuple(key for key, _ in self.rules)

    def renumbered(self, number: str) -> "Document":
        """The same text under another rule number: ``729.3`` becomes ``730.3`` (for a release whose
        renumbered text is not archived; only the ids change, never the words)."""
        rules = tuple((_NUMBERED.sub(number + ".", key), text) for key, text in self.rules)
        return Document(self.filename, self.provenance, rules)

    def source_line(self) -> str:
        """Where the text was obtained, in short: its ``Source:`` header line without the remarks
        in parentheses that follow it (or the first header line, if it has none)."""
        for line in self.provenance:
            if line.startswith("Source:"):
                return _short(line[len("Source:"):].strip())
        return _short(self.provenance[0]) if self.provenance else ""

    @property
    def body(self) -> str:
        """The whole text without its provenance header, one rule a paragraph."""
        return "\n\n".join(f"{key} {text}" for key, text in self.rules)


def _short(text: str) -> str:
    """A provenance line up to its first parenthesised remark: "GitHub owner/repo, path"."""
    return text.split(" (", 1)[0].rstrip(" .;,")


def _raw(filename: str, package: str = "loopcompare.rulesets") -> str:
    """A text file from a package's ``texts/`` folder (a plugin ships its own)."""
    return resources.files(package).joinpath("texts", filename).read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def document(filename: str, mtr_section: str | None = None, package: str = "loopcompare.rulesets") -> Document:
    """Load a rules document from ``package``'s ``texts/`` folder; ``mtr_section`` (e.g.
    ``"MTR 4.4"``) numbers plain paragraphs."""
    return parse(_raw(filename, package), filename, mtr_section)


def parse(text: str, filename: str, mtr_section: str | None = None) -> Document:
    """A rules document from its text (``#`` provenance lines, then the rules; see the module)."""
    provenance: list[str] = []
    rules: list[list[str]] = []
    paragraph = 0
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            provenance.append(stripped.lstrip("# ").strip())
            continue
        if not stripped or set(stripped) == {"-"}:
            continue
        if mtr_section is not None:
            paragraph += 1
            rules.append([f"{mtr_section} ¶{paragraph}", stripped])
            continue
        match = _RULE_START.match(stripped)
        if stripped.startswith("Note - ") and rules and rules[-1][0].startswith("G.21"):
            # The Rules Summary's closing note on randomness is a ruling of its own.
            rules.append(["G.21.Note", stripped[len("Note - "):]])
        elif match:
            rules.append([match["id"], match["text"]])
        elif rules and stripped.lower().startswith("example"):
            rules[-1][1] += "\n" + stripped
        elif rules:
            rules[-1][1] += " " + stripped
        # A line before the first rule is the rule's title ("421. Handling ..."): not a rule.
    return Document(filename, tuple(provenance), tuple((k, v) for k, v in rules))


#: The file of the draw rules' wordings over time.
DRAW_RULES = "draw-rules_102.6_102.4b_104.4b_104.4f.txt"


@lru_cache(maxsize=None)
def draw_rule(rule_id: str, as_of: str) -> str:
    """The wording of a draw rule (102.6, 102.4b, 104.4b, 104.4f) in force on ``as_of``."""
    best: tuple[str, str] | None = None
    current: tuple[str, str] | None = None
    lines: list[str] = []
    sections: list[tuple[str, str, str]] = []
    for line in _raw(DRAW_RULES).splitlines():
        heading = _DRAW_HEADING.match(line)
        if heading:
            if current:
                sections.append((*current, " ".join(lines)))
            current, lines = (heading["id"], heading["start"]), []
        elif line.strip() and not line.startswith("#"):
            lines.append(line.strip())  # (before the first heading: dropped by it)
    if current:
        sections.append((*current, " ".join(lines)))
    for key, start, text in sections:
        if key == rule_id and start <= as_of and (best is None or start > best[0]):
            best = (start, text)
    if best is None:
        raise KeyError(f"no wording of rule {rule_id} in force on {as_of}")
    return best[1]
