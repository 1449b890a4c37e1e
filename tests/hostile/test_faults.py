"""Faults, injected as a careful user and as an attacker would: nothing reaches the terminal,
nothing is overwritten that shouldn't be, no plugin takes the tool down, no traceback.

- control characters (ESC sequences that clear the screen, set the window title or make a
  hyperlink; C1 controls; bidi overrides) in every field of a scenario, in file names and in
  error messages: every output, checked byte by byte, holds none of them raw, and standard
  output and ``-o`` get the same bytes;
- ``gallery --dir`` into a folder that is not a gallery;
- the five plugin misbehaviours (exit on import, print on import, a wrong outcome, a plugin that
  never returns, printing while settling), through real entry points, in ``compare`` and the atlas;
- signals during the atlas (SIGTERM, the parent killed, Ctrl-C) and a closed pipe;
- a property test: random bytes and random TOML trees give a clean error or a clean report.

Writes to devices, FIFOs, symlinks and an input are in ``test_atomic_write.py``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from helpers import ROOT
from loopcompare.comparator import render
from loopcompare.comparator.cli import GALLERY_MARKER, main
from loopcompare.comparator.compare import compare, outcome_problem
from loopcompare.comparator.loader import ScenarioError, parse_bytes
from loopcompare.comparator.report import build
from loopcompare.rulesets import registry
from loopcompare.rulesets.outcome import Outcome, Result
from loopcompare.rulesets.registry import build as build_registry
from test_hostile_input import (
    INJECTION_FIELDS,
    LOADER_KEYS,
    _with,
    allowed_tags,
    assert_clean_exit,
    base_doc,
    fast,
    html_shape,
    mutated_bytes,
    shaped_docs,
    to_toml,
    valid_docs,
)
from fake_plugins import fake_distribution

# The three of the issue: set the window title (OSC 0, ended by BEL), clear the screen (CSI),
# and reverse what follows (RIGHT-TO-LEFT OVERRIDE); then a hyperlink (OSC 8), colour through the
# one-byte C1 CSI, DEL, an isolate and a noncharacter.
PAYLOAD = "\x1b]0;x\x07\x1b[2J\u202e"
MORE = "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\ \x9b31m\x7f\u2066\ufffe"

BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def raw_controls(data: bytes) -> list[str]:
    """Every character in ``data`` a terminal or a browser would obey rather than show: control
    characters (Unicode category Cc) other than line feed and tab, bidi controls and
    noncharacters.  Written independently of the product's own list."""
    text = data.decode("utf-8")
    found = []
    for ch in text:
        point = ord(ch)
        if (unicodedata.category(ch) == "Cc" and ch not in "\n\t") or ch in BIDI or 0xFDD0 <= point <= 0xFDEF or point & 0xFFFE == 0xFFFE:
            found.append(f"U+{point:04X}")
    return found


def assert_clean(data: bytes | str, what: str = "output") -> None:
    if isinstance(data, str):
        data = data.encode("utf-8")
    found = raw_controls(data)
    assert not found, f"{what} holds raw control characters: {sorted(set(found))}"


def only_with_m_slow(request) -> None:
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("long run: select it with -m slow")


def invoke(*args, **kwargs):
    return CliRunner().invoke(main, [str(a) for a in args], **kwargs)


# --- a scenario whose every string carries the payload ------------------------------------------


def everywhere(payload: str) -> dict:
    """base_doc with ``payload`` in every string: texts, player and state names, intents."""
    alice, bob = f"Alice{payload}", f"Bob{payload}"
    flying, count = f"flying{payload}", f"count{payload}"
    return {
        "title": f"Title{payload}",
        "description": f"Description{payload}",
        "source": f"Source{payload}",
        "tags": [f"tag{payload}", f"second{payload}"],
        "players": [alice, bob],
        "state": {flying: False, count: 0},
        "step": [
            {"by": alice, "does": f"acts{payload}", "optional": True, "set": {flying: True}, "add": {count: 1}, "unless": {"by": bob, "does": f"pays{payload}"}},
            {"by": bob, "does": f"answers{payload}", "optional": True, "set": {flying: False}},
        ],
        "loop": {"ends_when": {"value": count, "at_least": 100}, "ends_with": f"ends{payload}"},
        "breaker": [{"by": bob, "does": f"breaks{payload}"}],
        "intent": {bob: 3},
        "expect": {"cr-2024": {"deviates": bob, "state": {flying: False}}},
    }


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "everything.toml"
    path.write_text(to_toml(everywhere(PAYLOAD + MORE), tables=True), encoding="utf-8")
    return path


REPORTS = [
    pytest.param(command, fmt, extra, id=f"{command}-{fmt}{'-' + extra[0][2:] if extra else ''}")
    for command, fmt, extra in [
        ("compare", fmt, ()) for fmt in ("md", "html", "json")
    ]
    + [("compare", fmt, ("-r", "all")) for fmt in ("md", "html", "json")]
    + [("compare", fmt, ("--only-differences",)) for fmt in ("md", "html")]
    + [("timeline", fmt, ()) for fmt in ("md", "html", "json")]
]


@pytest.mark.parametrize("command, fmt, extra", REPORTS)
def test_a_scenario_with_escapes_in_every_string_gives_clean_bytes_and_the_same_to_stdout_and_o(tmp_path, hostile, command, fmt, extra):
    for paths in ([hostile], [hostile, "flying"]):  # alone, and in a report with contents and summary
        shown = invoke(command, *paths, "-f", fmt, *extra)
        assert_clean_exit(shown, 0)
        target = tmp_path / f"report.{fmt}"
        written = invoke(command, *paths, "-f", fmt, *extra, "-o", target)
        assert_clean_exit(written, 0)
        assert target.read_bytes() == shown.stdout_bytes, "standard output and -o differ"
        assert_clean(shown.stdout_bytes, f"{command} -f {fmt}")
        assert_clean(shown.stderr_bytes, "standard error")


def test_the_report_shows_each_control_as_a_code(hostile):
    text = invoke("compare", hostile).stdout
    assert "Title\\x1b\\]0;x\\x07\\x1b\\[2JU+202E" in text  # markdown escapes the "[" and "]" it shows
    page = invoke("compare", hostile, "-f", "html").stdout
    assert "<title>Title\\x1b]0;x\\x07\\x1b[2JU+202E" in page
    assert "\\x9b31m\\x7fU+2066U+FFFE" in page


def test_json_keeps_the_data_exact_and_escapes_every_control(hostile):
    raw = invoke("compare", hostile, "-f", "json").stdout_bytes
    assert_clean(raw)
    assert b"\\u202e" in raw and b"\\u001b" in raw and b"\\u009b" in raw and b"\\ufffe" in raw
    doc = json.loads(raw)
    comparison = doc["comparisons"][0]
    assert comparison["scenario"]["title"] == "Title" + PAYLOAD + MORE
    assert comparison["outcomes"]["cr-2024"]["deviates"] == "Bob" + PAYLOAD + MORE


def test_the_api_renders_clean_reports_too(hostile):
    import loopcompare

    comparison = loopcompare.compare(hostile, ["cr-2004", "cr-2024"])
    for fmt in loopcompare.FORMATS:
        assert_clean(loopcompare.render(comparison, fmt), fmt)


@pytest.mark.parametrize("command", ["compare", "timeline"])
@pytest.mark.parametrize("fmt", ["md", "html", "json"])
@pytest.mark.parametrize("field", INJECTION_FIELDS)
def test_escapes_in_any_one_field_never_reach_the_output(tmp_path, command, fmt, field):
    path = tmp_path / "case.toml"
    path.write_text(to_toml(_with(field, f"x{PAYLOAD}{MORE}y"), tables=True), encoding="utf-8")
    result = invoke(command, path, "flying", "-f", fmt)
    assert_clean_exit(result, 0)
    assert_clean(result.stdout_bytes, f"{command} -f {fmt}, payload in {field}")


def test_a_real_process_gives_the_same_bytes_to_a_pipe_and_to_o(tmp_path, hostile):
    # click.echo strips escape sequences when stdout is not a terminal; -o never did.
    for fmt in ("md", "html", "json"):
        target = tmp_path / f"r.{fmt}"
        piped = subprocess.run([sys.executable, "-m", "loopcompare", "compare", str(hostile), "-f", fmt], capture_output=True, timeout=120)
        written = subprocess.run([sys.executable, "-m", "loopcompare", "compare", str(hostile), "-f", fmt, "-o", str(target)], capture_output=True, timeout=120)
        assert piped.returncode == written.returncode == 0, piped.stderr + written.stderr
        assert piped.stdout == target.read_bytes()
        assert_clean(piped.stdout)


def test_stdout_is_utf8_whatever_the_locale_says(tmp_path, hostile):
    env = dict(os.environ, PYTHONIOENCODING="latin-1", LC_ALL="C")
    piped = subprocess.run([sys.executable, "-m", "loopcompare", "compare", str(hostile)], capture_output=True, timeout=120, env=env)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == invoke("compare", hostile).stdout_bytes


# --- messages -----------------------------------------------------------------------------------


def test_validate_and_check_print_the_title_and_results_without_controls(hostile):
    validated = invoke("validate", hostile)
    assert_clean_exit(validated, 0)
    assert "Title\\x1b]0;x\\x07\\x1b[2JU+202E" in validated.stdout
    assert_clean(validated.stdout_bytes)
    checked = invoke("check", hostile)
    assert checked.exit_code in (0, 1) and "Traceback" not in checked.output
    assert_clean(checked.stdout_bytes + checked.stderr_bytes)


MESSAGES = {
    "unknown key": f'title = "t"\n"key{PAYLOAD}" = 1\n',
    "unknown player in a step": 'title = "t"\nplayers = ["A", "B"]\n[[step]]\nby = "Z\\u001b[2J\\u202e"\ndoes = "x"\n',
    "unknown intent": 'title = "t"\nplayers = ["A", "B"]\n[[step]]\nby = "A"\ndoes = "x"\n[intent]\n"Z\\u001b[2J\\u202e" = 3\n',
    "unknown ruleset in expect": 'title = "t"\nplayers = ["A", "B"]\n[[step]]\nby = "A"\ndoes = "x"\n[expect."cr\\u001b]0;x\\u0007"]\nresult = "draw"\n',
    "undeclared state": 'title = "t"\nplayers = ["A", "B"]\n[[step]]\nby = "A"\ndoes = "x"\nset = { "f\\u001b[2J\\u202e" = true }\n',
    "C1 in a key": 'title = "t"\n"\\u009b31m" = 1\n',
}


@pytest.mark.parametrize("case", list(MESSAGES))
@pytest.mark.parametrize("command", ["validate", "compare"])
def test_error_messages_quote_user_text_without_controls(tmp_path, case, command):
    path = tmp_path / "bad.toml"
    path.write_text(MESSAGES[case], encoding="utf-8")
    result = invoke(command, path)
    assert_clean_exit(result, 2)
    assert "bad.toml" in result.stderr
    assert_clean(result.stdout_bytes + result.stderr_bytes, "the message")
    assert "\\x1b" in result.stderr or "\\x9b" in result.stderr, result.stderr  # shown, as a code


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX file names")
@pytest.mark.parametrize("command", ["validate", "compare", "timeline"])
def test_a_file_name_with_escapes_is_shown_not_obeyed(tmp_path, command):
    path = tmp_path / f"name{PAYLOAD}.toml"
    path.write_text(to_toml(base_doc(), tables=True), encoding="utf-8")
    for args in ([path], [path, "-f", "html"], [path, "-f", "json"]):
        if command == "validate" and len(args) > 1:
            continue
        result = invoke(command, *args)
        assert_clean_exit(result, 0)
        assert_clean(result.stdout_bytes + result.stderr_bytes)
    missing = invoke(command, tmp_path / f"gone{PAYLOAD}.toml")
    assert_clean_exit(missing, 2)
    assert_clean(missing.stderr_bytes)


def test_a_scenario_error_raised_to_python_code_is_clean_too():
    with pytest.raises(ScenarioError) as info:
        parse_bytes(MESSAGES["unknown key"].encode(), f"f{PAYLOAD}.toml", "f")
    assert_clean(str(info.value))
    assert "\\x1b" in str(info.value)


# --- the two poor messages ----------------------------------------------------------------------


def test_a_symlink_loop_is_called_a_loop_not_a_missing_file(tmp_path):
    loop = tmp_path / "loop.toml"
    loop.symlink_to(loop)
    for command in ("validate", "compare"):
        result = invoke(command, loop)
        assert_clean_exit(result, 2)
        assert "loop of symbolic links" in result.stderr and "no such file" not in result.stderr


def test_a_dangling_symlink_names_its_target(tmp_path):
    link = tmp_path / "gone.toml"
    link.symlink_to(tmp_path / "nowhere.toml")
    result = invoke("validate", link)
    assert_clean_exit(result, 2)
    assert "symbolic link" in result.stderr and "nowhere.toml" in result.stderr


def test_a_100000_deep_array_says_it_is_nested_too_deeply(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text('title = "x"\na = ' + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    result = invoke("validate", path)
    assert_clean_exit(result, 2)
    assert "nested too deeply" in result.stderr
    assert "recursion" not in result.stderr


# --- gallery --dir ------------------------------------------------------------------------------


@pytest.fixture
def small_gallery(monkeypatch):
    """The gallery command with two files (the folder logic is what is tested here)."""
    from loopcompare.comparator import api

    monkeypatch.setattr(api, "gallery", lambda **options: {"index.md": "# index\n", "timelines/flying.md": "# flying\n"})


def test_gallery_refuses_a_folder_that_is_not_a_gallery(tmp_path, small_gallery):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "index.md").write_text("my own notes\n", encoding="utf-8")
    result = invoke("gallery", "--dir", folder)
    assert_clean_exit(result, 2)
    assert "not a loopcompare gallery" in result.stderr and "--force" in result.stderr
    assert (folder / "index.md").read_text(encoding="utf-8") == "my own notes\n"
    assert sorted(p.name for p in folder.iterdir()) == ["index.md"]


def test_gallery_force_writes_into_a_foreign_folder_and_marks_it(tmp_path, small_gallery):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("kept\n", encoding="utf-8")
    result = invoke("gallery", "--dir", folder, "--force")
    assert_clean_exit(result, 0)
    assert (folder / "index.md").read_text(encoding="utf-8") == "# index\n"
    assert (folder / GALLERY_MARKER).is_file() and (folder / "notes.txt").read_text(encoding="utf-8") == "kept\n"
    # Marked now: the next run needs no --force.
    assert_clean_exit(invoke("gallery", "--dir", folder), 0)


@pytest.mark.parametrize("state", ["new", "empty", "marked"])
def test_gallery_writes_a_new_an_empty_or_a_marked_folder(tmp_path, small_gallery, state):
    folder = tmp_path / "g"
    if state != "new":
        folder.mkdir()
    if state == "marked":
        (folder / GALLERY_MARKER).write_text("x\n", encoding="utf-8")
        (folder / "index.md").write_text("old\n", encoding="utf-8")
    result = invoke("gallery", "--dir", folder)
    assert_clean_exit(result, 0)
    assert (folder / "index.md").read_text(encoding="utf-8") == "# index\n"
    assert (folder / GALLERY_MARKER).is_file()


def test_the_committed_gallery_is_marked():
    assert (ROOT / "reports" / GALLERY_MARKER).is_file()


# --- the atlas: unwritable outputs are refused before the work ----------------------------------


def _unwritable_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        (folder / "probe").touch()
    except OSError:
        return folder
    (folder / "probe").unlink()  # root writes anyway: use a folder nobody can create files in
    if Path("/proc/self").is_dir():
        return Path("/proc/self")
    pytest.skip("no folder here refuses new files")


def test_atlas_examples_into_an_unwritable_folder_is_refused_before_computing(tmp_path, monkeypatch):
    from loopcompare.comparator import api

    monkeypatch.setattr(api, "atlas", lambda *a, **k: pytest.fail("the atlas was computed"))
    folder = _unwritable_folder(tmp_path)
    result = invoke("atlas", "--examples", folder, "-j", "1")
    assert_clean_exit(result, 2)
    assert str(folder) in result.stderr and "can't write" in result.stderr


def test_atlas_o_into_a_missing_folder_is_refused_before_computing(tmp_path, monkeypatch):
    from loopcompare.comparator import api

    monkeypatch.setattr(api, "atlas", lambda *a, **k: pytest.fail("the atlas was computed"))
    result = invoke("atlas", "-o", tmp_path / "missing" / "atlas.md")
    assert_clean_exit(result, 2)
    assert "does not exist" in result.stderr


# --- plugins ------------------------------------------------------------------------------------

PLUGIN_BASE = """
from loopcompare.rulesets.shortcuts import Cr2024
from loopcompare.rulesets.outcome import Outcome, Result

class Base(Cr2024):
    aliases = ()
    amends = None
"""

PLUGINS = {
    # Misbehaviours while being imported.
    "exits": "import sys\nsys.exit(3)\n",
    "loud": PLUGIN_BASE + "print('hello from the loud plugin\\x1b[2J')\nclass Plugin(Base):\n    key = 'loud'\n    name = 'Loud rules'\n",
    "interrupts": "raise KeyboardInterrupt\n",
    # Misbehaviours while settling.
    "gives-dict": PLUGIN_BASE + "class Plugin(Base):\n    key = 'gives-dict'\n    name = 'Dict rules'\n    def settle(self, scenario):\n        return {'result': 'draw'}\n",
    "gives-none": PLUGIN_BASE + "class Plugin(Base):\n    key = 'gives-none'\n    name = 'None rules'\n    def settle(self, scenario):\n        return None\n",
    "gives-stranger": PLUGIN_BASE
    + "class Plugin(Base):\n    key = 'gives-stranger'\n    name = 'Stranger rules'\n    def settle(self, scenario):\n        return Outcome(Result.SHORTCUT, deviates='Zed', state=dict(scenario.state))\n",
    "hangs": PLUGIN_BASE + "class Plugin(Base):\n    key = 'hangs'\n    name = 'Hanging rules'\n    def settle(self, scenario):\n        while True:\n            pass\n",
    "sleeps": PLUGIN_BASE + "import threading\nclass Plugin(Base):\n    key = 'sleeps'\n    name = 'Sleeping rules'\n    def settle(self, scenario):\n        threading.Event().wait()\n",
    "escaped": PLUGIN_BASE
    + "class Plugin(Base):\n    key = 'escaped'\n    name = 'Escaped\\x1b]0;x\\x07\\x1b[2J\\u202e rules'\n    citation = 'Nowhere\\x9b31m'\n    def settle(self, scenario):\n        outcome = super().settle(scenario)\n        return type(outcome)(**{**outcome.__dict__, 'notes': ('a note\\x1b[2J\\u202e',)})\n",
    "chatty": PLUGIN_BASE
    + "class Plugin(Base):\n    key = 'chatty'\n    name = 'Chatty rules'\n    def settle(self, scenario):\n        print('settling', scenario.title)\n        return super().settle(scenario)\n",
    "exits-settling": PLUGIN_BASE + "import sys\nclass Plugin(Base):\n    key = 'exits-settling'\n    name = 'Exiting rules'\n    def settle(self, scenario):\n        sys.exit(4)\n",
}


@pytest.fixture(scope="module")
def plugins(tmp_path_factory) -> Path:
    """A site folder with every misbehaving plugin installed through an entry point."""
    site = tmp_path_factory.mktemp("plugins")
    for key, code in PLUGINS.items():
        module = "misbehaving_" + key.replace("-", "_")
        fake_distribution(site, module.replace("_", "-"), f"[loopcompare.rulesets]\n{key} = {module}:Plugin\n", module=module, code=code)
    return site


def loopcompare(*args, site: Path, timeout: float = 120, **env):
    environment = dict(os.environ, PYTHONPATH=str(site), **env)
    return subprocess.run([sys.executable, "-m", "loopcompare", *map(str, args)], capture_output=True, text=True, env=environment, timeout=timeout)


def test_plugins_that_exit_or_interrupt_on_import_are_reported_and_the_tool_still_works(plugins):
    result = loopcompare("compare", "flying", "-f", "json", site=plugins)
    assert result.returncode == 0, result.stderr
    assert "ruleset plugin 'exits' skipped: failed to load: it called sys.exit(3)" in result.stderr
    assert "ruleset plugin 'interrupts' skipped: failed to load: KeyboardInterrupt" in result.stderr
    assert "Traceback" not in result.stderr
    json.loads(result.stdout)


def test_a_plugin_that_prints_on_import_does_not_corrupt_json_on_stdout(plugins):
    result = loopcompare("compare", "flying", "-f", "json", "-r", "loud", site=plugins)
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)  # nothing but the report on stdout
    assert doc["comparisons"][0]["outcomes"]["loud"]["result"] == "shortcut"
    assert "hello from the loud plugin" in result.stderr and "\x1b" not in result.stderr


@pytest.mark.parametrize(
    "key, problem",
    [
        ("gives-dict", "settle returned dict {'result': 'draw'}, not an Outcome"),
        ("gives-none", "settle returned None, not an Outcome"),
        ("gives-stranger", "its deviates is str 'Zed', not one of the players"),
        ("exits-settling", "it called sys.exit(4)"),
    ],
)
def test_a_plugin_whose_settle_goes_wrong_gets_unspecified_with_a_note(plugins, key, problem):
    result = loopcompare("compare", "flying", "-f", "json", "-r", "cr-2024", "-r", key, site=plugins)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    outcomes = json.loads(result.stdout)["comparisons"][0]["outcomes"]
    assert outcomes["cr-2024"]["result"] == "shortcut"
    assert outcomes[key]["result"] == "unspecified"
    [note] = outcomes[key]["notes"]
    assert f"The ruleset plugin {key!r} failed on this scenario: {problem}" in note


def test_a_plugins_names_and_notes_are_shown_not_obeyed(plugins):
    listed = loopcompare("rulesets", site=plugins)
    assert listed.returncode == 0, listed.stderr
    assert "Escaped\\x1b" in listed.stdout and "U+202E rules" in listed.stdout
    assert_clean((listed.stdout + listed.stderr).encode(), "rulesets")
    for fmt in ("md", "html", "json"):
        result = loopcompare("compare", "flying", "-f", fmt, "-r", "escaped", site=plugins)
        assert result.returncode == 0, result.stderr
        assert_clean((result.stdout + result.stderr).encode(), fmt)


def test_a_plugin_that_prints_while_settling_does_not_corrupt_json_on_stdout(plugins):
    result = loopcompare("compare", "flying", "flying-relents", "-f", "json", "-r", "chatty", site=plugins)
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [c["outcomes"]["chatty"]["result"] for c in doc["comparisons"]] == ["shortcut", "shortcut"]
    assert result.stderr.count("settling") == 2


def test_a_plugin_that_never_returns_is_abandoned_after_the_time_limit(plugins):
    started = time.monotonic()
    result = loopcompare("compare", "flying", "flying-relents", "-f", "json", "-r", "cr-2024", "-r", "hangs", "--plugin-timeout", "0.5", site=plugins, timeout=60)
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    first, second = (c["outcomes"] for c in json.loads(result.stdout)["comparisons"])
    assert first["cr-2024"]["result"] == "shortcut" and first["hangs"]["result"] == "unspecified"
    assert "did not finish within the time limit of 0.5 s" in first["hangs"]["notes"][0]
    # Asked once: the later scenario does not wait (and start another spinning thread) again.
    assert "ran out of time" in second["hangs"]["notes"][0]
    assert elapsed < 30  # the hung daemon thread does not keep the process alive


def test_the_time_limit_comes_from_the_environment_and_bad_values_are_refused(plugins):
    result = loopcompare("compare", "flying", "-f", "json", "-r", "hangs", site=plugins, timeout=60, LOOPCOMPARE_PLUGIN_TIMEOUT="0.3")
    assert result.returncode == 0, result.stderr
    assert "time limit of 0.3 s" in result.stdout
    bad = loopcompare("compare", "flying", "-r", "hangs", "--plugin-timeout", "0", site=plugins)
    assert bad.returncode == 2 and "--plugin-timeout" in bad.stderr and "Traceback" not in bad.stderr


def test_the_atlas_survives_a_plugin_that_never_returns(plugins, monkeypatch):
    # The atlas's worker processes find the plugin through the same entry points, and get the
    # time limit from the parent.  (Two players only, to keep it quick; the whole atlas from the
    # command line is test_the_whole_atlas_survives_a_plugin_that_never_returns, -m slow.)
    from loopcompare.comparator import atlas as atlases
    from loopcompare.comparator.compare import set_plugin_time_limit

    monkeypatch.syspath_prepend(str(plugins))
    registry.cache_clear()
    set_plugin_time_limit(0.5)
    try:
        chosen = registry().select(["cr-2024", "sleeps"])
        started = time.monotonic()
        result = atlases.build(chosen, jobs=2, max_players=2)
        elapsed = time.monotonic() - started
    finally:
        set_plugin_time_limit(None)
        registry.cache_clear()
    assert result.total == atlases.size(2)
    assert {c.signature[0] for c in result.classes} >= {("shortcut", "unspecified")}
    assert elapsed < 60, "each loop waited for the plugin: it should be asked once per process"


@pytest.mark.slow
def test_the_whole_atlas_survives_a_plugin_that_never_returns(plugins, request):
    only_with_m_slow(request)
    # (A plugin that sleeps rather than spins, so the test's time goes to the atlas itself.)
    result = loopcompare("atlas", "-r", "cr-2024", "-r", "sleeps", "-f", "json", "-j", "2", "--plugin-timeout", "0.5", site=plugins, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    atlas = json.loads(result.stdout)
    assert atlas["total"] > 0 and atlas["classes"]
    assert {tuple(c["results"]) for c in atlas["classes"]} >= {("shortcut", "unspecified")}


def test_the_built_in_rulesets_are_trusted_and_a_look_alike_is_not():
    from loopcompare.comparator.compare import trusted
    from loopcompare.rulesets.shortcuts import Cr2024

    class LookAlike(Cr2024):
        pass

    assert trusted(registry().get("cr-2024"))
    assert not trusted(LookAlike())


def _registry_of(loader):
    return build_registry([("odd", loader)])


def test_loading_catches_exit_interrupt_and_printing_without_touching_stdout(capsys):
    def exits():
        raise SystemExit(3)

    def interrupts():
        raise KeyboardInterrupt

    def prints():
        print("banner")
        raise ImportError("no")

    assert "sys.exit(3)" in _registry_of(exits).problems[0].error
    assert "KeyboardInterrupt" in _registry_of(interrupts).problems[0].error
    reg = _registry_of(prints)
    assert reg.printed == (("odd", "banner\n"),)
    assert capsys.readouterr().out == ""


def _scenario():
    return parse_bytes(to_toml(base_doc(), tables=True).encode(), "case.toml", "case")


@pytest.mark.parametrize(
    "change, problem",
    [
        ({"result": "draw"}, "its result is str 'draw', not a Result"),
        ({"iterations": -1}, "its iterations are int -1"),
        ({"iterations": 1.5}, "its iterations are float 1.5"),
        ({"iterations": {"Zed": 1}}, "for 'Zed'"),
        ({"steps": 99}, "its steps are int 99"),
        ({"steps": True}, "its steps are True"),
        ({"last_action": 3}, "its last_action is int 3"),
        ({"state": {}}, "its state has no values"),
        ({"state": {"flying": 1, "count": 0}}, "its state value 'flying' is int 1"),
        ({"state": {"flying": True, "count": 10**5000}}, "its state value 'count'"),
        ({"judge": "yes"}, "its judge is str 'yes'"),
        ({"rules": "729.1"}, "its rules are str '729.1'"),
        ({"notes": (1,)}, "its notes are tuple (1,)"),
        ({"quotes": (("729.1",),)}, "its quotes are"),
        ({"stopped_by": "intent"}, "its stopped_by is str 'intent'"),
        ({"eliminated": ("Zed",)}, "its eliminated are"),
        ({"expected_iterations": 2.5}, "its expected_iterations are float 2.5"),
    ],
)
def test_an_outcome_that_breaks_the_contract_is_named(change, problem):
    sf = _scenario()
    good = registry().get("cr-2024").settle(sf.scenario)
    assert outcome_problem(good, sf.scenario) is None
    fields = {**good.__dict__, **change}
    bad = Outcome(**fields)
    found = outcome_problem(bad, sf.scenario)
    assert found is not None and problem in found, found


def test_every_built_in_outcome_meets_the_contract_plugins_are_held_to():
    from loopcompare.comparator.library import load_builtin, names

    for name in names():
        sf = load_builtin(name)
        for ruleset in registry().rulesets:
            assert outcome_problem(ruleset.settle(sf.scenario), sf.scenario) is None, (name, ruleset.key)


# --- signals and pipes --------------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(n) for n in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _start_atlas(wait: float = 1.0, *more: str, **kwargs):
    """The atlas on two workers (with ``more`` arguments), once both exist and ``wait`` seconds
    later (0: while they may still be starting up)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "loopcompare", "atlas", "-j", "2", "-f", "json", *more],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = [c for c in _children(process.pid) if _alive(c)]
        if len(workers) >= 2:
            time.sleep(wait)
            return process, workers
        if process.poll() is not None:
            break
        time.sleep(0.1)
    process.kill()
    pytest.fail("the atlas never started its workers")


def _gone(pids, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").is_dir() or not sys.platform.startswith("linux"), reason="needs Linux /proc to find the workers")


@needs_proc
@pytest.mark.parametrize("wait", [0, 1.0], ids=["starting", "working"])
def test_sigterm_to_the_atlas_ends_it_and_its_workers_without_a_traceback(wait):
    process, workers = _start_atlas(wait)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode in (128 + signal.SIGTERM, -signal.SIGTERM), err
    assert "Traceback" not in err and "Error" not in err, err
    assert _gone(workers), "workers outlived the atlas"


@needs_proc
def test_workers_end_quietly_when_the_parent_is_killed():
    process, workers = _start_atlas()
    process.kill()
    process.wait(timeout=60)
    assert _gone(workers), "workers outlived their parent"
    err = process.stderr.read()
    assert "Traceback" not in err, err


@needs_proc
@pytest.mark.parametrize("wait", [0, 1.0], ids=["starting", "working"])
def test_ctrl_c_ends_the_atlas_without_a_traceback_from_any_worker(wait):
    process, workers = _start_atlas(wait, start_new_session=True)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole process group
    try:
        out, err = process.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        # A Ctrl-C in the instant the workers are being started is lost (see atlas._hold_signals):
        # pressed again, as a person would.
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode != 0
    assert "Traceback" not in err, err
    assert _gone(workers)


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path):
    # A report larger than a pipe's buffer, read 10 bytes of, then the pipe closed.
    process = subprocess.Popen([sys.executable, "-m", "loopcompare", "compare", str(ROOT / "comparator" / "library"), "-r", "all"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.read(10)
    process.stdout.close()
    err = process.stderr.read().decode()
    process.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipe" not in err, err


# --- any input: a clean error or a clean report -------------------------------------------------

CONTROLS = ["\x1b[2J", "\x1b]0;x\x07", "\u202e", "\u2066", "\x9b", "\x7f", "\x00", "\x08", "\r", "\ufdd0", "\U0010ffff", "\u200f", "\x1b]8;;http://x\x1b\\"]
RESERVED = set(LOADER_KEYS) | {"never", "unbounded", "at_most", "at_least"} | {r.value for r in Result} | set(registry().keys())


@st.composite
def salted(draw, docs):
    """A document in which every user string (keys and values, consistently) may carry controls."""
    doc = draw(docs)
    memo: dict[str, str] = {}

    def salt(text: str) -> str:
        if text in RESERVED:
            return text
        if text not in memo:
            if draw(st.booleans()):
                at = draw(st.integers(0, len(text)))
                memo[text] = text[:at] + draw(st.sampled_from(CONTROLS)) + text[at:]
            else:
                memo[text] = text
        return memo[text]

    def walk(node):
        if isinstance(node, dict):
            return {salt(k) if isinstance(k, str) else k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return salt(node) if isinstance(node, str) else node

    return walk(doc)


def any_input() -> st.SearchStrategy[bytes]:
    trees = salted(valid_docs()) | salted(shaped_docs)
    return st.binary(max_size=2000) | mutated_bytes() | st.builds(lambda doc, tables: to_toml(doc, tables=tables).encode("utf-8"), trees, st.booleans())


def clean_error_or_clean_report(raw: bytes) -> None:
    """The property: refused with a clean ScenarioError, or every report is clean and well-formed."""
    try:
        sf = parse_bytes(raw, "fuzz.toml", "fuzz")
    except ScenarioError as exc:
        assert str(exc).startswith("fuzz.toml: ")
        assert_clean(str(exc), "the error")
        return
    comparison = compare(sf, registry().select([]))
    data = render.json_report([comparison])
    assert_clean(data, "JSON")
    assert json.loads(data)["comparisons"][0]["scenario"]["title"] == sf.scenario.title
    report = build([comparison])
    text = render.markdown(report)
    assert_clean(text, "markdown")
    page = render.html(report)
    assert_clean(page, "HTML")
    assert html_shape(page).tags.keys() <= allowed_tags()


@fast(150)
@given(any_input())
def test_any_input_gives_a_clean_error_or_a_clean_report(raw):
    clean_error_or_clean_report(raw)


@fast(30)
@given(any_input(), st.sampled_from(["md", "html", "json"]))
def test_any_input_through_the_command_line(tmp_path_factory, raw, fmt):
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.toml"
    path.write_bytes(raw)
    result = invoke("compare", path, "-f", fmt)
    assert result.exit_code in (0, 2), result.output
    assert_clean_exit(result, result.exit_code)
    assert_clean(result.stdout_bytes + result.stderr_bytes)


@pytest.mark.slow
def test_any_input_gives_a_clean_error_or_a_clean_report_at_length(request):
    # pytest -m slow: 5,000 more inputs, with a random seed.
    only_with_m_slow(request)
    from hypothesis import HealthCheck, settings

    run = settings(max_examples=5000, deadline=None, database=None, suppress_health_check=list(HealthCheck))(given(any_input())(clean_error_or_clean_report))
    run()


# --- Ctrl-C: exit 130, nothing half-made (issue 30) ---------------------------------------------


def _interrupted(args: list[str], after: float) -> subprocess.CompletedProcess[str]:
    """Run loopcompare, press Ctrl-C (SIGINT to its process group, as a terminal does) after
    ``after`` seconds, and wait for it."""
    process = subprocess.Popen([sys.executable, "-m", "loopcompare", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(after)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=120)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


@needs_proc
def test_ctrl_c_in_the_atlas_exits_130_and_leaves_no_examples_folder(tmp_path):
    folder = tmp_path / "examples" / "deeper"
    process, _ = _start_atlas(1.0, "--examples", str(folder), start_new_session=True)
    assert folder.is_dir()  # made before the work, so that an unwritable one is refused first
    os.killpg(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:  # lost while the workers started (atlas._hold_signals): again
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 130, (process.returncode, err[-500:])
    assert "Traceback" not in err and "interrupted" in err
    assert out == ""
    assert not (tmp_path / "examples").exists(), "the interrupted atlas left its --examples folder behind"


@pytest.mark.skipif(sys.platform == "win32", reason="needs process groups")
def test_ctrl_c_in_the_gallery_exits_130_and_writes_nothing(tmp_path):
    folder = tmp_path / "gallery"
    result = _interrupted(["gallery", "--dir", str(folder)], after=2.0)
    assert result.returncode == 130, (result.returncode, result.stderr[-500:])
    assert "Traceback" not in result.stderr
    assert not folder.exists()


def test_ctrl_c_in_any_command_exits_130(monkeypatch):
    from loopcompare.comparator import cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_scenarios", interrupted)
    for command in ("compare", "check", "timeline"):
        result = invoke(command, "flying")
        assert result.exit_code == 130, (command, result.exit_code, result.output)
        assert "interrupted" in result.stderr


def test_ctrl_c_while_files_are_written_is_held_until_every_one_is_written(tmp_path):
    from loopcompare.comparator.interrupts import held_interrupt

    written = []
    with pytest.raises(KeyboardInterrupt):
        with held_interrupt():
            written.append(1)
            os.kill(os.getpid(), signal.SIGINT)
            written.append(2)  # reached: the interrupt waits for the block to end
    assert written == [1, 2]


def test_a_folder_made_for_output_goes_again_when_the_command_fails(tmp_path):
    from loopcompare.comparator.interrupts import new_folder

    with pytest.raises(KeyboardInterrupt):
        with new_folder(tmp_path / "a" / "b"):
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    existing = tmp_path / "kept"
    existing.mkdir()
    with pytest.raises(RuntimeError):
        with new_folder(existing / "new"):
            raise RuntimeError
    assert existing.is_dir() and list(existing.iterdir()) == []


# --- messages (issue 30, item 4) ------------------------------------------------------------------


def test_errors_past_the_cap_are_counted_not_dropped(tmp_path):
    steps = "".join(f'[[step]]\nby = "Z{i}"\ndoes = "x"\n' for i in range(80))
    path = tmp_path / "many.toml"
    path.write_text('title = "t"\nplayers = ["A", "B"]\n' + steps, encoding="utf-8")
    result = invoke("validate", path)
    assert_clean_exit(result, 2)
    assert "many.toml: and 30 more errors (only the first 50 are shown)" in result.stderr


def test_an_oversized_stream_is_called_by_its_real_size():
    result = subprocess.run(
        [sys.executable, "-m", "loopcompare", "validate", "-"], input=b"#" * 5_000_000, capture_output=True, timeout=120
    )
    assert result.returncode == 2
    assert b"<stdin>: is 5,000,000 bytes; scenario files are limited to 1,048,576 bytes" in result.stderr


def test_a_number_of_thousands_of_digits_gets_a_message_with_its_line(tmp_path):
    path = tmp_path / "digits.toml"
    path.write_text('title = "t"\nplayers = ["A", "B"]\n[state]\nn = ' + "9" * 5000 + '\n[[step]]\nby = "A"\ndoes = "x"\n', encoding="utf-8")
    result = invoke("validate", path)
    assert_clean_exit(result, 2)
    assert "digits.toml: line 4: a number of 5,000 digits; numbers are limited to 1,000 digits" in result.stderr
    assert "set_int_max_str_digits" not in result.stderr


def test_a_long_number_in_a_message_is_abbreviated(tmp_path):
    path = tmp_path / "times.toml"
    path.write_text('format = 2\ntitle = "t"\nplayers = ["A", "B"]\n[[step]]\nby = "A"\ndoes = "x"\ntimes = ' + "9" * 1000 + "\n", encoding="utf-8")
    result = invoke("validate", path)
    assert_clean_exit(result, 2)
    assert "got 999999999999...9999 (1,000 digits)" in result.stderr
    assert "9" * 100 not in result.stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_sources_names_the_path_as_given():
    result = invoke("sources", "/dev/zero")
    assert_clean_exit(result, 2)
    assert "/dev/zero: larger than" in result.stderr
