"""OpenAI chat-format message lists (a JSON array, ``{"messages": [...]}`` or JSONL).

Mapping: ``user`` → a user message (text and ``data:`` image parts); ``assistant`` → an
assistant message with its text, ``reasoning_content`` as a thinking block, and each of
``tool_calls`` (or the legacy single ``function_call``) as a tool call; ``tool`` (and the
legacy ``function``) → a ``toolResult`` paired by ``tool_call_id``; ``system`` and
``developer`` → a ``custom_message`` entry (``customType: "openai/system"``, hidden): a Pi
session has no system role, but the instructions stay in the context the model is given.
Tool names are kept as they are (Pi's own ``read``/``write``/``edit`` are tracked as files
already). A message of any other role is kept as a ``custom`` entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from synopsis.importers._build import (
    Draft,
    ImportReport,
    PendingCalls,
    Row,
    custom_draft,
    instruction_draft,
    joined_text,
    message_draft,
    parse_arguments,
    text_block,
)

_ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
_DATA_URL = re.compile(r"data:([^;,]+);base64,(.*)", re.S)


def looks_like(value: Any) -> bool:
    return isinstance(value, dict) and value.get("role") in _ROLES and "message" not in value


def _user_content(content: Any) -> str | list[dict[str, Any]]:
    if isinstance(content, str) or not isinstance(content, list):
        return content if isinstance(content, str) else ""
    blocks: list[dict[str, Any]] = []
    for part in content:
        if not isinstance(part, dict):
            continue
        if isinstance(part.get("text"), str):
            blocks.append(text_block(part["text"]))
        elif part.get("type") == "image_url":
            image = part.get("image_url")
            url = image.get("url") if isinstance(image, dict) else image
            match = _DATA_URL.match(url) if isinstance(url, str) else None
            if match:
                blocks.append({"type": "image", "mimeType": match.group(1), "data": match.group(2)})
            else:
                blocks.append(text_block(f"[image: {url}]"))
    return blocks


class _Converter:
    def __init__(self, report: ImportReport) -> None:
        self.report = report
        self.pending = PendingCalls()
        self.legacy_calls = 0
        self.legacy_open: dict[str, list[str]] = {}
        """Ids given to legacy ``function_call``s, by function name, oldest first."""

    def rows(self, rows: Iterable[Row]) -> Iterator[Draft]:
        for row in rows:
            yield from self._message(row)
        self.report.unanswered_calls += len(self.pending)

    def _message(self, row: Row) -> Iterator[Draft]:
        unreadable = self.report.unreadable(row)
        if unreadable is not None:
            yield unreadable
            return
        message = row.value
        role = message.get("role") if isinstance(message, dict) else None
        if not isinstance(message, dict) or role not in _ROLES:
            self.report.kept(f"openai message role {role}")
            yield custom_draft(f"openai/{role}", message)
        elif role in ("system", "developer"):
            self.report.instruction_messages += 1
            yield instruction_draft(f"openai/{role}", joined_text(message.get("content")), None)
        elif role == "user":
            self.report.user_messages += 1
            yield message_draft(
                {"role": "user", "content": _user_content(message.get("content"))}, None
            )
        elif role == "assistant":
            yield message_draft(self._assistant(message), None)
        else:
            yield from self._result(message, role)

    def _assistant(self, message: dict[str, Any]) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        reasoning = message.get("reasoning_content")
        if isinstance(reasoning, str) and reasoning:
            content.append({"type": "thinking", "thinking": reasoning})
        text = joined_text(message.get("content"))
        if text:
            content.append(text_block(text))
        calls = [c for c in message.get("tool_calls") or [] if isinstance(c, dict)]
        legacy = message.get("function_call")
        if isinstance(legacy, dict):
            self.legacy_calls += 1
            call_id = f"function_call_{self.legacy_calls}"
            self.legacy_open.setdefault(str(legacy.get("name", "")), []).append(call_id)
            calls.append({"id": call_id, "function": legacy})
        for call in calls:
            raw_function = call.get("function")
            function: dict[str, Any] = raw_function if isinstance(raw_function, dict) else {}
            call_id, name = str(call.get("id", "")), str(function.get("name", ""))
            content.append(
                {
                    "type": "toolCall",
                    "id": call_id,
                    "name": name,
                    "arguments": parse_arguments(function.get("arguments")),
                }
            )
            self.pending.open(call_id, name)
            self.report.tool_calls += 1
        self.report.assistant_messages += 1
        return {
            "role": "assistant",
            "content": content,
            "api": "openai-completions",
            "provider": "openai",
            "stopReason": "toolUse" if calls else "stop",
        }

    def _result(self, message: dict[str, Any], role: str) -> Iterator[Draft]:
        call_id = message.get("tool_call_id")
        if role == "function":
            waiting = self.legacy_open.get(str(message.get("name", "")))
            call_id = waiting.pop(0) if waiting else None
        name = self.pending.close(call_id) if isinstance(call_id, str) else None
        if name is None:
            self.report.kept("openai tool result without its call")
            yield custom_draft("openai/orphan-tool-result", message)
            return
        self.report.tool_results += 1
        content = message.get("content")
        blocks = (
            [text_block(joined_text(content))]
            if not isinstance(content, str)
            else [text_block(content)]
        )
        yield message_draft(
            {
                "role": "toolResult",
                "toolCallId": call_id,
                "toolName": name,
                "content": blocks,
                "isError": False,
            },
            None,
        )


def convert(rows: Iterable[Row], report: ImportReport) -> Iterator[Draft]:
    """Pi entry drafts for an OpenAI chat message list, in order."""
    return _Converter(report).rows(rows)


def header_fields(rows: Iterable[Row]) -> dict[str, str]:
    return {}
