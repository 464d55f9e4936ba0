"""A model that replays a recorded session, for demos and tests without a network.

:class:`ReplayModel` answers each call with the next assistant message of a recorded
transcript, and :func:`replay_tools` returns the recorded tool results in order. The
usage it reports is computed from what it was actually sent, so compaction sees real
numbers: after a compaction the reported input shrinks, as it would with a provider.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from synopsis.agent.fitting import fixed_request_tokens
from synopsis.agent.tools import Tool, ToolOutput
from synopsis.messages import AssistantMessage, role_of, text_of
from synopsis.providers.base import ChatRequest
from synopsis.session.entries import Entry
from synopsis.tokens import estimate_tokens


def request_tokens(request: ChatRequest) -> int:
    """Estimated input tokens of a request: system prompt, tools and messages."""
    fixed = fixed_request_tokens(request.system_prompt, request.tools)
    return fixed + sum(estimate_tokens(m) for m in request.messages)


@dataclass(slots=True)
class RecordedTurn:
    """One user prompt of a recording and the replies that followed it."""

    prompt: str
    replies: list[AssistantMessage] = field(default_factory=list)


def recorded_turns(entries: Iterable[Entry]) -> list[RecordedTurn]:
    """Split a recorded linear session into user prompts and assistant replies."""
    turns: list[RecordedTurn] = []
    for entry in entries:
        if entry.get("type") != "message":
            continue
        message = entry["message"]
        role = role_of(message)
        if role == "user":
            turns.append(RecordedTurn(text_of(message, "\n")))
        elif role == "assistant" and turns:
            turns[-1].replies.append(message)
    return [turn for turn in turns if turn.replies]


class ReplayModel:
    """Answers with the recorded replies, in order, whatever it is sent."""

    provider = "replay"

    def __init__(
        self, replies: Iterable[AssistantMessage], *, context_window: int, model_id: str = "replay"
    ) -> None:
        self._replies: deque[AssistantMessage] = deque(replies)
        self.context_window = context_window
        self.model_id = model_id
        self.requests: list[int] = []
        """Estimated input tokens of every request received (to check what was sent)."""

    async def complete(self, request: ChatRequest) -> AssistantMessage:
        sent = request_tokens(request)
        self.requests.append(sent)
        if not self._replies:
            return _reply([{"type": "text", "text": "(the recording has no more replies)"}], sent)
        recorded = self._replies.popleft()
        content = [dict(block) for block in recorded.get("content", [])]
        reply = _reply(content, sent, recorded.get("stopReason", "stop"))
        reply["provider"], reply["model"] = self.provider, self.model_id
        return reply


def _reply(content: Sequence[Any], input_tokens: int, stop: Any = "stop") -> AssistantMessage:
    message: AssistantMessage = {"role": "assistant", "content": list(content)}
    message["stopReason"] = stop
    output = estimate_tokens(message)
    message["usage"] = {
        "input": input_tokens,
        "output": output,
        "cacheRead": 0,
        "cacheWrite": 0,
        "totalTokens": input_tokens + output,
    }
    return message


def replay_tools(entries: Iterable[Entry]) -> list[Tool]:
    """Tools that return the recorded results, per tool name, in recorded order."""
    results: dict[str, deque[ToolOutput]] = defaultdict(deque)
    for entry in entries:
        message = entry.get("message") if entry.get("type") == "message" else None
        if isinstance(message, dict) and role_of(message) == "toolResult":
            output = ToolOutput(text_of(message, "\n"), bool(message.get("isError")))
            results[str(message.get("toolName"))].append(output)

    def make(name: str, queue: deque[ToolOutput]) -> Tool:
        def run(arguments: dict[str, Any]) -> ToolOutput:
            return queue.popleft() if queue else ToolOutput("(no recorded output)", True)

        return Tool(name, f"Replays the recorded results of `{name}`.", run)

    return [make(name, queue) for name, queue in results.items()]
