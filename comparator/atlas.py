"""The divergence atlas: every way the eras disagree, found by enumerating small loops.

The space is enumerated canonically (the active player is always the first player, so no two
scenarios differ only by renaming players), settled under each ruleset, and grouped by the
*pattern* of disagreement: which rulesets agree with which on the result, who deviates, who has
the last word, the final state and the number of iterations.  Each class keeps its count and its
smallest example (fewest players, then fewest steps, then enumeration order), so memory stays
flat however large the space: outcomes are streamed, never collected.

How the space is bounded (docs/ATLAS.md repeats this):

* 2 to 4 players, in turn order, the first one active;
* any subset of players controls one optional step each, in every order; with two or more, the
  loop is dependent or independent; the state toggles (a shared flag: it repeats) or grows (a
  counter: it never repeats);
* each player's intent is "never", 1 or 2 (so lower, equal and higher all occur);
* with 2 or 3 players, at most one feature is added: an "unless" step (any payer), a breaker
  (any holder), a loop that ends by itself after two iterations, a random or a conditional
  step, a loop across turns (with or without a meaningful change), a restart, or a hidden
  choice; 4-player loops have no features.

That is the ``format1`` space (42,327 loops; the gallery's).  The ``full`` space (137,603 loops)
adds, as format 2 scenarios, the features docs/DOMAIN.md section 6 says change outcomes between
eras, one at a time: an event that may end the loop (``ends_loop``), a choice in a mandatory step
(``choice`` + ``alternative``, each holder), a side benefit (``sustains = false``, each holder), a
mandatory cost with a floor that stops the loop by requirement, and a loop within one resolution,
with or without a chooser (each holder).  The held ones are enumerated for 2 and 3 players, the
others and the choice in a mandatory step for 2 to 4.  In format 2 an intent for a player with
no point to deviate is an error, so there intents range over the players who have one.

Workers enumerate their own slices of the space (only bounds cross the process boundary), parse
each shape once and swap in the intents, so the multi-process path is faster than one process.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import os
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, NoReturn, Sequence

from loopcompare.rulesets import Ruleset
from loopcompare.rulesets.scenario import Intent

from .compare import Comparison, compare, plugin_budget, plugin_time_limit, set_plugin_budget, set_plugin_time_limit
from .loader import ScenarioFile, parse_document

if TYPE_CHECKING:
    from types import FrameType

    #: What :func:`_hold_signals` changed: SIGINT's handler before, and the signal mask before
    #: (None where the platform has none).
    _Held = tuple[Callable[[int, FrameType | None], Any] | int | None, set[int | signal.Signals] | None]

#: A generated scenario as a parsed TOML document, the loader's input: its values are strings,
#: numbers, booleans, lists and tables, nested as docs/FORMAT.md says.
Document = dict[str, Any]
#: A pattern of disagreement (:func:`signature`): the results in ruleset order, then one partition
#: per compared field (a group id per ruleset, -1 where the field does not apply).
Signature = tuple[tuple[str, ...], *tuple[tuple[int, ...], ...]]

PLAYERS = ("Alice", "Bob", "Carol", "Dana")
INTENTS = ("never", 1, 2)
FEATURES_UP_TO = 3  # players; 4-player loops are enumerated without features
FIELDS = ("deviates", "last_action", "state", "iterations")
FIELD_WORDS = {
    "deviates": "who deviates",
    "last_action": "who has the last word",
    "state": "the final state",
    "iterations": "the number of iterations",
    "judge": "whether a judge may be needed",
}
#: Fields compared whatever the result (the others only between rulesets that cut the loop).
WHATEVER_THE_RESULT = ("judge",)


# --- the space ----------------------------------------------------------------------------------


def _feature_variants(n: int, k: int) -> list[tuple[str, str | None]]:
    players = PLAYERS[:n]
    out: list[tuple[str, str | None]] = [("plain", None)]
    if n > FEATURES_UP_TO:
        return out
    out += [("unless", p) for p in players]
    out += [("breaker", p) for p in players]
    out += [("ends", None), ("random", None), ("conditional", None), ("across_turns", None), ("across_turns_changing", None), ("restart", None)]
    if k:
        out.append(("hidden_choice", None))
    return out


#: The spaces an atlas can enumerate: ``format1`` (the original space, the gallery's) and ``full``
#: (format 1's, plus the format 2 dimensions that change outcomes between eras).
SPACES = ("format1", "full")
#: Format 2 features whose holder is a player (one variant per seat) and those without one.
FORMAT2_HELD = ("choice", "side_benefit", "resolution_choice")
FORMAT2_PLAIN = ("event", "requirement", "resolution")
#: The format 2 features also enumerated with 4 players: the unheld ones, and the choice in a
#: mandatory step (the outcome change between the two MTR texts, which multiplayer games show most).
FORMAT2_WITH_FOUR = FORMAT2_PLAIN + ("choice",)


def _format2_variants(n: int, k: int) -> list[tuple[str, str | None]]:
    """docs/DOMAIN.md section 6: the format 2 features that change outcomes between eras."""
    players = PLAYERS[:n]
    out: list[tuple[str, str | None]] = [(f, None) for f in FORMAT2_PLAIN]
    for feature in FORMAT2_HELD:
        if n <= FEATURES_UP_TO or feature in FORMAT2_WITH_FOUR:
            out += [(feature, p) for p in players]
    return out


def _shape(n: int, order: tuple[str, ...], independent: bool, grows: bool, feature: str, who: str | None) -> Document:
    """One loop without intents, as a scenario document (format 2 when the feature is)."""
    players = list(PLAYERS[:n])
    state: Document = {"count": 0} if grows else {"flag": False}
    steps: list[Document] = []
    for i, p in enumerate(order):
        step: Document = {"by": p, "does": f"{p}'s optional action", "optional": True}
        if grows:
            step["add"] = {"count": 1}
        else:
            step["set"] = {"flag": i % 2 == 0}
        steps.append(step)
    if not order:
        steps.append({"by": players[0], "does": "a trigger that triggers itself again", "set": {"flag": True}})
    doc: Document = {"title": "", "players": players, "state": state, "step": steps}
    loop: Document = {}
    if independent:
        loop["independent"] = True
    if feature == "unless":
        trigger: Document = {"by": players[0], "does": "a trigger", "unless": {"by": who, "does": "pays {1}"}}
        if order:
            steps.append(trigger)
        else:
            steps[0]["unless"] = trigger["unless"]
    elif feature == "breaker":
        doc["breaker"] = [{"by": who, "does": "destroys a permanent of the loop"}]
    elif feature == "ends":
        state["life"] = 2
        drain: Document = {"by": players[0], "does": "a trigger: lose 1 life", "add": {"life": -1}}
        if order:
            steps.append(drain)
        else:
            steps[0]["add"] = {"life": -1}
        loop["ends_when"] = {"value": "life", "at_most": 0}
    elif feature in ("random", "conditional"):
        steps[0][feature] = True
    elif feature == "across_turns":
        loop["spans_turns"] = True
    elif feature == "across_turns_changing":
        loop["spans_turns"] = True
        loop["meaningful_change"] = True
    elif feature == "restart":
        loop["shortcut_before"] = True
    elif feature == "hidden_choice":
        steps[0]["choice"] = True
        steps[0]["hidden"] = True
    elif feature == "event":
        # An event that may end the loop (CR 421: shortcut with ends_early_if; CR 2009+: no
        # shortcut, "can't include conditional actions"; MTR: non-deterministic).
        steps.append({"by": players[0], "does": "a trigger: flip a coin", "random": True, "ends_loop": {"when": f"{players[0]} loses a flip", "chance": "1/2"}})
    elif feature == "choice":
        # A mandatory step whose controller could choose otherwise (mtr-2018: only a way out).
        steps.append({"by": who, "does": f"{who} chooses a card to discard", "choice": True, "alternative": "discards another card"})
    elif feature == "side_benefit":
        # An optional step that doesn't keep the loop going: it never makes its controller involved.
        state["gain"] = 0
        steps.append({"by": who, "does": f"{who} may gain 1 life", "optional": True, "sustains": False, "add": {"gain": 1}})
    elif feature == "requirement":
        # A mandatory cost with a floor: the loop stops by requirement after two iterations.
        state["mana"] = {"start": 2, "min": 0}
        steps.append({"by": players[0], "does": "pays {1}", "requires": {"mana": 1}, "add": {"mana": -1}})
    elif feature == "resolution":
        loop["within"] = "resolution"
    elif feature == "resolution_choice":
        loop["within"] = "resolution"
        steps.append({"by": who, "does": f"{who} chooses to repeat this process", "choice": True, "alternative": "stops repeating"})
    if feature in FORMAT2_HELD or feature in FORMAT2_PLAIN:
        doc = {"format": 2, **doc}
    if loop:
        doc["loop"] = loop
    doc["title"] = describe_shape(n, order, independent, grows, feature, who)
    return doc


def describe_shape(n: int, order: Sequence[str], independent: bool, grows: bool, feature: str, who: str | None) -> str:
    """A title for a generated loop, in words."""
    if order:
        kind = "independent" if independent and len(order) > 1 else "dependent" if len(order) > 1 else "one-player"
        text = f"{n} players; {kind} loop of {', '.join(order)}; the state {'grows' if grows else 'toggles'}"
    else:
        text = f"{n} players; a mandatory loop"
    extra = {
        "plain": "",
        "unless": f"; an 'unless' cost {who} may pay",
        "breaker": f"; {who} holds a breaker",
        "ends": "; it ends by itself after 2 iterations",
        "random": "; a random step",
        "conditional": "; a conditional step",
        "across_turns": "; across turns",
        "across_turns_changing": "; across turns, with a meaningful change",
        "restart": "; restarted",
        "hidden_choice": "; a hidden choice",
        "event": "; an event may end it",
        "choice": f"; {who} makes a choice in a mandatory step",
        "side_benefit": f"; {who} has a side benefit",
        "requirement": "; a cost stops it after 2 iterations",
        "resolution": "; within one resolution",
        "resolution_choice": f"; within one resolution, {who}'s choice repeats it",
    }[feature]
    return text + extra


#: The kinds of loop the heat map splits the space into: a loop with a feature is of that
#: feature's kind, a loop without one of its structure's.  (key, words), in display order.
KINDS = (
    ("mandatory", "mandatory (nobody involved)"),
    ("one", "one player involved"),
    ("dependent", "several, dependent"),
    ("independent", "several, independent"),
    ("unless", "an 'unless' cost"),
    ("breaker", "a breaker"),
    ("ends", "ends by itself"),
    ("random", "a random step"),
    ("conditional", "a conditional step"),
    ("across_turns", "across turns"),
    ("across_turns_changing", "across turns, changing"),
    ("restart", "restarted"),
    ("hidden_choice", "a hidden choice"),
)


def kind(doc: Document) -> str:
    """The kind of a generated loop (a key of :data:`KINDS`), read back from its document."""
    steps, loop = doc["step"], doc.get("loop", {})
    for feature in ("random", "conditional"):
        if any(s.get(feature) for s in steps):
            return feature
    if any(s.get("hidden") for s in steps):
        return "hidden_choice"
    if any("unless" in s for s in steps):
        return "unless"
    if doc.get("breaker"):
        return "breaker"
    if "ends_when" in loop:
        return "ends"
    if loop.get("spans_turns"):
        return "across_turns_changing" if loop.get("meaningful_change") else "across_turns"
    if loop.get("shortcut_before"):
        return "restart"
    involved = sum(1 for s in steps if s.get("optional"))
    if involved == 0:
        return "mandatory"
    if involved == 1:
        return "one"
    return "independent" if loop.get("independent") else "dependent"


def shapes(max_players: int = 4, space: str = "format1") -> list[Document]:
    """Every loop shape (without intents) of a space (:data:`SPACES`), smallest first: by
    players, then steps.  The ``full`` space is ``format1``'s shapes followed, within each size,
    by the format 2 ones, so the format 1 shapes keep their relative order."""
    return [dict(s) for s in _shapes(max_players, space)]


@functools.lru_cache(maxsize=4)
def _shapes(max_players: int, space: str) -> tuple[Document, ...]:
    if space not in SPACES:
        raise ValueError(f"unknown atlas space {space!r} (one of {', '.join(SPACES)})")
    out: list[Document] = []
    for n in range(2, max_players + 1):
        players = PLAYERS[:n]
        for k in range(0, n + 1):
            for involved in itertools.combinations(players, k):
                for order in itertools.permutations(involved):
                    for independent in ((False, True) if k > 1 else (False,)):
                        for grows in ((False, True) if k else (False,)):
                            variants = _feature_variants(n, k)
                            if space == "full":
                                variants = variants + _format2_variants(n, k)
                            for feature, who in variants:
                                out.append(_shape(n, order, independent, grows, feature, who))
    # Stable sort: fewest players, then fewest steps, then generation order.
    return tuple(sorted(out, key=lambda d: (len(d["players"]), len(d["step"]))))


def deviators(shape: Document) -> tuple[str, ...]:
    """The players a shape's intents range over, in turn order.  Format 1: every player (an intent
    for a player with no point to deviate is only a warning there, and the space has always held
    them).  Format 2 makes such an intent an error (FORMAT item 7), so only the players with a
    point to deviate: a sustaining optional step, a choice, an "unless" they can pay, a breaker."""
    if shape.get("format", 1) == 1:
        return tuple(shape["players"])
    within = shape.get("loop", {}).get("within") == "resolution"
    able: set[str] = set()
    for step in shape["step"]:
        if (step.get("optional") and (step.get("sustains", True) or within)) or step.get("choice"):
            able.add(step["by"])
        if "unless" in step and step["unless"]["by"] != step["by"]:
            able.add(step["unless"]["by"])
    able.update(b["by"] for b in shape.get("breaker", []))
    return tuple(p for p in shape["players"] if p in able)


def with_intents(shape: Document) -> Iterator[Document]:
    """The shape with every combination of intents, in a fixed order."""
    for intents in _intent_tables(shape):
        doc = dict(shape)
        if intents:
            doc["intent"] = intents
        yield doc


def _intent_tables(shape: Document) -> Iterator[dict[str, int]]:
    players = deviators(shape)
    for values in itertools.product(INTENTS, repeat=len(players)):
        yield {p: v for p, v in zip(players, values) if isinstance(v, int)}  # "never" is no entry


def _loops(shape: Document) -> int:
    loops: int = len(INTENTS) ** len(deviators(shape))  # int ** int is typed Any (a negative power is a float)
    return loops


def size(max_players: int = 4, space: str = "format1") -> int:
    """How many scenarios the space holds."""
    return sum(_loops(s) for s in _shapes(max_players, space))


# --- classes ------------------------------------------------------------------------------------


#: Results with a cut, whose fields can be compared; the others (draw, no_shortcut, no_restart,
#: unspecified) have no deviator, last word or iteration count to compare.
_WITH_CUT = ("shortcut", "ends")


_OWN_KEY = frozenset({str, int, bool, type(None)})


def _partition(values: Sequence[object], applies: Sequence[bool]) -> tuple[int, ...]:
    """Group ids by first occurrence among the rulesets the field applies to, -1 for the others:
    (a, b, a) -> (0, 1, 0)."""
    seen: dict[object, int] = {}
    out: list[int] = []
    for v, ok in zip(values, applies):
        if not ok:
            out.append(-1)
            continue
        # Values are equal when their reprs are; a string, number, bool or None is its own key
        # (with its type, so that True and 1 stay apart as their reprs do), the rest their repr.
        key: object = (type(v), v) if type(v) in _OWN_KEY else repr(v)
        if key not in seen:
            seen[key] = len(seen)
        out.append(seen[key])
    return tuple(out)


def signature(comparison: Comparison, fields: Sequence[str] = FIELDS) -> Signature:
    """What a reader cares about, role-free: the results, and which of the rulesets that cut the
    loop agree with which on who deviates, the last word, the final state and the iterations
    (``fields``; a field of :data:`WHATEVER_THE_RESULT` is compared between all rulesets)."""
    keys = [r.key for r in comparison.rulesets]
    results = tuple(comparison.outcomes[k].result.value for k in keys)
    cut = [r in _WITH_CUT for r in results]
    everyone = [True] * len(results)
    parts = tuple(
        _partition([comparison.outcomes[k].value(f) for k in keys], everyone if f in WHATEVER_THE_RESULT else cut)
        for f in fields
    )
    return (results, *parts)


def agrees(sig: Signature) -> bool:
    """True when every ruleset gives the same outcome in the reduced sense."""
    results, *parts = sig
    return len(set(results)) == 1 and all(max(p) <= 0 for p in parts)


@dataclass
class Class:
    """A pattern of disagreement: its size and smallest example."""

    signature: Signature
    count: int = 0
    first: int = -1
    example: Document = field(default_factory=dict)
    players: tuple[tuple[int, int], ...] = ()
    """(number of players, loops of the class with that many players), so that a sub-atlas of
    some of the rulesets (:func:`restrict`) can count its own agreement by players."""
    kinds: tuple[tuple[str, int, int], ...] = ()
    """(kind of loop, loops of the class of that kind, the first of them in enumeration order),
    from which the heat map is made, for an atlas and for any restriction of it."""


@dataclass
class _Tally:
    """A class's figures as they are gathered: its loops, the first one's index and document,
    its loops by number of players, and by kind of loop (kind -> [loops, first index])."""

    count: int
    first: int
    example: Document
    players: dict[int, int]
    kinds: dict[str, list[int]]


#: A worker's task: (rulesets, fields, space, max_players, first shape, shape past the last,
#: the index of the first loop).
_Task = tuple[tuple[Ruleset, ...], tuple[str, ...], str, int, int, int, int]
#: A worker's result: per-class tallies, pairwise disagreements (as in :func:`_count_pairs`), by
#: players (players -> [loops, loops where every ruleset agrees]), shapes done, loops by kind.
_Part = tuple[dict[Signature, _Tally], list[int], dict[int, list[int]], int, dict[str, int]]


def _settle_range(args: _Task) -> _Part:
    """Worker: settle every scenario of the shapes ``start:stop`` of a space, which the worker
    enumerates itself (nothing but the bounds crosses the process boundary); per-class counts and
    smallest examples, pairwise disagreements, and tallies by players.

    Each shape is validated once by the loader; its scenarios differ only in their intents, which
    are swapped into the parsed scenario (the loader's own :class:`Intent` for a whole number), so
    no loop is parsed again.  A test checks this gives the scenario the loader gives.
    """
    rulesets, fields, space, max_players, start, stop, offset = args
    all_shapes = _shapes(max_players, space)
    classes: dict[Signature, _Tally] = {}
    pairs = [0] * (len(rulesets) * len(rulesets))
    by_players: dict[int, list[int]] = {}
    by_kind: dict[str, int] = {}
    pairs_of: dict[Signature, list[int]] = {}  # a few hundred signatures for thousands of loops
    for shape in all_shapes[start:stop]:
        n = len(shape["players"])
        tally = by_players.setdefault(n, [0, 0])
        shape_kind = kind(shape)
        parsed = parse_document(shape, "atlas.toml", "atlas")
        for table in _intent_tables(shape):
            intents = {p: Intent(v) for p, v in table.items()}
            sf = dataclasses.replace(parsed, scenario=parsed.scenario.with_intents(intents))
            sig = signature(compare(sf, rulesets), fields)
            tally[0] += 1
            tally[1] += agrees(sig)
            by_kind[shape_kind] = by_kind.get(shape_kind, 0) + 1
            entry = classes.get(sig)
            if entry is None:
                doc = dict(shape)
                if table:
                    doc["intent"] = table
                entry = classes[sig] = _Tally(0, offset, doc, {}, {})
            entry.count += 1
            entry.players[n] = entry.players.get(n, 0) + 1
            kinds = entry.kinds.setdefault(shape_kind, [0, offset])
            kinds[0] += 1
            disagreeing = pairs_of.get(sig)
            if disagreeing is None:
                disagreeing = pairs_of[sig] = _disagreeing_pairs(sig, len(rulesets))
            for pair in disagreeing:
                pairs[pair] += 1
            offset += 1
    return classes, pairs, by_players, stop - start, by_kind


def _ranges(counts: Sequence[int], per_task: int) -> list[tuple[int, int, int]]:
    """Consecutive shape ranges of about ``per_task`` loops each: (start, stop, first loop index)."""
    out: list[tuple[int, int, int]] = []
    start, first, loops = 0, 0, 0
    for i, count in enumerate(counts):
        loops += count
        if loops >= per_task or i == len(counts) - 1:
            out.append((start, i + 1, first))
            start, first, loops = i + 1, first + loops, 0
    return out


def _disagreeing_pairs(sig: Signature, n: int) -> list[int]:
    """The pairs of rulesets (as ``a * n + b``, a < b) that disagree in this signature."""
    results, *parts = sig
    return [
        a * n + b
        for a in range(n)
        for b in range(a + 1, n)
        if results[a] != results[b] or any(p[a] != p[b] for p in parts if p[a] >= 0 and p[b] >= 0)
    ]


def _count_pairs(sig: Signature, pairs: list[int], n: int, weight: int = 1) -> None:
    for pair in _disagreeing_pairs(sig, n):
        pairs[pair] += weight


def _merge_kinds(into: dict[str, list[int]], more: Iterable[tuple[str, Sequence[int]]]) -> None:
    """Add (kind, (count, first)) figures into ``into`` (kind -> [count, first])."""
    for name, (count, first) in more:
        entry = into.setdefault(name, [0, first])
        entry[0] += count
        entry[1] = min(entry[1], first)


def _kinds(of_kind: Mapping[str, Sequence[int]]) -> tuple[tuple[str, int, int], ...]:
    return tuple((name, count, first) for name, (count, first) in sorted(of_kind.items()))


def _kind_table(listed: Sequence[Class], n: int, totals: Mapping[str, int]) -> tuple[tuple[str, int, tuple[tuple[int, int | None], ...]], ...]:
    """The heat map's figures (see :attr:`Atlas.by_kind`) from the listed classes' kind counts."""
    cells: dict[tuple[str, int], list[int]] = {}
    for number, cls in enumerate(listed, 1):
        disagreeing = _disagreeing_pairs(cls.signature, n)
        for name, count, first in cls.kinds:
            for pair in disagreeing:
                cell = cells.get((name, pair))
                if cell is None:
                    cells[name, pair] = [count, first, number]
                else:
                    cell[0] += count
                    if first < cell[1]:
                        cell[1], cell[2] = first, number
    order = [a * n + b for a in range(n) for b in range(a + 1, n)]
    return tuple(
        (name, totals[name], tuple((cells[name, p][0], cells[name, p][2]) if (name, p) in cells else (0, None) for p in order))
        for name, _ in KINDS
        if name in totals
    )


# --- worker processes ---------------------------------------------------------------------------


def _worker_start(parent: int, plugin_seconds: float, plugin_budget: float) -> None:
    """Set up a worker so that it never outlives the parent and never prints a traceback.

    Ctrl-C reaches the whole process group: the parent handles it (and ends the pool), so the
    worker ignores SIGINT; SIGTERM (from the pool's terminate) keeps its default action.  Writing to the parent after it died raises BrokenPipeError, which
    the pool would print with a traceback; with SIGPIPE's default action the worker just ends.
    A thread checks that the parent is alive, so a worker whose parent was killed outright
    (SIGKILL) ends within a second even in the middle of a task.
    """
    set_plugin_time_limit(plugin_seconds)
    set_plugin_budget(plugin_budget)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # where a held SIGTERM is inherited (_hold_signals)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="loopcompare parent watch", daemon=True).start()


def _hold_signals() -> _Held | None:
    """Keep Ctrl-C and SIGTERM from half-started workers while the pool starts them.

    Half-started workers are what print tracebacks: a Ctrl-C (which the terminal sends to the
    whole process group) that reaches a worker before it could ignore SIGINT raises
    KeyboardInterrupt there, and a parent that dies while handing a worker its start-up data
    leaves it reading a closed pipe.  So while the workers start, SIGINT is ignored (an ignored
    signal stays ignored across exec, so each worker starts ignoring it; a Ctrl-C in that
    instant is lost) and SIGTERM is held (delivered once the pool is up, and then ends it).
    Returns what :func:`_release_signals` restores.
    """
    if threading.current_thread() is not threading.main_thread():
        return None
    try:  # started now: starting it later unblocks SIGTERM (multiprocessing.resource_tracker)
        from multiprocessing import resource_tracker  # (inside the try: Windows has none)

        resource_tracker.ensure_running()
    except ImportError:  # (Windows has none, and no SIGTERM to hold)
        pass
    interrupt = signal.signal(signal.SIGINT, signal.SIG_IGN)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM}) if hasattr(signal, "pthread_sigmask") else None
    return interrupt, mask


def _release_signals(held: _Held | None) -> None:
    """Undo :func:`_hold_signals`: a SIGTERM that came meanwhile is delivered now."""
    if held is None:
        return
    interrupt, mask = held
    signal.signal(signal.SIGINT, interrupt)
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


class _Terminated(Exception):
    """SIGTERM reached the atlas's main process while workers were running."""


@contextmanager
def _terminate_on_sigterm() -> Iterator[None]:
    """While the pool runs, SIGTERM ends the main process through the normal exit path, so the
    pool terminates its workers instead of leaving them to write to a parent that is gone, and
    the process exits with status 143 (128 + SIGTERM), quietly."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> NoReturn:
        raise _Terminated

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    except _Terminated:
        raise SystemExit(128 + signal.SIGTERM) from None
    finally:
        signal.signal(signal.SIGTERM, previous)


@dataclass(frozen=True)
class Atlas:
    """The whole atlas: totals, classes by size, pairwise disagreement, under given rulesets."""

    rulesets: tuple[Ruleset, ...]
    total: int
    agreeing: int
    classes: tuple[Class, ...]
    pairs: tuple[tuple[str, str, int], ...]
    by_players: tuple[tuple[int, int, int], ...]
    """(players, scenarios, scenarios where every ruleset agrees)."""
    fields: tuple[str, ...] = FIELDS
    """The outcome fields compared besides the result (see :func:`signature`)."""
    by_kind: tuple[tuple[str, int, tuple[tuple[int, int | None], ...]], ...] = ()
    """Per kind of loop (:data:`KINDS` order): (kind, loops, and per pair in :attr:`pairs` order
    (disagreeing loops, the 1-based class of the smallest such loop, or None))."""

    def examples(self) -> list[ScenarioFile]:
        """Each listed class's smallest example, as a scenario (``class-1`` is the largest class)."""
        return [parse_document(c.example, f"class-{i + 1}.toml", f"class-{i + 1}") for i, c in enumerate(self.classes)]

    @cached_property
    def example_comparisons(self) -> list[Comparison]:
        """Each listed class's smallest example, compared under the atlas's rulesets (once)."""
        return [compare(sf, self.rulesets) for sf in self.examples()]


def build(
    rulesets: Sequence[Ruleset],
    *,
    jobs: int | None = None,
    max_players: int = 4,
    progress: Callable[[int], object] | None = None,
    fields: Sequence[str] = FIELDS,
    space: str = "format1",
) -> Atlas:
    """Enumerate the space (:data:`SPACES`) and classify it.  ``jobs`` processes (default: the
    CPUs available); ``progress(n)`` is called as shapes are done; ``fields``: the outcome fields
    compared besides the result.  The result does not depend on ``jobs``.

    The ruleset objects given are the ones applied (sent to the worker processes as they are),
    so a modified or unregistered ruleset is atlased as itself.
    """
    keys = [r.key for r in rulesets]
    fields = tuple(fields)
    counts = [_loops(s) for s in _shapes(max_players, space)]
    if not jobs:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    chosen = tuple(rulesets)
    # Tasks of equal work (loops, not shapes: a 4-player shape holds 9 times a 2-player one's),
    # a few per process so that none waits long for the last one, and few enough that sending
    # the rulesets with each costs nothing next to settling.
    per_task = max(500, sum(counts) // (8 * jobs) + 1) if jobs > 1 else sum(counts) + 1
    tasks = [(chosen, fields, space, max_players, start, stop, first) for start, stop, first in _ranges(counts, per_task)]
    merged: dict[Signature, _Tally] = {}
    pairs = [0] * (len(keys) * len(keys))
    by_players: dict[int, list[int]] = {}
    by_kind: dict[str, int] = {}

    def absorb(result: _Part) -> None:
        classes, part_pairs, tallies, done, kinds = result
        for name, count in kinds.items():
            by_kind[name] = by_kind.get(name, 0) + count
        for n, (count, agreeing) in tallies.items():
            tally = by_players.setdefault(n, [0, 0])
            tally[0] += count
            tally[1] += agreeing
        for i, v in enumerate(part_pairs):
            pairs[i] += v
        for sig, part in classes.items():
            entry = merged.get(sig)
            if entry is None:
                merged[sig] = _Tally(part.count, part.first, part.example, dict(part.players), {k: list(v) for k, v in part.kinds.items()})
            else:
                entry.count += part.count
                if part.first < entry.first:
                    entry.first, entry.example = part.first, part.example
                for count, more in part.players.items():
                    entry.players[count] = entry.players.get(count, 0) + more
                _merge_kinds(entry.kinds, part.kinds.items())
        if progress:
            progress(done)

    if jobs > 1 and len(tasks) > 1:
        # Start-up: multiprocessing loads only when the atlas runs on several processes (the
        # renderers import this module, so every report would pay for it).
        import multiprocessing

        with _terminate_on_sigterm():
            held = _hold_signals()
            try:
                pool = multiprocessing.get_context("spawn").Pool(jobs, _worker_start, (os.getpid(), plugin_time_limit(), plugin_budget() / jobs))
            except BaseException:
                _release_signals(held)
                raise
            with pool:
                _release_signals(held)  # a SIGTERM that came meanwhile lands here, and ends the pool
                for result in pool.imap_unordered(_settle_range, tasks):
                    absorb(result)
    else:
        for task in tasks:
            absorb(_settle_range(task))

    total = sum(t[0] for t in by_players.values())
    agreeing = sum(entry.count for sig, entry in merged.items() if agrees(sig))
    listed = [
        Class(sig, entry.count, entry.first, entry.example, tuple(sorted(entry.players.items())), _kinds(entry.kinds))
        for sig, entry in merged.items()
        if not agrees(sig)
    ]
    listed.sort(key=lambda c: (-c.count, c.first))
    n = len(keys)
    pair_rows = tuple((keys[a], keys[b], pairs[a * n + b]) for a in range(n) for b in range(a + 1, n))
    players = tuple((n, t[0], t[1]) for n, t in sorted(by_players.items()))
    kinds = _kind_table(listed, len(keys), by_kind)
    return Atlas(chosen, total, agreeing, tuple(listed), pair_rows, players, fields, kinds)


def restrict(atlas: Atlas, rulesets: Sequence[Ruleset], fields: Sequence[str] | None = None) -> Atlas:
    """The atlas of some of an atlas's rulesets (and fields), without settling anything again.

    Equal to :func:`build` run on those rulesets and fields: each class's signature is projected
    onto them and classes that become the same merge (their counts add up, the smallest example
    is the earliest enumerated).  So one run over every era answers every pair of eras.
    """
    fields = tuple(atlas.fields if fields is None else fields)
    keys = [r.key for r in atlas.rulesets]
    where = [keys.index(r.key) for r in rulesets]
    field_at = [atlas.fields.index(f) for f in fields]
    merged: dict[Signature, _Tally] = {}
    agreeing = atlas.agreeing
    agreeing_by_players = {n: a for n, _, a in atlas.by_players}
    n = len(where)
    pairs = [0] * (n * n)
    for cls in atlas.classes:
        results, *parts = cls.signature
        projected = tuple(results[i] for i in where)
        # A part holds group ids (-1 where the field does not apply): renumber the chosen ones.
        sig: Signature = (projected, *(_partition([parts[f][i] for i in where], [parts[f][i] >= 0 for i in where]) for f in field_at))
        if agrees(sig):
            agreeing += cls.count
            for players, count in cls.players:
                agreeing_by_players[players] = agreeing_by_players.get(players, 0) + count
            continue
        _count_pairs(sig, pairs, n, cls.count)
        entry = merged.get(sig)
        if entry is None:
            merged[sig] = _Tally(cls.count, cls.first, cls.example, dict(cls.players), {name: [c, f] for name, c, f in cls.kinds})
            continue
        entry.count += cls.count
        if cls.first < entry.first:
            entry.first, entry.example = cls.first, cls.example
        for players, count in cls.players:
            entry.players[players] = entry.players.get(players, 0) + count
        _merge_kinds(entry.kinds, ((name, (c, f)) for name, c, f in cls.kinds))
    listed = [Class(sig, e.count, e.first, e.example, tuple(sorted(e.players.items())), _kinds(e.kinds)) for sig, e in merged.items()]
    listed.sort(key=lambda c: (-c.count, c.first))
    chosen = [keys[i] for i in where]
    pair_rows = tuple((chosen[a], chosen[b], pairs[a * n + b]) for a in range(n) for b in range(a + 1, n))
    by_players = tuple((p, total, agreeing_by_players.get(p, 0)) for p, total, _ in atlas.by_players)
    kinds = _kind_table(listed, n, {name: total for name, total, _ in atlas.by_kind})
    return Atlas(tuple(rulesets), atlas.total, agreeing, tuple(listed), pair_rows, by_players, fields, kinds)


# --- words --------------------------------------------------------------------------------------


def _names(rulesets: Sequence[Ruleset], indexes: Iterable[int]) -> str:
    names = [rulesets[i].name for i in indexes]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def sentence(atlas: Atlas, cls: Class) -> str:
    """A sentence a writer could quote about a class of disagreement."""
    rulesets = atlas.rulesets
    results, *parts = cls.signature
    bits = []
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(results):
        groups.setdefault(r, []).append(i)
    if len(groups) > 1:
        bits.append("; ".join(f"{_names(rulesets, idx)} {'gives' if len(idx) == 1 else 'give'} {res.replace('_', ' ')}" for res, idx in groups.items()))
    by_partition: dict[tuple[int, ...], list[str]] = {}
    for f, p in zip(atlas.fields, parts):
        if max(p) > 0:
            by_partition.setdefault(p, []).append(FIELD_WORDS[f])
    for p, words in by_partition.items():
        sides: dict[int, list[int]] = {}
        for i, g in enumerate(p):
            if g >= 0:
                sides.setdefault(g, []).append(i)
        groups_named = [_names(rulesets, idx) for idx in sides.values()]
        what = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
        verb = "differs" if len(words) == 1 else "differ"
        if len(groups_named) == 2:
            bits.append(f"{what} {verb} between {groups_named[0]} on one side and {groups_named[1]} on the other")
        else:
            bits.append(f"{what} {verb} {len(groups_named)} ways: " + "; ".join(groups_named))
    text = "; ".join(bits)
    return (text[:1].upper() + text[1:] + ".") if text else "All rulesets agree."


def sides(atlas: Atlas, cls: Class, comparison: Comparison) -> list[tuple[str, tuple[str, ...]]]:
    """Each group of agreeing rulesets (by result and fields), with the rules its outcomes cite."""
    results, *parts = cls.signature
    key_of = [(results[i], *(p[i] for p in parts)) for i in range(len(results))]
    groups: dict[tuple[object, ...], list[int]] = {}
    for i, k in enumerate(key_of):
        groups.setdefault(k, []).append(i)
    out = []
    for idx in groups.values():
        rules: list[str] = []
        for i in idx:
            for rule in comparison.outcomes[atlas.rulesets[i].key].rules:
                if rule not in rules:
                    rules.append(rule)
        out.append((_names(atlas.rulesets, idx), tuple(rules)))
    return out


def to_toml(doc: Document) -> str:
    """A generated scenario as a TOML scenario file (format 1, or 2 when the scenario says so)."""

    def value(v: object) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + " }"
        raise TypeError(type(v))

    lines = [f"format = {value(doc['format'])}"] if "format" in doc else []
    lines += [f"title = {value(doc['title'])}", f"players = {value(doc['players'])}"]
    if doc.get("state"):
        lines += ["", "[state]"] + [f"{k} = {value(v)}" for k, v in doc["state"].items()]
    for step in doc["step"]:
        lines += ["", "[[step]]"] + [f"{k} = {value(v)}" for k, v in step.items()]
    if doc.get("loop"):
        lines += ["", "[loop]"] + [f"{k} = {value(v)}" for k, v in doc["loop"].items()]
    for breaker in doc.get("breaker", []):
        lines += ["", "[[breaker]]"] + [f"{k} = {value(v)}" for k, v in breaker.items()]
    if doc.get("intent"):
        lines += ["", "[intent]"] + [f"{k} = {value(v)}" for k, v in doc["intent"].items()]
    return "\n".join(lines) + "\n"
