"""``-o FILE`` writes whole or not at all: a temporary file in the target's folder, then a rename.

Whatever goes wrong before the rename (bad input, a renderer that raises, a full disk, an
interrupt), an existing FILE keeps its bytes and the folder keeps no temporary file.  A new file
gets the permissions a plain ``open()`` would give it.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest
from helpers import scenario_text
from click.testing import CliRunner

from loopcompare import comparator
from loopcompare.comparator.cli import main

OLD = b"previous report\r\nwith bytes \xff that must survive\n"

GOOD = scenario_text("gain-and-lose-flying")


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def target(tmp_path):
    """An existing report in a folder of its own."""
    folder = tmp_path / "out"
    folder.mkdir()
    path = folder / "report.md"
    path.write_bytes(OLD)
    return path


def assert_untouched(target: Path) -> None:
    assert target.read_bytes() == OLD
    assert _listing(target.parent) == [target.name], "a temporary file was left behind"


# --- the way it writes ----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_writes_a_temporary_file_in_the_target_folder_then_renames_it(target, monkeypatch, fmt):
    expected = run("compare", "flying-relents", "-f", fmt).stdout_bytes
    seen = []
    real_replace = os.replace

    def spy(src, dst, *args, **kwargs):
        src, dst = Path(src), Path(dst)
        seen.append(
            {
                "src": src,
                "dst": dst,
                "content": src.read_bytes(),
                "old": dst.read_bytes(),
                "listing": _listing(src.parent),
            }
        )
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", spy)
    result = run("compare", "flying-relents", "-f", fmt, "-o", target)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    [call] = seen
    assert call["dst"] == target
    assert call["src"].parent == target.parent, "the temporary file must be on the target's file system"
    assert call["src"] != target
    assert call["content"] == expected, "the temporary file holds the whole report before the rename"
    assert call["old"] == OLD, "the target is untouched until the rename"
    assert call["listing"] == sorted([target.name, call["src"].name])
    assert target.read_bytes() == expected
    assert _listing(target.parent) == [target.name]


def test_a_relative_target_gets_its_temporary_file_in_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    seen = []
    real_replace = os.replace

    def spy(src, dst, *args, **kwargs):
        seen.append(Path(src).resolve().parent)
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", spy)
    assert run("compare", "flying", "-o", "report.md").exit_code == 0
    assert seen == [tmp_path.resolve()]
    assert _listing(tmp_path) == ["report.md"]


# --- failures leave the old file ------------------------------------------------------------------


def _boom(*args, **kwargs):
    raise RuntimeError("renderer exploded")


@pytest.mark.parametrize("fmt, renderer", [("md", "markdown"), ("html", "html"), ("json", "json_report")])
def test_a_failing_renderer_leaves_the_file_untouched(target, monkeypatch, fmt, renderer):
    monkeypatch.setattr(comparator.render, renderer, _boom)
    result = run("compare", "flying-relents", "-f", fmt, "-o", target)
    assert result.exit_code != 0
    assert isinstance(result.exception, RuntimeError)
    assert_untouched(target)


@pytest.mark.parametrize(
    "where, error",
    [
        ("fsync", OSError(errno.ENOSPC, "No space left on device")),
        ("replace", OSError(errno.EXDEV, "Invalid cross-device link")),
        ("chmod", OSError(errno.EPERM, "Operation not permitted")),
    ],
)
def test_a_failing_write_leaves_the_file_untouched_and_says_why(target, monkeypatch, where, error):
    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr(os, where, fail)
    result = run("compare", "flying-relents", "-o", target)
    monkeypatch.undo()
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert str(target) in result.stderr and error.strerror in result.stderr
    assert_untouched(target)


def test_a_half_written_temporary_file_never_replaces_the_target(target, monkeypatch):
    real_fdopen = os.fdopen

    class HalfWriter:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()
            return False

        def write(self, data):
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            raise OSError(errno.EIO, "Input/output error")

        def __getattr__(self, name):
            return getattr(self.handle, name)

    monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: HalfWriter(real_fdopen(fd, *a, **k)))
    result = run("compare", "flying-relents", "-o", target)
    monkeypatch.undo()
    assert result.exit_code == 2, result.output
    assert_untouched(target)


def test_an_interrupt_while_writing_leaves_the_file_untouched(target, monkeypatch):
    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    result = run("compare", "flying-relents", "-o", target)
    monkeypatch.undo()
    assert result.exit_code != 0
    assert_untouched(target)


def test_a_report_that_cannot_be_encoded_leaves_the_file_untouched(target, tmp_path):
    # A file name that is not UTF-8 reaches the report as a lone surrogate (see
    # test_hostile_input for the crash itself); whatever happens, the old report survives.
    source = Path(os.fsdecode(os.fsencode(tmp_path) + b"/bad\xff.toml"))
    try:
        source.write_text(GOOD, encoding="utf-8")
    except (OSError, UnicodeError):
        pytest.skip("the file system refuses non-UTF-8 file names")
    result = run("compare", source, "-o", target)
    if result.exit_code == 0:
        assert target.read_bytes() != OLD and _listing(target.parent) == [target.name]
    else:
        assert_untouched(target)


BAD_INPUTS = {
    "unknown key": ("colour = 1\n" + GOOD).encode(),
    "not TOML": GOOD.encode()[:40],
    "not UTF-8": GOOD.replace("Gain", "Ga\u00efn").encode("latin-1"),
    "binary": bytes(range(256)) * 4,
    "too many steps": ('title = "t"\nplayers = ["A", "B"]\n' + '[[step]]\nby = "A"\ndoes = "x"\n' * 300).encode(),
    "deep nesting": b"title = " + b"[" * 5000 + b"]" * 5000,
    "huge number": GOOD.replace("Bob = 3", "Bob = 1" + "0" * 10_000).encode(),
}


@pytest.mark.parametrize("name", list(BAD_INPUTS))
def test_bad_input_leaves_the_file_untouched(target, tmp_path, name):
    source = tmp_path / "bad.toml"
    source.write_bytes(BAD_INPUTS[name])
    for fmt in ("md", "html", "json"):
        result = run("compare", "flying", source, "-f", fmt, "-o", target)
        assert result.exit_code == 2, result.output
        assert str(source) in result.stderr
        assert_untouched(target)


def test_a_missing_scenario_or_unknown_ruleset_leaves_the_file_untouched(target, tmp_path):
    for args in (["no-such-scenario"], [tmp_path / "missing.toml"], ["flying", "-r", "cr-1999"], ["flying", "--as-of", "not-a-date"]):
        result = run("compare", *args, "-o", target)
        assert result.exit_code == 2, (args, result.output)
        assert_untouched(target)


def test_a_large_report_is_written_whole(target):
    from loopcompare.comparator.library import names

    expected = run("compare", *names(), "-r", "all", "-f", "html").stdout_bytes
    assert run("compare", *names(), "-r", "all", "-f", "html", "-o", target).exit_code == 0
    assert target.read_bytes() == expected
    assert _listing(target.parent) == [target.name]


# --- permissions ------------------------------------------------------------------------------------


@pytest.fixture
def umask():
    """Set the process umask for the test, and restore it."""
    saved = os.umask(0o022)
    os.umask(saved)

    def set_to(mask: int) -> None:
        os.umask(mask)

    yield set_to
    os.umask(saved)


@pytest.mark.parametrize("mask", [0o022, 0o002, 0o027])
def test_a_new_file_gets_the_permissions_open_would_give(tmp_path, umask, mask):
    umask(mask)
    path = tmp_path / "new.md"
    assert run("compare", "flying", "-o", path).exit_code == 0
    mode = stat.S_IMODE(path.stat().st_mode)
    assert mode == 0o666 & ~mask, oct(mode)
    assert mode != 0o600
    # the same as a file made by open()
    plain = tmp_path / "plain.md"
    plain.write_text("x")
    assert mode == stat.S_IMODE(plain.stat().st_mode)


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o664, 0o600])
def test_an_existing_file_keeps_its_permissions(target, umask, mode):
    umask(0o022)
    target.chmod(mode)
    assert run("compare", "flying", "-o", target).exit_code == 0
    assert target.read_bytes() != OLD
    assert stat.S_IMODE(target.stat().st_mode) == mode


# --- what is already there: devices, pipes, links, the inputs themselves ----------------------------
#
# A regular file is replaced whole; anything else is respected: a character device or a named
# pipe is written through (never replaced by a file, even by root), a symbolic link is followed
# (the file it points to is written, the link stays), and a target that is one of the inputs is
# refused before anything is done.


def _report(*args: str) -> bytes:
    result = run("compare", "flying", *args)
    assert result.exit_code == 0, result.output
    return result.stdout_bytes


@pytest.fixture
def null_device(tmp_path) -> Path:
    """A character device that discards what is written: a private copy of /dev/null where we
    may make one (root), else /dev/null itself (which only root could replace)."""
    path = tmp_path / "null"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        return path
    except (OSError, AttributeError):
        if os.geteuid() == 0 or not os.path.exists("/dev/null"):
            pytest.skip("can't make a device node here")
        return Path("/dev/null")


def test_a_character_device_is_written_through_and_never_replaced(null_device):
    before = null_device.stat()
    for fmt in ("md", "html", "json"):
        result = run("compare", "flying", "-f", fmt, "-o", null_device)
        assert result.exit_code == 0, result.output
        assert result.stdout == ""
    after = null_device.stat()
    assert stat.S_ISCHR(after.st_mode), "the device was replaced by a regular file"
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    if null_device.parent != Path("/dev"):
        assert _listing(null_device.parent) == ["null"], "a temporary file was left behind"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_written_through_as_a_stream(tmp_path):
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = run("compare", "flying", "-o", fifo)
    reader.join(30)
    assert result.exit_code == 0, result.output
    assert not reader.is_alive(), "nothing was written to the pipe"
    assert received == [_report()]
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert _listing(tmp_path) == ["pipe"]


def test_dash_is_standard_output():
    assert run("compare", "flying", "-o", "-").stdout_bytes == _report()


def test_a_socket_is_refused(tmp_path):
    import socket

    path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
    except OSError:
        pytest.skip("can't make a UNIX socket here")
    try:
        result = run("compare", "flying", "-o", path)
        assert result.exit_code == 2 and "is a socket" in result.stderr
        assert stat.S_ISSOCK(path.stat().st_mode)
    finally:
        server.close()


@pytest.fixture
def scenario_file(tmp_path) -> Path:
    path = tmp_path / "loop.toml"
    path.write_text(GOOD, encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["compare", "timeline"])
def test_o_equal_to_the_input_is_refused_and_the_scenario_kept(scenario_file, command):
    result = run(command, scenario_file, "-o", scenario_file)
    assert result.exit_code == 2, result.output
    assert "is also an input" in result.stderr
    assert scenario_file.read_text(encoding="utf-8") == GOOD
    assert _listing(scenario_file.parent) == ["loop.toml"]


@pytest.mark.parametrize("how", ["folder", "symlink", "hard link", "relative path"])
def test_o_naming_an_input_another_way_is_refused(scenario_file, monkeypatch, how):
    folder = scenario_file.parent
    inputs, output = [scenario_file], scenario_file
    if how == "folder":
        inputs = [folder]
    elif how == "symlink":
        output = folder / "report.md"
        output.symlink_to(scenario_file.name)
    elif how == "hard link":
        output = folder / "report.md"
        os.link(scenario_file, output)
    else:
        monkeypatch.chdir(folder)
        output = Path("sub/../loop.toml")
        (folder / "sub").mkdir()
    result = run("compare", *inputs, "flying", "-o", output)
    assert result.exit_code == 2, result.output
    assert "is also an input" in result.stderr
    assert scenario_file.read_text(encoding="utf-8") == GOOD


def test_a_symlink_is_followed_and_stays_a_link(tmp_path):
    real = tmp_path / "reports" / "flying.md"
    real.parent.mkdir()
    real.write_bytes(OLD)
    link = tmp_path / "latest.md"
    link.symlink_to(real)
    result = run("compare", "flying", "-o", link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == _report()
    assert _listing(real.parent) == ["flying.md"] and _listing(tmp_path) == ["latest.md", "reports"]


def test_a_dangling_symlink_creates_the_file_it_points_to(tmp_path):
    link = tmp_path / "latest.md"
    link.symlink_to("new.md")
    result = run("compare", "flying", "-o", link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and (tmp_path / "new.md").read_bytes() == _report()


def test_a_symlink_loop_is_refused_with_its_name(tmp_path):
    link = tmp_path / "loop.md"
    link.symlink_to("loop.md")
    result = run("compare", "flying", "-o", link)
    assert result.exit_code == 2, result.output
    assert "loop of symbolic links" in result.stderr
    assert link.is_symlink()
