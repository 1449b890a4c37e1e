"""The mutation-testing script (benchmarks/mutate.py) makes the mutants it says it makes.

It is not run in CI; these checks keep its mutant generator honest: each mutant is one operator
or constant changed in place, the rest of the file byte for byte the same, and what it promises
to leave alone (annotations, assertions, joined texts, ``# pragma: no mutate``) is left alone.
"""

from __future__ import annotations

import ast
import sys

import pytest

from conftest import ROOT

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
