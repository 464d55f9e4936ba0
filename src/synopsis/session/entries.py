"""Session header and entry types (Pi's session format, version 3, as Pi 1.6 writes it).

Like messages, entries are plain dicts typed with TypedDict: every field Pi or an
extension wrote is kept, including fields and entry types we do not know.

This module is the one schema of the format: the entry types (:class:`EntryType`), what
the loader requires of every entry (:func:`entry_problem`), and the fields each entry
type, message role and content block must have (:data:`ENTRY_FIELDS`,
:data:`MESSAGE_FIELDS`, :data:`BLOCK_FIELDS`), which ``synopsis doctor`` checks.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, Literal, NotRequired, TypedDict

from synopsis.messages import AgentMessage, ImageContent, SystemMessage, TextContent

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
    """A checkpoint. ``firstKeptEntryId`` equal to the entry's own id keeps nothing before
    it (a retain-none compaction); ``systemMessage`` is the system prompt in force when it
    was made, which the context places first (the system messages it replaced are gone)."""

    type: Literal["compaction"]
    summary: str
    firstKeptEntryId: str
    tokensBefore: int
    details: NotRequired[Any]
    fromHook: NotRequired[bool]
    systemMessage: NotRequired[SystemMessage]


class ContextEditEntry(_EntryBase):
    """Changes what an earlier entry contributes to the context (Pi 1.6): ``replacement``
    ``null`` hides it (a failed attempt), else its content becomes ``replacement.content``.
    The edited entry itself stays as it was written."""

    type: Literal["context_edit"]
    targetId: str
    replacement: dict[str, Any] | None


class UsageEntry(_EntryBase):
    """Tokens spent outside the conversation (a title, a summary); never in the context."""

    type: Literal["usage"]
    usage: dict[str, Any]
    kind: NotRequired[str]


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
    | ContextEditEntry
    | UsageEntry
)
"""Every known entry type. Unknown types load as plain dicts and are written back as-is."""

Entry = dict[str, Any]
"""An entry as the tree stores it: any JSON object with ``type``, ``id`` and ``parentId``."""


class EntryType(StrEnum):
    """Every entry type Pi 1.6 writes."""

    MESSAGE = "message"
    MODEL_CHANGE = "model_change"
    THINKING_LEVEL_CHANGE = "thinking_level_change"
    COMPACTION = "compaction"
    BRANCH_SUMMARY = "branch_summary"
    CUSTOM = "custom"
    CUSTOM_MESSAGE = "custom_message"
    LABEL = "label"
    SESSION_INFO = "session_info"
    CONTEXT_EDIT = "context_edit"
    USAGE = "usage"


KNOWN_ENTRY_TYPES = frozenset(kind.value for kind in EntryType)


def entry_problem(value: Any, needs_id: bool) -> str | None:
    """Why a parsed line cannot be an entry (the loader skips it), or ``None`` when it can."""
    if not isinstance(value, dict):
        return f"an entry must be a JSON object, not {type(value).__name__}"
    if not isinstance(value.get("type"), str):
        return "entry has no string 'type'"
    if needs_id:
        if not isinstance(value.get("id"), str):
            return "entry has no string 'id'"
        parent = value.get("parentId")
        if parent is not None and not isinstance(parent, str):
            return "entry 'parentId' is neither a string nor null"
    if value["type"] == EntryType.MESSAGE:
        message = value.get("message")
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            return "message entry has no 'message' object with a string 'role'"
    return None


# --- field requirements (checked by ``synopsis doctor``) ---------------------------------


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_object(value: Any) -> bool:
    return isinstance(value, dict)


def _is_object_or_null(value: Any) -> bool:
    return value is None or isinstance(value, dict)


def _is_list(value: Any) -> bool:
    return isinstance(value, list)


def _is_content(value: Any) -> bool:
    return isinstance(value, str | list)


def _is_system_message(value: Any) -> bool:
    return isinstance(value, dict) and value.get("role") == "system"


FieldCheck = tuple[str, Callable[[Any], bool], str, bool]
"""(field, test of its value, what it should be, required). An optional field is checked
only when present; ``null`` content is how Pi 1.6 writes an empty message, and reads as
empty, so content fields accept it."""

_STR = "a string"
_BLOCKS = "a list of content blocks"
_CONTENT = "a string or a list of content blocks"


def _content_or_null(value: Any) -> bool:
    return value is None or _is_content(value)


def _blocks_or_null(value: Any) -> bool:
    return value is None or _is_list(value)


ENTRY_FIELDS: dict[str, tuple[FieldCheck, ...]] = {
    EntryType.MODEL_CHANGE: (
        ("provider", _is_str, _STR, True),
        ("modelId", _is_str, _STR, True),
    ),
    EntryType.THINKING_LEVEL_CHANGE: (("thinkingLevel", _is_str, _STR, True),),
    EntryType.COMPACTION: (
        ("summary", _is_str, _STR, True),
        ("firstKeptEntryId", _is_str, _STR, True),
        ("tokensBefore", _is_number, "a number", True),
        ("fromHook", _is_bool, "true or false", False),
        ("systemMessage", _is_system_message, "a message with role 'system'", False),
    ),
    EntryType.BRANCH_SUMMARY: (
        ("fromId", _is_str, _STR, True),
        ("summary", _is_str, _STR, True),
    ),
    EntryType.CUSTOM: (("customType", _is_str, _STR, True),),
    EntryType.CUSTOM_MESSAGE: (
        ("customType", _is_str, _STR, True),
        ("content", _content_or_null, _CONTENT, False),
        ("display", _is_bool, "true or false", True),
    ),
    EntryType.LABEL: (
        ("targetId", _is_str, _STR, True),
        ("label", lambda v: v is None or _is_str(v), "a string or null", False),
    ),
    EntryType.SESSION_INFO: (("name", _is_str, _STR, False),),
    EntryType.CONTEXT_EDIT: (
        ("targetId", _is_str, _STR, True),
        ("replacement", _is_object_or_null, "an object or null", True),
    ),
    EntryType.USAGE: (("usage", _is_object, "an object", True),),
}
"""Fields of each entry type besides ``type``, ``id``, ``parentId`` and ``timestamp``."""

MESSAGE_FIELDS: dict[str, tuple[FieldCheck, ...]] = {
    "user": (("content", _content_or_null, _CONTENT, False),),
    "assistant": (("content", _blocks_or_null, _BLOCKS, False),),
    "toolResult": (
        ("toolCallId", _is_str, _STR, True),
        ("toolName", _is_str, _STR, True),
        ("content", _content_or_null, _CONTENT, False),
        ("nestedCalls", _is_object, "an object", False),
    ),
    "bashExecution": (("command", _is_str, _STR, True), ("output", _is_str, _STR, True)),
    "custom": (("customType", _is_str, _STR, True), ("content", _is_content, _CONTENT, True)),
    "branchSummary": (("summary", _is_str, _STR, True),),
    "compactionSummary": (("summary", _is_str, _STR, True),),
    "system": (
        ("content", _content_or_null, _CONTENT, False),
        ("sections", _is_object, "an object", False),
        ("toolsAdded", _is_list, "a list", False),
        ("toolsRemoved", _is_list, "a list", False),
    ),
}
"""Fields of each message role besides ``role``."""

BLOCK_FIELDS: dict[str, tuple[FieldCheck, ...]] = {
    "text": (("text", _is_str, _STR, True),),
    "thinking": (("thinking", _is_str, _STR, True),),
    "image": (("data", _is_str, _STR, True), ("mimeType", _is_str, _STR, True)),
    "toolCall": (
        ("id", _is_str, _STR, True),
        ("name", _is_str, _STR, True),
        ("arguments", _is_object, "an object", True),
    ),
}
"""Fields of each content block type besides ``type``."""
