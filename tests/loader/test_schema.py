"""The JSON Schema of scenario files is kept equal to what the loader accepts.

A schema can't check references (that a `by` names a declared player, that a state value used
is declared with the matching type, that a partial intent's step exists): those are the loader's
alone.  So the tests pin: every file the loader accepts, the schema accepts; every file the
schema refuses, the loader refuses; and on structural mistakes the two agree.
"""

from __future__ import annotations

import copy
import json
import tomllib

import jsonschema
import pytest
from click.testing import CliRunner

from loopcompare.comparator.cli import main
from loopcompare.comparator.library import names
from loopcompare.comparator.loader import ScenarioError, parse_document
from loopcompare.comparator import atlas

from helpers import ACCEPTANCE, ROOT

SCHEMA = json.loads((ROOT / "comparator" / "schema" / "scenario.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
LIBRARY = ROOT / "comparator" / "library"


def valid_documents():
    docs = [(p.name, tomllib.loads(p.read_text(encoding="utf-8"))) for p in sorted(LIBRARY.glob("*.toml"))]
    docs += [(p.name, tomllib.loads(p.read_text(encoding="utf-8"))) for p in sorted(ACCEPTANCE.glob("*.toml"))]
    docs += [(f"atlas-{i}", d) for i, shape in enumerate(atlas.shapes(2)) for d in list(atlas.with_intents(shape))[:2]]
    return docs


def loader_accepts(doc) -> bool:
    try:
        parse_document(doc, "case.toml", "case")
    except ScenarioError:
        return False
    return True


# Structural mistakes: each must be refused by both.
MUTATIONS = {
    "no title": lambda d: d.pop("title"),
    "no players": lambda d: d.pop("players"),
    "no steps": lambda d: d.pop("step"),
    "one player": lambda d: d.__setitem__("players", d["players"][:1]),
    "unknown top-level key": lambda d: d.__setitem__("colour", "blue"),
    "unknown step key": lambda d: d["step"][0].__setitem__("optinal", True),
    "step without does": lambda d: d["step"][0].pop("does"),
    "optional as text": lambda d: d["step"][0].__setitem__("optional", "yes"),
    "state as text": lambda d: d.__setitem__("state", {"x": "lots"}),
    "state as a float": lambda d: d.__setitem__("state", {"x": 1.5}),
    "format 4": lambda d: d.__setitem__("format", 4),
    "format 2 key in format 1": lambda d: d["step"][0].__setitem__("times", 2),
    "infinite intent": lambda d: d.__setitem__("intent", {d["players"][0]: "infinite"}),
    "negative intent": lambda d: d.__setitem__("intent", {d["players"][0]: -1}),
    "intent with a stray key": lambda d: d.__setitem__("intent", {d["players"][0]: {"after": 1, "step": 0, "at": 2}}),
    "unknown loop key": lambda d: d.__setitem__("loop", {"indepedent": True}),
    "ends_with alone": lambda d: d.__setitem__("loop", {"ends_with": "someone loses"}),
    "ends_when with both bounds": lambda d: d.__setitem__("loop", {"ends_when": {"value": "x", "at_most": 0, "at_least": 1}}),
    "breaker without by": lambda d: d.__setitem__("breaker", [{"does": "x"}]),
    "unknown result expected": lambda d: d.__setitem__("expect", {"cr-2024": {"result": "win"}}),
    "unknown expect key": lambda d: d.__setitem__("expect", {"cr-2024": {"reslt": "draw"}}),
    "duplicate players": lambda d: d.__setitem__("players", [d["players"][0], d["players"][0]]),
    "blank title": lambda d: d.__setitem__("title", "   "),
    "name with trailing space": lambda d: d.__setitem__("players", [d["players"][0] + " ", *d["players"][1:]]),
}


@pytest.mark.parametrize("name, doc", valid_documents(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_file_the_loader_accepts_the_schema_accepts(name, doc):
    assert loader_accepts(doc), name
    errors = [e.message for e in VALIDATOR.iter_errors(doc)]
    assert not errors, (name, errors)


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_structural_mistakes_are_refused_by_both(mutation):
    doc = copy.deepcopy(tomllib.loads((LIBRARY / "flying.toml").read_text(encoding="utf-8")))
    MUTATIONS[mutation](doc)
    assert not loader_accepts(doc), mutation
    assert list(VALIDATOR.iter_errors(doc)), mutation


def test_what_the_schema_refuses_the_loader_refuses_too():
    # Every mutation of every valid document: the schema is never stricter than the loader.
    for name, doc in valid_documents()[:40]:
        for mutation in MUTATIONS.values():
            changed = copy.deepcopy(doc)
            try:
                mutation(changed)
            except (KeyError, IndexError):
                continue
            if list(VALIDATOR.iter_errors(changed)):
                assert not loader_accepts(changed), name


def test_references_are_the_loaders_alone():
    doc = tomllib.loads((LIBRARY / "flying.toml").read_text(encoding="utf-8"))
    doc["step"][0]["by"] = "Carl"
    assert not list(VALIDATOR.iter_errors(doc))  # structurally fine...
    assert not loader_accepts(doc)  # ...but Carl is not a player


def test_the_schema_command_prints_the_shipped_schema():
    result = CliRunner().invoke(main, ["schema"])
    assert result.exit_code == 0
    assert json.loads(result.output) == SCHEMA
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_new_writes_a_starter_that_validates_and_never_overwrites(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["new", "my-loop"]).exit_code == 0
    text = (tmp_path / "my-loop.toml").read_text(encoding="utf-8")
    assert text.startswith("# A loopcompare scenario")
    assert runner.invoke(main, ["validate", "my-loop.toml"]).exit_code == 0
    assert not list(VALIDATOR.iter_errors(tomllib.loads(text)))
    (tmp_path / "my-loop.toml").write_text("mine\n", encoding="utf-8")
    again = runner.invoke(main, ["new", "my-loop"])
    assert again.exit_code == 2 and "already exists" in again.output
    assert (tmp_path / "my-loop.toml").read_text(encoding="utf-8") == "mine\n"


def test_library_names_are_all_covered():
    assert {n for n, _ in valid_documents() if n.endswith(".toml")} >= {f"{n}.toml" for n in names()}
