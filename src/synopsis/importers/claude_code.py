"""Claude Code transcripts (``~/.claude/projects/<project>/<session>.jsonl``) as Pi entries.

Claude Code writes one row per content block: an assistant reply with text and two tool
calls is three ``assistant`` rows sharing ``message.id``, and the results come back as
``user`` rows holding ``tool_result`` blocks. Rows of one reply are merged into one Pi
assistant message; results that arrive while the reply is still open wait for it. The
same rows without ids or envelope (the exported ``{"loglines": [...]}`` form, or a JSON
array of rows) are read the same way.

Mapping:

- ``user`` rows: text and images → a user message; each ``tool_result`` → a
  ``toolResult`` message (``toolUseResult``, Claude Code's structured result, becomes its
  ``details``); hook feedback and other ``isMeta`` rows are user messages too, since the
  model saw them as such;
- ``assistant`` rows: ``text``, ``thinking``, ``redacted_thinking`` and ``tool_use``
  blocks → one assistant message with its usage, model and stop reason; file tools are
  renamed for Pi's file tracking (:mod:`synopsis.importers._file_tools`);
- everything else — ``summary``, ``system``, ``file-history-snapshot``,
  ``queue-operation``, rows of sub-agent conversations (``isSidechain``) in a main
  transcript (a sub-agent's own file, ``subagents/agent-*.jsonl``, whose rows are all
  marked so, is imported as a conversation), content blocks
  Pi has no type for (server tool calls and their results), results for calls the
  transcript never made — is kept verbatim as a ``custom`` entry and counted.

Claude Code's own compaction is kept as it is written: its ``compact_boundary`` system row
as a custom entry, and the summary it continued from (a user row flagged
``isCompactSummary``) as a user message; the imported context therefore holds both the
history before the boundary and that summary, and synopsis compacts it when it is too long.

Not carried over: the row envelope (``uuid``, ``parentUuid``, ``cwd``, ``gitBranch``,
``version``, ``requestId``…). The ``parentUuid`` links are not a conversation tree (with
parallel tool calls each result points at its own call's row), so the file order is the
conversation, and an edited or rewound prompt follows the abandoned one on the same branch.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from synopsis.importers._build import (
    Draft,
    ImportReport,
    PendingCalls,
    Row,
    custom_draft,
    iso_timestamp,
    json_text,
    message_draft,
    text_block,
    with_timestamp,
)
from synopsis.importers._file_tools import map_claude_call

_STOP_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "toolUse",
    "max_tokens": "length",
    "pause_turn": "stop",
    "refusal": "stop",
}

ROW_TYPES = frozenset({"user", "assistant"})
"""Row types that carry messages; every other row type is kept as a custom entry."""
_OWN_ROW_TYPES = frozenset({"summary", "file-history-snapshot", "queue-operation", "last-prompt"})
"""Row types only Claude Code writes (a transcript may begin with many of them)."""


def looks_like(value: Any) -> bool:
    """Whether a parsed row is a Claude Code row (used by format detection)."""
    if not isinstance(value, dict):
        return False
    if "parentUuid" in value or ("sessionId" in value and "type" in value):
        return True
    if value.get("type") in _OWN_ROW_TYPES:
        return True
    return value.get("type") in ROW_TYPES and isinstance(value.get("message"), dict)


def header_fields(rows: Iterable[Row]) -> dict[str, str]:
    """``id`` and ``cwd`` for the Pi header, from the first rows that name them."""
    fields: dict[str, str] = {}
    for row in rows:
        value = row.value
        if not isinstance(value, dict):
            continue
        for source, target in (("sessionId", "id"), ("cwd", "cwd"), ("timestamp", "timestamp")):
            if target not in fields and isinstance(value.get(source), str) and value[source]:
                fields[target] = value[source]
    return fields


def _image(block: dict[str, Any]) -> dict[str, Any] | None:
    source = block.get("source")
    if isinstance(source, dict) and source.get("type") == "base64":
        data, mime = source.get("data"), source.get("media_type")
        if isinstance(data, str) and isinstance(mime, str):
            return {"type": "image", "data": data, "mimeType": mime}
    return None


def _content_blocks(content: Any, report: ImportReport) -> list[dict[str, Any]]:
    """Text and images of user or tool-result content; other blocks become JSON text."""
    if isinstance(content, str):
        return [text_block(content)]
    converted: list[dict[str, Any]] = []
    for block in content if isinstance(content, list) else []:
        if isinstance(block, dict) and block.get("type") == "text":
            converted.append(text_block(str(block.get("text", ""))))
            continue
        image = _image(block) if isinstance(block, dict) else None
        if image is not None:
            converted.append(image)
            continue
        converted.append(text_block(json_text(block)))
        report.blocks_as_text += 1
    return converted


def _usage(usage: Any) -> dict[str, Any] | None:
    if not isinstance(usage, dict):
        return None

    def count(key: str) -> int:
        value = usage.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    parts = {
        "input": count("input_tokens"),
        "output": count("output_tokens"),
        "cacheRead": count("cache_read_input_tokens"),
        "cacheWrite": count("cache_creation_input_tokens"),
    }
    return {**parts, "totalTokens": sum(parts.values())}


class _Converter:
    def __init__(self, report: ImportReport) -> None:
        self.report = report
        self.pending = PendingCalls()
        self.turn: dict[str, Any] | None = None
        """The assistant message being assembled from rows sharing one ``message.id``."""
        self.turn_id: Any = None
        self.turn_time: str | None = None
        self.waiting: list[Draft] = []
        """Results (and user text) that arrived while the turn was open."""
        self.extra: list[Draft] = []
        """Custom entries for assistant blocks Pi has no type for, emitted after the turn."""
        self.subagent_file: bool | None = None
        """Whether the first message row is a sub-agent's: then the file is its transcript."""

    def rows(self, rows: Iterable[Row]) -> Iterator[Draft]:
        for row in rows:
            yield from self._row(row)
        yield from self._close_turn()
        self.report.unanswered_calls += len(self.pending)

    def _row(self, row: Row) -> Iterator[Draft]:
        unreadable = self.report.unreadable(row)
        if unreadable is not None:
            yield from self._aside(unreadable)
            return
        value = row.value
        kind = value.get("type") if isinstance(value, dict) else None
        message = value.get("message") if isinstance(value, dict) else None
        time = iso_timestamp(value.get("timestamp")) if isinstance(value, dict) else None
        if not isinstance(value, dict) or kind not in ROW_TYPES or not isinstance(message, dict):
            label = str(kind) if isinstance(kind, str) else "unknown row"
            self.report.kept(f"claude-code {label}")
            yield from self._aside(custom_draft(f"claude-code/{label}", value, time))
            return
        sidechain = bool(value.get("isSidechain"))
        if self.subagent_file is None:
            self.subagent_file = sidechain
        if sidechain and not self.subagent_file:
            self.report.kept("claude-code sub-agent row (isSidechain)")
            yield from self._aside(custom_draft("claude-code/sidechain", value, time))
            return
        if kind == "assistant":
            yield from self._assistant(value, message, time)
        else:
            drafts = list(self._user(value, message, time))
            if self.turn is not None and all(self._is_result(d) for d in drafts):
                self.waiting.extend(drafts)
            else:
                yield from self._close_turn()
                yield from drafts

    def _aside(self, draft: Draft) -> Iterator[Draft]:
        """A custom entry: after the open reply (rows of one reply stay one message), or now."""
        if self.turn is not None:
            self.extra.append(draft)
        else:
            yield draft

    @staticmethod
    def _is_result(draft: Draft) -> bool:
        return draft.get("type") == "message" and draft["message"].get("role") == "toolResult"

    def _assistant(
        self, row: dict[str, Any], message: dict[str, Any], time: str | None
    ) -> Iterator[Draft]:
        message_id = message.get("id")
        if self.turn is None or message_id is None or message_id != self.turn_id:
            yield from self._close_turn()
            self.turn = with_timestamp(
                {"role": "assistant", "content": [], "api": "anthropic-messages"},
                row.get("timestamp"),
            )
            self.turn["provider"] = "anthropic"
            self.turn_id, self.turn_time = message_id, time
        turn = self.turn
        if isinstance(message.get("model"), str):
            turn["model"] = message["model"]
        usage = _usage(message.get("usage"))
        if usage is not None:
            turn["usage"] = usage
        if message.get("stop_reason") in _STOP_REASONS:
            turn["stopReason"] = _STOP_REASONS[message["stop_reason"]]
        if row.get("isApiErrorMessage"):
            turn["stopReason"] = "error"
        content = message.get("content")
        for block in content if isinstance(content, list) else [text_block(str(content or ""))]:
            self._assistant_block(turn, block, row, time)

    def _assistant_block(
        self, turn: dict[str, Any], block: Any, row: dict[str, Any], time: str | None
    ) -> None:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            turn["content"].append(text_block(str(block.get("text", ""))))
        elif kind == "thinking":
            thinking = {"type": "thinking", "thinking": str(block.get("thinking", ""))}
            if isinstance(block.get("signature"), str):
                thinking["thinkingSignature"] = block["signature"]
            turn["content"].append(thinking)
        elif kind == "redacted_thinking":
            redacted = {"type": "thinking", "thinking": "", "redacted": True}
            if isinstance(block.get("data"), str):
                redacted["thinkingSignature"] = block["data"]
            turn["content"].append(redacted)
        elif kind == "tool_use" and isinstance(block.get("id"), str):
            arguments = block.get("input") if isinstance(block.get("input"), dict) else {}
            mapped = map_claude_call(str(block.get("name", "")), arguments)
            turn["content"].append(
                {
                    "type": "toolCall",
                    "id": block["id"],
                    "name": mapped.name,
                    "arguments": mapped.arguments,
                }
            )
            self.pending.open(block["id"], mapped.name)
            self.report.tool_calls += 1
        else:
            label = str(kind) if isinstance(kind, str) else "unknown"
            self.report.kept(f"claude-code assistant block {label}")
            self.extra.append(custom_draft(f"claude-code/block/{label}", block, time))

    def _close_turn(self) -> Iterator[Draft]:
        turn, self.turn = self.turn, None
        if turn is not None:
            if "stopReason" not in turn:
                has_calls = any(b.get("type") == "toolCall" for b in turn["content"])
                turn["stopReason"] = "toolUse" if has_calls else "stop"
            if turn["stopReason"] == "error":
                turn["errorMessage"] = " ".join(
                    b["text"] for b in turn["content"] if b.get("type") == "text"
                )
            self.report.assistant_messages += 1
            yield message_draft(turn, self.turn_time)
        waiting, self.waiting = self.waiting, []
        extra, self.extra = self.extra, []
        yield from waiting
        yield from extra

    def _user(
        self, row: dict[str, Any], message: dict[str, Any], time: str | None
    ) -> Iterator[Draft]:
        content = message.get("content")
        if not isinstance(content, list):
            self.report.user_messages += 1
            text = content if isinstance(content, str) else ""
            yield message_draft(
                with_timestamp({"role": "user", "content": text}, row.get("timestamp")), time
            )
            return
        others: list[Any] = []
        details_given = False
        for block in content:
            if not (isinstance(block, dict) and block.get("type") == "tool_result"):
                others.append(block)
                continue
            call_id = block.get("tool_use_id")
            name = self.pending.close(call_id) if isinstance(call_id, str) else None
            if name is None:
                self.report.kept("claude-code tool result without its call")
                yield custom_draft("claude-code/orphan-tool-result", block, time)
                continue
            result: dict[str, Any] = {
                "role": "toolResult",
                "toolCallId": call_id,
                "toolName": name,
                "content": _content_blocks(block.get("content"), self.report),
                "isError": bool(block.get("is_error")),
            }
            if not details_given and "toolUseResult" in row:
                result["details"] = row["toolUseResult"]
                details_given = True
            self.report.tool_results += 1
            yield message_draft(with_timestamp(result, row.get("timestamp")), time)
        if others:
            self.report.user_messages += 1
            user = {"role": "user", "content": _content_blocks(others, self.report)}
            yield message_draft(with_timestamp(user, row.get("timestamp")), time)


def convert(rows: Iterable[Row], report: ImportReport) -> Iterator[Draft]:
    """Pi entry drafts for the rows of a Claude Code transcript, in order."""
    return _Converter(report).rows(rows)
