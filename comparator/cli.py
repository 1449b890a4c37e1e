"""The ``loopcompare`` command line: a thin layer that parses, calls the library, and writes.

Exit codes: 0 fine; 1 a check failed (``check``, ``gallery --check``); 2 bad usage or bad input,
with a message naming the file and the field, and no traceback; 130 interrupted (Ctrl-C,
:mod:`.interrupts`).  Only this module touches files
and the terminal; every file it writes is written whole or not at all (a device or a pipe is
written through, never replaced: see :func:`write_output`), and every message it prints shows
control characters as codes (:func:`_say`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, Unpack

import click

from .controls import visible
from .conventions import Commands, FormatChoice, colour_context, complete_paths, emit_screen, install, split_keys
from .interrupts import DeadlinePassed, Interruptible, deadline, held_interrupt, new_folder

if TYPE_CHECKING:  # imported where used, so that start-up stays quick
    from click._termui_impl import ProgressBar  # click.progressbar's own return annotation
    from click.shell_completion import CompletionItem

    from loopcompare.rulesets import Ruleset
    from loopcompare.rulesets.registry import Registry

    from .atlas import Atlas
    from .compare import Comparison
    from .loader import ScenarioFile
    from .timeline import Timeline

#: A function click decorates into a command (what an option decorator takes and gives back).
Decorated = TypeVar("Decorated", bound=Callable[..., Any])

FORMATS = ("md", "html", "json")


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
    """--version, looked up only when asked for (so start-up stays quick)."""
    if not value or ctx.resilient_parsing:
        return
    from importlib import metadata

    try:
        version = metadata.version("loopcompare")
    except metadata.PackageNotFoundError:
        version = "0+unknown"
    click.echo(f"loopcompare, version {version}")
    ctx.exit()


def _registry() -> Registry:
    """The ruleset registry; plugin problems are reported on stderr, once, and are not fatal."""
    from loopcompare.rulesets import registry

    reg = registry()
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
    from loopcompare.rulesets.registry import UnknownRuleset

    try:
        return _registry().select(split_keys(keys))
    except UnknownRuleset as exc:
        raise InputError(str(exc)) from None


def _scenarios(paths: Sequence[str]) -> list[ScenarioFile]:
    from .library import resolve
    from .loader import MAX_BYTES, ScenarioError, parse_bytes

    if list(paths).count("-") > 1:
        raise InputError("-: standard input can be read only once")
    out: list[ScenarioFile] = []
    try:
        for p in paths:
            if p == "-":
                # At most one byte more than a file may hold: an endless stream is refused at once.
                raw = sys.stdin.buffer.read(MAX_BYTES + 1)
                if len(raw) > MAX_BYTES:
                    from .descriptors import stream_size

                    raise InputError(f"<stdin>: is {stream_size(sys.stdin.buffer, len(raw))}; scenario files are limited to {MAX_BYTES:,} bytes")
                out.append(parse_bytes(raw, "<stdin>", "stdin", file="<stdin>"))
            else:
                out.extend(resolve(p))
    except ScenarioError as exc:
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
    return EXTENSIONS.get(Path(output).suffix.lower(), "md") if output and output != "-" else "md"


def _colour(ctx: click.Context) -> None:
    """No colour when NO_COLOR is set to anything but the empty string (https://no-color.org);
    colour when FORCE_COLOR is (see :func:`comparator.conventions.colour_context`)."""
    colour_context(ctx)


def _complete_paths(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Shell completion for PATH: built-in scenario names, then files and folders."""
    return complete_paths(incomplete)


def _complete_rulesets(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion for -r: ruleset keys, their aliases and 'all' (after a comma, the next key)."""
    reg = _registry()
    done, comma, last = incomplete.rpartition(",")
    words = ["all", *reg.keys(), *(a for r in reg.rulesets for a in r.aliases)]
    return [done + comma + w for w in dict.fromkeys(words) if w.startswith(last.lower())]


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a temporary file beside it, then rename."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"{target}: can't write: the folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        # mkstemp makes the file private; give it the mode a plain open() would (or the old file's).
        umask = os.umask(0)
        os.umask(umask)
        mode = target.stat().st_mode & 0o7777 if target.exists() else 0o666 & ~umask
        os.chmod(tmp, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _kind_of_file(mode: int) -> str:
    for test, kind in ((stat.S_ISDIR, "folder"), (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return kind
    return "special file"


def _real_target(path: Path) -> tuple[Path, os.stat_result | None]:
    """Where writing ``path`` lands, and what is there now (None: nothing yet).

    A symbolic link is followed, as a shell's ``>`` follows it: the file it points to is
    written and the link stays.
    """
    target = Path(os.path.realpath(path)) if os.path.islink(path) else path
    try:
        return target, os.stat(target)
    except FileNotFoundError:
        return target, None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(f"{path}: can't write: it is a loop of symbolic links") from None
        raise InputError(f"{path}: can't write: {exc.strerror or exc}") from None


def write_output(path: Path, text: str) -> None:
    """Write a report to ``path``, respecting what is there.

    A regular file (or a new name) is written whole or not at all (:func:`write_atomic`); a
    symbolic link is followed and the file it points to written that way; a character device
    or a named pipe (``/dev/null``, ``/dev/stdout``, a FIFO) is written through as a stream and
    never replaced; any other kind of file (a block device, a socket) is refused.
    """
    target, info = _real_target(Path(path))
    if info is not None and not stat.S_ISREG(info.st_mode):
        if not (stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
            raise InputError(f"{path}: is a {_kind_of_file(info.st_mode)}; reports are written to files, character devices (such as /dev/null) and named pipes only")
        # No O_CREAT, no O_TRUNC: the device or pipe is opened as it is, never created or replaced.
        fd = os.open(target, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
        if stat.S_ISREG(os.fstat(fd).st_mode):  # it became a file since we looked: write that whole
            os.close(fd)
            write_atomic(target, text)
            return
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
        return
    write_atomic(target, text)


def _input_files(argument: str) -> list[Path]:
    """The files a PATH argument reads (a folder's ``*.toml`` files); a built-in name reads none."""
    path = Path(argument)
    try:
        if path.is_dir():
            return [p for p in path.iterdir() if p.suffix == ".toml"]
        return [path] if path.exists() else []
    except OSError:
        return []


def check_output(output: str | None, inputs: Iterable[str] = ()) -> None:
    """Refuse, before any work is done, an ``-o`` that can't be written or would replace an input.

    ``-`` and no ``-o`` mean standard output.  The folder must exist and take a new file (unless
    the target is a device or a pipe, which is written through); the target must not be one of
    the scenario files being read (a report over its own scenario would lose the scenario).
    """
    if output is None or output == "-" or output in STDOUT_NAMES:
        return
    target, info = _real_target(Path(output))
    if info is not None:
        for argument in inputs:
            for source in _input_files(argument):
                try:
                    same = os.path.samestat(info, os.stat(source))
                except OSError:
                    continue
                if same:
                    raise InputError(f"{output}: is also an input ({source}); writing the report there would replace the scenario. Choose another file")
        if stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
            return
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"{output}: can't write: the folder {folder} does not exist")
    try:
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        raise InputError(f"{output}: can't write in the folder {folder}: {exc.strerror or exc}") from None


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


class ReportOptions(TypedDict, total=False):
    """The options :func:`render` passes on to :func:`comparator.render.report`."""

    only_differences: bool
    title: str | None
    links: Sequence[str] | None
    see_also: Sequence[tuple[str, str]]
    mermaid: bool
    table_only: bool
    command: str | None
    source_note: bool


def render(comparisons: Sequence[Comparison], fmt: str, **options: Unpack[ReportOptions]) -> str:
    """A report of comparisons in one format (see :func:`comparator.render.report`)."""
    from .render import report

    return report(comparisons, fmt, **options)


#: Names of standard output as a file: the report's own descriptor, not descriptor 1 (which
#: points at standard error while loopcompare runs, see comparator/descriptors.py).
STDOUT_NAMES = ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")


def _emit(text: str, output: str | None) -> None:
    if output is None or output == "-" or output in STDOUT_NAMES:
        if output is None and emit_screen(text):  # a terminal: the screen view
            return
        _write_stdout(text)
    else:
        try:
            write_output(Path(output), text)
        except OSError as exc:
            raise InputError(f"{output}: can't write: {exc.strerror or exc}") from None


def _reproduce(fmt: str, skip: Sequence[str] = ()) -> str:
    """The command that makes the report being written, for its stamp: this command with its
    arguments and options as given, ``-f`` explicit, and without ``-o`` (the bytes are the same
    wherever they go) or options that don't change them (``skip``)."""
    from .stamp import command

    ctx = click.get_current_context()
    words = ["loopcompare", ctx.info_name or ""]
    for param in ctx.command.params:
        name = param.name or ""
        value = ctx.params.get(name)
        if name in ("output", "fmt", *skip) or not isinstance(param, (click.Option, click.Argument)) or param.expose_value is False:
            continue
        if isinstance(param, click.Argument):
            from .stamp import path_word

            words += [path_word(str(v)) for v in (value if isinstance(value, tuple) else (value,)) if v is not None]
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
    return command(*words, "-f", fmt)


def _set_plugin_timeout(ctx: click.Context, _param: click.Parameter, value: float | None) -> None:
    from .compare import set_plugin_time_limit

    set_plugin_time_limit(value)


def _set_plugin_budget(ctx: click.Context, _param: click.Parameter, value: float | None) -> None:
    from .compare import set_plugin_budget

    set_plugin_budget(value)


def _set_isolation(ctx: click.Context, _param: click.Parameter, value: bool | None) -> None:
    from .isolation import enabled, set_isolation

    if value is not None or enabled():
        set_isolation(value)


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


def _compared(run: Callable[[ScenarioFile, Sequence[Ruleset]], Comparison], sf: ScenarioFile, rulesets: Sequence[Ruleset]) -> Comparison:
    """``run(sf, rulesets)`` within ``--timeout`` (a refusal naming the file when it passes)."""
    from loopcompare.rulesets.values import Unsettleable  # start-up: the rulesets load only when a command settles

    seconds = click.get_current_context().meta.get("loopcompare.timeout")
    try:
        with deadline(seconds):
            return run(sf, rulesets)
    except DeadlinePassed:
        raise InputError(f"{sf.file}: settling took more than {seconds:g} s (--timeout); nothing was written") from None
    except Unsettleable as exc:
        raise InputError(f"{sf.file}: {exc}") from None


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
    """The command group: the everyday commands first, and Ctrl-C exits 130 in every command."""


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
    _colour(ctx)
    from .descriptors import keep_stdout_for_the_report

    keep_stdout_for_the_report()  # before any plugin loads: its writes to descriptor 1 go to stderr


@main.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", shell_complete=_complete_paths)
@click.option("-r", "--ruleset", "keys", multiple=True, metavar="KEY", shell_complete=_complete_rulesets, help="Compare under this ruleset (repeatable; 'all' for every era; default: the four mission rulesets).")
@click.option("-f", "--format", "fmt", type=FormatChoice(FORMATS), help="Report format (default: from -o's extension, else md).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the report to FILE (whole or not at all) instead of standard output.")
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
    from .compare import compare as run

    fmt = _format(fmt, output)
    if table_only and fmt == "json":
        raise InputError("--table-only: JSON always has whole outcomes; use -f md or -f html")
    check_output(output, paths)
    rulesets = _rulesets(keys)
    if as_of:
        from loopcompare.rulesets.history import as_of as in_force

        try:
            chosen = in_force(_registry().rulesets, as_of)
        except ValueError as exc:
            raise InputError(f"--as-of: {exc}") from None
        for note in chosen.notes:
            click.echo(f"note: {note}", err=True)
        # One column per key: the text in force that day (renumbered, if so) wins over the -r one.
        merged: dict[str, Ruleset] = {}
        for r in (chosen.rulesets + rulesets) if keys else chosen.rulesets:
            merged.setdefault(r.key, r)
        rulesets = tuple(merged.values())
    comparisons = [_compared(run, s, rulesets) for s in _scenarios(paths)]
    text = render(comparisons, fmt, only_differences=only_differences, title=title, table_only=table_only, mermaid=mermaid, command=_reproduce(fmt), source_note=source_note)
    _emit(text, output)


@main.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", shell_complete=_complete_paths)
@click.option("--fill", is_flag=True, help="Write each file's [expect] blocks from today's outcomes (replacing those it has); the file is checked before it is written.")
@click.option("-r", "--ruleset", "keys", multiple=True, metavar="KEY", shell_complete=_complete_rulesets, help="With --fill: the rulesets to pin (default: those the file expects already, else the four mission rulesets).")
@plugin_timeout_option
@timeout_option
def check(paths: tuple[str, ...], fill: bool, keys: tuple[str, ...]) -> None:
    """Check each scenario's [expect] blocks; exit 1 if any expectation fails."""
    from .compare import check as run_check
    from .compare import compare as run

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
        comparison = _compared(run, sf, [reg.get(k) for k in sf.expect])
        problems = run_check(comparison)
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
    from .compare import check as run_check
    from .compare import compare as run
    from .fill import filled
    from .loader import ScenarioError, parse_bytes

    files = [f for p in paths for f in (sorted(_input_files(p)) if Path(p).exists() else [])]
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise InputError(f"{missing[0]}: --fill writes scenario files; give files or folders (not a built-in name or -)")
    writes: list[tuple[Path, str, int]] = []
    for path in files:
        (sf,) = _scenarios([str(path)])
        chosen = _rulesets(keys) if keys else _rulesets(list(sf.expect)) if sf.expect else _rulesets(())
        comparison = run(sf, chosen)
        text = filled(path.read_text(encoding="utf-8"), comparison.outcomes, [r.key for r in chosen], sf.scenario.format)
        try:
            again = parse_bytes(text.encode("utf-8"), sf.file, sf.id, file=sf.file)
        except ScenarioError as exc:
            raise InputError(f"{path}: the filled file would not load ({exc}); nothing was written") from None
        problems = run_check(run(again, chosen))
        if problems:
            raise InputError(f"{path}: the filled file would not pass its check ({problems[0]}); nothing was written")
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
    if trace_rule:
        from .concordance import TraceError, render as render_trace

        try:
            _say(render_trace(trace_rule), nl=False)
        except TraceError as exc:
            raise InputError(f"--trace: {exc}") from None
        return
    from loopcompare.rulesets.history import end_in_words, in_force_today, lines, numbers_in_words, start_in_words

    from .render import md_table

    reg = _registry()
    if diff_key:
        from .textdiff import ruleset_diff
        from loopcompare.rulesets.registry import UnknownRuleset

        try:
            ruleset = reg.get(diff_key)
        except UnknownRuleset as exc:
            raise InputError(str(exc)) from None
        _say(ruleset_diff(reg.rulesets, ruleset), nl=False)
        return
    if as_json:
        from .listing import rulesets_json

        _emit(rulesets_json(reg.rulesets), None)
        return
    rows = []
    for r in _registry().rulesets:
        rules = f"{r.rule_ids[0]}\u2013{r.rule_ids[-1]}" if len(r.rule_ids) > 1 else r.rule_ids[0]
        rows.append([r.key, r.name, start_in_words(r), end_in_words(r) or in_force_today(r), rules, r.citation])
    from loopcompare.rulesets.history import numbers_table

    text = [md_table(["key", "name", "in force from", "to", "rules", "source"], rows), ""]
    text += ["line: " + " -> ".join(r.key for r in line) for line in lines(reg.rulesets)]
    text += ["", "the CR's loop rule, by number (each from the first archived release that has it):", ""]
    text += [md_table(["number", "from", "what moved it"], numbers_table()), ""]
    text.append(f"Today it is {numbers_in_words().rsplit('Today it is ', 1)[1]}")
    _emit(visible("\n".join(text) + "\n"), None)


@main.command()
@click.argument("what", required=False, metavar="[RULESET|SCENARIO]", shell_complete=_complete_paths)
@click.option("-f", "--format", "fmt", type=click.Choice(("text", "bibtex", "csl-json")), default="text", show_default=True, help="Plain text, BibTeX, or CSL-JSON (what Zotero and pandoc read).")
@click.option("-r", "--ruleset", "keys", multiple=True, metavar="KEY", shell_complete=_complete_rulesets, help="With a SCENARIO: the rulesets of the report cited (as for compare).")
@click.option("--report-format", "report_fmt", type=click.Choice(FORMATS), default="md", show_default=True, help="With a SCENARIO: the format of the report cited.")
def cite(what: str | None, fmt: str, keys: tuple[str, ...], report_fmt: str) -> None:
    """Cite the rules texts: every text shipped, a ruleset's texts, or a scenario's report itself
    (the tool, the texts' versions, the command that reproduces it) with the texts it quotes."""
    from .citing import citations_for

    _write_stdout(citations_for(what, fmt, keys, report_fmt, _registry, _rulesets, _scenarios))


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="CRFILE...", type=click.Path(dir_okay=False))
@click.option("--write", "folder", type=click.Path(file_okay=False), metavar="DIR", help="Also write each rule found as DIR/DATE_cr_NUMBER.txt, a source file in the project's format (never over a different file).")
def sources(files: tuple[str, ...], folder: str | None) -> None:
    """Read official Comprehensive Rules text files: find "Taking Shortcuts", its number and its
    text, and compare it with the newest text the project knows."""
    from .crfile import MAX_BYTES, CrFileError, Examination, examine, source_file

    exams: list[Examination] = []
    errors: list[str] = []
    for name in files:
        try:
            with open(name, "rb") as handle:
                data = handle.read(MAX_BYTES + 1)
            exams.append(examine(data, Path(name).name))
        except CrFileError as exc:
            # Reports name the file alone; a message names the path as given (/dev/zero, not zero).
            text, base = str(exc), Path(name).name
            errors.append(name + text[len(base):] if text.startswith(base + ":") else text)
        except OSError as exc:
            errors.append(f"{name}: can't read: {exc.strerror or exc}")
    for exam in exams:
        _say(exam.report(), nl=False)
    writes: dict[Path, str] = {}
    if folder and not Path(folder).is_dir():
        errors.append(f"{folder}: no such folder (--write)")
    elif folder and not errors:
        for exam in exams:
            target, text = Path(folder) / exam.written_name, source_file(exam)
            if writes.get(target, text) != text or (target.is_file() and target.read_text(encoding="utf-8", errors="replace") != text):
                errors.append(f"{target}: already exists with other contents; not overwritten (move it away to write it anew)")
            writes[target] = text
    if errors:
        for error in errors:
            _say(f"Error: {error}", err=True)
        raise InputError(f"{len(errors)} problem(s) with {len(files)} file(s); nothing was written")
    for target, text in writes.items():
        if target.is_file():
            _say(f"unchanged: {target} (already there, the same)")
            continue
        _emit(text, str(target))
        _say(f"wrote {target}")


@main.command()
def schema() -> None:
    """Print the JSON Schema of scenario files (format 1), for editors and other tools."""
    from importlib import resources

    click.echo(resources.files("loopcompare.comparator").joinpath("schema", "scenario.schema.json").read_text(encoding="utf-8"), nl=False)


@main.command()
@click.argument("name")
@click.option("-k", "--kind", type=click.Choice(("two-players", "one-player", "multiplayer-drain", "across-turns"), case_sensitive=False), default="two-players", show_default=True, help="The kind of loop the starter shows.")
@click.option("--format", "scenario_format", type=click.IntRange(1, 2), metavar="1|2", help="The scenario format (default: the kind's first, 1 but for multiplayer-drain).")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def new(name: str, kind: str, scenario_format: int | None, force: bool) -> None:
    """Write a commented starter scenario NAME.toml (or NAME, if it ends in .toml) that validates."""
    from .starter import StarterError, starter

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
    from .library import load_builtin, names
    from .render import md_table

    found = [load_builtin(name) for name in names()]
    if as_json:
        from .listing import scenarios_json

        _emit(scenarios_json(found), None)
        return
    rows = [[sf.id, sf.scenario.title, ", ".join(sf.scenario.tags)] for sf in found]
    _emit(md_table(["name", "title", "tags"], rows) + "\n", None)


def render_timelines(timelines: Sequence[Timeline], fmt: str, command: str | None = None) -> str:
    """Timeline reports in one format, stamped with the command that makes them."""
    from . import render as renderers

    return renderers.timeline_report(timelines, fmt, command)


@main.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", shell_complete=_complete_paths)
@click.option("-f", "--format", "fmt", type=FormatChoice(FORMATS), help="Report format (default: from -o's extension, else md).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the report to FILE (whole or not at all).")
@plugin_timeout_option
def timeline(paths: tuple[str, ...], fmt: str | None, output: str | None) -> None:
    """Settle each scenario under every era in order: when did its outcome change, and why?"""
    from .timeline import build

    fmt = _format(fmt, output)
    check_output(output, paths)
    rulesets = _registry().rulesets
    timelines = [build(sf, rulesets) for sf in _scenarios(paths)]
    _emit(render_timelines(timelines, fmt, _reproduce(fmt)), output)


def render_atlas(atlas: Atlas, fmt: str, command: str | None = None) -> str:
    """The atlas in one format, stamped with the command that makes it."""
    from . import render as renderers

    return renderers.atlas_report(atlas, fmt, command)


def _progress(length: int, label: str) -> ProgressBar[int] | None:
    """A progress bar on stderr when stderr is a terminal; otherwise nothing is shown."""
    stream = sys.stderr
    return click.progressbar(length=length, label=label, file=stream) if stream.isatty() else None


class AtlasOptions(TypedDict, total=False):
    """The options :func:`build_atlas` passes on to :func:`comparator.atlas.build`."""

    fields: Sequence[str]
    space: str


def build_atlas(rulesets: Sequence[Ruleset], jobs: int | None, progress: bool = True, **options: Unpack[AtlasOptions]) -> Atlas:
    """Build the atlas, with a progress bar on a terminal (stderr; silent otherwise);
    ``options`` go to :func:`comparator.atlas.build` (``fields``, ``space``)."""
    from . import atlas as atlases

    length = len(atlases.shapes(space=options.get("space", "format1")))
    bar = _progress(length, "settling loops") if progress else None
    if bar is None:
        return atlases.build(rulesets, jobs=jobs, **options)
    with bar:
        return atlases.build(rulesets, jobs=jobs, progress=bar.update, **options)


@main.command()
@click.option("-r", "--ruleset", "keys", multiple=True, metavar="KEY", shell_complete=_complete_rulesets, help="Rulesets to compare (repeatable; 'all' for every era; default: the four mission rulesets).")
@click.option("-f", "--format", "fmt", type=FormatChoice(FORMATS), help="Report format (default: from -o's extension, else md).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the atlas to FILE (whole or not at all).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Processes to use (default: the CPUs available).")
@click.option("--examples", "examples_dir", type=click.Path(file_okay=False), help="Also save each class's smallest example as DIR/class-N.toml.")
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
    from . import atlas as atlases

    fmt = _format(fmt, output)
    rulesets = _rulesets(keys)
    if len(rulesets) < 2:
        raise InputError("the atlas compares two or more rulesets")
    # Everything that could stop the writing is checked before the atlas is computed.
    check_output(output)
    with contextlib.ExitStack() as made:  # an --examples folder made here goes again if the atlas is not written
        folder = _examples_folder(examples_dir, made) if examples_dir else None
        result = build_atlas(rulesets, jobs, space=space)
        text = render_atlas(result, fmt, _reproduce(fmt, skip=("jobs", "examples_dir")))
        with held_interrupt():
            _emit(text, output)
            if folder is not None:
                for i, cls in enumerate(result.classes, 1):
                    _emit(atlases.to_toml(cls.example), str(folder / f"class-{i}.toml"))


def _examples_folder(name: str, made: contextlib.ExitStack) -> Path:
    """The atlas's --examples folder, created (and removed again, while empty, when ``made``
    closes on an error or Ctrl-C), and checked to take new files."""
    folder = Path(name)
    try:
        made.enter_context(new_folder(folder))
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        raise InputError(f"{folder}: can't write the examples there: {exc.strerror or exc}") from None
    return folder


@main.command()
@click.option("-f", "--format", "fmt", type=FormatChoice(FORMATS), help="Report format (default: from -o's extension, else md).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the report to FILE (whole or not at all).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Processes to use for the atlas (default: the CPUs available).")
def history(fmt: str | None, output: str | None, jobs: int | None) -> None:
    """The history of the loop rules: for each amendment, its text diff, the loops it settles
    differently (from one atlas run over every era) and the readings it created or closed."""
    from . import amendments
    from .library import load_builtin, names

    fmt = _format(fmt, output)
    rulesets = _registry().rulesets
    atlas = build_atlas(amendments.eras(rulesets), jobs, fields=amendments.FIELDS)
    report = amendments.build(rulesets, atlas, [load_builtin(n) for n in names()])
    _emit(amendments.render(report, fmt, command=_reproduce(fmt, skip=("jobs",))), output)


def _builtin_eras() -> tuple[Ruleset, ...]:
    """Every built-in ruleset, in chronological order (the gallery leaves plugins out)."""
    from loopcompare.rulesets.registry import BUILTIN

    return tuple(r for r in _registry().rulesets if r.key in BUILTIN)


_ATLASES: dict[str, Atlas] = {}


def _eras_atlas(progress: bool = False) -> Atlas:
    """The gallery's one atlas run, once per process: every built-in era, compared on the
    history's fields (a progress bar on a terminal with ``progress``).  The history report reads
    it whole; the mission atlas is its restriction (nothing is settled twice)."""
    if "eras" not in _ATLASES:
        from . import amendments

        _ATLASES["eras"] = build_atlas(amendments.eras(_builtin_eras()), None, progress, fields=amendments.FIELDS)
    return _ATLASES["eras"]


def _mission_atlas(progress: bool = False) -> Atlas:
    """The gallery's atlas of the four mission rulesets: the eras atlas restricted to them
    (the same as building it on its own, see tests/test_amendments.py)."""
    from . import atlas as atlases

    return atlases.restrict(_eras_atlas(progress), _registry().select([]), atlases.FIELDS)


def gallery_files(progress: bool = False) -> dict[str, str]:
    """Every file of the gallery: each built-in scenario as markdown, HTML and JSON, plus an index,
    its timeline under every era (``timelines/``), the atlas and the history of the loop rules;
    with ``progress``, bars on a terminal."""
    from . import amendments
    from .compare import compare as run
    from .library import load_builtin, names
    from .timeline import build

    reg = _registry()
    rulesets = reg.select([])
    eras = _builtin_eras()
    scenarios = [load_builtin(n) for n in names()]
    comparisons = [run(sf, rulesets) for sf in scenarios]
    files: dict[str, str] = {}
    bar = _progress(len(scenarios), "rendering reports") if progress else None
    with bar or contextlib.nullcontext():
        for sf, c in zip(scenarios, comparisons):
            timeline = build(sf, eras)
            for fmt in FORMATS:
                files[f"{c.scenario.id}.{fmt}"] = render([c], fmt)
                files[f"timelines/{c.scenario.id}.{fmt}"] = render_timelines([timeline], fmt)
            if bar is not None:
                bar.update(1)
    atlas = _mission_atlas(progress)
    for fmt in FORMATS:
        files[f"atlas.{fmt}"] = render_atlas(atlas, fmt, f"loopcompare atlas --space format1 -f {fmt}")
    history = amendments.build(eras, _eras_atlas(), scenarios)
    for fmt in FORMATS:
        files[f"history.{fmt}"] = amendments.render(history, fmt, command=f"loopcompare history -f {fmt}")
    title = "loopcompare gallery: the built-in loops under every ruleset"
    for fmt in ("md", "html"):
        see_also = [("the divergence atlas", f"atlas.{fmt}"), ("the history of the loop rules, amendment by amendment", f"history.{fmt}")]
        see_also += [("the timeline of each loop", f"timelines/{comparisons[0].scenario.id}.{fmt}")]
        links = [f"{c.scenario.id}.{fmt}" for c in comparisons]
        files[f"index.{fmt}"] = render(comparisons, fmt, title=title, links=links, see_also=see_also, command="loopcompare gallery")
    from .site import readme

    files["README.md"] = readme(files)  # GitHub shows it as the folder's entry page
    return dict(sorted(files.items()))


@main.command()
@click.option("--check", "check_only", is_flag=True, help="Don't write; exit 1 if the files in DIR are stale or missing.")
@click.option("--dir", "folder", default="reports", show_default=True, type=click.Path(file_okay=False), help="The gallery folder.")
@click.option("--force", is_flag=True, help="Write into a non-empty folder that is not a gallery (same-named files are replaced).")
def gallery(check_only: bool, folder: str, force: bool) -> None:
    """Render every built-in scenario into the gallery folder (markdown, HTML, JSON, index)."""
    root = Path(folder)
    if not check_only and not force:
        _refuse_foreign_folder(root)
    files = gallery_files(progress=True)
    if check_only:
        stale = [name for name, text in files.items() if not (root / name).is_file() or (root / name).read_bytes() != text.encode("utf-8")]
        for name in stale:
            click.echo(click.style("stale:", fg="yellow") + " " + visible(str(root / name)))
        if root.is_dir():
            extra = sorted(
                p.relative_to(root).as_posix()
                for folder_here in (root, root / "timelines")
                if folder_here.is_dir()
                for p in folder_here.iterdir()
                if p.suffix in {".md", ".html", ".json"} and p.relative_to(root).as_posix() not in files
            )
            for name in extra:
                _say(f"not part of the gallery (delete it?): {root / name}")
            stale += extra
        if stale:
            click.echo(f"{len(stale)} of {len(files)} gallery files are stale; run 'loopcompare gallery' to regenerate", err=True)
            sys.exit(1)
        click.echo(f"gallery is up to date: {len(files)} files in {root}")
        return
    with held_interrupt():  # Ctrl-C while writing: every file is written first, then the command ends
        for folder_needed in sorted({(root / name).parent for name in files}):
            try:
                folder_needed.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InputError(f"{folder_needed}: can't create the folder: {exc.strerror or exc}") from None
        if not (root / GALLERY_MARKER).is_file():
            _emit(GALLERY_MARKER_TEXT, str(root / GALLERY_MARKER))
        changed = 0
        for name, text in files.items():
            target = root / name
            if not target.is_file() or target.read_bytes() != text.encode("utf-8"):
                _emit(text, str(target))
                changed += 1
    click.echo(f"wrote {changed} of {len(files)} gallery files in {root}")


#: The file that marks a folder as a loopcompare gallery, which ``gallery`` may rewrite.
GALLERY_MARKER = ".loopcompare-gallery"
GALLERY_MARKER_TEXT = "This folder is a loopcompare gallery: 'loopcompare gallery --dir FOLDER' rewrites its files.\n"


def _refuse_foreign_folder(root: Path) -> None:
    """Refuse to write a gallery into a folder that holds other things (its files would be
    overwritten): only a new or empty folder, or one marked as a gallery, is written."""
    try:
        if not root.is_dir() or (root / GALLERY_MARKER).is_file() or next(root.iterdir(), None) is None:
            return
    except OSError as exc:
        raise InputError(f"{root}: can't read the folder: {exc.strerror or exc}") from None
    raise InputError(
        f"{root}: is not empty and is not a loopcompare gallery (it has no {GALLERY_MARKER} file), "
        "so its files could be overwritten; choose a new or empty folder, or use --force"
    )


# --- the static site (comparator/site.py) ----------------------------------------------------------

#: The file that marks a folder as a loopcompare site, which ``site`` may rewrite.
SITE_MARKER = ".loopcompare-site"


@main.command()
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False))
@click.option("--base-url", default="", metavar="URL", help="Where the site will be published (makes permalinks and citations absolute).")
@click.option("--force", is_flag=True, help="Write into a non-empty folder that is not a site (same-named files are replaced).")
def site(folder: str, base_url: str, force: bool) -> None:
    """Build the static site into DIR: a page per loop, era and amendment, the index, search,
    the history and the atlas; open DIR/index.html (no server needed)."""
    from . import site as sites

    root = Path(folder)
    try:
        foreign = root.is_dir() and not (root / SITE_MARKER).is_file() and next(root.iterdir(), None) is not None
    except OSError as exc:
        raise InputError(f"{root}: can't read the folder: {exc.strerror or exc}") from None
    if foreign and not force:
        raise InputError(f"{root}: is not empty and is not a loopcompare site (it has no {SITE_MARKER} file); choose a new or empty folder, or use --force")
    eras = _builtin_eras()
    library = sites.library_files()
    files = sites.build(
        library,
        eras,
        _eras_atlas(progress=True),
        _mission_atlas(),
        base_url=base_url,
    )
    files[SITE_MARKER] = "This folder is a loopcompare site: 'loopcompare site FOLDER' rewrites its files.\n"
    for folder_needed in sorted({(root / name).parent for name in files}):
        try:
            folder_needed.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"{folder_needed}: can't create the folder: {exc.strerror or exc}") from None
    changed = 0
    for name, text in files.items():
        target = root / name
        if not target.is_file() or target.read_bytes() != text.encode("utf-8"):
            _emit(text, str(target))
            changed += 1
    click.echo(f"wrote {changed} of {len(files)} site files in {root}; open {root / 'index.html'}")


install(main)  # examples in every --help; --color, --no-pager, -v (comparator/conventions.py)

if __name__ == "__main__":  # pragma: no cover
    main()
