"""The timeline chart: a scenario's outcome era by era, as bands on a date axis.

Each line of descent (the Comprehensive Rules, with the Rules Summary before them; the Tournament
Rules) is a row of bands, one per period of :mod:`.timeline`, placed by date from 1998 to the
end of the year of the newest date the rules' history knows (never the day the report was made:
the bytes must not depend on it).  Periods with the same outcome share a fill and a letter, so
colour is never the only cue; the legend gives each letter's outcome.  The CR's loop rule
renumberings are ticks under its row.  A boundary the sources don't date (the day the MTR's
"choices" paragraph came in) is drawn as an overlap: the earlier text in the upper half of the
row, the later in the lower half, both outlined with dashes.

Like :mod:`.diagram`: integer coordinates, every text escaped, colours from CSS classes with a
presentation fallback, a <title> and <desc> as the text alternative.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from .timeline import Timeline

from loopcompare.rulesets.history import SHORTCUT_RULE_NUMBERS, UNKNOWN

from .diagram import wrap, xml

WIDTH = 400
X0, X1 = 12, 388
ROW = 26
PALETTE = ("#cfe0fb", "#fbd9b0", "#c9ecc4", "#efc8e6", "#dedfe3", "#f6eba2")
"""Fallback fills of the outcome classes ``tl-o0``.. (the page's stylesheet has light and dark ones)."""


def _day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def axis_years(timelines: Sequence[Timeline]) -> tuple[int, int]:
    """The axis: from 1998 to the year after the newest known date of the periods and renumberings."""
    dates = [d for d, _ in SHORTCUT_RULE_NUMBERS]
    for t in timelines:
        for line in t.lines:
            for p in line.periods:
                dates += [d for d in (p.start, p.end) if d and d != UNKNOWN]
    return 1998, max(_day(d).year for d in dates) + 1


def _x(date: dt.date, first: dt.date, last: dt.date) -> int:
    return X0 + (date - first).days * (X1 - X0) // (last - first).days


def _text(x: int, y: int, text: str, *, size: int = 11, bold: bool = False, anchor: str = "start", cls: str = "lc-text") -> str:
    weight = ' font-weight="600"' if bold else ""
    return f'<text class="{cls}" x="{x}" y="{y}" font-size="{size}"{weight} text-anchor="{anchor}" fill="currentColor">{xml(text)}</text>'


def timeline_svg(timeline: Timeline, id_prefix: str, years: tuple[int, int] | None = None) -> str:
    """The timeline of one scenario as inline SVG (no xmlns: the HTML parser supplies it)."""
    start_year, end_year = years or axis_years([timeline])
    first, last = dt.date(start_year, 1, 1), dt.date(end_year, 1, 1)
    letters: dict[str, int] = {}
    for line in timeline.lines:
        for p in line.periods:
            letters.setdefault(p.summary, len(letters))

    body: list[str] = []
    alt: list[str] = []
    undated = False
    y = 6
    for index, line in enumerate(timeline.lines):
        names = wrap(line.name, X1 - X0, 2, 12, bold=True)
        for name in names:
            body.append(_text(X0, y + 12, name, size=12, bold=True))
            y += 15
        top = y + 4
        spans: list[tuple[int, int]] = []
        for i, p in enumerate(line.periods):
            x0 = _x(_day(p.start), first, last) if p.start != UNKNOWN else spans[-1][0] if spans else X0
            if p.end is None or p.end == UNKNOWN:
                x1 = X1
            else:
                x1 = _x(_day(p.end) + dt.timedelta(days=1), first, last)
            spans.append((x0, x1))
            upper = p.end == UNKNOWN and i + 1 < len(line.periods)
            lower = p.start == UNKNOWN and i > 0
            by, height = (top, ROW // 2) if upper else (top + ROW // 2, ROW - ROW // 2) if lower else (top, ROW)
            n = letters[p.summary]
            dash = ' stroke-dasharray="3 2"' if upper or lower else ""
            undated = undated or upper or lower
            body.append(
                f'<rect class="tl-band tl-o{n % len(PALETTE)}" x="{x0}" y="{by}" width="{max(1, x1 - x0)}" height="{height}" '
                f'fill="{PALETTE[n % len(PALETTE)]}" stroke="currentColor" stroke-width="1"{dash}/>'
            )
            # The letter, smaller in a narrow band (a band too narrow for any is a few weeks long).
            letter = chr(ord("A") + n) if n < 26 else str(n + 1)
            size = 11 if x1 - x0 >= 14 and height >= 12 else 9 if x1 - x0 >= 8 and height >= 10 else 0
            if size:
                body.append(_text((x0 + x1) // 2, by + height // 2 + size // 3, letter, size=size, bold=True, anchor="middle"))
            names_in = ", ".join(r.name for r in p.rulesets)
            alt.append(f"{line.name}, {p.span}: {names_in}: outcome {chr(ord('A') + n) if n < 26 else n + 1}.")
        y = top + ROW
        if index == 0:
            # The CR's loop rule renumberings, as ticks under its row, labels stacked where they'd meet.
            # (as many levels as the labels need: every dated number is named, none over another)
            label_ends = [-1000]
            for date, number in SHORTCUT_RULE_NUMBERS:
                x = _x(_day(date), first, last)
                free = [i for i, end in enumerate(label_ends) if x - 12 > end]
                if not free:
                    label_ends.append(-1000)
                    free = [len(label_ends) - 1]
                level = free[0]
                body.append(f'<path class="lc-line" fill="none" stroke="currentColor" stroke-width="1.5" d="M{x},{y} V{y + 6}"/>')
                if level:
                    body.append(f'<path class="lc-line" fill="none" stroke="currentColor" stroke-width="1" d="M{x},{y + 6} V{y + 8 + 12 * level}"/>')
                body.append(_text(x, y + 17 + 12 * level, number, size=10, anchor="middle", cls="lc-text lc-small"))
                label_ends[level] = x + 12
            levels = 1 + max(i for i, end in enumerate(label_ends) if end > -1000)
            body.append(_text(X1, y + 17 + 12 * levels, "ticks: the CR's loop rule renumbered", size=10, anchor="end", cls="lc-text lc-small"))
            alt.append("The CR's loop rule: " + ", ".join(f"{n} from {d}" for d, n in SHORTCUT_RULE_NUMBERS) + ".")
            y += 22 + 12 * levels
        else:
            y += 8
    # The date axis.
    body.append(f'<path class="lc-line" fill="none" stroke="currentColor" stroke-width="1" d="M{X0},{y} H{X1}"/>')
    for year in range(start_year, end_year + 1):
        x = _x(dt.date(year, 1, 1), first, last)
        long = (year - start_year) % 4 == 0 or year == end_year
        body.append(f'<path class="lc-line" fill="none" stroke="currentColor" stroke-width="1" d="M{x},{y} V{y + (6 if long else 3)}"/>')
        if (year - start_year) % 4 == 0:
            anchor = "start" if year == start_year else "end" if year == end_year else "middle"
            body.append(_text(x, y + 18, str(year), size=10, anchor=anchor, cls="lc-text lc-small"))
    y += 30
    # The legend: each outcome's letter and fill.
    for summary, n in letters.items():
        lines = wrap(summary, X1 - X0 - 28, 3, 11)
        body.append(
            f'<rect class="tl-band tl-o{n % len(PALETTE)}" x="{X0}" y="{y}" width="20" height="16" fill="{PALETTE[n % len(PALETTE)]}" stroke="currentColor" stroke-width="1"/>'
        )
        body.append(_text(X0 + 10, y + 12, chr(ord("A") + n) if n < 26 else str(n + 1), bold=True, anchor="middle"))
        for i, text in enumerate(lines):
            body.append(_text(X0 + 28, y + 12 + i * 14, text))
        y += max(20, len(lines) * 14 + 6)
        alt.append(f"Outcome {chr(ord('A') + n) if n < 26 else n + 1}: {summary}.")
    if undated:
        note = "Dashed halves: the day one text gave way to the next is not dated in the sources."
        for text in wrap(note, X1 - X0, 2, 11):
            body.append(_text(X0, y + 12, text, cls="lc-text lc-small"))
            y += 14
        alt.append(note)
    height = y + 4
    title_id, desc_id = f"{id_prefix}-chart-title", f"{id_prefix}-chart-desc"
    head = (
        f'<svg class="timeline-chart" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" role="img" '
        f'aria-labelledby="{title_id} {desc_id}" font-family="system-ui, sans-serif">'
    )
    title = f"Timeline chart: {timeline.scenario.scenario.title}, {start_year} to {end_year}"
    return "\n".join([head, f'<title id="{title_id}">{xml(title)}</title>', f'<desc id="{desc_id}">{xml(" ".join(alt))}</desc>', *body, "</svg>"])
