"""Numbers spelled out in English and Chinese, for paraphrased corrections.

A user who set "a budget of $1240" and later says "keep spend under four hundred sixty
dollars" restates the same slot in other words; the benchmark plants such pairs, so it
needs to spell numbers the way people write them.
"""

from __future__ import annotations

_ONES = (
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
    *("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen"),
)
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_CN_DIGITS = "零一二三四五六七八九"


def english_number(n: int) -> str:
    """``460`` → ``"four hundred sixty"``, ``1205`` → ``"one thousand two hundred five"``."""
    if not 0 <= n < 1_000_000:
        raise ValueError(f"out of range: {n}")
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = f"{_ONES[hundreds]} hundred"
        return head if not rest else f"{head} {english_number(rest)}"
    thousands, rest = divmod(n, 1000)
    head = f"{english_number(thousands)} thousand"
    return head if not rest else f"{head} {english_number(rest)}"


def chinese_number(n: int) -> str:
    """``460`` → ``"四百六十"``, ``1205`` → ``"一千二百零五"``, ``15`` → ``"十五"`` (n < 10000)."""
    if not 0 <= n < 10_000:
        raise ValueError(f"out of range: {n}")
    if n == 0:
        return _CN_DIGITS[0]
    if 10 <= n < 20:
        return "十" + (_CN_DIGITS[n - 10] if n > 10 else "")
    parts: list[str] = []
    pending_zero = False
    for value, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = n // value % 10
        if digit == 0:
            pending_zero = bool(parts)
            continue
        if pending_zero:
            parts.append(_CN_DIGITS[0])
            pending_zero = False
        parts.append(_CN_DIGITS[digit] + unit)
    return "".join(parts)
