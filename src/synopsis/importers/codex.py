"""Codex CLI rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``) as Pi entries.

A rollout line is ``{"timestamp", "type", "payload"}``; the conversation is in the
``response_item`` lines, which are Responses-API items. Rollouts written before late 2025
have no envelope: a first line with the session's ``id`` and ``instructions``, then the
items themselves and ``{"record_type": "state"}`` markers. Both are read.

Mapping:

- ``message`` items: ``user`` → a user message (Codex's own ``<environment_context>``
  and ``<user_instructions>`` messages included: the model saw them as user turns);
  ``assistant`` → text of an assistant message;
- ``developer`` (and ``system``) messages are the harness's instructions — sandbox and
  approval rules, collaboration mode, AGENTS.md. Pi keeps no system prompt in a session,
  so they become ``custom_message`` entries (``customType: "codex/developer"``,
  ``display: false``): they stay in the context the model is given, as user-role text,
  and are not counted as the user's messages;
- consecutive ``reasoning``, assistant ``message``, ``function_call``,
  ``custom_tool_call`` and ``local_shell_call`` items form one assistant message (one
  model response); reasoning becomes a thinking block with its summary text, the item
  itself (encrypted content included) kept as the block's signature;
- ``*_output`` items → ``toolResult`` messages, paired by ``call_id``; the JSON wrapper
  older rollouts put around shell output (``{"output", "metadata"}``) is unwrapped, a
  non-zero exit code marks the result as an error;
- ``apply_patch`` (as a tool or as a shell heredoc) and shell commands that only print a
  file are renamed for Pi's file tracking (:mod:`synopsis.importers._file_tools`);
- a ``turn_context`` naming a new model also gives a ``model_change`` entry, and the
  ``token_count`` event that follows a model response gives its message Pi's ``usage``
  (so threshold decisions use the provider's count, as for a live session);
- every other line — ``session_meta``, ``turn_context``, ``event_msg`` (the UI's event
  stream, which repeats the items), ``compacted``, state markers, items Pi has no type
  for (web searches…) — is kept verbatim as a ``custom`` entry and counted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import orjson

from synopsis.importers._build import (
    Draft,
    ImportReport,
    PendingCalls,
    Row,
    custom_draft,
    instruction_draft,
    iso_timestamp,
    joined_text,
    json_text,
    message_draft,
    parse_arguments,
    text_block,
    with_timestamp,
)
from synopsis.importers._file_tools import MappedCall, map_codex_shell, map_patch

_ENVELOPES = frozenset({"session_meta", "response_item", "turn_context", "event_msg", "compacted"})
_ITEM_TYPES = frozenset(
    {
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "local_shell_call_output",
        "web_search_call",
    }
)
_CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call"})
_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output", "local_shell_call_output"})
_SHELL_TOOLS = frozenset(
    {"shell", "exec_command", "local_shell", "container.exec", "shell_command"}
)
_CWD_TAG = re.compile(r"<cwd>([^<]+)</cwd>")


def looks_like(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    if value.get("type") in _ENVELOPES and "payload" in value:
        return True
    if "record_type" in value:
        return True
    if value.get("type") in _ITEM_TYPES and "message" not in value:
        return value.get("type") != "message" or value.get("role") is not None
    return "instructions" in value and "id" in value and "timestamp" in value


def _old_meta(value: dict[str, Any]) -> bool:
    return "type" not in value and "id" in value and "timestamp" in value


def header_fields(rows: Iterable[Row]) -> dict[str, str]:
    fields: dict[str, str] = {}
    for row in rows:
        value = row.value
        if not isinstance(value, dict):
            continue
        payload = value.get("payload") if "payload" in value else value
        if not isinstance(payload, dict):
            continue
        if value.get("type") == "session_meta" or _old_meta(value):
            for key in ("id", "cwd", "timestamp"):
                if key not in fields and isinstance(payload.get(key), str) and payload[key]:
                    fields[key] = payload[key]
        if "cwd" not in fields and isinstance(payload.get("cwd"), str) and payload["cwd"]:
            fields["cwd"] = payload["cwd"]
        if "cwd" not in fields and payload.get("type") == "message":
            match = _CWD_TAG.search(joined_text(payload.get("content")))
            if match:
                fields["cwd"] = match.group(1).strip()
    return fields


def _user_content(content: Any) -> list[dict[str, Any]] | str:
    if isinstance(content, str):
        return content
    blocks: list[dict[str, Any]] = []
    for part in content if isinstance(content, list) else []:
        if not isinstance(part, dict):
            continue
        if isinstance(part.get("text"), str):
            blocks.append(text_block(part["text"]))
        elif part.get("type") == "input_image":
            url = part.get("image_url")
            match = (
                re.match(r"data:([^;]+);base64,(.*)", url, re.S) if isinstance(url, str) else None
            )
            if match:
                blocks.append({"type": "image", "mimeType": match.group(1), "data": match.group(2)})
            else:
                blocks.append(text_block(f"[image: {url}]"))
    return blocks


def _map_call(item: dict[str, Any]) -> tuple[str | None, MappedCall]:
    kind = item.get("type")
    name = str(item.get("name") or ("local_shell" if kind == "local_shell_call" else ""))
    call_id = item.get("call_id", item.get("id"))
    if kind == "custom_tool_call":
        raw = item.get("input")
        arguments: dict[str, Any] = {"input": raw}
        if name == "apply_patch" and isinstance(raw, str):
            return _id(call_id), map_patch(name, arguments, raw)
        return _id(call_id), MappedCall(name, arguments)
    if kind == "local_shell_call":
        action = item.get("action")
        arguments = dict(action) if isinstance(action, dict) else {}
        return _id(call_id), map_codex_shell(name, arguments)
    arguments = parse_arguments(item.get("arguments"))
    if name == "apply_patch" and isinstance(arguments.get("input"), str):
        return _id(call_id), map_patch(name, arguments, arguments["input"])
    if name in _SHELL_TOOLS:
        return _id(call_id), map_codex_shell(name, arguments)
    return _id(call_id), MappedCall(name, arguments)


def _id(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _output(item: dict[str, Any]) -> tuple[list[dict[str, Any]], bool, Any]:
    """Content, whether it failed, and details of a tool output item."""
    output = item.get("output")
    if isinstance(output, dict):
        text = joined_text(output.get("content")) if "content" in output else json_text(output)
        failed = output.get("success") is False
        return [text_block(text)], failed, None
    if isinstance(output, list):
        return [text_block(joined_text(output))], False, None
    text = output if isinstance(output, str) else ""
    if text.startswith("{"):
        try:
            wrapped = orjson.loads(text)
        except orjson.JSONDecodeError:
            wrapped = None
        if isinstance(wrapped, dict) and isinstance(wrapped.get("output"), str):
            metadata = wrapped.get("metadata")
            exit_code = metadata.get("exit_code") if isinstance(metadata, dict) else None
            failed = isinstance(exit_code, int) and exit_code != 0
            return [text_block(wrapped["output"])], failed, metadata
    return [text_block(text)], False, None


def _usage(event: dict[str, Any]) -> dict[str, int] | None:
    """Pi usage from a ``token_count`` event: the last model call's tokens.

    OpenAI counts cached input inside ``input_tokens``; Pi counts it apart, in ``cacheRead``.
    """
    info = event.get("info") if event.get("type") == "token_count" else None
    last = info.get("last_token_usage") if isinstance(info, dict) else None
    if not isinstance(last, dict):
        return None

    def count(key: str) -> int:
        value = last.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    cached = count("cached_input_tokens")
    usage = {
        "input": max(count("input_tokens") - cached, 0),
        "output": count("output_tokens"),
        "cacheRead": cached,
        "cacheWrite": 0,
    }
    usage["totalTokens"] = count("total_tokens") or sum(usage.values())
    return usage if usage["totalTokens"] else None


def _row_label(value: dict[str, Any]) -> str:
    kind = value.get("type")
    if isinstance(kind, str):
        return kind
    if "record_type" in value:
        return f"record_type {value['record_type']}"
    return "session_meta" if _old_meta(value) else "unknown row"


class _Converter:
    def __init__(self, report: ImportReport) -> None:
        self.report = report
        self.pending = PendingCalls()
        self.turn: dict[str, Any] | None = None
        self.turn_time: str | None = None
        self.deferred: list[Draft] = []
        """Custom entries met while a model response was being assembled."""
        self.provider = "openai"
        self.model: str | None = None

    def rows(self, rows: Iterable[Row]) -> Iterator[Draft]:
        for row in rows:
            yield from self._row(row)
        yield from self._close_turn()
        self.report.unanswered_calls += len(self.pending)

    def _keep(self, label: str, value: Any, time: str | None) -> Iterator[Draft]:
        self.report.kept(f"codex {label}")
        draft = custom_draft(f"codex/{label}", value, time)
        if self.turn is not None:
            self.deferred.append(draft)
        else:
            yield draft

    def _row(self, row: Row) -> Iterator[Draft]:
        unreadable = self.report.unreadable(row)
        if unreadable is not None:
            if self.turn is not None:
                self.deferred.append(unreadable)
            else:
                yield unreadable
            return
        value = row.value
        if not isinstance(value, dict):
            yield from self._keep("unknown row", value, None)
            return
        time = iso_timestamp(value.get("timestamp"))
        kind = value.get("type")
        payload = value.get("payload")
        if kind == "response_item" and isinstance(payload, dict):
            yield from self._item(payload, value.get("timestamp"), time)
            return
        if kind in _ITEM_TYPES and "payload" not in value:
            yield from self._item(value, value.get("timestamp"), time)
            return
        if kind == "session_meta" and isinstance(payload, dict):
            provider = payload.get("model_provider")
            if isinstance(provider, str) and provider:
                self.provider = provider
        if kind == "event_msg" and isinstance(payload, dict) and self.turn is not None:
            usage = _usage(payload)
            if usage is not None:
                self.turn["usage"] = usage
        yield from self._keep(_row_label(value), value, time)
        if kind == "turn_context" and isinstance(payload, dict):
            model = payload.get("model")
            if isinstance(model, str) and model and model != self.model:
                self.model = model
                change: Draft = {
                    "type": "model_change",
                    "provider": self.provider,
                    "modelId": model,
                }
                if time:
                    change["timestamp"] = time
                if self.turn is not None:
                    self.deferred.append(change)
                else:
                    yield change

    def _open_turn(self, source_time: Any, time: str | None) -> dict[str, Any]:
        if self.turn is None:
            self.turn = with_timestamp(
                {"role": "assistant", "content": [], "api": "openai-responses"}, source_time
            )
            self.turn["provider"] = self.provider
            if self.model is not None:
                self.turn["model"] = self.model
            self.turn_time = time
        return self.turn

    def _item(self, item: dict[str, Any], source_time: Any, time: str | None) -> Iterator[Draft]:
        kind = item.get("type")
        if kind == "message":
            role = item.get("role")
            if role == "assistant":
                text = joined_text(item.get("content"))
                self._open_turn(source_time, time)["content"].append(text_block(text))
                return
            yield from self._close_turn()
            if role == "user":
                self.report.user_messages += 1
                user = {"role": "user", "content": _user_content(item.get("content"))}
                yield message_draft(with_timestamp(user, source_time), time)
            elif role in ("developer", "system"):
                self.report.instruction_messages += 1
                yield instruction_draft(f"codex/{role}", joined_text(item.get("content")), time)
            else:
                yield from self._keep(f"message role {role}", item, time)
        elif kind == "reasoning":
            summary = item.get("summary")
            text = joined_text(summary) if isinstance(summary, list) else str(summary or "")
            if not text and isinstance(item.get("content"), list):
                text = joined_text(item["content"])
            self._open_turn(source_time, time)["content"].append(
                {
                    "type": "thinking",
                    "thinking": text,
                    "thinkingSignature": json_text(item),
                }
            )
        elif kind in _CALLS:
            call_id, mapped = _map_call(item)
            if call_id is None:
                yield from self._keep(f"{kind} without call_id", item, time)
                return
            self._open_turn(source_time, time)["content"].append(
                {
                    "type": "toolCall",
                    "id": call_id,
                    "name": mapped.name,
                    "arguments": mapped.arguments,
                }
            )
            self.pending.open(call_id, mapped.name)
            self.report.tool_calls += 1
            if mapped.several_files:
                self.report.several_file_patches += 1
        elif kind in _OUTPUTS:
            yield from self._close_turn()
            yield from self._result(item, source_time, time)
        else:
            yield from self._keep(f"item {kind}", item, time)

    def _result(self, item: dict[str, Any], source_time: Any, time: str | None) -> Iterator[Draft]:
        call_id = _id(item.get("call_id", item.get("id")))
        name = self.pending.close(call_id) if call_id is not None else None
        if call_id is None or name is None:
            yield from self._keep("tool output without its call", item, time)
            return
        content, failed, details = _output(item)
        result: dict[str, Any] = {
            "role": "toolResult",
            "toolCallId": call_id,
            "toolName": name,
            "content": content,
            "isError": failed,
        }
        if details is not None:
            result["details"] = details
        self.report.tool_results += 1
        yield message_draft(with_timestamp(result, source_time), time)

    def _close_turn(self) -> Iterator[Draft]:
        turn, self.turn = self.turn, None
        if turn is not None:
            has_calls = any(block.get("type") == "toolCall" for block in turn["content"])
            turn["stopReason"] = "toolUse" if has_calls else "stop"
            self.report.assistant_messages += 1
            yield message_draft(turn, self.turn_time)
        deferred, self.deferred = self.deferred, []
        yield from deferred


def convert(rows: Iterable[Row], report: ImportReport) -> Iterator[Draft]:
    """Pi entry drafts for the lines of a Codex rollout, in order."""
    return _Converter(report).rows(rows)
