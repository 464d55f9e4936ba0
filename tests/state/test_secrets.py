"""Credentials stay out of checkpoints, ``details`` and what a model summarizer reads.

Key-shaped strings are assembled at run time from harmless parts; none is a real key.
"""

from __future__ import annotations

import asyncio
import json
from re import _parser as sre_parse
from typing import Any

import pytest

from synopsis.compaction.messages_api import compact_messages
from synopsis.compaction.orchestrate import compact_session
from synopsis.compaction.settings import CompactionSettings
from synopsis.session.tree import Session
from synopsis.state.extract import extract_working_state
from synopsis.state.guard import guard_summary
from synopsis.state.secrets import _SHAPES, SHORTEST_SECRET, find_secrets, redact
from synopsis.summarizers.base import SummaryRequest, SummaryResult

OPENAI_STYLE = "sk-" + "proj-" + "Zx81" * 6
CLOUD_KEY = "AKIA" + "QWERTYUIOPASDFGH"
TOKEN = "ghp_" + "k3Y9" * 9
JWT = "eyJ" + "hbGciOiJIUzI1NiJ9" + ".eyJ" + "zdWIiOiJ1c2VyLTQyIn0" + "." + "Sig_n4tur3-abcdEFGH"
BOT_TOKEN = "7001234567:AA" + "Hq2" * 11
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA0Z3\n-----END RSA PRIVATE KEY-----"


@pytest.mark.parametrize(
    ("text", "label"),
    [
        (f"export OPENAI_API_KEY={OPENAI_STYLE}", "API key"),
        (f"the key id is {CLOUD_KEY}", "API key"),
        (f"push with {TOKEN}", "API key"),
        (f"Authorization: Bearer {JWT}", "JWT"),
        (PEM, "private key"),
        (f"TELEGRAM_BOT_TOKEN={BOT_TOKEN}", "bot token"),
        (f"the bot answers with {BOT_TOKEN} as its key", "bot token"),
        ("postgres://app:Tr0ub4dor3@db.internal:5432/shop", "password"),
        ("DB password: Wq7!rTz92x", "password"),
        ("数据库密码是 Lm3#pQ8zw", "password"),
    ],
)
def test_credential_shapes_are_found(text: str, label: str) -> None:
    assert [f.label for f in find_secrets(text)] == [label]
    assert "[secret: " in redact(text, "e1") and ", entry e1]" in redact(text, "e1")


@pytest.mark.parametrize(
    "text",
    [
        "password: required",
        "token = make_session_token(user)",
        "api_key: ${VENDOR_API_KEY}",
        "The secret is to stir slowly.",
        "Commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed it.",
        "Order JD20260228-55172 ships today.",
        "At 20260228:AAbb the job 1234567890:ok finished at 12:30:00.",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert find_secrets(text) == []


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def test_the_working_state_holds_references_not_keys() -> None:
    state = extract_working_state(
        [user(f"Use this key for the vendor API: {OPENAI_STYLE}. Never log it.")],
        entry_ids=["a1b2c3d4"],
    )
    dumped = json.dumps(state.to_json())
    assert OPENAI_STYLE not in dumped
    assert "[secret: API key, entry a1b2c3d4]" in dumped


def test_the_guard_never_restores_a_key_the_summary_left_out() -> None:
    state = extract_working_state([user(f"The token is {TOKEN}, keep it handy.")], entry_ids=["e9"])
    assert TOKEN not in guard_summary("## Goal\n- ship it\n", state).text


class _Recording:
    """A summarizer that remembers what it was sent and echoes a line of it back."""

    def __init__(self) -> None:
        self.requests: list[SummaryRequest] = []

    async def summarize(self, request: SummaryRequest) -> SummaryResult:
        self.requests.append(request)
        return SummaryResult("## Goal\n- continue\n\n## Critical Context\n- " + OPENAI_STYLE)


def _session() -> Session:
    session = Session()
    session.append_message({"role": "user", "content": f"Deploy with key {OPENAI_STYLE} please."})
    for n in range(4):
        session.append_message(
            {"role": "assistant", "content": [{"type": "text", "text": "ok " * 300}]}
        )
        session.append_message({"role": "user", "content": f"step {n} " + "more " * 300})
    return session


def test_a_model_summarizer_never_sees_or_writes_the_key() -> None:
    session = _session()
    recording = _Recording()
    result, _ = asyncio.run(
        compact_session(session, recording, CompactionSettings(keep_recent_tokens=200))
    )
    assert recording.requests and all(
        OPENAI_STYLE not in r.conversation for r in recording.requests
    )
    assert OPENAI_STYLE not in result.summary
    assert OPENAI_STYLE not in json.dumps(result.details)
    assert "[secret: API key, entry " in json.dumps(result.details)


def test_the_setting_turns_redaction_off() -> None:
    settings = CompactionSettings(keep_recent_tokens=200, redact_secrets=False)
    result, _ = asyncio.run(compact_session(_session(), _Recording(), settings))
    assert OPENAI_STYLE in json.dumps(result.details)


def test_the_chat_list_api_redacts_too() -> None:
    messages = [
        {"role": "user", "content": "My staging password: Ab3$kd92Lx, use it for the import."},
        {"role": "assistant", "content": "Understood. " * 200},
        {"role": "user", "content": "Go on."},
        {"role": "assistant", "content": "Importing. " * 200},
    ]
    result = asyncio.run(compact_messages(messages, keep_recent_tokens=50))
    assert result.summary and "Ab3$kd92Lx" not in result.summary
    assert result.state is not None and "Ab3$kd92Lx" not in json.dumps(result.state.to_json())


def test_no_shape_matches_fewer_characters_than_the_shortest_secret() -> None:
    # texts shorter than SHORTEST_SECRET are never scanned: the bound must hold for every shape
    widths = [sre_parse.parse(s.pattern.pattern, s.pattern.flags).getwidth()[0] for s in _SHAPES]
    assert min(widths) == SHORTEST_SECRET
    shortest = "密码是Xk9pQ7"
    assert len(shortest) == SHORTEST_SECRET
    assert [f.label for f in find_secrets(shortest)] == ["password"]
