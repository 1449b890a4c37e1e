"""Exact values too large to write out (rulesets/bignum.py), pinned rule by rule.

FORMAT.md "Format 2", item 14: a value with more than MAX_DIGITS digits is kept as the exact
expression ``(C*M^E + D)/K`` and written in its shortest form; smaller ones stay integers.  Each
test names the behaviour it pins, so that a changed operator in bignum.py fails a test that says
what broke (README, "Mutation testing").  Every number here is checked against Python's own
integers or written out by hand; none takes more than a few milliseconds.
"""

from __future__ import annotations

import pytest

from loopcompare.rulesets import bignum
from loopcompare.rulesets.bignum import MAX_DIGITS, Huge, TooLarge, compare, equal, parse, power_value

GOOGOL = 10**100


def huge(c: int = 1, base: int = 2, exponent: int = GOOGOL, d: int = 0, k: int = 1) -> Huge:
    value = power_value(c, base, exponent, d, k)
    assert isinstance(value, Huge)
    return value


# --- the integer root helpers -------------------------------------------------------------------


@pytest.mark.parametrize("e", [1, 2, 3, 5, 7])
def test_integer_root_is_the_floor_of_the_real_root(e):
    for n in list(range(0, 300)) + [10**30 - 1, 10**30, 10**30 + 1, 2**64, 3**40 - 1]:
        r = bignum.iroot(n, e)
        assert r**e <= n < (r + 1) ** e, (n, e, r)


@pytest.mark.parametrize(
    "m, expected",
    [(2, (2, 1)), (3, (3, 1)), (4, (2, 2)), (8, (2, 3)), (9, (3, 2)), (12, (12, 1)), (16, (2, 4)),
     (27, (3, 3)), (36, (6, 2)), (64, (2, 6)), (1000, (10, 3)), (2**61, (2, 61))],
)
def test_root_finds_the_smallest_base_and_largest_exponent(m, expected):
    assert bignum._root(m) == expected


@pytest.mark.parametrize(
    "n, text",
    [(0, "0"), (1, "1"), (2, "2"), (3, "3"), (4, "4"), (8, "8"), (100, "100"), (1000, "10^3"),
     (10**4, "10^4"), (2**20, "2^20"), (4**21, "2^42"), (10**100, "10^100"), (3**200, "3^200"),
     (10**100 + 1, str(10**100 + 1))],
)
def test_shortest_int_writes_the_shorter_of_decimal_and_a_power(n, text):
    assert bignum._shortest_int(n) == text


def test_shortest_int_finds_a_square():
    # 1000003 is prime: its square is a power only with exponent 2.
    assert bignum._shortest_int(1000003**2) == "1000003^2"
    assert bignum._shortest_int(1000003**3) == "1000003^3"


def test_shortest_int_prefers_the_smallest_base_among_equally_short_powers():
    # 2^36 = 8^12 = 64^6: "2^36" and "8^12" are as short; the smaller base wins.
    assert bignum._shortest_int(2**36) == "2^36"
    # 10^12 = 100^6 = 10000^3: "10^12" and "100^6" are as short; 10 is the smaller base.
    assert bignum._shortest_int(10**12) == "10^12"
    # "1000" and "10^3" are as short: the decimal counts as base 1000, so 10^3 is written.
    assert bignum._shortest_int(1000) == "10^3"


def _shortest_by_definition(n: int) -> str:
    """The definition, tried exponent by exponent (the slow way bignum.py no longer takes)."""
    best = (len(str(n)), n, str(n))
    for b in range(2, n.bit_length() + 1):
        a = round(n ** (1 / b)) if n < 2**1000 else bignum.iroot(n, b)
        for a in (a - 1, a, a + 1):
            if a >= 2 and a**b == n:
                best = min(best, (len(f"{a}^{b}"), a, f"{a}^{b}"))
    return best[2]


@pytest.mark.parametrize(
    "n",
    # powers of small primes and of numbers with none (1000003 and 1000033 are prime); mixed
    # exponents whose gcd is 1 (no power) or not; exponents that are themselves powers
    [4, 8, 12, 36, 64, 2**60, 6**30, 2**6 * 3**9, 2**4 * 3**6, 12**12 * 5, 1000003**6, (1000003 * 1000033) ** 4,
     1000003**2 * 1000033**3, 1000003**7, 17**11 * 19**22, 10**99, 3 * 10**99 // 7, 2**(3**4), 7**128, 17**64 * 19**64, 13**60 - 1],
)
def test_shortest_int_agrees_with_the_definition(n):
    # The search narrows the exponents by the small primes' exponents in n: each branch of it
    # against the exponent-by-exponent definition.
    assert bignum._shortest_int(n) == _shortest_by_definition(n)


def test_shortest_power_moves_factors_of_the_exponent_into_the_base_when_shorter():
    assert bignum._shortest_power(2, 2 * GOOGOL) == (4, GOOGOL)
    assert bignum._shortest_power(2, 3 * GOOGOL) == (8, GOOGOL)
    assert bignum._shortest_power(2, GOOGOL) == (2, GOOGOL)
    assert bignum._shortest_power(2, 7) == (2, 7)
    assert bignum._shortest_power(2, 40 * GOOGOL) == (16, 10 * GOOGOL)  # "16^(10^101)"
    assert bignum._shortest_power(2, 39 * GOOGOL) == (2**39, GOOGOL)
    # 2^40 >= 10^12: the base never grows to thirteen digits, even where (2^40)^(3^200) is shortest.
    assert bignum._shortest_power(2, 40 * 3**200)[0] < 10**12
    # Equally short texts keep the smallest base: 2^(20), 4^(10), 16^(5), 32^(4) are all 3 long.
    assert bignum._shortest_power(2, 20) == (2, 20)


# --- building: normalised, or a plain int when small enough ------------------------------------


def test_a_value_of_max_digits_digits_is_an_int_and_one_more_digit_is_huge():
    # 10^999 has 1000 digits; 10^1000 has 1001.
    assert power_value(1, 10, MAX_DIGITS - 1) == 10 ** (MAX_DIGITS - 1)
    assert power_value(1, 10, MAX_DIGITS) == huge(1, 10, MAX_DIGITS)
    assert isinstance(power_value(1, 10, MAX_DIGITS), Huge)
    assert power_value(9, 10, MAX_DIGITS - 1) == 9 * 10 ** (MAX_DIGITS - 1)
    assert power_value(1, 2, 3000, 7, 1) == 2**3000 + 7


def test_small_values_are_computed_exactly_with_d_and_k():
    assert power_value(3, 2, 10, 6, 3) == (3 * 2**10 + 6) // 3
    assert power_value(5, 3, 4, -5, 5) == 3**4 - 1
    assert power_value(-2, 2, 5) == -64
    assert power_value(1, 2, 0, 1) == 2
    assert power_value(7, 2, 0) == 7
    assert power_value(2, 5, 3, 0, 2) == 125


def test_a_zero_coefficient_leaves_only_d_over_k():
    assert power_value(0, 2, GOOGOL, 6, 3) == 2
    assert power_value(0, 2, GOOGOL, -6, -3) == 2
    with pytest.raises(TooLarge):
        power_value(0, 2, GOOGOL, 7, 3)


def test_a_small_value_that_is_not_an_integer_is_refused():
    with pytest.raises(TooLarge):
        power_value(1, 2, 10, 1, 3)  # 1025 / 3
    with pytest.raises(TooLarge):
        power_value(1, 3, 10, 0, 2)


def test_the_base_must_be_at_least_two():
    with pytest.raises(ValueError):
        power_value(1, 1, 5)
    with pytest.raises(ValueError):
        power_value(1, 0, 5)
    assert power_value(1, 2, 5) == 32


def test_a_perfect_power_base_is_reduced_to_its_root():
    v = huge(3, 8, GOOGOL)
    assert (v.c, v.base, v.exponent) == (3, 2, 3 * GOOGOL)
    assert equal(power_value(1, 8, GOOGOL), power_value(1, 2, 3 * GOOGOL))
    assert equal(power_value(1, 4, GOOGOL), power_value(1, 2, 2 * GOOGOL))


def test_a_negative_k_moves_its_sign_into_c_and_d():
    v = huge(3, 2, GOOGOL, 5, -7)
    assert (v.c, v.d, v.k) == (-3, -5, 7)
    assert v.sign == -1


def test_c_d_and_k_are_reduced_by_their_common_factor():
    v = huge(6, 3, GOOGOL, 9, 15)
    assert (v.c, v.base, v.exponent, v.d, v.k) == (2, 3, GOOGOL, 3, 5)


def test_a_factor_shared_by_k_and_the_base_is_taken_from_the_power():
    # (2^E + 2) / 2 = 2^(E-1) + 1
    v = huge(1, 2, GOOGOL, 2, 2)
    assert (v.c, v.base, v.exponent, v.d, v.k) == (1, 2, GOOGOL - 1, 1, 1)
    # (2^E + 4) / 4 = 2^(E-2) + 1
    v = huge(1, 2, GOOGOL, 4, 4)
    assert (v.c, v.exponent, v.d, v.k) == (1, GOOGOL - 2, 1, 1)
    # 6 = 2*3 with base 6: (6^E + 12) / 6 = 6^(E-1) + 2
    v = huge(1, 6, GOOGOL, 12, 6)
    assert (v.c, v.base, v.exponent, v.d, v.k) == (1, 6, GOOGOL - 1, 2, 1)
    # k = 2 shares only part of the base 6: (6^E + 2) / 2 = 3 * 6^(E-1) + 1
    v = huge(1, 6, GOOGOL, 2, 2)
    assert (v.c, v.base, v.exponent, v.d, v.k) == (3, 6, GOOGOL - 1, 1, 1)


def test_a_k_whose_factor_does_not_divide_d_stays():
    v = huge(1, 2, GOOGOL, -1, 3)
    assert (v.c, v.exponent, v.d, v.k) == (1, GOOGOL, -1, 3)
    v = huge(1, 2, GOOGOL, 1, 2)  # (2^E + 1)/2: 2 does not divide 1, so K stays 2
    assert (v.c, v.exponent, v.d, v.k) == (1, GOOGOL, 1, 2)


def test_powers_of_the_base_in_c_move_into_the_exponent():
    v = huge(24, 2, GOOGOL)
    assert (v.c, v.base, v.exponent) == (3, 2, GOOGOL + 3)
    v = huge(-9, 3, GOOGOL)
    assert (v.c, v.exponent) == (-1, GOOGOL + 2)


def test_a_value_just_over_the_limit_is_huge_with_its_exact_parts():
    # 2^3400 has 1024 digits: under _MAX_BITS computed, then found too long.
    v = power_value(1, 2, 3399)
    assert isinstance(v, Huge) and (v.c, v.base, v.exponent, v.d, v.k) == (1, 2, 3399, 0, 1)
    assert power_value(1, 2, 3321) == 2**3321  # 1000 digits
    assert isinstance(power_value(1, 2, 3322), Huge)  # 1001 digits
    assert isinstance(power_value(1, 2, 3322, -2**3321, 1), int)  # 2^3322 - 2^3321 = 2^3321
    assert power_value(1, 2, 3322, -(2**3321), 1) == 2**3321


# --- writing --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, text",
    [
        ((1, 2, GOOGOL), "2^(10^100)"),
        ((-1, 2, GOOGOL), "-2^(10^100)"),
        ((3, 2, GOOGOL), "3*2^(10^100)"),
        ((-3, 2, GOOGOL), "-3*2^(10^100)"),
        ((3, 2, GOOGOL, 5), "3*2^(10^100)+5"),
        ((3, 2, GOOGOL, -5), "3*2^(10^100)-5"),
        ((1, 2, GOOGOL, -1, 3), "(2^(10^100)-1)/3"),
        ((1, 2, GOOGOL, 1, 3), "(2^(10^100)+1)/3"),
        ((1, 2, 2 * 10**4), "4^(10^4)"),
        ((1, 2, 3 * 10**4), "8^(10^4)"),
        ((1, 10, GOOGOL), "10^(10^100)"),
        ((1, 2, 4000), "2^(4000)"),
    ],
)
def test_plain_writes_the_documented_grammar(args, text):
    assert huge(*args).plain() == text
    assert str(huge(*args)) == text
    assert huge(*args).to_json() == text


def test_plain_moves_a_few_powers_into_c_when_that_writes_the_exponent_shorter():
    # Two tokens doubled a googol times: 2^(10^100 + 1) is written 2*2^(10^100).
    assert huge(2, 2, 10**30).plain() == "2*2^(10^30)"
    assert huge(8, 2, 10**30).plain() == "8*2^(10^30)"
    # 2^64 moved into C is the most the writer takes.
    assert huge(1, 2, 10**30 + 64).plain() == f"{2**64}*2^(10^30)"
    # 65 powers are not taken: the exponent is written out (as a power of 8: 3 divides it).
    assert huge(1, 2, 10**30 + 65).plain() == f"8^({(10**30 + 65) // 3})"


def test_plain_takes_no_power_into_c_when_the_exponent_has_a_short_form():
    # 10^30 is written "10^30": C stays 1 even though 2*2^(10^30 - 1) is another way to write it.
    assert huge(1, 2, 10**30).plain() == "2^(10^30)"
    # 3*10^4 is written in decimal, but a power of 8 writes it shorter than moving powers into C.
    assert huge(1, 2, 3 * 10**4).plain() == "8^(10^4)"


def test_plain_absorbs_only_for_exponents_of_fewer_than_200_digits(monkeypatch):
    # Searching 64 absorptions of a 200-digit exponent costs seconds: two show the same cut-off.
    monkeypatch.setattr(bignum, "_ABSORB", 2)
    # 10^199 + 1 has 200 digits: absorbed; so is 10^191 + 1 (just over 9^200).
    assert huge(1, 2, 10**199 + 1).plain() == "2*2^(10^199)"
    assert huge(1, 2, 10**191 + 1).plain() == "2*2^(10^191)"
    # 10^200 + 1 has 201 digits: left as it is.
    assert huge(1, 2, 10**200 + 1).plain() == f"2^({10**200 + 1})"


def test_a_huge_value_with_a_small_exponent_is_written_without_absorbing_into_a_longer_c():
    # (10^20 + 1)^60 has ~1200 digits: Huge with exponent 60, written as it is.
    base = 10**20 + 1
    v = huge(1, base, 60)
    assert v.plain() == f"{base}^(60)"


# --- comparing ------------------------------------------------------------------------------------


def test_huge_values_compare_by_sign_against_integers():
    big, neg = huge(3, 2, GOOGOL), huge(-3, 2, GOOGOL)
    assert big > 10**900 and big >= 10**900 and not big < 10**900 and not big <= 10**900
    assert neg < -(10**900) and neg <= 0 and not neg > 0 and not neg >= 0
    assert compare(big, 5) == 1 and compare(neg, 5) == -1
    assert compare(5, big) == -1 and compare(5, neg) == 1
    assert big.sign == 1 and neg.sign == -1


def test_integers_compare_as_integers():
    assert compare(3, 4) == -1 and compare(4, 3) == 1 and compare(4, 4) == 0


def test_two_huge_values_of_opposite_signs_compare_and_of_the_same_sign_refuse():
    big, neg = huge(3, 2, GOOGOL), huge(-3, 2, GOOGOL)
    assert compare(big, neg) == 1 and compare(neg, big) == -1
    assert compare(big, huge(3, 2, GOOGOL)) == 0
    assert big >= huge(3, 2, GOOGOL) and big <= huge(3, 2, GOOGOL)
    with pytest.raises(TooLarge):
        compare(big, huge(5, 2, GOOGOL))
    with pytest.raises(TooLarge):
        compare(neg, huge(-5, 2, GOOGOL))


def test_equal_is_exact():
    a = huge(3, 2, GOOGOL, 3)
    assert equal(a, huge(6, 2, GOOGOL, 6, 2))  # the same value written with K = 2
    assert equal(a, parse("(6*2^(10^100)+6)/2"))
    assert not equal(a, huge(3, 2, GOOGOL, 4))
    assert not equal(a, huge(3, 2, GOOGOL + 1, 3))
    assert not equal(a, huge(3, 3, GOOGOL, 3))  # another base: another power
    assert not equal(a, 5) and not equal(5, a)
    assert equal(5, 5) and not equal(5, 6)
    assert a == huge(3, 2, GOOGOL, 3) and a != huge(3, 2, GOOGOL, 4) and a != 5
    assert hash(a) == hash(huge(3, 2, GOOGOL, 3))


def test_equal_lines_up_exponents_that_differ():
    # 3*2^E + 0 against (6*2^(E-1)): the same value, exponents one apart once normalised by hand.
    a = Huge(3, 2, GOOGOL)
    b = Huge(6, 2, GOOGOL - 1)
    assert equal(a, b) and equal(b, a)
    c = Huge(5, 2, GOOGOL - 1)
    assert not equal(a, c) and not equal(c, a)
    # Exponents further apart than the bits any scenario number has are never equal.
    assert not equal(Huge(1, 2, GOOGOL), Huge(2**3401, 2, GOOGOL - 3401))
    assert equal(Huge(1, 2, GOOGOL), Huge(2**3400, 2, GOOGOL - 3400))


def test_equal_compares_d_over_k_crosswise():
    assert equal(Huge(2, 2, GOOGOL, 2, 2), Huge(1, 2, GOOGOL, 1, 1))
    assert not equal(Huge(2, 2, GOOGOL, 2, 2), Huge(1, 2, GOOGOL, 2, 1))
    assert not equal(Huge(1, 2, GOOGOL, 2, 1), Huge(2, 2, GOOGOL, 2, 2))


# --- small arithmetic -----------------------------------------------------------------------------


def test_scale_multiplies_and_adds_exactly():
    v = huge(3, 2, GOOGOL, 1, 5)
    assert v.scale(0, 7) == 7
    assert equal(v.scale(1, 0), v)
    assert equal(v.scale(1, 2), huge(3, 2, GOOGOL, 11, 5))
    assert equal(v.scale(2, 3), huge(6, 2, GOOGOL, 17, 5))
    assert equal(huge(1, 2, GOOGOL).scale(3, -4), huge(3, 2, GOOGOL, -4))
    assert v.fixed_part() == (1, 5)


# --- reading the written form back ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["2^(10^100)", "-2^(10^100)", "3*2^(10^100)+5", "-3*2^(10^100)-5", "(2^(10^100)-1)/3",
             "4^(10^4)", "2*2^(10^30)", "(2^(10^100)+1)/3"],
)
def test_parse_reads_back_what_plain_writes(text):
    value = parse(text)
    assert isinstance(value, Huge) and value.plain() == text


def test_parse_of_small_expressions_is_the_integer():
    assert parse("3*2^(10)") == 3072
    assert parse("2^(10)-1") == 1023
    assert parse("(2^(10)+2)/2") == 513
    assert parse("2^(2^5)") == 2**32
    assert parse("-2^(3)") == -8
    assert parse("10^(2^2)") == 10**4


@pytest.mark.parametrize(
    "text",
    ["tokens", "", "2^10", "(2^(10))/0", "0*2^(10^100)", "1^(10^100)", "0^(5)", "2^(2^(3))",
     "2^(10^1000000)", "3*2^(x)", "(2^(10^100)/3"],
)
def test_parse_refuses_what_is_not_an_expression_or_too_large_to_hold(text):
    assert parse(text) is None


def test_parse_accepts_exponents_at_the_size_limits():
    # b of 64 bits is accepted when a is 1; b * bits(a) of exactly 1,000,000 is accepted.
    assert parse(f"5*2^(1^{2**64 - 1})") == 10
    assert parse(f"2^(1^{2**64})") is None
    v = parse("2^(2^500000)")  # 2 has 2 bits: 500,000 * 2 = 1,000,000
    assert isinstance(v, Huge) and v.exponent == 2**500_000
    assert parse("2^(2^500001)") is None
    assert parse("2^(3^500000)") is not None and parse("2^(3^500001)") is None  # 3 has 2 bits
    assert parse("2^(4^333333)") is not None and parse("2^(4^333334)") is None  # 4 has 3 bits


# --- the value object -----------------------------------------------------------------------------


def test_a_huge_value_is_immutable():
    v = huge(3, 2, GOOGOL)
    with pytest.raises(AttributeError):
        v.c = 5  # type: ignore[misc]


def test_a_huge_value_built_directly_defaults_to_no_d_and_k_one():
    v = Huge(3, 2, GOOGOL)
    assert (v.d, v.k) == (0, 1)
    assert equal(v, power_value(3, 2, GOOGOL))


def test_the_sign_of_a_huge_value_is_the_sign_of_c():
    assert huge(1, 2, GOOGOL).sign == 1 and huge(2, 3, GOOGOL).sign == 1
    assert huge(-1, 2, GOOGOL).sign == -1 and huge(-2, 3, GOOGOL).sign == -1


def test_strict_and_loose_orderings_differ_on_an_equal_huge_value():
    a, b = huge(3, 2, GOOGOL), huge(3, 2, GOOGOL)
    assert not a < b and a <= b and not a > b and a >= b
    n = huge(-1, 2, GOOGOL)
    assert n < a and n <= a and not n > a and not n >= a
    assert a > n and a >= n and not a < n and not a <= n


def test_a_k_of_two_is_written_with_its_parentheses():
    assert huge(1, 2, GOOGOL, 1, 2).plain() == "(2^(10^100)+1)/2"
    assert huge(1, 3, GOOGOL, 1, 2).plain() == "(3^(10^100)+1)/2"
