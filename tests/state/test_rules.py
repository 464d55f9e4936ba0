"""Every extraction rule record is tested on the examples it carries (written with it)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.state import _patterns as pat
from synopsis.state.rules import Rule, en, harness, pattern, rules, zh

RECORDS = [*en.RULES, *zh.RULES, *harness.RULES]


def test_labels_are_unique_and_every_record_has_examples() -> None:
    labels = [rule.label for rule in RECORDS]
    assert len(labels) == len(set(labels))
    assert all(rule.matches and rule.misses for rule in RECORDS)


@pytest.mark.parametrize("rule", RECORDS, ids=lambda rule: rule.label)
def test_rule_matches_its_examples_and_misses_its_counterexamples(rule: Rule) -> None:
    for text in rule.matches:
        assert rule.compiled.search(text.lower()), (rule.label, text)
    for text in rule.misses:
        assert not rule.compiled.search(text.lower()), (rule.label, text)


_WORDS = st.sampled_from(
    ["actually", "now", "not", "instead of", "moved", "改成", "不是", "原来", "把", "is", "42",
     "the", "port", "5433", " ", ",", "。", "newt", "nowhere", "raise", "现在", "$9"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, max_size=12).map(" ".join))
def test_a_stage_as_one_pattern_answers_as_its_records(text: str) -> None:
    for stage in ("correction", "old-marker", "update"):
        joined = pattern(stage).search(text) is not None
        assert joined == any(rule.compiled.search(text) for rule in rules(stage)), stage


def test_the_update_vocabulary_has_records_in_both_languages() -> None:
    for stage in ("correction", "old-marker", "replace", "update"):
        assert any(r in en.RULES for r in rules(stage)), stage
        assert any(r in zh.RULES for r in rules(stage)), stage


def _caught_elsewhere(rule: Rule, text: str) -> bool:
    """Whether the other records of the rule's stage (and, for rules, the older rule
    vocabulary it is asked with) already find something in ``text``."""
    low = text.lower()
    if any(other.compiled.search(low) for other in rules(rule.stage) if other is not rule):
        return True
    return rule.stage == "rule" and bool(
        pat.CONSTRAINT_EN.search(low) or pat.CONSTRAINT_ZH.search(low)
    )


@pytest.mark.parametrize("rule", RECORDS, ids=lambda rule: rule.label)
def test_every_record_has_an_example_only_it_finds(rule: Rule) -> None:
    # an example another record also finds passes with this record gone or broken
    assert any(not _caught_elsewhere(rule, text) for text in rule.matches), rule.label
