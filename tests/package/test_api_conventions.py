"""The Python API's conventions: __version__, one ruleset or many wherever rulesets are taken,
errors worded for Python when the input came from Python, and a short help(loopcompare)."""

from __future__ import annotations

import pydoc
from importlib import metadata

import pytest

import loopcompare
from loopcompare import Scenario, ScenarioError, Step


def test_version_is_the_installed_distributions():
    assert loopcompare.__version__ == metadata.version("loopcompare")
    assert "__version__" in dir(loopcompare)
    with pytest.raises(AttributeError):
        loopcompare.no_such_name  # noqa: B018


@pytest.mark.parametrize("given", ["cr-2024", "CR-2024", ["cr-2024"], ("cr-2024",), "cr729"])
def test_compare_takes_one_ruleset(given):
    assert list(loopcompare.compare("flying-relents", given).outcomes) == ["cr-2024"]


@pytest.mark.parametrize("given", ["cr-2008,cr-2024", "cr-2008 cr-2024", ["cr-2008", "CR-2024"], ["cr-2008,cr-2024"]])
def test_compare_takes_several(given):
    assert list(loopcompare.compare("flying-relents", given).outcomes) == ["cr-2008", "cr-2024"]


def test_compare_takes_ruleset_objects_and_all():
    (cr2008,) = loopcompare.rulesets("cr-2008")
    assert list(loopcompare.compare("flying", cr2008).outcomes) == ["cr-2008"]
    assert len(loopcompare.compare("flying", "all").outcomes) == len(loopcompare.rulesets("all"))
    assert [r.key for r in loopcompare.rulesets("cr-2004,cr-2024")] == ["cr-2004", "cr-2024"]


def test_errors_from_a_dict_speak_of_dicts_not_tables():
    with pytest.raises(ScenarioError) as raised:
        loopcompare.from_dict({"title": "t", "players": ["A", "B"], "state": {"x": "y"}, "step": [{"by": "A", "does": "x", "optional": "yes"}]})
    text = str(raised.value)
    assert "'state': 'x': expected a whole number" in text and "step[0]: 'optional': expected True or False" in text
    assert "[state]" not in text and "step 1" not in text and "line " not in text
    with pytest.raises(ScenarioError, match=r"'step' entries \(a list of dicts\)") as raised:
        loopcompare.from_dict({"title": "t", "players": ["A", "B"], "step": 3})
    assert "[[step]]" not in str(raised.value) and "table" not in str(raised.value)


def test_errors_from_a_scenario_object_name_its_fields():
    stranger = Scenario(title="t", players=("A", "B"), steps=(Step(by="A", does="x"), Step(by="C", does="x")))
    with pytest.raises(ScenarioError, match=r"steps\[1\]: 'by': is 'C'"):
        loopcompare.compare(stranger)


def test_errors_from_a_file_keep_the_files_words():
    with pytest.raises(ScenarioError, match=r"f.toml: line 4: \[state\]: 'x': expected a whole number"):
        loopcompare.loads('title = "t"\nplayers = ["A", "B"]\n[state]\nx = "y"\n[[step]]\nby = "A"\ndoes = "x"\n', "f.toml")


def test_help_is_short_and_shows_the_functions():
    text = pydoc.render_doc(loopcompare, renderer=pydoc.plaintext)
    assert len(text.splitlines()) < 150
    for name in ("compare", "load", "render", "settle", "rulesets"):
        assert f"{name}(" in text
    assert "dataclass" not in text.lower() and "__init__(self" not in text
    for name in loopcompare.PUBLIC:
        assert hasattr(loopcompare, name)


def test_the_loop_report_fixture_takes_one_key(tmp_path):
    import subprocess
    import sys

    (tmp_path / "test_pin.py").write_text("def test_pin(loop_report):\n    loop_report('flying', rulesets='CR-2024')\n", encoding="utf-8")
    (tmp_path / "test_pin").mkdir()
    golden = loopcompare.render(loopcompare.compare("flying", "cr-2024"), "md")
    (tmp_path / "test_pin" / "test_pin.md").write_text(golden, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout
