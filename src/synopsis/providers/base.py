"""What synopsis needs from a chat model: one Protocol, its request, its error contract.

A :class:`ChatModel` takes the conversation (plain LLM messages, see
:func:`synopsis.messages.convert_to_llm`) plus tool definitions and returns one assistant
message in synopsis' format. Provider failures are *returned*, not raised, as a message
with ``stopReason: "error"`` and the provider's ``errorMessage``: that is what lets the
loop recognise a context overflow and recover from it, and it keeps the failed reply in
the session file for the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from synopsis.messages import (
    AssistantMessage,
    LlmMessage,
    ToolResultMessage,
    role_of,
    tool_calls,
)


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool as the model sees it: name, description and a JSON schema of arguments."""

    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})


@dataclass(frozen=True, slots=True)
class ChatRequest:
    system_prompt: str | None
    messages: Sequence[LlmMessage]
    tools: Sequence[ToolSpec] = ()
    max_tokens: int | None = None
    raise_on_failure: bool = False
    """Raise :class:`~synopsis.errors.SummarizerError` (with the retries' account and what
    to do) when the provider fails, instead of returning an error reply: for callers that
    have no session to record a failed reply in, such as a summarizer."""


@runtime_checkable
class ChatModel(Protocol):
    """A model the agent loop can call. See the module docstring for the error contract."""

    provider: str
    model_id: str
    context_window: int

    async def complete(self, request: ChatRequest) -> AssistantMessage: ...


def prepare_for_provider(messages: Sequence[LlmMessage]) -> list[LlmMessage]:
    """Make a context acceptable to providers.

    Failed and aborted replies stay in the session for the record but are not sent (their
    partial tool calls would be meaningless); tool results whose call is not in what is
    sent are dropped; a tool call that never got a result gets an error result saying so,
    because providers reject a call without its result.
    """
    sent: list[LlmMessage] = []
    pending: dict[str, str] = {}
    known_calls: set[str] = set()

    def close_pending() -> None:
        for call_id, name in pending.items():
            missing: ToolResultMessage = {
                "role": "toolResult",
                "toolCallId": call_id,
                "toolName": name,
                "content": [{"type": "text", "text": "No result provided"}],
                "isError": True,
            }
            sent.append(missing)
        pending.clear()

    for message in messages:
        role = role_of(message)
        if role == "assistant":
            if message.get("stopReason") in ("error", "aborted"):
                continue
            close_pending()
            sent.append(message)
            for call in tool_calls(message):
                call_id = str(call.get("id"))
                pending[call_id] = str(call.get("name"))
                known_calls.add(call_id)
        elif role == "toolResult":
            call_id = str(message.get("toolCallId"))
            if call_id in known_calls and call_id in pending:
                pending.pop(call_id)
                sent.append(message)
        elif role == "system":
            continue  # the session's system messages are not (yet) sent: we send our own
        else:
            close_pending()
            sent.append(message)
    close_pending()
    return sent
