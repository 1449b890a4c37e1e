"""The library's descriptive keys: ``[[oracle]]``, ``[[ruling]]`` and ``simplified``.

They say where a loop comes from (the cards' Oracle text, the published rulings that decide it in
some era, what the file had to simplify) and change nothing about how it is settled, like
``title``, ``description``, ``source`` and ``tags``.  They are accepted in every format;
docs/LIBRARY.md describes them.  Every value is the file's own text, untrusted: reports escape it.
"""

from __future__ import annotations

import datetime
import re
from typing import Any, Callable, Mapping, NoReturn, Protocol

from loopcompare.rulesets import OracleText, Ruling, Scenario
from loopcompare.rulesets.registry import UnknownRuleset, registry


class Parser(Protocol):
    """What these checks ask of the loader's parser (:class:`.loader.Parser` is one): record a
    problem, or record it and abandon the item, and its small checks.  Named here so that the
    metadata never imports the loader, which imports it."""

    def fail(self, where: str, message: str) -> NoReturn: ...

    def record(self, where: str, message: str) -> None: ...

    def each(self, items: Any, check: Callable[[Any], Any]) -> list[Any]: ...

    def keys(self, table: Mapping[str, Any], allowed: set[str], section: str, prefix: str = "") -> None: ...

    def text(self, value: Any, where: str, *, required: bool = True) -> str: ...

    def table(self, value: Any, where: str) -> Mapping[str, Any]: ...

ORACLE_KEYS = ("name", "text", "date", "source")
RULING_KEYS = ("source", "title", "date", "quote", "eras")
RULING_OPTIONAL = ("author",)
MAX_ENTRIES = 64
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


def parse(parser: "Parser", doc: Mapping[str, Any]) -> tuple[tuple[OracleText, ...], tuple[Ruling, ...], str]:
    """The file's cards, rulings and simplification line; problems are recorded on ``parser``."""
    oracle = tuple(parser.each(_entries(parser, doc.get("oracle", []), "oracle"), lambda item: _oracle(parser, *item)))
    rulings = tuple(parser.each(_entries(parser, doc.get("ruling", []), "ruling"), lambda item: _ruling(parser, *item)))
    simplified = ""
    if "simplified" in doc:
        found = parser.each([doc["simplified"]], lambda v: parser.text(v, "'simplified'"))
        simplified = found[0] if found else ""
    return oracle, rulings, simplified


def _entries(parser: "Parser", raw: Any, key: str) -> list[tuple[int, Any]]:
    if not isinstance(raw, list):
        parser.record(f"'{key}'", f"expected [[{key}]] tables")
        return []
    if len(raw) > MAX_ENTRIES:
        parser.record(f"'{key}'", f"{len(raw):,} [[{key}]] tables; at most {MAX_ENTRIES} are allowed")
        return []
    return list(enumerate(raw))


def _required(parser: "Parser", table: Mapping[str, Any], where: str, keys: tuple[str, ...]) -> None:
    missing = [k for k in keys if k not in table]
    for key in missing[:-1]:
        parser.record(f"{where}: '{key}'", "is required")
    if missing:
        parser.fail(f"{where}: '{missing[-1]}'", "is required")


def _oracle(parser: "Parser", i: int, raw: Any) -> OracleText:
    where = f"oracle {i + 1}"
    table = parser.table(raw, where)
    parser.keys(table, set(ORACLE_KEYS), where)
    _required(parser, table, where, ORACLE_KEYS)
    return OracleText(
        name=parser.text(table["name"], f"{where}: 'name'"),
        text=parser.text(table["text"], f"{where}: 'text'"),
        date=date(parser, table["date"], f"{where}: 'date'"),
        source=parser.text(table["source"], f"{where}: 'source'"),
    )


def _ruling(parser: "Parser", i: int, raw: Any) -> Ruling:
    where = f"ruling {i + 1}"
    table = parser.table(raw, where)
    parser.keys(table, set(RULING_KEYS + RULING_OPTIONAL), where)
    _required(parser, table, where, RULING_KEYS)
    return Ruling(
        source=parser.text(table["source"], f"{where}: 'source'"),
        title=parser.text(table["title"], f"{where}: 'title'"),
        date=date(parser, table["date"], f"{where}: 'date'"),
        quote=parser.text(table["quote"], f"{where}: 'quote'"),
        eras=_eras(parser, table["eras"], f"{where}: 'eras'"),
        author=parser.text(table["author"], f"{where}: 'author'") if "author" in table else "",
    )


def date(parser: "Parser", value: Any, where: str) -> str:
    """A calendar date written as the string ``"YYYY-MM-DD"``."""
    if isinstance(value, (datetime.date, datetime.time)):
        parser.fail(where, f'write the date as a string in quotes, "YYYY-MM-DD" (got the TOML date {value.isoformat()})')
    if not isinstance(value, str) or not _DATE.match(value):
        shown = repr(value) if isinstance(value, str) else "a " + type(value).__name__
        parser.fail(where, f'expected a date "YYYY-MM-DD", got {shown[:60]}')
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        parser.fail(where, f"{value!r} is not a calendar date")
    return value


def _eras(parser: "Parser", value: Any, where: str) -> tuple[str, ...]:
    """Ruleset keys (an alias is read as its ruleset's key), at least one, none twice."""
    if not isinstance(value, list) or not value:
        parser.fail(where, "expected a list of one or more ruleset keys, like [\"cr-2004\", \"mtr-current\"]")
    reg = registry()
    keys: list[str] = []
    for n, item in enumerate(value, 1):
        if not isinstance(item, str):
            parser.fail(f"{where} item {n}", "expected a ruleset key (a string)")
        try:
            key = reg.get(item).key
        except UnknownRuleset as exc:
            parser.fail(f"{where} item {n}", str(exc))
        if key in keys:
            parser.fail(f"{where} item {n}", f"names {key} twice")
        keys.append(key)
    return tuple(keys)


def to_document(scenario: Scenario, doc: dict[str, Any]) -> None:
    """Add the scenario's metadata to its TOML document (the inverse of :func:`parse`)."""
    if scenario.oracle:
        doc["oracle"] = [{"name": o.name, "text": o.text, "date": o.date, "source": o.source} for o in scenario.oracle]
    if scenario.rulings:
        doc["ruling"] = [
            {"source": r.source, "title": r.title, "date": r.date, "quote": r.quote, "eras": list(r.eras), **({"author": r.author} if r.author else {})}
            for r in scenario.rulings
        ]
    if scenario.simplified:
        doc["simplified"] = scenario.simplified


def to_json(scenario: Scenario) -> dict[str, Any]:
    """The metadata for the JSON report: only the keys the file gave (older output is unchanged)."""
    out: dict[str, Any] = {}
    if scenario.oracle:
        out["oracle"] = [{"name": o.name, "text": o.text, "date": o.date, "source": o.source} for o in scenario.oracle]
    if scenario.rulings:
        out["rulings"] = [
            {"source": r.source, "title": r.title, "author": r.author, "date": r.date, "quote": r.quote, "eras": list(r.eras)}
            for r in scenario.rulings
        ]
    if scenario.simplified:
        out["simplified"] = scenario.simplified
    return out
