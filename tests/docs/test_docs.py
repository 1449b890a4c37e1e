"""The documentation ships in the repository and stays in step with the specification."""

from __future__ import annotations

import re

import pytest

from helpers import ROOT, SHARED

DOCS = ROOT / "docs"
HEADER_END = "-->\n\n"


@pytest.mark.parametrize("name", ["FORMAT.md", "DOMAIN.md"])
def test_the_shipped_specification_matches_the_shared_one(name):
    # docs/ is the project's own copy; a change to the specification must reach it (and back).
    shared = SHARED / "spec" / name
    if not shared.exists():
        pytest.skip("the shared specification is not beside this checkout")
    ours = (DOCS / name).read_text(encoding="utf-8")
    assert ours.startswith("<!-- Owned by loopcompare"), "docs copy lost its provenance header"
    header, body = ours.split(HEADER_END, 1)
    expected = shared.read_text(encoding="utf-8")
    # Amendments the project made since (e.g. the renumbering to 732 of 2026-04-17) are listed in
    # the header, old => new; each must apply exactly once.
    for old, new in re.findall(r"^AMEND: (.+?) => (.+)$", header, re.M):
        assert expected.count(old) == 1, f"amendment no longer applies: {old!r}"
        expected = expected.replace(old, new)
    assert body == expected, f"docs/{name} is out of step with shared/spec/{name}"


def test_every_docs_reference_in_the_code_exists():
    # Docstrings point readers to docs/…; every file they name must be there.
    named = set()
    for path in list((ROOT / "rulesets").glob("*.py")) + list((ROOT / "comparator").glob("*.py")) + [ROOT / "__init__.py", ROOT / "README.md"]:
        named |= set(re.findall(r"docs/([A-Z][A-Za-z]+\.md)", path.read_text(encoding="utf-8")))
    assert named, "no references found: the test is looking in the wrong place"
    missing = sorted(n for n in named if not (DOCS / n).exists())
    assert not missing, missing


def test_no_docstring_points_outside_the_repository():
    # Before 0.2, eleven docstrings cited FORMAT.md or DOMAIN.md, which the repository did not hold.
    offenders = []
    for path in list((ROOT / "rulesets").glob("*.py")) + list((ROOT / "comparator").glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"(?<![/\w])(FORMAT|DOMAIN)\.md", line):
                offenders.append(f"{path.name}:{number}")
    assert not offenders, offenders
