"""Under any cap the user's rules stay in their words, and a checkpoint passes its cap only
when nothing but the rules and the first request is left to give up."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synopsis.compaction.messages_api import compact_messages_sync

SAID = [
    "Please tidy up the nightly backup job for the wiki server.",
    "Do not delete any snapshot younger than 14 days.",
    "The backups land in bucket wiki-bak-eu under the prefix nightly/.",
    "Always keep a copy of the database dump outside the bucket too.",
    "Our retention contract with Lindqvist AB ends on 2027-01-31.",
    "Never print the storage credentials in the log.",
    "The cron user is svc-wikibak and it runs at 03:15.",
]


def _call(n: str) -> dict[str, Any]:
    arguments = json.dumps({"command": f"ls -la /var/backups/{n}"})
    return {"id": f"k{n}", "type": "function", "function": {"name": "bash", "arguments": arguments}}


def conversation(count: int, loop: int, split_turn: bool) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a sysadmin."}]
    for n, line in enumerate(SAID[:count]):
        messages.append({"role": "user", "content": line})
        for step in range(loop):
            call = f"{n}.{step}"
            messages.append({"role": "assistant", "content": None, "tool_calls": [_call(call)]})
            listing = f"-rw-r--r-- 1 svc-wikibak staff 4096 dump-{call}.sql.gz\n" * 5
            messages.append({"role": "tool", "tool_call_id": f"k{call}", "content": listing})
        if not split_turn:
            messages.append({"role": "assistant", "content": f"Done with step {n}."})
    return messages


def _tokens(text: str) -> int:
    return -(-len(text) // 4)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 7), st.integers(1, 5), st.booleans(), st.integers(1, 400))
def test_rules_stay_and_only_they_may_pass_the_cap(
    count: int, loop: int, split_turn: bool, cap: int
) -> None:
    messages = conversation(count, loop, split_turn)
    out = compact_messages_sync(messages, keep_recent_tokens=60, summary_max_tokens=cap)
    if not out.compacted or out.state is None:
        return
    checkpoint = out.summary or ""
    rules = [c.text for c in out.state.current_constraints() if c.source == "user"]
    for rule in rules:  # a rule never goes, whatever the cap
        assert rule in checkpoint, (rule, cap)
    # the message as sent, its wording included (a tight cap gets the tight wording)
    sent = next(str(m["content"]) for m in out.messages if checkpoint in str(m["content"]))
    if _tokens(sent) <= cap:
        return
    # over the cap: every line left is a rule or the first request
    first = out.state.goals[0].text if out.state.goals else ""
    for line in checkpoint.split("\n"):
        if line.startswith("- "):
            assert any(text and text in line for text in (*rules, first)), (line, cap)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 7), st.integers(1, 5), st.booleans(), st.floats(0.05, 0.5))
def test_under_a_context_cap_every_rule_stays_in_what_is_sent(
    count: int, loop: int, split_turn: bool, share: float
) -> None:
    """The kept messages give way to the checkpoint, the checkpoint's detail to the rules:
    a rule is in the checkpoint or in a message kept verbatim, never in neither."""
    messages = conversation(count, loop, split_turn)
    whole = sum(_tokens(json.dumps(m)) for m in messages)
    cap = max(60, int(share * whole))
    out = compact_messages_sync(
        messages, keep_recent_tokens=cap // 3, summary_max_tokens=cap, max_context_tokens=cap
    )
    if not out.compacted or out.state is None:
        return
    sent = "\n".join(str(m.get("content") or "") for m in out.messages)
    for rule in (c.text for c in out.state.current_constraints() if c.source == "user"):
        assert rule in sent, (rule, cap)
