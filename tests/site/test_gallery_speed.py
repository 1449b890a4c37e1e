"""The gallery's speed-ups change nothing a reader sees (issue 27 item 5): the one-plane match of
control characters, the atlas's keys for plain values, and the reports rendered in a thread while
the atlas settles.  No timing here: benchmarks/bench.py measures (``--parallel``, ``--only=gallery``)."""

from __future__ import annotations

import threading

import pytest

from loopcompare.comparator import atlas, build, controls

# Every character controls.visible shows as a code, spelled out here rather than read from the module.
UNSAFE = (
    [chr(c) for c in range(0x00, 0x20) if c not in (0x09, 0x0A)]
    + [chr(c) for c in range(0x7F, 0xA0)]
    + list("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    + [chr(c) for c in range(0xFDD0, 0xFDF0)]
    + [chr(plane << 16 | low) for plane in range(17) for low in (0xFFFE, 0xFFFF)]
)


def _shown(ch: str) -> str:
    point = ord(ch)
    return f"\\x{point:02x}" if point < 0xA0 else f"U+{point:04X}"


def _expected(text: str) -> str:
    unsafe = set(UNSAFE)
    return "".join(_shown(ch) if ch in unsafe else ch for ch in text)


@pytest.mark.parametrize("tail", ["", "\U0001f600", "\U0010fffe"], ids=["bmp", "astral", "astral-nonchar"])
def test_visible_shows_every_unsafe_character_with_or_without_astral_text(tail: str) -> None:
    safe = "plain ascii\n\ttab é ü \u4e2d \ufffd \ufdcf \ufdf0 \ufffd \ud7ff"
    text = safe + "".join(UNSAFE) + safe + tail
    assert controls.visible(text) == _expected(text)
    for ch in UNSAFE:  # one at a time, in text that is otherwise ASCII, or within the BMP
        for around in ("a{}b", "\u00e9{}\u4e2d", "\U0001f600{}"):
            sample = around.format(ch)
            assert controls.visible(sample) == _expected(sample), repr(sample)


def test_visible_keeps_lone_surrogates_and_ordinary_text() -> None:
    for text in ("x\ud800y", "\udfff", "", "a\nb\tc", "\U0001f600 \u4e2d"):
        assert controls.visible(text) == text


def test_atlas_partition_groups_values_as_their_reprs_do() -> None:
    values = [1, True, "1", None, {"a": 1}, {"a": 1}, 1, "True", [1], "[1]", 1, None]
    by_repr: dict[str, int] = {}
    expected = tuple(by_repr.setdefault(repr(v), len(by_repr)) for v in values)
    assert atlas._partition(values, [True] * len(values)) == expected
    applies = [i % 3 != 0 for i in range(len(values))]
    by_repr = {}
    expected = tuple(by_repr.setdefault(repr(v), len(by_repr)) if ok else -1 for v, ok in zip(values, applies))
    assert atlas._partition(values, applies) == expected


@pytest.fixture
def no_atlas(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The eras atlas replaced by a stand-in that records the thread it ran in and what it was given."""
    calls: list[str] = []
    monkeypatch.setattr(build, "_ATLASES", {})
    monkeypatch.setattr(build, "_cpus", lambda: 2)

    def stand_in(progress: object = None) -> None:
        calls.append(f"{threading.current_thread().name} progress={progress!r}")

    monkeypatch.setattr(build, "eras_atlas", stand_in)
    return calls


def test_pages_render_in_a_thread_while_the_atlas_settles(no_atlas: list[str]) -> None:
    seen: list[tuple[str, object]] = []

    def work(progress: object) -> dict[str, str]:
        seen.append((threading.current_thread().name, progress))
        return {"a.md": "text\n"}

    assert build._alongside(work, "BAR") == {"a.md": "text\n"}  # type: ignore[arg-type]
    assert seen == [("loopcompare pages", None)]  # no bar in the thread: the atlas has it
    assert no_atlas == [f"{threading.main_thread().name} progress='BAR'"]


def test_an_error_in_the_pages_is_raised_in_the_caller(no_atlas: list[str]) -> None:
    def work(progress: object) -> dict[str, str]:
        raise ValueError("broken page")

    with pytest.raises(ValueError, match="broken page"):
        build._alongside(work, None)
    assert len(no_atlas) == 1


def test_no_thread_once_the_atlas_is_settled_or_on_one_cpu(monkeypatch: pytest.MonkeyPatch, no_atlas: list[str]) -> None:
    names: list[str] = []

    def work(progress: object) -> dict[str, str]:
        names.append(threading.current_thread().name)
        return {}

    monkeypatch.setattr(build, "_cpus", lambda: 1)
    build._alongside(work, None)
    monkeypatch.setattr(build, "_cpus", lambda: 2)
    monkeypatch.setattr(build, "_ATLASES", {"eras": object()})
    build._alongside(work, None)
    assert names == [threading.main_thread().name] * 2
    assert no_atlas == []


@pytest.mark.parametrize("tail", ["", "\U0001f600", "\U0010ffff"], ids=["bmp", "astral", "astral-nonchar"])
def test_json_escaped_writes_every_unsafe_character_as_an_escape(tail: str) -> None:
    import json

    data = {"text": "é \u4e2d " + "".join(UNSAFE) + tail}
    document = controls.json_escaped(json.dumps(data, ensure_ascii=False))
    assert json.loads(document) == data  # the same data
    assert not any(ch in document for ch in UNSAFE)  # but no unsafe character written as itself


def test_builtin_names_follow_the_folder(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from loopcompare.comparator import catalogue

    monkeypatch.setattr(catalogue, "folder", lambda: tmp_path)
    (tmp_path / "b.toml").write_text("")
    assert catalogue.names() == ("b",)
    assert catalogue.names() == ("b",)
    (tmp_path / "a.toml").write_text("")
    (tmp_path / "notes.txt").write_text("")
    assert catalogue.names() == ("a", "b")
    (tmp_path / "b.toml").unlink()
    assert catalogue.names() == ("a",)


def test_builtin_names_are_listed_again_when_the_folder_changes(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os

    from loopcompare.comparator import catalogue

    monkeypatch.setattr(catalogue, "folder", lambda: tmp_path)
    (tmp_path / "b.toml").write_text("")
    os.utime(tmp_path, ns=(10**18, 10**18))  # changed long ago: its listing is kept
    first = catalogue.names()
    assert first == ("b",) and catalogue.names() is first
    (tmp_path / "a.toml").write_text("")
    os.utime(tmp_path, ns=(10**18 + 1, 10**18 + 1))  # changed since (by one nanosecond)
    assert catalogue.names() == ("a", "b")
