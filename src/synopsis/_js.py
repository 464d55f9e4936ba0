"""JavaScript-compatible text measures and JSON rendering.

Pi is written in TypeScript, and its session files, token estimates and serialized
transcripts follow JavaScript's rules: string lengths count UTF-16 code units, numbers are
IEEE doubles printed by ``Number.prototype.toString``, and ``JSON.stringify`` lists
integer-like keys first. Matching those rules exactly is what makes our cut points and
transcripts byte-identical to Pi's, so they live here, in one place.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_ARRAY_INDEX = 2**32 - 2


def utf16_len(text: str) -> int:
    """Length of ``text`` as JavaScript's ``String.length`` counts it (UTF-16 code units)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf16_prefix(text: str, units: int) -> str:
    """The first ``units`` UTF-16 code units of ``text`` (JavaScript's ``slice(0, units)``).

    Like JavaScript, this may cut a surrogate pair in half and leave a lone high surrogate.
    """
    if text.isascii():
        return text[:units]
    encoded = text.encode("utf-16-le", "surrogatepass")
    return encoded[: units * 2].decode("utf-16-le", "surrogatepass")


def utf16_len_and_prefix(text: str, units: int) -> tuple[int, str]:
    """``(utf16_len(text), utf16_prefix(text, units))``, encoding a long text only once."""
    if text.isascii():
        return len(text), text[:units]
    encoded = text.encode("utf-16-le", "surrogatepass")
    return len(encoded) // 2, encoded[: units * 2].decode("utf-16-le", "surrogatepass")


def replace_lone_surrogates(text: str) -> str:
    """Replace unpaired surrogates with U+FFFD, as JavaScript's UTF-8 encoder does."""
    if text.isascii():
        return text
    return _LONE_SURROGATE.sub("\ufffd", text)


def to_utf8(text: str) -> bytes:
    """Encode to UTF-8 the way Node writes a JavaScript string (lone surrogates → U+FFFD)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return replace_lone_surrogates(text).encode("utf-8")


def format_number(value: float | int) -> str:
    """Render a number as JavaScript's ``String(number)`` does (``1e-7``, ``1e+21``, ``1``)."""
    if isinstance(value, int):
        if -(2**53) <= value <= 2**53:
            return str(value)
        try:
            value = float(value)
        except OverflowError:
            return "null"
    if not math.isfinite(value):
        return "null"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    digits, point = _shortest_digits(abs(value))
    count = len(digits)
    if count <= point <= 21:
        return sign + digits + "0" * (point - count)
    if 0 < point <= 21:
        return sign + digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return sign + "0." + "0" * -point + digits
    exponent = point - 1
    mantissa = digits[0] + ("." + digits[1:] if count > 1 else "")
    return f"{sign}{mantissa}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"


def _shortest_digits(value: float) -> tuple[str, int]:
    """Shortest round-trip digits of a positive float and the decimal point's position.

    The value equals ``0.d1d2d3… × 10**point``; Python's ``repr`` already yields the
    shortest digits that round-trip, as ECMAScript requires.
    """
    mantissa, _, exp_text = repr(value).partition("e")
    exponent = int(exp_text) if exp_text else 0
    int_part, _, frac_part = mantissa.partition(".")
    if int_part != "0":
        point = len(int_part) + exponent
        digits = (int_part + frac_part).rstrip("0")
    else:
        stripped = frac_part.lstrip("0")
        point = exponent - (len(frac_part) - len(stripped))
        digits = stripped.rstrip("0")
    return digits, point


def _is_array_index(key: str) -> bool:
    return (
        key.isascii()
        and key.isdigit()
        and (key == "0" or key[0] != "0")
        and int(key) <= _MAX_ARRAY_INDEX
    )


def js_keys(value: dict[str, Any]) -> list[str]:
    """Keys in JavaScript's property order: array indices ascending, then insertion order."""
    # (a first digit first: most keys are names, and the test is cheap)
    index_keys = [key for key in value if key[:1].isdigit() and _is_array_index(key)]
    if not index_keys:
        return list(value)
    index_keys.sort(key=int)
    return index_keys + [key for key in value if not _is_array_index(key)]


def _quote(text: str) -> str:
    quoted = json.dumps(text, ensure_ascii=False)
    try:
        quoted.encode("utf-8")
    except UnicodeEncodeError:  # JavaScript escapes unpaired surrogates
        return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)
    return quoted


def _orjson_safe(value: Any) -> bool:
    """Would orjson render ``value`` exactly as JavaScript does?

    It does for strings, booleans, null and safe integers in objects without
    integer-like keys; floats (``1.0`` vs ``1``) and index keys (ordering) differ.
    """
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return bool(-(2**53) <= value <= 2**53)
    if kind is dict:
        return all(not _is_array_index(key) and _orjson_safe(item) for key, item in value.items())
    if kind is list:
        return all(_orjson_safe(item) for item in value)
    return False


def js_stringify(value: Any) -> str:
    """``JSON.stringify(value)`` with no indentation, following JavaScript's rules (a
    string, most tool arguments, goes straight to orjson)."""
    if type(value) is str or _orjson_safe(value):
        try:
            return orjson.dumps(value).decode("utf-8")
        except TypeError:  # a lone surrogate: JavaScript escapes it, orjson refuses it
            pass
    return _stringify(value)


def _stringify(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, int | float):
        return format_number(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{_quote(k)}:{_stringify(value[k])}" for k in js_keys(value)) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(_stringify(item) for item in value) + "]"
    raise TypeError(f"cannot render {type(value).__name__} as JSON")
