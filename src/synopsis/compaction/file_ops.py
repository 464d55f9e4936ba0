"""Files an agent read and changed, collected from its tool calls.

Only the built-in ``read``, ``write`` and ``edit`` tools with a string ``path`` count,
called by the assistant or from inside another tool (a tool result's ``nestedCalls``, as
Pi 1.6's code mode records them); paths are kept as the model wrote them. The lists
travel from one compaction to the next in the entry's ``details``, so a checkpoint never
forgets a file it once named.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any


def calls_of(message: Any) -> Iterator[tuple[object, object]]:
    """``(name, path)`` of each call of ``message``: an assistant's tool-call blocks (a
    string content has none), a tool result's ``nestedCalls``; ``None`` where a call has
    no such field (or its arguments are no object)."""
    if not isinstance(message, dict):
        return
    role = message.get("role")
    if role == "assistant":
        content = message.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "toolCall":
                    yield _name_and_path(block)
    elif role == "toolResult":
        nested = message.get("nestedCalls")
        calls = nested.get("calls") if isinstance(nested, dict) else None
        if isinstance(calls, list):
            for call in calls:
                if isinstance(call, dict):
                    yield _name_and_path(call)


def _name_and_path(call: dict[str, Any]) -> tuple[object, object]:
    arguments = call.get("arguments")
    return call.get("name"), arguments.get("path") if isinstance(arguments, dict) else None


@dataclass(slots=True)
class FileOperations:
    """Paths by operation, each in first-seen order without repeats."""

    read: dict[str, None] = field(default_factory=dict)
    written: dict[str, None] = field(default_factory=dict)
    edited: dict[str, None] = field(default_factory=dict)

    def add_calls(self, calls: Iterable[tuple[object, object]]) -> None:
        """Calls given as ``(name, path)``: a built-in file tool's name and a string path
        count, anything else is passed over."""
        targets = {"read": self.read, "write": self.written, "edit": self.edited}
        for name, path in calls:
            if isinstance(path, str) and isinstance(name, str) and name in targets:
                targets[name][path] = None

    def add_from_message(self, message: Any) -> None:
        """The calls of one message (:func:`add_from_messages` reads many)."""
        self.add_from_messages((message,))

    def add_from_messages(self, messages: Iterable[Any]) -> None:
        """The calls of ``messages`` (see :func:`calls_of`)."""
        self.add_calls(call for message in messages for call in calls_of(message))

    def add_from_details(self, details: Any) -> None:
        """Carry over the lists a previous compaction or branch summary stored."""
        if not isinstance(details, dict):
            return
        for key, target in (("readFiles", self.read), ("modifiedFiles", self.edited)):
            paths = details.get(key)
            if isinstance(paths, list):
                for path in paths:
                    if isinstance(path, str):
                        target[path] = None

    def file_lists(self) -> tuple[list[str], list[str]]:
        """(read-only files, modified files), each sorted as JavaScript sorts strings."""
        modified = set(self.edited) | set(self.written)
        read_only = [path for path in self.read if path not in modified]
        return sorted(read_only, key=js_sort_key), sorted(modified, key=js_sort_key)


def js_sort_key(text: str) -> bytes:
    """Sort key matching JavaScript's default sort (by UTF-16 code units)."""
    return text.encode("utf-16-be", "surrogatepass")


def format_file_lists(read_files: list[str], modified_files: list[str]) -> str:
    """The file lists appended to a checkpoint, or "" when there are none."""
    sections = []
    if read_files:
        sections.append("<read-files>\n" + "\n".join(read_files) + "\n</read-files>")
    if modified_files:
        sections.append("<modified-files>\n" + "\n".join(modified_files) + "\n</modified-files>")
    return "\n\n" + "\n\n".join(sections) if sections else ""
