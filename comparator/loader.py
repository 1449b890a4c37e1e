"""Scenario files: TOML, format 1 and format 2 (docs/FORMAT.md), validated strictly.

Every problem is reported with the file and the field (and the line, where the file shows it)
and says what was expected; unknown keys anywhere are errors, so a typo is never silently
ignored.  All the errors of a file are reported at once, in file order, as one
:class:`ScenarioError` whose ``errors`` lists them.  Things that are probably mistakes but can
still be settled are *warnings* (:attr:`ScenarioFile.warnings`): the command line prints them
on stderr, and ``validate --strict`` turns them into errors.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import difflib
import math
import re
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Mapping, NoReturn

from loopcompare.rulesets import (
    Breaker,
    EndsWhen,
    Intent,
    LoopFlags,
    Scenario,
    Step,
    Unless,
)
from loopcompare.rulesets.outcome import EXPECT_KEYS_FORMAT_1, EXPECT_KEYS_FORMAT_2, Result
from loopcompare.rulesets.registry import UnknownRuleset, registry
from loopcompare.rulesets.linear import Amount, AmountError, parse_amount
from loopcompare.rulesets.bignum import TooLarge
from loopcompare.rulesets.values import Unsettleable
from loopcompare.rulesets.scenario import Card, End, EndsLoop, Goal, InnerLoop, InnerRun, Limits, Target

from . import huge_values, metadata, stack_checks
from .controls import visible

#: Bounds that keep loading and settling cheap whatever the input (see docs/SCENARIOS.md, "Limits").
MAX_BYTES = 1 << 20
MAX_STEPS = 256
MAX_PLAYERS = 64
MAX_TEXT = 10_000
MAX_DIGITS = 1_000
MAX_KEY_PARTS = 32
MAX_TIMES = 10_000
MAX_ERRORS = 50

_TOP_KEYS = {"format", "title", "description", "source", "tags", "players", "active", "state", "step", "loop", "breaker", "intent", "expect", "end", "oracle", "ruling", "simplified"}
_STEP_KEYS_1 = {"by", "does", "optional", "choice", "hidden", "random", "conditional", "set", "add", "unless"}
_STEP_KEYS_2 = {"mul", "requires", "times", "target", "sustains", "alternative", "ends_loop", "turn"}
_LOOP_KEYS_1 = {"independent", "spans_turns", "meaningful_change", "shortcut_before", "ends_when", "ends_with"}
_LOOP_KEYS_2 = {"within"}
# Format 3 (docs/FORMAT.md item 31): keys a file may use only with format = 3.
_TOP_KEYS_3 = {"card", "then", "inner"}
#: The keys of an ``[[inner]]`` loop and of a step's ``run`` (FORMAT item 29).
_INNER_KEYS = {"id", "step", "breaker", "description"}
_RUN_KEYS = {"inner", "times", "until"}
#: What an inner step may not say in this version (FORMAT item 29; docs/READINGS.md "Loops inside
#: loops"): the run decides how often its steps happen, so nothing in it is its controller's choice.
_INNER_REFUSED = {
    "run": "an inner loop that runs another inner loop (two levels of nesting) is not settled by this version",
    "optional": "an inner step is performed as often as its run says: the run's 'times' or 'until' is the choice; write the choice on the outer step",
    "choice": "an inner step is performed as often as its run says: a choice inside it is not settled by this version",
    "turn": "an inner loop runs inside one outer step, so inside one turn",
    "ends_loop": "an event that ends the loop inside an inner loop is not settled by this version",
}
#: The keys of a ``[[then]]`` part (FORMAT item 30).
_PART_KEYS = {"title", "description", "step", "end", "breaker", "loop", "intent", "inner"}
_STEP_KEYS_3 = {"priority", "run"}
_LOOP_KEYS_3 = {"exists_from", "because"}
_UNLESS_KEYS_3 = {"breaks", "pay", "pay_any", "pays", "still_resolves"}
_BREAKER_KEYS_3 = {"still_resolves"}
_END_KEYS_3 = {"instead", "once"}
_CARD_KEYS = {"name", "oracle_from", "printed"}
#: Dates the loader accepts: from the first Magic rules (Alpha, 1993-08-05) to today.
_FIRST_DAY = "1993-08-05"
# The [expect] keys come from the one definition of the outcome fields.
# FORMAT item 22: every outcome field every outcome carries may be pinned in any format.
_EXPECT_KEYS_1 = set(EXPECT_KEYS_FORMAT_1)
_EXPECT_KEYS_2 = set(EXPECT_KEYS_FORMAT_2)
_STOPPED_BY = ("intent", "requirement", "rule")
# Values that may honestly go below zero (CR 119.4: a life total can be negative; toughness can
# be lowered below 0): the "no floor" warning is for resources (mana, cards, counters), not these.
_MAY_GO_NEGATIVE = re.compile(r"life|toughness|power", re.IGNORECASE)
_TARGET_ORDERS = ("rotate", "each", "fixed")
_INFINITE_WORDS = {"infinite", "infinity", "inf", "forever", "unbounded", "\u221e"}
# "INT", "INT^INT", "INT*10^INT": exact integers TOML can't write as literals (docs/FORMAT.md, item 14).
_BIG = re.compile(r"^(-?[0-9]+)(?:\^([0-9]+)|\*10\^([0-9]+))?$")


class ScenarioError(ValueError):
    """A scenario file that can't be used: the file, the field, the line, and what was expected.

    One error per problem; ``errors`` holds every problem found in the file (this one first),
    and ``str()`` gives one line each.  The message quotes the file's own text (a key, a name),
    so its control characters are shown as codes (:func:`comparator.controls.visible`):
    printing the error never obeys them.
    """

    def __init__(self, source: str, where: str, message: str, *, line: int | None = None, errors: tuple["ScenarioError", ...] = ()) -> None:
        source, where, message = visible(source), visible(where), visible(message)
        self.source = source
        self.where = where
        self.message = message
        self.line = line
        self.errors: tuple[ScenarioError, ...] = errors or (self,)
        super().__init__("\n".join(e.one_line() for e in self.errors))

    def one_line(self) -> str:
        """``file: line N: field: message`` (parts that are unknown are left out)."""
        parts = [self.source]
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.where:
            parts.append(self.where)
        parts.append(self.message)
        return ": ".join(parts)


@dataclass(frozen=True)
class ScenarioFile:
    """A loaded scenario with its identity (``id``, from the file name), its expectations, and the
    warnings the loader found (probable mistakes that don't stop it from being settled)."""

    id: str
    file: str
    scenario: Scenario
    expect: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


def printable(text: str) -> str:
    """A file name as text that can always be printed: undecodable bytes shown as \\xNN."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def load(path: str | Path) -> ScenarioFile:
    """Load and validate one scenario file; errors name the path as given.

    At most :data:`MAX_BYTES` + 1 bytes are read, so a huge file or an endless stream
    (``/dev/zero``) is refused without being read.
    """
    path = Path(path)
    name = printable(str(path))
    too_big = f"the file is over {MAX_BYTES:,} bytes; scenario files are limited to {MAX_BYTES:,} bytes"
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ScenarioError(name, "", too_big)
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ScenarioError(name, "", f"can't be read: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise ScenarioError(name, "", too_big)
    return parse_bytes(raw, name, printable(path.stem), file=printable(path.name))


def parse_bytes(raw: bytes, name: str, scenario_id: str, *, file: str | None = None) -> ScenarioFile:
    """Validate a scenario from the bytes of a file called ``name`` (``file`` in reports)."""
    if len(raw) > MAX_BYTES:
        # (a reader that stops after MAX_BYTES + 1 bytes does not know the real size)
        size = f"over {MAX_BYTES:,} bytes" if len(raw) == MAX_BYTES + 1 else f"{len(raw):,} bytes"
        raise ScenarioError(name, "", f"the file is {size}; scenario files are limited to {MAX_BYTES:,} bytes")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(name, "", f"is not UTF-8 text (byte {exc.start})") from None
    _refuse_deep_keys(text, name)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(name, "", f"is not valid TOML: {exc}") from None
    except RecursionError:
        # tomllib parses nested arrays and inline tables recursively.
        raise ScenarioError(name, "", "arrays or inline tables are nested too deeply for the TOML parser; scenario files need at most a few levels") from None
    except (ValueError, MemoryError) as exc:
        digits = _LONG_DIGITS.search(text)
        if digits is not None and "digits" in str(exc):
            # Python's own message suggests sys.set_int_max_str_digits(): say what is wrong instead.
            count = len(digits.group().replace("_", ""))
            at = text.count("\n", 0, digits.start()) + 1
            raise ScenarioError(
                name, "", f"a number of {count:,} digits; numbers are limited to {MAX_DIGITS:,} digits", line=at
            ) from None
        raise ScenarioError(name, "", f"is not usable TOML: {exc}") from None
    return _parse(doc, name, scenario_id, file, _Lines(text))


def parse_document(doc: Mapping[str, Any], name: str, scenario_id: str, *, file: str | None = None) -> ScenarioFile:
    """Validate a parsed TOML document (there are no lines to point at)."""
    return _parse(doc, name, scenario_id, file, None)


def _parse(doc: Mapping[str, Any], name: str, scenario_id: str, file: str | None, lines: "_Lines | None") -> ScenarioFile:
    parser = Parser(name, lines)
    try:
        result = parser.document(doc, scenario_id, file or name)
    except RecursionError:
        raise ScenarioError(name, "", "tables or lists are nested too deeply") from None
    except _Stop:
        result = None
    if parser.errors:
        first = parser.errors[0]
        errors = tuple(parser.errors)
        if parser.more:
            errors += (ScenarioError(name, "", f"and {parser.more:,} more error{'s' if parser.more > 1 else ''} (only the first {MAX_ERRORS} are shown)"),)
        raise ScenarioError(first.source, first.where, first.message, line=first.line, errors=errors)
    assert result is not None
    return result


def _refuse_deep_keys(text: str, name: str) -> None:
    """Refuse dotted keys of more than :data:`MAX_KEY_PARTS` parts before parsing.

    tomllib takes quadratic time over a very long dotted key (``[a.a.a...]``), and no scenario
    needs more than three parts, so such a file is refused at once.
    """
    for number, line in enumerate(text.splitlines(), 1):
        head = line.split("=", 1)[0] if not line.lstrip().startswith("[") else line
        if head.count(".") >= MAX_KEY_PARTS:
            raise ScenarioError(name, f"line {number}", f"a key with more than {MAX_KEY_PARTS} dotted parts; scenario files never need that many")


class _Lines:
    """Where each table and key of a TOML text starts, to point messages at a line.

    tomllib gives no positions for values, so this reads the text's table headers and ``key =``
    lines (a light scan, not a second parser): ``find(("step", 2), "by")`` is the line of ``by``
    in the second ``[[step]]`` table, or that table's header line if the key isn't found.
    """

    _HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
    _KEY = re.compile(r"^\s*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_\-]+)\s*[=.]")

    def __init__(self, text: str) -> None:
        self.tables: dict[tuple[str, int], int] = {}
        self.keys: dict[tuple[str, int, str], int] = {}
        counts: dict[str, int] = {}
        current: tuple[str, int] = ("", 0)
        depth = 0  # inside a multi-line array or string: no keys there
        for number, line in enumerate(text.splitlines(), 1):
            if depth == 0:
                header = self._HEADER.match(line)
                if header:
                    name = header.group(2).strip().strip("\"'")
                    if header.group(1) == "[[":
                        counts[name] = counts.get(name, 0) + 1
                        current = (name, counts[name])
                    else:
                        current = (name, 0)
                    self.tables.setdefault(current, number)
                    continue
                key = self._KEY.match(line)
                if key:
                    self.keys.setdefault((current[0], current[1], key.group(1).strip("\"'")), number)
            depth += line.count("[") - line.count("]") if "=" in line or depth else 0
            depth = max(depth, 0)

    def find(self, table: tuple[str, int], key: str | None) -> int | None:
        """The line of ``key`` in ``table`` (``("", 0)`` is the top level), else the table's header."""
        if key is not None:
            found = self.keys.get((table[0], table[1], key))
            if found is not None:
                return found
        return self.tables.get(table)


class _Stop(Exception):
    """Raised after an error that leaves nothing more to check in the current item."""


# Where a message names a field, and the TOML table and key it comes from.
_WHERE = re.compile(r"^(?:(step|breaker|end|oracle|ruling|card) (\d+)|\[(state|loop|intent)\]|\[expect\.([^\]]+)\]|'(players|state|step|intent|expect|loop|breaker|end|oracle|ruling|card)'.*)?(?:: )?(?:'([^'.]+)[^']*')?")


class Parser:
    """One file's validation: every problem is recorded (``fail`` then abandons the current item)."""

    def __init__(self, name: str, lines: _Lines | None = None) -> None:
        self.name = name
        self.lines = lines
        self.errors: list[ScenarioError] = []
        #: Errors found past the first MAX_ERRORS: counted, not kept ("and N more errors").
        self.more = 0
        self.warnings: list[str] = []
        self.format = 1
        #: The ``[[inner]]`` loops by id, read before the steps that ``run`` them (and the ids of
        #: those with errors, which a run names without a second error).
        self.inner: dict[str, InnerLoop] = {}
        self.broken_inner: set[str] = set()
        #: [state] names whose entry had an error: declared, so not reported again as undeclared.
        self.unsettled: set[str] = set()
        #: Floors and ceilings of per-player entries found in [state], by value then player.
        self.entry_limits: dict[str, dict[str, Limits]] = {}

    def undeclared(self, where: str, key: str, state: Mapping[str, Any]) -> NoReturn:
        """A name that is not in [state]; nothing more is said for one whose entry had an error."""
        if key in self.unsettled:
            raise _Stop
        self.fail(where, f"{key!r} is not declared in [state] (declared: {', '.join(state) or 'none'})")

    def fail(self, where: str, message: str) -> NoReturn:
        """Record an error and abandon the item being checked."""
        self.record(where, message)
        raise _Stop

    def record(self, where: str, message: str) -> None:
        """Record an error and go on."""
        if len(self.errors) >= MAX_ERRORS:
            self.more += 1
            raise _Stop
        self.errors.append(ScenarioError(self.name, where, _abbreviated(message), line=self.line_of(where)))

    def warn(self, where: str, message: str) -> None:
        """Record a warning (an error in a format 2 file when ``strict_in_2``... see :meth:`either`)."""
        line = self.line_of(where)
        text = ": ".join([p for p in (f"line {line}" if line else "", where, message) if p])
        if text not in self.warnings:
            self.warnings.append(text)

    def either(self, where: str, message: str) -> None:
        """An error in a format 2 file, a warning in a format 1 file (docs/FORMAT.md, "Format 2")."""
        if self.format >= 2:
            self.record(where, message)
        else:
            self.warn(where, message + " (a warning in format 1; an error with format = 2)")

    def line_of(self, where: str) -> int | None:
        """The line a field name points at, when the text is known."""
        if self.lines is None:
            return None
        m = _WHERE.match(where)
        if not m:
            return None
        kind, number, section, expect, top, key = m.groups()
        if kind:
            return self.lines.find((kind, int(number)), key)
        if section:
            return self.lines.find((section, 0), key)
        if expect:
            return self.lines.find((f"expect.{expect}", 0), key)
        if top:
            return self.lines.find(("", 0), top) or self.lines.find((top, 0), None) or self.lines.find((top, 1), None)
        if key:
            return self.lines.find(("", 0), key)
        return None

    def each(self, items: Any, check: Callable[[Any], Any]) -> list[Any]:
        """``check`` each item; an item with an error is left out and the others still checked."""
        out = []
        for item in items:
            try:
                out.append(check(item))
            except _Stop:
                pass  # (past MAX_ERRORS the rest is still read, to count what is not shown)
        return out

    def needs_format_2(self, where: str, what: str) -> None:
        """A format 2 key or value in a file that did not say ``format = 2``."""
        if self.format < 2:
            self.record(where, f"{what} is format 2: add 'format = 2' at the top of the file")

    def needs_format_3(self, where: str, what: str) -> None:
        """A format 3 key or value (FORMAT item 31) in a file that did not say ``format = 3``."""
        if self.format < 3:
            self.record(where, f"{what} is format 3: add 'format = 3' at the top of the file")

    # --- small checks -------------------------------------------------------------------------

    def keys(self, table: Mapping[str, Any], allowed: set[str], section: str, prefix: str = "", *, later: set[str] = frozenset(), later3: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        known = allowed | later | later3
        unknown = sorted(set(table) - known)
        for key in unknown:
            close = difflib.get_close_matches(key, sorted(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            self.record(_at(section, f"{prefix}.{key}" if prefix else key), f"unknown key{hint}; expected one of {', '.join(sorted(known))}")
        for key in sorted(set(table) & later):
            self.needs_format_2(_at(section, f"{prefix}.{key}" if prefix else key), f"'{key}'")
        for key in sorted(set(table) & later3):
            self.needs_format_3(_at(section, f"{prefix}.{key}" if prefix else key), f"'{key}'")
        if unknown:
            raise _Stop

    def text(self, value: Any, where: str, *, required: bool = True) -> str:
        if not isinstance(value, str):
            self.fail(where, f"expected a string, got {_kind(value)}")
        if required and not value.strip():
            self.fail(where, "must not be empty")
        if len(value) > MAX_TEXT:
            self.fail(where, f"is {len(value):,} characters long; at most {MAX_TEXT:,} are allowed")
        return value

    def flag(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            self.fail(where, f"expected true or false, got {_kind(value)}")
        return value

    def table(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            self.fail(where, f"expected a table, got {_kind(value)}")
        return value

    def integer(self, value: Any, where: str) -> int:
        """A whole number: a TOML integer, or (format 2) a string "INT", "INT^INT" or "INT*10^INT"."""
        if isinstance(value, str):
            m = _BIG.match(value)
            if m is None:
                self.fail(where, f"expected a whole number, got {_kind(value)}")
            if self.format < 2:
                self.fail(where, f"expected a whole number, got {_kind(value)} (an integer written as a string, like \"10^100\", is format 2: add 'format = 2' at the top of the file)")
            base, power, tens = m.groups()
            too_long = f"{value!r} has more than {MAX_DIGITS:,} digits; numbers are limited to {MAX_DIGITS:,} digits"
            digits = base.lstrip("-").lstrip("0") or "0"
            if len(digits) > MAX_DIGITS or len((power or tens or "").lstrip("0")) > 6:
                self.fail(where, too_long)  # checked before any arithmetic: the text alone is too long
            # Read without leading zeros: int() refuses more than 4,300 characters of digits,
            # zeros included, with a traceback.
            whole = -int(digits) if base.startswith("-") else int(digits)
            if power is None and tens is None:
                return self.sized(whole, where)
            exponent = int((power if power is not None else tens).lstrip("0") or "0")
            # At least this many digits less one, so nothing far too large is ever computed:
            # base^exponent has floor(exponent * log10(base)) + 1 digits.
            if power is not None:
                size = exponent * math.log10(int(digits)) if digits not in ("0", "1") else 0
            else:
                size = len(digits) - 1 + exponent if digits != "0" else 0
            if size > MAX_DIGITS:
                self.fail(where, too_long)
            number = whole**exponent if power is not None else whole * 10**exponent
            return self.sized(number, where)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, f"expected a whole number, got {_kind(value)}")
        return self.sized(value, where)

    def count(self, value: Any, where: str, *, hint: str = 'use "never" or a finite number') -> int:
        if isinstance(value, str) and value.strip().lower() in _INFINITE_WORDS or isinstance(value, float) and value in (float("inf"), float("-inf")):
            self.fail(where, f"{value!r} is not a number: there is no infinity in Magic; {hint}")
        number = self.integer(value, where)
        if number < 0:
            self.fail(where, f"must be 0 or more, got {number}")
        return number

    def sized(self, value: int, where: str) -> int:
        """Refuse integers of more than :data:`MAX_DIGITS` digits (results stay printable)."""
        if abs(value) >= 10**MAX_DIGITS:
            self.fail(where, f"a number of more than {MAX_DIGITS:,} digits; numbers are limited to {MAX_DIGITS:,} digits")
        return value

    def player(self, value: Any, players: tuple[str, ...], where: str) -> str:
        if not isinstance(value, str):
            self.fail(where, f"expected a player's name, got {_kind(value)}")
        if value not in players:
            self.fail(where, f"is {_short(value)}, who is not one of the players ({', '.join(players)})")
        return value

    # --- the document -------------------------------------------------------------------------

    def document(self, doc: Mapping[str, Any], scenario_id: str, file: str) -> ScenarioFile:
        self.format = self.file_format(doc)
        try:
            self.keys(doc, _TOP_KEYS - {"end"}, "", later={"end"}, later3=_TOP_KEYS_3)
        except _Stop:
            pass
        header = self.each([doc], self.header)
        oracle, rulings, simplified = metadata.parse(self, doc)
        players = self.players(doc)  # nothing else can be checked without the players
        active = players[0]
        if "active" in doc:
            found = self.each([doc["active"]], lambda v: self.player(v, players, "'active'"))
            active = found[0] if found else players[0]
        state, limits = self.state(doc.get("state", {}), players)
        inner = self.inner_loops(doc.get("inner", []), players, state) if "inner" in doc and self.format >= 3 else {}
        self.inner = inner
        steps = self.steps(doc, players, state, limits)
        loop = self.each([doc.get("loop", {})], lambda raw: self.loop(raw, state))
        loop_flags = loop[0] if loop else LoopFlags()
        exists = self.each([doc.get("loop", {})], self.exists)
        exists_from, because = exists[0] if exists else ("", "")
        cards = self.cards(doc.get("card", []))
        ends = self.ends(doc.get("end", []), players, state, loop_flags)
        breakers = self.breakers(doc.get("breaker", []), players)
        intents = self.intents(doc.get("intent", {}), players, len(steps) or 1, state, steps)
        if self.errors or not header or not steps:
            raise _Stop
        title, description, source, tags = header[0]
        loop_flags = self.turns(steps, active, loop_flags)
        scenario = Scenario(
            title=title,
            players=players,
            steps=steps,
            active=active,
            state=state,
            loop=loop_flags,
            breakers=breakers,
            intents=intents,
            description=description,
            source=source,
            tags=tags,
            format=self.format,
            limits=limits,
            entry_limits=self.entry_limits,
            ends=ends,
            oracle=oracle,
            rulings=rulings,
            simplified=simplified,
            exists_from=exists_from,
            because=because,
            cards=cards,
            inner=tuple(inner.values()),
        )
        self.each([scenario], self.whole)
        if "then" in doc and not self.errors:
            scenario = dataclasses.replace(scenario, parts=self.parts(doc, scenario_id, file))
        expect = self.expectations(doc.get("expect", {}), scenario)
        if self.errors:
            raise _Stop
        return ScenarioFile(scenario_id, file, scenario, expect, tuple(self.warnings))

    def file_format(self, doc: Mapping[str, Any]) -> int:
        if "format" not in doc:
            return 1
        value = doc["format"]
        if type(value) is not int or value not in (1, 2, 3):
            self.record("'format'", f"unsupported format ({_kind(value)}); 1, 2 and 3 are the versions")
            return 3 if value == 3 else 2 if value == 2 else 1
        return value

    def parts(self, doc: Mapping[str, Any], scenario_id: str, file: str) -> tuple[Scenario, ...]:
        """``[[then]]``: loops played one after another (FORMAT item 30).  Each part is read as a
        loop of its own with the file's players and ``[state]`` (it declares no values), and its
        errors are named ``then K: ...``."""
        raw = doc["then"]
        if not isinstance(raw, list) or not raw:
            self.fail("'then'", "expected [[then]] tables: the loops played after this one, in order")
        out = []
        for k, part in enumerate(raw):
            where = f"then {k + 1}"
            try:
                table = self.table(part, where)
                self.keys(table, _PART_KEYS, where)
                if "step" not in table:
                    self.fail(_at(where, "step"), "is required: the part's own [[then.step]] tables")
            except _Stop:
                continue
            sub = {key: table[key] for key in ("description", "step", "end", "breaker", "loop", "intent", "inner") if key in table}
            sub.update({"format": self.format, "title": table.get("title", f"{doc.get('title', '')} (part {k + 2})"), "players": doc["players"]})
            for key in ("state", "active"):
                if key in doc:
                    sub[key] = doc[key]
            child = Parser(self.name, None)
            try:
                part_file = child.document(sub, f"{scenario_id}-part-{k + 2}", file)
            except _Stop:
                part_file = None
            for error in child.errors:
                self.record(f"{where}: {error.where}" if error.where else where, error.message)
            for warning in child.warnings:
                self.warn(where, warning)
            if part_file is not None and not child.errors:
                out.append(part_file.scenario)
        return tuple(out)

    def exists(self, raw: Any) -> tuple[str, str]:
        """``[loop] exists_from`` and its required ``because`` (FORMAT item 27)."""
        if not isinstance(raw, dict):
            return "", ""
        since = self.date(raw["exists_from"], _at("[loop]", "exists_from")) if "exists_from" in raw else ""
        because = self.text(raw["because"], _at("[loop]", "because")) if "because" in raw else ""
        if since and not because:
            self.fail(_at("[loop]", "because"), "is required with 'exists_from': say why the loop didn't exist before (it is the note of an n/a outcome)")
        if because and not since:
            self.fail(_at("[loop]", "because"), "explains 'exists_from', which is missing")
        return since, because

    def cards(self, raw: Any) -> tuple[Card, ...]:
        """``[[card]]`` tables: a card whose Oracle text of a date the loop needs (FORMAT item 27)."""
        if raw == []:
            return ()
        if not isinstance(raw, list):
            self.record("'card'", "expected [[card]] tables")
            return ()

        def one(item: Any) -> Card:
            i, c = item
            where = f"card {i + 1}"
            t = self.table(c, where)
            self.keys(t, _CARD_KEYS, where)
            if "name" not in t:
                self.fail(_at(where, "name"), "is required")
            name = self.text(t["name"], _at(where, "name"))
            oracle_from = self.date(t["oracle_from"], _at(where, "oracle_from")) if "oracle_from" in t else ""
            printed = self.date(t["printed"], _at(where, "printed")) if "printed" in t else ""
            return Card(name, oracle_from, printed)

        return tuple(self.each(enumerate(raw), one))

    def date(self, value: Any, where: str) -> str:
        """A day, ``"YYYY-MM-DD"``, from the first rules (1993-08-05) to today."""
        if isinstance(value, (_dt.date, _dt.time)):
            self.fail(where, f"write the date as a string, \"{value}\" (TOML dates are refused, as in [[oracle]])")
        text = value
        if not isinstance(text, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            self.fail(where, f"expected a date \"YYYY-MM-DD\", got {_kind(value)}")
        try:
            day = _dt.date.fromisoformat(text)
        except ValueError:
            self.fail(where, f"{text} is not a day of the calendar")
        if text < _FIRST_DAY:
            self.fail(where, f"{text} is before {_FIRST_DAY}, the first Magic rules")
        if day > _dt.date.today():
            self.fail(where, f"{text} is in the future")
        return text

    def header(self, doc: Mapping[str, Any]) -> tuple[str, str, str, tuple[str, ...]]:
        if "title" not in doc:
            self.fail("'title'", "is required")
        title = self.text(doc["title"], "'title'")
        description = self.text(doc.get("description", ""), "'description'", required=False)
        source = self.text(doc.get("source", ""), "'source'", required=False)
        tags = doc.get("tags", [])
        if not isinstance(tags, list):
            self.fail("'tags'", f"expected a list of strings, got {_kind(tags)}")
        return title, description, source, tuple(self.text(t, f"'tags' item {i + 1}") for i, t in enumerate(tags))

    def players(self, doc: Mapping[str, Any]) -> tuple[str, ...]:
        if "players" not in doc:
            self.fail("'players'", "is required: two or more distinct names, in turn order")
        raw = doc["players"]
        if not isinstance(raw, list):
            self.fail("'players'", f"expected a list of names, got {_kind(raw)}")
        if len(raw) < 2:
            self.fail("'players'", f"needs two or more players, got {len(raw)}")
        if len(raw) > MAX_PLAYERS:
            self.fail("'players'", f"has {len(raw)} players; at most {MAX_PLAYERS} are supported")
        names = tuple(self.text(p, f"'players' item {i + 1}") for i, p in enumerate(raw))
        for i, p in enumerate(names):
            if p != p.strip():
                self.fail(f"'players' item {i + 1}", f"{p!r} has leading or trailing spaces")
            same = [q for q in names[:i] if q.casefold() == p.casefold()]
            if same:
                how = "appears twice" if same[0] == p else f"differs from {same[0]!r} only by case"
                self.fail(f"'players' item {i + 1}", f"{p!r} {how}; names must be distinct")
        return names

    def state(self, raw: Any, players: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Limits]]:
        self.entry_limits = {}
        try:
            table = self.table(raw, "'state'")
        except _Stop:
            return {}, {}
        out: dict[str, Any] = {}
        limits: dict[str, Limits] = {}

        def bounded(value: Mapping[str, Any], key: str) -> tuple[int, Limits]:
            """``{start, min, max}``: the start and its floor and ceiling (``key`` names it in messages)."""
            self.keys(value, {"start", "min", "max"}, "[state]", key)
            if "start" not in value:
                self.fail(_at("[state]", f"{key}.start"), "is required: the starting value")
            start = self.integer(value["start"], _at("[state]", f"{key}.start"))
            low = self.integer(value["min"], _at("[state]", f"{key}.min")) if "min" in value else None
            high = self.integer(value["max"], _at("[state]", f"{key}.max")) if "max" in value else None
            if low is not None and high is not None and low > high:
                self.fail(_at("[state]", key), f"min ({low}) is greater than max ({high})")
            if (low is not None and start < low) or (high is not None and start > high):
                self.fail(_at("[state]", f"{key}.start"), f"{start} is outside [min, max]")
            return start, Limits(low, high)

        def entry(item: Any) -> None:
            key, value = item
            try:
                value_of(key, value)
            except _Stop:
                self.unsettled.add(key)  # declared, with an error already said: not "undeclared" later
                raise

        def value_of(key: str, value: Any) -> None:
            where = _at("[state]", key)
            if isinstance(value, bool):
                out[key] = value
            elif isinstance(value, (int, str)):
                out[key] = self.integer(value, where)
            elif isinstance(value, dict):
                self.needs_format_2(where, "a table-valued [state] entry")
                if "start" in value or "min" in value or "max" in value:
                    out[key], limits[key] = bounded(value, key)
                else:
                    if not value:
                        self.fail(where, "a per-player value needs one integer per player")
                    per: dict[str, int] = {}
                    for player, start in value.items():
                        here = _at("[state]", f"{key}.{player}")
                        if player not in players:
                            self.fail(here, f"{_short(player)} is not one of the players ({', '.join(players)}); a table here is either {{start, min, max}} or one integer per player")
                        if isinstance(start, dict):
                            # One player's entry with its own floor or ceiling (FORMAT, issue 22 item 3).
                            per[player], floor = bounded(start, f"{key}.{player}")
                            if floor != Limits():
                                self.entry_limits.setdefault(key, {})[player] = floor
                        else:
                            per[player] = self.integer(start, here)
                    out[key] = per
            else:
                self.fail(where, f"expected true, false or a whole number, got {_kind(value)}")

        self.each(table.items(), entry)
        return out, limits

    def steps(self, doc: Mapping[str, Any], players: tuple[str, ...], state: Mapping[str, Any], limits: Mapping[str, Limits]) -> tuple[Step, ...]:
        if "step" not in doc:
            self.record("'step'", "is required: one [[step]] table per step of an iteration")
            return ()
        raw = doc["step"]
        if not isinstance(raw, list) or not raw:
            self.record("'step'", "expected one or more [[step]] tables")
            return ()
        if len(raw) > MAX_STEPS:
            self.record("'step'", f"has {len(raw)} steps; at most {MAX_STEPS} are supported")
            return ()
        return tuple(self.each(enumerate(raw), lambda item: self.step(item[1], item[0] + 1, players, state)))

    def inner_loops(self, raw: Any, players: tuple[str, ...], state: Mapping[str, Any]) -> dict[str, InnerLoop]:
        """The ``[[inner]]`` loops (FORMAT item 29): an ``id`` and ``[[inner.step]]`` tables, read
        as steps are (errors named ``inner K step N``), on the file's values."""
        if not isinstance(raw, list) or not raw:
            self.record("'inner'", "expected [[inner]] tables: each an inner loop with an 'id' and [[inner.step]] tables")
            return {}
        out: dict[str, InnerLoop] = {}

        def one(item: Any) -> None:
            k, loop = item
            where = f"inner {k + 1}"
            table = self.table(loop, where)
            self.keys(table, _INNER_KEYS, where)
            if "breaker" in table:
                self.fail(_at(where, "breaker"), (
                    "a breaker of an inner loop is not settled by this version: a player who can break the inner loop "
                    "breaks the nest, so declare them at the top level ([[breaker]]) and give their point inside the run in [intent]"
                ))
            if "id" not in table:
                self.fail(_at(where, "id"), "is required: the name a step's 'run' uses")
            name = self.text(table["id"], _at(where, "id"))
            if name in out:
                self.fail(_at(where, "id"), f"{name!r} is already the id of another [[inner]] loop")
            raw_steps = table.get("step")
            if not isinstance(raw_steps, list) or not raw_steps:
                self.fail(_at(where, "step"), "is required: one or more [[inner.step]] tables")
            if len(raw_steps) > MAX_STEPS:
                self.fail(_at(where, "step"), f"has {len(raw_steps)} steps; at most {MAX_STEPS} are supported")
            steps = []
            for n, raw_step in enumerate(raw_steps):
                step_where = f"{where} step {n + 1}"
                if isinstance(raw_step, dict):
                    refused = [key for key in _INNER_REFUSED if key in raw_step]
                    if refused:
                        self.record(_at(step_where, refused[0]), _INNER_REFUSED[refused[0]])
                        continue
                    target = raw_step.get("target")
                    if isinstance(target, dict) and target.get("order") == "rotate":
                        self.record(_at(step_where, "target.order"), "a rotating target inside an inner loop is not settled by this version")
                        continue
                    unless = raw_step.get("unless")
                    if isinstance(unless, dict) and unless.get("breaks", True) is not False:
                        self.record(_at(step_where, "unless"), (
                            "an 'unless' that breaks the loop inside an inner loop is not settled by this version: the player's "
                            "point inside the run goes in [intent] ({after, step, inner = {after, step}}); payments ('breaks = false') are"
                        ))
                        continue
                try:
                    steps.append(self.step(raw_step, n + 1, players, state, prefix=f"{where} "))
                except _Stop:
                    pass
            if len(steps) == len(raw_steps):
                out[name] = InnerLoop(name, tuple(steps))
            else:
                self.broken_inner.add(name)  # its own errors say why; a run of it says nothing more

        self.each(enumerate(raw), one)
        return out

    def run(self, raw: Any, where: str, players: tuple[str, ...], state: Mapping[str, Any]) -> InnerRun:
        """A step's ``run = { inner = ID, times = N }`` or ``{ inner = ID, until = {...} }`` (FORMAT item 29)."""
        here = _at(where, "run")
        table = self.table(raw, here)
        self.keys(table, _RUN_KEYS, where, "run")
        if "inner" not in table:
            self.fail(_at(where, "run.inner"), "is required: the id of an [[inner]] loop")
        name = table["inner"]
        if isinstance(name, str) and name in self.broken_inner:
            raise _Stop
        if not isinstance(name, str) or name not in self.inner:
            known = ", ".join(repr(k) for k in self.inner) or "none"
            self.fail(_at(where, "run.inner"), f"{_short(name) if isinstance(name, str) else _kind(name)} is not the id of an [[inner]] loop (declared: {known})")
        loop = self.inner[name]
        if ("times" in table) == ("until" in table):
            self.fail(here, "needs exactly one of 'times' (complete inner iterations) or 'until' (a goal on a value)")
        if "times" in table:
            times = self.count(table["times"], _at(where, "run.times"), hint="give how many complete inner iterations")
            return InnerRun(loop, times=times)
        return InnerRun(loop, until=self.goal(table["until"], state, players, where, "run.until"))

    def goal(self, raw: Any, state: Mapping[str, Any], players: tuple[str, ...], section: str, name: str) -> Goal:
        """``{ value, at_least | at_most, player }``: a goal on a value (an intent's or a run's
        ``until``); a per-player value needs whose entry, a plain one none."""
        value, bound, at_most = self.bound(raw, state, section, name, per_player=True)
        whose = raw.get("player")
        if isinstance(state[value], dict):
            if whose is None:
                self.fail(_at(section, f"{name}.player"), f"{value!r} is a per-player value: say whose ('player')")
            whose = self.player(whose, players, _at(section, f"{name}.player"))
            if whose not in state[value]:
                self.fail(_at(section, f"{name}.player"), f"{whose} has no entry in [state] {value}")
        elif whose is not None:
            self.fail(_at(section, f"{name}.player"), f"{value!r} is not a per-player value")
        return Goal(value, bound, at_most, whose)

    def step(self, raw: Any, number: int, players: tuple[str, ...], state: Mapping[str, Any], *, prefix: str = "") -> Step:
        where = f"{prefix}step {number}"
        table = self.table(raw, where)
        self.keys(table, _STEP_KEYS_1, where, later=_STEP_KEYS_2, later3=_STEP_KEYS_3)
        missing = [key for key in ("by", "does") if key not in table]
        for key in missing:
            self.record(_at(where, key), "is required")
        if missing:
            raise _Stop
        by = self.player(table["by"], players, _at(where, "by"))
        does = self.text(table["does"], _at(where, "does"))
        flags = {k: self.flag(table[k], _at(where, k)) for k in ("optional", "choice", "hidden", "random", "conditional", "sustains", "priority") if k in table}
        target = self.target(table["target"], players, where) if "target" in table else None
        assigns = self.effects(table.get("set", {}), state, where, "set", target)
        adds = self.effects(table.get("add", {}), state, where, "add", target)
        amounts = {k: v for k, v in adds.items() if isinstance(v, Amount)}
        adds = {k: v for k, v in adds.items() if not isinstance(v, Amount)}
        muls = self.effects(table.get("mul", {}), state, where, "mul", target)
        requires = self.requirements(table.get("requires", {}), state, where)
        times = 1
        if "times" in table:
            times = self.count(table["times"], _at(where, "times"), hint="give how many times the step happens")
            if not 1 <= times <= MAX_TIMES:
                self.fail(_at(where, "times"), f"must be between 1 and {MAX_TIMES:,}, got {times}")
        unless = self.unless(table["unless"], where, players, state, target) if "unless" in table else None
        if unless is not None and unless.by == "target":
            # A payment by each target prevents only that payer's share (FORMAT item 25).
            for kind, changes in (("set", assigns), ("add", adds), ("mul", muls)):
                for name in changes:
                    if not isinstance(state.get(name), dict):
                        self.record(_at(where, f"{kind}.{name}"), f"{name!r} is not a per-player value, but with unless.by = \"target\" each payment prevents only the payer's own share: such a step changes per-player values only")
        run = self.run(table["run"], where, players, state) if "run" in table and self.format >= 3 else None
        if run is not None and times != 1:
            self.fail(_at(where, "times"), "can't be combined with 'run' in this version: write the run's own 'times'")
        if run is not None and any(s.random for s in run.loop.steps) and not flags.get("random", False):
            flags["random"] = True  # the nest is random where its inner loop is (FORMAT item 29)
        if run is not None and any(s.conditional for s in run.loop.steps) and not flags.get("conditional", False):
            flags["conditional"] = True
        alternative = self.text(table["alternative"], _at(where, "alternative")) if "alternative" in table else ""
        ends_loop = self.event(table["ends_loop"], where) if "ends_loop" in table else None
        turn = self.player(table["turn"], players, _at(where, "turn")) if "turn" in table else ""
        step = Step(
            by=by, does=does, set=assigns, add=adds, unless=unless, mul=muls, requires=requires, times=times,
            target=target, alternative=alternative, ends_loop=ends_loop, turn=turn, amounts=amounts, run=run, **flags,
        )
        self.step_sense(step, where)
        return step

    def unless(self, raw: Any, where: str, players: tuple[str, ...], state: Mapping[str, Any], target: Target | None) -> Unless:
        """An ``unless``: another player's action that stops the step's effect (and the loop), or,
        with ``breaks = false``, a payment that prevents the effect once (FORMAT items 24-25)."""
        u = self.table(raw, _at(where, "unless"))
        self.keys(u, {"by", "does"}, where, "unless", later3=_UNLESS_KEYS_3)
        for key in ("by", "does"):
            if key not in u:
                self.fail(_at(where, f"unless.{key}"), "is required")
        does = self.text(u["does"], _at(where, "unless.does"))
        breaks = self.flag(u["breaks"], _at(where, "unless.breaks")) if "breaks" in u else True
        if u["by"] == "target" and self.format >= 3:
            if target is None:
                self.fail(_at(where, "unless.by"), "is \"target\": each targeted player pays for themself, but the step has no 'target'")
            if breaks:
                self.fail(_at(where, "unless.by"), "is \"target\", which is for payments: add 'breaks = false' (a targeted player who stops the loop is a breaker or a player's own 'unless')")
            by = "target"
        else:
            by = self.player(u["by"], players, _at(where, "unless.by"))
        payers = tuple(target.among) if by == "target" and target is not None else (by,)
        if breaks:
            for key in ("pay", "pay_any", "pays"):
                if key in u:
                    self.fail(_at(where, f"unless.{key}"), "describes a payment that doesn't end the loop: it needs 'breaks = false'")
        pay: dict[str, int] = {}
        pay_any: tuple[dict[str, int], ...] = ()
        if "pay" in u and "pay_any" in u:
            self.fail(_at(where, "unless.pay_any"), "lists alternative costs; 'pay' is one cost: give one of the two")
        if "pay" in u:
            pay = self.cost(u["pay"], state, where, "unless.pay", payers)
        if "pay_any" in u:
            raw_any = u["pay_any"]
            if not isinstance(raw_any, list) or not raw_any:
                self.fail(_at(where, "unless.pay_any"), f"expected a list of one or more cost tables, got {_kind(raw_any)}")
            pay_any = tuple(self.cost(c, state, where, f"unless.pay_any item {k + 1}", payers) for k, c in enumerate(raw_any))
        pays: str | int | dict[str, str | int] = "always"
        if "pays" in u:
            raw_pays = u["pays"]
            if isinstance(raw_pays, dict):
                if by != "target":
                    self.fail(_at(where, "unless.pays"), "a table of players is for by = \"target\"; one payer has one 'pays'")
                pays = {self.player(p, payers, _at(where, f"unless.pays.{p}")): self.pays(v, _at(where, f"unless.pays.{p}")) for p, v in raw_pays.items()}
            else:
                pays = self.pays(raw_pays, _at(where, "unless.pays"))
        still = 0
        if "still_resolves" in u:
            still = self.count(u["still_resolves"], _at(where, "unless.still_resolves"), hint="give how many loop steps still resolve")
            if not breaks:
                self.fail(_at(where, "unless.still_resolves"), "counts the steps that resolve after a response that breaks the loop; a payment ('breaks = false') doesn't break it")
        return Unless(by, does, breaks=breaks, pay=pay, pay_any=pay_any, pays=pays, still_resolves=still)

    def cost(self, raw: Any, state: Mapping[str, Any], where: str, name: str, payers: tuple[str, ...]) -> dict[str, int]:
        """A payment's cost: ``{value = change}`` on integers (a per-player value: the payer's own entry)."""
        table = self.table(raw, _at(where, name))
        if not table:
            self.fail(_at(where, name), "is empty: name what paying costs, e.g. { mana = -1 }")
        out = {}
        for key, value in table.items():
            here = _at(where, f"{name}.{key}")
            if key not in state:
                self.undeclared(here, key, state)
            current = state[key]
            if isinstance(current, bool):
                self.fail(here, f"{key!r} is a boolean; a cost changes an integer")
            if isinstance(current, dict):
                missing = [p for p in payers if p not in current]
                if missing:
                    self.fail(here, f"{key!r} is a per-player value and the payer's own entry pays: {', '.join(missing)} has no entry in [state] {key}")
            if isinstance(value, bool):
                self.fail(here, f"expected a whole number (the change paying makes), got {_kind(value)}")
            out[key] = self.integer(value, here)
        return out

    def pays(self, value: Any, where: str) -> str | int:
        """``"always"``, ``"never"`` or a number N (FORMAT item 25)."""
        if value in ("always", "never"):
            return str(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return self.count(value, where, hint='give "always", "never" or a number')
        self.fail(where, f"expected \"always\", \"never\" or a number of payments, got {_kind(value)}")

    def step_sense(self, step: Step, where: str) -> None:
        """Combinations that say nothing, or something other than the author meant (docs/FORMAT.md)."""
        if step.choice and not step.optional:
            if self.format >= 2 and not step.alternative:
                self.record(_at(where, "choice"), "on a mandatory step needs 'alternative': what its controller chooses instead")
            elif self.format < 2:
                self.warn(
                    _at(where, "choice"),
                    "on a mandatory step keeps its format 1 meaning (the step stays mandatory and makes nobody involved); "
                    "for a choice its controller could make otherwise, use format = 2 with 'alternative'",
                )
        if step.alternative and not step.choice:
            self.record(_at(where, "alternative"), "describes the other choice of a 'choice = true' step; this step has no choice")
        if step.hidden and not (step.optional or step.choice) and step.ends_loop is None:
            self.either(_at(where, "hidden"), "is on a step that is neither optional nor a choice: there is no hidden choice to make")
        if not step.priority and step.unless is not None and not step.unless.payment:
            self.record(_at(where, "priority"), "is false on a step with an 'unless' that breaks the loop: a player can only respond to it while it is on the stack, which a step without priority never is")
        if step.unless is not None and step.unless.by == step.by:
            self.either(_at(where, "unless.by"), (
                f"is {step.by}, who controls the step itself; 'unless' is another player's way to stop the effect. A cost the step's own "
                "controller pays to keep the loop going is an optional step: write 'optional = true' on it (with 'requires' and 'add' for the cost)"
            ))
        if not step.sustains and not step.optional:
            self.record(_at(where, "sustains"), "false marks an optional side benefit; this step is mandatory")
        if step.ends_loop is not None and not (step.random or step.hidden or step.ends_loop.hidden):
            self.record(_at(where, "ends_loop"), "needs 'random = true' (chance) or hidden information ('hidden' on the step or the event) on its step")

    def target(self, raw: Any, players: tuple[str, ...], where: str) -> Target:
        t = self.table(raw, _at(where, "target"))
        self.keys(t, {"among", "order"}, where, "target")
        if "among" not in t:
            self.fail(_at(where, "target.among"), "is required: the players the step can target, in order")
        among = t["among"]
        if not isinstance(among, list) or not among:
            self.fail(_at(where, "target.among"), f"expected a list of one or more players, got {_kind(among)}")
        names = tuple(self.player(p, players, _at(where, f"target.among item {i + 1}")) for i, p in enumerate(among))
        if len(set(names)) != len(names):
            self.fail(_at(where, "target.among"), "names a player twice")
        order = t.get("order", "fixed")
        if order not in _TARGET_ORDERS:
            self.fail(_at(where, "target.order"), f"expected one of {', '.join(_TARGET_ORDERS)}, got {_kind(order)}")
        return Target(names, order)

    def effects(self, raw: Any, state: Mapping[str, Any], section: str, name: str, target: Target | None) -> dict[str, Any]:
        table = self.table(raw, _at(section, name))
        out: dict[str, Any] = {}
        for key, value in table.items():
            here = _at(section, f"{name}.{key}")
            if key not in state:
                self.undeclared(here, key, state)
            current = state[key]
            is_bool = isinstance(current, bool)
            if isinstance(current, dict):
                if target is None:
                    self.fail(here, f"{key!r} is a per-player value: the step needs a 'target' saying whose")
                missing = [p for p in target.among if p not in current]
                if missing:
                    self.fail(_at(section, "target.among"), f"{', '.join(missing)} can be targeted but has no entry in [state] {key}")
            if name == "add" and isinstance(value, str) and _BIG.match(value) is None and not is_bool:
                out[key] = self.amount(value, state, here)
                continue
            if name in ("add", "mul"):
                if is_bool:
                    self.fail(here, f"{key!r} is a boolean; only integers can be {'added to' if name == 'add' else 'multiplied'}")
                if isinstance(value, bool):
                    self.fail(here, f"expected a whole number to {'add' if name == 'add' else 'multiply by'}, got {_kind(value)}")
                number = self.integer(value, here)
                if name == "mul" and number < 0:
                    self.fail(here, f"must be 0 or more, got {number}")
                out[key] = number
            else:
                if is_bool != isinstance(value, bool) or not isinstance(value, (int, str)) or (is_bool and not isinstance(value, bool)):
                    wanted = "true or false" if is_bool else "a whole number"
                    kind = "a boolean" if is_bool else "an integer"
                    self.fail(here, f"{key!r} is declared as {kind}; expected {wanted}, got {_kind(value)}")
                out[key] = value if isinstance(value, bool) else self.integer(value, here)
        return out

    def amount(self, value: str, state: Mapping[str, Any], where: str) -> Amount:
        """A string amount in ``add`` (FORMAT item 28): format 3, over the file's plain integers."""
        if self.format < 3:
            self.fail(where, f"a string amount ({_kind(value)}) is format 3: add 'format = 3' at the top of the file")
        plain = [k for k, v in state.items() if not isinstance(v, (bool, dict))]
        try:
            return parse_amount(value, plain)
        except AmountError as exc:
            self.fail(where, f"the amount {value[:60]!r}{'...' if len(value) > 60 else ''} {exc}")

    def requirements(self, raw: Any, state: Mapping[str, Any], where: str) -> dict[str, Any]:
        table = self.table(raw, _at(where, "requires"))
        out = {}
        for key, value in table.items():
            here = _at(where, f"requires.{key}")
            if key not in state:
                self.undeclared(here, key, state)
            if isinstance(state[key], bool) or isinstance(state[key], dict):
                self.fail(here, f"{key!r} is not a plain integer; 'requires' reads plain integers only")
            out[key] = self.integer(value, here)
        return out

    def event(self, raw: Any, where: str) -> EndsLoop:
        e = self.table(raw, _at(where, "ends_loop"))
        self.keys(e, {"when", "chance", "hidden"}, where, "ends_loop")
        if "when" not in e:
            self.fail(_at(where, "ends_loop.when"), "is required: the event, in words")
        when = self.text(e["when"], _at(where, "ends_loop.when"))
        chance = None
        if "chance" in e:
            chance = self.chance(e["chance"], _at(where, "ends_loop.chance"))
        hidden = self.flag(e["hidden"], _at(where, "ends_loop.hidden")) if "hidden" in e else False
        return EndsLoop(when, chance, hidden)

    def chance(self, value: Any, where: str) -> Fraction:
        m = re.fullmatch(r"([0-9]{1,30})/([0-9]{1,30})", value) if isinstance(value, str) else None
        if m is None:
            self.fail(where, f"expected a fraction \"p/q\" of whole numbers, got {_kind(value)}")
        p, q = int(m.group(1)), int(m.group(2))
        if q == 0 or not 0 < p <= q:
            self.fail(where, f"{value!r} is not a chance in (0, 1]: give \"p/q\" with 0 < p <= q")
        return Fraction(p, q)

    def loop(self, raw: Any, state: Mapping[str, Any]) -> LoopFlags:
        table = self.table(raw, "'loop'")
        self.keys(table, _LOOP_KEYS_1, "[loop]", later=_LOOP_KEYS_2, later3=_LOOP_KEYS_3)
        flags = {k: self.flag(table[k], _at("[loop]", k)) for k in ("independent", "spans_turns", "meaningful_change", "shortcut_before") if k in table}
        ends = None
        if "ends_when" in table:
            value, bound, at_most = self.bound(table["ends_when"], state, "[loop]", "ends_when")
            ends = EndsWhen(value, bound, at_most)
        ends_with = None
        if "ends_with" in table:
            ends_with = self.text(table["ends_with"], _at("[loop]", "ends_with"))
            if ends is None:
                self.fail(_at("[loop]", "ends_with"), "describes how the loop ends, so it needs 'ends_when' too")
        within = "priority"
        if "within" in table:
            within = table["within"]
            if within not in ("priority", "resolution"):
                self.fail(_at("[loop]", "within"), f"expected \"priority\" or \"resolution\", got {_kind(within)}")
        return LoopFlags(ends_when=ends, ends_with=ends_with, within=within, **flags)

    def bound(self, raw: Any, state: Mapping[str, Any], section: str, name: str, *, per_player: bool = False) -> tuple[str, int, bool]:
        """``{ value = NAME, at_most = N }`` or ``at_least``: a bound on an integer in [state]."""
        where = _at(section, name)
        e = self.table(raw, where)
        self.keys(e, {"value", "at_most", "at_least"} | ({"player"} if per_player else set()), section, name)
        if "value" not in e:
            self.fail(_at(section, f"{name}.value"), "is required: the name of an integer in [state]")
        value = e["value"]
        if isinstance(value, str) and value in self.unsettled:
            raise _Stop  # its [state] entry's error says what is wrong
        if not isinstance(value, str) or value not in state:
            what = f"{_short(value)} is not declared in [state]" if isinstance(value, str) else f"expected the name of an integer in [state], got {_kind(value)}"
            self.fail(_at(section, f"{name}.value"), what)
        if isinstance(state[value], bool):
            self.fail(_at(section, f"{name}.value"), f"{value!r} is a boolean; {name} needs an integer")
        if isinstance(state[value], dict) and section == "[loop]":
            self.fail(_at(section, f"{name}.value"), f"{value!r} is a per-player value; use an [[end]] table for it")
        bounds = [k for k in ("at_most", "at_least") if k in e]
        if len(bounds) != 1:
            self.fail(where, "needs exactly one of 'at_most' or 'at_least'")
        bound = self.integer(e[bounds[0]], _at(section, f"{name}.{bounds[0]}"))
        return value, bound, bounds[0] == "at_most"

    def ends(self, raw: Any, players: tuple[str, ...], state: Mapping[str, Any], loop: LoopFlags) -> tuple[End, ...]:
        if raw == []:
            return ()
        if not isinstance(raw, list):
            self.record("'end'", "expected [[end]] tables")
            return ()
        if loop.ends_when is not None:
            self.record("'end'", "[loop] ends_when and [[end]] tables don't mix: write every end as an [[end]] table")

        def one(item: Any) -> End:
            i, e = item
            where = f"end {i + 1}"
            t = self.table(e, where)
            self.keys(t, {"when", "effect", "loses"}, where, later={"except"}, later3=_END_KEYS_3)
            if "when" not in t:
                self.fail(_at(where, "when"), "is required: { value = NAME, at_most = N } or at_least")
            value, bound, at_most = self.bound(t["when"], state, where, "when")
            effect = self.text(t["effect"], _at(where, "effect")) if "effect" in t else ""
            loses, each = None, False
            if "loses" in t:
                raw_loses = t["loses"]
                per = isinstance(state[value], dict)
                if raw_loses is True:
                    if not per:
                        self.fail(_at(where, "loses"), f"true means 'the player whose own {value} it is', but {value!r} is not a per-player value; name the player who loses")
                    each = True
                elif raw_loses is False:
                    pass
                else:
                    loses = self.player(raw_loses, players, _at(where, "loses"))
                    if per:
                        self.fail(_at(where, "loses"), f"{value!r} is a per-player value: write 'loses = true' (each player whose own value reaches the bound loses)")
            exempt: tuple[str, ...] = ()
            if "except" in t:
                # FORMAT item 21: players for whom the bound does not hold ("You can't lose the game").
                raw_except = t["except"]
                if not isinstance(state[value], dict):
                    self.fail(_at(where, "except"), f"names players for whom the bound doesn't hold, but {value!r} is not a per-player value")
                if not isinstance(raw_except, list) or not raw_except:
                    self.fail(_at(where, "except"), f"expected a list of one or more players, got {_kind(raw_except)}")
                exempt = tuple(self.player(p, players, _at(where, f"except item {k + 1}")) for k, p in enumerate(raw_except))
                if len(set(exempt)) != len(exempt):
                    self.fail(_at(where, "except"), "names a player twice")
            instead, instead_player, once = None, None, False
            if "once" in t:
                once = self.flag(t["once"], _at(where, "once"))
            if "instead" in t:
                instead, instead_player = self.instead(t["instead"], where, players, state, value, each)
                if not once:
                    self.fail(_at(where, "once"), "must be true with 'instead': the replacement applies the first time the end would act (FORMAT item 26)")
            elif once:
                self.fail(_at(where, "once"), "goes with 'instead': what happens the first time the end would act")
            return End(value, bound, at_most, effect, loses, each, exempt, instead, instead_player, once)

        return tuple(self.each(enumerate(raw), one))

    def instead(self, raw: Any, where: str, players: tuple[str, ...], state: Mapping[str, Any], value: str, each: bool) -> tuple[dict[str, Any], str | None]:
        """``instead = { set = {...} }`` (``player`` on a per-player end): the values set the first
        time the end would act, instead of its action (FORMAT item 26)."""
        t = self.table(raw, _at(where, "instead"))
        self.keys(t, {"set", "player"}, where, "instead")
        if "set" not in t:
            self.fail(_at(where, "instead.set"), "is required: the values set instead, e.g. { life = 20 }")
        player = None
        if "player" in t:
            player = self.player(t["player"], players, _at(where, "instead.player"))
        elif each:
            self.fail(_at(where, "instead.player"), f"is required on an end of a per-player value ({value!r}): name the player whose loss is replaced")
        raw_set = self.table(t["set"], _at(where, "instead.set"))
        out: dict[str, Any] = {}
        for key, v in raw_set.items():
            here = _at(where, f"instead.set.{key}")
            if key not in state:
                self.undeclared(here, key, state)
            current = state[key]
            if isinstance(current, dict) and (player is None or player not in current):
                self.fail(here, f"{key!r} is a per-player value: name the player ('instead.player') whose entry is set")
            if isinstance(current, bool) != isinstance(v, bool):
                self.fail(here, f"{key!r} is declared as {'a boolean' if isinstance(current, bool) else 'an integer'}; got {_kind(v)}")
            out[key] = v if isinstance(v, bool) else self.integer(v, here)
        return out, player

    def breakers(self, raw: Any, players: tuple[str, ...]) -> tuple[Breaker, ...]:
        if not isinstance(raw, list):
            self.record("'breaker'", "expected [[breaker]] tables")
            return ()

        def one(item: Any) -> Breaker:
            i, b = item
            where = f"breaker {i + 1}"
            t = self.table(b, where)
            self.keys(t, {"by", "does"}, where, later={"hidden"}, later3=_BREAKER_KEYS_3)
            for key in ("by", "does"):
                if key not in t:
                    self.fail(_at(where, key), "is required")
            hidden = self.flag(t["hidden"], _at(where, "hidden")) if "hidden" in t else False
            still = self.count(t["still_resolves"], _at(where, "still_resolves"), hint="give how many loop steps still resolve") if "still_resolves" in t else 0
            return Breaker(self.player(t["by"], players, _at(where, "by")), self.text(t["does"], _at(where, "does")), hidden, still)

        return tuple(self.each(enumerate(raw), one))

    def intents(self, raw: Any, players: tuple[str, ...], size: int, state: Mapping[str, Any], steps: tuple[Step, ...] = ()) -> dict[str, Intent]:
        try:
            table = self.table(raw, "'intent'")
        except _Stop:
            return {}
        out = {}

        def one(item: Any) -> None:
            name, value = item
            where = _at("[intent]", name)
            if name not in players:
                self.fail(where, f"{name!r} is not one of the players ({', '.join(players)})")
            if value == "never":
                out[name] = Intent()
            elif isinstance(value, dict) and "until" in value:
                self.needs_format_2(where, "a goal ('until')")
                self.keys(value, {"until"}, "[intent]", name)
                out[name] = Intent(until=self.goal(value["until"], state, players, "[intent]", f"{name}.until"))
            elif isinstance(value, dict):
                self.keys(value, {"after", "step"}, "[intent]", name, later3={"inner"})
                for key in ("after", "step"):
                    if key not in value:
                        self.fail(_at("[intent]", f"{name}.{key}"), "is required in an {after, step} intent")
                after = self.count(value["after"], _at("[intent]", f"{name}.after"))
                step = self.count(value["step"], _at("[intent]", f"{name}.step"))
                if step >= size:
                    self.fail(_at("[intent]", f"{name}.step"), f"must be less than the number of steps ({size}), got {step}")
                inner = self.inner_point(value["inner"], name, step, steps) if "inner" in value else None
                out[name] = Intent(after, step, inner=inner)
            elif isinstance(value, str) and value.strip().lower() not in _INFINITE_WORDS and not _BIG.match(value):
                self.fail(where, f"expected \"never\", a whole number, {{after, step}} or {{until = ...}}, got {_kind(value)}")
            else:
                out[name] = Intent(self.count(value, where))

        self.each(table.items(), one)
        return out

    # --- the scenario as a whole ------------------------------------------------------------------

    def inner_point(self, raw: Any, name: str, step: int, steps: tuple[Step, ...]) -> tuple[int, int]:
        """``inner = {after = M, step = T}`` in an intent: a point inside the run of step
        ``step + 1`` (FORMAT item 29), after M complete inner iterations and T inner steps."""
        where = _at("[intent]", f"{name}.inner")
        table = self.table(raw, where)
        self.keys(table, {"after", "step"}, "[intent]", f"{name}.inner")
        for key in ("after", "step"):
            if key not in table:
                self.fail(_at("[intent]", f"{name}.inner.{key}"), "is required in an inner point {after, step}")
        m = self.count(table["after"], _at("[intent]", f"{name}.inner.after"), hint="give complete inner iterations")
        t = self.count(table["step"], _at("[intent]", f"{name}.inner.step"), hint="give inner steps")
        if step >= len(steps):
            raise _Stop
        run = steps[step].run
        if run is None:
            self.fail(where, f"is a point inside a run, but step {step + 1} (the step after {{after, step = {step}}}) has no 'run'")
        size = len(run.loop.steps)
        if t >= size:
            self.fail(_at("[intent]", f"{name}.inner.step"), f"must be less than the number of steps of inner loop {run.loop.id!r} ({size}), got {t}")
        if m == 0 and t == 0:
            self.fail(where, f"is the start of the run, the same moment as {{after, step = {step}}} before step {step + 1}: write the intent without 'inner'")
        if run.times is not None and (m, t) >= (run.times, 0):
            self.fail(where, f"falls at or after the end of the run ({run.times:,} inner iterations): a point inside a run comes before its last inner step ends")
        return m, t

    def turns(self, steps: tuple[Step, ...], active: str, loop: LoopFlags) -> LoopFlags:
        """``turn`` on any step implies a loop across turns; the first step's turn is the active player's."""
        if not any(s.turn for s in steps):
            return loop
        if steps[0].turn and steps[0].turn != active:
            self.record(_at("step 1", "turn"), f"is {steps[0].turn}, but the loop starts in the active player's turn ({active})")
        if not loop.spans_turns:
            loop = LoopFlags(**{**loop.__dict__, "spans_turns": True})
        return loop

    def whole(self, scenario: Scenario) -> None:
        """Checks that need the whole scenario: resolutions, points to deviate, ends, floors."""
        loop = scenario.loop
        steps = scenario.steps
        if loop.within == "resolution":
            for flag in ("spans_turns", "shortcut_before"):
                if getattr(loop, flag):
                    self.record(_at("[loop]", flag), "doesn't combine with within = \"resolution\": the repetition happens inside one resolution")
            for i, s in enumerate(steps):
                if s.turn:
                    self.record(_at(f"step {i + 1}", "turn"), "doesn't combine with within = \"resolution\": nobody's turn changes inside one resolution")
            if scenario.breakers:
                self.record("breaker 1", "no player receives priority inside one resolution, so nobody can act outside it mid-way: a breaker can't be used")
        choosers = {s.by for s in steps if s.choice or s.optional}
        for i, s in enumerate(steps):
            where = f"step {i + 1}"
            if not s.priority and loop.within == "resolution":
                self.warn(_at(where, "priority"), "is redundant inside one resolution: nobody receives priority until the repetition stops")
            if s.unless is not None and s.unless.still_resolves > len(steps):
                self.record(_at(where, "unless.still_resolves"), f"is {s.unless.still_resolves}, more than one iteration's {len(steps)} steps")
        for i, b in enumerate(scenario.breakers):
            if b.still_resolves > len(steps):
                self.record(_at(f"breaker {i + 1}", "still_resolves"), f"is {b.still_resolves}, more than one iteration's {len(steps)} steps")
        payers = {p for s in scenario.every_step if s.unless is not None and s.unless.payment for p in s.payers}
        for player, intent in scenario.intents.items():
            if intent.never:
                continue
            where = _at("[intent]", player)
            if player in payers and not self.has_point(scenario, player):
                self.record(where, f"{player}'s only role in the loop is to pay ('breaks = false'), which no intent governs: write the payments with 'pays' (\"always\", \"never\" or a number)")
                continue
            if loop.within == "resolution":
                if player not in choosers:
                    self.record(where, f"{player} has no choice inside the resolution, so no intent but \"never\" can apply")
            elif not self.has_point(scenario, player):
                self.either(where, f"{player} has no point to deviate: in a loop of mandatory actions only a breaker, an 'unless' to pay or a choice of their own can stop it, and {player} has none")
        if scenario.format >= 2:
            for i, end in enumerate(scenario.ends):
                if _holds_at_start(scenario, end):
                    self.record(_at(f"end {i + 1}", "when"), f"already holds before the first step ({end.value} starts at {_start_text(scenario.state[end.value])}); the loop would never start")
        self.floors(scenario)
        try:
            stack_checks.check(self, scenario)  # format 3: priority = false (FORMAT item 23)
        except (Unsettleable, TooLarge):
            # The warnings need the engine's view of the loop; a loop it can't settle is refused by
            # `compare` (exit 2, naming the step and the key: FORMAT item 31), not by the loader.
            pass

    def has_point(self, scenario: Scenario, player: str) -> bool:
        """docs/FORMAT.md item 7: an optional step that sustains, a choice, an 'unless' to pay, or a breaker.

        In a loop someone maintains with optional actions, every player receives priority between
        them and may intervene there (CR 421.2, 729.2b): that is a point too.  Only in a loop of
        mandatory actions does a player need a means of their own.
        """
        if any((s.optional and s.sustains) or (s.choice and (s.optional or scenario.format >= 2)) for s in scenario.steps):
            return True
        for s in scenario.steps:
            if s.by == player and ((s.optional and s.sustains) or s.choice):
                return True
            if s.unless is not None and s.unless.by == player and not s.unless.payment:
                return True  # a payment ('breaks = false') is not a point to deviate (FORMAT item 25)
        return any(b.by == player for b in scenario.breakers)

    def floors(self, scenario: Scenario) -> None:
        """A value that only goes down, with no floor and no end on it, will go below zero: say so."""
        ended = {e.value for e in scenario.end_conditions}
        for name, start in scenario.state.items():
            # Per-player values are life totals and the like, which may go negative; resources are plain.
            if isinstance(start, (bool, Mapping)) or name in ended or scenario.limits.get(name, Limits()).min is not None:
                continue
            if _MAY_GO_NEGATIVE.search(name):
                continue  # a life total or a creature's toughness may honestly go below zero
            lowering = [i + 1 for i, s in enumerate(scenario.steps) if (s.add.get(name, 0) < 0)]
            if lowering:
                step = lowering[0]
                self.warn(
                    _at(f"step {step}", f"add.{name}"),
                    f"lowers {name!r}, which has no 'min' and no end, so it can go below zero; a resource "
                    f"(mana, cards, counters) needs a floor: {name} = {{ start = ..., min = 0 }} (life may go negative)",
                )

    def expectations(self, raw: Any, scenario: Scenario) -> dict[str, dict[str, Any]]:
        try:
            table = self.table(raw, "'expect'")
        except _Stop:
            return {}
        out: dict[str, dict[str, Any]] = {}
        named: dict[str, str] = {}
        reg = registry()

        def one(item: Any) -> None:
            key, fields = item
            where = f"[expect.{key}]"
            try:
                ruleset = reg.get(key)
            except UnknownRuleset as exc:
                self.fail(where, f"{exc}")
            if ruleset.key in named:
                self.fail(where, f"expects the same ruleset as [expect.{named[ruleset.key]}] ({ruleset.key}); give each ruleset one block")
            named[ruleset.key] = key
            fields = self.table(fields, where)
            self.keys(fields, _EXPECT_KEYS_1, where, later=_EXPECT_KEYS_2)
            checked = self.each(fields.items(), lambda f: (f[0], self.expected(f[0], f[1], scenario, where, f[0])))
            out[ruleset.key] = dict(checked)

        self.each(table.items(), one)
        return out

    def expected(self, name: str, value: Any, scenario: Scenario, section: str, field: str) -> Any:
        players = scenario.players
        where = _at(section, field)
        if name == "result":
            known = [r.value for r in Result]
            if value not in known:
                self.fail(where, f"expected one of {', '.join(known)}, got {_kind(value)}")
            return value
        if name == "iterations":
            if isinstance(value, dict):
                return {self.player(p, players, _at(section, f"{field}.{p}")): self.expected_count(v, _at(section, f"{field}.{p}")) for p, v in value.items()}
            return self.expected_count(value, where)
        if name == "steps":
            return self.count(value, where, hint="give the expected whole number")
        if name in ("deviates", "last_action"):
            return self.player(value, players, where)
        if name == "state":
            return self.expected_state(value, scenario, section, where)
        if name == "judge":
            return self.flag(value, where)
        if name in ("ended_by", "ends_early_if"):
            return self.text(value, where)
        if name == "stopped_by":
            if value not in _STOPPED_BY:
                self.fail(where, f"expected one of {', '.join(_STOPPED_BY)}, got {_kind(value)}")
            return value
        if name == "expected_iterations":
            if not isinstance(value, (str, int)) or isinstance(value, bool) or not re.fullmatch(r"[0-9]+(/[0-9]+)?", str(value)):
                self.fail(where, f"expected an exact number \"a/b\" or \"a\", got {_kind(value)}")
            # Each part read as a whole number without its leading zeros, so "1/00" is a zero
            # denominator too, and none longer than integers may be (int() and Fraction() refuse
            # more than 4,300 characters of digits, leading zeros included, with a traceback).
            parts = [part.lstrip("0") or "0" for part in str(value).split("/")]
            if any(len(part) > MAX_DIGITS for part in parts):
                self.fail(where, f"has more than {MAX_DIGITS:,} digits in a part; numbers are limited to {MAX_DIGITS:,} digits")
            if len(parts) == 2 and parts[1] == "0":
                self.fail(where, "has a zero denominator")
            return str(Fraction("/".join(parts)))
        if name in ("after_cut", "part"):
            number = self.count(value, where, hint="give the expected whole number")
            if name == "part" and number < 1:
                self.fail(where, "parts are counted from 1")
            return number
        if name == "inner":
            t = self.table(value, where)
            self.keys(t, {"iterations", "steps"}, section, field)
            return {"iterations": self.expected_count(t.get("iterations", 0), where), "steps": self.count(t.get("steps", 0), where, hint="give the expected whole number")}
        if name == "inner_results":
            t = self.table(value, where)
            known = [r.value for r in Result]
            for inner_id, result in t.items():
                if result not in known:
                    self.fail(_at(section, f"{field}.{inner_id}"), f"expected one of {', '.join(known)}, got {_kind(result)}")
            return dict(t)
        if name == "parts":
            if not isinstance(value, list):
                self.fail(where, f"expected a list of tables of outcome fields, one per part, got {_kind(value)}")
            outcomes: list[dict[str, Any]] = []
            for i, part in enumerate(value):
                here = f"{field} item {i + 1}"
                t = self.table(part, _at(section, here))
                self.keys(t, _EXPECT_KEYS_1 - {"parts"}, section, here)
                outcomes.append({k: self.expected(k, v, scenario, section, f"{here}.{k}") for k, v in t.items()})
            return outcomes
        if name == "eliminated":
            if not isinstance(value, list):
                self.fail(where, f"expected a list of {{player, iterations, steps}} tables, got {_kind(value)}")
            entries = []
            for i, e in enumerate(value):
                here = _at(section, f"{field} item {i + 1}")
                t = self.table(e, here)
                self.keys(t, {"player", "iterations", "steps", "inner"}, section, f"{field} item {i + 1}")
                if "player" not in t:
                    self.fail(here, "needs 'player'")
                entry = {
                    "player": self.player(t["player"], players, here),
                    "iterations": self.expected_count(t.get("iterations", 0), here),
                    "steps": self.count(t.get("steps", 0), here, hint="give the expected whole number"),
                }
                if "inner" in t:
                    # inside a run (FORMAT item 29): the inner point where they left
                    entry["inner"] = self.expected("inner", t["inner"], scenario, section, f"{field} item {i + 1}.inner")
                entries.append(entry)
            return entries
        if not isinstance(value, list) or not all(isinstance(r, str) for r in value):
            self.fail(where, "expected a list of rule ids")
        return list(value)

    def expected_state(self, value: Any, scenario: Scenario, section: str, where: str) -> dict[str, Any]:
        table = self.table(value, where)
        out: dict[str, Any] = {}
        for k, v in table.items():
            here = _at(section, f"state.{k}")
            if k not in scenario.state:
                self.fail(here, f"{k!r} is not declared in [state]")
            declared = scenario.state[k]
            if isinstance(declared, bool):
                if not isinstance(v, bool):
                    self.fail(here, f"{k!r} is a boolean; expected true or false, got {_kind(v)}")
                out[k] = v
            elif isinstance(declared, dict):
                per = self.table(v, here)
                entries = {}
                for player, pv in per.items():
                    if player not in declared:
                        self.fail(_at(section, f"state.{k}.{player}"), f"{_short(player)} has no entry in [state] {k}")
                    entries[player] = self.expected_integer(pv, _at(section, f"state.{k}.{player}"), k)
                out[k] = entries
            else:
                out[k] = self.expected_integer(v, here, k)
        return out

    def expected_integer(self, v: Any, here: str, k: str) -> Any:
        if v == "unbounded":
            return v
        if isinstance(v, str) and _EXPRESSION.fullmatch(v):
            if _BIG.match(v):
                return self.integer(v, here)
            try:  # item 14's C*M^(E), or format 3's sum of such terms (FORMAT item 28)
                huge_values.parse(v)
            except huge_values.HugeValueError as exc:
                self.fail(here, f"{_short(v)} {exc}")
            return v
        if isinstance(v, bool) or not isinstance(v, int):
            self.fail(here, f"{k!r} is an integer; expected a whole number, \"unbounded\" or an exact expression, got {_kind(v)}")
        return self.sized(v, here)

    def expected_count(self, value: Any, where: str) -> Any:
        if value == "unbounded":
            return value
        return self.count(value, where, hint='write "unbounded" or a whole number')


# An exact expression for a huge value (docs/FORMAT.md item 14): digits, ^ * + - / ( ).
_EXPRESSION = re.compile(r"[0-9^*+\-/()]{1,2000}")


def _holds_at_start(scenario: Scenario, end: End) -> bool:
    start = scenario.state[end.value]
    values = list(start.values()) if isinstance(start, Mapping) else [start]
    return any((v <= end.bound) if end.at_most else (v >= end.bound) for v in values)


def _start_text(start: Any) -> str:
    if isinstance(start, Mapping):
        return ", ".join(f"{p} {v}" for p, v in start.items())
    return str(start)


def _at(section: str, path: str) -> str:
    """How messages name a field: ``step 2: 'by'``, ``[intent]: 'Bob.step'``, ``'title'``."""
    return f"{section}: '{path}'" if section else f"'{path}'"


#: A run of digits longer than Python converts to an integer (4,300 characters), underscores allowed.
_LONG_DIGITS = re.compile(r"\d[\d_]{4300,}")
#: A number written out in a message: more than 30 digits are shortened.
_MANY_DIGITS = re.compile(r"\d{31,}")


def _abbreviated(message: str) -> str:
    """A message with every number of more than 30 digits shortened to its first and last
    digits and its length (a 1,000-digit number is not repeated whole)."""
    return _MANY_DIGITS.sub(lambda m: f"{m.group()[:12]}...{m.group()[-4:]} ({len(m.group()):,} digits)", message)


def _short(value: str) -> str:
    return repr(value) if len(value) < 60 else repr(value[:57] + "...")


def _kind(value: Any) -> str:
    """A TOML-ish name for a value's type, for messages."""
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int):
        digits = str(value) if abs(value) < 10**30 else f"{str(value)[:12]}... ({len(str(abs(value)))} digits)"
        return f"the number {digits}"
    if isinstance(value, float):
        return f"a decimal number ({value})"
    if isinstance(value, str):
        return f"the string {value!r}" if len(value) < 40 else "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return f"a date or time ({value})" if hasattr(value, "isoformat") else type(value).__name__


def to_document(scenario: Scenario) -> dict[str, Any]:
    """The scenario as the TOML document that describes it (the inverse of :func:`parse_document`).

    Used to validate a scenario built in code exactly as a file is validated: the document is
    parsed back, so every rule of the loader applies.  Defaults are left out.
    """
    doc: dict[str, Any] = {}
    if scenario.format != 1:
        doc["format"] = scenario.format
    doc["title"] = scenario.title
    if scenario.description:
        doc["description"] = scenario.description
    if scenario.source:
        doc["source"] = scenario.source
    if scenario.tags:
        doc["tags"] = list(scenario.tags)
    metadata.to_document(scenario, doc)
    doc["players"] = list(scenario.players)
    if scenario.active and scenario.players and scenario.active != scenario.players[0]:
        doc["active"] = scenario.active
    if scenario.state:
        state: dict[str, Any] = {}
        def bounded(start: Any, limits: Limits | None) -> Any:
            if limits is None or (limits.min is None and limits.max is None):
                return start
            return {"start": start, **({"min": limits.min} if limits.min is not None else {}), **({"max": limits.max} if limits.max is not None else {})}

        for name, start in scenario.state.items():
            if isinstance(start, Mapping):
                entries = scenario.entry_limits.get(name, {})
                state[name] = {p: bounded(v, entries.get(p)) for p, v in start.items()}
            else:
                state[name] = bounded(start, scenario.limits.get(name))
        doc["state"] = state
    doc["step"] = [_step_document(step) for step in scenario.steps]
    loop: dict[str, Any] = {}
    for flag in ("independent", "spans_turns", "meaningful_change", "shortcut_before"):
        if getattr(scenario.loop, flag):
            loop[flag] = True
    if scenario.loop.ends_when is not None:
        ends = scenario.loop.ends_when
        loop["ends_when"] = {"value": ends.value, "at_most" if ends.at_most else "at_least": ends.bound}
    if scenario.loop.ends_with is not None:
        loop["ends_with"] = scenario.loop.ends_with
    if scenario.loop.within != "priority":
        loop["within"] = scenario.loop.within
    if scenario.exists_from:
        loop["exists_from"] = scenario.exists_from
        loop["because"] = scenario.because
    if loop:
        doc["loop"] = loop
    if scenario.ends:
        ends_out = []
        for end in scenario.ends:
            raw: dict[str, Any] = {"when": {"value": end.value, "at_most" if end.at_most else "at_least": end.bound}}
            if end.effect:
                raw["effect"] = end.effect
            if end.loses is not None:
                raw["loses"] = end.loses
            elif end.loses_each:
                raw["loses"] = True
            if end.exempt:
                raw["except"] = list(end.exempt)
            if end.instead is not None:
                raw["instead"] = {**({"player": end.instead_player} if end.instead_player else {}), "set": dict(end.instead)}
            if end.once:
                raw["once"] = True
            ends_out.append(raw)
        doc["end"] = ends_out
    if scenario.breakers:
        doc["breaker"] = [
            {"by": b.by, "does": b.does, **({"hidden": True} if b.hidden else {}), **({"still_resolves": b.still_resolves} if b.still_resolves else {})}
            for b in scenario.breakers
        ]
    if scenario.cards:
        doc["card"] = [
            {"name": c.name, **({"oracle_from": c.oracle_from} if c.oracle_from else {}), **({"printed": c.printed} if c.printed else {})}
            for c in scenario.cards
        ]
    intents: dict[str, Any] = {}
    for player, intent in scenario.intents.items():
        if intent.until is not None and intent.after is None:
            goal = intent.until
            until: dict[str, Any] = {"value": goal.value, "at_most" if goal.at_most else "at_least": goal.bound}
            if goal.player:
                until["player"] = goal.player
            intents[player] = {"until": until}
        elif intent.never:
            intents[player] = "never"
        elif intent.step is None:
            intents[player] = intent.after
        else:
            intents[player] = {"after": intent.after, "step": intent.step}
    if intents:
        doc["intent"] = intents
    return doc


def _step_document(step: Step) -> dict[str, Any]:
    raw: dict[str, Any] = {"by": step.by, "does": step.does}
    for flag in ("optional", "choice", "hidden", "random", "conditional"):
        if getattr(step, flag):
            raw[flag] = True
    for name in ("set", "add", "mul", "requires"):
        if getattr(step, name):
            raw[name] = dict(getattr(step, name))
    if step.amounts:  # format 3 string amounts (FORMAT item 28), written back in the grammar
        raw["add"] = {**raw.get("add", {}), **{k: str(v) for k, v in step.amounts.items()}}
    if step.times != 1:
        raw["times"] = step.times
    if step.target is not None:
        raw["target"] = {"among": list(step.target.among), "order": step.target.order}
    if not step.sustains:
        raw["sustains"] = False
    if step.alternative:
        raw["alternative"] = step.alternative
    if step.ends_loop is not None:
        event: dict[str, Any] = {"when": step.ends_loop.when}
        if step.ends_loop.chance is not None:
            event["chance"] = f"{step.ends_loop.chance.numerator}/{step.ends_loop.chance.denominator}"
        if step.ends_loop.hidden:
            event["hidden"] = True
        raw["ends_loop"] = event
    if step.turn:
        raw["turn"] = step.turn
    if not step.priority:
        raw["priority"] = False
    if step.unless is not None:
        u = step.unless
        unless: dict[str, Any] = {"by": u.by, "does": u.does}
        if not u.breaks:
            unless["breaks"] = False
        if u.pay:
            unless["pay"] = dict(u.pay)
        if u.pay_any:
            unless["pay_any"] = [dict(c) for c in u.pay_any]
        if u.pays != "always":
            unless["pays"] = dict(u.pays) if isinstance(u.pays, Mapping) else u.pays
        if u.still_resolves:
            unless["still_resolves"] = u.still_resolves
        raw["unless"] = unless
    return raw


def validate(scenario: Scenario, name: str = "<scenario>") -> ScenarioFile:
    """Check a scenario built in code as the loader checks a file; raise :class:`ScenarioError`.

    A scenario that is not a :class:`Scenario`, or whose parts are of the wrong kinds, is refused
    with the same kind of message a file would get.
    """
    if not isinstance(scenario, Scenario):
        raise ScenarioError(name, "", f"expected a loopcompare Scenario, got {type(scenario).__name__}")
    try:
        doc = to_document(scenario)
    except (AttributeError, TypeError) as exc:
        raise ScenarioError(name, "", f"is not a well-formed Scenario: {exc}") from None
    return parse_document(doc, name, identifier(scenario.title), file=name)


def identifier(title: str) -> str:
    """A scenario id from a title, for scenarios that have no file name."""
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "-".join(words)[:60] or "scenario"
