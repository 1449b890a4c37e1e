"""Amounts that depend on other values (rulesets/linear.py; docs/FORMAT.md "Format 3", item 28).

The grammar of a string amount, the exact affine map of an iteration, and its closed form: values
after any number of iterations, the first iteration at which a bound holds, the repeated state.
Every expected value here is worked out by hand or by stepping the map one iteration at a time
(``naive`` below); the property tests in test_linear_properties.py do that for random maps.
"""

from __future__ import annotations

import pytest

from loopcompare.rulesets import linear
from loopcompare.rulesets.bignum import Huge, TooLarge
from loopcompare.rulesets.linear import (
    AffineMap, Amount, AmountError, Functional, HugeSum, LinearLimit, NotMonotone, first_reach, first_repeat,
    parse_amount, render, state_at, value_at,
)

GOOGOL = 10**100


def naive(f: AffineMap, state: tuple[int, ...], n: int) -> tuple[int, ...]:
    for _ in range(n):
        state = f.apply(state)
    return state


def selvala() -> AffineMap:
    """Selvala adds mana equal to her power, then Umbral Mantle costs three and gives +2/+2."""
    names = ("mana", "power")
    return AffineMap.step(names, add={"mana": parse_amount("power")}).then(AffineMap.step(names, add={"power": 2, "mana": -3}))


# --- the grammar --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, coefficients, constant",
    [
        ("power", (("power", 1),), 0),
        ("2*x + 3*y - 4", (("x", 2), ("y", 3)), -4),
        ("-x", (("x", -1),), 0),
        ("- 2*x+1", (("x", -2),), 1),
        ("x + x", (("x", 2),), 0),  # a name may repeat: coefficients add
        ("x - x + 5", (), 5),  # ... to zero
        ("3*x - 1*x", (("x", 2),), 0),
        (" 2 * x ", (("x", 2),), 0),  # spaces between tokens
        ("7", (), 7),
        ("0*x", (), 0),
        ("a_1 + _b", (("a_1", 1), ("_b", 1)), 0),
        ("1 - 2 + 3", (), 2),
    ],
)
def test_amounts_follow_the_grammar(text, coefficients, constant):
    amount = parse_amount(text)
    assert amount == Amount(coefficients, constant)


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "is empty"),
        ("   ", "is empty"),
        ("--x", 'expects an integer or a value name at character 2, not "-"'),
        ("2*", 'expects a value name after "*" at character 2, not the end of the amount'),
        ("2*3", 'expects a value name after "*" at character 2, not "3"'),
        ("x*2", 'expects "+" or "-" between terms at character 2, not "*"'),
        ("x +", "expects an integer or a value name at character 4, not the end of the amount"),
        ("a b", 'expects "+" or "-" between terms at character 3, not "b"'),
        ("x + -1", 'expects an integer or a value name at character 5, not "-"'),
        ("2x", 'expects "+" or "-" between terms at character 2, not "x"'),
        ("x/2", 'has "/" at character 2'),
        ("x + é", 'has "é" at character 5'),
        ("x\n+ 1", "has '\\n' at character 2"),
        ("10^3", 'has "^" at character 3'),
        ("1" * 31, "an integer of more than 30 digits at character 1"),
        ("x" * 1001, "longer than 1,000 characters"),
        ("+".join(["x"] * 65), "more than 64 terms"),
    ],
)
def test_bad_amounts_say_what_is_wrong(text, message):
    with pytest.raises(AmountError) as err:
        parse_amount(text)
    assert message in str(err.value)


def test_names_must_be_values_of_the_file():
    assert parse_amount("x + y", ["x", "y", "z"]).names == ("x", "y")
    with pytest.raises(AmountError, match='names "y", which is not a plain integer value of the file \\(those are: x, z\\)'):
        parse_amount("x + y", ["z", "x"])


def test_an_amount_is_written_back_in_the_grammar():
    for text in ["2*x + 3*y - 4", "-x", "7", "-7", "0", "x - y", "-2*x + 1"]:
        amount = parse_amount(text)
        assert str(amount) == text
        assert parse_amount(str(amount)) == amount
    assert parse_amount("x + 2*y - 1").evaluate({"x": 10, "y": 5}) == 19


# --- the map of one application ------------------------------------------------------------------------


def test_amounts_read_the_values_at_the_start_of_the_application_simultaneously():
    names = ("x", "y")
    f = AffineMap.step(names, add={"x": parse_amount("y"), "y": parse_amount("x")})
    assert f.apply((1, 10)) == (11, 11)  # both read (1, 10), not one after the other


def test_mul_and_an_amount_on_the_same_value():
    # x -> 3*x + x(before) = 4x: the amount is evaluated before the mul (FORMAT item 28)
    f = AffineMap.step(("x",), mul={"x": 3}, add={"x": parse_amount("x + 1")})
    assert f.apply((5,)) == (21,)
    # set wins over both
    g = AffineMap.step(("x", "y"), add={"x": parse_amount("y")}, set={"x": 2})
    assert g.apply((5, 7)) == (2, 7)


def test_add_x_to_itself_doubles():
    f = AffineMap.step(("x",), add={"x": parse_amount("x")})
    assert naive(f, (3,), 5) == (96,)
    assert value_at(f, (3,), Functional.of(f.names, "x"), 5) == 96


def test_composition_is_in_order():
    names = ("x", "y")
    f = AffineMap.step(names, add={"x": 1})
    g = AffineMap.step(names, add={"y": parse_amount("x")})
    assert f.then(g).apply((0, 0)) == (1, 1)
    assert g.then(f).apply((0, 0)) == (1, 0)


@pytest.mark.parametrize("n", [0, 1, 2, 5, 17, 64])
def test_power_equals_repeated_application(n):
    f = selvala()
    assert f.power(n).apply((0, 2)) == naive(f, (0, 2), n)
    g = AffineMap(("a", "b"), ((1, 2), (-1, 3)), (1, -1))
    assert g.power(n).apply((2, 5)) == naive(g, (2, 5), n)


def test_a_unipotent_power_of_a_googol_is_exact():
    f = selvala()
    assert f.unipotent
    # mana after n iterations from (0, 2): sum of (2 + 2i) - 3 for i < n = n^2 - 2n
    assert f.power(GOOGOL).apply((0, 2)) == (GOOGOL**2 - 2 * GOOGOL, 2 + 2 * GOOGOL)


def test_exponential_power_of_a_googol_is_refused_not_guessed():
    f = AffineMap.step(("x",), mul={"x": 2})
    with pytest.raises(LinearLimit):
        f.power(GOOGOL)


# --- Selvala and Umbral Mantle: quadratic mana --------------------------------------------------------


def test_selvala_mana_is_quadratic():
    f = selvala()
    mana = Functional.of(f.names, "mana")
    assert [value_at(f, (0, 2), mana, n) for n in range(6)] == [0, -1, 0, 3, 8, 15]
    assert value_at(f, (0, 2), mana, GOOGOL) == GOOGOL**2 - 2 * GOOGOL
    assert state_at(f, (0, 2), 10) == {"mana": 80, "power": 22}


@pytest.mark.parametrize("bound, expected", [(0, 0), (1, 3), (3, 3), (4, 4), (100, 12), (10**100, GOOGOL + 1)])
def test_selvala_first_iteration_with_enough_mana(bound, expected):
    f = selvala()
    # n^2 - 2n >= 10^100 first at n = 10^50 + 1 (n^2 - 2n = 10^100 - 1 at n = 10^50 + 1 - ... ) checked below
    n = first_reach(f, (0, 2), Functional.of(f.names, "mana"), bound, False)
    if bound == 10**100:
        expected = next(m for m in (10**50, 10**50 + 1, 10**50 + 2) if m * m - 2 * m >= bound)
    assert n == expected
    value = n * n - 2 * n
    assert value >= bound and (n == 0 or (n - 1) ** 2 - 2 * (n - 1) < bound)


def test_selvala_dips_below_zero_once():
    f = selvala()
    mana = Functional.of(f.names, "mana")
    assert first_reach(f, (0, 2), mana, -1, True) == 1
    assert first_reach(f, (0, 2), mana, -1, True, start=2) is None
    assert first_reach(f, (0, 2), mana, -2, True) is None


# --- exponential growth: item-14 values and monotone bisection -----------------------------------------


def najeela() -> AffineMap:
    """The Warriors double; the opponent loses life equal to their number."""
    return AffineMap.step(("warriors", "life"), mul={"warriors": 2}, add={"life": parse_amount("-warriors")})


def test_najeela_life_after_a_googol_is_an_item_14_value():
    f = najeela()
    life = value_at(f, (1, 40), Functional.of(f.names, "life"), GOOGOL)
    assert isinstance(life, Huge)
    assert render(life) == "-2^(10^100)+41"  # 40 - (2^n - 1)
    assert render(value_at(f, (3, 40), Functional.of(f.names, "warriors"), GOOGOL)) == "3*2^(10^100)"


def test_najeela_first_iteration_that_kills():
    f = najeela()
    life = Functional.of(f.names, "life")
    # life after n: 41 - 2^n <= 0 first at n = 6
    assert first_reach(f, (1, 40), life, 0, True) == 6
    assert naive(f, (1, 40), 5)[1] > 0 >= naive(f, (1, 40), 6)[1]
    assert first_reach(f, (1, 40), life, 10**6, False) is None  # it only goes down
    assert first_reach(f, (0, 40), life, 0, True) is None  # no warriors: nothing happens


def test_a_sum_of_two_powers_is_written_in_decreasing_order_over_a_common_denominator():
    f = AffineMap.step(("w", "x", "life"), mul={"w": 2, "x": 3}, add={"life": parse_amount("x - w")})
    life = value_at(f, (1, 1, 40), Functional.of(f.names, "life"), GOOGOL)
    # life_n = 40 + (3^n - 1)/2 - (2^n - 1)
    assert isinstance(life, HugeSum)
    assert render(life) == "(3^(10^100)-2*2^(10^100)+81)/2"
    assert life.sign == 1 and life > 10**999 and not life < 0
    small = value_at(f, (1, 1, 40), Functional.of(f.names, "life"), 5000)
    assert render(small) == "(3^(5000)-2^(5001)+81)/2"  # E in its shortest form, as item 14 writes it
    exact = 40 + (3**5000 - 1) // 2 - (2**5000 - 1)
    assert value_at(f, (1, 1, 40), Functional.of(f.names, "life"), 2000) == 40 + (3**2000 - 1) // 2 - (2**2000 - 1)
    assert exact > 0


def test_a_value_just_over_a_thousand_digits_becomes_an_expression():
    f = AffineMap.step(("x",), add={"x": parse_amount("x")})
    x = Functional.of(f.names, "x")
    assert value_at(f, (1,), x, 3000) == 2**3000  # 904 digits
    assert render(value_at(f, (1,), x, 4000)) == "2^(4000)"


def test_polynomial_values_of_astronomical_iterations_are_sums_of_powers():
    f = selvala()
    mana = value_at(f, (0, 2), Functional.of(f.names, "mana"), 10**600)
    assert render(mana) == "10^(1200)-2*10^(600)"


def test_growth_at_an_irrational_rate_is_refused_when_too_large():
    fib = AffineMap(("a", "b"), ((0, 1), (1, 1)), (0, 0))
    a = Functional.of(fib.names, "a")
    assert value_at(fib, (0, 1), a, 30) == 832040
    with pytest.raises(LinearLimit, match="not an integer"):
        value_at(fib, (0, 1), a, GOOGOL)
    assert first_reach(fib, (0, 1), a, 10**6, False) == 31  # monotone: bisection


def test_an_oscillating_value_is_not_monotone():
    f = AffineMap.step(("x",), mul={"x": -2}, add={"x": 1})
    with pytest.raises(NotMonotone) as err:
        first_reach(f, (1,), Functional.of(f.names, "x"), 10**6, False)
    assert str(err.value) == "the engine cannot settle this amount in closed form (not monotone)"
    assert isinstance(err.value, TooLarge)  # the engine's limits are TooLarge, like bignum's


def test_a_rotation_is_periodic_not_refused():
    # (x, y) -> (y, -x): period 4, each residue a constant
    f = AffineMap(("x", "y"), ((0, 1), (-1, 0)), (0, 0))
    x = Functional.of(f.names, "x")
    assert first_reach(f, (1, 2), x, -1, True) == 2
    assert first_reach(f, (1, 2), x, 3, False) is None
    assert first_repeat(f, (1, 2)) == 4
    assert value_at(f, (1, 2), x, GOOGOL + 2) == -1


# --- repeated state ----------------------------------------------------------------------------------------


def test_a_toggle_repeats_every_second_iteration():
    f = AffineMap.step(("x",), add={"x": parse_amount("1 - 2*x")})  # x -> 1 - x
    assert f.apply((0,)) == (1,)
    assert first_repeat(f, (0,)) == 2
    assert first_repeat(f, (5,)) == 2


def test_repeats_only_when_the_map_fixes_the_state():
    assert first_repeat(selvala(), (0, 2)) is None
    still = AffineMap.step(("w", "life"), mul={"w": 2}, add={"life": parse_amount("-w")})
    assert first_repeat(still, (0, 40)) == 1  # no warriors: nothing changes
    assert first_repeat(still, (1, 40)) is None
    swap3 = AffineMap(("a", "b", "c"), ((0, 1, 0), (0, 0, 1), (1, 0, 0)), (0, 0, 0))
    assert first_repeat(swap3, (1, 2, 3)) == 3
    assert first_repeat(swap3, (1, 1, 1)) == 1
    # a state that reaches a cycle only after a transient never repeats itself
    settle = AffineMap.step(("x",), set={"x": 4})
    assert first_repeat(settle, (3,)) is None
    assert first_repeat(settle, (4,)) == 1


def test_linear_imports_only_bignum():
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(linear))
    local = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level}
    assert local <= {"bignum", None}
