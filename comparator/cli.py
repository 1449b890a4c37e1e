"""The ``loopcompare`` command line: a thin face that parses options, calls the API, and writes.

Each command reads its options and calls :mod:`comparator.api` (which documents what it does);
what it gets back is written by :mod:`comparator.files`, whole or not at all (a device or a pipe
is written through, never replaced).  Exit codes: 0 fine; 1 a check failed (``check``,
``gallery --check``); 2 bad usage or bad input, with a message naming the file and the field,
and no traceback; 130 interrupted (Ctrl-C, :mod:`.interrupts`).  Every message printed shows
control characters as codes (:func:`_say`).

Start-up: ``--help`` and shell completion run this module and nothing heavier than click (issue
27, ``tests/package/test_startup.py``), so the API, and through it the rulesets and the
renderers, is imported inside each command, when it runs; so are :mod:`.files`,
:mod:`.descriptors` and :mod:`pathlib` (with urllib.parse and ipaddress under it: ~5 ms,
which click does not load for ``--help``), which building the commands does not need.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from .controls import visible
from .conventions import Commands, FormatChoice, colour_context, complete_paths, emit_screen, install, split_keys
from .interrupts import DeadlinePassed, Interruptible, deadline, held_interrupt, new_folder

if TYPE_CHECKING:
    from pathlib import Path

    from click._termui_impl import ProgressBar  # click.progressbar's own return annotation
    from click.shell_completion import CompletionItem

    from .api import Comparison, Registry, Ruleset, ScenarioFile

#: A function click decorates into a command (what an option decorator takes and gives back).
Decorated = TypeVar("Decorated", bound=Callable[..., Any])

FORMATS = ("md", "html", "json")

#: The types of a file option (-o) and of a folder option, each made once and shared: every
#: click.Path looks its name up in gettext's catalogues, on disk (start-up, issue 27).
FILE = click.Path(dir_okay=False)
FOLDER = click.Path(file_okay=False)


class InputError(click.ClickException):
    """Bad input: exit status 2, with the message as given (its control characters shown as codes)."""

    exit_code = 2

    def format_message(self) -> str:
        return visible(self.message)


def _say(text: str, *, err: bool = False, nl: bool = True) -> None:
    """Print a message; anything it quotes from a scenario, a file name or a plugin is shown,
    never obeyed (:func:`comparator.controls.visible`)."""
    click.echo(visible(text), err=err, nl=nl)


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """--version, looked up only when asked for."""
    if not value or ctx.resilient_parsing:
        return
    import loopcompare

    click.echo(f"loopcompare, version {loopcompare.__version__}")
    ctx.exit()


def _registry() -> Registry:
    """The ruleset registry; plugin problems are reported on stderr, once, and are not fatal."""
    from . import api  # start-up: the API (and the rulesets) load when a command runs, not for --help

    reg = api.registry()
    ctx = click.get_current_context(silent=True)
    if ctx is not None and (reg.problems or reg.printed) and not ctx.meta.get("loopcompare.warned"):
        ctx.meta["loopcompare.warned"] = True
        for problem in reg.problems:
            _say(f"warning: ruleset plugin {problem.name!r} skipped: {problem.error}", err=True)
        for name, text in reg.printed:
            shown = text if len(text) <= 500 else text[:500] + f"... ({len(text):,} characters in all)"
            _say(f"note: ruleset plugin {name!r} printed this while loading (kept off standard output): {shown.rstrip()}", err=True)
    return reg


def _rulesets(keys: Sequence[str]) -> tuple[Ruleset, ...]:
    from . import api  # start-up: see _registry

    _registry()
    try:
        return api.rulesets(*split_keys(keys))
    except api.UnknownRuleset as exc:
        raise InputError(str(exc)) from None


def _scenarios(paths: Sequence[str]) -> list[ScenarioFile]:
    from . import api  # start-up: see _registry

    if list(paths).count("-") > 1:
        raise InputError("-: standard input can be read only once")
    out: list[ScenarioFile] = []
    try:
        for p in paths:
            out += [api.read(sys.stdin.buffer)] if p == "-" else api.scenarios(p)
    except api.ScenarioError as exc:
        raise InputError(str(exc)) from None
    for sf in out:
        for warning in sf.warnings:
            _say(f"warning: {sf.file}: {warning}", err=True)
    return out


# Report formats by the extension of -o's file, used when -f is not given.
EXTENSIONS = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".json": "json"}


def _format(fmt: str | None, output: str | None) -> str:
    """The format asked for, else the one -o's extension names, else markdown."""
    if fmt:
        return fmt
    from pathlib import Path  # start-up: see the module's docstring

    return EXTENSIONS.get(Path(output).suffix.lower(), "md") if output and output != "-" else "md"


def _complete_paths(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Shell completion for PATH: built-in scenario names, then files and folders."""
    return complete_paths(incomplete)


def _complete_rulesets(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion for -r: ruleset keys, their aliases and 'all' (after a comma, the next key)."""
    reg = _registry()
    done, comma, last = incomplete.rpartition(",")
    words = ["all", *reg.keys(), *(a for r in reg.rulesets for a in r.aliases)]
    return [done + comma + w for w in dict.fromkeys(words) if w.startswith(last.lower())]


def _write_stdout(text: str) -> None:
    """The report on standard output, as the same UTF-8 bytes ``-o`` writes (``click.echo``
    would strip escape sequences when stdout is not a terminal, and encode for the locale)."""
    stream = sys.stdout
    buffer = getattr(stream, "buffer", None)
    try:
        stream.flush()
        if buffer is None:
            stream.write(text)
        else:
            buffer.write(text.encode("utf-8"))
        stream.flush()
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python from complaining
        # again when it flushes stdout at exit.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        sys.exit(1)


def _emit(text: str, output: str | None) -> None:
    """A report to ``-o output`` (whole or not at all), else to standard output (the screen
    view on a terminal)."""
    from .files import is_stdout, write_output  # start-up: see the module's docstring

    if is_stdout(output):
        if output is None and emit_screen(text):  # a terminal: the screen view
            return
        _write_stdout(text)
    else:
        write_output(str(output), text)


def _reproduce(fmt: str, skip: Sequence[str] = ()) -> str:
    """The command that makes the report being written, for its stamp: this command with its
    arguments and options as given, ``-f`` explicit, and without ``-o`` (the bytes are the same
    wherever they go) or options that don't change them (``skip``)."""
    from . import stamp  # start-up: stamp reads the rulesets' citations; loaded when a command runs

    ctx = click.get_current_context()
    words = ["loopcompare", ctx.info_name or ""]
    for param in ctx.command.params:
        name = param.name or ""
        value = ctx.params.get(name)
        if name in ("output", "fmt", *skip) or not isinstance(param, (click.Option, click.Argument)) or param.expose_value is False:
            continue
        if isinstance(param, click.Argument):
            words += [stamp.path_word(str(v)) for v in (value if isinstance(value, tuple) else (value,)) if v is not None]
            continue
        flag = max(param.opts, key=len)
        default = param.get_default(ctx, call=True)
        if param.is_flag:
            if bool(value) != bool(default):
                words.append(flag)
            continue
        for v in value if isinstance(value, tuple) else (value,):
            if v is not None and v != default:
                words += [flag, str(v)]
    return stamp.command(*words, "-f", fmt)


def _set_plugin_timeout(ctx: click.Context, _param: click.Parameter, value: float | None) -> None:
    if ctx.resilient_parsing:  # shell completion: nothing runs, nothing need load
        return
    from . import api  # start-up: see _registry

    api.set_plugin_time_limit(value)


def _set_plugin_budget(ctx: click.Context, _param: click.Parameter, value: float | None) -> None:
    if ctx.resilient_parsing:  # shell completion: nothing runs, nothing need load
        return
    from . import api  # start-up: see _registry

    api.set_plugin_budget(value)


def _set_isolation(ctx: click.Context, _param: click.Parameter, value: bool | None) -> None:
    if ctx.resilient_parsing:  # shell completion: nothing runs, nothing need load
        return
    from . import api  # start-up: see _registry

    if value is not None or api.isolation_enabled():
        api.set_isolation(value)


def _set_timeout(ctx: click.Context, _param: click.Parameter, value: float | None) -> None:
    ctx.meta["loopcompare.timeout"] = value


def timeout_option(command: Decorated) -> Decorated:
    """``--timeout SECONDS``: the longest settling one file may take (for untrusted files in bulk)."""
    return click.option(
        "--timeout",
        type=click.FloatRange(min=0, min_open=True),
        expose_value=False,
        callback=_set_timeout,
        metavar="SECONDS",
        help="Refuse a file whose settling takes longer than SECONDS (exit 2, nothing written): for untrusted files in bulk.",
    )(command)


def _compared(sf: ScenarioFile, rulesets: Sequence[Ruleset]) -> Comparison:
    """The scenario compared under the rulesets within ``--timeout`` (a refusal naming the file when it passes)."""
    from . import api  # start-up: see _registry

    seconds = click.get_current_context().meta.get("loopcompare.timeout")
    try:
        with deadline(seconds):
            return api.compare(sf, rulesets)
    except DeadlinePassed:
        raise InputError(f"{sf.file}: settling took more than {seconds:g} s (--timeout); nothing was written") from None
    except api.ScenarioError as exc:  # an engine limit of FORMAT items 28-30: exit 2, naming the file and the key
        raise InputError(str(exc)) from None


def plugin_timeout_option(command: Decorated) -> Decorated:
    """``--plugin-timeout SECONDS`` (or ``LOOPCOMPARE_PLUGIN_TIMEOUT``): the time a third-party
    ruleset may take per scenario before its outcome is left unspecified; ``--plugin-budget
    SECONDS`` (or ``LOOPCOMPARE_PLUGIN_BUDGET``): its time over the whole run."""
    command = click.option(
        "--isolate-plugins/--no-isolate-plugins",
        default=None,
        expose_value=False,
        callback=_set_isolation,
        help="Run third-party rulesets in worker processes, so that os._exit, crashes and monkeypatching are contained too (env LOOPCOMPARE_ISOLATE_PLUGINS=1; docs/PLUGINS.md).",
    )(command)
    command = click.option(
        "--plugin-budget",
        type=click.FloatRange(min=0, min_open=True, max=86400 * 7),
        envvar="LOOPCOMPARE_PLUGIN_BUDGET",
        expose_value=False,
        callback=_set_plugin_budget,
        metavar="SECONDS",
        help="Time a third-party ruleset may take over the whole run; then it is marked slow and not asked again (default 60; env LOOPCOMPARE_PLUGIN_BUDGET).",
    )(command)
    return click.option(
        "--plugin-timeout",
        type=click.FloatRange(min=0, min_open=True, max=86400),
        envvar="LOOPCOMPARE_PLUGIN_TIMEOUT",
        expose_value=False,
        callback=_set_plugin_timeout,
        metavar="SECONDS",
        help="Time a third-party ruleset may take per scenario before its outcome is 'unspecified' (default 5; env LOOPCOMPARE_PLUGIN_TIMEOUT).",
    )(command)


class _Main(Commands, Interruptible):
    """The command group: the everyday commands first, Ctrl-C exits 130 in every command, and
    a file that can't be written (:class:`comparator.files.WriteError`) exits 2 naming it."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as exc:
            # Only code that imported comparator.files can raise its WriteError: looked up there,
            # so that ``COMMAND --help`` (which ends in click's Exit) need not import it.
            files = sys.modules.get(f"{__package__}.files")
            if files is None or not isinstance(exc, files.WriteError):
                raise
            raise InputError(str(exc)) from None


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version, help="Show the version and exit.")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Settle Magic: The Gathering loops under every era's rules, side by side.

    A scenario is a TOML file describing one loop (see docs/SCENARIOS.md; 'loopcompare new'
    writes one), the name of a built-in scenario (see 'loopcompare scenarios'), or - for
    standard input.  On a terminal the reports are shown for the screen; piped, or with -f md,
    they are markdown.
    """
    from .descriptors import keep_stdout_for_the_report  # start-up: see the module's docstring

    colour_context(ctx)  # NO_COLOR (not empty) turns colour off, FORCE_COLOR (not empty) on
    keep_stdout_for_the_report()  # before any plugin loads: its writes to descriptor 1 go to stderr


@main.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", shell_complete=_complete_paths)
@click.option("-r", "--ruleset", "keys", multiple=True, metavar="KEY", shell_complete=_complete_rulesets, help="Compare under this ruleset (repeatable; 'all' for every era; default: the four mission rulesets).")
@click.option("-f", "--format", "fmt", type=FormatChoice(FORMATS), help="Report format (default: from -o's extension, else md).")
@click.option("-o", "--output", type=FILE, help="Write the report to FILE (whole or not at all) instead of standard output.")
@click.option("--only-differences", is_flag=True, help="Keep only the outcome rows where the rulesets differ (markdown and HTML; JSON always has whole outcomes).")
@click.option("--as-of", "as_of", metavar="DATE", help="Compare under the rules in force on DATE (YYYY-MM-DD, from 1998-03-31): the CR, and the MTR where one existed.")
@click.option("--title", metavar="TEXT", help="The report's title (default: the scenario's, or 'N loops compared').")
@click.option("--table-only", is_flag=True, help="Only the outcome table of each scenario, to paste into an article (markdown, or an HTML fragment).")
@click.option("--mermaid", is_flag=True, help="Markdown: also draw each loop as a Mermaid flowchart (GitHub renders it).")
@click.option("--no-source-note", "source_note", flag_value=False, default=True, help="With --table-only: leave out the one-line source note (tool version, texts, command) under the tables.")
@plugin_timeout_option
@timeout_option
def compare(
    paths: tuple[str, ...],
    keys: tuple[str, ...],
    fmt: str | None,
    output: str | None,
    only_differences: bool,
    as_of: str | None,
    title: str | None,
    table_only: bool,
    mermaid: bool,
    source_note: bool,
) -> None:
    """Compare how the rulesets settle each scenario, side by side."""
    from . import api  # start-up: see _registry
    from .files import check_output

    fmt = _format(fmt, output)
    if table_only and fmt == "json":
        raise InputError("--table-only: JSON always has whole outcomes; use -f md or -f html")
    check_output(output, paths)
    rulesets = _rulesets(keys)
    if as_of:
        try:
            # One column per key: the text in force that day (renumbered, if so) wins over the -r one.
            rulesets, notes = api.in_force(as_of, rulesets if keys else ())
        except ValueError as exc:
            raise InputError(f"--as-of: {exc}") from None
        for note in notes:
            click.echo(f"note: {note}", err=True)
    comparisons = [_compared(s, rulesets) for s in _scenarios(paths)]
    text = api.render(comparisons, fmt, only_differences=only_differences, title=title, table_only=table_only, mermaid=mermaid, source_note=source_note, command=_reproduce(fmt))
    _emit(text, output)


@main.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", shell_complete=_complete_paths)
@click.option("--fill", is_flag=True, help="Write each file's [expect] blocks from today's outcomes (replacing those it has); the file is checked before it is written.")
@click.option("-r", "--ruleset", "keys", multiple=True, metavar="KEY", shell_complete=_complete_rulesets, help="With --fill: the rulesets to pin (default: those the file expects already, else the four mission rulesets).")
@plugin_timeout_option
@timeout_option
def check(paths: tuple[str, ...], fill: bool, keys: tuple[str, ...]) -> None:
    """Check each scenario's [expect] blocks; exit 1 if any expectation fails."""
    from . import api  # start-up: see _registry

    if keys and not fill:
        raise InputError("-r: goes with --fill (a check checks the rulesets each file expects)")
    if fill:
        _fill(paths, keys)
        return
    reg = _registry()
    failed = checked = 0
    for sf in _scenarios(paths):
        if not sf.expect:
            _say(f"SKIP {sf.file}: no [expect] blocks")
            continue
        checked += 1
        problems = api.check(_compared(sf, [reg.get(k) for k in sf.expect]))
        fields = sum(len(f) for f in sf.expect.values())
        if problems:
            failed += 1
            click.echo(click.style("FAIL", fg="red", bold=True) + " " + visible(sf.file))
            for problem in problems:
                _say(f"  {problem}")
        else:
            click.echo(click.style("ok", fg="green") + visible(f"   {sf.file}: {len(sf.expect)} rulesets, {fields} expectations"))
    if failed:
        click.echo(f"{failed} scenario(s) failed their expectations", err=True)
        sys.exit(1)
    if not checked:
        click.echo("nothing was checked: no scenario has [expect] blocks", err=True)
        sys.exit(1)


def _fill(paths: Sequence[str], keys: Sequence[str]) -> None:
    """``check --fill``: each file's [expect] blocks written from today's outcomes, every file
    checked before any is written (all or nothing)."""
    from pathlib import Path  # start-up: see the module's docstring

    from . import api  # start-up: see _registry
    from .files import input_files

    files = [f for p in paths for f in (sorted(input_files(p)) if Path(p).exists() else [])]
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise InputError(f"{missing[0]}: --fill writes scenario files; give files or folders (not a built-in name or -)")
    writes: list[tuple[Path, str, int]] = []
    for path in files:
        (sf,) = _scenarios([str(path)])
        chosen = _rulesets(keys) if keys else _rulesets(list(sf.expect)) if sf.expect else _rulesets(())
        try:
            text = api.filled(sf, path.read_text(encoding="utf-8"), chosen)
        except api.ScenarioError as exc:
            raise InputError(f"{path}: the filled file would not load ({exc}); nothing was written") from None
        except ValueError as exc:
            raise InputError(f"{path}: {exc}; nothing was written") from None
        writes.append((path, text, len(chosen)))
    for path, text, count in writes:
        _emit(text, str(path))
        _say(f"filled {path}: [expect] blocks for {count} rulesets")


@main.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", shell_complete=_complete_paths)
@click.option("--strict", is_flag=True, help="Treat warnings (probable mistakes) as errors.")
def validate(paths: tuple[str, ...], strict: bool) -> None:
    """Validate scenario files; exit 2 if any is invalid (every error of a file is reported)."""
    bad = 0
    for path in paths:
        try:
            for sf in _scenarios([path]):
                if strict and sf.warnings:
                    bad += 1
                    _say(f"Error: {sf.file}: {len(sf.warnings)} warning(s), errors under --strict", err=True)
                    continue
                _say(f"ok   {sf.file}: {sf.scenario.title}")
        except InputError as exc:
            bad += 1
            click.echo(f"Error: {exc.format_message()}", err=True)
    if bad:
        raise InputError(f"{bad} of {len(paths)} path(s) failed validation")


@main.command("rulesets")
@click.option("--diff", "diff_key", metavar="KEY", help="Show the word-level difference between KEY's text and its predecessor's, subrule by subrule.")
@click.option("--trace", "trace_rule", metavar="RULE", help="Follow one subrule (any era's number: 729.4, 713.2a, 421.3) through every text and renumbering, with its dates and the words changed.")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON (key, name, aliases, periods, rules, source).")
def list_rulesets(diff_key: str | None, trace_rule: str | None, as_json: bool) -> None:
    """List the rulesets and their timeline: key, name, period in force, rules, source."""
    from . import api  # start-up: see _registry

    if trace_rule:
        try:
            _say(api.trace(trace_rule), nl=False)
        except api.TraceError as exc:
            raise InputError(f"--trace: {exc}") from None
        return
    _registry()
    if diff_key:
        try:
            _say(api.ruleset_diff(diff_key), nl=False)
        except api.UnknownRuleset as exc:
            raise InputError(str(exc)) from None
        return
    _emit(api.ruleset_list("json" if as_json else "md"), None)


@main.command()
@click.argument("what", required=False, metavar="[RULESET|SCENARIO]", shell_complete=_complete_paths)
@click.option("-f", "--format", "fmt", type=click.Choice(("text", "bibtex", "csl-json")), default="text", show_default=True, help="Plain text, BibTeX, or CSL-JSON (what Zotero and pandoc read).")
@click.option("-r", "--ruleset", "keys", multiple=True, metavar="KEY", shell_complete=_complete_rulesets, help="With a SCENARIO: the rulesets of the report cited (as for compare).")
@click.option("--report-format", "report_fmt", type=click.Choice(FORMATS), default="md", show_default=True, help="With a SCENARIO: the format of the report cited.")
def cite(what: str | None, fmt: str, keys: tuple[str, ...], report_fmt: str) -> None:
    """Cite the rules texts: every text shipped, a ruleset's texts, or a scenario's report itself
    (the tool, the texts' versions, the command that reproduces it) with the texts it quotes."""
    from . import api  # start-up: see _registry

    _write_stdout(api.cite(what, fmt, keys, report_fmt, registry=_registry, select=_rulesets, read=_scenarios))


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="CRFILE...", type=FILE)
@click.option("--write", "folder", type=FOLDER, metavar="DIR", help="Also write each rule found as DIR/DATE_cr_NUMBER.txt, a source file in the project's format (never over a different file).")
def sources(files: tuple[str, ...], folder: str | None) -> None:
    """Read official Comprehensive Rules text files: find "Taking Shortcuts", its number and its
    text, and compare it with the newest text the project knows."""
    from . import api  # start-up: see _registry

    reading = api.read_cr_files(files, folder)
    for exam in reading.exams:
        _say(exam.report(), nl=False)
    if reading.errors:
        for error in reading.errors:
            _say(f"Error: {error}", err=True)
        raise InputError(f"{len(reading.errors)} problem(s) with {len(files)} file(s); nothing was written")
    for target, text in reading.writes.items():
        if target.is_file():
            _say(f"unchanged: {target} (already there, the same)")
            continue
        _emit(text, str(target))
        _say(f"wrote {target}")


@main.command()
def schema() -> None:
    """Print the JSON Schema of scenario files (format 1), for editors and other tools."""
    from . import api  # start-up: see _registry

    click.echo(api.schema(), nl=False)


@main.command()
@click.argument("name")
@click.option("-k", "--kind", type=click.Choice(("two-players", "one-player", "multiplayer-drain", "across-turns"), case_sensitive=False), default="two-players", show_default=True, help="The kind of loop the starter shows.")
@click.option("--format", "scenario_format", type=click.IntRange(1, 2), metavar="1|2", help="The scenario format (default: the kind's first, 1 but for multiplayer-drain).")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def new(name: str, kind: str, scenario_format: int | None, force: bool) -> None:
    """Write a commented starter scenario NAME.toml (or NAME, if it ends in .toml) that validates."""
    from pathlib import Path  # start-up: see the module's docstring

    from .starter import StarterError, starter  # start-up: string.Template and importlib.resources, only here
    target = Path(name if name.endswith(".toml") else f"{name}.toml")
    if target.exists() and not force:
        raise InputError(f"{target}: already exists; use --force to overwrite it")
    title = target.stem.replace("-", " ").replace("_", " ").strip() or "A loop"
    try:
        text = starter(kind, scenario_format, title=title.replace("\\", "").replace('"', "'"), file=target.name)
    except StarterError as exc:
        raise InputError(str(exc)) from None
    _emit(text, str(target))
    _say(f"wrote {target}; check it with: loopcompare validate {target}")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON (name, title, tags, format).")
def scenarios(as_json: bool) -> None:
    """List the built-in scenarios (usable wherever a PATH is)."""
    from . import api  # start-up: see _registry

    _emit(api.scenario_list("json" if as_json else "md"), None)


@main.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", shell_complete=_complete_paths)
@click.option("-f", "--format", "fmt", type=FormatChoice(FORMATS), help="Report format (default: from -o's extension, else md).")
@click.option("-o", "--output", type=FILE, help="Write the report to FILE (whole or not at all).")
@plugin_timeout_option
def timeline(paths: tuple[str, ...], fmt: str | None, output: str | None) -> None:
    """Settle each scenario under every era in order: when did its outcome change, and why?"""
    from . import api  # start-up: see _registry
    from .files import check_output

    fmt = _format(fmt, output)
    check_output(output, paths)
    rulesets = _registry().rulesets
    timelines = [api.timeline(sf, rulesets) for sf in _scenarios(paths)]
    _emit(api.render(timelines, fmt, command=_reproduce(fmt)), output)


def _progress(length: int, label: str) -> ProgressBar[int] | None:
    """A progress bar on stderr when stderr is a terminal; otherwise nothing is shown."""
    stream = sys.stderr
    return click.progressbar(length=length, label=label, file=stream) if stream.isatty() else None


@main.command()
@click.option("-r", "--ruleset", "keys", multiple=True, metavar="KEY", shell_complete=_complete_rulesets, help="Rulesets to compare (repeatable; 'all' for every era; default: the four mission rulesets).")
@click.option("-f", "--format", "fmt", type=FormatChoice(FORMATS), help="Report format (default: from -o's extension, else md).")
@click.option("-o", "--output", type=FILE, help="Write the atlas to FILE (whole or not at all).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Processes to use (default: the CPUs available).")
@click.option("--examples", "examples_dir", type=FOLDER, help="Also save each class's smallest example as DIR/class-N.toml.")
@click.option(
    "--space",
    type=click.Choice(("format1", "full"), case_sensitive=False),
    default="full",
    show_default=True,
    help="The loops enumerated: 'full' adds format 2's events, choices in mandatory steps, side benefits, requirements and resolutions to 'format1' (the gallery's).",
)
@plugin_timeout_option
def atlas(keys: tuple[str, ...], fmt: str | None, output: str | None, jobs: int | None, examples_dir: str | None, space: str) -> None:
    """Enumerate small loops, settle each under every ruleset, and group how the rulesets disagree."""
    from . import api  # start-up: see _registry
    from .files import check_output

    fmt = _format(fmt, output)
    rulesets = _rulesets(keys)
    if len(rulesets) < 2:
        raise InputError("the atlas compares two or more rulesets")
    # Everything that could stop the writing is checked before the atlas is computed.
    check_output(output)
    with contextlib.ExitStack() as made:  # an --examples folder made here goes again if the atlas is not written
        folder = _examples_folder(examples_dir, made) if examples_dir else None
        result = api.atlas(rulesets, space=space, jobs=jobs, progress=_progress)
        text = api.render(result, fmt, command=_reproduce(fmt, skip=("jobs", "examples_dir")))
        with held_interrupt():
            _emit(text, output)
            if folder is not None:
                for i, toml in enumerate(api.atlas_examples(result), 1):
                    _emit(toml, str(folder / f"class-{i}.toml"))


def _examples_folder(name: str, made: contextlib.ExitStack) -> Path:
    """The atlas's --examples folder, created (and removed again, while empty, when ``made``
    closes on an error or Ctrl-C), and checked to take new files."""
    from pathlib import Path  # start-up: see the module's docstring

    from .files import writable_folder  # start-up: see the module's docstring

    folder = Path(name)
    try:
        made.enter_context(new_folder(folder))
    except OSError as exc:
        raise InputError(f"{folder}: can't write the examples there: {exc.strerror or exc}") from None
    writable_folder(folder, "the examples")
    return folder


@main.command()
@click.option("-f", "--format", "fmt", type=FormatChoice(FORMATS), help="Report format (default: from -o's extension, else md).")
@click.option("-o", "--output", type=FILE, help="Write the report to FILE (whole or not at all).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Processes to use for the atlas (default: the CPUs available).")
def history(fmt: str | None, output: str | None, jobs: int | None) -> None:
    """The history of the loop rules: for each amendment, its text diff, the loops it settles
    differently (from one atlas run over every era) and the readings it created or closed."""
    from . import api  # start-up: see _registry

    fmt = _format(fmt, output)
    report = api.history(_registry().rulesets, jobs=jobs, progress=_progress)
    _emit(api.render(report, fmt, command=_reproduce(fmt, skip=("jobs",))), output)


#: The file that marks a folder as a loopcompare gallery, which ``gallery`` may rewrite.
GALLERY_MARKER = ".loopcompare-gallery"
GALLERY_MARKER_TEXT = "This folder is a loopcompare gallery: 'loopcompare gallery --dir FOLDER' rewrites its files.\n"


@main.command()
@click.option("--check", "check_only", is_flag=True, help="Don't write; exit 1 if the files in DIR are stale or missing.")
@click.option("--dir", "folder", default="reports", show_default=True, type=FOLDER, help="The gallery folder.")
@click.option("--force", is_flag=True, help="Write into a non-empty folder that is not a gallery (same-named files are replaced).")
def gallery(check_only: bool, folder: str, force: bool) -> None:
    """Render every built-in scenario into the gallery folder (markdown, HTML, JSON, index)."""
    from pathlib import Path  # start-up: see the module's docstring

    from . import api  # start-up: see _registry
    from .files import foreign, make_folders, stale, strays, write_folder, write_output

    root = Path(folder)
    if not check_only and not force and foreign(root, GALLERY_MARKER):
        raise InputError(
            f"{root}: is not empty and is not a loopcompare gallery (it has no {GALLERY_MARKER} file), "
            "so its files could be overwritten; choose a new or empty folder, or use --force"
        )
    _registry()
    files = api.gallery(progress=_progress)
    if check_only:
        out_of_date = stale(root, files)
        for name in out_of_date:
            click.echo(click.style("stale:", fg="yellow") + " " + visible(str(root / name)))
        extra = strays(root, files, ("", "timelines"))
        for name in extra:
            _say(f"not part of the gallery (delete it?): {root / name}")
        if out_of_date or extra:
            click.echo(f"{len(out_of_date) + len(extra)} of {len(files)} gallery files are stale; run 'loopcompare gallery' to regenerate", err=True)
            sys.exit(1)
        click.echo(f"gallery is up to date: {len(files)} files in {root}")
        return
    with held_interrupt():  # Ctrl-C while writing: every file is written first, then the command ends
        make_folders(root, files)
        if not (root / GALLERY_MARKER).is_file():
            write_output(root / GALLERY_MARKER, GALLERY_MARKER_TEXT)
        changed = write_folder(root, files)
    click.echo(f"wrote {changed} of {len(files)} gallery files in {root}")


#: The file that marks a folder as a loopcompare site, which ``site`` may rewrite.
SITE_MARKER = ".loopcompare-site"


@main.command()
@click.argument("folder", metavar="DIR", type=FOLDER)
@click.option("--base-url", default="", metavar="URL", help="Where the site will be published (makes permalinks and citations absolute).")
@click.option("--force", is_flag=True, help="Write into a non-empty folder that is not a site (same-named files are replaced).")
def site(folder: str, base_url: str, force: bool) -> None:
    """Build the static site into DIR: a page per loop, era and amendment, the index, search,
    the history and the atlas; open DIR/index.html (no server needed)."""
    from pathlib import Path  # start-up: see the module's docstring

    from . import api  # start-up: see _registry
    from .files import foreign, write_folder

    root = Path(folder)
    if foreign(root, SITE_MARKER) and not force:
        raise InputError(f"{root}: is not empty and is not a loopcompare site (it has no {SITE_MARKER} file); choose a new or empty folder, or use --force")
    _registry()
    files = api.site(base_url, progress=_progress)
    files[SITE_MARKER] = "This folder is a loopcompare site: 'loopcompare site FOLDER' rewrites its files.\n"
    changed = write_folder(root, files)
    click.echo(f"wrote {changed} of {len(files)} site files in {root}; open {root / 'index.html'}")


install(main)  # examples in every --help; --color, --no-pager, -v (comparator/conventions.py)

if __name__ == "__main__":  # pragma: no cover
    main()
