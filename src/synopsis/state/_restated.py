"""A rule the user states again, changed, in a message that says it changes something.

Not every correction changes a value of a known shape. "Write new entries at the top of
the sheet, the reminder field must be empty" can come back as "that didn't work — change
it: write into the lowest-numbered row, the reminder field must be empty" (the same in any
language: "测试效果不佳…现在调整一下，写入时写在序号最小的那条记录…"). The later rule is about
what the earlier one was about — it shares a good part of its topic words — and its message
carries an update cue (stage ``update``): the earlier rule is corrected information.

Two rules that are both true share little: "never push to main" and "also never push
tags" share one word, so neither replaces the other.
"""

from __future__ import annotations

from synopsis.state import statements as st

MIN_SHARED = 3
"""Topic words (or CJK character pairs) the two rules must share."""
MIN_SHARE = 0.25
"""And that part of the smaller rule's topic."""


def restated_share(earlier_rule: str, rule_low: str) -> int:
    """How many topic words ``rule_low`` (a rule sentence, lower-cased) shares with
    ``earlier_rule`` when it is that rule said again, changed; else 0."""
    old = st.rule_topic(earlier_rule)
    new = st.topic_words(rule_low)
    shared = len(old & new)
    if shared < MIN_SHARED or shared < MIN_SHARE * min(len(old), len(new)):
        return 0
    return shared
