"""The history of the loop rules: what each amendment changed, in its text and in practice.

One section per change of each line of descent (the Comprehensive Rules, with the Rules Summary
before them; the Tournament Rules), in date order:

* **the text**: the loop rule's subrules aligned across the two versions (by their number within
  the rule, so a renumbering is not a change), each changed one as a word-level difference;
  "renumbered only" when that is all; a rule that replaces another (421 by 713) is new whole;
* **in practice**: the classes of loops whose outcome differs between the two eras, from *one*
  run of the divergence atlas over every era (:func:`comparator.atlas.restrict` projects it onto
  each pair), each with its smallest example settled under both and its share of the space, and
  that example drawn (:func:`loop_figure`: the loop with the cut point of each of the two eras);
* **the silences**: the notes (readings of a silent or ambiguous text) that the later era gives
  and the earlier never does (created), and the other way round (closed), over the same loops.

The renumberings of the shortcut rule come from :data:`rulesets.history.SHORTCUT_RULE_NUMBERS`
(read when the report is built), with the shipped text of the new number, where there is one,
compared with the text before.  Nothing in a section is written by hand: every sentence is
computed from the rulesets, their texts and the atlas, so a ruleset that settles differently
changes the report.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any, Callable, Iterable, Mapping, Sequence

from loopcompare.rulesets import Ruleset, texts
from loopcompare.rulesets import history as rule_history
from loopcompare.rulesets.citations import Stamp, citation

from . import atlas as atlases
from . import stamp, textdiff
from .compare import Comparison, compare
from .diagram import build as build_diagram
from .diagram import mermaid, svg
from .loader import ScenarioFile
from .render import Raw, document, finish, json_document, md, md_table, page
from .render import share as render_share
from .report import summary_cell
from .timeline import LINE_NAMES

#: The atlas fields the history compares: the atlas's own, and whether a judge may be needed
#: (the one thing the 2018 and current Tournament Rules texts settle differently in the space).
FIELDS = atlases.FIELDS + ("judge",)

PLAYER = "\u27e8player\u27e9"  # ⟨player⟩
ACTION = "\u27e8action\u27e9"
PLAYERS = "\u27e8players\u27e9"
THIS_DOCUMENT = "\u27e8this document\u27e9"
RULE_NUMBER = "\u27e8rule\u27e9"

# --- the texts --------------------------------------------------------------------------------


Rule = tuple[str, str]
"""A rule (or MTR paragraph) of a text: (id, words)."""


@dataclass(frozen=True)
class Text:
    """One version of a line's loop rule: its rules by id, and where it comes from."""

    label: str
    number: str
    rules: tuple[Rule, ...]


@dataclass(frozen=True)
class RuleChange:
    """One subrule (or MTR paragraph) that changed, was added or was removed.

    ``words`` is the word-level difference as (op, text) runs: ``=`` kept, ``-`` removed,
    ``+`` added; empty for a rule removed with the whole rule it belonged to.
    """

    status: str
    before: str | None
    after: str | None
    words: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class TextChange:
    """What changed in the loop rule's text between two versions."""

    verdict: str
    """"new", "replaced", "changed", "renumbered only", "unchanged" or "not shipped"."""
    sentence: str
    before: str
    after: str
    rules: tuple[RuleChange, ...]
    renumbered: tuple[tuple[str, str], ...]
    """Subrules whose text is the same but for the rule's number: (before, after)."""
    unchanged: tuple[str, ...]


def own_text(ruleset: Ruleset) -> Text:
    """A ruleset's own loop rule (not the texts it only cites, such as the MTR's "CR 729.x"):
    every source without a citation prefix, the first source winning where two give a rule."""
    merged: dict[str, str] = {}
    files = [s for s in ruleset.sources if not s.prefix]
    for source in reversed(files):
        for key, text in source.load().rules:
            merged[key] = text  # a later (more specific) source replaces the rule in place
    number = getattr(ruleset, "number", "") if any(_family(k)[0] == "shortcut" for k in merged) else ""
    label = f"{ruleset.name}, text of {ruleset.effective} ({' + '.join(_cited(s.filename) for s in files)})"
    return Text(label, number or _number(merged), tuple(merged.items()))


def _number(rules: Iterable[str]) -> str:
    head = next(iter(rules), "").partition(".")[0]
    return head if head.isdigit() else ""


_RENUMBERED_FILE = re.compile(r"^(\d{4}-\d{2}-\d{2})_cr_(\d{3})\.txt$")


def shipped_texts(rulesets: Sequence[Ruleset]) -> list[tuple[str, str, str]]:
    """The shortcut rule's texts shipped besides the rulesets' own: (date, number, file name),
    such as the rule renumbered 720 in 2018 (which the 2018 Tournament Rules cite)."""
    own = {s.filename for r in rulesets for s in r.sources if not s.prefix}
    folder = resources.files("loopcompare.rulesets").joinpath("texts")
    out = []
    for entry in folder.iterdir():
        match = _RENUMBERED_FILE.match(entry.name)
        if match and match[2] in rule_history.SHORTCUT_RULE_SEQUENCE and entry.name not in own:
            out.append((match[1], match[2], entry.name))
    return sorted(out)


def _shipped(date: str, number: str, filename: str) -> Text:
    return Text(f"CR rule {number}, text of {date} ({_cited(filename)})", number, texts.document(filename).rules)


def _cited(filename: str) -> str:
    """A shipped text as a citation names it ("CR 2009-09-04, rule 713.3"), never by its file."""
    record = citation(filename)
    if record is None:
        return "a text shipped with a plugin"
    kind = "MTR" if "Tournament" in record.title else "CR" if "Comprehensive" in record.title else "Rules Summary"
    rule = record.rule.split(" \u201c")[0]
    return f"{kind} {record.effective}, {rule}"


def _family(rule_id: str) -> tuple[str, str]:
    """Which rule a subrule belongs to, and its place in it: ("shortcut", "3") for 713.3 and
    729.3 alike (one rule, renumbered), ("421", "3"), ("MTR", "") (paragraphs, aligned by text),
    ("", "G.21.1")."""
    head, _, tail = rule_id.partition(".")
    if rule_id.startswith("MTR"):
        return ("MTR", "")
    if head in rule_history.SHORTCUT_RULE_SEQUENCE and tail:
        return ("shortcut", tail)
    if head.isdigit() and tail:
        return (head, tail)
    return ("", rule_id)


def _masked(text: str, number: str) -> str:
    """A rule's text with its own rule number masked, so a renumbering is not a change."""
    return re.sub(rf"\b{re.escape(number)}(?=\.\d)", RULE_NUMBER, text) if number else text


def word_runs(old: str, new: str) -> tuple[tuple[str, str], ...]:
    """The word-level difference of two texts as (op, text) runs (``=``, ``-``, ``+``)."""
    a, b = textdiff.words(old), textdiff.words(new)
    runs: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            runs.append(("=", " ".join(a[i1:i2])))
            continue
        if op in ("delete", "replace"):
            runs.append(("-", " ".join(a[i1:i2])))
        if op in ("insert", "replace"):
            runs.append(("+", " ".join(b[j1:j2])))
    return tuple(runs)


def text_change(before: Text | None, after: Text | None) -> TextChange:
    """The loop rule's text from ``before`` to ``after``, subrule by subrule."""
    if after is None:
        return TextChange("not shipped", "No text of the new number is shipped with loopcompare, so the text was not compared.", before.label if before else "", "", (), (), ())
    if before is None:
        rules = tuple(RuleChange("added", None, k, (("+", t),)) for k, t in after.rules)
        return TextChange("new", "The first text of this line modelled: every rule is new.", "", after.label, rules, (), ())
    old_family = {_family(k)[0] for k, _ in before.rules}
    new_family = {_family(k)[0] for k, _ in after.rules}
    if old_family != new_family:
        removed = tuple(RuleChange("removed", k, None, ()) for k, _ in before.rules)
        added = tuple(RuleChange("added", None, k, (("+", t),)) for k, t in after.rules)
        sentence = f"The rule is replaced: {_span(before.rules)} give way to {_span(after.rules)}, a new text (old beside new below)."
        return TextChange("replaced", sentence, before.label, after.label, removed + added, (), ())
    pairs = _align(before, after)
    changes: list[RuleChange] = []
    renumbered: list[tuple[str, str]] = []
    unchanged: list[str] = []
    for old, new in pairs:
        if old is None or new is None:
            # (_align leaves one side empty, never both)
            if new is not None:
                changes.append(RuleChange("added", None, new[0], (("+", new[1]),)))
            elif old is not None:
                changes.append(RuleChange("removed", old[0], None, (("-", old[1]),)))
        elif _masked(old[1], before.number) != _masked(new[1], after.number):
            changes.append(RuleChange("changed", old[0], new[0], word_runs(old[1], new[1])))
        elif old[0] != new[0] and not old[0].startswith("MTR"):
            renumbered.append((old[0], new[0]))
        else:
            unchanged.append(new[0])
    if changes:
        counts = {s: sum(c.status == s for c in changes) for s in ("changed", "added", "removed")}
        parts = [f"{n} {s}" for s, n in counts.items() if n]
        sentence = f"{_count(len(pairs), 'rule')} compared: " + ", ".join(parts)
        if renumbered:
            sentence += f", {len(renumbered)} renumbered only"
        if unchanged:
            sentence += f", {len(unchanged)} unchanged"
        verdict = "changed"
    elif renumbered:
        verdict, sentence = "renumbered only", f"Renumbered only: rule {before.number} is rule {after.number}, word for word."
    else:
        verdict, sentence = "unchanged", "The text is unchanged."
    return TextChange(verdict, sentence + ("." if verdict == "changed" else ""), before.label, after.label, tuple(changes), tuple(renumbered), tuple(unchanged))


def _align(before: Text, after: Text) -> list[tuple[Rule | None, Rule | None]]:
    """Pairs (old, new) of rules, None where one side has none: numbered rules by their place in
    the rule, MTR paragraphs (unnumbered) by their text, in the new text's order."""
    if all(_family(k)[0] == "MTR" for k, _ in after.rules):
        a, b = list(before.rules), list(after.rules)
        out: list[tuple[Rule | None, Rule | None]] = []
        matcher = difflib.SequenceMatcher(None, [t for _, t in a], [t for _, t in b], autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            common = min(i2 - i1, j2 - j1) if op == "replace" else (i2 - i1 if op == "equal" else 0)
            out += [(a[i1 + k], b[j1 + k]) for k in range(common)]
            out += [(x, None) for x in a[i1 + common : i2]]
            out += [(None, y) for y in b[j1 + common : j2]]
        return out
    old = {_family(k): (k, t) for k, t in before.rules}
    new_places = {_family(k) for k, _ in after.rules}
    pairs: list[tuple[Rule | None, Rule | None]] = [(old.get(_family(k)), (k, t)) for k, t in after.rules]
    pairs += [(rule, None) for place, rule in old.items() if place not in new_places]
    return pairs


def _span(rules: Sequence[Rule]) -> str:
    ids = [k for k, _ in rules]
    return ids[0] if len(ids) == 1 else f"{ids[0]}\u2013{ids[-1]}"


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "es" if word.endswith("s") else "s")


#: Words of unchanged text kept on each side of a change when a report shows a changed rule
#: (the JSON keeps every word).
CONTEXT = 8


def shown_runs(change: RuleChange) -> tuple[tuple[str, str], ...]:
    """A changed rule's difference as reports show it: long unchanged stretches shortened to
    their first and last :data:`CONTEXT` words around "…"; added or removed text whole."""
    if change.status != "changed":
        return change.words
    out: list[tuple[str, str]] = []
    last = len(change.words) - 1
    for i, (op, text) in enumerate(change.words):
        words = text.split(" ")
        if op != "=" or len(words) <= 2 * CONTEXT + 2:
            out.append((op, text))
            continue
        head = words[:CONTEXT] if i > 0 else []
        tail = words[-CONTEXT:] if i < last else []
        out.append((op, " ".join(head + ["\u2026"] + tail)))
    return tuple(out)


# --- the silences --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """A note an era gives (names and small counts replaced), and on how many of the loops
    searched it gives it."""

    text: str
    loops: int


def _normalised(note: str, players: Sequence[str], actions: Sequence[str] = ()) -> str:
    """The note with the scenario's own words set aside: the text of its actions (a step's
    ``does``, a breaker's) as ⟨action⟩, player names as ⟨player⟩ (a list of them as ⟨players⟩)
    and small counts (iterations, steps, players: one or two digits standing alone) as N."""
    text = note
    for action in sorted((a for a in actions if len(a) >= 8), key=len, reverse=True):
        text = text.replace(action, ACTION)
    for name in sorted(players, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", PLAYER, text)
    text = re.sub(rf"{PLAYER}(?:(?:,| and|, and) {PLAYER})+", PLAYERS, text)
    text = re.sub(r"(?<![\w.,^\-])\d{1,2}(?![\w^\-]|[.,]\d)", "N", text)
    return re.sub(r"\bN (iteration|step|player)\b", r"N \1s", text)


def _era_free(text: str, ruleset: Ruleset) -> str:
    """The normalised note without what names its own era (the ruleset's name, the shortcut
    rule's number), so the same reading in two eras compares equal."""
    text = text.replace(ruleset.name, THIS_DOCUMENT)
    numbers = "|".join(sorted(set(rule_history.SHORTCUT_RULE_SEQUENCE), key=len, reverse=True))
    text = re.sub(rf"\b(?:{numbers})(?=\.\d)", RULE_NUMBER, text)
    return re.sub(rf"\b([Rr]ule) (?:{numbers})\b", rf"\1 {RULE_NUMBER}", text)


def readings(comparisons: Sequence[Comparison], ruleset: Ruleset) -> dict[str, Reading]:
    """Every distinct note ``ruleset`` gives over ``comparisons``, keyed by its era-free form."""
    texts: dict[str, str] = {}
    loops: dict[str, int] = {}
    for comparison in comparisons:
        outcome = comparison.outcomes.get(ruleset.key)
        if outcome is None:
            continue
        sc = comparison.scenario.scenario
        actions = [s.does for s in sc.steps] + [s.alternative for s in sc.steps if getattr(s, "alternative", "")]
        actions += [s.unless.does for s in sc.steps if s.unless] + [b.does for b in sc.breakers]
        seen_here: set[str] = set()
        for note in outcome.notes:
            text = _normalised(note, sc.players, actions)
            key = _era_free(text, ruleset)
            if key in seen_here:
                continue
            seen_here.add(key)
            texts.setdefault(key, text)  # (the first loop's wording stands for the reading)
            loops[key] = loops.get(key, 0) + 1
    return {key: Reading(text, loops[key]) for key, text in texts.items()}


def _sorted(found: Mapping[str, Reading], keys: Iterable[str]) -> tuple[Reading, ...]:
    return tuple(sorted((found[k] for k in keys), key=lambda r: (r.text, r.loops)))


# --- the model -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChangedClass:
    """A class of loops whose outcome differs between two consecutive eras."""

    number: int
    count: int
    sentence: str
    sides: tuple[tuple[str, tuple[str, ...]], ...]
    example: Comparison
    """The smallest example, settled under the two eras (earlier first)."""
    doc: dict[str, Any]
    """The example as a scenario document (``atlas.to_toml`` writes it as a file)."""


@dataclass(frozen=True)
class Entry:
    """One change of a line: a line's first text ("origin"), an amendment, or a renumbering."""

    kind: str
    anchor: str
    date: str
    """The first day the text applied, ``unknown`` where the sources don't say."""
    heading: str
    before: Ruleset | None
    after: Ruleset
    """The ruleset in force from that day (for a renumbering: the one whose text is renumbered)."""
    rules_before: str
    rules_after: str
    text: TextChange
    classes: tuple[ChangedClass, ...]
    changed: int
    """Loops of the atlas whose outcome differs between the two eras."""
    created: tuple[Reading, ...]
    closed: tuple[Reading, ...]

    @property
    def earlier(self) -> Ruleset:
        """The era this entry follows (:attr:`before`): every entry but a line's origin has one."""
        if self.before is None:
            raise ValueError(f"{self.heading}: a line's first text follows no earlier era")
        return self.before


@dataclass(frozen=True)
class LineHistory:
    """A line of descent and its changes, oldest first."""

    name: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class History:
    """The whole report: the lines, the one atlas run behind them, and what was searched."""

    lines: tuple[LineHistory, ...]
    atlas: atlases.Atlas
    noted: int
    """How many loops the notes were collected over (atlas examples and built-in scenarios)."""
    scenarios: tuple[str, ...]
    """The built-in scenarios among them."""


def build_atlas(rulesets: Sequence[Ruleset], **options: Any) -> atlases.Atlas:
    """The one atlas run a history needs: every era of every line, compared on :data:`FIELDS`."""
    return atlases.build(eras(rulesets), fields=FIELDS, **options)


def eras(rulesets: Sequence[Ruleset]) -> list[Ruleset]:
    """Every ruleset that belongs to a line of descent, line by line, oldest first."""
    return [r for line in rule_history.lines(rulesets) for r in line]


def build(rulesets: Sequence[Ruleset], atlas: atlases.Atlas, scenarios: Sequence[ScenarioFile] = ()) -> History:
    """The history of every line of ``rulesets``, from an atlas built over all of them
    (:func:`build_atlas`); ``scenarios`` (the built-in library) add to the loops whose notes are
    compared."""
    chosen = eras(rulesets)
    missing = [r.key for r in chosen if r.key not in {a.key for a in atlas.rulesets}]
    if missing:
        raise ValueError(f"the atlas was not run over {', '.join(missing)}")
    noted = list(atlas.example_comparisons) + [compare(sf, chosen) for sf in scenarios]
    found = {r.key: readings(noted, r) for r in chosen}
    lines = []
    for line in rule_history.lines(rulesets):
        lines.append(LineHistory(LINE_NAMES.get(line[0].key, f"Line of {line[0].name}"), tuple(_entries(line, rulesets, atlas, found))))
    return History(tuple(lines), atlas, len(noted), tuple(sf.id for sf in scenarios))


Found = Mapping[str, Mapping[str, Reading]]
"""Every era's readings (see :func:`readings`), by ruleset key."""


def _entries(line: list[Ruleset], rulesets: Sequence[Ruleset], atlas: atlases.Atlas, found: Found) -> list[Entry]:
    renumberings = _renumberings(line, rulesets)
    out: list[Entry] = []
    current: Text | None = None
    previous: Ruleset | None = None
    for ruleset in line:
        # The renumberings of the text in force come after it, in date order.
        text = own_text(ruleset)
        out.append(_amendment(previous, ruleset, current, text, atlas, found))
        current, previous = text, ruleset
        for date, old, new, shipped in renumberings.get(ruleset.key, ()):
            new_text = _shipped(*shipped) if shipped else None
            change = text_change(current, new_text)
            via = rule_history.numbering_on(_day_before(date)).between
            cause = next((n.cause for n in rule_history.RULE_NUMBERS if n.since == date and n.number == new), "")
            heading = f"{date}: rule {old} becomes rule {new}" + (f" (by way of {', '.join(via)}, undated)" if via else "") + (f": {cause}" if cause else "")
            out.append(Entry("renumbering", f"renumbering-{date}", date, heading, ruleset, ruleset, f"rule {old}", f"rule {new}", change, (), 0, (), ()))
            current = new_text or current
    return out


def _amendment(before: Ruleset | None, after: Ruleset, before_text: Text | None, text: Text, atlas: atlases.Atlas, found: Found) -> Entry:
    date = after.in_force[0]
    when = rule_history.start_in_words(after)
    ids = after.rule_ids
    rules_after = f"{ids[0]}\u2013{ids[-1]}" if len(ids) > 1 else (ids[0] if ids else "")
    if before is None:
        readings_here = found[after.key]
        heading = f"{when}: {after.name}, the first text of this line modelled"
        return Entry("origin", f"origin-{after.key}", date, heading, None, after, "", rules_after, text_change(None, text), (), 0, _sorted(readings_here, readings_here), ())
    pair = atlases.restrict(atlas, [_in(atlas, before), _in(atlas, after)])
    classes = tuple(
        ChangedClass(i, cls.count, atlases.sentence(pair, cls), tuple(atlases.sides(pair, cls, ex)), ex, cls.example)
        for i, (cls, ex) in enumerate(zip(pair.classes, pair.example_comparisons), 1)
    )
    ids = before.rule_ids
    rules_before = f"{ids[0]}\u2013{ids[-1]}" if len(ids) > 1 else (ids[0] if ids else "")
    old, new = found[before.key], found[after.key]
    created = _sorted(new, new.keys() - old.keys())
    closed = _sorted(old, old.keys() - new.keys())
    heading = f"{when}: {after.name} amends {before.name}"
    return Entry("amendment", f"amendment-{after.key}", date, heading, before, after, rules_before, rules_after, text_change(before_text, text), classes, sum(c.count for c in classes), created, closed)


def _in(atlas: atlases.Atlas, ruleset: Ruleset) -> Ruleset:
    return next(r for r in atlas.rulesets if r.key == ruleset.key)


Renumbering = tuple[str, str, str, "tuple[str, str, str] | None"]
"""(date, old number, new number, the shipped text of the new number as (date, number, file) or None)."""


def _renumberings(line: list[Ruleset], rulesets: Sequence[Ruleset]) -> dict[str, list[Renumbering]]:
    """Each dated number of the shortcut rule that is not a new text: (date, old number, new
    number, shipped text or None), under the ruleset in force that day."""
    numbers = list(rule_history.SHORTCUT_RULE_NUMBERS)
    shipped = shipped_texts(rulesets)
    out: dict[str, list[Renumbering]] = {}
    # Only a line whose own texts are the shortcut rule is renumbered with it (not the MTR).
    line = [r for r in line if own_text(r).number in rule_history.SHORTCUT_RULE_SEQUENCE]
    for (_, old), (date, new) in zip(numbers, numbers[1:]):
        ruleset = next((r for r in line if rule_history.in_force_on(r, date) is True), None)
        if ruleset is None or ruleset.in_force[0] == date:
            continue
        text = next((s for s in shipped if s[1] == new and s[0] >= date), None)
        out.setdefault(ruleset.key, []).append((date, old, new, text))
    return out


def _day_before(date: str) -> str:
    return (dt.date.fromisoformat(date) - dt.timedelta(days=1)).isoformat()


def _undated(old: str, new: str) -> list[str]:
    """The numbers the rule had between two dated ones (the sources date only some)."""
    sequence = list(rule_history.SHORTCUT_RULE_SEQUENCE)
    try:
        start = sequence.index(old)
        end = sequence.index(new, start + 1)
    except ValueError:
        return []
    return sequence[start + 1 : end]


# --- words shared by the renderers ---------------------------------------------------------------


def share(part: int, whole: int) -> str:
    """A share of the atlas space, formatted as the atlas formats it (one decimal from 1%, two
    significant digits below: a class of 2 loops is not "0.0%")."""
    return render_share(part, whole)


def searched(history: History) -> str:
    """What the atlas searched, in one sentence (said wherever no outcome changed)."""
    atlas = history.atlas
    players = ", ".join(str(n) for n, _, _ in atlas.by_players)
    compared = ", ".join(atlases.FIELD_WORDS[f] for f in atlas.fields)
    return (
        f"the {atlas.total:,} canonical small loops of the divergence atlas ({players} players; every subset of "
        f"players in every order; dependent or independent; a state that toggles or grows; intents never, 1 or 2; "
        f"with 2 or 3 players one feature each), compared on the result and {compared}"
    )


def intents(comparison: Comparison) -> str:
    """The example's intents in a few words ("Alice: never; Bob: 1")."""
    sc = comparison.scenario.scenario
    return "; ".join(f"{p}: {sc.intent(p).describe()}" for p in sc.players)


def settled(comparison: Comparison, ruleset: Ruleset) -> str:
    """One era's outcome of an example, with the rules it cites."""
    rules = comparison.outcomes[ruleset.key].rules
    return summary_cell(comparison, ruleset.key) + (f"; {', '.join(rules)}" if rules else "")


def in_force_words(ruleset: Ruleset) -> str:
    """A ruleset's period in force, in words, with the bounds the sources give where a day is unknown."""
    start, end = rule_history.start_in_words(ruleset), rule_history.end_in_words(ruleset)
    return f"in force since {start}" if end is None else f"in force from {start} to {end}"


# --- markdown ------------------------------------------------------------------------------------

Figure = Callable[[Comparison, str], "tuple[str, str] | None"]
"""A drawing of a class's smallest example: given the example settled under the section's two
eras (earlier first) and an id prefix unique on the page, the figure as (markdown, HTML), or None."""


def loop_figure(example: Comparison, id_prefix: str) -> tuple[str, str]:
    """The loop diagram of a smallest example (:mod:`.diagram`): its one cycle with the cut point
    of *each* of the two eras marked on it, so the reader sees where each stops the same loop; a
    Mermaid block for markdown (as ``compare --mermaid`` draws it) and inline SVG for HTML.

    The example is the comparison the table row shows (settled under the two eras only), so the
    marks name exactly the section's eras; an era that gives the loop no cut point (a draw) is
    listed under the drawing instead."""
    diagram = build_diagram(example)
    return "```mermaid\n" + mermaid(diagram) + "\n```", svg(diagram, id_prefix, legend=False)


def figure_id(e: Entry, c: ChangedClass) -> str:
    """The id prefix of a class's figure: unique on the page (one section per era, one class number in it)."""
    return f"{e.anchor}-class-{c.number}"


def _md_runs(runs: Iterable[tuple[str, str]]) -> str:
    out = []
    for op, text in runs:
        # <del> and <ins>: GitHub renders them (struck through, underlined); the words are escaped
        if not text:
            continue
        out.append(md(text) if op == "=" else f"<del>{md(text)}</del>" if op == "-" else f"<ins>{md(text)}</ins>")
    return " ".join(out)


@dataclass(frozen=True)
class SummaryRow:
    """One change in the table at the head of the history: enough to tell the whole story."""

    date: str
    anchor: str
    document: str
    rules: str
    practice: str
    loops: str
    readings: str


def summary(history: History) -> list[tuple[str, list[SummaryRow]]]:
    """The table at the head of the history: per line, one row per change (date, document, rule
    numbers, what changed in practice in one sentence, loops and classes changed with their
    share, readings created and closed, the anchor of its section)."""
    total = history.atlas.total
    out = []
    for line in history.lines:
        rows = []
        for e in line.entries:
            if e.kind == "renumbering":
                cause = next((n.cause for n in rule_history.RULE_NUMBERS if n.since == e.date and f"rule {n.number}" == e.rules_after), "")
                practice = f"Renumbered ({cause})." if cause else "Renumbered."
                rows.append(SummaryRow(e.date, e.anchor, "the same text", f"{e.rules_before.removeprefix('rule ')} \u2192 {e.rules_after.removeprefix('rule ')}", practice, "none", "\u2014"))
                continue
            rules = f"{e.rules_before} \u2192 {e.rules_after}" if e.rules_before else e.rules_after
            practice = e.after.summary or e.text.sentence
            if e.kind == "origin":
                loops, found = "\u2014 (first text)", f"{len(e.created)} taken"
            else:
                loops = f"{e.changed:,} ({share(e.changed, total)}) in {_count(len(e.classes), 'class')}" if e.classes else "none"
                found = f"+{len(e.created)} / \u2212{len(e.closed)}"
            when = e.date if e.date[:1].isdigit() and e.date != rule_history.UNKNOWN else rule_history.start_in_words(e.after)
            rows.append(SummaryRow(when, e.anchor, e.after.name, rules, practice, loops, found))
        out.append((line.name, rows))
    return out


SUMMARY_HEADERS = ["Date", "Document", "Rules", "What changed in practice", "Loops changed (share)", "Readings + / \u2212"]

LEGEND = (
    "Each drawing: one iteration of the class's smallest example drawn as a cycle; dashed boxes are optional "
    "steps (their controller may stop), solid ones mandatory; each mark on the line names the era that cuts the loop "
    "there (complete iterations + steps into the next, with who deviates); an era that gives no cut point is "
    "listed under the drawing."
)


def drawn(example: Comparison) -> bool:
    """Whether a class's drawing shows something: a cut point of at least one era (a class where
    neither era cuts the loop is said in its row, not drawn)."""
    return bool(build_diagram(example).cuts)


def side_by_side(e: Entry) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]] | None:
    """For a rule replaced whole: (old subrules, new subrules), each (id, text), to print old
    beside new (None for any other change)."""
    if e.text.verdict != "replaced" or e.before is None:
        return None
    return own_text(e.earlier).rules, own_text(e.after).rules


def markdown(history: History, figure: Figure | None = loop_figure) -> str:
    """The history as GitHub-flavoured markdown, each smallest example drawn by ``figure``
    (a Mermaid block by default; None draws nothing)."""
    out = ["# The history of the loop rules, amendment by amendment\n"]
    out.append(md(_method(history)) + "\n")
    out.append("## At a glance\n")
    out.append(
        "Every change of each line of descent, in date order: what it changed in practice, how many of the "
        f"{history.atlas.total:,} loops searched it settles differently, and the readings of silent text it "
        "created and closed. Each date links to its section; follow one subrule through every text with "
        "the command loopcompare rulesets --trace 729.4.\n"
    )
    for name, changes in summary(history):
        out.append(f"{md(name)}:\n")
        table = [[Raw(f"[{md(r.date)}](#{r.anchor})"), r.document, r.rules, r.practice, r.loops, r.readings] for r in changes]
        out.append(md_table(SUMMARY_HEADERS, table) + "\n")
    for line in history.lines:
        out.append(f"## {md(line.name)}\n")
        for e in line.entries:
            out.append(f'<a id="{e.anchor}"></a>\n')
            out.append(f"### {md(e.heading)}\n")
            out.append(_md_facts(e) + "\n")
            out.append("#### The text\n")
            out.append(md(e.text.sentence) + (f" Compared: {md(e.text.before)} \u2192 {md(e.text.after)}." if e.text.before and e.text.after else "") + "\n")
            pair = side_by_side(e)
            if pair is not None:
                # A table of one row, written by hand: a padded table would pad its header to the text's length.
                cells = ["<br><br>".join(f"**{md(k)}** {md(t)}" for k, t in rules) for rules in pair]
                out.append(f"| {md(e.earlier.name)} (old) | {md(e.after.name)} (new) |\n|:--|:--|\n| {cells[0]} | {cells[1]} |\n")
            else:
                for change in e.text.rules:
                    rule, status = _rule_label(change)
                    body = _md_runs(shown_runs(change))
                    out.append(f"- **{md(rule)}** {md(status)}" + (f": {body}" if body else ""))
                if e.text.rules:
                    out.append("")
            if e.text.renumbered:
                out.append("Renumbered only: " + ", ".join(f"{md(a)} \u2192 {md(b)}" for a, b in e.text.renumbered) + ".\n")
            if e.kind == "renumbering":
                out.append(md(_same_rules(e)) + "\n")
                continue
            if e.kind == "amendment":
                out.append("#### What changed in practice\n")
                out.append(md(_practice(history, e)) + "\n")
                if e.classes:
                    rows = []
                    for c in e.classes:
                        example = f"{c.example.scenario.scenario.title}; intents: {intents(c.example)}"
                        rows.append([str(c.number), c.sentence, f"{c.count:,}", share(c.count, history.atlas.total), example, settled(c.example, e.earlier), settled(c.example, e.after)])
                    headers = ["Class", "What changes", "Loops", "Share", "Smallest example", e.earlier.name, e.after.name]
                    out.append(md_table(headers, rows) + "\n")
                    pictures = []
                    if figure:
                        for c in e.classes:
                            picture = figure(c.example, figure_id(e, c)) if drawn(c.example) else None
                            if picture:
                                pictures.append(f"Class {c.number}:\n\n{Raw(picture[0])}\n")
                    if pictures:
                        out.append(f"<details><summary>The smallest example of each class, drawn ({len(pictures)})</summary>\n")
                        out.append(md(LEGEND) + "\n")
                        out += pictures
                        out.append("</details>\n")
            out.append("#### Silences: the readings it created and closed\n" if e.kind == "amendment" else "#### Silences: the readings taken for this text\n")
            out += _md_readings(e)
    return finish("\n".join(out))


def _md_facts(e: Entry) -> str:
    """The section's facts in markdown, the text applied cited with its links."""
    words = md(_facts(e))
    cited = _citations_md(e.after)
    return words + (f" Cited: {cited}" if cited and e.kind != "renumbering" else "")


def _citations_md(ruleset: Ruleset) -> str:
    records = [citation(s.filename) for s in ruleset.sources if not s.prefix]
    return " ".join(r.markdown() for r in records if r is not None)


def _citations_html(ruleset: Ruleset) -> str:
    records = [citation(s.filename) for s in ruleset.sources if not s.prefix]
    return " ".join(r.html() for r in records if r is not None)


def _md_readings(e: Entry) -> list[str]:
    out = []
    if e.kind == "origin":
        groups = [(f"Notes {e.after.name} gives over the loops searched:", e.created)]
    else:
        groups = [
            (f"Created (notes {e.after.name} gives and {e.earlier.name} never gives):", e.created),
            (f"Closed (notes {e.earlier.name} gives and {e.after.name} never gives):", e.closed),
        ]
    for title, found in groups:
        out.append(f"{md(title)}\n")
        if found:
            out.append("\n".join(f"- {md(r.text)} ({_count(r.loops, 'loop')})" for r in found) + "\n")
        else:
            out.append("None.\n")
    return out


def _rule_label(change: RuleChange) -> tuple[str, str]:
    """A changed rule's id as numbered after the change, and what happened to it in words."""
    if change.status == "changed":
        return change.after or "", "(changed)" if change.before == change.after else f"(changed; was {change.before})"
    return change.after or change.before or "", f"({change.status})"


def _facts(e: Entry) -> str:
    r = e.after
    if e.kind == "renumbering":
        return f"The text of {r.name} ({r.document}), renumbered: {e.rules_before} becomes {e.rules_after}."
    text = f"text of {r.effective}" if r.effective[:1].isdigit() else f"{r.effective} text"
    head = f"{r.document}, {text}; {in_force_words(r)}. Source: {r.citation}."
    rules = f" Rules: {e.rules_before} \u2192 {e.rules_after}." if e.before else f" Rules: {e.rules_after}."
    summary = f" The ruleset's own summary: {r.summary}" if r.summary else ""
    return head + rules + summary


def _same_rules(e: Entry) -> str:
    return f"loopcompare applies {e.after.name} ({e.after.key}) on both sides of {e.date}: no outcome can change here."


def _practice(history: History, e: Entry) -> str:
    total = history.atlas.total
    if not e.classes:
        return f"No outcome changed: {e.earlier.name} and {e.after.name} settle every one of {searched(history)}, alike."
    return (
        f"The outcome differs in {e.changed:,} of the {total:,} loops searched ({share(e.changed, total)}), in "
        f"{_count(len(e.classes), 'class')}, largest first. Each row: the class, its size and share of the space, "
        f"and its smallest example (fewest players, then fewest steps) settled under both."
    )


def _method(history: History) -> str:
    atlas = history.atlas
    names = ", ".join(r.name for r in atlas.rulesets)
    library = f" and the {len(history.scenarios)} built-in scenarios" if history.scenarios else ""
    return (
        f"One section per change of each line of descent, in date order. The text: the loop rule's subrules aligned "
        f"across the two versions by their number within the rule (so a renumbering alone is not a change; rule 421 "
        f"replaced by rule 713 is), each changed one as a word-level difference (removed words struck through, added ones underlined); a rule replaced whole is shown old beside new. In practice: "
        f"one run of the divergence atlas over {names} searched {searched(history)}; for each pair of consecutive eras "
        f"that run is projected onto the two (the classes of loops they settle differently, with counts). Silences: "
        f"every note (a reading of a silent or ambiguous text) each era gives over {history.noted:,} loops (the smallest "
        f"example of each of the atlas's {len(atlas.classes):,} classes{library}), with player names replaced by "
        f"{PLAYER}, the text of its actions by {ACTION} and small counts by N; a note counts as the same in two eras when it is, but for the era's own name "
        f"and the shortcut rule's number. Created: notes the later era gives and the earlier never does; closed: the "
        f"other way round."
    )


# --- HTML and JSON -------------------------------------------------------------------------------


def html(history: History, figure: Figure | None = loop_figure) -> str:
    """The history as one self-contained HTML page, each smallest example drawn by ``figure``
    (inline SVG by default; None draws nothing)."""
    figures = {}
    if figure:
        for line in history.lines:
            for e in line.entries:
                for c in e.classes:
                    picture = figure(c.example, figure_id(e, c)) if drawn(c.example) else None
                    if picture:
                        figures[(e.anchor, c.number)] = picture[1]
    return page(
        "amendments.html.j2",
        title="The history of the loop rules, amendment by amendment",
        history=history,
        method=_method(history),
        facts=_facts,
        practice=lambda e: _practice(history, e),
        same_rules=_same_rules,
        rule_label=_rule_label,
        shown_runs=shown_runs,
        settled=settled,
        intents=intents,
        share=lambda n: share(n, history.atlas.total),
        figures=figures,
        figures_here=lambda e: any((e.anchor, c.number) in figures for c in e.classes),
        legend=LEGEND,
        summary=summary(history),
        summary_headers=SUMMARY_HEADERS,
        side_by_side=side_by_side,
        cited=_citations_html,
    )


def to_json(history: History, made: Stamp | None = None) -> str:
    """The history as JSON (``loopcompare/history/1``), with ``made`` under ``"stamp"``."""
    total = history.atlas.total
    lines: list[dict[str, Any]] = []
    for line in history.lines:
        entries: list[dict[str, Any]] = []
        for e in line.entries:
            entry: dict[str, Any] = {
                "kind": e.kind,
                "date": e.date,
                "heading": e.heading,
                "before": e.before.key if e.before else None,
                "after": e.after.key,
                "rules_before": e.rules_before or None,
                "rules_after": e.rules_after,
                "text": {
                    "verdict": e.text.verdict,
                    "sentence": e.text.sentence,
                    "compared": [e.text.before or None, e.text.after or None],
                    "rules": [{"status": c.status, "before": c.before, "after": c.after, "words": [list(w) for w in c.words]} for c in e.text.rules],
                    "renumbered": [list(p) for p in e.text.renumbered],
                    "unchanged": list(e.text.unchanged),
                },
            }
            if e.kind == "amendment":
                entry["outcomes"] = {
                    "changed": e.changed,
                    "share": share(e.changed, total),
                    "classes": [
                        {
                            "class": c.number,
                            "count": c.count,
                            "share": share(c.count, total),
                            "sentence": c.sentence,
                            "sides": [{"rulesets": side, "rules": list(rules)} for side, rules in c.sides],
                            "example": {"toml": atlases.to_toml(c.doc), "outcomes": {r.key: c.example.outcomes[r.key].to_json() for r in c.example.rulesets}},
                        }
                        for c in e.classes
                    ],
                }
            if e.kind != "renumbering":
                readings_here: dict[str, Any] = {
                    "created" if e.kind == "amendment" else "taken": [{"note": r.text, "loops": r.loops} for r in e.created],
                }
                entry["readings"] = readings_here
                if e.kind == "amendment":
                    readings_here["closed"] = [{"note": r.text, "loops": r.loops} for r in e.closed]
            entries.append(entry)
        lines.append({"name": line.name, "entries": entries})
    atlas = history.atlas
    doc: dict[str, Any] = {
        "format": "loopcompare/history/1",
        "method": _method(history),
        "searched": {
            "loops": total,
            "rulesets": [r.key for r in atlas.rulesets],
            "compared": ["result", *atlas.fields],
            "by_players": [{"players": n, "total": t} for n, t, _ in atlas.by_players],
            "noted": history.noted,
            "scenarios": list(history.scenarios),
        },
        "lines": lines,
    }
    if made is not None:
        doc["stamp"] = made.json()
    return json_document(doc)  # (every JSON document passes there: control characters as \u escapes)


def render(history: History, fmt: str, figure: Figure | None = loop_figure, command: str | None = None) -> str:
    """The history in one format: ``md``, ``html`` or ``json``.

    ``figure`` draws each class's smallest example (:func:`loop_figure` by default: the loop with
    both eras' cut points; None draws nothing).  The JSON carries no drawing: each example's
    outcomes there already give every era's cut point (iterations, steps, who deviates)."""
    made = stamp.of(command or stamp.command("loopcompare", "history", "-f", fmt))
    if fmt == "json":
        return to_json(history, made)
    text = markdown(history, figure) if fmt == "md" else html(history, figure)
    return document(text, fmt, made)
