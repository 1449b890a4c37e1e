"""The gallery's files, rendered once per test run.

Rendering the whole gallery (every library loop in three formats, their timelines, the atlas and
the history) takes about half a minute; tests/site/test_gallery.py, tests/reports/test_amendments.py
and tests/site/test_site.py read the same files, so they share one rendering.  The dictionary is
read-only for the tests (a ``MappingProxyType``), so no test can change what another one reads.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from loopcompare.comparator.build import gallery_files


@functools.cache
def gallery() -> Mapping[str, str]:
    """Every file of the gallery, by its path under ``reports/`` (``gallery_files()``, once)."""
    return MappingProxyType(gallery_files())
