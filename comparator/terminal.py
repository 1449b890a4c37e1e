"""The terminal view: a markdown report read on a screen.

When standard output is a terminal (and no ``-f``/``-o`` asks for a file format), the commands
print their markdown through :func:`screen`: pipe tables fitted to the terminal's width (cells
wrapped, never a line wider than ``width``), rows and cells that differ marked with a sign that
stays without colour (``≠`` on the row, ``*`` on the cell) and, with colour, in bold yellow;
prose wrapped; headings bold; no markdown escapes, emphasis marks or HTML anchors; the rule
texts quoted and the sources behind ``verbose``.  Piped output never comes here: it stays the
markdown, byte for byte.

Only the standard library and click (for :func:`click.style`) are used, and this module is
imported only when a terminal is written to.  Everything shown passes through
:func:`comparator.controls.visible`: text from a scenario is shown, never obeyed.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import click

from .controls import visible

#: The sign after a table cell that differs from its row's most common value (kept without colour).
CELL_MARK = "*"
#: Paragraphs (bold, alone) that open a part of the report shown only with ``-v``.
VERBOSE_ONLY = ("Rules quoted:", "Sources:")
#: Words of the markdown that speak of its bold cells, as the screen marks them.
SCREEN_WORDS = (("the cells in bold differ", f"the cells marked \\{CELL_MARK} differ"),)
#: Space between table columns.
GAP = "  "


# --- text width ------------------------------------------------------------------------------------


def width_of(text: str) -> int:
    """Columns ``text`` takes on a terminal (wide East Asian characters take two, combining marks none)."""
    if text.isascii():
        return len(text)
    total = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


# --- inline markdown ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Span:
    """A run of text with its emphasis: ``bold`` (``**``), ``em`` (``*``) or ``code`` (`````)."""

    text: str
    bold: bool = False
    em: bool = False


_LINK = re.compile(r"\[((?:\\.|[^\]\\])*)\]\(([^)\s]*)\)")
_TAG = re.compile(r"</?a\b[^>]*>|<br\s*/?>")
_SPECIAL = re.compile(r"\\.?|\*\*|[*`\[]")


def spans(markdown: str) -> list[Span]:
    """The text of one line of the renderers' markdown, its escapes undone, as styled runs.

    Handles what :mod:`comparator.render` writes: backslash escapes, ``**bold**``, ``*em*``,
    ```code```, ``[text](link)`` (shown as the text; an outside link as "text (link)") and
    ``<br>``/``<a id>`` tags (a break becomes a space here; tables split cells on it first).
    """
    text = _TAG.sub(" ", markdown)
    if not _SPECIAL.search(text):  # most cells and lines: plain text
        return [Span(visible(text))] if text else []
    out: list[Span] = []
    buf: list[str] = []
    bold = em = False

    def flush() -> None:
        if buf:
            out.append(Span("".join(buf), bold=bold, em=em))
            buf.clear()

    i = 0
    while i < len(text):
        m = _SPECIAL.search(text, i)
        if m is None:
            buf.append(text[i:])
            break
        buf.append(text[i : m.start()])
        token = m.group()
        i = m.end()
        if token.startswith("\\"):
            buf.append(token[1:] or "\\")
        elif token == "`":
            end = text.find("`", i)
            end = len(text) if end < 0 else end
            flush()
            buf.append(text[i:end])
            flush()
            i = end + 1
        elif token == "**":
            flush()
            bold = not bold
        elif token == "*":
            flush()
            em = not em
        else:  # "[": a link, or a bracket
            link = _LINK.match(text, m.start())
            if link is None:
                buf.append(token)
                continue
            flush()
            label = "".join(s.text for s in spans(link.group(1)))
            target = link.group(2)
            shown = label if not target or target.startswith("#") or "://" not in target else f"{label} ({target})"
            out.append(Span(shown, bold=bold, em=em))
            i = link.end()
    flush()
    return [Span(visible(s.text), s.bold, s.em) for s in out if s.text]


def plain(markdown: str) -> str:
    """A line of markdown as the words it shows."""
    return "".join(s.text for s in spans(markdown))


# --- styling and wrapping --------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """How to show emphasis: with ``colour``, ANSI bold (and yellow for what differs); without, none."""

    colour: bool

    def apply(self, text: str, *, bold: bool = False, em: bool = False, differs: bool = False, heading: bool = False) -> str:
        if not self.colour or not text:
            return text
        if differs:
            return click.style(text, bold=True, fg="yellow")
        if heading:
            return click.style(text, bold=True, fg="cyan")
        if bold:
            return click.style(text, bold=True)
        if em:
            return click.style(text, italic=True)
        return text


Word = tuple[str, Span]  # a word (no spaces) and the span it came from


def _words(runs: Sequence[Span]) -> list[list[Word]]:
    """Runs as words; a word made of pieces of several runs (``**a**b``) stays one word."""
    words: list[list[Word]] = []
    joined = True  # the next piece continues the previous word
    for run in runs:
        parts = re.split(r"(\s+)", run.text)
        for part in parts:
            if not part:
                continue
            if part.isspace():
                joined = False
                continue
            if joined and words:
                words[-1].append((part, run))
            else:
                words.append([(part, run)])
            joined = True
    return words


def _split_long(word: list[Word], width: int) -> list[list[Word]]:
    """A word wider than ``width``, cut into pieces that fit (by characters)."""
    pieces: list[list[Word]] = [[]]
    used = 0
    for text, run in word:
        chunk = ""
        for ch in text:
            w = width_of(ch)
            if used + w > width and used > 0:
                if chunk:
                    pieces[-1].append((chunk, run))
                pieces.append([])
                chunk, used = "", 0
            chunk += ch
            used += w
        if chunk:
            pieces[-1].append((chunk, run))
    return [p for p in pieces if p]


def wrap(runs: Sequence[Span], width: int) -> list[list[Word]]:
    """Lines of at most ``width`` columns; each line a list of pieces (words joined by single spaces)."""
    width = max(width, 1)
    lines: list[list[Word]] = []
    line: list[Word] = []
    used = 0
    for word in _words(runs):
        w = sum(width_of(t) for t, _ in word)
        if w > width:
            for piece in _split_long(word, width):
                pw = sum(width_of(t) for t, _ in piece)
                if line and used + 1 + pw > width:
                    lines.append(line)
                    line, used = [], 0
                if line:
                    line.append((" ", Span(" ")))
                    used += 1
                line.extend(piece)
                used += pw
            continue
        if line and used + 1 + w > width:
            lines.append(line)
            line, used = [], 0
        if line:
            line.append((" ", Span(" ")))
            used += 1
        line.extend(word)
        used += w
    if line or not lines:
        lines.append(line)
    return lines


def _show(line: Sequence[Word], style: Style, *, bold: bool = False, em: bool = False, differs: bool = False, heading: bool = False) -> str:
    """A wrapped line with its emphasis (``bold``/``em`` add to each piece's own); pieces of one
    style, and the spaces between them, are styled together."""
    groups: list[tuple[tuple[bool, bool], list[str]]] = []
    for i, (text, run) in enumerate(line):
        if text.isspace():
            before = line[i - 1][1] if i else None
            after = line[i + 1][1] if i + 1 < len(line) else None
            key = (before.bold, before.em) if before and after and (before.bold, before.em) == (after.bold, after.em) else (False, False)
        else:
            key = (run.bold, run.em)
        if groups and groups[-1][0] == key:
            groups[-1][1].append(text)
        else:
            groups.append((key, [text]))
    return "".join(
        style.apply("".join(texts), bold=bold or b, em=em or e, differs=differs, heading=heading) if "".join(texts).strip() else "".join(texts)
        for (b, e), texts in groups
    )


def _line_width(line: Sequence[Word]) -> int:
    return sum(width_of(text) for text, _ in line)


# --- tables ------------------------------------------------------------------------------------------


_CELL_TOKEN = re.compile(r"\\.?|[^|\\]+|\|")


def _cells(row: str) -> list[str]:
    """The cells of a pipe-table row (a ``|`` escaped with a backslash stays in its cell)."""
    body = row.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    cells: list[str] = []
    cur: list[str] = []
    for token in _CELL_TOKEN.findall(body):
        if token == "|":
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(token)
    cells.append("".join(cur).strip())
    return cells


@dataclass(frozen=True)
class Cell:
    runs: tuple[Span, ...]
    differs: bool  # the whole cell is bold in a row marked as differing

    @property
    def natural(self) -> int:
        return width_of("".join(r.text for r in self.runs))

    @property
    def longest_word(self) -> int:
        return max((sum(width_of(t) for t, _ in w) for w in _words(self.runs)), default=0)


def _cell(markdown: str, row_differs: bool, first: bool) -> Cell:
    runs = spans(markdown)
    whole_bold = bool(runs) and all(r.bold for r in runs)
    if whole_bold and row_differs and not first:
        runs = [*(Span(r.text, bold=True) for r in runs), Span(" " + CELL_MARK, bold=True)]
        return Cell(tuple(runs), True)
    return Cell(tuple(runs), False)


def _widths(naturals: list[int], minimums: list[int], room: int) -> list[int] | None:
    """Column widths that fit ``room``: natural widths if they fit, else the widest columns
    narrowed evenly (none below its minimum); None when even the minimums don't fit."""
    if sum(naturals) <= room:
        return naturals
    if sum(minimums) > room:
        return None
    widths = list(naturals)
    while sum(widths) > room:
        over = sum(widths) - room
        top = max(w for w, m in zip(widths, minimums) if w > m)
        tops = [i for i, (w, m) in enumerate(zip(widths, minimums)) if w == top and w > m]
        below = max([w for w in widths if w < top] + [max(minimums[i] for i in tops)])
        cut = min(top - below, -(-over // len(tops)))
        for i in tops:
            widths[i] = max(minimums[i], widths[i] - max(cut, 1))
    return widths


def table(rows: Sequence[str], width: int, style: Style) -> list[str]:
    """A pipe table (header, separator, rows) fitted to ``width`` columns.

    Columns narrower than their text wrap it; when even that can't fit (many columns on a
    narrow terminal) each row is shown as a record: its first cell, then one line per column.
    """
    header = _cells(rows[0])
    body_md = [_cells(r) for r in rows[2:]]
    head = [_cell(c, False, False) for c in header]
    body: list[list[Cell]] = []
    for cells in body_md:
        first = plain(cells[0]) if cells else ""
        differs = "≠" in first
        body.append([_cell(c, differs, i == 0) for i, c in enumerate(cells)])
    columns = max(len(head), *(len(r) for r in body)) if body else len(head)
    empty = Cell((), False)
    head += [empty] * (columns - len(head))
    body = [r + [empty] * (columns - len(r)) for r in body]
    everything = [head, *body]
    naturals = [max(r[i].natural for r in everything) for i in range(columns)]
    minimums = [min(naturals[i], max(min(max(r[i].longest_word for r in everything), 14), 4)) for i in range(columns)]
    if columns > 2:  # the first column names the rows: keep it readable
        minimums[0] = min(naturals[0], max(minimums[0], 18))
    room = width - len(GAP) * (columns - 1)
    widths = _widths(naturals, minimums, room)
    if widths is None:
        return _records(head, body, width, style)
    lines: list[str] = []
    wrapped = any(r[i].natural > widths[i] for r in everything for i in range(columns))

    def emit(row: list[Cell], is_head: bool) -> None:
        cells = [wrap(c.runs, widths[i]) for i, c in enumerate(row)]
        for k in range(max(len(c) for c in cells)):
            parts = []
            for i, c in enumerate(cells):
                piece = c[k] if k < len(c) else []
                shown = _show(piece, style, differs=row[i].differs, heading=is_head)
                parts.append(shown + " " * (widths[i] - _line_width(piece)))
            lines.append(GAP.join(parts).rstrip())

    emit(head, True)
    lines.append(GAP.join("─" * w for w in widths))
    for n, row in enumerate(body):
        if wrapped and n:
            lines.append("")
        emit(row, False)
    return lines


def _records(head: list[Cell], body: list[list[Cell]], width: int, style: Style) -> list[str]:
    """A table too wide for the screen: each row as its first cell, then "column: value" lines."""
    lines: list[str] = []
    label_width = min(max(c.natural for c in head[1:]) if len(head) > 1 else 0, max(width // 3, 1))
    for row in body:
        for piece in wrap(row[0].runs, width):
            lines.append(_show(piece, style, bold=True))
        for name, cell in zip(head[1:], row[1:]):
            value_width = width - 2 - label_width - 2
            if value_width < 8:  # no room beside the label: the value under it
                for piece in wrap(name.runs, width - 2):
                    lines.append("  " + _show(piece, style, heading=True))
                for piece in wrap(cell.runs, width - 4):
                    lines.append("    " + _show(piece, style, differs=cell.differs))
                continue
            label_lines = wrap(name.runs, label_width)
            value_lines = wrap(cell.runs, value_width)
            for k in range(max(len(label_lines), len(value_lines))):
                lp = label_lines[k] if k < len(label_lines) else []
                vp = value_lines[k] if k < len(value_lines) else []
                left = _show(lp, style, heading=True) + " " * (label_width - _line_width(lp))
                lines.append(("  " + left + "  " + _show(vp, style, differs=cell.differs)).rstrip())
        lines.append("")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


# --- blocks ------------------------------------------------------------------------------------------


_LIST_ITEM = re.compile(r"^(\s*)(\d{1,9}\.|[-*+])\s+(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")


def _blocks(markdown: str) -> Iterator[tuple[str, list[str]]]:
    """The report's blocks: ('heading'|'table'|'quote'|'item'|'fence'|'para', lines)."""
    lines = markdown.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            yield "fence", lines[i : j + 1]
            i = j + 1
            continue
        if _HEADING.match(line):
            yield "heading", [line]
            i += 1
            continue
        if line.lstrip().startswith("|"):
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            yield "table", lines[i:j]
            i = j
            continue
        if line.startswith(">"):
            j = i
            while j < len(lines) and lines[j].startswith(">"):
                j += 1
            yield "quote", lines[i:j]
            i = j
            continue
        if _LIST_ITEM.match(line):
            j = i + 1
            while j < len(lines) and lines[j].strip() and lines[j].startswith("  ") and not _LIST_ITEM.match(lines[j]):
                j += 1
            yield "item", lines[i:j]
            i = j
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() and not (lines[j].startswith(("#", "|", ">", "```")) or _LIST_ITEM.match(lines[j])):
            j += 1
        yield "para", lines[i:j]
        i = j


def _para_runs(lines: Sequence[str]) -> list[list[Span]]:
    """A paragraph's lines as runs, split where markdown breaks a line (two trailing spaces, ``<br>``)."""
    out: list[list[Span]] = [[]]
    for line in lines:
        stripped = line.rstrip()
        if out[-1]:
            out[-1].append(Span(" "))
        if re.fullmatch(r"<a\b[^>]*></a>", stripped.strip()):
            continue
        out[-1].extend(spans(stripped))
        if line.endswith("  ") or stripped.endswith("<br>"):
            out.append([])
    return [r for r in out if r]


def screen(markdown: str, *, width: int, colour: bool, verbose: bool = False, keep_lines: bool = False) -> str:
    """The markdown report as a terminal shows it, no line wider than ``width`` columns
    (``keep_lines``: each line of a paragraph stays a line, for listings that are not documents)."""
    width = max(width, 20)
    style = Style(colour)
    out: list[str] = []
    hidden = False
    hid_something = False
    skipped_fences = 0
    item_end = -1  # where the last list item ended: the next item follows without a gap

    def gap() -> None:
        if out and out[-1] != "":
            out.append("")

    for before, after in SCREEN_WORDS:
        markdown = markdown.replace(before, after)
    for kind, lines in _blocks(markdown):
        if kind == "heading":
            hidden = False
            m = _HEADING.match(lines[0])
            assert m is not None
            level, text = len(m.group(1)), m.group(2)
            gap()
            runs = [Span(s.text, bold=True) for s in spans(text)]
            for piece in wrap(runs, width):
                out.append(_show(piece, style, heading=level <= 2))
            if level == 1:
                out.append("═" * min(width, max(_line_width(p) for p in wrap(runs, width))))
            elif level == 2:
                out.append("─" * min(width, max(_line_width(p) for p in wrap(runs, width))))
            continue
        if kind == "para" and not verbose and plain(" ".join(lines)).strip() in VERBOSE_ONLY:
            hidden = True
            hid_something = True
            continue
        if hidden and kind in ("quote", "item", "para"):
            continue
        if kind == "fence":
            if not verbose:
                skipped_fences += 1
                continue
            gap()
            for raw in lines:
                for piece in wrap([Span(visible(raw))], width):
                    out.append(_show(piece, style))
            continue
        if kind == "table":
            gap()
            out.extend(table(lines, width, style))
            continue
        if kind == "quote":
            gap()
            body = [re.sub(r"^>\s?", "", line) for line in lines]
            for block_kind, block in _blocks("\n".join(body)):
                if block_kind == "heading":
                    block = [_HEADING.sub(r"**\2**", block[0])]
                for runs in _para_runs(block):
                    for piece in wrap(runs, width - 2):
                        out.append("│ " + _show(piece, style))
                out.append("│")
            if out[-1] == "│":
                out.pop()
            continue
        if kind == "item":
            m = _LIST_ITEM.match(lines[0])
            assert m is not None
            indent, mark = len(m.group(1)), m.group(2)
            bullet = mark if mark[0].isdigit() else "•"
            prefix = " " * indent + bullet + " "
            if out and out[-1] != "" and len(out) != item_end:
                gap()
            first = True
            for runs in _para_runs([m.group(3), *(line.strip() for line in lines[1:])]):
                for piece in wrap(runs, width - width_of(prefix)):
                    out.append((prefix if first else " " * width_of(prefix)) + _show(piece, style))
                    first = False
            item_end = len(out)
            continue
        gap()
        for runs in _para_runs([line + "  " for line in lines] if keep_lines else lines):
            for piece in wrap(runs, width):
                out.append(_show(piece, style))
    notes = []
    if hid_something:
        notes.append("the rule texts quoted and the sources")
    if skipped_fences:
        notes.append(f"{skipped_fences} Mermaid diagram(s)")
    if notes:
        gap()
        hint = f"({' and '.join(notes)} are left out here: -v shows them; -f md or -o FILE gives the whole report)"
        for piece in wrap([Span(hint)], width):
            out.append(_show(piece, style, em=True))
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


# --- the terminal ------------------------------------------------------------------------------------


def terminal_width() -> int:
    """Columns of the terminal: ``COLUMNS`` if set, else what the terminal says, else 80."""
    return shutil.get_terminal_size((80, 24)).columns


def terminal_height() -> int:
    return shutil.get_terminal_size((80, 24)).lines


def colour_wanted(choice: str, stream_is_tty: bool) -> bool:
    """Colour or not: ``--color always|never`` decides; ``auto`` follows FORCE_COLOR (set and not
    empty: colour), then NO_COLOR (set and not empty: none, https://no-color.org), then whether the
    stream is a terminal."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("FORCE_COLOR", ""):
        return True
    if os.environ.get("NO_COLOR", ""):
        return False
    return stream_is_tty


def pager_wanted(text: str, no_pager: bool) -> bool:
    """Page (as git and gh do) when the text is taller than the terminal, unless ``--no-pager``,
    or PAGER is set to nothing or ``cat``, or LOOPCOMPARE_PAGER is."""
    if no_pager or not sys.stdin.isatty():
        return False
    pager = os.environ.get("LOOPCOMPARE_PAGER", os.environ.get("PAGER"))
    if pager is not None and pager.strip() in ("", "cat"):
        return False
    return text.count("\n") >= terminal_height()


def show(text: str, *, colour: bool, no_pager: bool) -> None:
    """Print the screen view, through a pager when it is long.  Like git, LESS defaults to
    ``FRX`` (quit if one screen, keep colours, leave the screen as it is)."""
    if pager_wanted(text, no_pager):
        pager = os.environ.get("LOOPCOMPARE_PAGER")
        if pager:
            os.environ["PAGER"] = pager
        os.environ.setdefault("LESS", "FRX")
        click.echo_via_pager(text, color=colour)
        return
    click.echo(text, nl=False, color=colour)
