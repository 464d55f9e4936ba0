"""The wording of the checkpoint message is part of what its cap holds: under a tight cap the
sentence that explains the checkpoint gives way to the lines it explains, the tags stay, and
either wording is recognised as the previous checkpoint in the next round."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synopsis.compaction.messages_api import CompactedMessages, compact_messages_sync
from synopsis.messages import DEFAULT_WRAPPING, SummaryWrapping

SAID = [
    "Please move the nightly export of the ledger to the new host.",
    "The new host is ledger-exp-02 in rack B7.",
    "Never touch the exports older than 30 days.",
    "The export job runs as user svc-ledger at 02:40.",
]


def _listing(n: int) -> list[dict[str, Any]]:
    """A tool call listing an export folder, and its result."""
    arguments = json.dumps({"command": f"ls /srv/export/{n}"})
    call = {"id": f"c{n}", "type": "function", "function": {"name": "bash", "arguments": arguments}}
    return [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": f"c{n}", "content": f"ledger-{n}.csv\n" * 8},
    ]


def history(rounds: int, start: int = 0) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for n in range(start, start + rounds):
        messages.append({"role": "user", "content": SAID[n % len(SAID)] + f" (step {n})"})
        messages.extend(_listing(n))
        messages.append({"role": "assistant", "content": f"Listed export folder {n}."})
    return messages


def _checkpoint_text(out: CompactedMessages) -> str:
    summary = out.summary or ""
    return next(str(m["content"]) for m in out.messages if summary in str(m["content"]))


def _tokens(text: str) -> int:
    return -(-len(text) // 4)


def test_a_tight_cap_leaves_out_the_explaining_sentence_not_the_tags() -> None:
    out = compact_messages_sync(history(6), keep_recent_tokens=40, summary_max_tokens=120)
    sent = _checkpoint_text(out)
    assert sent.startswith("<checkpoint>\n") and sent.endswith("\n</checkpoint>")
    assert _tokens(sent) <= 120
    roomy = compact_messages_sync(history(6), keep_recent_tokens=40, summary_max_tokens=2000)
    assert _checkpoint_text(roomy).startswith(DEFAULT_WRAPPING.compaction_prefix)


def test_a_wording_without_a_tight_form_is_kept_under_any_cap() -> None:
    own = SummaryWrapping("[memory]\n", "\n[/memory]", "[branch]\n", "\n[/branch]")
    out = compact_messages_sync(
        history(6), keep_recent_tokens=40, summary_max_tokens=60, wrapping=own
    )
    assert _checkpoint_text(out).startswith("[memory]\n")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(40, 1200), st.integers(40, 1200))
def test_the_previous_checkpoint_is_recognised_in_either_wording(first: int, second: int) -> None:
    """Whatever wording each round's cap gave its message, the next round replaces the
    previous checkpoint: one checkpoint message is sent, never the old one as conversation."""
    one = compact_messages_sync(history(5), keep_recent_tokens=40, summary_max_tokens=first)
    if not one.compacted:
        return
    two = compact_messages_sync(
        [*one.messages, *history(4, start=5)],
        keep_recent_tokens=40,
        summary_max_tokens=second,
        previous_summary=one.summary,
        previous_state=one.state,
    )
    texts = [str(m.get("content")) for m in two.messages]
    assert sum("<checkpoint>" in text for text in texts) == 1
    if two.compacted and one.summary:
        assert all(one.summary not in text or text == _checkpoint_text(two) for text in texts)


def split_turn(rounds: int) -> list[dict[str, Any]]:
    """Three whole turns, then one request whose tool loop runs on: the cut splits its turn."""
    loop = [message for n in range(100, 100 + rounds) for message in _listing(n)]
    return [*history(3), {"role": "user", "content": SAID[0]}, *loop]


def test_a_tight_cap_marks_the_split_turn_with_the_rule_alone() -> None:
    tight = compact_messages_sync(split_turn(12), keep_recent_tokens=40, summary_max_tokens=120)
    sent = _checkpoint_text(tight)
    assert "\n---\n" in sent and "Earlier in the current turn" not in sent
    assert _tokens(sent) <= 120
    roomy = compact_messages_sync(split_turn(12), keep_recent_tokens=40, summary_max_tokens=2000)
    assert "## Earlier in the current turn (kept part follows)" in _checkpoint_text(roomy)
