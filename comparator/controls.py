"""Control characters in untrusted text: shown, never obeyed.

A scenario file, a file name or a third-party ruleset may carry characters that a terminal or a
browser *obeys* instead of showing: C0 and C1 control characters (``ESC [2J`` clears a screen,
``ESC ]0;... BEL`` sets a window's title, ``ESC ]8;;`` makes a hyperlink, ``CSI`` is U+009B on its
own), and the bidirectional formatting characters (U+202E makes a title read backwards).  HTML
forbids control characters and noncharacters outright.

The policy (docs/CLI.md, "Control characters"): such text is loaded as it is and neutralised at one
boundary, where it leaves the program.  Every markdown and HTML document and every message shows
each of these characters as a visible code (:func:`visible`: ``\\x1b``, ``U+202E``); every JSON
document keeps the data exact but writes them as ``\\u`` escapes (:func:`json_escaped`).  Line
feeds and tabs are ordinary text and stay.  Rejecting them in the loader instead would refuse
real right-to-left names (U+200F and U+061C mark direction in Hebrew and Arabic text) and still
leave file names and plugin texts, which never pass the loader, to be dealt with here.
"""

from __future__ import annotations

import re
from typing import Any, cast

#: Bidirectional formatting characters: the marks (ALM, LRM, RLM), the embeddings and overrides
#: (LRE, RLE, PDF, LRO, RLO) and the isolates (LRI, RLI, FSI, PDI).
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


class _CompiledWhenUsed:
    """A module-level pattern compiled when first used, which then puts the compiled pattern in
    its own place among this module's globals, so that every later use is a plain pattern's.

    Start-up (issue 27): compiling the four patterns below costs about half a millisecond,
    which ``loopcompare --help`` and every Tab of a shell completion would pay for nothing;
    looking a pattern up on each call instead would cost :func:`visible` a few per cent."""

    def __init__(self, name: str, characters: str) -> None:
        self.name = name
        self.characters = characters

    def __getattr__(self, attribute: str) -> Any:  # the first use: sub, search...
        compiled = re.compile(f"[{self.characters}]")
        globals()[self.name] = compiled
        return getattr(compiled, attribute)


def _pattern(name: str, characters: str) -> re.Pattern[str]:
    """The pattern matching one of ``characters``, as the global ``name``, compiled when first used."""
    return cast("re.Pattern[str]", _CompiledWhenUsed(name, characters))


# C0 controls but line feed and tab, DEL, C1 controls, the bidi controls, and the noncharacters
# (U+FDD0..U+FDEF and the last two code points of every plane), which HTML forbids.
_NONCHARACTERS = "\ufdd0-\ufdef" + "".join(f"{chr(plane << 16 | 0xFFFE)}{chr(plane << 16 | 0xFFFF)}" for plane in range(17))
_UNSAFE = _pattern("_UNSAFE", f"\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}{_NONCHARACTERS}")
# The same set for text with no character beyond the BMP (almost every report): a class of one
# plane is matched from a bitmap, where the astral noncharacters above make the engine test every
# character against each of 34 of them (ten times slower over a 3 MB page).
_UNSAFE_BMP = _pattern("_UNSAFE_BMP", f"\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}\ufdd0-\ufdef\ufffe\uffff")
# The same set, less the C0 controls that json.dumps already escapes (and its one-plane form).
_UNSAFE_IN_JSON = _pattern("_UNSAFE_IN_JSON", f"\x7f-\x9f{BIDI_CONTROLS}{_NONCHARACTERS}")
_UNSAFE_IN_JSON_BMP = _pattern("_UNSAFE_IN_JSON_BMP", f"\x7f-\x9f{BIDI_CONTROLS}\ufdd0-\ufdef\ufffe\uffff")


def _code(match: re.Match[str]) -> str:
    point = ord(match.group())
    return f"\\x{point:02x}" if point < 0xA0 else f"U+{point:04X}"


def visible(text: str) -> str:
    """``text`` with every control, bidi control and noncharacter shown as a code.

    ESC becomes ``\\x1b``, CSI ``\\x9b``, RIGHT-TO-LEFT OVERRIDE ``U+202E``; line feeds, tabs and
    all other characters are kept.  The result holds none of these characters, so applying it
    twice changes nothing.
    """
    return (_UNSAFE_BMP if _within_bmp(text) else _UNSAFE).sub(_code, text)


def _within_bmp(text: str) -> bool:
    """True when no character of ``text`` is beyond U+FFFF (each then takes two bytes of UTF-16:
    an encoding at memory speed, where scanning for them with a pattern is not)."""
    return text.isascii() or len(text.encode("utf-16-le", "surrogatepass")) == 2 * len(text)


def _json_escape(match: re.Match[str]) -> str:
    point = ord(match.group())
    if point > 0xFFFF:  # JSON spells a code point beyond the BMP as a surrogate pair
        point -= 0x10000
        return f"\\u{0xD800 | point >> 10:04x}\\u{0xDC00 | point & 0x3FF:04x}"
    return f"\\u{point:04x}"


def json_escaped(document: str) -> str:
    """A JSON document (from ``json.dumps``) with the characters :func:`visible` shows written as
    ``\\u`` escapes: the same data, but no control reaches a terminal that prints the file.

    ``json.dumps`` escapes C0 controls but not DEL, C1 or bidi controls; these can only occur
    inside JSON strings (the rest of a JSON document is ASCII), where an escape means the same.
    """
    return (_UNSAFE_IN_JSON_BMP if _within_bmp(document) else _UNSAFE_IN_JSON).sub(_json_escape, document)


def is_clean(text: str) -> bool:
    """True when ``text`` holds no character that :func:`visible` would replace."""
    return _UNSAFE.search(text) is None
