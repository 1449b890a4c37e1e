"""One import name and a small Python API (issue: "One package and one contract")."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile

import pytest
from helpers import ROOT

import loopcompare
from loopcompare import Intent, Scenario, ScenarioError, Step



def _readme_python_example() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Python API", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the README's Python API section has no python block"
    return match.group(1)


def test_the_readme_python_example_runs():
    # The README's worked example is a test: it must run as written.
    exec(compile(_readme_python_example(), "README.md", "exec"), {})


def test_python_dash_m_runs_the_command_line(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "loopcompare", "compare", "flying-relents", "-r", "cr-2024"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# Gain flying, lose flying")


def test_the_old_top_level_names_are_not_importable(tmp_path):
    # Only `loopcompare` is installed: `comparator` and `rulesets` belong to other projects.
    for name in ("comparator", "rulesets"):
        result = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True, text=True, cwd=tmp_path)
        assert result.returncode != 0 and "ModuleNotFoundError" in result.stderr, name


def test_a_scenario_built_in_code_is_validated_like_a_file():
    stranger = Scenario(title="t", players=("Alice", "Bob"), steps=(Step(by="Carl", does="acts", optional=True),))
    with pytest.raises(ScenarioError, match=r"steps\[0\]: 'by': is 'Carl', who is not one of the players"):
        loopcompare.compare(stranger)
    with pytest.raises(ScenarioError, match=r"'step'"):
        loopcompare.settle(Scenario(title="t", players=("Alice", "Bob"), steps=()), "cr-2024")
    with pytest.raises(ScenarioError, match="intent"):
        loopcompare.settle(
            Scenario(title="t", players=("Alice", "Bob"), steps=(Step(by="Alice", does="x"),), intents={"Zed": Intent(1)}),
            "cr-2024",
        )


def test_compare_takes_a_scenario_a_file_a_path_and_a_name():
    flying = loopcompare.builtin("flying")
    by_name = loopcompare.compare("flying")
    by_object = loopcompare.compare(flying.scenario)
    by_path = loopcompare.compare(ROOT / "comparator" / "library" / "flying.toml")
    texts = {loopcompare.render(c, "json").replace(c.scenario.id, "X").replace(c.scenario.file, "X") for c in (by_name, by_path)}
    assert len(texts) == 1
    assert by_object.outcomes == by_name.outcomes


def test_loads_and_from_dict_agree_with_the_file():
    text = (ROOT / "comparator" / "library" / "flying.toml").read_text(encoding="utf-8")
    import tomllib

    a = loopcompare.loads(text, "flying.toml")
    b = loopcompare.from_dict(tomllib.loads(text), "flying.toml")
    assert a.scenario == b.scenario == loopcompare.builtin("flying").scenario
    with pytest.raises(ScenarioError, match="not valid TOML"):
        loopcompare.loads("title = ", "broken.toml")
    with pytest.raises(ScenarioError, match="mapping"):
        loopcompare.from_dict(["not", "a", "table"])  # type: ignore[arg-type]


def test_render_refuses_an_unknown_format():
    with pytest.raises(ValueError, match="unknown report format 'pdf'"):
        loopcompare.render(loopcompare.compare("flying"), "pdf")


def test_every_public_name_is_documented():
    for name in loopcompare.PUBLIC:
        obj = getattr(loopcompare, name)
        if callable(obj):
            assert (obj.__doc__ or "").strip(), f"loopcompare.{name} has no docstring"


def test_a_plugin_on_the_old_import_path_is_told_the_new_one():
    from loopcompare.rulesets.registry import build

    def old_style():
        raise ModuleNotFoundError("No module named 'rulesets'", name="rulesets")

    reg = build([("house", old_style)])
    (problem,) = reg.problems
    assert "'loopcompare.rulesets'" in problem.error and "since loopcompare 0.2" in problem.error


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_the_wheel_holds_only_loopcompare_and_builds_without_warnings(tmp_path):
    # pip wheel -v shows setuptools' warnings; none may appear ("Package would be ignored",
    # the deprecated license table), and the wheel holds loopcompare/ and its metadata only.
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, env=env,
    )
    if result.returncode != 0 and "No matching distribution" in result.stdout + result.stderr:
        pytest.skip("the build backend could not be fetched")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    log = result.stdout + result.stderr
    for warning in ("would be ignored", "SetuptoolsDeprecationWarning", "_DeprecatedConfig", "warning:"):
        assert warning not in log, warning
    (wheel,) = tmp_path.glob("loopcompare-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"loopcompare", next(t for t in tops if t.endswith(".dist-info"))}
    assert "loopcompare/py.typed" in names and "loopcompare/__main__.py" in names
    assert "loopcompare/comparator/templates/report.css" in names
    assert "loopcompare/rulesets/texts/2024-06-07_cr_729.txt" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert not any(n.startswith("loopcompare/tests/") or n.startswith("loopcompare/benchmarks/") for n in names)
