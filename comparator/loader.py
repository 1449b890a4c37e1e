"""Scenario files: TOML, format 1 (FORMAT.md), validated strictly.

Every error is a :class:`ScenarioError` naming the file and the field and saying what was
expected; unknown keys anywhere are errors, so a typo is never silently ignored.
"""

from __future__ import annotations

import difflib

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from loopcompare.rulesets import (
    Breaker,
    EndsWhen,
    Intent,
    LoopFlags,
    Scenario,
    Step,
    Unless,
)
from loopcompare.rulesets.outcome import Result
from loopcompare.rulesets.registry import UnknownRuleset, registry

#: Bounds that keep loading and settling cheap whatever the input (see README, "Limits").
MAX_BYTES = 1 << 20
MAX_STEPS = 256
MAX_PLAYERS = 64
MAX_TEXT = 10_000
MAX_DIGITS = 1_000
MAX_KEY_PARTS = 32

_TOP_KEYS = {"format", "title", "description", "source", "tags", "players", "active", "state", "step", "loop", "breaker", "intent", "expect"}
_STEP_KEYS = {"by", "does", "optional", "choice", "hidden", "random", "conditional", "set", "add", "unless"}
_LOOP_KEYS = {"independent", "spans_turns", "meaningful_change", "shortcut_before", "ends_when", "ends_with"}
_EXPECT_KEYS = {"result", "iterations", "steps", "deviates", "last_action", "state", "judge", "rules"}
_INFINITE_WORDS = {"infinite", "infinity", "inf", "forever", "unbounded", "\u221e"}


class ScenarioError(ValueError):
    """A scenario file that can't be used, with the file, the field, and what was expected."""

    def __init__(self, source: str, where: str, message: str) -> None:
        super().__init__(f"{source}: {where}: {message}" if where else f"{source}: {message}")
        self.source = source
        self.where = where
        self.message = message


@dataclass(frozen=True)
class ScenarioFile:
    """A loaded scenario with its identity (``id``, from the file name) and its expectations."""

    id: str
    file: str
    scenario: Scenario
    expect: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


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
        raise ScenarioError(name, "", f"the file is {len(raw):,} bytes; scenario files are limited to {MAX_BYTES:,} bytes")
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
    except (ValueError, RecursionError, MemoryError) as exc:
        raise ScenarioError(name, "", f"is not usable TOML: {exc}") from None
    return parse_document(doc, name, scenario_id, file=file)


def parse_document(doc: Mapping[str, Any], name: str, scenario_id: str, *, file: str | None = None) -> ScenarioFile:
    """Validate a parsed TOML document."""
    try:
        return _Parser(name).document(doc, scenario_id, file or name)
    except RecursionError:
        raise ScenarioError(name, "", "tables or lists are nested too deeply") from None


def _refuse_deep_keys(text: str, name: str) -> None:
    """Refuse dotted keys of more than :data:`MAX_KEY_PARTS` parts before parsing.

    tomllib takes quadratic time over a very long dotted key (``[a.a.a...]``), and no scenario
    needs more than three parts, so such a file is refused at once.
    """
    for number, line in enumerate(text.splitlines(), 1):
        head = line.split("=", 1)[0] if not line.lstrip().startswith("[") else line
        if head.count(".") >= MAX_KEY_PARTS:
            raise ScenarioError(name, f"line {number}", f"a key with more than {MAX_KEY_PARTS} dotted parts; scenario files never need that many")


class _Parser:
    """One file's validation; ``fail`` raises with the file's name."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, where: str, message: str):
        raise ScenarioError(self.name, where, message)

    # --- small checks -------------------------------------------------------------------------

    def keys(self, table: Mapping, allowed: set[str], section: str, prefix: str = "") -> None:
        unknown = sorted(set(table) - allowed)
        if unknown:
            close = difflib.get_close_matches(unknown[0], sorted(allowed), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            self.fail(_at(section, f"{prefix}.{unknown[0]}" if prefix else unknown[0]), f"unknown key{hint}; expected one of {', '.join(sorted(allowed))}")

    def text(self, value, where: str, *, required: bool = True) -> str:
        if not isinstance(value, str):
            self.fail(where, f"expected a string, got {_kind(value)}")
        if required and not value.strip():
            self.fail(where, "must not be empty")
        if len(value) > MAX_TEXT:
            self.fail(where, f"is {len(value):,} characters long; at most {MAX_TEXT:,} are allowed")
        return value

    def flag(self, value, where: str) -> bool:
        if not isinstance(value, bool):
            self.fail(where, f"expected true or false, got {_kind(value)}")
        return value

    def table(self, value, where: str) -> Mapping:
        if not isinstance(value, dict):
            self.fail(where, f"expected a table, got {_kind(value)}")
        return value

    def count(self, value, where: str, *, hint: str = 'use "never" or a finite number') -> int:
        if isinstance(value, str) and value.strip().lower() in _INFINITE_WORDS or isinstance(value, float) and value in (float("inf"), float("-inf")):
            self.fail(where, f"{value!r} is not a number: there is no infinity in Magic; {hint}")
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, f"expected a whole number, got {_kind(value)}")
        if value < 0:
            self.fail(where, f"must be 0 or more, got {value}")
        return self.sized(value, where)

    def sized(self, value: int, where: str) -> int:
        """Refuse integers of more than :data:`MAX_DIGITS` digits (results stay printable)."""
        if abs(value) >= 10**MAX_DIGITS:
            self.fail(where, f"a number of more than {MAX_DIGITS:,} digits; numbers are limited to {MAX_DIGITS:,} digits")
        return value

    def player(self, value, players: tuple[str, ...], where: str) -> str:
        if not isinstance(value, str):
            self.fail(where, f"expected a player's name, got {_kind(value)}")
        if value not in players:
            self.fail(where, f"is {_short(value)}, who is not one of the players ({', '.join(players)})")
        return value

    # --- the document -------------------------------------------------------------------------

    def document(self, doc: Mapping[str, Any], scenario_id: str, file: str) -> ScenarioFile:
        self.keys(doc, _TOP_KEYS, "")
        if "format" in doc and (type(doc["format"]) is not int or doc["format"] != 1):
            self.fail("'format'", f"unsupported format ({_kind(doc['format'])}); 1 is the only version")
        if "title" not in doc:
            self.fail("'title'", "is required")
        title = self.text(doc["title"], "'title'")
        description = self.text(doc.get("description", ""), "'description'", required=False)
        source = self.text(doc.get("source", ""), "'source'", required=False)
        tags = doc.get("tags", [])
        if not isinstance(tags, list):
            self.fail("'tags'", f"expected a list of strings, got {_kind(tags)}")
        tags = tuple(self.text(t, f"'tags' item {i + 1}") for i, t in enumerate(tags))
        players = self.players(doc)
        active = self.player(doc["active"], players, "'active'") if "active" in doc else players[0]
        state = self.state(doc.get("state", {}))
        steps = self.steps(doc, players, state)
        loop = self.loop(doc.get("loop", {}), state)
        breakers = self.breakers(doc.get("breaker", []), players)
        intents = self.intents(doc.get("intent", {}), players, len(steps))
        scenario = Scenario(
            title=title,
            players=players,
            steps=steps,
            active=active,
            state=state,
            loop=loop,
            breakers=breakers,
            intents=intents,
            description=description,
            source=source,
            tags=tags,
        )
        expect = self.expectations(doc.get("expect", {}), scenario)
        return ScenarioFile(scenario_id, file, scenario, expect)

    def players(self, doc) -> tuple[str, ...]:
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

    def state(self, raw) -> dict[str, bool | int]:
        table = self.table(raw, "'state'")
        out: dict[str, bool | int] = {}
        for key, value in table.items():
            where = _at("[state]", key)
            if isinstance(value, bool):
                out[key] = value
            elif isinstance(value, int):
                out[key] = self.sized(value, where)
            else:
                self.fail(where, f"expected true, false or a whole number, got {_kind(value)}")
        return out

    def steps(self, doc, players, state) -> tuple[Step, ...]:
        if "step" not in doc:
            self.fail("'step'", "is required: one [[step]] table per step of an iteration")
        raw = doc["step"]
        if not isinstance(raw, list) or not raw:
            self.fail("'step'", "expected one or more [[step]] tables")
        if len(raw) > MAX_STEPS:
            self.fail("'step'", f"has {len(raw)} steps; at most {MAX_STEPS} are supported")
        return tuple(self.step(s, i + 1, players, state) for i, s in enumerate(raw))

    def step(self, raw, number: int, players, state) -> Step:
        where = f"step {number}"
        table = self.table(raw, where)
        self.keys(table, _STEP_KEYS, where)
        for key in ("by", "does"):
            if key not in table:
                self.fail(_at(where, key), "is required")
        by = self.player(table["by"], players, _at(where, "by"))
        does = self.text(table["does"], _at(where, "does"))
        flags = {k: self.flag(table[k], _at(where, k)) for k in ("optional", "choice", "hidden", "random", "conditional") if k in table}
        assigns = self.effects(table.get("set", {}), state, where, "set", add=False)
        adds = self.effects(table.get("add", {}), state, where, "add", add=True)
        unless = None
        if "unless" in table:
            u = self.table(table["unless"], _at(where, "unless"))
            self.keys(u, {"by", "does"}, where, "unless")
            for key in ("by", "does"):
                if key not in u:
                    self.fail(_at(where, f"unless.{key}"), "is required")
            unless = Unless(self.player(u["by"], players, _at(where, "unless.by")), self.text(u["does"], _at(where, "unless.does")))
        return Step(by=by, does=does, set=assigns, add=adds, unless=unless, **flags)

    def effects(self, raw, state, section: str, name: str, *, add: bool) -> dict:
        table = self.table(raw, _at(section, name))
        out = {}
        for key, value in table.items():
            here = _at(section, f"{name}.{key}")
            if key not in state:
                declared = ", ".join(state) or "none"
                self.fail(here, f"{key!r} is not declared in [state] (declared: {declared})")
            is_bool = isinstance(state[key], bool)
            if add:
                if is_bool:
                    self.fail(here, f"{key!r} is a boolean; only integers can be added to")
                if isinstance(value, bool) or not isinstance(value, int):
                    self.fail(here, f"expected a whole number to add, got {_kind(value)}")
            elif is_bool != isinstance(value, bool) or not isinstance(value, int):
                wanted = "true or false" if is_bool else "a whole number"
                self.fail(here, f"{key!r} is declared as {'a boolean' if is_bool else 'an integer'}; expected {wanted}, got {_kind(value)}")
            out[key] = value if isinstance(value, bool) else self.sized(value, here)
        return out

    def loop(self, raw, state) -> LoopFlags:
        table = self.table(raw, "'loop'")
        self.keys(table, _LOOP_KEYS, "[loop]")
        flags = {k: self.flag(table[k], _at("[loop]", k)) for k in ("independent", "spans_turns", "meaningful_change", "shortcut_before") if k in table}
        ends = None
        if "ends_when" in table:
            where = _at("[loop]", "ends_when")
            e = self.table(table["ends_when"], where)
            self.keys(e, {"value", "at_most", "at_least"}, "[loop]", "ends_when")
            if "value" not in e:
                self.fail(_at("[loop]", "ends_when.value"), "is required: the name of an integer in [state]")
            value = e["value"]
            if not isinstance(value, str) or value not in state:
                what = f"{_short(value)} is not declared in [state]" if isinstance(value, str) else f"expected the name of an integer in [state], got {_kind(value)}"
                self.fail(_at("[loop]", "ends_when.value"), what)
            if isinstance(state[value], bool):
                self.fail(_at("[loop]", "ends_when.value"), f"{value!r} is a boolean; ends_when needs an integer")
            bounds = [k for k in ("at_most", "at_least") if k in e]
            if len(bounds) != 1:
                self.fail(where, "needs exactly one of 'at_most' or 'at_least'")
            bound = e[bounds[0]]
            if isinstance(bound, bool) or not isinstance(bound, int):
                self.fail(_at("[loop]", f"ends_when.{bounds[0]}"), f"expected a whole number, got {_kind(bound)}")
            self.sized(bound, _at("[loop]", f"ends_when.{bounds[0]}"))
            ends = EndsWhen(value, bound, bounds[0] == "at_most")
        ends_with = None
        if "ends_with" in table:
            ends_with = self.text(table["ends_with"], _at("[loop]", "ends_with"))
            if ends is None:
                self.fail(_at("[loop]", "ends_with"), "describes how the loop ends, so it needs 'ends_when' too")
        return LoopFlags(ends_when=ends, ends_with=ends_with, **flags)

    def breakers(self, raw, players) -> tuple[Breaker, ...]:
        if not isinstance(raw, list):
            self.fail("'breaker'", "expected [[breaker]] tables")
        out = []
        for i, b in enumerate(raw):
            where = f"breaker {i + 1}"
            t = self.table(b, where)
            self.keys(t, {"by", "does"}, where)
            for key in ("by", "does"):
                if key not in t:
                    self.fail(_at(where, key), "is required")
            out.append(Breaker(self.player(t["by"], players, _at(where, "by")), self.text(t["does"], _at(where, "does"))))
        return tuple(out)

    def intents(self, raw, players, size: int) -> dict[str, Intent]:
        table = self.table(raw, "'intent'")
        out = {}
        for name, value in table.items():
            where = _at("[intent]", name)
            if name not in players:
                self.fail(where, f"{name!r} is not one of the players ({', '.join(players)})")
            if value == "never":
                out[name] = Intent()
            elif isinstance(value, dict):
                self.keys(value, {"after", "step"}, "[intent]", name)
                for key in ("after", "step"):
                    if key not in value:
                        self.fail(_at("[intent]", f"{name}.{key}"), "is required in an {after, step} intent")
                after = self.count(value["after"], _at("[intent]", f"{name}.after"))
                step = self.count(value["step"], _at("[intent]", f"{name}.step"))
                if step >= size:
                    self.fail(_at("[intent]", f"{name}.step"), f"must be less than the number of steps ({size}), got {step}")
                out[name] = Intent(after, step)
            elif isinstance(value, str) and value.strip().lower() not in _INFINITE_WORDS:
                self.fail(where, f"expected \"never\", a whole number or {{after, step}}, got {_kind(value)}")
            else:
                out[name] = Intent(self.count(value, where))
        return out

    def expectations(self, raw, scenario: Scenario) -> dict[str, dict[str, Any]]:
        table = self.table(raw, "'expect'")
        out: dict[str, dict[str, Any]] = {}
        named: dict[str, str] = {}
        reg = registry()
        for key, fields in table.items():
            where = f"[expect.{key}]"
            try:
                ruleset = reg.get(key)
            except UnknownRuleset as exc:
                self.fail(where, f"{exc}")
            if ruleset.key in named:
                self.fail(where, f"expects the same ruleset as [expect.{named[ruleset.key]}] ({ruleset.key}); give each ruleset one block")
            named[ruleset.key] = key
            fields = self.table(fields, where)
            self.keys(fields, _EXPECT_KEYS, where)
            out[ruleset.key] = {name: self.expected(name, value, scenario, where, name) for name, value in fields.items()}
        return out

    def expected(self, name: str, value, scenario: Scenario, section: str, field: str):
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
            table = self.table(value, where)
            out = {}
            for k, v in table.items():
                here = _at(section, f"state.{k}")
                if k not in scenario.state:
                    self.fail(here, f"{k!r} is not declared in [state]")
                if isinstance(scenario.state[k], bool):
                    if not isinstance(v, bool):
                        self.fail(here, f"{k!r} is a boolean; expected true or false, got {_kind(v)}")
                elif v != "unbounded" and (isinstance(v, bool) or not isinstance(v, int)):
                    self.fail(here, f"{k!r} is an integer; expected a whole number or \"unbounded\", got {_kind(v)}")
                out[k] = v if isinstance(v, (bool, str)) else self.sized(v, here)
            return out
        if name == "judge":
            return self.flag(value, where)
        if not isinstance(value, list) or not all(isinstance(r, str) for r in value):
            self.fail(where, "expected a list of rule ids")
        return list(value)

    def expected_count(self, value, where: str):
        if value == "unbounded":
            return value
        return self.count(value, where, hint='write "unbounded" or a whole number')


def _at(section: str, path: str) -> str:
    """How messages name a field: ``step 2: 'by'``, ``[intent]: 'Bob.step'``, ``'title'``."""
    return f"{section}: '{path}'" if section else f"'{path}'"


def _short(value: str) -> str:
    return repr(value) if len(value) < 60 else repr(value[:57] + "...")


def _kind(value) -> str:
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
    doc: dict[str, Any] = {"title": scenario.title}
    if scenario.description:
        doc["description"] = scenario.description
    if scenario.source:
        doc["source"] = scenario.source
    if scenario.tags:
        doc["tags"] = list(scenario.tags)
    doc["players"] = list(scenario.players)
    if scenario.active and scenario.players and scenario.active != scenario.players[0]:
        doc["active"] = scenario.active
    if scenario.state:
        doc["state"] = dict(scenario.state)
    steps = []
    for step in scenario.steps:
        raw: dict[str, Any] = {"by": step.by, "does": step.does}
        for flag in ("optional", "choice", "hidden", "random", "conditional"):
            if getattr(step, flag):
                raw[flag] = True
        if step.set:
            raw["set"] = dict(step.set)
        if step.add:
            raw["add"] = dict(step.add)
        if step.unless is not None:
            raw["unless"] = {"by": step.unless.by, "does": step.unless.does}
        steps.append(raw)
    doc["step"] = steps
    loop: dict[str, Any] = {}
    for flag in ("independent", "spans_turns", "meaningful_change", "shortcut_before"):
        if getattr(scenario.loop, flag):
            loop[flag] = True
    if scenario.loop.ends_when is not None:
        ends = scenario.loop.ends_when
        loop["ends_when"] = {"value": ends.value, "at_most" if ends.at_most else "at_least": ends.bound}
    if scenario.loop.ends_with is not None:
        loop["ends_with"] = scenario.loop.ends_with
    if loop:
        doc["loop"] = loop
    if scenario.breakers:
        doc["breaker"] = [{"by": b.by, "does": b.does} for b in scenario.breakers]
    intents: dict[str, Any] = {}
    for player, intent in scenario.intents.items():
        if intent.never:
            intents[player] = "never"
        elif intent.step is None:
            intents[player] = intent.after
        else:
            intents[player] = {"after": intent.after, "step": intent.step}
    if intents:
        doc["intent"] = intents
    return doc


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
    return parse_document(doc, name, _identifier(scenario.title), file=name)


def _identifier(title: str) -> str:
    """A scenario id from a title, for scenarios that have no file name."""
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "-".join(words)[:60] or "scenario"
