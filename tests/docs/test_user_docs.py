"""The README and the user guide: short, every example generated and run, every link resolving,
the set-up commands those CI runs, and an sdist that carries no test it can't run."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import loopcompare
from loopcompare.comparator.cli import main

from helpers import ROOT

DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text(encoding="utf-8")
USER_DOCS = ["GUIDE.md", "SCENARIOS.md", "CLI.md", "API.md", "RULESETS.md", "REPORTS.md", "PLUGINS.md", "ATLAS.md", "HISTORY.md", "DEVELOPING.md", "READINGS.md"]
GITHUB = "https://github.com/loopcompare/loopcompare/blob/main/"


def _generator():
    spec = importlib.util.spec_from_file_location("docs_generate", DOCS / "generate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- generated, and in step ------------------------------------------------------------------------


def test_every_generated_block_is_in_step():
    generate = _generator()
    assert generate.stale() == [], "run: python docs/generate.py"


def test_the_generated_blocks_are_there():
    generate = _generator()
    blocks = {name: [m.group("what") for m in generate.BLOCK.finditer((ROOT / name).read_text(encoding="utf-8"))] for name in generate.DOCUMENTS}
    assert any(w.startswith("screen") for w in blocks["README.md"]) and any(w.startswith("markdown") for w in blocks["README.md"])
    assert blocks["docs/CLI.md"] == ["cli-reference"]
    assert sum(w.startswith("include") for w in blocks["docs/GUIDE.md"]) == len(list((DOCS / "examples").glob("*.toml")))


def test_a_changed_command_makes_a_block_stale(monkeypatch):
    generate = _generator()
    real = generate.render
    monkeypatch.setattr(generate, "render", lambda what: real(what) + ("x" if what == "cli-reference" else ""))
    assert generate.stale() == ["docs/CLI.md: cli-reference"]


def test_the_cli_reference_has_every_command():
    text = (DOCS / "CLI.md").read_text(encoding="utf-8")
    for name in main.commands:
        assert f"\n## loopcompare {name}\n" in text, name


# --- every example runs ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted((DOCS / "examples").glob("*.toml")), ids=lambda p: p.name)
def test_every_guide_example_validates_and_compares(path):
    sf = loopcompare.load(path)
    assert sf.warnings == ()
    assert len(loopcompare.compare(sf).outcomes) == 4


def test_the_guide_shows_a_target_of_one_for_alice_gaining_life():
    guide = (DOCS / "GUIDE.md").read_text(encoding="utf-8")
    assert 'target = { among = ["Alice"], order = "fixed" }' in guide and "Alice gains life" in guide
    drain = loopcompare.load(DOCS / "examples" / "4-multiplayer-drain.toml").scenario
    assert any(s.target is not None and tuple(s.target.among) == ("Alice",) for s in drain.steps)


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.S)


@pytest.mark.parametrize("name", ["README.md", "docs/API.md"])
def test_every_python_example_runs(name, tmp_path, monkeypatch):
    blocks = _python_blocks((ROOT / name).read_text(encoding="utf-8"))
    assert blocks
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        if "loop_report" in block:  # a pytest test: tests/package/test_package.py runs the example project
            continue
        exec(compile(block, name, "exec"), {})


def test_the_readme_commands_for_your_own_loop_run(tmp_path, monkeypatch):
    section = README.split("## Your own loop", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block
    monkeypatch.chdir(tmp_path)
    ran = 0
    for line in block.group(1).splitlines():
        command = line.split("#")[0].split()
        assert command[0] == "loopcompare"
        result = CliRunner().invoke(main, command[1:])
        assert result.exit_code == 0, (line, result.output)
        ran += 1
    assert ran == 5 and (tmp_path / "my-loop.html").exists() and "[expect.cr-2024]" in (tmp_path / "my-loop.toml").read_text(encoding="utf-8")


def test_the_guides_console_sessions_run_as_shown(tmp_path, monkeypatch):
    """The console blocks the guide writes by hand (not generated) run, in order, in an empty
    folder, and print what the guide shows."""
    generate = _generator()
    guide = generate.BLOCK.sub("", (DOCS / "GUIDE.md").read_text(encoding="utf-8"))
    sessions = re.findall(r"```console\n(.*?)```", guide, re.S)
    assert sessions
    monkeypatch.chdir(tmp_path)
    for session in sessions:
        for chunk in re.split(r"^\$ ", session, flags=re.M)[1:]:
            command, _, shown = chunk.partition("\n")
            words = command.split()
            assert words[0] == "loopcompare"
            result = CliRunner().invoke(main, words[1:])
            assert result.exit_code == 0, (command, result.output)
            assert result.stdout == shown, command


def test_the_setup_commands_are_those_ci_runs():
    setup = re.search(r"## Set-up: two commands.*?```sh\n(.*?)```", README, re.S)
    assert setup
    main_job, tests = [line.split("#")[0].strip() for line in setup.group(1).strip().splitlines()]
    assert main_job == "pip install . && loopcompare compare flying-relents"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line.replace(" --quiet", "").strip() for line in ci.splitlines()]
    install, run = (part.strip() for part in tests.split("&&"))
    assert install in lines, f"README's {install!r} is not what .ci/run runs"
    assert any(line.startswith(run + " ") or line == run for line in lines), f"README's {run!r} is not what .ci/run runs"
    assert any(line.startswith("loopcompare compare flying-relents") for line in lines)


# --- short, and every link resolves -----------------------------------------------------------------


def test_the_readme_is_short():
    assert len(README.splitlines()) <= 300


def test_readme_links_work_on_the_package_index():
    links = re.findall(r"\]\(([^)\s]+)\)", README)
    assert links
    relative = [link for link in links if "://" not in link and not link.startswith("#")]
    assert relative == [], "the package index shows the README without the repository: use absolute links"
    for link in links:
        if link.startswith(GITHUB):
            assert (ROOT / link[len(GITHUB) :].split("#")[0]).exists(), link
    assert "![" not in README or all(re.findall(r"!\[[^\]]*\]\((https://[^)]+)\)", README))


@pytest.mark.parametrize("name", USER_DOCS)
def test_every_relative_link_in_the_docs_resolves(name):
    text = (DOCS / name).read_text(encoding="utf-8")
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        if "://" in link or link.startswith(("#", "mailto:")):
            continue
        assert (DOCS / link.split("#")[0]).exists(), f"{name}: {link}"


def test_every_user_doc_is_linked_from_the_readme():
    for name in USER_DOCS:
        assert f"{GITHUB}docs/{name}" in README, name


# --- the sdist ------------------------------------------------------------------------------------


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_the_sdist_leaves_out_the_tests_it_could_not_run(tmp_path):
    setuptools = pytest.importorskip("setuptools")
    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip("pyproject.toml needs setuptools 77 or newer to build")
    out = subprocess.run(
        [sys.executable, "-c", f"from setuptools import build_meta; print(build_meta.build_sdist({str(tmp_path)!r}))"],
        cwd=ROOT, capture_output=True, text=True, env=dict(os.environ), timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    with tarfile.open(tmp_path / out.stdout.strip().splitlines()[-1]) as archive:
        names = {Path(n).parts[1] for n in archive.getnames() if len(Path(n).parts) > 1}
    assert {"README.md", "comparator", "rulesets", "pyproject.toml"} <= names
    assert not names & {"tests", "docs", "reports", "examples"}
