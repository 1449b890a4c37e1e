"""Regenerate the examples of the README and of docs/, from the commands themselves.

    python docs/generate.py          # rewrite every generated block that is out of step
    python docs/generate.py --check  # exit 1 and name the stale blocks (tests/docs/test_user_docs.py)

A generated block sits between two comments; what follows the opening comment's colon says what
to put there:

    <!-- generated: include docs/examples/one-player.toml -->   the file, as a toml block
    <!-- generated: $ loopcompare ARGS -->                       the command and what it prints
    <!-- generated: markdown loopcompare ARGS -->                what it prints, as markdown
    <!-- generated: screen 80 loopcompare ARGS -->               the terminal view, 80 columns
    <!-- generated: cli-reference -->                            every command's --help
    ...
    <!-- /generated -->

Commands run from the repository's root, through click's test runner (standard output is not a
terminal, so the markdown is what a pipe gets); ``screen`` shows that markdown as a terminal of
that width does, without colour.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The documents that hold generated blocks.
DOCUMENTS = ("README.md", "docs/GUIDE.md", "docs/CLI.md", "docs/API.md")
BLOCK = re.compile(r"(<!-- generated: (?P<what>.+?) -->\n)(?P<body>.*?)(<!-- /generated -->)", re.S)


def _run(args: list[str]) -> str:
    import os

    from click.testing import CliRunner

    from loopcompare.comparator.cli import main

    here = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(main, args, env={"COLUMNS": "100", "NO_COLOR": "1"})
    finally:
        os.chdir(here)
    if result.exit_code != 0:
        raise RuntimeError(f"loopcompare {shlex.join(args)}: exit {result.exit_code}: {result.output}")
    return result.stdout


def cli_reference() -> str:
    """Every command's --help, in the order of the top-level help, as markdown."""
    from click.testing import CliRunner

    from loopcompare.comparator.cli import main

    def helped(args: list[str]) -> str:
        text = CliRunner().invoke(main, [*args, "--help"], env={"COLUMNS": "100"}, terminal_width=100).stdout
        return text.replace("Usage: main", "Usage: loopcompare")

    parts = ["## loopcompare\n", "```text\n" + helped([]) + "```\n"]
    ctx_names = main.list_commands(None)  # type: ignore[arg-type]
    for name in ctx_names:
        parts += [f"\n## loopcompare {name}\n", "```text\n" + helped([name]) + "```\n"]
    return "".join(parts)


def render(what: str) -> str:
    """The body of a generated block."""
    if what == "cli-reference":
        return cli_reference()
    kind, _, rest = what.partition(" ")
    if kind == "include":
        text = (ROOT / rest).read_text(encoding="utf-8")
        return "```toml\n" + text + "```\n"
    if kind == "$":
        args = shlex.split(rest)
        assert args[0] == "loopcompare", what
        return "```console\n$ " + rest + "\n" + _run(args[1:]) + "```\n"
    if kind == "markdown":
        args = shlex.split(rest)
        return _run(args[1:])
    if kind == "screen":
        from loopcompare.comparator.terminal import screen

        width, _, command = rest.partition(" ")
        args = shlex.split(command)
        text = screen(_run(args[1:]), width=int(width), colour=False, keep_lines=args[1:2] == ["rulesets"])
        return "```text\n" + text + "```\n"
    raise ValueError(f"unknown generated block: {what!r}")


def regenerate(text: str) -> str:
    return BLOCK.sub(lambda m: m.group(1) + render(m.group("what")) + m.group(4), text)


def stale() -> list[str]:
    """The generated blocks that are out of step, as 'document: what'."""
    out = []
    for name in DOCUMENTS:
        path = ROOT / name
        if not path.exists():
            continue
        for m in BLOCK.finditer(path.read_text(encoding="utf-8")):
            if m.group("body") != render(m.group("what")):
                out.append(f"{name}: {m.group('what')}")
    return out


def main(argv: list[str]) -> int:
    if "--check" in argv:
        found = stale()
        for name in found:
            print(f"stale: {name}")
        return 1 if found else 0
    for name in DOCUMENTS:
        path = ROOT / name
        if path.exists():
            text = path.read_text(encoding="utf-8")
            new = regenerate(text)
            if new != text:
                path.write_text(new, encoding="utf-8")
                print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
