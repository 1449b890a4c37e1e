"""The mutation-testing script (benchmarks/mutate.py) makes the mutants it says it makes.

It is not run in CI; these checks keep its mutant generator honest: each mutant is one operator
or constant changed in place, the rest of the file byte for byte the same, and what it promises
to leave alone (annotations, assertions, joined texts, ``# pragma: no mutate``) is left alone.
"""

from __future__ import annotations

import ast
import sys

import pytest

from helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import mutate  # noqa: E402

SOURCE = '''\
def f(a: int, b: int = 1) -> bool:
    """Docstring: a < b and c."""
    assert a >= 0
    label = "x" + str(a)
    if a < b and not (a == 2 or b is None):
        a += 3
        return a - b * 2 // 1 > 0
    return True  # “quoted” text before: é
LIMIT = 1 << 20
SKIPPED = 5 > 4  # pragma: no mutate
'''


def changes(source: str = SOURCE) -> set[tuple[str, str]]:
    return {(m.original, m.replacement) for m in mutate.mutants_of("example.py", source)}


def test_each_operator_and_constant_is_swapped():
    assert changes() == {
        ("<", "<="), ("and", "or"), ("not ", ""), ("==", "!="), ("or", "and"), ("is", "is not"),
        ("2", "3"), ("2", "1"), ("+=", "-="), ("3", "4"), ("3", "2"), ("-", "+"), ("*", "//"),
        ("//", "*"), (">", ">="), ("0", "1"), ("1", "2"), ("1", "0"), ("True", "False"),
        ("20", "21"), ("20", "19"),
    }


def test_annotations_assertions_joined_texts_and_marked_lines_are_left_alone():
    mutants = mutate.mutants_of("example.py", SOURCE)
    assert {m.original for m in mutants if m.line == 1} == {"1"}  # the default value, not the annotations
    assert not {m.line for m in mutants} & {2, 3, 4, 10}


def test_a_default_value_is_a_constant_like_any_other():
    assert {(m.original, m.replacement) for m in mutate.mutants_of("d.py", "def g(b=1):\n    return b\n")} == {("1", "2"), ("1", "0")}


def test_each_mutant_changes_only_its_own_span():
    for m in mutate.mutants_of("example.py", SOURCE):
        mutated = m.apply(SOURCE)
        assert ast.dump(ast.parse(mutated)) != ast.dump(ast.parse(SOURCE))
        lines = SOURCE.splitlines(keepends=True)
        start = sum(len(x) for x in lines[: m.line - 1]) + m.col
        assert mutated[:start] == SOURCE[:start]
        assert mutated[start + len(m.replacement):] == SOURCE[start + len(m.original):]


def test_multi_word_comparisons_are_swapped_whole():
    got = changes("x = a is not b\ny = a not in b\n")
    assert got == {("is not", "is"), ("not in", "in")}


@pytest.mark.parametrize("path", mutate.DEFAULT_FILES)
def test_every_default_file_has_targeted_tests_that_exist(path):
    fast, slow = mutate.TARGETS[path]
    assert fast, path
    for test in (*fast, *slow):
        assert (ROOT / test).is_file(), test
        assert "test_gallery" not in test


def test_known_equivalent_mutants_are_matched_by_line_and_change_and_need_a_reason(tmp_path):
    source = "def f(a):\n    return a < 1 and a < 1\n"
    (tmp_path / "m.py").write_text(source, encoding="utf-8")
    mutants = mutate.mutants_of("m.py", source)
    listed = tmp_path / "equivalent.toml"
    listed.write_text(
        '[[equivalent]]\nfile = "m.py"\nline = "return a < 1 and a < 1"\nchange = "<-><="\ncol = 13\nreason = "r"\n'
        '[[equivalent]]\nfile = "m.py"\nline = "return a < 1 and a < 1"\nchange = "and->or"\nreason = "r2"\n'
        '[[equivalent]]\nfile = "m.py"\nline = "return a < 1 and a < 1"\nchange = "1->2"\nreason = "two of them"\n'
        '[[equivalent]]\nfile = "m.py"\nline = "return a > 1"\nchange = "<-><="\nreason = "gone"\n',
        encoding="utf-8",
    )
    root = mutate.ROOT
    mutate.ROOT = tmp_path
    try:
        found, problems = mutate.equivalent_ids(mutants, mutate.load_equivalents(listed))
    finally:
        mutate.ROOT = root
    assert found == {"m.py:2:13:<-><=": "r", "m.py:2:17:and->or": "r2"}  # "1->2" is on the line twice
    assert any("matches 2 mutants" in p for p in problems)
    assert any("no mutant matches" in p and "return a > 1" in p for p in problems)
    listed.write_text('[[equivalent]]\nfile = "m.py"\nline = "x"\nchange = "<-><="\nreason = " "\n', encoding="utf-8")
    with pytest.raises(SystemExit):
        mutate.load_equivalents(listed)


@pytest.mark.slow  # about 3.5 minutes on 2 cores (every mutant of every default file is generated): run with the mutation tests
def test_the_listed_equivalent_mutants_all_match_one_mutant_each():
    files = sorted({e.file for e in mutate.load_equivalents()})
    found, problems = mutate.equivalent_ids(mutate.collect(files), mutate.load_equivalents())
    assert not problems
    assert len(found) == len(mutate.load_equivalents())
