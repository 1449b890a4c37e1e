"""Amounts that depend on other values (docs/FORMAT.md "Format 3", item 28), in closed form.

A format 3 step may add an amount written as a string, ``add = { mana = "power" }``: an integer
linear combination of plain values plus a constant.  One application of such a step, and so one
iteration of the loop, then moves the plain values by an exact integer affine map
``v -> A v + b`` (:class:`AffineMap`); values no longer move independently of one another, as
they do in format 2 (``rulesets/dynamics.py``).  This module answers, without iterating once per
iteration, the questions the engine asks of such a map ``M`` and a starting state ``s``:

- the value of a linear functional ``L`` of ``M^n(s)`` for any ``n`` (:func:`value_at`), exact;
  a value over :data:`~.bignum.MAX_DIGITS` digits as an expression (:class:`HugeSum` or, when it
  has one power term, bignum's :class:`~.bignum.Huge`);
- the first ``n >= start`` at which ``L(M^n(s))`` reaches a bound (:func:`first_reach`): a goal,
  an end, a floor, a failed requirement;
- the first ``k >= 1`` with ``M^k(s) = s`` (:func:`first_repeat`).

How.  The sequence ``y_n = L(M^n(s))`` satisfies a linear recurrence whose minimal polynomial
``mu`` (found exactly from ``2*(dim+1)`` terms by Berlekamp-Massey over the rationals) divides the
characteristic polynomial of ``M``, so it is monic with integer coefficients.  Write
``mu = x^t * mu'`` with ``mu'(0) != 0``.

- *Polynomial regime*: ``mu'`` is a product of cyclotomic polynomials (every growth rate is a root
  of unity: a unipotent linear part, such as Selvala's mana after n untaps, or a toggle
  ``x -> 1 - x``).  With ``r`` the least common multiple of their orders, ``y_(t + j + q*r)`` is a
  polynomial in ``q`` for each ``0 <= j < r``: it is interpolated exactly (Newton's forward
  differences), its value at any ``q`` is exact, and the first integer where it meets a bound comes
  from its real roots, isolated by Sturm sequences over integer intervals.
- *Exponential regime* (otherwise): the first ``n`` is found by doubling then bisection, where the
  sequence is monotone from some point; monotonicity is established from the map (a sign vector
  ``S`` with ``S A S >= 0`` entrywise and ``S (M^(k+1)(s) - M^k(s)) >= 0``: every later increment
  keeps its sign); if it can't be, :class:`NotMonotone`.  A value too large to write out is the
  exact sum ``sum_i P_i(n) * lambda_i^n`` over the integer roots of ``mu`` (when they all are
  integers; otherwise :class:`LinearLimit`).

Nothing here is a float or a guess: every answer is exact or an explicit :class:`LinearLimit`.
This module imports only the standard library and :mod:`.bignum`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Iterator, Mapping, Sequence, Union

from . import bignum
from .bignum import MAX_DIGITS, Huge, TooLarge, power_value

__all__ = [
    "AmountError", "LinearLimit", "NotMonotone", "Amount", "parse_amount", "AffineMap", "Functional",
    "HugeSum", "Value", "value_at", "state_at", "first_reach", "first_repeat", "compare", "render",
    "MAX_AMOUNT_CHARS", "MAX_INT_DIGITS", "MAX_TERMS",
]

#: The longest amount string accepted.
MAX_AMOUNT_CHARS = 1_000
#: The most digits an integer in an amount may have (the loader's limit for plain integers is 30).
MAX_INT_DIGITS = 30
#: The most terms an amount may have.
MAX_TERMS = 64
#: The most bits an entry of a matrix power may have before the engine refuses (LinearLimit).
MAX_BITS = 1 << 17


class AmountError(ValueError):
    """An amount string that does not follow item 28's grammar; the message says what is wrong
    (the loader prefixes the file and the key)."""


class LinearLimit(TooLarge):
    """The exact answer is outside what the closed form can settle or write (the message says why)."""


class NotMonotone(LinearLimit):
    """The first iteration at which a bound holds can't be found exactly: the value's growth is
    neither polynomial nor monotone from a point the engine can establish (FORMAT item 28)."""

    def __init__(self, detail: str = "") -> None:
        super().__init__("the engine cannot settle this amount in closed form (not monotone)")
        self.detail = detail


# --- amounts: the grammar ------------------------------------------------------------------------

_TOKEN = re.compile(r" *(?:(?P<int>[0-9]+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>[-+*])|(?P<bad>.))", re.DOTALL)


@dataclass(frozen=True)
class Amount:
    """``sum(c * value) + constant``: the coefficients in order of first appearance, none zero."""

    coefficients: tuple[tuple[str, int], ...]
    constant: int = 0

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.coefficients)

    def evaluate(self, values: Mapping[str, int]) -> int:
        """The amount with the values given (every name must have one)."""
        return self.constant + sum(c * values[name] for name, c in self.coefficients)

    def __str__(self) -> str:
        parts: list[str] = []
        for name, c in self.coefficients:
            mag = abs(c)
            text = name if mag == 1 else f"{mag}*{name}"
            parts.append(("- " if c < 0 else "+ ") + text)
        if self.constant or not parts:
            parts.append(("- " if self.constant < 0 else "+ ") + str(abs(self.constant)))
        out = " ".join(parts)
        return out[2:] if out.startswith("+ ") else "-" + out[2:]


def _describe(token: str) -> str:
    return "the end of the amount" if not token else f'"{token}"'


def parse_amount(text: str, names: Iterable[str] | None = None) -> Amount:
    """Read an amount: ``expr := ["-"] term (("+" | "-") term)*``, ``term := INT "*" NAME | NAME | INT``
    (decimal integers; spaces between tokens).  A name may repeat: its coefficients add.

    With ``names`` (the file's plain integer values), every name must be one of them.  Raises
    :class:`AmountError` with a message saying what is wrong.
    """
    if not isinstance(text, str):
        raise AmountError("an amount must be an integer or a string")
    if len(text) > MAX_AMOUNT_CHARS:
        raise AmountError(f"is longer than {MAX_AMOUNT_CHARS:,} characters")
    tokens: list[tuple[str, str, int]] = []  # (kind, text, 1-based column)
    pos = 0
    while pos < len(text):
        if text[pos:].strip(" ") == "":
            break
        match = _TOKEN.match(text, pos)
        assert match is not None  # (?P<bad>.) matches any character but a newline
        kind = match.lastgroup or "bad"
        token = match.group(kind)
        column = match.start(kind) + 1
        if kind == "bad":
            shown = f'"{token}"' if token.isprintable() else repr(token)
            raise AmountError(
                f'has {shown} at character {column}: an amount is integers and value names joined by "+", "-" and "*" '
                '(e.g. "2*power + 1")'
            )
        if kind == "int" and len(token) > MAX_INT_DIGITS:
            raise AmountError(f"has an integer of more than {MAX_INT_DIGITS} digits at character {column}")
        tokens.append((kind, token, column))
        pos = match.end()
    if not tokens:
        raise AmountError('is empty: write an integer combination of values, e.g. "power" or "2*x + 1"')
    coefficients: dict[str, int] = {}
    constant = 0
    i = 0
    sign = 1
    terms = 0

    def at(i: int) -> tuple[str, str, int]:
        return tokens[i] if i < len(tokens) else ("end", "", len(text) + 1)

    if at(0)[:2] == ("op", "-"):
        sign, i = -1, 1
    while True:
        kind, token, column = at(i)
        if kind == "int":
            nxt = at(i + 1)
            if nxt[:2] == ("op", "*"):
                after = at(i + 2)
                if after[0] != "name":
                    raise AmountError(f'expects a value name after "*" at character {nxt[2]}, not {_describe(after[1])}')
                coefficients[after[1]] = coefficients.get(after[1], 0) + sign * int(token)
                i += 3
            else:
                constant += sign * int(token)
                i += 1
        elif kind == "name":
            coefficients[token] = coefficients.get(token, 0) + sign
            i += 1
        else:
            raise AmountError(f"expects an integer or a value name at character {column}, not {_describe(token)}")
        terms += 1
        if terms > MAX_TERMS:
            raise AmountError(f"has more than {MAX_TERMS} terms")
        kind, token, column = at(i)
        if kind == "end":
            break
        if kind == "op" and token in "+-":
            sign = 1 if token == "+" else -1
            i += 1
            continue
        raise AmountError(f'expects "+" or "-" between terms at character {column}, not {_describe(token)}')
    if names is not None:
        known = set(names)
        unknown = [name for name in coefficients if name not in known]
        if unknown:
            listed = ", ".join(sorted(known)[:20]) + (", ..." if len(known) > 20 else "") if known else "none"
            raise AmountError(f'names "{unknown[0]}", which is not a plain integer value of the file (those are: {listed})')
    return Amount(tuple((n, c) for n, c in coefficients.items() if c != 0), constant)


# --- exact affine maps over named values -------------------------------------------------------------

Matrix = tuple[tuple[int, ...], ...]


def _matmul(a: Matrix, b: Matrix) -> Matrix:
    cols = list(zip(*b))
    return tuple(tuple(sum(x * y for x, y in zip(row, col)) for col in cols) for row in a)


def _unit(n: int) -> Matrix:
    return tuple(tuple(int(i == j) for j in range(n)) for i in range(n))


def _too_big(m: Matrix) -> bool:
    return any(abs(x).bit_length() > MAX_BITS for row in m for x in row)


@dataclass(frozen=True)
class AffineMap:
    """``v -> A v + b`` over the named values ``names`` (exact integers)."""

    names: tuple[str, ...]
    linear: Matrix
    shift: tuple[int, ...]

    @classmethod
    def identity(cls, names: Sequence[str]) -> "AffineMap":
        names = tuple(names)
        return cls(names, _unit(len(names)), (0,) * len(names))

    @classmethod
    def step(
        cls,
        names: Sequence[str],
        mul: Mapping[str, int] | None = None,
        add: Mapping[str, Union[int, Amount]] | None = None,
        set: Mapping[str, int] | None = None,
    ) -> "AffineMap":
        """One application of a step (FORMAT items 2 and 28): every amount is evaluated on the
        values at the start of the application, simultaneously; then ``mul``, ``add``, ``set``."""
        names = tuple(names)
        index = {n: i for i, n in enumerate(names)}
        mul, add, set = mul or {}, add or {}, set or {}
        rows: list[list[int]] = [list(r) for r in _unit(len(names))]
        shift = [0] * len(names)
        for name, m in mul.items():
            rows[index[name]][index[name]] = m
        for name, amount in add.items():
            i = index[name]
            if isinstance(amount, Amount):
                for other, c in amount.coefficients:
                    rows[i][index[other]] += c
                shift[i] += amount.constant
            else:
                shift[i] += amount
        for name, value in set.items():
            i = index[name]
            rows[i] = [0] * len(names)
            shift[i] = value
        return cls(names, tuple(tuple(r) for r in rows), tuple(shift))

    @property
    def dim(self) -> int:
        return len(self.names)

    def augmented(self) -> Matrix:
        """``[[A, b], [0, 1]]``."""
        rows = [tuple(r) + (b,) for r, b in zip(self.linear, self.shift)]
        rows.append((0,) * self.dim + (1,))
        return tuple(rows)

    @classmethod
    def from_augmented(cls, names: tuple[str, ...], m: Matrix) -> "AffineMap":
        d = len(names)
        return cls(names, tuple(tuple(row[:d]) for row in m[:d]), tuple(row[d] for row in m[:d]))

    def then(self, other: "AffineMap") -> "AffineMap":
        """This map followed by ``other`` (same names)."""
        if other.names != self.names:
            raise ValueError("composing maps over different values")
        return AffineMap.from_augmented(self.names, _matmul(other.augmented(), self.augmented()))

    def apply(self, state: Sequence[int]) -> tuple[int, ...]:
        return tuple(sum(a * x for a, x in zip(row, state)) + b for row, b in zip(self.linear, self.shift))

    def apply_named(self, values: Mapping[str, int]) -> dict[str, int]:
        out = self.apply([values[n] for n in self.names])
        return dict(zip(self.names, out))

    @property
    def unipotent(self) -> bool:
        """Whether ``A - I`` is nilpotent (every value grows at most polynomially)."""
        d = self.dim
        n = tuple(tuple(x - (i == j) for j, x in enumerate(row)) for i, row in enumerate(self.linear))
        p = n
        for _ in range(d):
            if not any(any(row) for row in p):
                return True
            p = _matmul(p, n)
        return not any(any(row) for row in p)

    def power(self, n: int) -> "AffineMap":
        """This map applied ``n`` times, exact.  Unipotent: the binomial sum
        ``sum_(k<=dim) C(n, k) N^k`` (polynomial entries, any ``n``); otherwise repeated squaring,
        refused (:class:`LinearLimit`) when an entry would exceed :data:`MAX_BITS` bits."""
        if n < 0:
            raise ValueError("a negative number of applications")
        m = self.augmented()
        size = len(m)
        if self.unipotent:
            nil = tuple(tuple(x - (i == j) for j, x in enumerate(row)) for i, row in enumerate(m))
            out = [list(r) for r in _unit(size)]
            term = _unit(size)
            for k in range(1, size + 1):
                term = _matmul(term, nil)
                if not any(any(row) for row in term):
                    break
                c = math.comb(n, k)
                for i in range(size):
                    for j in range(size):
                        out[i][j] += c * term[i][j]
            result = tuple(tuple(r) for r in out)
            if _too_big(result):
                raise LinearLimit("a value too large to compute exactly")
            return AffineMap.from_augmented(self.names, result)
        result = _unit(size)
        base = m
        while n:
            if n & 1:
                result = _matmul(result, base)
                if _too_big(result):
                    raise LinearLimit("a value that grows too large to compute exactly")
            n >>= 1
            if n:
                base = _matmul(base, base)
                if _too_big(base):
                    raise LinearLimit("a value that grows too large to compute exactly")
        return AffineMap.from_augmented(self.names, result)

    def functional(self, name: str) -> "Functional":
        """The value ``name`` after this map, as an affine functional of the values before it."""
        i = self.names.index(name)
        return Functional(self.linear[i], self.shift[i])


@dataclass(frozen=True)
class Functional:
    """``v -> sum(weights * v) + offset``: the quantity a bound is checked on."""

    weights: tuple[int, ...]
    offset: int = 0

    @classmethod
    def of(cls, names: Sequence[str], name: str) -> "Functional":
        """The value ``name`` itself."""
        return cls(tuple(int(n == name) for n in names))

    def __call__(self, state: Sequence[int]) -> int:
        return sum(w * x for w, x in zip(self.weights, state)) + self.offset


# --- polynomials (coefficient lists, lowest degree first) ---------------------------------------------

Poly = list[Fraction]


def _trim(p: Sequence[Fraction]) -> Poly:
    out = list(p)
    while out and out[-1] == 0:
        out.pop()
    return out


def _peval(p: Sequence[Fraction | int], x: Fraction | int) -> Fraction:
    acc = Fraction(0)
    for c in reversed(p):
        acc = acc * x + c
    return acc


def _pdivmod(a: Sequence[Fraction], b: Sequence[Fraction]) -> tuple[Poly, Poly]:
    a, b = _trim(a), _trim(b)
    if not b:
        raise ZeroDivisionError("polynomial division by zero")
    q = [Fraction(0)] * max(0, len(a) - len(b) + 1)
    r = list(a)
    while len(r) >= len(b) and r:
        shift = len(r) - len(b)
        c = r[-1] / b[-1]
        q[shift] = c
        for i, x in enumerate(b):
            r[i + shift] -= c * x
        r = _trim(r)
    return q, r


def _pgcd(a: Sequence[Fraction], b: Sequence[Fraction]) -> Poly:
    a, b = _trim(a), _trim(b)
    while b:
        a, b = b, _pdivmod(a, b)[1]
    return [c / a[-1] for c in a] if a else a


def _deriv(p: Sequence[Fraction]) -> Poly:
    return [i * c for i, c in enumerate(p)][1:]


def _sturm(p: Poly) -> list[Poly]:
    chain = [p, _deriv(p)]
    while True:
        r = _pdivmod(chain[-2], chain[-1])[1]
        if not r:
            return chain
        chain.append([-c for c in r])


def _variations(chain: Sequence[Sequence[int]], x: int) -> int:
    count, last = 0, 0
    for p in chain:
        acc = 0
        for c in reversed(p):
            acc = acc * x + c
        if acc:
            s = 1 if acc > 0 else -1
            if last and s != last:
                count += 1
            last = s
    return count


def _sign(x: Fraction | int) -> int:
    return (x > 0) - (x < 0)


def _integral(p: Sequence[Fraction]) -> list[int]:
    """``p`` times the positive least common multiple of its denominators (same signs everywhere)."""
    k = math.lcm(*(c.denominator for c in p))
    return [int(c * k) for c in p]


def _root_ceilings(q: Sequence[Fraction], above: int) -> Iterator[int]:
    """``ceil(x)`` for every real root ``x > above`` of ``q`` (nonconstant), ascending, without
    repeats: the roots isolated by a Sturm sequence of the square-free part over integer intervals
    ``(a, b]`` (with a square-free ``p``, ``V(a) - V(b)`` counts the roots in ``(a, b]``), found
    by doubling from ``above`` and then halving, so that the first roots come first and cheaply."""
    q = _trim(q)
    p = _pdivmod(q, _pgcd(q, _deriv(q)))[0]
    chain = [_integral(c) for c in _sturm(p)]
    bound = 1 + math.ceil(max(abs(c / p[-1]) for c in p[:-1])) if len(p) > 1 else 1
    top = max(above, bound) + 1
    a, va = above, _variations(chain, above)
    width = 1
    while a < top:
        b = min(top, a + width)
        vb = _variations(chain, b)
        if va - vb > 0:
            # the roots in (a, b], leftmost first
            stack = [(a, b, va, vb)]
            while stack:
                lo, hi, vlo, vhi = stack.pop()
                if vlo - vhi <= 0:
                    continue
                if hi - lo == 1:
                    yield hi
                    continue
                mid = (lo + hi) // 2
                vm = _variations(chain, mid)
                stack.append((mid, hi, vm, vhi))
                stack.append((lo, mid, vlo, vm))
        a, va = b, vb
        width *= 2


def _first_nonneg(q: Sequence[Fraction], lo: int) -> int | None:
    """The smallest integer ``t >= lo`` with ``q(t) >= 0``, or None.  If ``t > lo`` then
    ``q(t-1) < 0 <= q(t)``: a root lies in ``(t-1, t]``, so ``t`` is a root's ceiling."""
    q = _trim(q)
    if not q:
        return lo
    if _peval(q, lo) >= 0:
        return lo
    if len(q) == 1:
        return None
    for t in _root_ceilings(q, lo):
        if _peval(q, t) >= 0:
            return t
    return None


def _interpolate(values: Sequence[int]) -> list[int]:
    """Newton's forward differences of ``values`` at 0, 1, ...: ``P(q) = sum(d[i] * C(q, i))``."""
    diffs: list[int] = []
    row = list(values)
    while row:
        diffs.append(row[0])
        row = [b - a for a, b in zip(row, row[1:])]
    while len(diffs) > 1 and diffs[-1] == 0:
        diffs.pop()
    return diffs


def _newton_poly(diffs: Sequence[int]) -> Poly:
    """Coefficients of ``sum(d[i] * C(q, i))`` in powers of ``q``."""
    out: Poly = [Fraction(0)] * len(diffs)
    basis: Poly = [Fraction(1)]  # q (q-1) ... (q-i+1) / i!
    for i, d in enumerate(diffs):
        for k, c in enumerate(basis):
            out[k] += d * c
        basis = [Fraction(0)] + basis  # times q
        for k in range(len(basis) - 1):
            basis[k] -= i * basis[k + 1]  # minus i times the previous
        basis = [c / (i + 1) for c in basis]
    return _trim(out) or [Fraction(0)]


def _newton_value(diffs: Sequence[int], q: int) -> int:
    return sum(d * math.comb(q, i) for i, d in enumerate(diffs))


# --- cyclotomic polynomials and the minimal recurrence -------------------------------------------------


@lru_cache(maxsize=None)
def _cyclotomic(r: int) -> tuple[int, ...]:
    p: Poly = [Fraction(-1)] + [Fraction(0)] * (r - 1) + [Fraction(1)]  # x^r - 1
    for d in range(1, r):
        if r % d == 0:
            p = _pdivmod(p, [Fraction(c) for c in _cyclotomic(d)])[0]
    return tuple(int(c) for c in p)


def _berlekamp_massey(seq: Sequence[int]) -> list[int]:
    """The monic minimal polynomial (lowest degree first) of the shortest linear recurrence that
    generates ``seq`` (exact, over the rationals; integers for the sequences of integer maps)."""
    c: Poly = [Fraction(1)]
    b: Poly = [Fraction(1)]
    length, m, bd = 0, 1, Fraction(1)
    for n in range(len(seq)):
        d = Fraction(seq[n]) + sum((c[i] * seq[n - i] for i in range(1, length + 1) if i < len(c)), Fraction(0))
        if d == 0:
            m += 1
            continue
        coef = d / bd
        new = list(c) + [Fraction(0)] * max(0, len(b) + m - len(c))
        for i, x in enumerate(b):
            new[i + m] -= coef * x
        if 2 * length <= n:
            b, bd, length, m = c, d, n + 1 - length, 1
        else:
            m += 1
        c = new
    c = c + [Fraction(0)] * (length + 1 - len(c))
    mu = [c[length - i] for i in range(length + 1)]
    if any(x.denominator != 1 for x in mu):  # pragma: no cover - an integer map's recurrence is integral
        raise LinearLimit("a recurrence with fractional coefficients")
    return [int(x) for x in mu]


@dataclass(frozen=True)
class _Series:
    """The integer sequence ``y_n = L(M^n(s))`` and its regime."""

    terms: tuple[int, ...]
    transient: int  # t: the multiplicity of the root 0 of mu
    period: int | None  # r in the polynomial regime, None in the exponential one
    diffs: tuple[tuple[int, ...], ...]  # per residue j < r: Newton's differences in q
    rest: tuple[int, ...]  # mu' (lowest degree first)


def _orbit(f: AffineMap, state: Sequence[int], count: int) -> list[tuple[int, ...]]:
    out = [tuple(state)]
    for _ in range(count - 1):
        out.append(f.apply(out[-1]))
    return out


@lru_cache(maxsize=512)
def period(f: AffineMap, state: tuple[int, ...], fn: Functional) -> int:
    """The period of the residue classes of ``fn``'s values under ``f`` from ``state`` (1 when none)."""
    return _series(f, state, fn).period or 1


def _series(f: AffineMap, state: tuple[int, ...], fn: Functional) -> _Series:
    size = f.dim + 1
    terms = [fn(v) for v in _orbit(f, state, 2 * size)]
    mu = _berlekamp_massey(terms)
    t = 0
    while t < len(mu) - 1 and mu[t] == 0:
        t += 1
    full = tuple(mu[t:])
    rest = [Fraction(c) for c in full]
    orders: list[int] = []
    deg = len(rest) - 1
    r = 1
    while deg > 0 and r <= 2 * deg * deg + 2:
        phi = [Fraction(c) for c in _cyclotomic(r)]
        if len(phi) - 1 <= deg:
            q, rem = _pdivmod(rest, phi)
            if not rem:
                rest, deg = q, len(q) - 1
                orders.append(r)
                continue
        r += 1
    if deg > 0:
        return _Series(tuple(terms), t, None, (), full)
    period = math.lcm(*orders) if orders else 1
    samples = max(1, len(mu) - 1 - t)
    need = t + period * samples
    if need > len(terms):
        extra = _orbit(f, f.power(len(terms)).apply(state), need - len(terms))
        terms += [fn(v) for v in extra]
    diffs = tuple(tuple(_interpolate([terms[t + j + q * period] for q in range(samples)])) for j in range(period))
    return _Series(tuple(terms[: max(need, 2 * size)]), t, period, diffs, full)


# --- values too large to write: sums of item-14 terms ---------------------------------------------------


def _log2(base: int, exponent: int, c: int) -> Decimal:
    """log2(|c| * base^exponent), to enough digits to order astronomically large powers."""
    ctx = Context(prec=max(40, len(str(exponent)) + 30))
    two = ctx.ln(Decimal(2))
    return ctx.add(ctx.multiply(Decimal(exponent), ctx.divide(ctx.ln(Decimal(base)), two)), ctx.divide(ctx.ln(Decimal(abs(c))), two))


@dataclass(frozen=True, eq=False)
class HugeSum:
    """``(sum_i c_i * base_i^e_i + d) / k`` with more than :data:`MAX_DIGITS` digits and two or
    more power terms, in decreasing order (FORMAT item 28); one term is bignum's :class:`Huge`."""

    terms: tuple[tuple[int, int, int], ...]
    d: int = 0
    k: int = 1

    @property
    def sign(self) -> int:
        return 1 if self.terms[0][0] > 0 else -1

    def plain(self) -> str:
        parts: list[str] = []
        for i, (c, base, exponent) in enumerate(self.terms):
            text = Huge(abs(c), base, exponent).plain()  # item 14's form of one term
            parts.append(("-" if c < 0 else "+" if i else "") + text)
        if self.d:
            parts.append(f"{'+' if self.d > 0 else '-'}{abs(self.d)}")
        text = "".join(parts)
        return f"({text})/{self.k}" if self.k > 1 else text

    to_json = plain

    def __str__(self) -> str:
        return self.plain()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HugeSum) and (self.terms, self.d, self.k) == (other.terms, other.d, other.k)

    def __hash__(self) -> int:
        return hash((self.terms, self.d, self.k))

    def scale(self, m: int, a: int) -> "Value":
        """``m * self + a``, exact (an ``int`` again only if the powers cancel, as with ``m = 0``)."""
        return _expression([(Fraction(m * c, self.k), b, e) for c, b, e in self.terms], Fraction(m * self.d, self.k) + a)

    def __lt__(self, other: "Value") -> bool:
        return compare(self, other) < 0

    def __le__(self, other: "Value") -> bool:
        return compare(self, other) <= 0

    def __gt__(self, other: "Value") -> bool:
        return compare(self, other) > 0

    def __ge__(self, other: "Value") -> bool:
        return compare(self, other) >= 0


Value = Union[int, Huge, HugeSum]
"""An exact value: an integer, or an expression when it has more than 1,000 digits."""


def compare(x: Value, y: Value) -> int:
    """-1, 0 or 1.  An expression is astronomically far from any integer, so its sign decides."""
    if isinstance(x, HugeSum) or isinstance(y, HugeSum):
        if x == y:
            return 0
        if isinstance(x, HugeSum) and isinstance(y, int):
            return x.sign
        if isinstance(y, HugeSum) and isinstance(x, int):
            return -y.sign
        sx, sy = _value_sign(x), _value_sign(y)
        if sx != sy:
            return 1 if sx > sy else -1
        raise LinearLimit("ordering two different astronomically large values")
    return bignum.compare(x, y)


def _value_sign(x: Value) -> int:
    if isinstance(x, (Huge, HugeSum)):
        return x.sign
    return _sign(x)


def render(x: Value) -> Union[int, str]:
    """As JSON writes it: the integer, or the exact expression."""
    return x if isinstance(x, int) else x.plain()


def _expression(terms: Sequence[tuple[Fraction, int, int]], constant: Fraction) -> Value:
    """The exact value ``sum(c * base^e) + constant`` (c rational, |base| >= 2 written as sign in c,
    exponent >= 0): an ``int`` when it has at most MAX_DIGITS digits, else an expression."""
    merged: dict[tuple[int, int], Fraction] = {}
    for c, base, e in terms:
        if c == 0:
            continue
        root, power = bignum._root(base)
        merged[(root, e * power)] = merged.get((root, e * power), Fraction(0)) + c
    terms2 = [(c, b, e) for (b, e), c in merged.items() if c != 0]
    k = math.lcm(constant.denominator, *(c.denominator for c, _, _ in terms2)) if terms2 else constant.denominator
    # |b| >= 2, so e >= 3,400 is already too large (and e may be too large for a float: 10^400).
    if all(e < 3_400 and e * math.log2(b) < 3_400 for _, b, e in terms2):
        total = constant + sum((c * b**e for c, b, e in terms2), Fraction(0))
        if total.denominator != 1:  # pragma: no cover - the sequences are integers
            raise LinearLimit("a value that is not an integer")
        value = int(total)
        if len(str(abs(value))) <= MAX_DIGITS:
            return value
    if len(terms2) == 1:
        c, b, e = terms2[0]
        return power_value(int(c * k), b, e, int(constant * k), k)
    ints: list[tuple[int, int, int]] = []
    for c, b, e in terms2:
        ci = int(c * k)
        while ci % b == 0:
            ci //= b
            e += 1
        ints.append((ci, b, e))
    d = int(constant * k)
    g = math.gcd(k, d, *(c for c, _, _ in ints))
    ints = [(c // g, b, e) for c, b, e in ints]
    d, k = d // g, k // g
    ints.sort(key=lambda t: _log2(t[1], t[2], 1), reverse=True)
    top, second = _log2(ints[0][1], ints[0][2], ints[0][0]), _log2(ints[1][1], ints[1][2], ints[1][0])
    if top - second < 64:
        raise LinearLimit("a sum of powers too close to one another to order exactly")
    if max(abs(c).bit_length() for c, _, _ in ints) > bignum._TERM_BITS or max(abs(d), k).bit_length() > bignum._TERM_BITS:
        raise LinearLimit("a value whose exact expression would be too long to write")
    return HugeSum(tuple(ints), d, k)


# --- the questions ------------------------------------------------------------------------------------


def _check(f: AffineMap, state: Sequence[int], fn: Functional) -> tuple[int, ...]:
    state = tuple(state)
    if len(state) != f.dim or len(fn.weights) != f.dim:
        raise ValueError("a state or functional of another size than the map")
    return state


def value_at(f: AffineMap, state: Sequence[int], fn: Functional, n: int) -> Value:
    """``fn(f^n(state))``, exact, for any ``n >= 0`` (a googol and beyond where the result can be written)."""
    if n < 0:
        raise ValueError("a negative number of iterations")
    return _value_at(f, _check(f, state, fn), fn, n)


@lru_cache(maxsize=2048)
def _value_at(f: AffineMap, state: tuple[int, ...], fn: Functional, n: int) -> Value:
    ser = _series(f, state, fn)
    if n < len(ser.terms):
        return _small(ser.terms[n])
    if ser.period is not None:
        q, j = divmod(n - ser.transient, ser.period)
        diffs = ser.diffs[j]
        if len(diffs) * max(1, q.bit_length()) < 3_000:
            return _small(_newton_value(diffs, q))
        # Astronomically many iterations: a polynomial in n, written with n's powers.
        poly = _compose_shift(_newton_poly(diffs), Fraction(1, ser.period), Fraction(-(ser.transient + j), ser.period))
        root, e = bignum._root(n) if n >= 2 else (n, 1)
        if root < 2:
            raise LinearLimit("a value too large to write")  # pragma: no cover - n >= 2 here
        return _expression([(c, root, e * i) for i, c in enumerate(poly) if i], poly[0])
    return _exponential_value(f, state, fn, ser, n)


def _small(v: int) -> Value:
    if len(str(abs(v))) > MAX_DIGITS:  # pragma: no cover - guarded by the callers' sizes
        raise LinearLimit("a value over 1,000 digits with no exact expression")
    return v


def _compose_shift(p: Poly, a: Fraction, b: Fraction) -> Poly:
    """``p(a*n + b)`` in powers of ``n``."""
    out: Poly = [Fraction(0)]
    for c in reversed(p):
        # out = out * (a n + b) + c
        nxt = [Fraction(0)] * (len(out) + 1)
        for i, x in enumerate(out):
            nxt[i] += x * b
            nxt[i + 1] += x * a
        nxt[0] += c
        out = _trim(nxt) or [Fraction(0)]
    return out


def _integer_roots(p: Sequence[int]) -> list[tuple[int, int]] | None:
    """The roots of the monic integer polynomial ``p`` with multiplicities, if they are all integers."""
    poly = [Fraction(c) for c in p]
    found: list[tuple[int, int]] = []
    if len(poly) <= 1:
        return found
    bound = 1 + max(abs(int(c)) for c in poly[:-1])
    for t in _root_ceilings(poly, -bound - 1):
        if _peval(poly, t) != 0:
            continue
        mult = 0
        while True:
            q, rem = _pdivmod(poly, [Fraction(-t), Fraction(1)])
            if rem:
                break
            poly, mult = q, mult + 1
        found.append((t, mult))
    return found if len(poly) == 1 else None


def _exponential_value(f: AffineMap, state: tuple[int, ...], fn: Functional, ser: _Series, n: int) -> Value:
    try:
        v = fn(f.power(n).apply(state))
        if len(str(abs(v))) <= MAX_DIGITS:
            return v
    except LinearLimit:
        pass
    roots = _integer_roots(ser.rest)
    if roots is None:
        raise LinearLimit("a value over 1,000 digits that grows at a rate which is not an integer: it has no exact expression")
    t = ser.transient
    # y_(t+m) = sum over roots lambda, j < mult: c * m^j * lambda^m
    basis = [(lam, j) for lam, mult in roots for j in range(mult)]
    size = len(basis)
    rows = [[Fraction(m**j * lam**m) for lam, j in basis] + [Fraction(ser.terms[t + m])] for m in range(size)]
    coef = _solve(rows)
    m = n - t
    terms: list[tuple[Fraction, int, int]] = []
    constant = Fraction(0)
    for (lam, j), c in zip(basis, coef):
        if c == 0:
            continue
        part = c * m**j
        if abs(lam) <= 1:
            constant += part * lam**m
        else:
            sign = -1 if lam < 0 and m % 2 else 1
            terms.append((sign * part / Fraction(abs(lam)) ** t, abs(lam), n))
    return _expression(terms, constant)


def _solve(rows: list[list[Fraction]]) -> list[Fraction]:
    """Gaussian elimination on an augmented square system (nonsingular: a confluent Vandermonde)."""
    size = len(rows)
    for col in range(size):
        pivot = next(r for r in range(col, size) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][size] / rows[i][i] for i in range(size)]


def state_at(f: AffineMap, state: Sequence[int], n: int) -> dict[str, Value]:
    """Every value after ``n`` applications of ``f``."""
    return {name: value_at(f, state, Functional.of(f.names, name), n) for name in f.names}


def first_reach(f: AffineMap, state: Sequence[int], fn: Functional, bound: int, at_most: bool, start: int = 0) -> int | None:
    """The smallest ``n >= start`` with ``fn(f^n(state)) <= bound`` (``at_most``) or ``>= bound``;
    None if there is none.  Raises :class:`NotMonotone` where that can't be settled exactly."""
    return _first_reach(f, _check(f, state, fn), fn, bound, at_most, start)


@lru_cache(maxsize=2048)
def _first_reach(f: AffineMap, state: tuple[int, ...], fn: Functional, bound: int, at_most: bool, start: int) -> int | None:
    ser = _series(f, state, fn)

    def ok(v: int) -> bool:
        return v <= bound if at_most else v >= bound

    if ser.period is not None:
        for n in range(start, ser.transient):
            if ok(ser.terms[n]):
                return n
        best: int | None = None
        t, r = ser.transient, ser.period
        for j, diffs in enumerate(ser.diffs):
            base = t + j
            q0 = max(0, -((base - start) // r))  # ceil((start - base) / r)
            poly = _newton_poly(diffs)
            poly[0] -= bound
            if at_most:
                poly = [-c for c in poly]
            q = _first_nonneg(poly, q0)
            if q is not None and (best is None or base + q * r < best):
                best = base + q * r
        return best
    return _first_reach_monotone(f, state, fn, ser, bound, at_most, start)


def _balance(a: Matrix) -> list[list[tuple[int, int]]] | None:
    """The connected parts of ``A``'s sign graph, each a list of (index, relative sign) with
    ``S A S >= 0`` for ``S`` those signs (or their negation); None if no such signs exist."""
    d = len(a)
    if any(a[i][i] < 0 for i in range(d)):
        return None
    sign: dict[int, int] = {}
    parts: list[list[tuple[int, int]]] = []
    for root in range(d):
        if root in sign:
            continue
        sign[root] = 1
        part, todo = [], [root]
        while todo:
            i = todo.pop()
            part.append((i, sign[i]))
            for j in range(d):
                if j == i or (a[i][j] == 0 and a[j][i] == 0):
                    continue
                for x in (a[i][j], a[j][i]):
                    if x == 0:
                        continue
                    want = sign[i] * _sign(x)
                    if j in sign and sign[j] != want:
                        return None
                    if j not in sign:
                        sign[j] = want
                        todo.append(j)
        parts.append(part)
    return parts


def _direction(f: AffineMap, state: tuple[int, ...], fn: Functional) -> tuple[int, int] | None:
    """(k, +1 or -1): from ``f^k(state)`` on, ``fn`` never decreases (+1) or never increases (-1),
    established from the map (see the module's text); None if the engine can't establish it."""
    parts = _balance(f.linear)
    if parts is None:
        return None
    delta = [b - a for a, b in zip(state, f.apply(state))]
    for k in range(f.dim + 2):
        signs = [0] * f.dim
        good = True
        for part in parts:
            seen = {_sign(s * delta[i]) for i, s in part} - {0}
            if len(seen) > 1:
                good = False
                break
            flip = -1 if seen == {-1} else 1
            for i, s in part:
                signs[i] = s * flip
        if good:
            seen_w = {_sign(w * s) for w, s in zip(fn.weights, signs)} - {0}
            if len(seen_w) <= 1:
                return k, (seen_w.pop() if seen_w else 1)
        delta = [sum(x * y for x, y in zip(row, delta)) for row in f.linear]
    return None


def _first_reach_monotone(f: AffineMap, state: tuple[int, ...], fn: Functional, ser: _Series, bound: int, at_most: bool, start: int) -> int | None:
    found = _direction(f, state, fn)
    if found is None:
        raise NotMonotone("neither polynomial growth nor a sign pattern that keeps the value monotone")
    k, direction = found

    def ok(v: int) -> bool:
        return v <= bound if at_most else v >= bound

    def at(n: int) -> int:
        return fn(f.power(n).apply(state))

    for n in range(start, k):
        if ok(at(n)):
            return n
    n0 = max(start, k)
    if ok(at(n0)):
        return n0
    if (direction > 0) == at_most:
        return None  # it moves away from the bound (or stays)
    # Does it move at all after n0 + dim?  The increments d_m = L A^m delta satisfy the recurrence of
    # A, so if dim of them in a row are 0 past the nilpotent part, all later ones are (Cayley-Hamilton).
    d = f.dim
    later = [at(n0 + d + i) for i in range(d + 1)]
    if len(set(later)) == 1:
        for n in range(n0 + 1, n0 + d + 1):
            if ok(at(n)):
                return n
        return None
    lo, step = n0, 1
    while True:
        hi = n0 + step
        if ok(at(hi)):
            break
        lo, step = hi, step * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(at(mid)):
            hi = mid
        else:
            lo = mid
    return hi


def first_repeat(f: AffineMap, state: Sequence[int]) -> int | None:
    """The first ``k >= 1`` with ``f^k(state) == state``, or None (FORMAT item 28).

    The state repeats with period k iff every value's sequence is purely periodic with a period
    dividing k, so k is the least common multiple of the values' least periods; a purely periodic
    sequence has no root 0 and only roots of unity, each of its residues a constant."""
    state = tuple(state)
    if f.apply(state) == state:
        return 1
    period = 1
    for name in f.names:
        ser = _series(f, state, Functional.of(f.names, name))
        if ser.period is None or ser.transient or any(len(d) > 1 for d in ser.diffs):
            return None
        r = ser.period
        seq = [ser.diffs[j][0] for j in range(r)]
        least = next(p for p in range(1, r + 1) if r % p == 0 and all(seq[i] == seq[i % p] for i in range(r)))
        period = math.lcm(period, least)
    return period if f.power(period).apply(state) == state else None
