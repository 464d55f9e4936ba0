"""JavaScript-compatible measures and rendering (``synopsis._js``).

Pi counts, prints and serializes with JavaScript's rules; every expected value below is
what Node prints for the same input (``String(n)``, ``JSON.stringify(v)``, ``s.length``,
``s.slice(0, n)``), written out by hand.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synopsis._js import (
    format_number,
    js_keys,
    js_stringify,
    replace_lone_surrogates,
    to_utf8,
    utf16_len,
    utf16_len_and_prefix,
    utf16_prefix,
)

GRINNING = "\U0001f600"  # outside the BMP: two UTF-16 units
CJK_EXT_B = "\U00020000"  # 𠀀, CJK Extension B: two UTF-16 units
HIGH_SURROGATE = "\ud83d"


# --- numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1e-7, "1e-7"),
        (-1e-7, "-1e-7"),
        (1e-6, "0.000001"),
        (1.5e-6, "0.0000015"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (1.5e300, "1.5e+300"),
        (2.5e-300, "2.5e-300"),
        (1.0, "1"),
        (100.0, "100"),
        (-0.0, "0"),
        (0, "0"),
        (0.1 + 0.2, "0.30000000000000004"),
        (123.456, "123.456"),
        (-42, "-42"),
        (12345678901234567890, "12345678901234567000"),
        (2**53, "9007199254740992"),
        (2**53 + 1, "9007199254740992"),  # not representable as a double
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
    ],
)
def test_format_number_matches_javascript(value: float | int, expected: str) -> None:
    assert format_number(value) == expected


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 10**400])
def test_non_finite_numbers_render_as_null(value: float | int) -> None:
    assert format_number(value) == "null"


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_format_number_round_trips(value: float) -> None:
    """Whatever the spelling, it must parse back to the same double (shortest round trip)."""
    text = format_number(value)
    assert float(text) == value or (value == 0 and text == "0")


@given(st.integers(min_value=-(2**53), max_value=2**53))
def test_safe_integers_print_as_python_does(value: int) -> None:
    assert format_number(value) == str(value)


# --- JSON.stringify -----------------------------------------------------------------------


def test_integer_like_keys_come_first_in_ascending_order() -> None:
    value = {"zeta": 1, "10": 2, "2": 3, "alpha": 4, "1": 5}
    assert js_keys(value) == ["1", "2", "10", "zeta", "alpha"]
    assert js_stringify(value) == '{"1":5,"2":3,"10":2,"zeta":1,"alpha":4}'


@pytest.mark.parametrize(
    "key",
    ["01", "-1", "1.5", " 1", "4294967295", "١"],  # not array indices: insertion order
)
def test_keys_that_are_not_array_indices_keep_insertion_order(key: str) -> None:
    assert js_keys({"b": 0, key: 1, "a": 2}) == ["b", key, "a"]


def test_largest_array_index_is_sorted_with_the_others() -> None:
    assert js_keys({"x": 0, "4294967294": 1, "3": 2}) == ["3", "4294967294", "x"]


def test_stringify_scalars_and_nesting() -> None:
    value: dict[str, Any] = {"n": None, "t": True, "f": False, "l": [1.0, -0.0, 1e21, "s"], "o": {}}
    assert js_stringify(value) == '{"n":null,"t":true,"f":false,"l":[1,0,1e+21,"s"],"o":{}}'
    assert js_stringify((1, 2)) == "[1,2]"


def test_line_separator_is_not_escaped() -> None:
    assert js_stringify("a\u2028b\u2029c") == '"a\u2028b\u2029c"'


def test_control_characters_use_short_or_lowercase_escapes() -> None:
    assert js_stringify("\b\f\n\r\t") == '"\\b\\f\\n\\r\\t"'
    assert js_stringify("\x00\x01\x1f") == '"\\u0000\\u0001\\u001f"'
    assert js_stringify("\x7f") == '"\x7f"'  # DEL is not escaped
    assert js_stringify('"\\') == '"\\"\\\\"'


def test_non_ascii_is_written_as_is() -> None:
    assert js_stringify(f"é中{GRINNING}{CJK_EXT_B}") == f'"é中{GRINNING}{CJK_EXT_B}"'


def test_lone_surrogates_are_escaped_but_pairs_are_not() -> None:
    assert js_stringify(f"a{HIGH_SURROGATE}b") == '"a\\ud83db"'
    assert js_stringify("\udc00") == '"\\udc00"'
    assert js_stringify({HIGH_SURROGATE: 1}) == '{"\\ud83d":1}'
    assert js_stringify(GRINNING) == f'"{GRINNING}"'


def test_unrenderable_value_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        js_stringify({1, 2})


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def _as_doubles(value: object) -> object:
    """``value`` as JavaScript holds it: every number a double."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, list):
        return [_as_doubles(item) for item in value]
    assert isinstance(value, dict)
    return {key: _as_doubles(item) for key, item in value.items()}


@given(_json)
def test_stringify_output_is_json_that_parses_to_the_same_value(value: object) -> None:
    text = js_stringify(value)
    assert json.loads(text, parse_int=float) == _as_doubles(value)
    assert "\n" not in text


# --- UTF-16 lengths and slices -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "length"),
    [
        ("", 0),
        ("abc", 3),
        ("é", 1),
        ("中文", 2),
        (GRINNING, 2),
        (CJK_EXT_B, 2),
        (f"a{GRINNING}b{CJK_EXT_B}", 6),
        (HIGH_SURROGATE, 1),
    ],
)
def test_utf16_len_counts_code_units(text: str, length: int) -> None:
    assert utf16_len(text) == length


def test_utf16_prefix_can_split_a_surrogate_pair_like_javascript() -> None:
    text = f"a{GRINNING}b"
    assert utf16_prefix(text, 1) == "a"
    assert utf16_prefix(text, 2) == "a\ud83d"
    assert utf16_prefix(text, 3) == f"a{GRINNING}"
    assert utf16_prefix(text, 99) == text
    assert utf16_prefix(CJK_EXT_B * 3, 3) == CJK_EXT_B + "\ud840"


@given(st.text(), st.integers(min_value=0, max_value=50))
def test_utf16_prefix_has_the_requested_length(text: str, units: int) -> None:
    prefix = utf16_prefix(text, units)
    assert utf16_len(prefix) == min(units, utf16_len(text))
    assert text.encode("utf-16-le", "surrogatepass").startswith(
        prefix.encode("utf-16-le", "surrogatepass")
    )


def test_lone_surrogates_become_replacement_characters_in_utf8() -> None:
    assert replace_lone_surrogates(f"x{HIGH_SURROGATE}y{GRINNING}") == f"x\ufffdy{GRINNING}"
    assert to_utf8(f"x{HIGH_SURROGATE}") == "x\ufffd".encode()
    assert to_utf8("plain é") == "plain é".encode()


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(_json_values)
def test_fast_path_renders_exactly_like_the_reference_renderer(value: object) -> None:
    """The orjson fast path of js_stringify never changes a single character."""
    from synopsis._js import _stringify

    assert js_stringify(value) == _stringify(value)


@given(
    st.text() | st.text(st.sampled_from(["a", "é", "中", "\U0001f600", "\ud83d", "\ude00"])),
    st.integers(min_value=0, max_value=40),
)
def test_length_and_prefix_together_are_the_two_measures(text: str, units: int) -> None:
    assert utf16_len_and_prefix(text, units) == (utf16_len(text), utf16_prefix(text, units))
