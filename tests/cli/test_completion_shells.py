"""Shell completion through real shells: bash, zsh and fish each source the script click writes
(``_LOOPCOMPARE_COMPLETE=SHELL_source loopcompare``, as the README says) and complete commands,
options, ruleset keys and scenario names.

bash runs its completion function as the shell would (COMP_WORDS, COMP_CWORD); fish answers
``complete -C``; zsh runs its function with ``words``/``CURRENT`` set, its completion builtins
(``compadd``, ``_describe``, ``_path_files``: they exist only inside a completion widget) replaced
by functions that print what they are given.  A shell that is missing skips its tests, unless
LOOPCOMPARE_REQUIRE_SHELLS is set (``.ci/run`` sets it, and installs the shells).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REQUIRE = os.environ.get("LOOPCOMPARE_REQUIRE_SHELLS", "") not in ("", "0")

BASH = r'''
eval "$(_LOOPCOMPARE_COMPLETE=bash_source loopcompare)"
read -ra COMP_WORDS <<< "$LC_WORDS"
[[ $LC_WORDS == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
_loopcompare_completion loopcompare 2> /dev/null
printf '%s\n' "${COMPREPLY[@]}"
'''

ZSH = r'''
compdef() { : }
compadd() { local name=${@[-1]}; print -l -- ${(P)name} }
_describe() { local name=$3; print -l -- ${(P)name} }
_path_files() { print -- "<files>" }
eval "$(_LOOPCOMPARE_COMPLETE=zsh_source loopcompare)"
words=(${=LC_WORDS}); CURRENT=${#words}
[[ $LC_WORDS == *" " ]] && { words+=(""); CURRENT=${#words} }
_loopcompare_completion
'''

FISH = r'''
source (env _LOOPCOMPARE_COMPLETE=fish_source loopcompare | psub)
complete -C"$LC_WORDS"
'''


def shell(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        if REQUIRE:
            pytest.fail(f"{name} is not installed (LOOPCOMPARE_REQUIRE_SHELLS is set)")
        pytest.skip(f"{name} is not installed")
    return found


def complete(name: str, line: str, cwd: Path) -> list[str]:
    """What shell ``name`` offers for the command line ``line`` (the cursor at its end)."""
    program = {"bash": [shell("bash"), "--norc", "-c", BASH], "zsh": [shell("zsh"), "-f", "-c", ZSH], "fish": [shell("fish"), "--no-config", "-c", FISH]}[name]
    # The loopcompare on PATH is this installation's (the one next to this Python).
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    env = dict(os.environ, LC_WORDS=line, PATH=path)
    out = subprocess.run(program, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    # zsh and fish show descriptions after ':' or a tab: the word is what comes before.
    return [w.split("\t")[0].split(":")[0] if name != "bash" else w for w in out.stdout.splitlines() if w]


SHELLS = ["bash", "zsh", "fish"]


@pytest.mark.parametrize("name", SHELLS)
def test_commands(name, tmp_path):
    assert complete(name, "loopcompare com", tmp_path) == ["compare"]
    assert {"timeline", "check", "validate", "scenarios"} <= set(complete(name, "loopcompare ", tmp_path))


@pytest.mark.parametrize("name", SHELLS)
def test_options(name, tmp_path):
    # Every option of compare's that starts so (read off the command itself), and nothing else.
    from loopcompare.comparator.cli import main

    wanted = {o for p in main.commands["compare"].params for o in (*p.opts, *p.secondary_opts) if o.startswith("--no")}
    assert "--no-pager" in wanted
    assert set(complete(name, "loopcompare compare flying --no", tmp_path)) == wanted
    assert "--only-differences" in complete(name, "loopcompare compare flying --on", tmp_path)


@pytest.mark.parametrize("name", SHELLS)
def test_ruleset_keys(name, tmp_path):
    offered = complete(name, "loopcompare compare flying -r cr-20", tmp_path)
    assert {"cr-2004", "cr-2008", "cr-2024"} <= set(offered) and "mtr-current" not in offered
    after_a_comma = complete(name, "loopcompare compare flying -r cr-2004,mtr-c", tmp_path)
    assert after_a_comma == ["cr-2004,mtr-current"]


@pytest.mark.parametrize("name", SHELLS)
def test_scenario_names_and_files(name, tmp_path):
    assert complete(name, "loopcompare compare flying-rel", tmp_path) == ["flying-relents"]
    (tmp_path / "flying-mine.toml").write_text("", encoding="utf-8")
    offered = complete(name, "loopcompare compare flying-", tmp_path)
    assert {"flying-relents", "flying-counters", "flying-mine.toml"} <= set(offered)
