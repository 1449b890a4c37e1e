"""The loop diagram: one iteration drawn as a cycle, with each ruleset's cut point marked on it.

:func:`build` turns a comparison into a :class:`Diagram`, plain data like the rest of the report
view-model; :func:`svg` lays it out and writes inline SVG for the HTML reports, :func:`mermaid`
writes the same picture as a Mermaid flowchart for markdown (GitHub draws it).

The picture is a column of step boxes joined by a flow line, with a line from the last step back
to the first (the next iteration).  Between two boxes sit the cut points that fall there: a
ruleset that cuts the loop after ``n`` iterations and ``k`` steps is marked in the gap before
step ``k + 1`` (the gap above step 1 for ``k = 0``), with a shape of its own and a label ("CR 729
(2024): 1 it. + 0 steps, Alice deviates"), so colour is never the only cue.  Exits off the cycle
("unless" payments) hang below their step; actions outside the loop (breakers) and the loop's own
end sit below the cycle; rulesets with no cut point are listed last.  A column reads at any width
and grows with the number of steps, where a circle would crowd.

Everything is deterministic: coordinates are integers, text is wrapped by a fixed estimate of
glyph widths (no font metrics), and every user string is XML-escaped into element text, never
into an attribute; control and bidirectional characters are shown as codes, as everywhere in a
report (:mod:`.controls`), so a name can neither break the markup nor reorder the labels around it.
Colours come from CSS classes and ``currentColor``, so dark mode and print follow the page.

Steps are read through their fields with a default for each (``getattr``), so format 1 and
format 2 steps draw alike: format 2's ``mul``, ``requires``, ``times``, ``target``, ``sustains``,
``turn``, ``ends_loop`` and ``alternative`` and the scenario's ``[[end]]`` entries and ``within``
add words to the boxes and exits, and a player who leaves the game mid-loop (an outcome's
``eliminated``) is marked with an "x" where they leave.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Sequence

from .controls import visible
from .wording import show, step_effect, step_exits, step_kind

if TYPE_CHECKING:
    from loopcompare.rulesets.scenario import Scenario

    from .compare import Comparison

# --- the model ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiagramStep:
    """One step on the cycle: who acts, whether they may decline, what it does, and its exit."""

    number: int
    by: str
    does: str
    optional: bool
    kind: str
    """"optional" or "mandatory", with any further flags ("optional, choice, hidden")."""
    effect: str
    """The step's effect on the state in words ("flying = true; tokens + 1"), or ""."""
    exit: str
    """Ways out at this step ("unless Bob pays {1}", an event that may end the loop), or ""."""
    inner: tuple[str, ...] = ()
    """Format 3 (FORMAT item 29): the inner loop this step runs, drawn inside its box: a heading
    ("inner loop 'mana' until mana is at least 4") and one line per inner step; () for none."""


@dataclass(frozen=True)
class Cut:
    """Where one or more rulesets cut the loop: after ``iterations`` iterations and ``steps`` steps.

    Rulesets that cut at the same point with the same result and the same deviating player share
    one mark.  ``shape`` numbers the mark's symbol (see :data:`SHAPES`).
    """

    rulesets: tuple[str, ...]
    result: str
    iterations: str
    steps: int
    deviates: str
    shape: int
    leaves: str = ""
    """For a format 2 elimination instead of a cut: the player who leaves the game here."""
    after: int = 0
    """Format 3 (FORMAT item 24): loop steps that still resolve after the cut (``after_cut``)."""
    inner: str = ""
    """Format 3 (FORMAT item 29): where the cut falls inside the step's inner loop, in words, or ""."""

    @property
    def names(self) -> str:
        """The rulesets that cut here, in column order."""
        return ", ".join(self.rulesets)

    @property
    def where(self) -> str:
        """The cut in words: "1 it. + 0 steps, Alice deviates" ("Bob leaves the game: 3 it. + 0 steps")."""
        where = f"{self.iterations} it. + {self.steps} step{'' if self.steps == 1 else 's'}"
        if self.inner:
            where += f", inside step {self.steps + 1}'s inner loop after {self.inner}"
        if self.leaves:
            return f"{self.leaves} leaves the game: {where}"
        text = where if self.result == "shortcut" else f"{self.result.replace('_', ' ')}, {where}"
        text += f", {self.deviates} deviates" if self.deviates else ""
        if self.after:
            text += f", then {self.after} step{'' if self.after == 1 else 's'} still resolve{'s' if self.after == 1 else ''}"
        return text

    @property
    def label(self) -> str:
        """The mark's label: "CR 729 (2024): 1 it. + 0 steps, Alice deviates"."""
        return f"{self.names}: {self.where}"


@dataclass(frozen=True)
class Diagram:
    """A loop as the diagram shows it: the cycle, its exits, and where each ruleset cuts it."""

    title: str
    steps: tuple[DiagramStep, ...]
    breakers: tuple[tuple[str, str], ...]
    """Actions outside the loop that could end it: (player, what they do)."""
    ends: str
    """How the loop ends by itself, in words, or ""."""
    cuts: tuple[Cut, ...]
    uncut: tuple[tuple[str, str], ...]
    """Rulesets that give no cut point: (ruleset name, result)."""


def _ends(sc: Scenario) -> str:
    """How the loop ends by itself, in words: ``[loop].ends_when`` or each ``[[end]]``."""
    flags = sc.loop
    out = []
    ends_when = getattr(flags, "ends_when", None)
    if ends_when is not None:
        sign = "\u2264" if ends_when.at_most else "\u2265"
        text = f"ends by itself when {ends_when.value} {sign} {show(ends_when.bound)}"
        out.append(text + (f": {flags.ends_with}" if flags.ends_with else ""))
    for end in getattr(sc, "ends", ()):
        sign = "\u2264" if end.at_most else "\u2265"
        text = f"ends by itself when {end.value} {sign} {show(end.bound)}"
        out.append(text + (f": {end.effect}" if end.effect else "") + (f" ({end.loses} loses)" if getattr(end, "loses", None) else ""))
    if getattr(flags, "within", "priority") == "resolution":
        out.append("repeats within one resolution: nobody receives priority inside it")
    return "; ".join(out)


def build(comparison: Comparison, part: int | None = None) -> Diagram:
    """The diagram of a comparison: its scenario's cycle and every ruleset's cut point.

    In a file of loops one after another (``[[then]]``, FORMAT item 30) each part has a diagram
    of its own (``part``, from 0): its steps and the cuts of the rulesets that reached it; the
    file's own diagram is part 0's (the top fields are the last part's, not the first's)."""
    sc = comparison.scenario.scenario
    if sc.parts and part is None:
        part = 0
    if part:
        sc = sc.parts[part - 1]
    steps = []
    for i, step in enumerate(sc.steps, 1):
        run = getattr(step, "run", None)
        inner: tuple[str, ...] = ()
        if run is not None:
            inner = (f"\u21bb {run.describe()}",) + tuple(
                f"{i}.{k}. {t.by} \u00b7 {step_kind(t)}: {t.does}" + (f" \u2192 {step_effect(t)}" if step_effect(t) else "")
                for k, t in enumerate(run.loop.steps, 1)
            )
        steps.append(DiagramStep(i, step.by, step.does, bool(getattr(step, "optional", False)), step_kind(step), step_effect(step), step_exits(step), inner))
    ends = _ends(sc)
    groups: dict[tuple[str, str, int, str, str, int, str], list[str]] = {}
    uncut: list[tuple[str, str]] = []
    for ruleset in comparison.rulesets:
        out = comparison.outcomes[ruleset.key]
        if part is not None:
            reached = getattr(out, "parts", ())
            if len(reached) <= part:
                uncut.append((ruleset.name, "not reached"))
                continue
            out = reached[part]
        # Format 2: players who leave the game mid-loop are marked where they leave (an "x").
        for gone in getattr(out, "eliminated", ()):
            if gone.iterations is not None:
                key = ("", show(gone.iterations), gone.steps % len(steps), "", gone.player, 0, _inner_words(getattr(gone, "inner", None)))
                groups.setdefault(key, []).append(ruleset.name)
        if out.iterations is None:
            uncut.append((ruleset.name, out.result.value.replace("_", " ")))
            continue
        inner_point = getattr(out, "inner", None)
        at = (inner_point["iterations"], inner_point["steps"]) if inner_point else None
        key = (out.result.value, show(out.iterations), out.steps % len(steps), out.deviates or "", "", getattr(out, "after_cut", 0), _inner_words(at))
        groups.setdefault(key, []).append(ruleset.name)
    cuts: list[Cut] = []
    marks = 0
    for (result, iterations, k, deviates, leaves, after, inside), names in groups.items():
        cuts.append(Cut(tuple(names), result, iterations, k, deviates, -1 if leaves else marks, leaves, after, inside))
        marks += not leaves
    return Diagram(sc.title, tuple(steps), tuple((b.by, b.does) for b in sc.breakers), ends, tuple(cuts), tuple(uncut))


def _inner_words(point: "tuple[int, int] | None") -> str:
    """A point inside a run in words ("1 it. + 0 steps"), "" for none."""
    if point is None:
        return ""
    m, t = point
    return f"{show(m)} it. + {t} step{'' if t == 1 else 's'}"


# --- text: neutralised, measured, wrapped ----------------------------------------------------------

# Bidirectional formatting characters: in a label they could reorder what the reader sees.
_BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _allowed_in_xml(ch: str) -> bool:
    o = ord(ch)
    return o in (0x9, 0xA, 0xD) or 0x20 <= o <= 0xD7FF or 0xE000 <= o <= 0xFFFD or 0x10000 <= o <= 0x10FFFF


def neutral(text: str) -> str:
    """Text that can't reorder or break a drawing: on one line, controls and bidi characters shown
    as codes as everywhere else in a report (:func:`comparator.controls.visible`: ``U+202E``,
    ``\\x01``), and anything XML still forbids as U+FFFD."""
    out = []
    for ch in visible(" ".join(str(text).split())):
        if ch in _BIDI or not _allowed_in_xml(ch) or unicodedata.category(ch) == "Cc":
            out.append("\ufffd")
        else:
            out.append(ch)
    return "".join(out)


def xml(text: str) -> str:
    """Neutral text escaped for XML element content (and, as quotes are escaped too, attributes)."""
    return neutral(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")


_NARROW = set("fijlrtI.,;:'!|()[] ")
_WIDE = set("mwMW@%&")


def width(text: str, size: int = 12, bold: bool = False) -> int:
    """A generous estimate of the text's width in pixels at ``size`` px in a sans-serif face.

    No font metrics are read (the bytes must not depend on the machine): each character counts
    by class, in twentieths of the font size, as wide as the widest common faces draw it (bold a tenth wider)
    (DejaVu Sans: "o" 0.61 em, "O" 0.79 em, "W" 0.99 em, though most letters are narrower), rounded up.
    """
    twentieths = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        if unicodedata.east_asian_width(ch) in ("W", "F"):
            twentieths += 21
        elif ch in _NARROW:
            twentieths += 7
        elif ch in _WIDE:
            twentieths += 19
        elif not ch.isascii():
            twentieths += 18
        elif ch.isupper():
            twentieths += 15
        else:
            twentieths += 12
    if bold:
        twentieths = twentieths * 11 // 10 + 1
    return -(-twentieths * size // 20)


def wrap(text: str, room: int, lines: int, size: int = 12, bold: bool = False) -> list[str]:
    """``text`` in at most ``lines`` lines each at most ``room`` px wide (by :func:`width`); a word
    too long for a line is cut, and text that doesn't fit ends in an ellipsis.

    Work stops once a line more than fits has been found, so a 10,000-character text costs what
    a short one does.
    """
    out: list[str] = []
    line = ""
    for word in neutral(text).split(" "):
        if not word:
            continue
        candidate = f"{line} {word}" if line else word
        if width(candidate, size, bold) <= room:
            line = candidate
            continue
        if line:
            out.append(line)
            line = ""
        # The word starts a line; a word wider than a line is cut where it stops fitting.
        while width(word, size, bold) > room and len(out) <= lines:
            cut, used = 0, 0
            while cut < len(word) - 1 and used + width(word[cut], size, bold) <= room:
                used += width(word[cut], size, bold)
                cut += 1
            out.append(word[: max(cut, 1)])
            word = word[max(cut, 1) :]
        line = word
        if len(out) > lines:
            break
    if line and len(out) <= lines:
        out.append(line)
    if len(out) > lines:
        kept = out[:lines]
        last = kept[-1]
        while last and width(last + "\u2026", size, bold) > room:
            last = last[:-1]
        kept[-1] = last.rstrip() + "\u2026"
        return kept
    return out or [""]


# --- SVG ---------------------------------------------------------------------------------------------

WIDTH = 400
RAIL_X = 14  # the line back to step 1
FLOW_X = 60  # the flow line, and the cut marks on it
BOX_X = 40
BOX_RIGHT = WIDTH - 6
PAD = 7
LINE = 15  # line height at 12 px
SMALL_LINE = 14  # at 11 px
MARK_TEXT_X = FLOW_X + 14
SHAPES = ("circle", "square", "triangle", "diamond", "triangle-down", "hexagon")
"""The symbols of the cut marks, in order; after six they repeat hollow."""


def _shape(index: int, x: int, y: int) -> str:
    """A cut mark's symbol centred on (x, y): filled for the first six, hollow after; an "x"
    (index -1) where a player leaves the game."""
    if index < 0:
        return f'<path class="lc-mark lc-leaves" fill="none" stroke="currentColor" stroke-width="2.5" d="M{x - 5},{y - 5} L{x + 5},{y + 5} M{x - 5},{y + 5} L{x + 5},{y - 5}"/>'
    kind = SHAPES[index % len(SHAPES)]
    fill = "currentColor" if index < len(SHAPES) else "none"
    common = f'class="lc-mark" fill="{fill}" stroke="currentColor" stroke-width="1.5"'
    if kind == "circle":
        return f'<circle {common} cx="{x}" cy="{y}" r="6"/>'
    if kind == "square":
        return f'<rect {common} x="{x - 5}" y="{y - 5}" width="10" height="10"/>'
    points = {
        "triangle": [(0, -7), (6, 5), (-6, 5)],
        "diamond": [(0, -7), (7, 0), (0, 7), (-7, 0)],
        "triangle-down": [(0, 7), (6, -5), (-6, -5)],
        "hexagon": [(-3, -6), (3, -6), (7, 0), (3, 6), (-3, 6), (-7, 0)],
    }[kind]
    return f'<polygon {common} points="{" ".join(f"{x + dx},{y + dy}" for dx, dy in points)}"/>'


def _arrow_down(x: int, y: int) -> str:
    """An arrowhead pointing down with its tip at (x, y)."""
    return f'<polygon class="lc-line" fill="currentColor" stroke="none" points="{x},{y} {x - 4},{y - 7} {x + 4},{y - 7}"/>'


def _arrow_right(x: int, y: int) -> str:
    return f'<polygon class="lc-line" fill="currentColor" stroke="none" points="{x},{y} {x - 7},{y - 4} {x - 7},{y + 4}"/>'


def _text(x: int, y: int, text: str, cls: str = "lc-text", *, size: int = 12, bold: bool = False) -> str:
    weight = ' font-weight="600"' if bold else ""
    return f'<text class="{cls}" x="{x}" y="{y}" font-size="{size}"{weight} fill="currentColor">{xml(text)}</text>'


def _cut_rows(cuts: Sequence[Cut], y: int) -> tuple[list[str], int]:
    """Cut marks on the flow line from ``y`` down, each with its wrapped label; the height used."""
    out: list[str] = []
    top = y
    for cut in cuts:
        names = wrap(cut.names + ":", BOX_RIGHT - MARK_TEXT_X, 3, bold=True)
        where = wrap(cut.where, BOX_RIGHT - MARK_TEXT_X, 2)
        lines = names + where
        out.append(_shape(cut.shape, FLOW_X, y + 8))
        out.append('<g class="lc-cut">')
        out += [_text(MARK_TEXT_X, y + 12 + i * LINE, line, bold=i < len(names)) for i, line in enumerate(lines)]
        out.append("</g>")
        y += len(lines) * LINE + 4
    return out, y - top


def svg(diagram: Diagram, id_prefix: str, *, legend: bool = True) -> str:
    """The diagram as inline SVG for an HTML page (no script, no external reference; the HTML
    parser puts it in the SVG namespace, so it carries no ``xmlns``), ``id_prefix`` making its
    ids unique on the page; a <title> and <desc> are its text alternative."""
    body: list[str] = []
    by_gap: dict[int, list[Cut]] = {}
    for cut in diagram.cuts:
        by_gap.setdefault(cut.steps, []).append(cut)

    y = 10
    body.append(f'<path class="lc-line" fill="none" stroke="currentColor" stroke-width="1.5" d="M{RAIL_X},{y} H{FLOW_X}"/>')
    loop_top = y
    for index, step in enumerate(diagram.steps):
        # The gap above this step: the flow line, and the cut marks that fall here.
        gap_top = y
        rows, used = _cut_rows(by_gap.get(index, ()), y + 6)
        y = max(y + 22, y + 6 + used + 12)
        body.append(f'<path class="lc-line" fill="none" stroke="currentColor" stroke-width="1.5" d="M{FLOW_X},{gap_top} V{y - 1}"/>')
        body.append(_arrow_down(FLOW_X, y))
        body += rows
        # The box.
        inner = BOX_RIGHT - BOX_X - 2 * PAD
        head = wrap(f"{step.number}. {step.by} \u00b7 {step.kind}", inner, 2, bold=True)
        does = wrap(step.does, inner, 3)
        effect = wrap(f"\u2192 {step.effect}", inner, 2) if step.effect else []
        # an inner loop (FORMAT item 29): a box of its own inside the step's, one line per step
        nested = [line for text in step.inner for line in wrap(text, inner - 2 * PAD, 2, 11)]
        nested_h = len(nested) * SMALL_LINE + 10 if nested else 0
        height = PAD + (len(head) + len(does) + len(effect)) * LINE + (nested_h + 6 if nested else 0) + PAD - 2
        dash = ' stroke-dasharray="6 4"' if step.optional else ""
        cls = "lc-box lc-optional" if step.optional else "lc-box lc-mandatory"
        stroke = "1.5" if step.optional else "2"
        body.append(f'<rect class="{cls}" x="{BOX_X}" y="{y}" width="{BOX_RIGHT - BOX_X}" height="{height}" rx="6" fill="none" stroke="currentColor" stroke-width="{stroke}"{dash}/>')
        ty = y + PAD + 11
        for line in head:
            body.append(_text(BOX_X + PAD, ty, line, bold=True))
            ty += LINE
        for line in does:
            body.append(_text(BOX_X + PAD, ty, line))
            ty += LINE
        for line in effect:
            body.append(_text(BOX_X + PAD, ty, line, "lc-text lc-effect"))
            ty += LINE
        if nested:
            top = ty - 11 + 4
            body.append(f'<rect class="lc-box lc-inner" x="{BOX_X + PAD}" y="{top}" width="{inner}" height="{nested_h}" rx="4" fill="none" stroke="currentColor" stroke-width="1" stroke-dasharray="2 2"/>')
            for k, line in enumerate(nested):
                body.append(_text(BOX_X + 2 * PAD, top + 14 + k * SMALL_LINE, line, "lc-text lc-small", size=11))
        y += height
        if step.exit:
            # An exit off the cycle: a dashed branch to the right, below the box.
            lines = wrap(f"exit: {step.exit}", BOX_RIGHT - (FLOW_X + 50) - 2 * PAD, 3, 11)
            branch_x = FLOW_X + 30
            pill_top = y + 12
            pill_h = len(lines) * SMALL_LINE + 8
            body.append(f'<path class="lc-exit" fill="none" stroke="currentColor" stroke-width="1.5" stroke-dasharray="3 3" d="M{branch_x},{y} V{pill_top + pill_h // 2} H{FLOW_X + 49}"/>')
            body.append(_arrow_right(FLOW_X + 50, pill_top + pill_h // 2))
            body.append(f'<rect class="lc-exit-box" x="{FLOW_X + 50}" y="{pill_top}" width="{BOX_RIGHT - FLOW_X - 50}" height="{pill_h}" rx="10" fill="none" stroke="currentColor" stroke-width="1" stroke-dasharray="3 3"/>')
            body += [_text(FLOW_X + 50 + PAD, pill_top + 14 + i * SMALL_LINE, line, "lc-text lc-small", size=11) for i, line in enumerate(lines)]
            body.append(f'<path class="lc-line" fill="none" stroke="currentColor" stroke-width="1.5" d="M{FLOW_X},{y} V{pill_top + pill_h + 4}"/>')
            y = pill_top + pill_h + 4
    # Back to step 1: down, left, up the rail, and right into the top of the flow line.
    bottom = y + 14
    body.append(f'<path class="lc-line" fill="none" stroke="currentColor" stroke-width="1.5" d="M{FLOW_X},{y} V{bottom} H{RAIL_X} V{loop_top}"/>')
    back = wrap("\u21ba back to step 1: the next iteration", BOX_RIGHT - FLOW_X - 8, 1, 11)[0]
    body.append(_text(FLOW_X + 8, bottom + 4, back, "lc-text lc-small", size=11))
    y = bottom + 16

    # Off the cycle: actions outside the loop, and the loop's own end.
    outside = [f"could break it: {by}: {does}" for by, does in diagram.breakers]
    if diagram.ends:
        outside.append(diagram.ends)
    for item in outside:
        lines = wrap(item, BOX_RIGHT - BOX_X - 2 * PAD, 3, 11)
        h = len(lines) * SMALL_LINE + 8
        body.append(f'<path class="lc-exit" fill="none" stroke="currentColor" stroke-width="1.5" stroke-dasharray="3 3" d="M{RAIL_X},{bottom} V{y + h // 2} H{BOX_X - 1}"/>')
        body.append(_arrow_right(BOX_X, y + h // 2))
        body.append(f'<rect class="lc-exit-box" x="{BOX_X}" y="{y}" width="{BOX_RIGHT - BOX_X}" height="{h}" rx="10" fill="none" stroke="currentColor" stroke-width="1" stroke-dasharray="3 3"/>')
        body += [_text(BOX_X + PAD, y + 14 + i * SMALL_LINE, line, "lc-text lc-small", size=11) for i, line in enumerate(lines)]
        y += h + 8
    for name, result in diagram.uncut:
        for line in wrap(f"{name}: {result}, no cut point", BOX_RIGHT - BOX_X, 2, 11):
            body.append(_text(BOX_X, y + 11, line, "lc-text lc-small", size=11))
            y += SMALL_LINE
    words = "Dashed box: optional (its controller may stop); solid: mandatory. Marks on the line: where each ruleset cuts the loop."
    if any(cut.leaves for cut in diagram.cuts):
        words += ' An "x": where a player leaves the game.'
    # (a page that draws many loops, such as the history, says the legend once instead)
    for line in wrap(words, WIDTH - 2 * RAIL_X, 3, 11) if legend else ():
        body.append(_text(RAIL_X - 6, y + 14, line, "lc-text lc-small lc-legend", size=11))
        y += SMALL_LINE
    height = y + 10

    title_id, desc_id = f"{id_prefix}-diagram-title", f"{id_prefix}-diagram-desc"
    opening = (
        f'<svg class="loop-diagram" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-labelledby="{title_id} {desc_id}" '
        'font-family="system-ui, sans-serif">'
    )
    return "\n".join(
        [opening, f'<title id="{title_id}">{xml("Loop diagram: " + diagram.title)}</title>', f'<desc id="{desc_id}">{xml(describe(diagram))}</desc>', *body, "</svg>"]
    )


def describe(diagram: Diagram) -> str:
    """The diagram in words: its text alternative."""
    parts = [f"One iteration has {len(diagram.steps)} step{'s' if len(diagram.steps) != 1 else ''}, then the loop starts again."]
    for s in diagram.steps:
        text = f"Step {s.number}: {s.by}, {s.kind}: {s.does}"
        if s.effect:
            text += f" ({s.effect})"
        if s.exit:
            text += f"; exit: {s.exit}"
        if s.inner:
            text += f"; inside it, {'; '.join(s.inner[1:])} ({s.inner[0].lstrip(chr(0x21bb)).strip()})"
        parts.append(text + ".")
    parts += [f"Outside the loop, {by} could break it: {does}." for by, does in diagram.breakers]
    if diagram.ends:
        parts.append(f"The loop {diagram.ends}.")
    for cut in diagram.cuts:
        parts.append(f"{'Before' if cut.leaves else 'Cut before'} step {cut.steps + 1}: {cut.label}.")
    parts += [f"{name}: {result}, no cut point." for name, result in diagram.uncut]
    return " ".join(parts)


# --- Mermaid -----------------------------------------------------------------------------------------

_MERMAID_SAFE = re.compile(r"[A-Za-z0-9 ,.:()+=/\-]")


def _mermaid_text(text: str) -> str:
    """Text for a quoted Mermaid label: anything but letters, digits and plain punctuation as
    an entity code (``#60;``), so no label can close its quotes, its node or the code block."""
    return "".join(ch if _MERMAID_SAFE.fullmatch(ch) or (ch.isalnum() and not ch.isascii()) else f"#{ord(ch)};" for ch in neutral(text))


def _mermaid_label(lines: Iterable[str]) -> str:
    return '"' + "<br>".join(_mermaid_text(line) for line in lines) + '"'


def mermaid(diagram: Diagram) -> str:
    """The diagram as a Mermaid flowchart (the body of a ```mermaid block).

    Labels are quoted, with every character but letters, digits and plain punctuation written
    as Mermaid's entity codes (``#quot;``, ``#9829;``): quotes can't end a label, and the ``*``
    and backticks GitHub would read as markdown inside a node stay literal.  Each cut is a flag
    node pointing at the step before which it falls; each ruleset with no cut point, a box of
    its own.
    """
    out = ["flowchart TD"]
    for s in diagram.steps:
        lines = [f"{s.number}. {s.by} \u00b7 {s.kind}", s.does] + ([f"\u2192 {s.effect}"] if s.effect else []) + list(s.inner)
        out.append(f"  s{s.number}[{_mermaid_label(lines)}]" if not s.optional else f"  s{s.number}([{_mermaid_label(lines)}])")
    for a, b in zip(diagram.steps, diagram.steps[1:]):
        out.append(f"  s{a.number} --> s{b.number}")
    last, first = diagram.steps[-1].number, diagram.steps[0].number
    out.append(f"  s{last} -->|{_mermaid_label(['next iteration'])}| s{first}")
    for s in diagram.steps:
        if s.exit:
            out.append(f"  u{s.number}{{{{{_mermaid_label(['exit: ' + s.exit])}}}}}")
            out.append(f"  s{s.number} -.-> u{s.number}")
    for i, (by, does) in enumerate(diagram.breakers, 1):
        out.append(f"  b{i}{{{{{_mermaid_label([f'could break it: {by}: {does}'])}}}}}")
        out.append(f"  s{last} -.-> b{i}")
    if diagram.ends:
        out.append(f"  e1{{{{{_mermaid_label([diagram.ends])}}}}}")
        out.append(f"  s{last} -.-> e1")
    for i, cut in enumerate(diagram.cuts, 1):
        out.append(f"  c{i}>{_mermaid_label([cut.label])}]")
        out.append(f"  c{i} -.-> s{cut.steps + 1}")
    # Rulesets with no cut point stand apart, as the SVG lists them under the cycle.
    for i, (name, result) in enumerate(diagram.uncut, 1):
        out.append(f"  n{i}[{_mermaid_label([f'{name}: {result}, no cut point'])}]")
    return "\n".join(out)
