"""Third-party rulesets in worker processes (``--isolate-plugins``, ``LOOPCOMPARE_ISOLATE_PLUGINS``).

Run in the tool's own process, a plugin is contained as far as Python allows: its exceptions,
``sys.exit``, junk outcomes, printing, writes to descriptor 1, hangs and slowness are caught
(:mod:`.compare`, :mod:`.descriptors`), and it gets its own copy of each scenario.  What only a
separate process contains: ``os._exit``, a crash of the interpreter, and monkeypatching (a plugin
that replaces a built-in ruleset's method changes every later outcome of the run).

Isolated, each plugin is imported only in its own worker process, started through
:mod:`multiprocessing` (spawn); the tool's process holds a stand-in ruleset (:class:`Isolated`)
that carries the plugin's identity (key, name, dates, citation...) and sends each scenario to
the worker.  The answer comes back pickled, and is unpickled with only loopcompare's and
Python's own value types allowed, so nothing of the plugin's code runs in the tool's process.
A worker that dies is reported in the outcome's note and started again for the next scenario.

Isolation contains accidents, not malice: the worker runs with the user's rights, like any
program the user installed (docs/PLUGINS.md).
"""

from __future__ import annotations

import io
import multiprocessing
import os
import pickle
import signal
from importlib import import_module, metadata
from multiprocessing.connection import Connection
from typing import Any, Callable

from loopcompare.rulesets.base import Ruleset
from loopcompare.rulesets.outcome import Outcome
from loopcompare.rulesets.registry import describe
from loopcompare.rulesets.scenario import Scenario

#: The environment variable that turns isolation on (``1``, ``true`` or ``yes``).
ISOLATE_ENV = "LOOPCOMPARE_ISOLATE_PLUGINS"

#: The identity a stand-in copies from the plugin's class: plain data only (``sources`` is left
#: out: reading a plugin's text files would import its package in the tool's process).
IDENTITY = (
    "key", "aliases", "name", "document", "effective", "in_force", "not_before", "attested", "superseded_by",
    "rule_ids", "amends", "overrides", "summary", "citation", "choice_sustains", "loop_rule", "ends_rule", "cr_date",
)

_enabled: bool | None = None


def set_isolation(on: bool | None) -> None:
    """Turn isolation on or off for this process (None: as the environment says), and forget
    the registry built so far so that the next one loads plugins the new way."""
    global _enabled
    registries = import_module("loopcompare.rulesets.registry")  # (the package's "registry" is the function)
    _enabled = on
    registries.isolate = isolated_loader if enabled() else None  # type: ignore[attr-defined]
    registries.registry.cache_clear()


def enabled() -> bool:
    """Whether third-party rulesets run in worker processes."""
    if _enabled is not None:
        return _enabled
    return os.environ.get(ISOLATE_ENV, "").strip().lower() in ("1", "true", "yes")


class PluginProcessError(RuntimeError):
    """The plugin's worker process failed to load it, or ended while settling."""


class _Worker:
    """One plugin's worker process and the tool's end of its pipe."""

    def __init__(self, name: str, value: str) -> None:
        self.name, self.value = name, value
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, name, value), name=f"loopcompare plugin {name}", daemon=True)
        self.process.start()
        child.close()

    def ask(self, message: Any) -> Any:
        try:
            self.conn.send(message)
            kind, payload = _loads(self.conn.recv_bytes())
        except (EOFError, OSError, BrokenPipeError):
            self.process.join(1)
            code = self.process.exitcode
            raise PluginProcessError(f"its worker process ended ({'exit status ' + str(code) if code is not None else 'no answer'})") from None
        if kind == "error":
            raise PluginProcessError(payload)
        return payload

    def close(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(1)


class Isolated(Ruleset):
    """A stand-in for a third-party ruleset that lives in a worker process."""

    entry: tuple[str, str] = ("", "")
    _worker: _Worker | None = None

    def settle(self, scenario: Scenario) -> Outcome:
        worker = self._worker
        if worker is None or not worker.process.is_alive():
            if worker is not None:
                worker.close()
            worker = self._worker = _Worker(*self.entry)
        outcome = worker.ask(("settle", scenario))
        return outcome  # type: ignore[no-any-return]  # checked by compare.outcome_problem

    def __reduce__(self) -> tuple[Callable[..., Ruleset], tuple[Any, ...]]:
        # Sent to the atlas's workers as how to make it again (each starts its own process).
        return (_stand_in_instance, (self.entry, {k: getattr(self, k) for k in IDENTITY}))


def _stand_in(entry: tuple[str, str], identity: dict[str, Any]) -> type[Isolated]:
    attrs = dict(identity, entry=entry, __module__=__name__, __qualname__=f"Isolated[{entry[0]}]")
    return type(f"Isolated[{entry[0]}]", (Isolated,), attrs)


def _stand_in_instance(entry: tuple[str, str], identity: dict[str, Any]) -> Ruleset:
    return _stand_in(entry, identity)()


def isolated_loader(point: metadata.EntryPoint) -> Callable[[], object]:
    """The registry's loader for an entry point, isolated: it starts the worker, which imports
    the plugin and sends back its identity, and returns the stand-in class."""

    def load() -> object:
        worker = _Worker(point.name, point.value)
        try:
            identity = worker.ask(("identity", None))
        except BaseException:
            worker.close()
            raise
        if identity is None:
            worker.close()
            raise PluginProcessError("in its worker process: the entry point is not a subclass of loopcompare.rulesets.base.Ruleset")
        cls = _stand_in((point.name, point.value), identity)
        cls._worker = worker  # kept for the first scenario
        return cls

    return load


# --- the worker's side -------------------------------------------------------------------------------


def _serve(conn: Connection, name: str, value: str) -> None:
    """Import the plugin, then answer the tool's requests until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the tool's to handle
    try:
        loaded = metadata.EntryPoint(name=name, value=value, group="loopcompare.rulesets").load()
        instance = loaded() if isinstance(loaded, type) and issubclass(loaded, Ruleset) else None
    except BaseException as exc:  # a broken plugin is reported, not fatal
        _answer(conn, ("error", f"in its worker process: {describe(exc)}"))
        return
    while True:
        try:
            kind, payload = conn.recv()
        except (EOFError, OSError):
            return
        if kind == "identity":
            _answer(conn, ("ok", None if instance is None else {k: getattr(instance, k) for k in IDENTITY}))
            continue
        try:
            assert instance is not None
            answer: tuple[str, Any] = ("ok", instance.settle(payload))
        except BaseException as exc:  # reported in the outcome's note, as in-process
            answer = ("error", f"{type(exc).__name__}: {exc}" if not isinstance(exc, SystemExit) else f"it called sys.exit({exc.code!r})")
        _answer(conn, answer)


def _answer(conn: Connection, answer: tuple[str, Any]) -> None:
    try:
        data = pickle.dumps(answer)
    except Exception as exc:  # an outcome holding the plugin's own objects
        data = pickle.dumps(("error", f"its outcome can't be sent back from its process ({type(exc).__name__})"))
    conn.send_bytes(data)


# --- reading the answer: loopcompare's and Python's value types only ------------------------------------

_ALLOWED_MODULES = ("builtins", "fractions", "collections", "copyreg", "datetime", "types")


class _Unpickler(pickle.Unpickler):
    """Unpickles plain data and loopcompare's own types; anything else (a class of the plugin's,
    whose import would run its code here) is refused."""

    def find_class(self, module: str, name: str) -> Any:
        if module in _ALLOWED_MODULES or module.startswith("loopcompare.rulesets."):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not a loopcompare value type")


def _loads(data: bytes) -> Any:
    try:
        return _Unpickler(io.BytesIO(data)).load()
    except Exception as exc:
        return ("error", f"its answer could not be read: {exc}")
