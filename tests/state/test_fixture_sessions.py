"""The embedded summarizer on recorded and generated sessions: nothing critical is lost.

Recorded sessions come from ``../shared/fixtures/pi/sessions`` (skipped when absent);
generated ones from ``tests.synthetic``, whose planted facts give an oracle that does not
depend on our own extractor.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from synopsis.compaction import CompactionSettings, prepare_compaction
from synopsis.messages import text_of
from synopsis.session import Session, open_session
from synopsis.state import extract_working_state, guard_summary
from synopsis.state._text import one_line
from synopsis.state.guard import MAX_PINNED_ERRORS
from synopsis.state.sections import parse_sections
from synopsis.summarizers.base import SummaryKind, SummaryRequest
from synopsis.summarizers.embedded import EmbeddedSummarizer, read_back

SESSIONS = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "pi" / "sessions"
FILES = sorted(SESSIONS.glob("*.jsonl")) if SESSIONS.is_dir() else []
SETTINGS = CompactionSettings(keep_recent_tokens=8000)


def summarize(kind: SummaryKind, messages: list[Any], previous: str | None = None) -> str:
    request = SummaryRequest(kind, "", messages, previous_summary=previous)
    return asyncio.run(EmbeddedSummarizer().summarize(request)).text


ERROR_SECTIONS = ("blocked", "critical", "early_progress", "suffix_context")
"""Where a failure may stand: Blocked / Critical Context (a split turn: its two parts)."""


def blocked_or_critical(summary: str) -> str:
    return "\n".join(
        "\n".join(items) for kind, _, items in parse_sections(summary) if kind in ERROR_SECTIONS
    )


def user_texts(messages: list[Any]) -> list[str]:
    return [text_of(m, "\n") for m in messages if isinstance(m, dict) and m.get("role") == "user"]


def assert_keeps_rules_and_errors(messages: list[Any], summary: str) -> None:
    rules = extract_working_state(messages).current_constraints()
    sources = user_texts(messages)
    flat_sources = [" ".join(text.split()) for text in sources]
    flat_summary = " ".join(summary.split())
    for rule in rules:
        flat = " ".join(rule.text.split())  # verbatim up to whitespace: a rule is one line
        assert any(flat in text for text in flat_sources), rule.text
        assert flat in flat_summary, rule.text
    where = blocked_or_critical(summary)
    # every failure nothing later resolved stands with its error line (a grep that found
    # nothing, or a failure fixed later, is no blocker); checkpoint lines escape control
    # characters (a tab reads as \\t)
    for record in extract_working_state(messages).open_errors()[-MAX_PINNED_ERRORS:]:
        assert record.error and one_line(record.error)[:60] in where, record.error


def prepared(path: Path) -> Any:
    session = open_session(path, create=True, invalid_header="new-session", duplicates="last-wins")
    preparation = prepare_compaction(session.path(), SETTINGS)
    assert preparation is not None
    return preparation


needs_fixtures = pytest.mark.skipif(not FILES, reason="shared fixtures are not present")


@needs_fixtures
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_one_summary_keeps_every_rule_and_error(path: Path) -> None:
    preparation = prepared(path)
    messages = preparation.messages_to_summarize
    previous = preparation.previous_summary
    kind = SummaryKind.UPDATE if previous else SummaryKind.HISTORY
    summary = summarize(kind, messages, previous)
    assert_keeps_rules_and_errors(messages, summary)
    # the guard, checking against the state the summarizer worked from (a checkpoint
    # without stored state is read back from its text), finds nothing missing
    seed = read_back(previous) if previous else None
    assert guard_summary(summary, extract_working_state(messages, previous=seed)).restored == ()
    prefix = preparation.turn_prefix_messages
    if prefix:
        assert_keeps_rules_and_errors(prefix, summarize(SummaryKind.TURN_PREFIX, prefix))


@needs_fixtures
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_three_summaries_in_a_row_keep_every_rule_and_error(path: Path) -> None:
    preparation = prepared(path)
    messages = preparation.messages_to_summarize
    third = len(messages) // 3
    summary = preparation.previous_summary
    for part in (messages[:third], messages[third : 2 * third], messages[2 * third :]):
        summary = summarize(SummaryKind.UPDATE if summary else SummaryKind.HISTORY, part, summary)
    assert summary is not None
    assert_keeps_rules_and_errors(messages, summary)


@needs_fixtures
def test_the_recorded_sessions_do_have_rules_and_errors() -> None:
    """Guards the tests above against passing on empty sets."""
    path = SESSIONS / "large-session.jsonl"
    if not path.exists():
        pytest.skip("large-session.jsonl is not present")
    messages = prepared(path).messages_to_summarize
    assert len(extract_working_state(messages).current_constraints()) >= 5
    assert sum(1 for m in messages if m.get("role") == "toolResult" and m.get("isError")) >= 5


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_planted_facts_survive_three_rounds_on_generated_sessions(language: str, seed: int) -> None:
    generate = pytest.importorskip("tests.synthetic")
    generated = generate.generate_session(seed=seed, entries=400, language=language)
    branch = Session(generated.header, generated.entries, duplicates="last-wins").path()
    preparation = prepare_compaction(branch, CompactionSettings(keep_recent_tokens=4000))
    assert preparation is not None
    messages = [*preparation.messages_to_summarize, *preparation.turn_prefix_messages]
    third = len(messages) // 3
    summary: str | None = None
    state = None  # each round hands its working state on, as compact() does
    for part in (messages[:third], messages[third : 2 * third], messages[2 * third :]):
        kind = SummaryKind.UPDATE if summary else SummaryKind.HISTORY
        request = SummaryRequest(kind, "", part, previous_summary=summary, previous_state=state)
        summary = asyncio.run(EmbeddedSummarizer().summarize(request)).text
        state = extract_working_state(part, previous=state)
    assert summary is not None
    summarized = {e["id"] for e in branch[: preparation.first_kept_index]}
    facts = [f for f in generated.facts if f.entry_id in summarized]
    assert facts
    for fact in facts:
        assert fact.text in summary, (fact.kind, fact.text)
