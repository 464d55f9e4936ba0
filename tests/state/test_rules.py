"""Every extraction rule record is tested on the examples it carries (written with it)."""

from __future__ import annotations

from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.state import _patterns as pat
from synopsis.state.rules import Rule, Stage, en, languages, pattern, rules, zh

RECORDS = [rule for stage in get_args(Stage) for rule in rules(stage)]
"""Every language's records (each module of synopsis.state.rules)."""


def test_labels_are_unique_and_every_record_has_examples() -> None:
    labels = [rule.label for rule in RECORDS]
    assert len(labels) == len(set(labels))
    assert all(rule.matches and rule.misses for rule in RECORDS)


@pytest.mark.parametrize("rule", RECORDS, ids=lambda rule: rule.label)
def test_rule_matches_its_examples_and_misses_its_counterexamples(rule: Rule) -> None:
    for text in rule.matches:
        low = text.lower()
        assert rule.applies_to(low) and rule.compiled.search(low), (rule.label, text)
    for text in rule.misses:
        low = text.lower()
        assert not (rule.applies_to(low) and rule.compiled.search(low)), (rule.label, text)


_WORDS = st.sampled_from(
    ["actually", "now", "not", "instead of", "moved", "改成", "不是", "原来", "把", "is", "42",
     "the", "port", "5433", " ", ",", "。", "newt", "nowhere", "raise", "现在", "$9"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, max_size=12).map(" ".join))
def test_a_stage_as_one_pattern_answers_as_its_records(text: str) -> None:
    for stage in ("correction", "old-marker", "update"):
        joined = pattern(stage).search(text) is not None
        records = rules(stage)
        assert joined == any(r.applies_to(text) and r.compiled.search(text) for r in records)


def test_the_update_vocabulary_has_records_in_both_languages() -> None:
    for stage in ("correction", "old-marker", "replace", "update"):
        assert any(r in en.RULES for r in rules(stage)), stage
        assert any(r in zh.RULES for r in rules(stage)), stage


def _caught_elsewhere(rule: Rule, text: str) -> bool:
    """Whether the other records of the rule's stage (and, for rules, the older rule
    vocabulary it is asked with) already find something in ``text``."""
    low = text.lower()
    others = (other for other in rules(rule.stage) if other is not rule)
    if any(other.applies_to(low) and other.compiled.search(low) for other in others):
        return True
    return rule.stage == "rule" and bool(
        pat.CONSTRAINT_EN.search(low) or pat.CONSTRAINT_ZH.search(low)
    )


@pytest.mark.parametrize("rule", RECORDS, ids=lambda rule: rule.label)
def test_every_record_has_an_example_only_it_finds(rule: Rule) -> None:
    # an example another record also finds passes with this record gone or broken
    assert any(not _caught_elsewhere(rule, text) for text in rule.matches), rule.label


def test_every_language_module_is_read_and_gated_but_english_and_chinese() -> None:
    codes = [language.code for language in languages()]
    assert codes[:2] == ["en", "zh"] and {"es", "ru", "ko", "ja"} <= set(codes)
    ungated = {language.code for language in languages() if language.detect is None}
    assert ungated == {"en", "zh", "harness"}  # harness: text of agent harnesses, any language


_ENGLISH_EXAMPLES = sorted({text for rule in en.RULES for text in (*rule.matches, *rule.misses)})


@pytest.mark.parametrize("rule", [r for r in RECORDS if r.gate is not None], ids=lambda r: r.label)
def test_another_language_record_finds_nothing_in_english(rule: Rule) -> None:
    # the English records' own examples: a Spanish "no …" must not fire on English text
    hits = [
        t
        for t in _ENGLISH_EXAMPLES
        if rule.applies_to(t.lower()) and rule.compiled.search(t.lower())
    ]
    assert not hits, (rule.label, hits)
