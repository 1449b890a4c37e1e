"""Mutation testing of the domain and the loader: do the targeted tests notice a changed operator?

Run from the repository root, in the development environment (``pip install -e '.[test]'``)::

    python benchmarks/mutate.py                       # every mutant (a few hours on 2 cores)
    python benchmarks/mutate.py --sample 150 --budget 14 --jobs 2   # a sample, under 30 minutes
    python benchmarks/mutate.py --list                # the mutants, counted per file
    python benchmarks/mutate.py --show 'rulesets/base.py:333:28:and->or'   # one mutant's diff
    python benchmarks/mutate.py --only 'rulesets/base.py:333:28:and->or'   # test one mutant

Why a script and not mutmut: mutmut 3 copies the sources into ``mutants/`` and runs the tests
there, but the tests import ``loopcompare``, which the editable install maps onto the repository
root itself, so they never import a mutated file (mutmut stops with "could not find any test case
for any mutant"; boxed/mutmut#486 is the same problem with editable installs); and mutmut 2,
which patches files in place, can neither sample nor run two mutants at once.

How it works.  The mutants are small changes made through the AST, one at a time: a comparison
swapped (``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=``, ``is`` and ``is not``, ``in``
and ``not in``), a boolean operator swapped (``and``, ``or``) or a ``not`` dropped, an arithmetic
operator swapped (``+`` and ``-``, ``*`` and ``//``, ``+=`` and ``-=``), an integer constant
changed by +1 or -1, ``True`` and ``False`` swapped.  A line that ends with ``# pragma: no
mutate`` is left alone, and so are assertions, type annotations and string concatenations.
Each worker has its own copy of the repository, importable as ``loopcompare`` through
PYTHONPATH (which comes before the editable install); a mutant is written into that copy and the
tests that target the mutated module (``TARGETS``; never the byte-for-byte gallery) run there
with ``pytest -x``: first the fast ones, then, if they all pass, the slower property tests.  A
mutant is killed when a test fails or the run exceeds three times the unmutated run's time and,
run again, ten times (so that a busy machine does not pass for a mutant that never ends).

The report gives the kill rate per file and overall, and lists every survivor with its id, its
line before and after.  A survivor is a gap in the tests or an equivalent mutant (one that
changes no behaviour).  The equivalent mutants found so far are listed, each with the reason it
changes nothing, in ``benchmarks/mutants-equivalent.toml`` (matched by file, the line's text and
the change, so that they survive edits elsewhere in the file): a sampled mutant found there is
not run and counts neither as killed nor as survived, so the score is the share of
*non-equivalent* mutants killed.  README, "Mutation testing", records the last score.  Not run
in CI.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tokenize
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The mutants known to change no behaviour, each with its reason (see load_equivalents).
EQUIVALENTS = ROOT / "benchmarks" / "mutants-equivalent.toml"

#: The modules mutated by default.
DEFAULT_FILES = tuple(
    sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").glob("*.py") if p.name != "__init__.py")
) + ("comparator/loader.py",)

#: The targeted tests, each named after the behaviour it pins (fast, about 10 s together; first, so
#: that a mutant fails a test that says what broke before the scenario-level tests run).  One
#: stage for every ruleset module, so that the unmutated run is timed once.
_TARGETED = (
    "tests/engine/test_bignum_exact.py",
    "tests/engine/test_dynamics_closed_form.py",
    "tests/engine/test_loop_facts_counts.py",
    "tests/engine/test_base_driver.py",
    "tests/engine/test_outcome_fields.py",
    "tests/rulesets/test_renumbered_release.py",
    "tests/rulesets/test_cr421_last_word.py",
    "tests/engine/test_closed_form_blocks_and_budget.py",
    "tests/engine/test_sets_stopped_by_an_end.py",
    "tests/engine/test_scenario_values_are_immutable.py",
    "tests/engine/test_order_inside_a_step.py",
    "tests/engine/test_choice_points_are_the_controllers.py",
    "tests/engine/test_frozen_records.py",
    "tests/engine/test_outcome_from_decision.py",
    "tests/engine/test_driver_readings.py",
    "tests/rulesets/test_era_wording.py",
)
_RULESETS_FAST = _TARGETED + (
    "tests/engine/test_scenario.py",
    "tests/engine/test_base.py",
    "tests/rulesets/test_ruleset_cr2004.py",
    "tests/rulesets/test_ruleset_cr2005.py",
    "tests/rulesets/test_ruleset_cr2008.py",
    "tests/rulesets/test_ruleset_cr2009.py",
    "tests/rulesets/test_ruleset_cr2024.py",
    "tests/rulesets/test_ruleset_mtr.py",
    "tests/rulesets/test_ruleset_mtr2018.py",
    "tests/rulesets/test_ruleset_summary1998.py",
    "tests/rulesets/test_acceptance.py",
    "tests/engine/test_format2_engine.py",
    "tests/engine/test_base_vocabulary.py",
    "tests/engine/test_event_expectation.py",
    "tests/engine/test_format2_procedures.py",
    "tests/engine/test_format2_review.py",
    "tests/library/test_real_loops.py",
    "tests/library/test_real_loop_audit.py",
    "tests/format3/test_payments_replacements_dates.py",
    "tests/format3/test_parts.py",
    "tests/format3/test_stack_eras.py",
    "tests/format3/test_stack_acceptance.py",
)
#: The oracle's fixed-seed and regression runs (not the fresh seed: a mutant run must be
#: reproducible), and the invariants.
_RULESETS_SLOW = ("tests/engine/test_oracle.py", "tests/engine/test_invariants.py")
_ORACLE_FIXED = ["-k", "not fresh_seed and not many"]

#: For each mutated module, the tests that target it: (fast stage, slow stage).
TARGETS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "rulesets/base.py": (_RULESETS_FAST, _RULESETS_SLOW),
    "rulesets/scenario.py": (_RULESETS_FAST, _RULESETS_SLOW),
    "rulesets/additive.py": (_RULESETS_FAST, _RULESETS_SLOW),
    "rulesets/outcome.py": (_RULESETS_FAST, _RULESETS_SLOW),
    "rulesets/cr421.py": (_RULESETS_FAST, _RULESETS_SLOW),
    "rulesets/shortcuts.py": (_RULESETS_FAST, _RULESETS_SLOW),
    "rulesets/mtr.py": (_RULESETS_FAST, _RULESETS_SLOW),
    "rulesets/summary.py": (_RULESETS_FAST, _RULESETS_SLOW),
    # Format 2's engine (from the f2 branch).
    # The loop's facts, the values and the calendar of rule numbers (issue 23's restructuring).
    "rulesets/facts.py": (_RULESETS_FAST + ("tests/engine/test_stack_closed_form.py",), _RULESETS_SLOW),
    "rulesets/values.py": (_RULESETS_FAST, ()),
    "rulesets/numbers.py": (("tests/texts/test_history_numbering.py", "tests/rulesets/test_renumbered_release.py") + _RULESETS_FAST, ()),
    # Format 3's amounts (item 28).
    "rulesets/linear.py": (("tests/format3/test_linear_amounts.py", "tests/format3/test_linear_properties.py", "tests/format3/test_amount_files.py"), ()),
    "rulesets/joint.py": (("tests/format3/test_amount_files.py", "tests/format3/test_linear_amounts.py") + _RULESETS_FAST, ()),
    "rulesets/dynamics.py": (_RULESETS_FAST, _RULESETS_SLOW),
    "rulesets/bignum.py": (_RULESETS_FAST, _RULESETS_SLOW),
    "rulesets/registry.py": (("tests/package/test_registry.py", "tests/package/test_registry_build.py", "tests/engine/test_frozen_records.py"), ()),
    "rulesets/texts.py": (("tests/texts/test_texts.py", "tests/texts/test_rule_text_reading.py", "tests/texts/test_history.py") + _RULESETS_FAST, ()),
    "rulesets/history.py": (("tests/texts/test_history.py", "tests/texts/test_history_numbering.py", "tests/engine/test_frozen_records.py"), ()),
    "rulesets/citations.py": (("tests/texts/test_citations.py",), ()),
    "comparator/loader.py": (
        (
            "tests/loader/test_loader.py",
            "tests/loader/test_loader_format2.py",
            "tests/loader/test_loader_format2_limits.py",
            "tests/loader/test_schema.py",
            "tests/engine/test_frozen_records.py",
            # Named after the behaviour they pin (issue 16): one check of the loader each.
            "tests/loader/test_loader_input_bounds.py",
            "tests/loader/test_loader_header_and_players.py",
            "tests/loader/test_loader_field_checks.py",
            "tests/loader/test_loader_step_sense.py",
            "tests/loader/test_loader_points_to_deviate.py",
            "tests/loader/test_loader_effects_and_counts.py",
            "tests/loader/test_loader_expectations.py",
            "tests/loader/test_loader_error_lines.py",
            "tests/loader/test_scenario_document.py",
        ),
        ("tests/hostile/test_hostile_input.py",),
    ),
}

_COMPARE_SWAPS = {
    ast.Lt: "<=", ast.LtE: "<", ast.Gt: ">=", ast.GtE: ">", ast.Eq: "!=", ast.NotEq: "==",
    ast.Is: "is not", ast.IsNot: "is", ast.In: "not in", ast.NotIn: "in",
}
_BINOP_SWAPS = {ast.Add: "-", ast.Sub: "+", ast.Mult: "//", ast.FloorDiv: "*"}
_AUG_SWAPS = {ast.Add: "-=", ast.Sub: "+="}


@dataclass(frozen=True)
class Mutant:
    """One change to one file: the span (1-based line, 0-based character column) and its text."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int
    original: str
    replacement: str

    @property
    def id(self) -> str:
        """A stable name: file, line, column and the change (spaces as "_", for the shell)."""
        return f"{self.file}:{self.line}:{self.col}:{self.original}->{self.replacement}".replace(" ", "_")

    def apply(self, source: str) -> str:
        """The mutated source."""
        lines = source.splitlines(keepends=True)
        start = sum(len(x) for x in lines[: self.line - 1]) + self.col
        end = sum(len(x) for x in lines[: self.end_line - 1]) + self.end_col
        assert source[start:end] == self.original, (self.id, source[start:end])
        return source[:start] + self.replacement + source[end:]


def _char_col(lines: list[str], line: int, byte_col: int) -> int:
    """The AST gives UTF-8 byte offsets; the text is patched by characters."""
    return len(lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8"))


def mutants_of(file: str, source: str) -> list[Mutant]:
    """Every mutant of one file's source, in source order."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type in (tokenize.OP, tokenize.NAME)]

    skipped: set[int] = set()
    for node in ast.walk(tree):
        subtrees = []
        if isinstance(node, ast.Assert):
            subtrees.append(node)
        if isinstance(node, ast.arg) and node.annotation:
            subtrees.append(node.annotation)
        if isinstance(node, ast.AnnAssign):
            subtrees.append(node.annotation)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns:
            subtrees.append(node.returns)
        for sub in subtrees:
            skipped.update(id(n) for n in ast.walk(sub))

    def start(node) -> tuple[int, int]:
        return node.lineno, _char_col(lines, node.lineno, node.col_offset)

    def end(node) -> tuple[int, int]:
        return node.end_lineno, _char_col(lines, node.end_lineno, node.end_col_offset)

    def between(after: tuple[int, int], before: tuple[int, int], words: tuple[str, ...]) -> list:
        """The operator tokens between two operands (parentheses and comments aside)."""
        return [t for t in tokens if t.start >= after and t.end <= before and t.string in words]

    out: list[Mutant] = []

    def add(first: tuple[int, int], last: tuple[int, int], replacement: str) -> None:
        out.append(Mutant(file, *first, *last, source_of(lines, first, last), replacement))

    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for i, op in enumerate(node.ops):
                words = {ast.Is: ("is",), ast.IsNot: ("is", "not"), ast.In: ("in",), ast.NotIn: ("not", "in")}.get(type(op))
                found = between(end(operands[i]), start(operands[i + 1]), words or ("<", "<=", ">", ">=", "==", "!="))
                if words and len(found) == len(words):
                    add(found[0].start, found[-1].end, _COMPARE_SWAPS[type(op)])
                elif not words and len(found) == 1:
                    add(found[0].start, found[0].end, _COMPARE_SWAPS[type(op)])
        elif isinstance(node, ast.BoolOp):
            word = "and" if isinstance(node.op, ast.And) else "or"
            for left, right in zip(node.values, node.values[1:]):
                found = between(end(left), start(right), (word,))
                if len(found) == 1:
                    add(found[0].start, found[0].end, "or" if word == "and" else "and")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            found = between(start(node), start(node.operand), ("not",))
            if len(found) == 1:
                # Up to the next token, which may be the operand's opening parenthesis.
                following = tokens[tokens.index(found[0]) + 1]
                add(found[0].start, following.start, "")
        elif isinstance(node, ast.BinOp) and type(node.op) in _BINOP_SWAPS:
            if any(isinstance(x, (ast.JoinedStr, ast.List, ast.Tuple)) or (isinstance(x, ast.Constant) and isinstance(x.value, str)) for x in (node.left, node.right)):
                continue  # joining texts or sequences: any swap is a TypeError, not a test of the logic
            symbol = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//"}[type(node.op)]
            found = between(end(node.left), start(node.right), (symbol,))
            if len(found) == 1:
                add(found[0].start, found[0].end, _BINOP_SWAPS[type(node.op)])
        elif isinstance(node, ast.AugAssign) and type(node.op) in _AUG_SWAPS:
            if isinstance(node.value, (ast.JoinedStr, ast.List, ast.Tuple)) or (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
                continue
            symbol = "+=" if isinstance(node.op, ast.Add) else "-="
            found = between(end(node.target), start(node.value), (symbol,))
            if len(found) == 1:
                add(found[0].start, found[0].end, _AUG_SWAPS[type(node.op)])
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            add(start(node), end(node), "False" if node.value else "True")
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            text = source_of(lines, start(node), end(node))
            if not text.isdigit():
                continue  # 0x.., 1_000: rare here; skip rather than reformat
            for changed in (node.value + 1, node.value - 1):
                if changed >= 0:
                    add(start(node), end(node), str(changed))

    kept = []
    for m in sorted(out, key=lambda m: (m.line, m.col, m.replacement)):
        if "pragma: no mutate" in lines[m.line - 1]:
            continue
        mutated = m.apply(source)
        try:
            if ast.dump(ast.parse(mutated)) == ast.dump(tree):
                continue
        except SyntaxError:
            continue
        kept.append(m)
    return kept


def source_of(lines: list[str], first: tuple[int, int], last: tuple[int, int]) -> str:
    """The source text between two (line, character) positions."""
    if first[0] == last[0]:
        return lines[first[0] - 1][first[1]:last[1]]
    return lines[first[0] - 1][first[1]:] + "".join(lines[first[0]:last[0] - 1]) + lines[last[0] - 1][:last[1]]


# --- running ------------------------------------------------------------------------------------


@dataclass
class Verdict:
    """What became of one mutant."""

    id: str
    file: str
    line: int
    status: str  # "killed", "survived", "timeout", "equivalent" (known, not run)
    by: str = ""  # the first failing test, or the stage that timed out
    seconds: float = 0.0


class Worker:
    """A copy of the repository, importable as ``loopcompare``, where mutants are tried."""

    def __init__(self, base: Path, index: int) -> None:
        self.home = base / f"worker-{index}"
        self.repo = self.home / "loopcompare"
        ignore = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.pyc", "reports", "mutants", ".hypothesis")
        shutil.copytree(ROOT, self.repo, ignore=ignore)
        shared = ROOT.parent / "shared"
        if shared.is_dir():
            (self.home / "shared").symlink_to(shared)
        self.env = dict(os.environ, PYTHONPATH=str(self.home), PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")

    def pytest(self, files: tuple[str, ...], timeout: float) -> tuple[str, str, float]:
        """("passed" | "failed" | "timeout", first failing test, seconds)."""
        args = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", *files]
        if any(f.endswith("test_oracle.py") for f in files):
            args += _ORACLE_FIXED
        began = time.monotonic()
        try:
            done = subprocess.run(args, cwd=self.repo, env=self.env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout", "", time.monotonic() - began
        seconds = time.monotonic() - began
        if done.returncode == 0:
            return "passed", "", seconds
        failing = next((line.split(" ")[1] for line in done.stdout.splitlines() if line.startswith(("FAILED ", "ERROR "))), "")
        return "failed", failing or f"exit {done.returncode}", seconds


def stages_of(file: str, fast_only: bool = False) -> tuple[tuple[str, ...], ...]:
    """The test stages run against a mutant of ``file``: all of them, or only the first."""
    stages = tuple(stage for stage in TARGETS[file] if stage)
    return stages[:1] if fast_only else stages


def baseline(worker: Worker, files: list[str], fast_only: bool = False) -> dict[tuple[str, ...], float]:
    """The unmutated run of every test stage used: it must pass; its time sets the timeouts."""
    stages = sorted({stage for f in files for stage in stages_of(f, fast_only)})
    times = {}
    for stage in stages:
        status, failing, seconds = worker.pytest(stage, timeout=1800)
        if status != "passed":
            sys.exit(f"mutate: the unmutated tests do not pass ({status} {failing}): {' '.join(stage)}")
        times[stage] = seconds
    return times


def trial(worker: Worker, mutant: Mutant, times: dict, fast_only: bool = False) -> Verdict:
    """Write the mutant into the worker's copy, run the targeted stages, restore the file."""
    path = worker.repo / mutant.file
    original = path.read_text(encoding="utf-8")
    path.write_text(mutant.apply(original), encoding="utf-8")
    began = time.monotonic()
    try:
        for stage in stages_of(mutant.file, fast_only):
            status, failing, _ = worker.pytest(stage, timeout=3 * times[stage] + 15)
            if status == "timeout":
                # A busy machine can slow a run past the limit: only a mutant that also runs out
                # a limit ten times the unmutated run's counts as a timeout (a loop that never ends).
                status, failing, _ = worker.pytest(stage, timeout=10 * times[stage] + 60)
            if status == "failed":
                return Verdict(mutant.id, mutant.file, mutant.line, "killed", failing, time.monotonic() - began)
            if status == "timeout":
                return Verdict(mutant.id, mutant.file, mutant.line, "timeout", " ".join(stage), time.monotonic() - began)
        return Verdict(mutant.id, mutant.file, mutant.line, "survived", "", time.monotonic() - began)
    finally:
        path.write_text(original, encoding="utf-8")


@dataclass(frozen=True)
class Equivalent:
    """A mutant that changes no behaviour: where it is, and why it is equivalent."""

    file: str
    line: str  # the source line, stripped of surrounding blanks
    change: str  # "original->replacement", as in a mutant's id (spaces as "_")
    reason: str
    col: int | None = None  # only where the same change occurs twice on the line

    def matches(self, m: Mutant, source_line: str) -> bool:
        """Whether ``m`` (on ``source_line``) is this equivalent mutant."""
        change = f"{m.original}->{m.replacement}".replace(" ", "_")
        return (m.file == self.file and source_line.strip() == self.line and change == self.change
                and (self.col is None or self.col == m.col))


def load_equivalents(path: Path = EQUIVALENTS) -> list[Equivalent]:
    """The ``[[equivalent]]`` entries of ``path`` (none if it does not exist)."""
    if not path.is_file():
        return []
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = []
    for i, e in enumerate(data.get("equivalent", []), 1):
        unknown = set(e) - {"file", "line", "change", "reason", "col"}
        missing = {"file", "line", "change", "reason"} - set(e)
        if unknown or missing or not str(e.get("reason", "")).strip():
            sys.exit(f"mutate: {path.name}, equivalent {i}: needs file, line, change and a reason "
                     f"(unknown {sorted(unknown)}, missing {sorted(missing)})")
        out.append(Equivalent(e["file"], e["line"].strip(), e["change"], e["reason"].strip(), e.get("col")))
    return out


def equivalent_ids(mutants: list[Mutant], equivalents: list[Equivalent]) -> tuple[dict[str, str], list[str]]:
    """({mutant id: reason} for every mutant an entry names, [problems]): an entry that names no
    mutant (the line changed) or more than one (give its ``col``) is a problem to fix, and
    excludes nothing."""
    lines: dict[str, list[str]] = {}
    found: dict[str, str] = {}
    problems = []
    for e in equivalents:
        if e.file not in lines:
            path = ROOT / e.file
            lines[e.file] = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
        hits = [m for m in mutants if m.file == e.file and e.matches(m, lines[e.file][m.line - 1])]
        if not hits:
            problems.append(f"no mutant matches the equivalent {e.file}: {e.line!r} {e.change} (line changed?)")
        elif len(hits) > 1:
            problems.append(f"the equivalent {e.file}: {e.line!r} {e.change} matches {len(hits)} mutants; give its col")
        else:
            found[hits[0].id] = e.reason
    return found, problems


def collect(files: list[str]) -> list[Mutant]:
    """Every mutant of the chosen files."""
    out = []
    for f in files:
        if f not in TARGETS:
            sys.exit(f"mutate: no targeted tests are declared for {f} (see TARGETS)")
        out += mutants_of(f, (ROOT / f).read_text(encoding="utf-8"))
    return out


def report(verdicts: list[Verdict], chosen: int, total: int, elapsed: float, mutants: dict[str, Mutant],
           equivalent: dict[str, str] | None = None, sources: dict[str, str] | None = None) -> str:
    """The kill rate per file and overall (of the non-equivalent mutants), every known
    equivalent met, and every survivor."""
    equivalent = equivalent or {}
    lines = []
    by_file: dict[str, list[Verdict]] = {}
    for v in verdicts:
        by_file.setdefault(v.file, []).append(v)
    same = [v for v in verdicts if v.status == "equivalent"]
    lines.append(f"{len(verdicts)} of {chosen} chosen mutants reached ({total} in these files), {elapsed / 60:.1f} min; "
                 f"{len(same)} of them known equivalent (not run, not counted)")
    lines.append(f"{'file':28} {'tried':>6} {'killed':>7} {'rate':>6} {'equiv.':>7}")
    for f in sorted(by_file):
        vs = [v for v in by_file[f] if v.status != "equivalent"]
        killed = sum(v.status in ("killed", "timeout") for v in vs)
        rate = f"{100 * killed / len(vs):5.0f}%" if vs else "     -"
        lines.append(f"{f:28} {len(vs):6} {killed:7} {rate} {len(by_file[f]) - len(vs):7}")
    tried = [v for v in verdicts if v.status != "equivalent"]
    killed = sum(v.status in ("killed", "timeout") for v in tried)
    if tried:
        lines.append(f"{'all':28} {len(tried):6} {killed:7} {100 * killed / len(tried):5.1f}% {len(same):7}")
    if same:
        lines.append("")
        lines.append("known equivalent (benchmarks/mutants-equivalent.toml):")
        for v in sorted(same, key=lambda v: (v.file, v.line)):
            lines.append(f"  {v.id}: {equivalent.get(v.id, '')}")
    survivors = [v for v in verdicts if v.status == "survived"]
    if survivors:
        lines.append("")
        lines.append("survivors (a gap in the tests, or an equivalent mutant):")
        for v in sorted(survivors, key=lambda v: (v.file, v.line)):
            m = mutants[v.id]
            source = (sources or {}).get(m.file) or (ROOT / m.file).read_text(encoding="utf-8")
            source = source.splitlines()[m.line - 1]
            lines.append(f"  {v.id}")
            lines.append(f"      {source.strip()}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help=f"files to mutate (default: {', '.join(DEFAULT_FILES)})")
    parser.add_argument("--sample", type=int, help="try a random sample of this many mutants")
    parser.add_argument("--seed", type=int, default=2024, help="the sample's seed (default 2024)")
    parser.add_argument("--budget", type=float, help="start no new mutant after this many minutes")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tried at once (default 2)")
    parser.add_argument("--only", action="append", default=[], help="try only the mutant with this id (repeatable)")
    parser.add_argument("--list", action="store_true", help="count the mutants per file and stop")
    parser.add_argument("--show", help="print one mutant's line before and after, and stop")
    parser.add_argument("--fast-only", action="store_true",
                        help="triage: run only each module's fast stage (quicker; a survivor may still die in "
                             "the slow stage, so the score is a lower bound, not the recorded one)")
    parser.add_argument("--json", type=Path, help="also write every verdict to this file")
    parser.add_argument("--equivalents", type=Path, default=EQUIVALENTS,
                        help="the known equivalent mutants, with reasons (default benchmarks/mutants-equivalent.toml)")
    args = parser.parse_args(argv)

    files = args.files or list(DEFAULT_FILES)
    # The sources as mutated: the report quotes these even if the files change during the run.
    sources = {f: (ROOT / f).read_text(encoding="utf-8") for f in files if (ROOT / f).is_file()}
    mutants = collect(files)
    by_id = {m.id: m for m in mutants}
    equivalent, problems = equivalent_ids(mutants, [e for e in load_equivalents(args.equivalents) if e.file in files])
    for problem in problems:
        print(f"mutate: {problem}", file=sys.stderr)
    if args.list:
        counts: dict[str, int] = {}
        same: dict[str, int] = {}
        for m in mutants:
            counts[m.file] = counts.get(m.file, 0) + 1
            same[m.file] = same.get(m.file, 0) + (m.id in equivalent)
        for f in files:
            print(f"{f:28} {counts.get(f, 0):5}   {same.get(f, 0):3} known equivalent")
        print(f"{'all':28} {len(mutants):5}   {len(equivalent):3} known equivalent")
        return 0
    if args.show:
        m = by_id.get(args.show)
        if m is None:
            sys.exit(f"mutate: no mutant {args.show!r}")
        source = (ROOT / m.file).read_text(encoding="utf-8")
        before = source.splitlines()[m.line - 1 : m.end_line]
        after = m.apply(source).splitlines()[m.line - 1 : m.line - 1 + len(before)]
        print("\n".join(f"- {x}" for x in before))
        print("\n".join(f"+ {x}" for x in after))
        return 0

    chosen = [by_id[i] for i in args.only if i in by_id] if args.only else list(mutants)
    if args.only and len(chosen) != len(args.only):
        sys.exit(f"mutate: unknown mutant id among {args.only}")
    if args.sample and args.sample < len(chosen):
        # Tried in the sample's random order, so that a run cut short by --budget is still a
        # random sample of every file, not the first files in alphabetical order.
        chosen = random.Random(args.seed).sample(chosen, args.sample)
    seed = f" (seed {args.seed})" if args.sample and args.sample < len(mutants) else ""
    print(f"mutate: {len(chosen)} mutants chosen of {len(mutants)}{seed}; {len(equivalent)} known equivalent; "
          f"{args.jobs} at once; load average {os.getloadavg()[0]:.1f}", flush=True)

    wall = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="loopcompare-mutate-") as tmp:
        workers = [Worker(Path(tmp), i) for i in range(max(1, args.jobs))]
        used = sorted({m.file for m in chosen})
        times = baseline(workers[0], used, args.fast_only)
        print("mutate: unmutated runs pass: " + ", ".join(f"{len(s)} files {t:.0f}s" for s, t in times.items()), flush=True)
        free = list(workers)
        lock = threading.Lock()
        began = time.monotonic()
        verdicts: list[Verdict] = []

        def run(mutant: Mutant) -> Verdict | None:
            if args.budget and time.monotonic() - began > args.budget * 60:
                return None
            if mutant.id in equivalent:
                return Verdict(mutant.id, mutant.file, mutant.line, "equivalent", "known")
            with lock:
                worker = free.pop()
            try:
                return trial(worker, mutant, times, args.fast_only)
            finally:
                with lock:
                    free.append(worker)

        with concurrent.futures.ThreadPoolExecutor(max_workers=len(workers)) as pool:
            for verdict in pool.map(run, chosen):
                if verdict is None:
                    continue
                verdicts.append(verdict)
                mark = {"killed": "killed ", "timeout": "timeout", "survived": "SURVIVED", "equivalent": "equival"}[verdict.status]
                print(f"  {mark} {verdict.id} {verdict.by} ({verdict.seconds:.0f}s)", flush=True)
        elapsed = time.monotonic() - began

    print()
    print(report(verdicts, len(chosen), len(mutants), elapsed, by_id, equivalent, sources))
    print(f"\nwall time with the unmutated runs: {(time.monotonic() - wall) / 60:.1f} min; "
          f"load average now {os.getloadavg()[0]:.1f} (1 min), {os.getloadavg()[2]:.1f} (15 min)")
    if args.json:
        args.json.write_text(json.dumps([asdict(v) for v in verdicts], indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
