"""Tool calls, their outcomes and the files they touched, from the tool events themselves.

Progress is never taken from anyone's prose: a call is ok, failed (with the first error
line of its result) or pending (no result yet) because the log says so. Files are those
the ``read`` / ``edit`` / ``write`` tools succeeded on, with the sha256 of the content a
``write`` wrote or a whole-file ``read`` returned; ``bash`` is not file tracking.

The lists are bounded: the oldest successful calls beyond a few hundred are folded into
per-tool counts, remembered by short digests so that merging the same messages again
does not bring them back.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from synopsis.messages import text_of, tool_arguments
from synopsis.state._errors import first_error_line
from synopsis.state._text import cap, digest, sha256
from synopsis.state.model import FileRecord, ToolCallRecord, ToolStatus, WorkingState

MAX_OK_CALLS = 400
MAX_FAILED_CALLS = 200
MAX_PENDING_CALLS = 200
MAX_TARGET = 160

_FILE_TOOLS = ("read", "edit", "write")
_TARGET_KEYS = ("path", "file_path", "filePath", "file", "command", "cmd", "url", "pattern",
                "query", "name")  # fmt: skip
_VALUE_KEYS = ("command", "cmd", "url", "query")


class ToolLedger:
    """The tool calls and files of a working state under construction."""

    def __init__(self, state: WorkingState) -> None:
        self.calls = {t.call_id: t for t in state.tool_calls}
        self.files = {f.path: f for f in state.files}
        self.folded = dict.fromkeys(state.folded.tool_calls)
        self.ok_by_tool = dict(state.folded.ok_calls_by_tool)

    def call(self, call: dict[str, Any], entry_id: str | None, index: int) -> list[str]:
        """Record a tool call; returns its argument strings worth scanning for values."""
        name = call.get("name")
        name = name if isinstance(name, str) else ""
        raw_id = call.get("id")
        call_id = raw_id if isinstance(raw_id, str) and raw_id else f"{entry_id}#{index}:{name}"
        known = self.calls.get(call_id)
        if digest(call_id) in self.folded or (known is not None and known.called):
            return []
        arguments = tool_arguments(call)
        content = arguments.get("content")
        content_sha = sha256(content) if name == "write" and isinstance(content, str) else None
        ranged = name == "read" and ("offset" in arguments or "limit" in arguments)
        target = _target(name, arguments)
        if known is not None:  # its result came first (out of order): complete the record
            self.calls[call_id] = replace(
                known,
                target=target,
                entry_id=entry_id,
                content_sha256=content_sha,
                ranged=ranged,
                called=True,
            )
        else:
            self.calls[call_id] = ToolCallRecord(
                call_id, name, target, "pending", None, entry_id, None, content_sha, ranged
            )
        return [
            cap(value, 2000)
            for value in (arguments.get(key) for key in _VALUE_KEYS)
            if isinstance(value, str)
        ]

    def result(self, message: dict[str, Any], entry_id: str | None) -> None:
        raw_id = message.get("toolCallId")
        name = message.get("toolName")
        name = name if isinstance(name, str) else ""
        call_id = raw_id if isinstance(raw_id, str) and raw_id else f"{entry_id}:result:{name}"
        record = self.calls.get(call_id)
        if record is None:
            if digest(call_id) in self.folded:
                return
            record = ToolCallRecord(call_id, name, "", called=False)
        elif record.status != "pending":
            return  # this result was merged before
        text = text_of(message)
        if message.get("isError") is True:
            record = replace(
                record, status="error", error=first_error_line(text), result_entry_id=entry_id
            )
        else:
            record = replace(record, status="ok", result_entry_id=entry_id)
            self._file_effect(record, text)
        self.calls[call_id] = record

    def _file_effect(self, record: ToolCallRecord, text: str) -> None:
        if record.name not in _FILE_TOOLS or not record.target:
            return
        path = record.target
        known = self.files.get(path)
        current = known or FileRecord(path)
        if record.name == "read":
            if record.ranged:
                current = replace(current, read=True)
            else:
                current = replace(current, read=True, sha256=sha256(text), sha256_source="read")
        elif record.name == "edit":
            current = replace(current, modified=True, sha256=None, sha256_source=None)
        else:
            created = known is None or not (known.read or known.modified or known.created)
            current = replace(
                current,
                created=current.created or created,
                modified=current.modified or not created,
                sha256=record.content_sha256,
                sha256_source="write" if record.content_sha256 else None,
            )
        self.files[path] = current

    def shell(self, message: dict[str, Any], entry_id: str | None) -> str | None:
        """Record a command the user ran (``!cmd``); returns it, or None if merged before."""
        command = message.get("command")
        command = command if isinstance(command, str) else ""
        stamp = message.get("timestamp")
        call_id = f"user-bash:{entry_id}" if entry_id else f"user-bash:{stamp}:{cap(command, 80)}"
        if call_id in self.calls or digest(call_id) in self.folded:
            return None
        exit_code = message.get("exitCode")
        cancelled = message.get("cancelled") is True
        failed = cancelled or (
            isinstance(exit_code, int) and not isinstance(exit_code, bool) and exit_code != 0
        )
        error = None
        if failed:
            output = message.get("output")
            if isinstance(output, str) and output.strip():
                error = first_error_line(output)
            else:
                error = (
                    "(command cancelled)" if cancelled else f"Command exited with code {exit_code}"
                )
        target = cap(command.strip().split("\n", 1)[0], MAX_TARGET)
        status: ToolStatus = "error" if failed else "ok"
        self.calls[call_id] = ToolCallRecord(
            call_id, "user-bash", target, status, error, entry_id, entry_id
        )
        return command

    def bounded_calls(self) -> list[ToolCallRecord]:
        """The calls to keep: the oldest beyond each status's limit are folded away."""
        records = list(self.calls.values())
        limits = {"ok": MAX_OK_CALLS, "error": MAX_FAILED_CALLS, "pending": MAX_PENDING_CALLS}
        counts = {"ok": 0, "error": 0, "pending": 0}
        for record in records:
            counts[record.status] += 1
        excess = {status: max(0, counts[status] - limits[status]) for status in counts}
        if not any(excess.values()):
            return records
        kept: list[ToolCallRecord] = []
        for record in records:
            if excess[record.status] > 0:
                excess[record.status] -= 1
                self.folded[digest(record.call_id)] = None
                if record.status == "ok":
                    self.ok_by_tool[record.name] = self.ok_by_tool.get(record.name, 0) + 1
                continue
            kept.append(record)
        return kept


def _target(name: str, arguments: dict[str, Any]) -> str:
    """What a call acted on: the path of a file tool, else its first telling argument."""
    for key in _TARGET_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            if name in _FILE_TOOLS and key == "path":
                return value
            return cap(value.strip().split("\n", 1)[0], MAX_TARGET)
    return ""
