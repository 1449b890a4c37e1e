"""The scenario loader (FORMAT.md, "Rules a loader enforces"): every bad file is refused with a
:class:`ScenarioError` that names the file and the field and says what was expected; good files
get the documented defaults.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import ACCEPTANCE, needs_acceptance

from loopcompare.comparator.loader import MAX_BYTES, MAX_KEY_PARTS, ScenarioError, load, parse_bytes, to_document, validate
from loopcompare.rulesets.scenario import NEVER, Intent

GOOGOL = 10**100


def doc(
    *,
    top: str = "",
    players: str | None = '["Alice", "Bob"]',
    state: str = "flying = false\ntokens = 0",
    by1: str = "Alice",
    by2: str = "Bob",
    step1: str = "",
    step2: str = "",
    tail: str = "",
) -> str:
    """A two-step scenario (Alice, then Bob) with pieces replaced or added."""
    lines = ['title = "Gain and lose flying"']
    if players is not None:
        lines.append(f"players = {players}")
    lines += [top, "", "[state]", state, ""]
    lines += ["[[step]]", f'by = "{by1}"', 'does = "activates \'{0}: gains flying\'"', step1, ""]
    lines += ["[[step]]", f'by = "{by2}"', 'does = "activates \'{0}: loses flying\'"', step2, ""]
    lines.append(tail)
    return "\n".join(lines) + "\n"


def parse(text: str, name: str = "case"):
    return parse_bytes(text.encode("utf-8"), f"{name}.toml", name)


def refused(text: str | bytes, name: str = "case") -> str:
    """The message of the ScenarioError raised for ``text``; checks that it names the file."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    with pytest.raises(ScenarioError) as info:
        parse_bytes(raw, f"{name}.toml", name)
    message = str(info.value)
    assert message.startswith(f"{name}.toml: "), message
    assert "Traceback" not in message
    return message


def test_the_base_document_is_valid():
    # The cases below change one thing each; the base itself must load.
    sf = parse(doc())
    assert [s.by for s in sf.scenario.steps] == ["Alice", "Bob"]


# Each case: (id, the bad document, fragments the message must contain: the field, then what was
# expected).  One generic test runs them all.
BAD = [
    # --- unknown keys, everywhere (a typo must not be silently ignored) -------------------------
    ("unknown top-level key", doc(top='titel = "x"'), ["'titel'", "unknown key", "expected one of", "title"]),
    ("unknown step key", doc(step1="optinal = true"), ["step 1", "'optinal'", "unknown key", "optional"]),
    ("unknown key in second step", doc(step2="chioce = true"), ["step 2", "'chioce'", "unknown key", "choice"]),
    ("unknown [loop] key", doc(tail="[loop]\nindependant = true"), ["[loop]", "'independant'", "unknown key", "independent"]),
    (
        "unknown unless key",
        doc(step1='unless = { by = "Bob", does = "pays {1}", cost = 1 }'),
        ["step 1", "'unless.cost'", "unknown key", "by, does"],
    ),
    ("unknown [expect.X] key", doc(tail='[expect.cr-2004]\nreslt = "shortcut"'), ["[expect.cr-2004]", "'reslt'", "unknown key", "result"]),
    (
        "unknown ends_when key",
        doc(tail='[loop]\nends_when = { value = "tokens", at_least = 3, below = 1 }'),
        ["[loop]", "'ends_when.below'", "unknown key", "at_least"],
    ),
    ("unknown breaker key", doc(tail='[[breaker]]\nby = "Bob"\ndoes = "destroys it"\nwhen = "now"'), ["breaker 1", "'when'", "unknown key"]),
    ("unknown {after, step} key", doc(tail="[intent]\nBob = { after = 1, step = 0, at = 2 }"), ["[intent]", "'Bob.at'", "unknown key", "after, inner, step"]),
    # --- names must be players ----------------------------------------------------------------
    ("unknown player in by", doc(by2="Carl"), ["step 2", "'by'", "'Carl'", "not one of the players", "Alice, Bob"]),
    ("unknown active player", doc(top='active = "Carl"'), ["'active'", "'Carl'", "not one of the players", "Alice, Bob"]),
    ("unknown player in unless.by", doc(step1='unless = { by = "Carl", does = "pays {1}" }'), ["step 1", "unless.by", "'Carl'", "Alice, Bob"]),
    ("unknown player in breaker.by", doc(tail='[[breaker]]\nby = "Carl"\ndoes = "destroys it"'), ["breaker 1", "'by'", "'Carl'", "Alice, Bob"]),
    ("unknown player in intent", doc(tail="[intent]\nCarl = 3"), ["[intent]", "Carl", "not one of the players", "Alice, Bob"]),
    ("unknown player in expect", doc(tail='[expect.cr-2004]\ndeviates = "Carl"'), ["[expect.cr-2004]", "deviates", "'Carl'", "Alice, Bob"]),
    # --- state names must be declared -------------------------------------------------------------
    ("undeclared state in set", doc(step1="set = { flyng = true }"), ["step 1", "set", "flyng", "not declared in [state]", "flying, tokens"]),
    ("undeclared state in add", doc(step2="add = { token = 1 }"), ["step 2", "add", "token", "not declared in [state]", "flying, tokens"]),
    ("undeclared state in ends_when", doc(tail='[loop]\nends_when = { value = "life", at_most = 0 }'), ["ends_when", "value", "'life'", "not declared in [state]"]),
    ("state undeclared with no [state]", doc(state="", step1="add = { tokens = 1 }"), ["step 1", "add", "tokens", "not declared in [state]", "none"]),
    ("undeclared state in expect", doc(tail="[expect.cr-2004]\nstate = { wings = true }"), ["[expect.cr-2004]", "state", "wings", "not declared in [state]"]),
    # --- types ------------------------------------------------------------------------------------
    ("int set on a bool", doc(step1="set = { flying = 1 }"), ["step 1", "'set.flying'", "boolean", "true or false", "got the number 1"]),
    ("bool set on an int", doc(step1="set = { tokens = true }"), ["step 1", "set", "tokens", "integer", "whole number", "boolean"]),
    ("string set on a bool", doc(step1='set = { flying = "yes" }'), ["set", "flying", "true or false", "string 'yes'"]),
    ("add to a bool", doc(step1="add = { flying = 1 }"), ["step 1", "add", "flying", "boolean", "only integers"]),
    ("add a bool", doc(step1="add = { tokens = true }"), ["add", "tokens", "whole number", "boolean"]),
    ("add a string", doc(step1='add = { tokens = "1" }'), ["add", "tokens", "whole number", "string '1'"]),
    ("string state value", doc(state='flying = false\ntokens = "0"'), ["[state]", "tokens", "whole number", "string '0'", "format = 2"]),
    ("decimal state value", doc(state="flying = false\ntokens = 0.5"), ["[state]", "tokens", "true, false or a whole number", "decimal"]),
    ("ends_when on a bool", doc(tail='[loop]\nends_when = { value = "flying", at_most = 0 }'), ["ends_when", "flying", "boolean", "integer"]),
    ("ends_when with two bounds", doc(tail='[loop]\nends_when = { value = "tokens", at_most = 0, at_least = 9 }'), ["ends_when", "exactly one of", "at_most", "at_least"]),
    ("ends_with without ends_when", doc(tail='[loop]\nends_with = "Bob loses"'), ["ends_with", "ends_when"]),
    ("step flag not a bool", doc(step1='optional = "yes"'), ["step 1", "'optional'", "true or false", "string 'yes'"]),
    ("loop flag not a bool", doc(tail="[loop]\nspans_turns = 1"), ["[loop]", "spans_turns", "true or false"]),
    ("breaker as a single table", doc(tail='[breaker]\nby = "Bob"\ndoes = "destroys it"'), ["'breaker'", "[[breaker]]"]),
    # --- intents: "never", an integer >= 0, or {after, step} with 0 <= step < steps ---------------
    ("intent 'infinite'", doc(tail='[intent]\nBob = "infinite"'), ["[intent]", "Bob", "'infinite'", "not a number", '"never"', "finite number"]),
    ("intent 'Infinite'", doc(tail='[intent]\nBob = "Infinite"'), ["[intent]", "Bob", "not a number", '"never"', "finite number"]),
    ("intent TOML inf", doc(tail="[intent]\nBob = inf"), ["[intent]", "Bob", "not a number", '"never"', "finite number"]),
    ("intent after 'infinite'", doc(tail='[intent]\nBob = { after = "infinite", step = 0 }'), ["Bob", "after", "not a number", '"never"', "finite number"]),
    ("negative intent", doc(tail="[intent]\nBob = -1"), ["[intent]", "Bob", "0 or more", "-1"]),
    ("negative after", doc(tail="[intent]\nBob = { after = -2, step = 0 }"), ["Bob", "after", "0 or more", "-2"]),
    ("decimal intent", doc(tail="[intent]\nBob = 3.5"), ["[intent]", "Bob", "whole number", "decimal"]),
    ("boolean intent", doc(tail="[intent]\nBob = true"), ["[intent]", "Bob", "whole number", "boolean"]),
    ("unknown intent word", doc(tail='[intent]\nBob = "sometimes"'), ["[intent]", "Bob", '"never"', "whole number", "{after, step}", "'sometimes'"]),
    ("intent step == steps", doc(tail="[intent]\nBob = { after = 1, step = 2 }"), ["Bob", "step", "less than the number of steps (2)", "got 2"]),
    ("intent step far out of range", doc(tail="[intent]\nBob = { after = 1, step = 99 }"), ["Bob", "step", "less than the number of steps (2)", "99"]),
    ("negative intent step", doc(tail="[intent]\nBob = { after = 1, step = -1 }"), ["Bob", "step", "0 or more", "-1"]),
    ("intent missing step", doc(tail="[intent]\nBob = { after = 1 }"), ["Bob", "step", "required"]),
    ("intent missing after", doc(tail="[intent]\nBob = { step = 0 }"), ["Bob", "after", "required"]),
    # --- players, title, steps, format ------------------------------------------------------------
    ("one player", doc(players='["Alice"]'), ["'players'", "two or more", "got 1"]),
    ("no players", doc(players="[]"), ["'players'", "two or more", "got 0"]),
    ("duplicate player", doc(players='["Alice", "Bob", "Alice"]'), ["'players'", "'Alice'", "twice", "distinct"]),
    ("players not a list", doc(players='"Alice, Bob"'), ["'players'", "list"]),
    ("empty player name", doc(players='["Alice", ""]'), ["'players'", "empty"]),
    ("missing players", doc(players=None), ["'players'", "required", "two or more"]),
    ("missing title", doc().replace('title = "Gain and lose flying"\n', ""), ["'title'", "required"]),
    ("blank title", doc().replace('title = "Gain and lose flying"', 'title = "   "'), ["'title'", "must not be empty"]),
    ("title not a string", doc().replace('title = "Gain and lose flying"', "title = 3"), ["'title'", "string", "number"]),
    ("missing step", 'title = "T"\nplayers = ["Alice", "Bob"]\n', ["'step'", "required", "[[step]]"]),
    ("empty step list", 'title = "T"\nplayers = ["Alice", "Bob"]\nstep = []\n', ["'step'", "one or more"]),
    ("step missing by", doc().replace('by = "Bob"\n', ""), ["step 2", "'by'", "required"]),
    ("step missing does", doc().replace("does = \"activates '{0}: gains flying'\"\n", ""), ["step 1", "'does'", "required"]),
    ("format 4", doc(top="format = 4"), ["'format'", "4", "1, 2 and 3 are the versions"]),
    ("format as a string", doc(top='format = "1"'), ["'format'", "'1'", "1, 2 and 3 are the versions"]),
    ("format true", doc(top="format = true"), ["'format'", "1, 2 and 3 are the versions"]),
    # --- expectations -----------------------------------------------------------------------------
    ("unknown ruleset in [expect]", doc(tail='[expect.cr-1999]\nresult = "shortcut"'), ["[expect.cr-1999]", "unknown ruleset", "'cr-1999'", "cr-2004, cr-2005, cr-2008", "cr-2024, mtr-current"]),
    ("unknown result in [expect]", doc(tail='[expect.cr-2004]\nresult = "win"'), ["[expect.cr-2004]", "result", "shortcut", "'win'"]),
    ("expect state of the wrong type", doc(tail="[expect.cr-2004]\nstate = { flying = 1 }"), ["[expect.cr-2004]", "'state.flying'", "boolean", "true or false", "got the number 1"]),
]


@pytest.mark.parametrize("text, fragments", [pytest.param(t, f, id=i) for i, t, f in BAD])
def test_bad_file_is_refused_with_file_field_and_expectation(text, fragments):
    message = refused(text)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} missing from: {message}"


def test_unknown_key_error_names_the_offending_key_not_a_valid_one():
    # A file with one good and one bad key must blame the bad one.
    message = refused(doc(step1="optional = true\nrandomly = true"))
    assert "'randomly'" in message
    assert "step 1: 'optional'" not in message


# --- bytes: encoding, syntax, size ------------------------------------------------------------------


def test_non_utf8_bytes_are_refused():
    raw = doc().replace("Gain and lose flying", "Caf\u00e9").encode("latin-1")
    message = refused(raw)
    assert "UTF-8" in message


def test_bom_prefixed_file_is_accepted():
    sf = parse_bytes(b"\xef\xbb\xbf" + doc().encode("utf-8"), "case.toml", "case")
    assert sf.scenario.title == "Gain and lose flying"


def test_invalid_toml_syntax_names_file_and_line():
    message = refused('title = "unterminated\nplayers = ["Alice", "Bob"]\n')
    assert "not valid TOML" in message
    assert "line 1" in message


def test_duplicate_toml_key_is_a_syntax_error():
    # TOML itself forbids redefining a key; the loader reports it, not a traceback.
    message = refused(doc(step1='by = "Bob"'))
    assert "TOML" in message


def test_bytes_over_the_size_limit_are_refused():
    raw = doc().encode("utf-8")
    raw += b"#" * (MAX_BYTES + 1 - len(raw))
    message = refused(raw)
    assert f"{MAX_BYTES:,}" in message
    assert "limited" in message


def test_bytes_at_the_size_limit_are_accepted():
    raw = doc().encode("utf-8")
    raw += b"#" * (MAX_BYTES - len(raw))
    assert len(raw) == MAX_BYTES
    assert parse_bytes(raw, "case.toml", "case").scenario.title == "Gain and lose flying"


def test_load_reads_a_file_of_exactly_the_size_limit(tmp_path):
    # The limit is "at most 1 MiB": a file of exactly MAX_BYTES passes both the size on disk and
    # the bytes read.
    path = tmp_path / "full.toml"
    raw = doc().encode("utf-8")
    path.write_bytes(raw + b"#" * (MAX_BYTES - len(raw)))
    assert path.stat().st_size == MAX_BYTES
    assert load(path).scenario.title == "Gain and lose flying"


def test_load_refuses_a_file_one_byte_over_the_size_limit(tmp_path):
    path = tmp_path / "over.toml"
    raw = doc().encode("utf-8")
    path.write_bytes(raw + b"#" * (MAX_BYTES + 1 - len(raw)))
    with pytest.raises(ScenarioError, match="limited to 1,048,576 bytes"):
        load(path)


def test_load_refuses_a_file_over_the_size_limit(tmp_path):
    path = tmp_path / "big.toml"
    path.write_bytes(doc().encode("utf-8") + b"#" * MAX_BYTES)
    with pytest.raises(ScenarioError) as info:
        load(path)
    assert str(info.value).startswith(f"{path}: ")
    assert "limited" in str(info.value)


def test_load_names_the_path_as_given(tmp_path):
    path = tmp_path / "typo.toml"
    path.write_text(doc(top='titel = "x"'), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load(path)
    assert str(info.value).startswith(f"{path}: line 3: 'titel': unknown key")


def test_load_of_a_missing_file_is_a_scenario_error(tmp_path):
    path = tmp_path / "nowhere.toml"
    with pytest.raises(ScenarioError) as info:
        load(path)
    assert str(path) in str(info.value)
    assert "can't be read" in str(info.value)


def test_load_takes_id_from_the_stem_and_file_from_the_name(tmp_path):
    path = tmp_path / "flying-case.toml"
    path.write_text(doc(), encoding="utf-8")
    sf = load(path)
    assert sf.id == "flying-case"
    assert sf.file == "flying-case.toml"


# --- valid files ----------------------------------------------------------------------------------


def test_defaults():
    sf = parse(doc())
    sc = sf.scenario
    # active defaults to the first player
    assert sc.active == "Alice"
    # every step flag defaults to false
    for step in sc.steps:
        assert (step.optional, step.choice, step.hidden, step.random, step.conditional) == (False,) * 5
        assert step.unless is None
    # a player left out of [intent] never deviates
    assert sc.intent("Alice") == NEVER
    assert sc.intent("Bob").never
    # no [loop], [[breaker]] or [expect]: all off or empty
    assert (sc.loop.independent, sc.loop.spans_turns, sc.loop.meaningful_change, sc.loop.shortcut_before) == (False,) * 4
    assert sc.loop.ends_when is None
    assert sc.breakers == ()
    assert dict(sf.expect) == {}


def test_active_player_can_be_someone_other_than_the_first():
    assert parse(doc(top='active = "Bob"')).scenario.active == "Bob"


def test_explicit_values_are_kept():
    sf = parse(
        doc(
            top='format = 1\ndescription = "d"\nsource = "CR 729.3"\ntags = ["two players"]',
            step1='optional = true\nchoice = true\nset = { flying = true }\nunless = { by = "Bob", does = "pays {1}" }',
            step2="optional = true\nadd = { tokens = 2 }",
            tail='[loop]\nspans_turns = true\nends_when = { value = "tokens", at_least = 10 }\nends_with = "done"\n'
            '[[breaker]]\nby = "Bob"\ndoes = "destroys it"\n'
            '[intent]\nAlice = "never"\nBob = { after = 5, step = 1 }\n',
        )
    )
    sc = sf.scenario
    assert sc.steps[0].optional and sc.steps[0].choice
    assert dict(sc.steps[0].set) == {"flying": True}
    assert sc.steps[0].unless.by == "Bob"
    assert dict(sc.steps[1].add) == {"tokens": 2}
    assert sc.loop.spans_turns
    assert sc.loop.ends_when.value == "tokens"
    assert [b.by for b in sc.breakers] == ["Bob"]
    assert sc.intent("Alice").never
    assert sc.intent("Bob") == Intent(5, 1)
    assert sc.tags == ("two players",)


def test_intent_zero_and_step_zero_are_valid():
    sc = parse(doc(tail="[intent]\nAlice = 0\nBob = { after = 0, step = 0 }")).scenario
    assert sc.intent("Alice") == Intent(0)
    assert sc.intent("Bob") == Intent(0, 0)


def test_last_step_index_is_valid():
    # 0 <= step < number of steps: the largest valid index is steps - 1.
    assert parse(doc(tail="[intent]\nBob = { after = 1, step = 1 }")).scenario.intent("Bob") == Intent(1, 1)


def test_a_googol_is_a_valid_integer():
    # Integers may be arbitrarily large: 10^100 is valid everywhere an integer is.
    g = str(GOOGOL)
    sf = parse(
        doc(
            state=f"flying = false\ntokens = {g}",
            step1=f"add = {{ tokens = {g} }}",
            tail=f"[intent]\nAlice = {g}\nBob = {{ after = {g}, step = 1 }}\n[expect.cr-2004]\niterations = {g}\n",
        )
    )
    assert sf.scenario.intent("Alice") == Intent(GOOGOL)
    assert sf.scenario.intent("Bob") == Intent(GOOGOL, 1)
    assert sf.scenario.state["tokens"] == GOOGOL
    assert sf.scenario.steps[0].add["tokens"] == GOOGOL
    assert sf.expect["cr-2004"]["iterations"] == GOOGOL


def test_expect_accepts_an_alias_and_stores_the_key():
    sf = parse(doc(tail='[expect.cr-current]\nresult = "shortcut"\niterations = "unbounded"'))
    assert dict(sf.expect) == {"cr-2024": {"result": "shortcut", "iterations": "unbounded"}}


def test_more_than_two_players():
    sc = parse(doc(players='["Alice", "Bob", "Carol"]', tail="[intent]\nCarol = 2")).scenario
    assert sc.players == ("Alice", "Bob", "Carol")
    assert sc.intent("Carol") == Intent(2)


@needs_acceptance
@pytest.mark.parametrize("path", sorted(ACCEPTANCE.glob("*.toml")), ids=lambda p: p.stem)
def test_every_acceptance_file_loads(path):
    sf = load(path)
    assert sf.id == path.stem
    assert sf.expect


# --- once rough edges, now fixed ----------------------------------------------------------------------


def test_format_as_a_decimal_is_refused():
    message = refused(doc(top="format = 1.0"))
    assert "'format'" in message


def test_two_expect_blocks_for_the_same_ruleset_are_refused():
    message = refused(doc(tail='[expect.cr-2024]\nresult = "shortcut"\n[expect.cr-current]\nresult = "draw"'))
    assert "cr-current" in message


def test_expect_infinite_count_does_not_suggest_never():
    message = refused(doc(tail='[expect.cr-2004]\nsteps = "infinite"'))
    assert "[expect.cr-2004]" in message
    assert "never" not in message


@pytest.mark.parametrize(
    "players, item, how",
    [
        ('["Alice", "Bob", "Alice"]', 3, "'Alice' appears twice"),
        ('["Alice", "Bob", "Carol", "bob"]', 4, "'bob' differs from 'Bob' only by case"),
        ('["Alice", " Bob"]', 2, "' Bob' has leading or trailing spaces"),
    ],
)
def test_a_bad_player_name_is_named_by_its_item_number(players, item, how):
    # Items are numbered from 1, as a person counts them in the file.
    message = refused(doc(players=players, by2="Alice"))
    assert f"'players' item {item}: {how}" in message


def test_a_tag_that_is_not_a_string_is_named_by_its_item_number():
    message = refused(doc(top='tags = ["a", "b", 3]'))
    assert "'tags' item 3" in message


# --- how messages show what they refuse ----------------------------------------------------------


def test_a_key_of_the_most_dotted_parts_allowed_is_parsed_and_one_more_is_refused():
    # At most MAX_KEY_PARTS parts; the check runs before TOML parsing and names the line.
    allowed = ".".join(["a"] * MAX_KEY_PARTS)
    message = refused(doc(tail=f"{allowed} = 1"))
    assert "dotted parts" not in message  # refused later, as an unknown key, not for its depth
    message = refused(doc(tail=f"{allowed}.a = 1"))
    line = doc(tail="X").splitlines().index("X") + 1
    assert f"line {line}: a key with more than {MAX_KEY_PARTS} dotted parts" in message


def test_a_long_text_in_a_message_is_cut_to_60_characters():
    # Shown whole up to 59 characters; from 60, its first 57 and "...".
    name59, name60 = "x" * 59, "y" * 60
    assert repr(name59) in refused(doc(by2=name59))
    message = refused(doc(by2=name60))
    assert repr("y" * 57 + "...") in message and repr(name60) not in message


@pytest.mark.parametrize(
    "value, shown",
    [
        ("1e300", "a decimal number"),
        (str(10**30 - 1), f"the number {10**30 - 1}"),  # under 10^30: every digit
        (str(10**30), "the number 100000000000... (31 digits)"),
        ('"' + "z" * 39 + '"', "the string '" + "z" * 39 + "'"),
        ('"' + "z" * 40 + '"', "a string"),  # 40 characters or more: not repeated
    ],
)
def test_a_value_of_the_wrong_kind_is_described_briefly(value, shown):
    message = refused(doc(step1=f"optional = {value}"))
    assert f"step 1: 'optional': expected true or false, got {shown}" in message


# --- scenarios built in code: to_document is the inverse of the loader ----------------------------


def test_a_scenario_built_in_code_keeps_its_active_player():
    sf = parse(doc(top='active = "Bob"'))
    assert to_document(sf.scenario)["active"] == "Bob"
    assert "active" not in to_document(parse(doc()).scenario)  # the first player is the default


def test_a_scenario_built_in_code_keeps_what_its_loop_ends_with():
    ends = parse(doc(state="tokens = 3", tail='[loop]\nends_when = { value = "tokens", at_most = 0 }\nends_with = "Bob loses"'))
    assert to_document(ends.scenario)["loop"] == {"ends_when": {"value": "tokens", "at_most": 0}, "ends_with": "Bob loses"}
    assert validate(ends.scenario).scenario.loop.ends_with == "Bob loses"
    assert "loop" not in to_document(parse(doc()).scenario)  # nothing set, nothing written


def test_a_scenario_built_in_code_is_named_after_its_title_cut_to_60_characters():
    sf = parse(doc())
    long = replace(sf.scenario, title="Word " * 20)
    assert validate(long).id == "-".join(["word"] * 20)[:60]
    assert len(validate(long).id) == 60
    assert validate(replace(sf.scenario, title="Gain & lose: flying!")).id == "gain-lose-flying"
    assert validate(replace(sf.scenario, title="¿¡")).id == "scenario"
