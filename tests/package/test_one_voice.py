"""One voice: a step is worded once for the table and the diagram, and no module reaches into
another's private names or imports in a circle (issue 23, items 2 and 4)."""

from __future__ import annotations

import ast

from loopcompare.comparator import diagram, report
from loopcompare.comparator.compare import compare
from loopcompare.comparator.library import load_builtin, names
from loopcompare.comparator.wording import step_effect, step_exits, step_kind

from helpers import ROOT


def test_the_table_of_steps_and_the_diagram_word_every_step_alike():
    # Every step of every built-in loop: the diagram's box says what the report's table says (the
    # table's cell holds the effect and the exits together; the diagram draws exits apart).
    checked = 0
    for name in names():
        comparison = compare(load_builtin(name), [])
        drawn = diagram.build(comparison).steps
        rows = report.scenario_view(comparison, "x").steps
        # an inner loop's steps (FORMAT item 29) are rows "1.1", "1.2" under the step that runs it
        listed = [r for r in rows if isinstance(r.number, int)]
        inner = [r for r in rows if not isinstance(r.number, int)]
        inner_steps = [t for s in comparison.scenario.scenario.steps if s.run is not None for t in s.run.loop.steps]
        for t, row in zip(inner_steps, inner, strict=True):
            assert row.kind == step_kind(t) and row.effect == ("; ".join(p for p in (step_effect(t), step_exits(t)) if p) or "\u2014"), name
        for step, box, row in zip(comparison.scenario.scenario.steps, drawn, listed, strict=True):
            assert box.kind == row.kind == step_kind(step), name
            assert box.effect == step_effect(step) and box.exit == step_exits(step), name
            assert row.effect == "; ".join(p for p in (box.effect, box.exit) if p) or row.effect == "\u2014", name
            checked += 1
    assert checked > 100


def _imports(path, typing=True):
    """(node, module imported, names) for each ``from`` import in a comparator/ or rulesets/
    file, relative imports resolved to ``loopcompare.X``; ``typing=False`` leaves out those under
    ``if TYPE_CHECKING:`` (for annotations only: never run)."""
    package = ".".join(("loopcompare", *path.relative_to(ROOT).with_suffix("").parts[:-1]))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = set()
    if not typing:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                skipped |= {id(n) for part in node.body for n in ast.walk(part)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and id(node) not in skipped:
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            yield node, module, [a.name for a in node.names]


def test_no_module_imports_another_modules_private_names():
    offenders = []
    for path in sorted([*(ROOT / "comparator").glob("*.py"), *(ROOT / "rulesets").glob("*.py")]):
        for node, module, imported in _imports(path):
            if module.startswith("loopcompare") or module == "":
                offenders += [f"{path.name}:{node.lineno}: {module}.{n}" for n in imported if n.startswith("_") and not n.startswith("__")]
    assert offenders == []


def test_the_comparator_has_no_import_circle():
    # Every import between comparator modules that runs, at the top or inside a function, as a
    # graph: no module can reach itself again (the diagram used to import the report, which
    # imports it; the word diff the history, which imports it).
    graph: dict[str, set[str]] = {}
    for path in sorted((ROOT / "comparator").glob("*.py")):
        me = f"loopcompare.comparator.{path.stem}"
        graph[me] = set()
        for _node, module, imported in _imports(path, typing=False):
            if module == "loopcompare.comparator":
                graph[me] |= {f"{module}.{n}" for n in imported}
            elif module.startswith("loopcompare.comparator."):
                graph[me].add(module)
    on_a_circle = []
    for start in sorted(graph):
        seen, todo = set(), list(graph[start])
        while todo:
            node = todo.pop()
            if node not in seen:
                seen.add(node)
                todo += graph.get(node, ())
        if start in seen:
            on_a_circle.append(start)
    assert on_a_circle == []
