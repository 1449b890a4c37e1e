"""Issue 27 item 4: would compiling the hot modules with mypyc pay?  A trial, not a build.

``python benchmarks/mypyc_trial.py [--rounds N] [--engines]`` (needs ``mypy``, which ships mypyc,
and a C compiler; ``pip install '.[lint]'`` brings mypy):

1. copies this tree twice into a temporary folder (``pure/loopcompare`` as it is,
   ``compiled/loopcompare`` with the few edits below), and compiles the copy's hot modules with
   ``mypyc`` (all of them, or with ``--engines`` the engines and their data, leaving
   ``rulesets/base.py`` and the eras interpreted);
2. checks that the compiled copy is the one imported (``rulesets/dynamics`` is a ``.so``) and
   compares every outcome of a sample of generated scenarios under every ruleset, pure against
   compiled, as JSON text;
3. times settles per CPU second of format 1 (``bench.generated(1500)``) and format 2
   (``bench.generated_format2(400)``) under every ruleset, ``dataclasses.replace`` of each scenario
   and ``facts.SHARED = 0`` (no cached facts carry over), in alternating processes, ``--rounds``
   times, and prints the medians and the median of the per-round ratios.

The edits exist only in the temporary copy (the repository's sources are untouched); each says
why mypyc needs it.  A class mypyc can't compile as a native class is marked
``@mypyc_attr(native_class=False)`` (mypy_extensions, installed with mypy: in a shipped build a
no-op decorator of the package's own would do, mypyc compiles any class with a decorator it
doesn't know as a plain Python class).  An edit whose text is no longer in the source stops the
trial with the file and the text.

Nothing here is a pass/fail test; docs/DEVELOPING.md records a run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ENGINES = ["dynamics", "additive", "facts", "values", "bignum", "linear", "joint", "scenario", "outcome", "numbers"]
ERAS = ["base", "shortcuts", "cr421", "mtr", "summary"]

NON_NATIVE = "@mypyc_attr(native_class=False)"
#: Ruleset and the eras: third-party rulesets and ``Ruleset.on_day`` subclass them in Python, and a
#: compiled non-native class is otherwise type-checked as exactly itself or a compiled subclass.
OPEN = "@mypyc_attr(native_class=False, allow_interpreted_subclasses=True)"

#: (module, class, decorator, why)
CLASSES = [
    ("bignum", "TooLarge", NON_NATIVE, "subclasses ArithmeticError: mypyc can't make it native"),
    ("dynamics", "EngineLimit", NON_NATIVE, "subclass of TooLarge"),
    ("linear", "LinearLimit", NON_NATIVE, "subclass of TooLarge"),
    ("linear", "NotMonotone", NON_NATIVE, "subclass of TooLarge"),
    ("scenario", "Step", NON_NATIVE, "scenario.py caches _repr in Step.__dict__"),
    ("scenario", "Scenario", NON_NATIVE, "cached_property, and facts.py keeps _facts in its __dict__"),
    ("facts", "LoopFacts", NON_NATIVE, "cached_property, and for_scenario copies its __dict__"),
    ("base", "Ruleset", OPEN, "subclassed by plugins and on_day; on_day reads __doc__ on the class"),
    ("summary", "Summary1998", OPEN, "subclass of Ruleset"),
    ("cr421", "Cr2004", OPEN, "subclass of Ruleset"),
    ("cr421", "Cr2005", OPEN, "subclass of Ruleset"),
    ("cr421", "Cr2008", OPEN, "subclass of Ruleset"),
    ("shortcuts", "Cr2009", OPEN, "subclass of Ruleset"),
    ("shortcuts", "Cr2009Sept", OPEN, "subclass of Ruleset"),
    ("shortcuts", "Cr2024", OPEN, "subclass of Ruleset"),
    ("mtr", "Mtr2018", OPEN, "subclass of Ruleset"),
    ("mtr", "MtrCurrent", OPEN, "subclass of Ruleset"),
]

#: (module, old text, new text, why)
TEXTS = [
    ("bignum", "    to_json = plain\n", "    def to_json(self) -> str:\n        return self.plain()\n",
     "a class attribute naming a method fails in a native class (KeyError at import)"),
    ("linear", "    to_json = plain\n", "    def to_json(self) -> str:\n        return self.plain()\n",
     "the same"),
    ("outcome", "    neutral: object = None\n", "    neutral: object | None = None\n",
     "mypyc can't load `object` as a dataclass field's annotation (KeyError at import)"),
    ("base",
     "\n        def settle_part(k: int) -> Outcome:\n"
     "            try:\n"
     "                return _unknown(self.settle(current), unknown)\n"
     "            except Unsettleable as error:\n"
     "                if k == 1:\n"
     "                    raise\n"
     "                # an engine limit in a later part names the part, as its loader errors do (FORMAT item 31)\n"
     "                raise Unsettleable(f\"then {k - 1}: {error.where}\" if error.where else f\"then {k - 1}\", error.message) from error\n",
     "",
     "mypyc fails (internal error, env class) on a closure in a non-native class's method: the nested function moves out"),
    ("base", "settle_part(k - 1)", "_settle_part(self, current, unknown, k - 1)", "the same"),
    ("base", "settle_part(len(scenario.parts) + 1)", "_settle_part(self, current, unknown, len(scenario.parts) + 1)", "the same"),
]

#: Appended to a module: (module, text).
APPENDED = [
    ("base",
     "\n\ndef _settle_part(ruleset: Ruleset, current: Scenario, unknown: frozenset[str], k: int) -> Outcome:\n"
     "    try:\n"
     "        return _unknown(ruleset.settle(current), unknown)\n"
     "    except Unsettleable as error:\n"
     "        if k == 1:\n"
     "            raise\n"
     "        raise Unsettleable(f\"then {k - 1}: {error.where}\" if error.where else f\"then {k - 1}\", error.message) from error\n"),
]


def _decorate(source: str, name: str, decorator: str, path: str) -> str:
    lines = source.split("\n")
    for i, line in enumerate(lines):
        if re.match(rf"class {name}\b", line):
            j = i
            while j > 0 and lines[j - 1].startswith("@"):
                j -= 1
            lines.insert(j, decorator)
            return "\n".join(lines)
    raise SystemExit(f"mypyc_trial: {path}: no class {name}")


def _edit(tree: Path, modules: list[str]) -> None:
    touched: dict[str, str] = {}

    def source(module: str) -> str:
        if module not in touched:
            touched[module] = (tree / "rulesets" / f"{module}.py").read_text()
        return touched[module]

    for module, name, decorator, _why in CLASSES:
        if module in modules:
            touched[module] = _decorate(source(module), name, decorator, f"rulesets/{module}.py")
    for module, old, new, _why in TEXTS:
        if module in modules:
            if source(module).count(old) != 1:
                raise SystemExit(f"mypyc_trial: rulesets/{module}.py: the text to edit is not there once: {old!r}")
            touched[module] = source(module).replace(old, new)
    for module, text in APPENDED:
        if module in modules:
            touched[module] = source(module) + text
    for module, text in touched.items():
        if NON_NATIVE[:11] in text and "from mypy_extensions import mypyc_attr" not in text:
            text = text.replace("from __future__ import annotations\n", "from __future__ import annotations\n\nfrom mypy_extensions import mypyc_attr\n", 1)
        (tree / "rulesets" / f"{module}.py").write_text(text)


def _copy(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\n")
    for name in files:
        if name and (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)


#: Run in a child process with PYTHONPATH naming the tree's parent: prints one JSON line.
CHILD = r"""
import dataclasses, importlib, json, sys, time
import loopcompare
facts = importlib.import_module("loopcompare.rulesets.facts")
dyn = importlib.import_module("loopcompare.rulesets.dynamics")
sys.path.insert(0, loopcompare.__path__[0] + "/benchmarks")
import bench
facts.SHARED = 0
rulesets = bench.registry().rulesets
mode = sys.argv[1]
if mode == "outcomes":
    out = []
    for s in bench.generated(300) + bench.generated_format2(100):
        for r in rulesets:
            try:
                out.append(json.dumps(r.settle(dataclasses.replace(s)).to_json(), sort_keys=True, default=str))
            except Exception as e:
                out.append(f"{type(e).__name__}: {e}")
    print(json.dumps({"file": dyn.__file__, "outcomes": out}))
else:
    rates = {"file": dyn.__file__}
    for name, scenarios in (("format 1", bench.generated(1500)), ("format 2", bench.generated_format2(400))):
        n = 0
        start = time.process_time()
        for s in scenarios:
            for r in rulesets:
                r.settle(dataclasses.replace(s))
                n += 1
        rates[name] = n / (time.process_time() - start)
    print(json.dumps(rates))
"""


def _child(parent: Path, mode: str) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(parent))
    done = subprocess.run([sys.executable, "-c", CHILD, mode], env=env, cwd=parent, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"mypyc_trial: the {parent.name} tree failed:\n{done.stderr}")
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    rounds = 5
    for arg in sys.argv[1:]:
        if arg.startswith("--rounds="):
            rounds = int(arg.split("=", 1)[1])
    modules = ENGINES if "--engines" in sys.argv[1:] else ENGINES + ERAS
    work = Path(tempfile.mkdtemp(prefix="mypyc-trial-"))
    try:
        pure, compiled = work / "pure", work / "compiled"
        for parent in (pure, compiled):
            _copy(parent / "loopcompare")
        _edit(compiled / "loopcompare", modules)
        sources = [f"loopcompare/rulesets/{m}.py" for m in modules]
        cmd = ["mypyc", "--config-file", "loopcompare/pyproject.toml", *sources]
        print(f"compiling {len(modules)} modules: {' '.join(modules)}", flush=True)
        start = time.monotonic()
        done = subprocess.run(cmd, cwd=compiled, capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"mypyc_trial: mypyc failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
        print(f"  built in {time.monotonic() - start:.0f} s (wall); extension modules "
              f"{sum(p.stat().st_size for p in compiled.rglob('*.so')) / 1e6:.1f} MB", flush=True)

        a, b = _child(pure, "outcomes"), _child(compiled, "outcomes")
        if not (str(b["file"]).startswith(str(compiled)) and str(b["file"]).endswith(".so") and str(a["file"]).startswith(str(pure)) and str(a["file"]).endswith(".py")):
            raise SystemExit(f"mypyc_trial: wrong modules imported: {a['file']}, {b['file']}")
        pairs = list(zip(a["outcomes"], b["outcomes"]))  # type: ignore[call-overload]
        differ = [(x, y) for x, y in pairs if x != y]
        print(f"outcomes: {len(pairs)} settles, {len(differ)} differ as JSON text", flush=True)
        for x, y in differ[:3]:
            at = next(i for i, (c, d) in enumerate(zip(x + "\0", y + "\0")) if c != d)
            print(f"  pure:     ...{x[max(0, at - 60):at + 30]}...\n  compiled: ...{y[max(0, at - 60):at + 30]}...")

        rates: dict[str, dict[str, list[float]]] = {"pure": {}, "compiled": {}}
        for k in range(rounds):
            order = [("pure", pure), ("compiled", compiled)]
            if k % 2:
                order.reverse()
            for side, parent in order:
                for name, rate in _child(parent, "rates").items():
                    if name != "file":
                        rates[side].setdefault(name, []).append(float(rate))  # type: ignore[arg-type]
        print(f"settles per CPU second, {rounds} rounds (medians); load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs:")
        for name in rates["pure"]:
            p, c = rates["pure"][name], rates["compiled"][name]
            ratios = sorted(y / x for x, y in zip(p, c))
            print(f"  {name}: pure {statistics.median(p):,.0f}, compiled {statistics.median(c):,.0f}; "
                  f"ratio median {statistics.median(ratios):.2f}x ({ratios[0]:.2f}-{ratios[-1]:.2f})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
