"""Standard output belongs to the report: file descriptor 1 points at standard error while
loopcompare runs, and the report is written through a saved copy of the real descriptor.

``print`` in a plugin is already routed to standard error (:mod:`.compare`), but ``os.write(1,
...)``, a C extension or a subprocess a plugin starts write to the descriptor itself, before
the report's first byte.  So the command line, before any plugin is loaded, duplicates
descriptor 1 (the report's destination), points descriptor 1 at standard error, and gives
``sys.stdout`` the duplicate: what the tool writes reaches the report; what anything else
writes to descriptor 1 (worker processes included, which inherit it) reaches standard error.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from typing import Any


def keep_stdout_for_the_report() -> bool:
    """Move the report's descriptor out of reach of plugins (see the module's docstring).

    Does nothing (and returns False) when ``sys.stdout`` is not descriptor 1 (a test runner's
    capture, an embedding program) or when standard error is not open; idempotent.
    """
    stream = sys.stdout
    if getattr(stream, "_loopcompare_report", False):
        return True
    try:
        if stream is None or stream.fileno() != 1:
            return False
        os.fstat(2)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False
    stream.flush()
    saved = os.dup(1)
    os.set_inheritable(saved, False)  # a subprocess or worker never gets the report's descriptor
    os.dup2(2, 1)
    report = io.TextIOWrapper(
        io.FileIO(saved, "w", closefd=True),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=bool(stream.line_buffering),
        write_through=True,
    )
    report._loopcompare_report = True  # type: ignore[attr-defined]
    sys.stdout = report
    return True


#: How far an oversized stream is read on to tell its size (beyond it: "more than").
MEASURE_LIMIT = 1 << 30


def stream_size(stream: io.BufferedIOBase | Any, already: int) -> str:
    """The size of a stream of which ``already`` bytes were read, in words: a regular file's
    from the file system, a pipe's by reading on (and discarding) up to :data:`MEASURE_LIMIT`
    bytes, so a 100 MB stream is called 100 MB, and an endless one "more than 1 GiB"."""
    try:
        info = os.fstat(stream.fileno())
        if stat.S_ISREG(info.st_mode):
            return f"{info.st_size:,} bytes"
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass
    size = already
    while size <= MEASURE_LIMIT:
        chunk = stream.read(1 << 20)
        if not chunk:
            return f"{size:,} bytes"
        size += len(chunk)
    return f"more than {MEASURE_LIMIT:,} bytes"
