"""Building the sets of files: the gallery (``reports/``), the static site, and the atlases they share.

Below the command line: :func:`gallery_files` and :func:`site_files` return every file as
``{name: text}`` and write nothing (the command line writes them with :mod:`.files`); progress is
shown only through a ``progress`` callable the caller gives (the command line's draws a bar on a
terminal).  One atlas run over every built-in era serves the history report, the site and (as
its restriction) the mission atlas, once per process.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any, Protocol

from loopcompare.rulesets import Ruleset
from loopcompare.rulesets.registry import BUILTIN, registry

from . import amendments, render, site
from . import atlas as atlases
from .compare import compare
from .library import load_builtin, names
from .timeline import build as build_timeline

FORMATS = ("md", "html", "json")


class Bar(Protocol):
    """A progress bar: a context manager whose ``update(n)`` says ``n`` more items are done."""

    def __enter__(self) -> Any: ...

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> Any: ...

    def update(self, n_steps: int) -> None: ...


#: Makes a progress bar for ``length`` items under a label, or None for no bar.
Progress = Callable[[int, str], "Bar | None"]


def build_atlas(rulesets: Sequence[Ruleset], jobs: int | None = None, progress: Progress | None = None, **options: Any) -> atlases.Atlas:
    """The atlas of these rulesets (:func:`comparator.atlas.build`, which takes ``options``:
    ``fields``, ``space``), on ``jobs`` processes, with a bar from ``progress`` if it gives one."""
    bar = progress(len(atlases.shapes(space=options.get("space", "format1"))), "settling loops") if progress else None
    if bar is None:
        return atlases.build(rulesets, jobs=jobs, **options)
    with bar:
        return atlases.build(rulesets, jobs=jobs, progress=bar.update, **options)


def builtin_eras() -> tuple[Ruleset, ...]:
    """Every built-in ruleset, in chronological order (the gallery and the site leave plugins out)."""
    return tuple(r for r in registry().rulesets if r.key in BUILTIN)


_ATLASES: dict[str, atlases.Atlas] = {}


def eras_atlas(progress: Progress | None = None) -> atlases.Atlas:
    """The gallery's one atlas run, once per process: every built-in era, compared on the
    history's fields (a bar from ``progress``).  The history report reads it whole; the mission
    atlas is its restriction (nothing is settled twice)."""
    if "eras" not in _ATLASES:
        _ATLASES["eras"] = build_atlas(amendments.eras(builtin_eras()), None, progress, fields=amendments.FIELDS)
    return _ATLASES["eras"]


def mission_atlas(progress: Progress | None = None) -> atlases.Atlas:
    """The gallery's atlas of the four mission rulesets: the eras atlas restricted to them
    (the same as building it on its own, see tests/test_amendments.py)."""
    return atlases.restrict(eras_atlas(progress), registry().select([]), atlases.FIELDS)


def history(rulesets: Sequence[Ruleset], jobs: int | None = None, progress: Progress | None = None) -> amendments.History:
    """The history of the loop rules over these rulesets: one atlas run over their eras, and
    the built-in library's loops as examples."""
    atlas = build_atlas(amendments.eras(rulesets), jobs, progress, fields=amendments.FIELDS)
    return amendments.build(rulesets, atlas, [load_builtin(n) for n in names()])


def gallery_files(progress: Progress | None = None) -> dict[str, str]:
    """Every file of the gallery: each built-in scenario as markdown, HTML and JSON, plus an index,
    its timeline under every era (``timelines/``), the atlas and the history of the loop rules;
    with ``progress``, bars.

    Where the eras atlas is still to be settled on several processes, the reports, timelines and
    index (which don't read it) are rendered in a thread of this process meanwhile: the atlas's
    workers and the renderer then share the CPUs instead of taking turns (:func:`_alongside`).
    The files are the same either way."""
    rulesets = registry().select([])
    eras = builtin_eras()
    scenarios = [load_builtin(n) for n in names()]
    comparisons = [compare(sf, rulesets) for sf in scenarios]

    def pages(bar_progress: Progress | None) -> dict[str, str]:
        files: dict[str, str] = {}
        bar = bar_progress(len(scenarios), "rendering reports") if bar_progress else None
        with bar or contextlib.nullcontext():
            for sf, c in zip(scenarios, comparisons):
                timeline = build_timeline(sf, eras)
                for fmt in FORMATS:
                    files[f"{c.scenario.id}.{fmt}"] = render.report([c], fmt)
                    files[f"timelines/{c.scenario.id}.{fmt}"] = render.timeline_report([timeline], fmt)
                if bar is not None:
                    bar.update(1)
        title = "loopcompare gallery: the built-in loops under every ruleset"
        for fmt in ("md", "html"):
            see_also = [("the divergence atlas", f"atlas.{fmt}"), ("the history of the loop rules, amendment by amendment", f"history.{fmt}")]
            see_also += [("the timeline of each loop", f"timelines/{comparisons[0].scenario.id}.{fmt}")]
            links = [f"{c.scenario.id}.{fmt}" for c in comparisons]
            files[f"index.{fmt}"] = render.report(comparisons, fmt, title=title, links=links, see_also=see_also, command="loopcompare gallery")
        return files

    files = _alongside(pages, progress)
    atlas = mission_atlas(progress)
    for fmt in FORMATS:
        files[f"atlas.{fmt}"] = render.atlas_report(atlas, fmt, f"loopcompare atlas --space format1 -f {fmt}")
    history = amendments.build(eras, eras_atlas(), scenarios)
    for fmt in FORMATS:
        files[f"history.{fmt}"] = amendments.render(history, fmt, command=f"loopcompare history -f {fmt}")
    files["README.md"] = site.readme(files)  # GitHub shows it as the folder's entry page
    return dict(sorted(files.items()))


def _alongside(work: Callable[[Progress | None], dict[str, str]], progress: Progress | None) -> dict[str, str]:
    """``work(progress)``, and the eras atlas (:func:`eras_atlas`) settled meanwhile when it is
    still to be settled and more than one CPU is free: ``work`` then runs in a thread of this
    process (without a bar: one bar at a time on a terminal, the atlas's) while the atlas's
    worker processes settle, so that the CPUs are all busy.  An error in ``work`` is raised
    here once the atlas is done; Ctrl-C reaches the atlas as before (the thread is a daemon)."""
    if "eras" in _ATLASES or _cpus() < 2:
        return work(progress)
    done: list[dict[str, str]] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(work(None))
        except BaseException as exc:  # re-raised in the caller's thread below
            failed.append(exc)

    thread = threading.Thread(target=run, name="loopcompare pages", daemon=True)
    thread.start()
    eras_atlas(progress)
    thread.join()
    if failed:
        raise failed[0]
    return done[0]


def _cpus() -> int:
    """The CPUs this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def site_files(base_url: str = "", progress: Progress | None = None) -> dict[str, str]:
    """Every file of the static site (:mod:`.site`), ``base_url`` making permalinks absolute."""
    return site.build(site.library_files(), builtin_eras(), eras_atlas(progress), mission_atlas(), base_url=base_url)

