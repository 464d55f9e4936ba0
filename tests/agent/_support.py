"""Helpers for the agent-loop tests: real SDK models on llm_server, events, wire checks."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any, TypeVar

import pytest

from synopsis.agent.events import AgentEvent
from synopsis.agent.tools import Tool
from synopsis.messages import role_of
from synopsis.providers._retry import RetryPolicy
from synopsis.providers.anthropic import AnthropicChatModel
from synopsis.providers.base import ChatRequest
from synopsis.providers.openai import OpenAIChatModel
from synopsis.session.store import FileSession, open_session
from synopsis.summarizers.prompts import SYSTEM_PROMPT as SUMMARIZER_PROMPT
from tests.llm_server import LLMServer, Protocol, RecordedRequest
from tests.summarizers._support import PROTOCOLS as PROTOCOLS
from tests.summarizers._support import RecordingSleep, base_url, run

T = TypeVar("T")

NO_JITTER = RetryPolicy(max_attempts=3, base_delay=0.5, max_delay=10.0, jitter=0.0)
SYSTEM_PROMPT = "You are a careful agent. Use the tools when you need facts."

MODEL: dict[Protocol, str] = {"openai": "test-model", "anthropic": "claude-test"}
"""The model name :func:`chat_model` gives each protocol's model."""
CHAT_MODEL: dict[Protocol, type[OpenAIChatModel] | type[AnthropicChatModel]] = {
    "openai": OpenAIChatModel,
    "anthropic": AnthropicChatModel,
}
KEY_ENV: dict[Protocol, str] = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}

PROVIDER_ENVIRONMENT: dict[Protocol, tuple[str, ...]] = {
    "openai": ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"),
    "anthropic": ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL"),
}
"""Variables through which each SDK could pick up a key or a server of the machine."""


def chat_model(
    server: LLMServer,
    protocol: Protocol,
    *,
    context_window: int = 200_000,
    sleep: RecordingSleep | None = None,
    retry: RetryPolicy = NO_JITTER,
    **options: Any,
) -> OpenAIChatModel | AnthropicChatModel:
    """The real SDK model for ``protocol``, pointed at ``server``."""
    options.setdefault("api_key", "test-key")
    return CHAT_MODEL[protocol](
        MODEL[protocol],
        context_window=context_window,
        base_url=base_url(server, protocol),
        retry=retry,
        sleep=sleep or RecordingSleep(),
        **options,
    )


def clear_environment(monkeypatch: pytest.MonkeyPatch, *protocols: Protocol) -> None:
    """Remove the keys and base URLs ``protocols``' SDKs would read from the environment."""
    for protocol in protocols:
        for name in PROVIDER_ENVIRONMENT[protocol]:
            monkeypatch.delenv(name, raising=False)


def user(text: str) -> Any:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}


def ask(server: LLMServer, protocol: Protocol, *messages: Any, **options: Any) -> Any:
    """One ``complete`` of a fresh ``protocol`` model on ``server`` (default: a "hi")."""
    request = ChatRequest(None, list(messages) or [user("hi")])
    return run(chat_model(server, protocol, **options).complete(request))


def new_session(tmp_path: Path, name: str = "session.jsonl") -> FileSession:
    return open_session(tmp_path / name, create=True, cwd=str(tmp_path))


def reopen(session: FileSession) -> FileSession:
    """The session as read back from its file: proves what was persisted."""
    return open_session(session.file_path)


def file_messages(session: FileSession) -> list[Any]:
    """Every message entry's message in the file, in file order."""
    return [e["message"] for e in reopen(session).entries if e["type"] == "message"]


class Events:
    """A listener that keeps every event."""

    def __init__(self) -> None:
        self.events: list[AgentEvent] = []

    def __call__(self, event: AgentEvent) -> None:
        self.events.append(event)

    @property
    def types(self) -> list[str]:
        return [event.type for event in self.events]

    def of(self, kind: type[T]) -> list[T]:
        return [event for event in self.events if isinstance(event, kind)]


def words(seed: int, count: int) -> str:
    """Deterministic filler text of ``count`` distinct-ish words."""
    rng = random.Random(seed)
    vocabulary = [
        "parser",
        "buffer",
        "retry",
        "socket",
        "ledger",
        "invoice",
        "upload",
        "token",
        "schema",
        "cursor",
        "webhook",
        "tenant",
    ]
    return " ".join(f"{rng.choice(vocabulary)}{rng.randrange(1000)}" for _ in range(count))


def file_tool(files: dict[str, str], name: str = "read") -> Tool:
    """A real tool reading from an in-memory file system; a missing file is an error."""

    def read(arguments: dict[str, Any]) -> str:
        return files[str(arguments["path"])]

    return Tool(
        name,
        "Read a file of the project.",
        read,
        {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    )


# --- what went over the wire ---------------------------------------------------------------


def request_tokens(request: RecordedRequest) -> int:
    """Estimated tokens of a recorded request: its JSON body's length / 4."""
    return -(-len(request.raw) // 4)


def agent_requests(server: LLMServer) -> list[RecordedRequest]:
    """Requests of the agent loop, not of a model summarizer."""
    return [r for r in server.requests if r.system != SUMMARIZER_PROMPT]


def assert_wire_paired(request: RecordedRequest) -> None:
    """Every call is answered right after its assistant message, and nothing else is."""
    messages = request.messages
    if request.protocol == "openai":
        for index, message in enumerate(messages):
            ids = [c["id"] for c in message.get("tool_calls") or []]
            following = []
            for later in messages[index + 1 :]:
                if later.get("role") != "tool":
                    break
                following.append(later["tool_call_id"])
            if message.get("role") == "assistant":
                assert sorted(following) == sorted(ids), (ids, following)
            if message.get("role") == "tool":
                previous = [m for m in messages[:index] if m.get("role") != "tool"][-1]
                assert message["tool_call_id"] in [c["id"] for c in previous["tool_calls"]]
        return
    for index, message in enumerate(messages):
        content = message.get("content") if isinstance(message.get("content"), list) else []
        ids = [b["id"] for b in content if b.get("type") == "tool_use"]
        if ids:
            answer = messages[index + 1]["content"]
            answered = [b["tool_use_id"] for b in answer if b.get("type") == "tool_result"]
            assert sorted(answered) == sorted(ids), (ids, answered)
            kinds = [b.get("type") for b in answer]
            assert kinds[: len(ids)] == ["tool_result"] * len(ids), kinds
        results = [b["tool_use_id"] for b in content if b.get("type") == "tool_result"]
        if results:
            previous = messages[index - 1]["content"]
            assert sorted(results) == sorted(
                b["id"] for b in previous if b.get("type") == "tool_use"
            )
    roles = [m["role"] for m in messages]
    assert all(a != b for a, b in pairwise(roles)), roles


def assert_llm_paired(messages: Sequence[Any]) -> None:
    """The same check on synopsis LLM messages (what a ChatModel is handed)."""
    for index, message in enumerate(messages):
        role = role_of(message)
        if role == "assistant":
            ids = [b["id"] for b in message["content"] if b.get("type") == "toolCall"]
            following = []
            for later in messages[index + 1 :]:
                if role_of(later) != "toolResult":
                    break
                following.append(later["toolCallId"])
            assert sorted(following) == sorted(ids), (index, ids, following)
        elif role == "toolResult":
            assert index > 0 and role_of(messages[index - 1]) in ("assistant", "toolResult")
