"""A rule the user states again, changed, in a message that says it changes something.

Not every correction changes a value of a known shape. "Write new entries at the top of
the sheet, the reminder field must be empty" can come back as "that didn't work — change
it: write into the lowest-numbered row, the reminder field must be empty" (the same in any
language: "测试效果不佳…现在调整一下，写入时写在序号最小的那条记录…"). The later rule is about
what the earlier one was about — it shares a good part of its topic words — and its message
carries an update cue (stage ``update``): the earlier rule is corrected information.

The same holds for a fact said again in the same words around another value of a slot that
holds one value, with no cue at all ("The release is planned for March 3." → "The release is
planned for March 10."): the later one updates it (:func:`same_frame`).

Two rules that are both true share little: "never push to main" and "also never push
tags" share one word, so neither replaces the other.
"""

from __future__ import annotations

import re

from synopsis.state import _patterns as pat
from synopsis.state import statements as st
from synopsis.state._memo import remembered

MIN_SHARED = 3
"""Topic words (or CJK character pairs) the two rules must share."""
MIN_SHARE = 0.25
"""And that part of the smaller rule's topic."""


MIN_PHRASES = 2
"""Phrases the two must share besides: words that stand together in both ("the notes
column", "必须是空字段"), not only words that both use somewhere."""
MIN_SUBJECT_CHARS = 20
"""The opening of the earlier rule (at least this long, else its first third) names its
subject: the later rule must share a word of it."""
_PHRASE_WORD = re.compile(r"[a-z][a-z0-9'’-]+|[\u3400-\u9fff]")


def restated_share(earlier_rule: str, rule_low: str) -> int:
    """How many topic words ``rule_low`` (a rule sentence, lower-cased) shares with
    ``earlier_rule`` when it is that rule said again, changed; else 0."""
    old = st.rule_topic(earlier_rule)
    new = st.topic_words(rule_low)
    shared = len(old & new)
    if shared < MIN_SHARED or shared < MIN_SHARE * min(len(old), len(new)):
        return 0
    earlier_low = pat.lower_same(earlier_rule)
    if len(phrases(earlier_low) & phrases(rule_low)) < MIN_PHRASES:
        return 0
    if not st.topic_words(earlier_low[: max(MIN_SUBJECT_CHARS, len(earlier_low) // 3)]) & new:
        return 0  # the same predicate of another subject ("the buttons must not be only
        # visual" → "the wires must not be only visual"): both stay
    return shared


def _phrases_of(low: str) -> frozenset[str]:
    words = _PHRASE_WORD.findall(low)
    found = set()
    for first, second, third in zip(words, words[1:], [*words[2:], ""], strict=False):
        if len(first) > 1 and len(second) > 1:
            found.add(f"{first} {second}")  # two Latin words
        elif len(first) == len(second) == len(third) == 1:
            found.add(first + second + third)  # three Han characters
    return frozenset(found)


phrases = remembered(_phrases_of)
"""Two Latin words or three Han characters that stand together (remembered per text)."""


# --- a statement said again, the same words around another value --------------------------

SLOT_CLASSES = ("date", "time", "port", "count:", "amount", "duration", "percent", "version")
"""Classes of value a statement holds one of: said again in the same words with another
value of one, the statement is updated ("The release is planned for March 3." → "… for
March 10."). Ids and names are not among them: "Order A-1001 is confirmed." and "Order
A-1002 is confirmed." are two orders."""

_FILLER = frozenset(
    {"ok", "okay", "so", "now", "then", "well", "hm", "hmm", "the", "it", "is", "it's", "its"}
)
_FRAME_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")


def _slot_values(sentence: str) -> list[str]:
    return [v for c, v in st.value_classes(sentence) if c.startswith(SLOT_CLASSES)]


def _frame_of(sentence: str) -> tuple[str, ...]:
    low = pat.lower_same(sentence)
    for value in sorted(_slot_values(sentence), key=len, reverse=True):
        low = low.replace(pat.lower_same(value), " \x00 ")
    words = _FRAME_WORD.findall(low.replace("\x00", " valueslot "))
    return tuple(w for w in words if w not in _FILLER)


frame = remembered(_frame_of)
"""A sentence's words with each value of a slot class in place of a marker, filler words
left out (remembered per sentence)."""

MIN_FRAME_WORDS = 3
"""Words besides the value a frame must have: "at 10:00" alone says too little to match."""


def same_frame(earlier: str, sentence: str) -> bool:
    """Whether ``sentence`` says ``earlier`` again in the same words around another value
    of a slot class (one that holds one value)."""
    new_values = _slot_values(sentence)
    if not new_values or set(new_values) <= set(_slot_values(earlier)):
        return False
    words = frame(sentence)
    return len(words) - words.count("valueslot") >= MIN_FRAME_WORDS and words == frame(earlier)
