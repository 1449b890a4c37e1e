"""The static site (``loopcompare site DIR``): the library, the history and the atlas as pages
that link to each other and work from the file system (``file://``) or any static host.

Every page is built here, as text, from the same models the reports use; nothing is fetched at
run time and every byte is deterministic (sorted input, no dates, no paths).  The pages:

- ``index.html``: what the tool answers, headed by the history's summary;
- ``loops.html``: every loop, sorted by title, with filters (tag, era, result, eras disagree);
- ``loops/ID.html`` (and ``loops/ID.toml``, the file to download): one loop, its cards and
  rulings, its diagram, its outcome under every era, its timeline, sources, permalink, citation;
- ``timelines/ID.html``: one loop's timeline; ``history.html`` and ``atlas.html``: the reports;
- ``eras/KEY.html``: an era's text, its readings and the loops it settles differently;
- ``amendments/ANCHOR.html``: one change of a line of descent;
- ``search.html`` with ``search-index.js`` and ``site.js``: full-text search.

Search is a small index built here (``search-index.js``, one record per loop) and a few lines of
vanilla JavaScript, not Pagefind or lunr: Pagefind loads its index with ``fetch()``, which browsers
refuse on ``file://`` pages, so the site would need a server; lunr would add a vendored library
and a Node build step for ~150 records a plain substring scan searches instantly.  The index is
a ``.js`` file (a ``<script>``, not a fetch), so it loads from the file system too.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from loopcompare.rulesets import history as rule_history

from . import amendments, render
from .catalogue import folder, names
from .compare import Comparison
from .controls import json_escaped
from .loader import parse_bytes
from .render import environment, finish, md
from .report import build as build_report
from .report import summary_cell
from .timeline import build as build_timeline

if TYPE_CHECKING:
    from loopcompare.rulesets import Ruleset

    from .atlas import Atlas
    from .loader import ScenarioFile
    from .timeline import Timeline

#: The mark of a differing row (as in the reports).
DIFFERS = "\u2260"


@dataclass(frozen=True)
class Loop:
    """One library loop as the site shows it: its file, its raw bytes, and its timeline (whose
    comparison settles it under every era, once)."""

    file: ScenarioFile
    raw: bytes
    timeline: Timeline

    @property
    def id(self) -> str:
        return self.file.id

    @property
    def title(self) -> str:
        return self.file.scenario.title

    @property
    def comparison(self) -> Comparison:
        return self.timeline.comparison


def loops(files: Sequence[tuple[ScenarioFile, bytes]], eras: Sequence[Ruleset]) -> list[Loop]:
    """Each scenario settled once under every era, sorted by title (then id)."""
    out = [Loop(sf, raw, build_timeline(sf, eras)) for sf, raw in files]
    return sorted(out, key=lambda lp: (lp.title.casefold(), lp.id))


def library_files() -> list[tuple[ScenarioFile, bytes]]:
    """Every file of the built-in library, with its bytes (the site offers them for download)."""
    out = []
    for name in names():
        raw = folder().joinpath(f"{name}.toml").read_bytes()
        out.append((parse_bytes(raw, f"{name}.toml (built-in)", name, file=f"{name}.toml"), raw))
    return out


# --- helpers ---------------------------------------------------------------------------------------


def _differs(c: Comparison, before: str, after: str) -> bool:
    a, b = c.outcomes[before], c.outcomes[after]
    return any(_plain(a.value(f)) != _plain(b.value(f)) for f in c.fields)


def _plain(value: object) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _result(c: Comparison, key: str) -> str:
    return str(c.outcomes[key].result.value)


def _fold(text: str) -> str:
    """Lower case, accents off, runs of space as one: what search compares."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).split())


def _link(text: str) -> tuple[str, str] | None:
    """An http(s) address at the start of a source text: (address, the rest)."""
    m = re.match(r"(https?://[^\s<>\"']+[^\s<>\"'.,;:)])", text)
    return (m.group(1), text) if m else None


def _shorten(text: str, limit: int) -> str:
    """The text cut at a word to at most ``limit`` characters, with an ellipsis if cut."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(" ,;:") + "\u2026"


def _era_anchor(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", key)


# --- the pages -------------------------------------------------------------------------------------


class _Site:
    def __init__(self, lib: Sequence[Loop], eras: Sequence[Ruleset], history: amendments.History, mission_atlas: Atlas, base_url: str) -> None:
        self.lib = list(lib)
        self.eras = list(eras)
        self.history = history
        self.mission_atlas = mission_atlas
        self.base_url = base_url.rstrip("/") + "/" if base_url else ""
        self.env = environment()
        self.files: dict[str, str] = {}
        self.entries = [(line, e) for line in history.lines for e in line.entries]
        self.entry_anchors = {e.anchor for _, e in self.entries}

    # The shared frame.
    def page(self, path: str, template: str, title: str, *, timeline: str = "", **context: Any) -> None:
        root = "../" * path.count("/")
        text = self.env.get_template(f"site/{template}").render(
            root=root,
            title=title,
            path=path,
            timeline=timeline,
            differs=DIFFERS,
            era_anchor=_era_anchor,
            nav=self.nav(root, timeline),
            **context,
        )
        self.files[path] = finish(text)

    def nav(self, root: str, timeline: str = "") -> Markup:
        return Markup(self.env.get_template("site/_nav.html.j2").render(root=root, timeline=timeline))

    def framed(self, path: str, page: str, timeline: str = "") -> None:
        """A page the reports render whole (history, atlas, a timeline), with the site's
        stylesheet and navigation added."""
        root = "../" * path.count("/")
        head = f'<link rel="stylesheet" href="{root}site.css">\n</head>'
        page = page.replace("</head>", head, 1)
        page = page.replace("<body>\n", "<body>\n" + str(self.nav(root, timeline)), 1)
        self.files[path] = finish(page)

    def era_changes(self, r: Ruleset) -> tuple[Ruleset | None, list[Loop]]:
        before = rule_history.predecessor(self.eras, r)
        if before is None:
            return None, []
        return before, [lp for lp in self.lib if _differs(lp.comparison, before.key, r.key)]

    def build(self) -> dict[str, str]:
        static = resources.files("loopcompare.comparator").joinpath("templates")
        css = static.joinpath("report.css").read_text(encoding="utf-8") + "\n" + static.joinpath("site", "site.css").read_text(encoding="utf-8")
        self.files["site.css"] = finish(css)
        self.files["site.js"] = finish(static.joinpath("site", "site.js").read_text(encoding="utf-8"))
        self.files["search-index.js"] = self.search_index()
        self.home()
        self.index()
        self.page("search.html", "search.html.j2", "Search the loops")
        for lp in self.lib:
            self.loop(lp)
            self.files[f"loops/{lp.id}.toml"] = lp.raw.decode("utf-8")
            self.framed(f"timelines/{lp.id}.html", render.timeline_html([lp.timeline]), timeline=f"loops/{lp.id}.html")
        self.framed("history.html", amendments.render(self.history, "html"))
        self.framed("atlas.html", render.atlas_html(self.mission_atlas))
        for r in self.eras:
            self.era(r)
        for line, e in self.entries:
            self.amendment(line, e)
        return dict(sorted(self.files.items()))

    def summary_rows(self) -> list[dict[str, Any]]:
        rows = []
        total = self.history.atlas.total
        for line, e in self.entries:
            changed = [lp for lp in self.lib if e.before is not None and _differs(lp.comparison, e.before.key, e.after.key)]
            rows.append(
                {
                    "line": line.name,
                    "entry": e,
                    "atlas": f"{e.changed:,} ({amendments.share(e.changed, total)})" if e.kind == "amendment" else "\u2014",
                    "library": len(changed) if e.kind == "amendment" else None,
                }
            )
        return rows

    def home(self) -> None:
        disagree = [lp for lp in self.lib if lp.comparison.differences]
        self.page(
            "index.html",
            "home.html.j2",
            "loopcompare: how each era of the rules settles a Magic loop",
            rows=self.summary_rows(),
            eras=self.eras,
            period=rule_history.period_in_words,
            loops=self.lib,
            disagree=disagree,
            atlas_total=self.history.atlas.total,
        )

    def index(self) -> None:
        tags = sorted({t for lp in self.lib for t in lp.file.scenario.tags}, key=str.casefold)
        results = sorted({_result(lp.comparison, r.key) for lp in self.lib for r in self.eras})
        rows = []
        for lp in self.lib:
            c = lp.comparison
            changed = [r.key for r in self.eras if (b := rule_history.predecessor(self.eras, r)) is not None and _differs(c, b.key, r.key)]
            rows.append(
                {
                    "loop": lp,
                    "tags": lp.file.scenario.tags,
                    "data_tags": "|".join(lp.file.scenario.tags),
                    "results": [(r, _result(c, r.key)) for r in self.eras],
                    "data_results": " ".join(f"{r.key}={_result(c, r.key)}" for r in self.eras),
                    "changed": " ".join(changed),
                    "differs": bool(c.differences),
                }
            )
        self.page("loops.html", "loops.html.j2", "Every loop in the library", rows=rows, tags=tags, results=results, eras=self.eras)

    def loop(self, lp: Loop) -> None:
        view = build_report([lp.comparison]).comparisons[0]
        sc = lp.file.scenario
        sources: list[tuple[str, str | None]] = []
        if sc.source:
            found = _link(sc.source)
            sources.append((sc.source, found[0] if found else None))
        for o in sc.oracle:
            found = _link(o.source)
            sources.append((f"{o.name}: Oracle text read {o.date}, {o.source}", found[0] if found else None))
        for ru in sc.rulings:
            found = _link(ru.source)
            sources.append((f"{ru.title} ({ru.date}): {ru.source}", found[0] if found else None))
        permalink = f"{self.base_url}loops/{lp.id}.html" if self.base_url else f"loops/{lp.id}.html"
        first, last = self.eras[0], self.eras[-1]
        cite = f"\u201c{sc.title}\u201d, loopcompare library, loop {lp.id}, settled under {len(self.eras)} eras of the rules ({first.name} to {last.name}). {permalink}"
        changes = []
        for line in lp.timeline.lines:
            for p in line.periods:
                if p.cause:
                    changes.append((line.name, p))
        self.page(
            f"loops/{lp.id}.html",
            "loop.html.j2",
            sc.title,
            timeline=f"timelines/{lp.id}.html",
            lp=lp,
            view=view,
            sources=sources,
            permalink=permalink,
            cite=cite,
            changes=changes,
        )

    def era(self, r: Ruleset) -> None:
        before, changed = self.era_changes(r)
        text = amendments.own_text(r)
        found = amendments.readings([lp.comparison for lp in self.lib], r)
        readings = sorted(found.values(), key=lambda x: (-x.loops, x.text))
        entries = [(line, e) for line, e in self.entries if e.after.key == r.key]
        self.page(
            f"eras/{_era_anchor(r.key)}.html",
            "era.html.j2",
            r.name,
            r=r,
            period=rule_history.period_in_words(r),
            text=text,
            readings=readings,
            before=before,
            changed=[(lp, summary_cell(lp.comparison, before.key), summary_cell(lp.comparison, r.key)) for lp in changed] if before else [],
            entries=entries,
            nloops=len(self.lib),
        )

    def amendment(self, line: amendments.LineHistory, e: amendments.Entry) -> None:
        changed = []
        if e.before is not None:
            for lp in self.lib:
                if _differs(lp.comparison, e.before.key, e.after.key):
                    changed.append((lp, summary_cell(lp.comparison, e.before.key), summary_cell(lp.comparison, e.after.key)))
        self.page(
            f"amendments/{e.anchor}.html",
            "amendment.html.j2",
            e.heading,
            line=line,
            e=e,
            facts=amendments._facts(e),
            practice=amendments._practice(self.history, e) if e.kind == "amendment" else "",
            same_rules=amendments._same_rules(e) if e.kind == "renumbering" else "",
            rule_label=amendments._rule_label,
            shown_runs=amendments.shown_runs,
            share=lambda n: amendments.share(n, self.history.atlas.total),
            changed=changed,
            nloops=len(self.lib),
        )

    def search_index(self) -> str:
        records = []
        for lp in self.lib:
            sc = lp.file.scenario
            text = " ".join([sc.description, sc.source, sc.simplified, " ".join(sc.players)] + [s.does for s in sc.steps] + [o.text for o in sc.oracle] + [f"{ru.title} {ru.quote} {ru.author}" for ru in sc.rulings])
            records.append(
                {
                    "id": lp.id,
                    "url": f"loops/{lp.id}.html",
                    "title": sc.title,
                    "cards": [o.name for o in sc.oracle],
                    "tags": list(sc.tags),
                    "summary": _shorten(sc.description, 240),
                    # What the script compares: folded (lower case, no accents), one line each.
                    "f": {"title": _fold(sc.title + " " + lp.id), "cards": _fold(" ".join(o.name for o in sc.oracle)), "tags": _fold(" | ".join(sc.tags)), "text": _fold(text)},
                }
            )
        body = json_escaped(json.dumps(records, ensure_ascii=True, sort_keys=True, separators=(",", ":")))
        # Inside a <script> file, "</" can't end anything, but keep it inert anyway.
        return "// The search index of the loopcompare site (built by 'loopcompare site'; one record a loop).\nwindow.LOOPCOMPARE_INDEX = " + body.replace("</", "<\\/") + ";\n"


def build(
    files: Sequence[tuple[ScenarioFile, bytes]],
    eras: Sequence[Ruleset],
    eras_atlas: Atlas,
    mission_atlas: Atlas,
    *,
    base_url: str = "",
) -> dict[str, str]:
    """Every file of the site, by path (``/`` separated), as text.

    ``eras`` are the rulesets the loops are settled under (every built-in era, in order);
    ``eras_atlas`` the one atlas run over them that the history reads, ``mission_atlas`` the
    atlas page's.  ``base_url`` (optional) makes permalinks and citations absolute.
    """
    lib = loops(files, eras)
    hist = amendments.build(eras, eras_atlas, [sf for sf, _ in files])
    return _Site(lib, eras, hist, mission_atlas, base_url).build()


def readme(files: Mapping[str, str]) -> str:
    """``reports/README.md``: the gallery's entry page on GitHub, linking every report."""
    loops_ = sorted((name[: -len(".md")] for name in files if name.endswith(".md") and "/" not in name and name not in ("index.md", "atlas.md", "history.md", "README.md")))
    lines = [
        "# The loopcompare gallery",
        "",
        "Every built-in loop settled under every era's rules, generated by loopcompare gallery (do not edit by hand).",
        "Each report is also here as HTML and JSON, beside its markdown. For a searchable site with a page per loop, era",
        "and amendment, run loopcompare site DIR and open DIR/index.html.",
        "",
        "- [All loops side by side](index.md)",
        "- [The history of the loop rules, amendment by amendment](history.md)",
        "- [The divergence atlas](atlas.md)",
        "",
        "## Each loop",
        "",
        "| Loop | Its timeline |",
        "| --- | --- |",
    ]
    titles = {}
    for name in loops_:
        head = files[f"{name}.md"].split("\n", 1)[0]
        titles[name] = head[2:] if head.startswith("# ") else md(name)
    for name in sorted(loops_, key=lambda n: (titles[n].casefold(), n)):
        lines.append(f"| [{titles[name]}]({name}.md) | [timeline](timelines/{name}.md) |")
    return "\n".join(lines) + "\n"
