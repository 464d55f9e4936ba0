"""Every extraction rule record is tested on the examples it carries (written with it)."""

from __future__ import annotations

import pytest

from synopsis.state.rules import Rule, en, zh

RECORDS = [*en.RULES, *zh.RULES]


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
