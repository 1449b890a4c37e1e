"""Exact values too large to write out: ``(C*M^E + D)/K`` (docs/FORMAT.md "Format 2", item 14).

A loop that doubles its tokens a googol times ends with ``3 * 2^(10^100)`` tokens: a number with
about 3 * 10^99 digits, which no computer can hold.  The closed form never computes it: it keeps
the value as the exact expression :class:`Huge` and writes it, in JSON and reports alike, as
``"3*2^(10^100)"``.  Only values with more than :data:`MAX_DIGITS` digits take this form; smaller
ones are plain Python integers.

The written grammar (documented in docs/SCENARIOS.md): ``C*M^(E)``, with ``C*`` left out when C = 1
(``-`` alone when C = -1), then ``+D`` or ``-D`` when D != 0, the whole written ``(...)/K`` when
K > 1.  C, D and K share no common factor; M is written with the base and exponent that give the
shortest text (smallest base among equally short ones); E is written in its shortest exact form,
decimal or ``A^B`` (smallest A among equally short forms).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

#: Values with more digits than this are written as expressions, never computed.
MAX_DIGITS = 1_000
#: At most this many of the base's powers move into C when that writes E shorter (Huge.plain).
_ABSORB = 64
#: ... and only for exponents of fewer digits than this (the search for a short form costs).
_ABSORB_DIGITS = 200
#: log2(10) * MAX_DIGITS, rounded up: a power with more bits than this is surely too large.
_MAX_BITS = 3_400
#: The most digits a part (C, D or K) of an expression may have: below the 4,300 digits Python
#: converts to text at all.
_TERM_DIGITS = 4_000
_TERM_BITS = 13_287  # log2(10) * _TERM_DIGITS


class TooLarge(ArithmeticError):
    """An exact result this representation can't hold (two different bases, an astronomical count)."""


@dataclass(frozen=True, eq=False)
class Huge:
    """The exact integer ``(c * base**exponent + d) / k`` with more than :data:`MAX_DIGITS` digits.

    Build one with :func:`power_value`, which returns a plain ``int`` whenever the value is small
    enough; a :class:`Huge` is always astronomically far from any number a scenario file can
    hold, so comparing it with one needs only its sign.
    """

    c: int
    base: int
    exponent: int
    d: int = 0
    k: int = 1

    @property
    def sign(self) -> int:
        """+1 or -1: the power term dominates everything else."""
        return 1 if self.c > 0 else -1

    # --- arithmetic with small integers -----------------------------------------------------------

    def scale(self, m: int, a: int) -> "Huge | int":
        """``m * self + a`` for integers ``m >= 1`` and ``a``."""
        if m == 0:
            return a
        return _make(self.c * m, self.base, self.exponent, self.d * m + a * self.k, self.k)

    def fixed_part(self) -> tuple[int, int]:
        """(d, k): the value is ``c*base^e/k + d/k``."""
        return self.d, self.k

    def __lt__(self, other: "Huge | int") -> bool:
        return compare(self, other) < 0

    def __le__(self, other: "Huge | int") -> bool:
        return compare(self, other) <= 0

    def __gt__(self, other: "Huge | int") -> bool:
        return compare(self, other) > 0

    def __ge__(self, other: "Huge | int") -> bool:
        return compare(self, other) >= 0

    # --- writing ----------------------------------------------------------------------------------

    def plain(self) -> str:
        """The exact expression, as JSON and reports write it.

        C is normally free of the base's powers, but where moving a few of them into C makes E
        short (two tokens doubled a googol times: ``2*2^(10^100)``, not ``2^(`` a 101-digit
        number ``)``), the shorter text is written (FORMAT item 14: E in its shortest form).
        """
        text = min(
            (len(t), j, t) for j, t in ((j, self._term(j)) for j in self._absorbable())
        )[2]
        if self.d > 0:
            text += f"+{self.d}"
        elif self.d < 0:
            text += f"-{-self.d}"
        return f"({text})/{self.k}" if self.k > 1 else text

    to_json = plain

    def _absorbable(self) -> range:
        """How many of the base's powers C may take from E when writing (only when E has no short form)."""
        if self.exponent >= 10**_ABSORB_DIGITS or _shortest_int(self.exponent) != str(self.exponent):
            return range(1)
        return range(min(_ABSORB, self.exponent - 1) + 1)

    def _term(self, j: int) -> str:
        """``C*M^(E)`` with ``j`` of the base's powers moved from E into C, then ``+D``/``-D``."""
        c = self.c * self.base**j
        base, exponent = _shortest_power(self.base, self.exponent - j)
        power = f"{base}^({_shortest_int(exponent)})"
        if c == 1:
            text = power
        elif c == -1:
            text = "-" + power
        else:
            text = f"{c}*{power}"
        return text

    def __str__(self) -> str:
        return self.plain()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Huge) and equal(self, other)

    def __hash__(self) -> int:
        return hash((self.base, self.c, self.d, self.k, self.exponent))


def compare(x: "Huge | int", y: "Huge | int") -> int:
    """-1, 0 or 1 for integers and :class:`Huge` values."""
    if isinstance(x, Huge) and isinstance(y, Huge):
        if equal(x, y):
            return 0
        if x.sign != y.sign:
            return x.sign
        raise TooLarge("ordering two different astronomically large values")
    if isinstance(x, Huge):
        return x.sign
    if isinstance(y, Huge):
        return -y.sign
    return (x > y) - (x < y)


def equal(x: "Huge | int", y: "Huge | int") -> bool:
    """Exact equality of integers and :class:`Huge` values (``check`` compares numerically)."""
    if not (isinstance(x, Huge) and isinstance(y, Huge)):
        return isinstance(x, Huge) == isinstance(y, Huge) and x == y
    if x.base != y.base:
        return False  # both bases are roots (no perfect powers), so the powers differ
    # (c1 b^e1 + d1) k2 == (c2 b^e2 + d2) k1  <=>  b^e (c1 k2 b^(e1-e) - c2 k1 b^(e2-e)) == d2 k1 - d1 k2
    low = min(x.exponent, y.exponent)
    gap = abs(x.exponent - y.exponent)
    if gap > _MAX_BITS:
        return False
    left = x.c * y.k * x.base ** (x.exponent - low) - y.c * x.k * y.base ** (y.exponent - low)
    return left == 0 and y.d * x.k == x.d * y.k


def _root(m: int) -> tuple[int, int]:
    """(r, e) with r**e == m and e as large as possible (m >= 2).

    Prime roots are taken while there is one (m = r^(p*q) is a p-th power of r^q), so the
    work is a few exact roots per prime up to log2(m), each refused cheaply when m is not
    a power (a multiplier composed over thousands of applications has thousands of bits)."""
    r, e = m, 1
    while True:
        for p in _primes_to(r.bit_length()):
            root = _exact_root(r, p)
            if root is not None:
                r, e = root, e * p
                break
        else:
            return r, e


def _primes_to(n: int) -> list[int]:
    """The primes up to ``n``."""
    sieve = bytearray([1]) * (n + 1)
    sieve[:2] = b"\x00" * min(2, n + 1)
    for i in range(2, math.isqrt(n) + 1):
        if sieve[i]:
            sieve[i * i :: i] = bytearray(len(range(i * i, n + 1, i)))
    return [i for i in range(2, n + 1) if sieve[i]]


def _exact_root(m: int, p: int) -> int | None:
    """The integer r >= 2 with r**p == m, if there is one."""
    bits = m.bit_length()
    if bits // p > 30:  # (the float estimate below is exact to well under 1 for roots of up to 31 bits)
        r = iroot(m, p)
    else:
        # Few bits in the root: its nearest candidate from the logarithm, checked exactly.
        shift = max(0, bits - 64)
        log2 = math.log2(m >> shift) + shift
        r = max(2, round(2 ** (log2 / p)))
        if pow(r, p, 1 << 64) != m & ((1 << 64) - 1):
            return None
    return r if r >= 2 and r**p == m else None


def iroot(n: int, e: int) -> int:
    """The integer part of the e-th root of n >= 0 (Newton's method on integers)."""
    if n < 2:
        return n
    x = 1 << ((n.bit_length() + e - 1) // e)
    while True:
        y = ((e - 1) * x + n // x ** (e - 1)) // e
        if y >= x:
            return x
        x = y


def _make(c: int, base: int, exponent: int, d: int, k: int) -> "Huge | int":
    """Normalise: base to its root, K > 0, C, D and K reduced, C free of the base's powers."""
    if c == 0:
        if d % k:
            raise TooLarge("a huge value that is not an integer")
        return d // k
    root, e = _root(base)
    base, exponent = root, exponent * e
    if k < 0:
        c, d, k = -c, -d, -k
    while True:
        g = math.gcd(math.gcd(c, d), k)
        c, d, k = c // g, d // g, k // g
        # (c*b^e + d)/k with k sharing a factor g of b: b^e/g = (b/g) * b^(e-1).
        g = math.gcd(base, k)
        if g == 1 or d % g or exponent == 0:
            break
        c, exponent, d, k = c * (base // g), exponent - 1, d // g, k // g
    while c % base == 0:
        c //= base
        exponent += 1
    if max(abs(c).bit_length(), abs(d).bit_length(), k.bit_length()) > _TERM_BITS:
        # Its parts are themselves too long to write (a multiplier composed over thousands of
        # applications): refused rather than written as an expression longer than any report.
        raise TooLarge(f"a value whose exact expression would need more than {_TERM_DIGITS:,} digits")
    # (exponent < _MAX_BITS first: a float of an exponent with hundreds of digits overflows)
    if exponent < _MAX_BITS and exponent * math.log2(base) + abs(c).bit_length() < _MAX_BITS:
        value: int = c * base**exponent + d  # exponent >= 0: an int (typeshed says Any for int ** int)
        if value % k:
            raise TooLarge("a value that is not an integer")
        value //= k
        if len(str(abs(value))) <= MAX_DIGITS:
            return value
        # Just over the limit: still written as an expression (never more than a few thousand bits).
    return Huge(c, base, exponent, d, k)


def power_value(c: int, base: int, exponent: int, d: int = 0, k: int = 1) -> "Huge | int":
    """The exact value ``(c * base**exponent + d) / k``: an ``int`` if it has at most
    :data:`MAX_DIGITS` digits, else a :class:`Huge` (never computed)."""
    if base < 2:
        raise ValueError("the base of a power is at least 2")
    return _make(c, base, exponent, d, k)


@lru_cache(maxsize=4096)
def _shortest_int(n: int) -> str:
    """``n`` in decimal or as ``A^B``, whichever is shorter (smallest A among equally short)."""
    best = (len(str(n)), n, str(n))
    if n < 4:
        return best[2]
    root, most = _perfect_power(n)
    # n = A^B exactly for the B that divide ``most`` (A = root^(most/B)), and for no other B
    for b in range(2, most + 1):
        if most % b == 0:
            a = root ** (most // b)
            text = f"{a}^{b}"
            best = min(best, (len(text), a, text))
    return best[2]


#: Primes that, dividing ``n``, bound which powers ``n`` can be (:func:`_perfect_power`).
_SMALL_PRIMES = (2, 3, 5, 7, 11, 13)


def _perfect_power(n: int) -> tuple[int, int]:
    """``(A, B)`` with ``n = A^B`` and B as large as can be (B = 1 when ``n`` is no power), ``n >= 4``.

    n = A^B makes B divide the exponent of every prime in n: the exponents of the small primes
    that divide n narrow B to the primes of their gcd; only those (or, when no small prime
    divides n, every prime up to n's bit length) are tried, each as often as it divides B.
    """
    g, m = 0, n
    for q in _SMALL_PRIMES:
        v = 0
        while m % q == 0:
            m //= q
            v += 1
        if v:
            g = math.gcd(g, v)
            if g == 1:
                return n, 1
    limit = g or n.bit_length()
    root, most = n, 1
    for p in range(2, limit + 1):
        if (g and limit % p) or not _is_prime(p):
            continue
        while True:
            r = iroot(root, p)
            if r < 2 or r**p != root:
                break
            root, most = r, most * p
    return root, most


def _is_prime(p: int) -> bool:
    return p >= 2 and all(p % d for d in range(2, math.isqrt(p) + 1))


def _shortest_power(root: int, exponent: int) -> tuple[int, int]:
    """Among ``(root**j)^(exponent/j)``, the base and exponent whose text is shortest."""
    best = (root, exponent)
    best_len = len(str(root)) + len(_shortest_int(exponent))
    j = 2
    while j <= 64 and root**j < 10**12:
        if exponent % j == 0:
            length = len(str(root**j)) + len(_shortest_int(exponent // j))
            if length < best_len:
                best, best_len = (root**j, exponent // j), length
        j += 1
    return best


# --- reading the written form back (``check`` compares numerically) ----------------------------------

_INT = r"-?\d+"
_EXP = r"\d+(?:\^\d+)?"
_POWER = re.compile(
    r"^(?:\((?P<inner>.+)\)/(?P<k>\d+)|(?P<bare>.+))$"
)
_TERM = re.compile(rf"^(?:(?P<c>{_INT})\*|(?P<neg>-))?(?P<base>\d+)\^\((?P<exp>{_EXP})\)(?P<d>[+-]\d+)?$")


def parse(text: str) -> "Huge | int | None":
    """The value of a written expression (``"3*2^(10^100)"``), or None if ``text`` is not one."""
    match = _POWER.match(text)
    if not match:
        return None
    inner = match["inner"] or match["bare"]
    k = int(match["k"]) if match["k"] else 1
    term = _TERM.match(inner)
    if not term or k < 1:
        return None
    c = -1 if term["neg"] else int(term["c"]) if term["c"] else 1
    base = int(term["base"])
    parts = term["exp"].split("^")
    if len(parts) == 2:
        a, b = int(parts[0]), int(parts[1])
        if b.bit_length() > 64 or (a > 1 and b * a.bit_length() > 1_000_000):
            return None
        exponent = a**b
    else:
        exponent = int(parts[0])
    if base < 2 or c == 0:
        return None
    return power_value(c, base, exponent, int(term["d"] or 0), k)
