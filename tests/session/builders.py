"""Small builders for messages and entries, shared by the session and compaction tests.

Every message is a plain dict in Pi's shape; entry chains get readable ids (``e01``,
``e02``, …) so that a failing assertion names the entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

IMAGE = {"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"}
MODEL = ("acme", "acme-large-2")


def text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def user(text: str = "", *, images: int = 0, as_string: bool = False) -> dict[str, Any]:
    if as_string:
        return {"role": "user", "content": text, "timestamp": 1}
    content: list[dict[str, Any]] = [text_block(text)] if text else []
    content.extend(dict(IMAGE) for _ in range(images))
    return {"role": "user", "content": content, "timestamp": 1}


def usage(
    input: int = 0,
    output: int = 0,
    cache_read: int = 0,
    cache_write: int = 0,
    total: int | None = None,
) -> dict[str, Any]:
    value: dict[str, Any] = {
        "input": input,
        "output": output,
        "cacheRead": cache_read,
        "cacheWrite": cache_write,
    }
    if total is not None:
        value["totalTokens"] = total
    return value


def call(call_id: str, name: str, arguments: Any = None, **fields: Any) -> dict[str, Any]:
    block = {"type": "toolCall", "id": call_id, "name": name, **fields}
    if arguments is not None:
        block["arguments"] = arguments
    return block


def assistant(
    text: str = "",
    *,
    calls: Iterable[dict[str, Any]] = (),
    thinking: str | None = None,
    usage_: dict[str, Any] | None = None,
    stop: str = "stop",
    model: tuple[str, str] = MODEL,
) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if thinking is not None:
        content.append({"type": "thinking", "thinking": thinking})
    if text:
        content.append(text_block(text))
    content.extend(calls)
    message: dict[str, Any] = {
        "role": "assistant",
        "content": content,
        "provider": model[0],
        "model": model[1],
        "stopReason": stop,
        "timestamp": 2,
    }
    if usage_ is not None:
        message["usage"] = usage_
    return message


def tool_result(
    call_id: str, text: str = "", *, name: str = "read", images: int = 0, error: bool = False
) -> dict[str, Any]:
    content: list[dict[str, Any]] = [text_block(text)] if text else []
    content.extend(dict(IMAGE) for _ in range(images))
    return {
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": name,
        "content": content,
        "isError": error,
        "timestamp": 3,
    }


def bash(command: str, output: str, *, exit_code: int | None = 0, **fields: Any) -> dict[str, Any]:
    return {
        "role": "bashExecution",
        "command": command,
        "output": output,
        "exitCode": exit_code,
        "cancelled": False,
        "truncated": False,
        "timestamp": 4,
        **fields,
    }


def custom(content: Any, custom_type: str = "note") -> dict[str, Any]:
    return {
        "role": "custom",
        "customType": custom_type,
        "content": content,
        "display": True,
        "timestamp": 5,
    }


class Chain:
    """Builds raw entries; each new entry's parent is the previous one unless told."""

    def __init__(self, prefix: str = "e") -> None:
        self.entries: list[dict[str, Any]] = []
        self._prefix = prefix

    def _add(self, kind: str, parent: str | bool | None = True, **fields: Any) -> str:
        entry_id = f"{self._prefix}{len(self.entries) + 1:02d}"
        if parent is True:
            parent_id = self.entries[-1]["id"] if self.entries else None
        elif parent is False:
            parent_id = None
        else:
            parent_id = parent
        second = len(self.entries) % 60
        self.entries.append(
            {
                "type": kind,
                "id": entry_id,
                "parentId": parent_id,
                "timestamp": f"2026-03-01T10:00:{second:02d}.000Z",
                **fields,
            }
        )
        return entry_id

    def message(self, message: dict[str, Any], parent: str | bool | None = True) -> str:
        return self._add("message", parent, message=message)

    def compaction(
        self, first_kept: str, summary: str = "summary", tokens_before: int = 1000, **fields: Any
    ) -> str:
        return self._add(
            "compaction",
            summary=summary,
            firstKeptEntryId=first_kept,
            tokensBefore=tokens_before,
            **fields,
        )

    def model_change(self, provider: str, model_id: str) -> str:
        return self._add("model_change", provider=provider, modelId=model_id)

    def thinking(self, level: str) -> str:
        return self._add("thinking_level_change", thinkingLevel=level)

    def label(self, target: str, label: str | None) -> str:
        return self._add("label", targetId=target, label=label)

    def custom(self, custom_type: str = "state", data: Any = None) -> str:
        return self._add("custom", customType=custom_type, data=data)

    def custom_message(self, content: Any, custom_type: str = "hint") -> str:
        return self._add("custom_message", customType=custom_type, content=content, display=True)

    def branch_summary(
        self, summary: str, parent: str | bool | None = True, from_id: str = "root"
    ) -> str:
        return self._add("branch_summary", parent, fromId=from_id, summary=summary)

    def session_info(self, name: str) -> str:
        return self._add("session_info", name=name)

    def index(self, entry_id: str) -> int:
        return next(i for i, e in enumerate(self.entries) if e["id"] == entry_id)


def texts(messages: Iterable[Any]) -> list[str]:
    """A readable digest of messages: their text, or the summary for summaries."""
    out = []
    for message in messages:
        role = message.get("role")
        if role in ("branchSummary", "compactionSummary"):
            out.append(f"<{message['summary']}>")
        elif role == "bashExecution":
            out.append(f"$ {message['command']}")
        else:
            content = message.get("content")
            if isinstance(content, str):
                out.append(content)
            else:
                out.append("".join(b.get("text", "") for b in content if b.get("type") == "text"))
    return out
