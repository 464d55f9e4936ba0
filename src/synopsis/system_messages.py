"""The system prompt a session records: Pi 1.6's system messages and their replay.

A session may hold messages with role ``system``: the first usually carries the whole
prompt (``content``, named ``sections``, the tool list as ``toolsAdded``), later ones
patch it. The prompt in force at a point is every system message replayed in order:
non-empty contents joined by a blank line, sections set or (``null``) deleted by name,
tools removed and added by name. A compaction stores that replayed prompt as its
``systemMessage``, because the messages it summarizes no longer carry it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from synopsis.messages import SystemMessage, text_of

CONTENT_SEPARATOR = "\n\n"


def _tool_name(tool: Any) -> str | None:
    name = tool.get("name") if isinstance(tool, dict) else None
    return name if isinstance(name, str) else None


def current_system_message(messages: Iterable[Any]) -> SystemMessage | None:
    """The system prompt in force after ``messages``, or ``None`` when there is none.

    Block content reads as its text blocks joined by newlines. The result carries the first
    system message's timestamp (0 without one); it is ``None`` when no system message has
    a timestamp and no tool is left, as Pi 1.6 decides.
    """
    contents: list[str] = []
    sections: dict[str, Any] = {}
    tools: dict[str, Any] = {}
    timestamp: Any = None
    for message in messages:
        if not isinstance(message, dict) or message.get("role") != "system":
            continue
        if timestamp is None:
            timestamp = message.get("timestamp")
        content = text_of(message, "\n")
        if content:
            contents.append(content)
        patch = message.get("sections")
        if isinstance(patch, dict):
            for name, value in patch.items():
                if value is None:
                    sections.pop(name, None)
                else:
                    sections[name] = value
        for key in ("toolsRemoved", "toolsAdded"):
            changes = message.get(key)
            if not isinstance(changes, list):
                continue
            for tool in changes:
                name = _tool_name(tool)
                if name is None:
                    continue
                if key == "toolsRemoved":
                    tools.pop(name, None)
                else:
                    tools[name] = tool
    if timestamp is None and not tools:
        return None
    result: SystemMessage = {"role": "system", "content": CONTENT_SEPARATOR.join(contents)}
    if sections:
        result["sections"] = dict(sections)
    if tools:
        result["toolsAdded"] = list(tools.values())
    result["timestamp"] = 0 if timestamp is None else timestamp
    return result
