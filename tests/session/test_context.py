"""Building the model's context from a path, and converting it to plain LLM messages."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from synopsis.messages import DEFAULT_WRAPPING, SummaryWrapping, convert_to_llm
from synopsis.session import ModelRef, Session, build_session_context
from synopsis.session.context import iso_to_ms
from tests.session.builders import (
    Chain,
    assistant,
    bash,
    call,
    custom,
    texts,
    tool_result,
    user,
)


def context_texts(chain: Chain, leaf: str | None = None) -> list[str]:
    session = Session(None, chain.entries)
    return texts(session.build_context(leaf).messages)


def roles(messages: list[Any]) -> list[str]:
    return [m["role"] for m in messages]


def test_empty_path() -> None:
    context = build_session_context([])
    assert context.messages == []
    assert context.thinking_level == "off"
    assert context.model is None
    assert context.compaction_index == -1
    assert not context.first_kept_entry_missing


def test_single_user_message() -> None:
    chain = Chain()
    chain.message(user("is the soil dry?"))
    assert context_texts(chain) == ["is the soil dry?"]


def test_alternating_messages_keep_their_order_and_entry_ids() -> None:
    chain = Chain()
    for text in ("q1", "a1", "q2", "a2"):
        chain.message(user(text) if text.startswith("q") else assistant(text))
    context = build_session_context(chain.entries)
    assert roles(context.messages) == ["user", "assistant", "user", "assistant"]
    assert context.entry_ids == ["e01", "e02", "e03", "e04"]


def test_thinking_level_is_the_last_change_on_the_path() -> None:
    chain = Chain()
    chain.message(user("q"))
    chain.thinking("low")
    chain.thinking("high")
    chain.message(assistant("a"))
    context = build_session_context(chain.entries)
    assert context.thinking_level == "high"
    assert len(context.messages) == 2


def test_model_comes_from_the_latest_assistant_or_model_change() -> None:
    chain = Chain()
    chain.message(user("q"))
    chain.model_change("other", "other-1")
    chain.message(assistant("a", model=("acme", "acme-large-2")))
    assert build_session_context(chain.entries).model == ModelRef("acme", "acme-large-2")
    chain.model_change("other", "other-2")
    assert build_session_context(chain.entries).model == ModelRef("other", "other-2")


def test_compaction_gives_summary_then_kept_then_newer() -> None:
    chain = Chain()
    chain.message(user("first"))
    chain.message(assistant("reply one"))
    kept = chain.message(user("second"))
    chain.message(assistant("reply two"))
    compaction = chain.compaction(kept, summary="soil checked")
    chain.message(user("third"))
    chain.message(assistant("reply three"))
    context = build_session_context(chain.entries)
    assert texts(context.messages) == [
        "<soil checked>",
        "second",
        "reply two",
        "third",
        "reply three",
    ]
    assert context.entry_ids == [compaction, "e03", "e04", "e06", "e07"]
    assert context.compaction_index == 4
    summary = context.messages[0]
    assert summary["role"] == "compactionSummary"
    assert summary["tokensBefore"] == 1000
    assert summary["timestamp"] == 1772359204000  # the entry's ISO time in ms


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@given(st.integers(min_value=-(10**12), max_value=4 * 10**12))
@example(542506294550)  # 1987-03-12T00:11:34.550Z: the float route gives …549
def test_entry_times_become_exact_milliseconds(ms: int) -> None:
    """As JavaScript's ``Date.parse``: float arithmetic must not lose the last millisecond."""
    moment = _EPOCH + timedelta(milliseconds=ms)
    text = moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    assert iso_to_ms(text) == ms
    assert iso_to_ms(moment.isoformat(timespec="milliseconds")) == ms  # "+00:00" spelling


def test_summary_timestamp_is_not_one_millisecond_short() -> None:
    chain = Chain()
    first = chain.message(user("q"))
    chain.compaction(first)
    chain.entries[-1]["timestamp"] = "1987-03-12T00:11:34.550Z"
    assert build_session_context(chain.entries).messages[0]["timestamp"] == 542506294550


def test_unreadable_times_are_none() -> None:
    assert iso_to_ms("yesterday") is None
    assert iso_to_ms(1234) is None
    assert iso_to_ms("2026-13-01T00:00:00Z") is None


def test_compaction_keeping_from_the_first_entry_keeps_everything() -> None:
    chain = Chain()
    first = chain.message(user("first"))
    chain.message(assistant("reply"))
    chain.compaction(first, summary="nothing lost")
    chain.message(user("next"))
    assert context_texts(chain) == ["<nothing lost>", "first", "reply", "next"]


def test_only_the_latest_compaction_counts() -> None:
    chain = Chain()
    u1 = chain.message(user("one"))
    chain.message(assistant("r1"))
    chain.compaction(u1, summary="first summary")
    u2 = chain.message(user("two"))
    chain.message(assistant("r2"))
    chain.compaction(u2, summary="second summary")
    chain.message(user("three"))
    assert context_texts(chain) == ["<second summary>", "two", "r2", "three"]


def test_kept_part_may_reach_back_over_an_earlier_compaction() -> None:
    chain = Chain()
    u1 = chain.message(user("one"))
    chain.compaction(u1, summary="s1")
    chain.message(user("two"))
    chain.compaction(u1, summary="s2")
    assert context_texts(chain) == ["<s2>", "one", "two"]  # the earlier entry adds nothing


def test_first_kept_entry_missing_keeps_only_what_follows_and_says_so() -> None:
    chain = Chain()
    chain.message(user("one"))
    chain.message(assistant("r1"))
    chain.compaction("not-on-this-path", summary="lost kept part")
    chain.message(user("two"))
    context = build_session_context(chain.entries)
    assert texts(context.messages) == ["<lost kept part>", "two"]
    assert context.first_kept_entry_missing


def test_first_kept_entry_after_the_compaction_does_not_count() -> None:
    chain = Chain()
    chain.message(user("one"))
    chain.compaction("e03", summary="points forward")
    chain.message(user("two"))  # e03
    context = build_session_context(chain.entries)
    assert texts(context.messages) == ["<points forward>", "two"]
    assert context.first_kept_entry_missing


def test_branches_give_different_contexts() -> None:
    chain = Chain()
    root = chain.message(user("plant what?"))
    left = chain.message(assistant("apples"), parent=root)
    right = chain.message(assistant("pears"), parent=root)
    assert context_texts(chain, left) == ["plant what?", "apples"]
    assert context_texts(chain, right) == ["plant what?", "pears"]


def test_branch_summary_on_the_path_is_a_message() -> None:
    chain = Chain()
    root = chain.message(user("plant what?"))
    chain.message(assistant("apples"))
    chain.branch_summary("apples failed: frost", parent=root, from_id="e02")
    chain.message(user("try something hardier"))
    context = build_session_context(Session(None, chain.entries).path())
    assert texts(context.messages) == [
        "plant what?",
        "<apples failed: frost>",
        "try something hardier",
    ]
    assert dict(context.messages[1])["fromId"] == "e02"


def test_empty_branch_summary_is_left_out() -> None:
    chain = Chain()
    chain.message(user("q"))
    chain.branch_summary("")
    chain.message(user("q2"))
    assert context_texts(chain) == ["q", "q2"]


def test_compaction_off_the_path_is_ignored() -> None:
    chain = Chain()
    start = chain.message(user("start"))
    chain.message(assistant("r1"))
    q2 = chain.message(user("q2"))
    chain.message(assistant("r2"))
    chain.compaction(q2, summary="compacted")
    chain.message(user("q3"))
    leaf_a = chain.message(assistant("r3"))
    chain.branch_summary("abandoned the first idea", parent="e02")
    leaf_b = chain.message(user("better approach"))
    assert context_texts(chain, leaf_a) == ["<compacted>", "q2", "r2", "q3", "r3"]
    assert context_texts(chain, leaf_b) == [
        "start",
        "r1",
        "<abandoned the first idea>",
        "better approach",
    ]
    assert start == "e01"


def test_custom_messages_are_context_and_custom_entries_are_not() -> None:
    chain = Chain()
    chain.message(user("q"))
    chain.custom("state", {"x": 1})
    chain.custom_message("remember the frost date")
    chain.message(custom("from a message entry"))
    chain.label("e01", "start")
    chain.session_info("orchard")
    context = build_session_context(chain.entries)
    assert roles(context.messages) == ["user", "custom", "custom"]
    assert texts(context.messages)[1:] == ["remember the frost date", "from a message entry"]
    assert dict(context.messages[1])["customType"] == "hint"


def test_failed_replies_stay_in_the_context() -> None:
    chain = Chain()
    chain.message(user("q"))
    chain.message(assistant("partial", stop="aborted"))
    chain.message(assistant("", stop="error"))
    assert len(build_session_context(chain.entries).messages) == 3


# --- conversion to LLM messages -----------------------------------------------------------


def test_conversion_keeps_the_three_provider_roles_as_they_are() -> None:
    messages = [user("q"), assistant("a", calls=[call("c1", "read", {"path": "x"})])]
    messages.append(tool_result("c1", "data"))
    converted = convert_to_llm(messages)
    assert converted == messages
    assert all(a is b for a, b in zip(converted, messages, strict=True))


def test_bash_execution_becomes_user_text_and_excluded_runs_are_dropped() -> None:
    runs = [
        bash("ls", "a.txt"),
        bash("false", "", exit_code=1),
        bash("sleep 9", "", cancelled=True),
        bash("big", "lots", truncated=True, fullOutputPath="/tmp/out.txt"),
        bash("secret", "hidden", excludeFromContext=True),
    ]
    converted = convert_to_llm(runs)
    assert roles(converted) == ["user"] * 4
    rendered = texts(converted)
    assert rendered[0] == "Ran `ls`\n```\na.txt\n```"
    assert rendered[1] == "Ran `false`\n(no output)\n\nCommand exited with code 1"
    assert rendered[2] == "Ran `sleep 9`\n(no output)\n\n(command cancelled)"
    assert rendered[3].endswith("[Output truncated. Full output: /tmp/out.txt]")


def test_custom_and_summaries_become_user_messages() -> None:
    wrapping = SummaryWrapping("<<", ">>", "[[", "]]")
    messages = [
        custom("plain string"),
        custom([{"type": "text", "text": "as blocks"}]),
        {"role": "branchSummary", "summary": "went left", "fromId": "x"},
        {"role": "compactionSummary", "summary": "did things", "tokensBefore": 5},
        {"role": "mystery", "content": "dropped"},
    ]
    converted = convert_to_llm(messages, wrapping)
    assert roles(converted) == ["user"] * 4
    assert texts(converted) == ["plain string", "as blocks", "[[went left]]", "<<did things>>"]


def test_default_wrapping_puts_the_summary_inside_its_own_words() -> None:
    converted = convert_to_llm([{"role": "compactionSummary", "summary": "S", "tokensBefore": 1}])
    assert texts(converted) == [DEFAULT_WRAPPING.wrap_compaction("S")]
    assert "S" in texts(converted)[0]
