"""Session header and entry types (Pi's session format, version 3).

Like messages, entries are plain dicts typed with TypedDict: every field Pi or an
extension wrote is kept, including fields and entry types we do not know.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from synopsis.messages import AgentMessage, ImageContent, TextContent

CURRENT_VERSION = 3


class SessionHeader(TypedDict):
    type: Literal["session"]
    version: NotRequired[int]
    id: str
    timestamp: str
    cwd: str
    parentSession: NotRequired[str]


class _EntryBase(TypedDict):
    id: str
    parentId: str | None
    timestamp: str


class MessageEntry(_EntryBase):
    type: Literal["message"]
    message: AgentMessage


class ModelChangeEntry(_EntryBase):
    type: Literal["model_change"]
    provider: str
    modelId: str


class ThinkingLevelChangeEntry(_EntryBase):
    type: Literal["thinking_level_change"]
    thinkingLevel: str


class CompactionEntry(_EntryBase):
    type: Literal["compaction"]
    summary: str
    firstKeptEntryId: str
    tokensBefore: int
    details: NotRequired[Any]
    fromHook: NotRequired[bool]


class BranchSummaryEntry(_EntryBase):
    type: Literal["branch_summary"]
    fromId: str
    summary: str
    details: NotRequired[Any]
    fromHook: NotRequired[bool]


class CustomEntry(_EntryBase):
    """Extension state; never part of the model's context."""

    type: Literal["custom"]
    customType: str
    data: NotRequired[Any]


class CustomMessageEntry(_EntryBase):
    """An extension message that is part of the model's context."""

    type: Literal["custom_message"]
    customType: str
    content: str | list[TextContent | ImageContent]
    display: bool
    details: NotRequired[Any]


class LabelEntry(_EntryBase):
    type: Literal["label"]
    targetId: str
    label: NotRequired[str | None]


class SessionInfoEntry(_EntryBase):
    type: Literal["session_info"]
    name: NotRequired[str]


SessionEntry = (
    MessageEntry
    | ModelChangeEntry
    | ThinkingLevelChangeEntry
    | CompactionEntry
    | BranchSummaryEntry
    | CustomEntry
    | CustomMessageEntry
    | LabelEntry
    | SessionInfoEntry
)
"""Every known entry type. Unknown types load as plain dicts and are written back as-is."""

Entry = dict[str, Any]
"""An entry as the tree stores it: any JSON object with ``type``, ``id`` and ``parentId``."""

KNOWN_ENTRY_TYPES = frozenset(
    {
        "message",
        "model_change",
        "thinking_level_change",
        "compaction",
        "branch_summary",
        "custom",
        "custom_message",
        "label",
        "session_info",
    }
)
