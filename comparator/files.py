"""Writing reports and folders of reports: whole or not at all, and never over the wrong thing.

Below the command line and free of it: every refusal is a :class:`WriteError` whose message
names the file (the command line shows it and exits 2).  A regular file is written through a
temporary file beside it and a rename (:func:`write_atomic`); a character device or a named pipe
(``/dev/null``, ``/dev/stdout``, a FIFO) is written through as a stream and never replaced; a
symbolic link is followed, as a shell's ``>`` follows it (:func:`write_output`).

Start-up: the command line imports this module for ``--help`` and shell completion too, so
``tempfile`` (which brings random, shutil and the compression modules, several milliseconds) is
imported in the functions that write, when they run (issue 27).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path


class WriteError(Exception):
    """A file or folder that can't be written (or must not be); the message names it."""


#: Names of standard output as a file: the report's own descriptor, not descriptor 1 (which
#: points at standard error while loopcompare runs, see comparator/descriptors.py).
STDOUT_NAMES = ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")


def is_stdout(output: str | None) -> bool:
    """Whether ``-o output`` means standard output (no ``-o``, ``-`` or one of :data:`STDOUT_NAMES`)."""
    return output is None or output == "-" or output in STDOUT_NAMES


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a temporary file beside it, then rename."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise WriteError(f"{target}: can't write: the folder {folder} does not exist")
    import tempfile  # start-up: see the module's docstring

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
            raise WriteError(f"{path}: can't write: it is a loop of symbolic links") from None
        raise WriteError(f"{path}: can't write: {exc.strerror or exc}") from None


def write_output(path: str | Path, text: str) -> None:
    """Write a report to ``path``, respecting what is there.

    A regular file (or a new name) is written whole or not at all (:func:`write_atomic`); a
    symbolic link is followed and the file it points to written that way; a character device
    or a named pipe (``/dev/null``, ``/dev/stdout``, a FIFO) is written through as a stream and
    never replaced; any other kind of file (a block device, a socket) is refused.  Any other
    failure to write is a :class:`WriteError` naming the file.
    """
    try:
        _write_output(Path(path), text)
    except OSError as exc:
        raise WriteError(f"{path}: can't write: {exc.strerror or exc}") from None


def _write_output(path: Path, text: str) -> None:
    target, info = _real_target(path)
    if info is not None and not stat.S_ISREG(info.st_mode):
        if not (stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
            raise WriteError(f"{path}: is a {_kind_of_file(info.st_mode)}; reports are written to files, character devices (such as /dev/null) and named pipes only")
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


def input_files(argument: str) -> list[Path]:
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
    if output is None or is_stdout(output):
        return
    target, info = _real_target(Path(output))
    if info is not None:
        for argument in inputs:
            for source in input_files(argument):
                try:
                    same = os.path.samestat(info, os.stat(source))
                except OSError:
                    continue
                if same:
                    raise WriteError(f"{output}: is also an input ({source}); writing the report there would replace the scenario. Choose another file")
        if stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
            return
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise WriteError(f"{output}: can't write: the folder {folder} does not exist")
    import tempfile  # start-up: see the module's docstring

    try:
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        raise WriteError(f"{output}: can't write in the folder {folder}: {exc.strerror or exc}") from None


def writable_folder(folder: Path, what: str) -> None:
    """Refuse a folder that can't take new files (``what``: the files meant for it, for the message)."""
    import tempfile  # start-up: see the module's docstring

    try:
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        raise WriteError(f"{folder}: can't write {what} there: {exc.strerror or exc}") from None


def foreign(root: Path, marker: str) -> bool:
    """Whether ``root`` is a folder that holds things and has no ``marker`` file: writing a
    gallery or a site there could overwrite files that are not ours."""
    try:
        return root.is_dir() and not (root / marker).is_file() and next(root.iterdir(), None) is not None
    except OSError as exc:
        raise WriteError(f"{root}: can't read the folder: {exc.strerror or exc}") from None


def differs(target: Path, text: str) -> bool:
    """Whether ``target`` is missing or holds other bytes than ``text``'s."""
    return not target.is_file() or target.read_bytes() != text.encode("utf-8")


def stale(root: Path, files: Mapping[str, str]) -> list[str]:
    """The names of ``files`` that ``root`` lacks or holds other bytes for."""
    return [name for name in files if differs(root / name, files[name])]


def strays(root: Path, files: Mapping[str, str], folders: Iterable[str] = ("",)) -> list[str]:
    """Reports (``.md``, ``.html``, ``.json``) in ``root``'s ``folders`` that are not among
    ``files``: left over from an older set, sorted."""
    if not root.is_dir():
        return []
    return sorted(
        p.relative_to(root).as_posix()
        for here in (root / f for f in folders)
        if here.is_dir()
        for p in here.iterdir()
        if p.suffix in {".md", ".html", ".json"} and p.relative_to(root).as_posix() not in files
    )


def make_folders(root: Path, names: Iterable[str]) -> None:
    """Create the folders that files of these names need under ``root``."""
    for folder in sorted({(root / name).parent for name in names}):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WriteError(f"{folder}: can't create the folder: {exc.strerror or exc}") from None


def write_folder(root: Path, files: Mapping[str, str]) -> int:
    """Write each of ``files`` (name relative to ``root``: text) that differs from what is there,
    each whole or not at all; the number written."""
    make_folders(root, files)
    changed = 0
    for name, text in files.items():
        target = root / name
        if differs(target, text):
            write_output(target, text)
            changed += 1
    return changed
