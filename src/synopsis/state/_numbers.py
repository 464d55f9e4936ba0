"""Numbers written as digits, English words or Chinese numerals, read to one value.

Needed to see that "keep spend under five hundred dollars" restates the budget that
"$800" set: the slot matches, the wording does not, and only the number says whether the
value changed.
"""

from __future__ import annotations

import re

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
_SCALES = {"thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}

_WORD = "|".join([*_UNITS, *_TENS, "hundred", *_SCALES])
NUMBER_WORDS = rf"(?:a\s+)?(?:{_WORD})(?:[\s-]+(?:and[\s-]+)?(?:{_WORD}))*"
"""A regex fragment matching an English number phrase ("five hundred", "twenty-five")."""

_CN_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
              "八": 8, "九": 9}  # fmt: skip
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
CN_NUMERAL = "[零一二两三四五六七八九十百千万]+"

_SUFFIX = {"k": 1000, "m": 1_000_000}
_DIGITS = re.compile(r"\d[\d,]*(?:\.\d+)?")


def words_to_number(phrase: str) -> int | None:
    """``"five hundred"`` → 500, ``"twenty-five thousand"`` → 25000; None if not a number."""
    total = 0
    current = 0
    seen = False
    for token in re.split(r"[\s-]+", phrase.lower().strip()):
        if token in ("and", ""):
            continue
        if token == "a":
            current = max(current, 1)
            continue
        if token in _UNITS:
            current += _UNITS[token]
        elif token in _TENS:
            current += _TENS[token]
        elif token == "hundred":
            current = max(current, 1) * 100
        elif token in _SCALES:
            total += max(current, 1) * _SCALES[token]
            current = 0
        else:
            return None
        seen = True
    return total + current if seen else None


def chinese_to_number(text: str) -> int | None:
    """``"五百"`` → 500, ``"一万二千"`` → 12000, ``"十五"`` → 15; None if not a numeral."""
    if not text:
        return None
    total = 0
    section = 0
    digit = 0
    for ch in text:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            section += (digit or 1) * _CN_UNITS[ch]
            digit = 0
        elif ch == "万":
            total += (section + digit) * 10000
            section = 0
            digit = 0
        else:
            return None
    return total + section + digit


def amount_value(text: str) -> float | None:
    """The number an amount states, whatever its wording ("$1,200", "2k", "五百元")."""
    match = _DIGITS.search(text)
    if match:
        number = float(match.group().replace(",", ""))
        rest = text[match.end() : match.end() + 2].strip().lower()
        if rest[:1] in _SUFFIX and not rest[1:2].isalpha():
            number *= _SUFFIX[rest[:1]]
        return number
    cn = re.search(CN_NUMERAL, text)
    if cn:
        value = chinese_to_number(cn.group())
        return float(value) if value is not None else None
    words = re.search(NUMBER_WORDS, text, re.IGNORECASE)
    if words:
        value = words_to_number(words.group())
        return float(value) if value is not None else None
    return None
