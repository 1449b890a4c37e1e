"""What changed between two versions of a rules text: a word-level difference."""

from __future__ import annotations

import difflib
import re


def words(text: str) -> list[str]:
    """Words and paragraph breaks, in order."""
    return re.findall(r"\n\n|[^\s]+", text)


def word_diff(old: str, new: str) -> str:
    """The difference as text, wdiff-style: ``[-removed-]`` and ``{+added+}``."""
    a, b = words(old), words(new)
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.extend(a[i1:i2])
            continue
        if op in ("delete", "replace"):
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if op in ("insert", "replace"):
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    text = " ".join(out)
    return re.sub(r" ?\n\n ?", "\n\n", text)
