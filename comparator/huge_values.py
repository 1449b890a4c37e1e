"""Reading a huge value back from its written form, for ``[expect]`` and ``check`` (FORMAT items 14 and 28).

A value over 1,000 digits is written as an exact expression: one power ``"3*2^(10^100)"`` (item 14,
:class:`loopcompare.rulesets.bignum.Huge`), or, for format 3 amounts, a sum of such terms in
decreasing order plus a constant, over a common denominator: ``"(3^(10^100)-2*2^(10^100)+81)/2"``
(item 28, :class:`loopcompare.rulesets.linear.HugeSum`).  An expected value written in that grammar
must compare equal to the computed one whatever way its author wrote the same number (terms in
another order, a factor of the base left in C, a power of a perfect power as base, a term split in
two), so both are read as numbers and compared exactly (their difference is zero), never as text.

The grammar read (no spaces, as item 14's input forms)::

    value := sum | "(" sum ")/" K
    sum   := ["-"] term (("+" | "-") term)*
    term  := [C "*"] M "^(" E ")" | [C "*"] M "^" INT | D
    E     := INT | INT "^" INT

with C, D, K, M, INT decimal integers (M >= 2, K >= 1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..rulesets.bignum import iroot

__all__ = ["HugeValueError", "Written", "parse", "same"]

_OUTER = re.compile(r"\((?P<body>.+)\)/(?P<k>[0-9]+)")
_TERM = re.compile(
    r"(?P<sign>[+-]?)(?:(?:(?P<c>[0-9]+)\*)?(?P<base>[0-9]+)\^(?:\((?P<exp>[0-9]+(?:\^[0-9]+)?)\)|(?P<bare>[0-9]+))|(?P<d>[0-9]+))"
)
#: Powers of one root whose exponents are this close (in bits of the power) are merged into one
#: term when two values are compared (``2^(5001)-2^(5000)`` is ``2^(5000)``): more than any
#: coefficient or constant of a written value has (2,000 characters at most in a scenario file,
#: 13,287 bits in the engine's output).
_GAP_BITS = 40_000
#: Powers with at most this many bits are computed outright when two values are compared.
_SMALL_BITS = 80_000


class HugeValueError(ValueError):
    """A string that is not an exact value in the grammar; the message says what is wrong."""


@dataclass(frozen=True)
class Written:
    """``(sum(c * base^e) + d) / k`` as written: the powers (each base as its root), ``d``, ``k``."""

    powers: tuple[tuple[int, int, int], ...]
    d: int
    k: int


def parse(text: str) -> Written:
    """The exact value ``text`` writes, or :class:`HugeValueError` saying what is wrong with it."""
    outer = _OUTER.fullmatch(text)
    body, k = (outer["body"], int(outer["k"])) if outer else (text, 1)
    if k < 1:
        raise HugeValueError("has a zero denominator")
    if not body:
        raise HugeValueError("is empty")
    powers: list[tuple[int, int, int]] = []
    constant = 0
    at = 0
    while at < len(body):
        m = _TERM.match(body, at)
        if m is None or (at == 0 and m["sign"] == "+") or (at > 0 and not m["sign"]):
            raise HugeValueError(_expected(body, at))
        sign = -1 if m["sign"] == "-" else 1
        if m["d"] is not None:
            constant += sign * int(m["d"])
        else:
            c = int(m["c"]) if m["c"] is not None else 1
            base = int(m["base"])
            if base < 2 or c == 0:
                raise HugeValueError(f"has a term {m.group(0).lstrip('+-')!r}: a power needs a base of at least 2 and a coefficient other than 0")
            root, p = _root(base)
            powers.append((sign * c, root, _exponent(m["exp"] or m["bare"]) * p))
        at = m.end()
    return Written(tuple(powers), constant, k)


def same(x: Written, y: Written) -> bool:
    """Whether two written values are the same number.

    Their difference (each side brought to the other's denominator) is taken root by root: powers
    of one root whose exponents lie within :data:`_GAP_BITS` of the next are merged into one term
    at the lowest exponent (exact integers); a merged term small enough is computed outright into
    the constant.  What is left are powers far larger than every coefficient and than the constant,
    each far from any other of its root: a non-zero one can't be cancelled, so the values differ.
    """
    powers = [(c * y.k, b, e) for c, b, e in x.powers] + [(-c * x.k, b, e) for c, b, e in y.powers]
    constant = x.d * y.k - y.d * x.k
    by_root: dict[int, list[tuple[int, int]]] = {}
    for c, root, e in powers:
        by_root.setdefault(root, []).append((e, c))
    for root, terms in sorted(by_root.items()):
        terms.sort()
        width = root.bit_length()
        chains: list[tuple[int, int]] = []  # (lowest exponent, coefficient)
        last = None
        for e, c in terms:
            if last is not None and (e - last) * width <= _GAP_BITS:
                low, acc = chains[-1]
                chains[-1] = (low, acc + c * root ** (e - low))
            else:
                chains.append((e, c))
            last = e
        for low, c in chains:
            if c == 0:
                continue
            if low * width <= _SMALL_BITS:
                constant += c * root**low
            else:
                return False
    return constant == 0


def _exponent(text: str) -> int:
    a, _, b = text.partition("^")
    if not b:
        return int(a)
    base, power = int(a), int(b)
    if power.bit_length() > 64 or (base > 1 and power * base.bit_length() > 1_000_000):
        raise HugeValueError(f"has an exponent {text!r} too large to compare (write a smaller A^B)")
    return int(base**power)


def _root(m: int) -> tuple[int, int]:
    """(r, p) with r**p == m and p as large as possible (m >= 2): 4^(E) is 2^(2*E)."""
    for p in range(m.bit_length(), 1, -1):
        r = iroot(m, p)
        if r >= 2 and r**p == m:
            inner, q = _root(r)
            return inner, p * q
    return m, 1


def _expected(body: str, at: int) -> str:
    where = "the start" if at == 0 else f"{body[at:at + 12]!r}" if at < len(body) else "the end"
    return (
        f"is not an exact value: at {where}, expected a term C*M^(E) or a whole number "
        f"(a sum of such terms, optionally written (...)/K; docs/FORMAT.md items 14 and 28)"
    )
