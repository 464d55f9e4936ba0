"""Token accounting: per-message estimates, usage-based context size, the trigger."""

from __future__ import annotations

from typing import Any

import pytest

from synopsis.tokens import (
    calculate_context_tokens,
    estimate_context_tokens,
    estimate_tokens,
    should_compact,
    valid_usage,
)
from tests.session.builders import assistant, bash, call, custom, tool_result, usage, user

GRINNING = "\U0001f600"
CJK_EXT_B = "\U00020000"


def chars(n: int) -> str:
    return "x" * n


# --- per-message estimates ----------------------------------------------------------------


@pytest.mark.parametrize(("n", "tokens"), [(0, 0), (1, 1), (4, 1), (5, 2), (8, 2), (9, 3)])
def test_estimate_is_characters_over_four_rounded_up(n: int, tokens: int) -> None:
    assert estimate_tokens(user(chars(n), as_string=True)) == tokens
    assert estimate_tokens(user(chars(n))) == tokens


def test_characters_are_utf16_code_units() -> None:
    # five emoji: 10 UTF-16 units (3 tokens), though only 5 code points (2 tokens)
    assert estimate_tokens(user(GRINNING * 5)) == 3
    assert estimate_tokens(user(CJK_EXT_B * 5, as_string=True)) == 3
    assert estimate_tokens(user("中文字符" * 2)) == 2  # BMP: one unit each


def test_text_blocks_add_up() -> None:
    message = {"role": "user", "content": [{"type": "text", "text": chars(3)}] * 3}
    assert estimate_tokens(message) == 3  # 9 chars


@pytest.mark.parametrize(
    "build",
    [
        lambda images: user(chars(4), images=images),
        lambda images: tool_result("c1", chars(4), images=images),
        lambda images: custom([{"type": "text", "text": chars(4)}] + [{"type": "image"}] * images),
    ],
    ids=["user", "toolResult", "custom"],
)
def test_each_image_counts_1200_tokens(build: Any) -> None:
    assert estimate_tokens(build(0)) == 1
    assert estimate_tokens(build(1)) == 1201  # (4 + 4800) / 4
    assert estimate_tokens(build(2)) == 2401


def test_image_only_user_message_is_not_free() -> None:
    assert estimate_tokens(user(images=1)) == 1200


def test_custom_message_with_string_content() -> None:
    assert estimate_tokens(custom(chars(10))) == 3


def test_tool_result_with_bare_string_content_is_one_text_block() -> None:
    message = {"role": "toolResult", "toolCallId": "c", "content": chars(9)}
    assert estimate_tokens(message) == 3


def test_assistant_counts_text_thinking_and_tool_calls() -> None:
    arguments = {"path": "a.txt"}  # JSON.stringify → {"path":"a.txt"}: 16 chars
    message = assistant("hi", thinking="hmm", calls=[call("c1", "read", arguments)])
    # 2 (text) + 3 (thinking) + 4 (name) + 16 (arguments) = 25 chars → 7 tokens
    assert estimate_tokens(message) == 7


def test_tool_call_arguments_are_measured_as_compact_javascript_json() -> None:
    arguments = {"b": 1.0, "2": "é", "1": [1e21, -0.0]}
    # {"1":[1e+21,0],"2":"é","b":1} is 29 UTF-16 units; name "f" adds 1 → 30 → 8 tokens
    assert estimate_tokens(assistant(calls=[call("c", "f", arguments)])) == 8


def test_missing_or_null_arguments_count_as_empty_object() -> None:
    missing = call("c1", "ls")  # no "arguments" key at all
    null = dict(missing, arguments=None)
    for block in (missing, null, call("c1", "ls", {})):
        assert estimate_tokens(assistant(calls=[block])) == 1  # "ls" + "{}": 4 chars
    assert estimate_tokens(assistant(calls=[call("c1", "lsx")])) == 2  # 5 chars


def test_thinking_block_without_text_counts_nothing() -> None:
    message = {
        "role": "assistant",
        "content": [{"type": "thinking"}, {"type": "text", "text": "ab"}],
    }
    assert estimate_tokens(message) == 1


def test_images_in_assistant_messages_are_ignored() -> None:
    message = {"role": "assistant", "content": [{"type": "image", "data": "", "mimeType": "x"}]}
    assert estimate_tokens(message) == 0


def test_bash_execution_counts_command_and_output_even_when_excluded() -> None:
    assert estimate_tokens(bash(chars(3), chars(6))) == 3
    assert estimate_tokens(bash(chars(3), chars(6), excludeFromContext=True)) == 3


def test_summaries_count_their_summary() -> None:
    assert estimate_tokens({"role": "branchSummary", "summary": chars(10), "fromId": "x"}) == 3
    assert estimate_tokens({"role": "compactionSummary", "summary": chars(4)}) == 1


@pytest.mark.parametrize("message", [{"role": "mystery", "content": "abc"}, {}, {"role": 5}])
def test_unknown_roles_count_nothing(message: dict[str, Any]) -> None:
    assert estimate_tokens(message) == 0


# --- usage --------------------------------------------------------------------------------


def test_context_tokens_is_the_sum_without_total() -> None:
    assert calculate_context_tokens(usage(1000, 500, 200, 100)) == 1800


def test_context_tokens_prefers_total() -> None:
    assert calculate_context_tokens(usage(1000, 500, 200, 100, total=5000)) == 5000


def test_total_tokens_zero_falls_back_to_the_sum() -> None:
    assert calculate_context_tokens(usage(10, 20, 30, 40, total=0)) == 100


def test_all_zero_and_missing_fields_give_zero() -> None:
    assert calculate_context_tokens(usage()) == 0
    assert calculate_context_tokens({}) == 0
    assert calculate_context_tokens({"input": None, "output": "7", "cacheRead": True}) == 0


def test_usage_too_large_for_a_double_is_no_count() -> None:
    """``1e400`` in a session file parses (as in JavaScript) to infinity; it must not crash."""
    assert calculate_context_tokens({"input": float("inf"), "output": 7}) == 7
    assert calculate_context_tokens({"totalTokens": float("inf"), "input": 3}) == 3
    message = assistant("x", usage_={"input": float("inf")})
    assert valid_usage(message) is None
    assert estimate_context_tokens([user("abcd"), message]).tokens == 1 + 1


def test_valid_usage_of_a_normal_reply() -> None:
    message = assistant("ok", usage_=usage(5, 1), stop="length")
    assert valid_usage(message) == usage(5, 1)


@pytest.mark.parametrize(
    "message",
    [
        assistant("x", usage_=usage(100, 10), stop="aborted"),
        assistant("x", usage_=usage(100, 10), stop="error"),
        assistant("x", usage_=usage(0, 0, total=0)),
        assistant("x", usage_=usage()),
        assistant("x"),  # no usage at all
        dict(assistant("x"), usage=None),
        user("not an assistant"),
    ],
    ids=["aborted", "error", "zero-total", "all-zero", "missing", "null", "user"],
)
def test_usage_that_says_nothing_about_the_context_is_ignored(message: dict[str, Any]) -> None:
    assert valid_usage(message) is None


# --- context estimate ---------------------------------------------------------------------


def test_context_estimate_uses_the_last_valid_usage() -> None:
    messages = [
        user("a"),
        assistant("b", usage_=usage(100, 50, total=150)),
        user("c"),
        assistant("d", usage_=usage(200, 100, total=300)),
    ]
    result = estimate_context_tokens(messages)
    assert (result.tokens, result.usage_tokens, result.trailing_tokens) == (300, 300, 0)
    assert result.last_usage_index == 3


def test_context_estimate_skips_an_aborted_last_reply() -> None:
    messages = [
        user("a"),
        assistant("b", usage_=usage(100, 50)),
        user(chars(40)),
        assistant(chars(8), usage_=usage(300), stop="aborted"),
    ]
    result = estimate_context_tokens(messages)
    assert result.last_usage_index == 1
    assert result.usage_tokens == 150
    assert result.trailing_tokens == 10 + 2
    assert result.tokens == 162


def test_context_estimate_skips_all_zero_usage() -> None:
    messages = [assistant("b", usage_=usage(70)), user("c"), assistant("d", usage_=usage())]
    result = estimate_context_tokens(messages)
    assert result.last_usage_index == 0
    assert result.tokens == 70 + 1 + 1


def test_context_estimate_without_usage_is_the_sum_of_estimates() -> None:
    messages = [user(chars(8)), assistant(chars(12)), tool_result("c", chars(4))]
    result = estimate_context_tokens(messages)
    assert result.last_usage_index is None
    assert (result.tokens, result.usage_tokens, result.trailing_tokens) == (6, 0, 6)
    assert estimate_context_tokens([]).tokens == 0


def test_precomputed_estimates_give_the_same_result() -> None:
    messages = [user(chars(8)), assistant("b", usage_=usage(9)), user(chars(17)), user("x")]
    per_message = [estimate_tokens(m) for m in messages]
    assert estimate_context_tokens(messages, per_message) == estimate_context_tokens(messages)


# --- trigger ------------------------------------------------------------------------------


def test_should_compact_when_less_than_the_reserve_is_left() -> None:
    assert should_compact(95_000, 100_000, 10_000)
    assert not should_compact(89_000, 100_000, 10_000)
    assert not should_compact(90_000, 100_000, 10_000)  # strictly greater
    assert should_compact(90_001, 100_000, 10_000)


def test_should_compact_never_when_disabled() -> None:
    assert not should_compact(95_000, 100_000, 10_000, enabled=False)


def test_zero_window_triggers_whenever_a_reserve_is_set() -> None:
    assert not should_compact(0, 0, 0)  # 0 > 0 is false
    assert should_compact(0, 0, 1)
    assert should_compact(1, 0, 0)


def test_current_context_tokens_ignores_usage_from_before_the_checkpoint() -> None:
    from synopsis.tokens import current_context_tokens

    def reply(total: int) -> dict[str, object]:
        return {"role": "assistant", "content": [], "usage": {"totalTokens": total}}

    summary = {"role": "compactionSummary", "summary": "s" * 40, "tokensBefore": 0}
    kept_old = reply(150_000)  # answered from the context compaction replaced
    newer = {"role": "user", "content": "x" * 400}
    messages = [summary, kept_old, newer]
    # No usage after the checkpoint (index 2): every message is estimated.
    stale = current_context_tokens(messages, new_messages_start=2)
    assert stale.tokens == 10 + 0 + 100 and stale.last_usage_index is None
    # A reply after the checkpoint counts, plus what came after it.
    fresh = current_context_tokens([*messages, reply(5_000), newer], new_messages_start=2)
    assert fresh.tokens == 5_000 + 100 and fresh.last_usage_index == 3
    # Without a checkpoint it is the ordinary estimate.
    assert current_context_tokens(messages).tokens == 150_000 + 100
