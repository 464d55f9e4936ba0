"""Scans remembered per text answer as the plain functions they stand for.

Each memo here (:mod:`synopsis.state._memo`) is held to its function run afresh, on
texts built from the fragments those functions key on: progress words, list items and
code fences, outcome lines, words of every language module (the rules' gates), and the
fragments of the other cache tests. A remembered result is asked twice (scanned, then
remembered), and a caller changing its list changes nothing.
"""

from __future__ import annotations

import re
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synopsis.state import _choices, _errors, _lifted, _progress, _tools, _values, extract, rules
from synopsis.state._memo import forget
from tests.state.test_scan_caches import FRAGMENTS, RULE_WORDS

WORDS = [
    # progress: done, pending, gave up, another way, questions, lists and fences
    "I've added the parser. ", "has been created", "Removed the old flag", "✓ tests pass",
    "I'll add it later", "Successfully organised the changes into 4 branches:", "\n- ",
    "\n  - ", "\n1. ", "\n## ", "**Done**", "\n```\n", "still need to port the CLI",
    "Next steps:", "Pending: task 60.8", "nothing left", "that didn't work", "because",
    "instead", "Let me use the other command instead.", "?", "还需要补测试", "已添加", "改用",
    "stattdessen", "wurde implementiert", "foi removido", "を作成しました",
    # outcome lines
    "\nApplied edit to src/a.py", "\n3 passed, 0 failed", "\n1 failed", "\nSuccess.",
    "\nCommand executed successfully (exit code 0).", "\nwaiting for replicas",
    # a word or two of each language module, for their gates
    "usa siempre", "toujours", "immer", "sempre", "всегда", "항상", "常に", "vždy", "selalu",
    "zawsze", "her zaman", "luôn luôn", "en lugar de", "au lieu de", "statt", "invece di",
    "em vez de", "вместо", "대신", "の代わりに", "místo", "bukan", "zamiast", "yerine", "thay vì",
    # and words of a record that alone are no sign of its language (its gate says no)
    "korrektur: ", "perdón, ", "poprawka: ", "8081, no ",
]  # fmt: skip
texts = st.lists(st.sampled_from(WORDS + RULE_WORDS + FRAGMENTS), max_size=14).map("".join)
slow = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@slow
@given(texts)
def test_remembered_progress_reports_equal_fresh_ones(text: str) -> None:
    forget()
    listed = (_progress.reported_done, _progress.pending_steps, _progress.failed_approaches)
    for scan in listed:
        fresh = scan.__wrapped__(text)  # type: ignore[attr-defined]
        first = scan(text)
        assert first == fresh
        first.append("changed")  # the caller's list is its own
        assert scan(text) == fresh
    for memo in (_progress.turns_to_another_way, _tools.reported_outcome):
        fresh_answer = memo.scan(text)
        assert memo(text) == fresh_answer and memo(text) == fresh_answer


def _plain_search(records: tuple[rules.Rule, ...], text: str, pos: int, end: int) -> int | None:
    """Where the first of ``records`` that applies to ``text`` matches in ``text[pos:end]``."""
    starts = [
        match.start()
        for rule in records
        if rule.applies_to(text) and (match := rule.compiled.search(text, pos, end))
    ]
    return min(starts, default=None)


STAGES = ("correction", "old-marker", "tool-result", "output-line")


@slow
@given(texts, st.integers(0, 40), st.integers(0, 400))
def test_a_stage_pattern_asked_per_sentence_finds_what_its_records_find(
    text: str, pos: int, length: int
) -> None:
    low = text.lower()
    forget()
    for stage in STAGES:
        for end in (sys.maxsize, pos + length):
            found = rules.pattern(stage).search(low, pos, end)
            expected = _plain_search(rules.rules(stage), low, pos, min(end, len(low)))
            assert (found and found.start()) == expected
            again = rules.pattern(stage).search(low, pos, end)  # the languages remembered
            assert (again and again.span()) == (found and found.span())


@slow
@given(texts)
def test_the_languages_remembered_in_a_text_are_those_its_gates_find(text: str) -> None:
    low = text.lower()
    forget()
    for _ in range(2):  # found, then remembered
        for rule in rules.rules("correction") + rules.rules("not-rule"):
            if rule.english_only:  # English records stay off a sentence in another language
                expected = rules.foreign_language(low) is None
            else:
                expected = rule.gate is None or bool(rule.gate.search(low))
            assert rule.applies_to(low) == expected


def _plain_masked(stage: rules.Stage, low: str) -> str:
    """Every record of ``stage`` that applies blanks what it matches (its ``cue`` group)."""
    for rule in rules.rules(stage):
        if rule.gate is not None and rule.gate.search(low) is None:
            continue

        def blank(match: re.Match[str], cue: bool = "cue" in rule.compiled.groupindex) -> str:
            if not cue or match.group("cue") is None:
                return " " * len(match.group())
            start, end = (i - match.start() for i in match.span("cue"))
            return match.group()[:start] + " " * (end - start) + match.group()[end:]

        low = rule.compiled.sub(blank, low)
    return low


@slow
@given(texts)
def test_masked_text_is_what_every_record_blanks(text: str) -> None:
    low = text.lower()
    forget()
    for stage in ("not-rule", "harness"):
        expected = _plain_masked(stage, low)
        assert rules.masked(stage, low) == expected and rules.masked(stage, low) == expected


PROHIBITIONS = [
    "Never push to main. ", "Don't touch the migrations. ", "do not run migration", "别动数据库。",
    "不要删表", "nie ruszaj bazy", "nunca uses sudo", "ne touche pas", "OK, you can push now. ",
    "go ahead and run it", "现在可以删了", "Budget is 300 euros. ", "the port is 6543, not 5433",
]  # fmt: skip
prohibition_texts = st.lists(st.sampled_from(PROHIBITIONS + WORDS[:30]), max_size=10).map("".join)


@slow
@given(prohibition_texts)
def test_remembered_prohibitions_and_subject_words_equal_fresh_ones(text: str) -> None:
    forget()
    fresh = _lifted.prohibitions.__wrapped__(text)  # type: ignore[attr-defined]
    first = _lifted.prohibitions(text)
    assert first == fresh
    first.append(("changed", "changed"))  # the caller's list is its own
    assert _lifted.prohibitions(text) == fresh
    for memo in (extract._subject_words, extract._goal_digest):
        fresh_answer = memo.scan(text)
        assert memo(text) == fresh_answer and memo(text) == fresh_answer


reply_texts = st.lists(
    st.sampled_from(
        [
            *WORDS[:8],
            "@@ -1,3 +1,4 @@", "@@ x", "\n@@ -2 +2 @@\n", "-old\n", "+new\n", "@@",
            "it still 404s", "doesn't work", "is broken", "kaputt", "不行", "Error: boom",
            "    at main (a.js:1:2)", "  File \"a.py\", line 3", "?", "works now",
            "Options: roll back to revision 41", " or you could ", "I'd recommend ", "还是",
            "Tasting March 28", " April 4", "use_cache_v2", "`make dev`", "Redis",
            *FRAGMENTS,
        ]
    ),
    max_size=12,
).map("".join)  # fmt: skip


@slow
@given(reply_texts)
def test_remembered_diffs_failures_and_offers_equal_fresh_ones(text: str) -> None:
    forget()
    for memo in (_values.is_diff, _errors.user_reported_failure, _choices._offer):
        fresh = memo.scan(text)
        assert memo(text) == fresh and memo(text) == fresh
