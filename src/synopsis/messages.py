"""Message and content-block types, and conversion to plain LLM messages.

Messages are plain ``dict`` objects typed with :class:`~typing.TypedDict`. That choice is
deliberate: they come straight from JSON (Pi's session files, provider payloads), they keep
every field we do not know about, and building no wrapper objects keeps loading a
100,000-entry session fast. The readers in this module are tolerant of malformed blocks
(a tool call without ``arguments``, a thinking block without ``thinking``, a tool result
whose content is a bare string), because real session files contain them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, NotRequired, TypedDict, cast

import orjson

# --- content blocks -----------------------------------------------------------------------


class TextContent(TypedDict):
    type: Literal["text"]
    text: str


class ImageContent(TypedDict):
    type: Literal["image"]
    data: str
    mimeType: str


class ThinkingContent(TypedDict):
    type: Literal["thinking"]
    thinking: str
    thinkingSignature: NotRequired[str]
    redacted: NotRequired[bool]


class ToolCall(TypedDict):
    type: Literal["toolCall"]
    id: str
    name: str
    arguments: dict[str, Any]


ContentBlock = TextContent | ImageContent | ThinkingContent | ToolCall


class Usage(TypedDict, total=False):
    input: int
    output: int
    cacheRead: int
    cacheWrite: int
    totalTokens: int
    cost: dict[str, float]


StopReason = Literal["stop", "length", "toolUse", "error", "aborted"]

# --- messages -----------------------------------------------------------------------------


class UserMessage(TypedDict):
    role: Literal["user"]
    content: str | list[TextContent | ImageContent]
    timestamp: NotRequired[int]


class AssistantMessage(TypedDict):
    role: Literal["assistant"]
    content: list[TextContent | ThinkingContent | ToolCall]
    api: NotRequired[str]
    provider: NotRequired[str]
    model: NotRequired[str]
    usage: NotRequired[Usage]
    stopReason: NotRequired[StopReason]
    errorMessage: NotRequired[str]
    timestamp: NotRequired[int]


class ToolResultMessage(TypedDict):
    role: Literal["toolResult"]
    toolCallId: str
    toolName: str
    content: list[TextContent | ImageContent]
    isError: bool
    details: NotRequired[Any]
    timestamp: NotRequired[int]


class BashExecutionMessage(TypedDict):
    """A shell command the *user* ran (Pi's ``!cmd``); it reaches the model as user text."""

    role: Literal["bashExecution"]
    command: str
    output: str
    exitCode: int | None
    cancelled: bool
    truncated: bool
    fullOutputPath: NotRequired[str]
    excludeFromContext: NotRequired[bool]
    timestamp: NotRequired[int]


class CustomMessage(TypedDict):
    """A message injected by an extension; it reaches the model as user content."""

    role: Literal["custom"]
    customType: str
    content: str | list[TextContent | ImageContent]
    display: bool
    details: NotRequired[Any]
    timestamp: NotRequired[int]


class BranchSummaryMessage(TypedDict):
    role: Literal["branchSummary"]
    summary: str
    fromId: str
    timestamp: NotRequired[int]


class CompactionSummaryMessage(TypedDict):
    role: Literal["compactionSummary"]
    summary: str
    tokensBefore: int
    timestamp: NotRequired[int]


class SystemMessage(TypedDict):
    """Part of the system prompt recorded in the session (Pi 1.6).

    Each one patches the prompt in force: its non-empty ``content`` is appended, its
    ``sections`` replace (``null`` deletes) sections by name, ``toolsRemoved`` and
    ``toolsAdded`` change the tool list by name. See :mod:`synopsis.system_messages`.
    """

    role: Literal["system"]
    content: str | list[TextContent | ImageContent]
    sections: NotRequired[dict[str, str | None]]
    toolsAdded: NotRequired[list[dict[str, Any]]]
    toolsRemoved: NotRequired[list[dict[str, Any]]]
    timestamp: NotRequired[int]


AgentMessage = (
    UserMessage
    | AssistantMessage
    | ToolResultMessage
    | BashExecutionMessage
    | CustomMessage
    | BranchSummaryMessage
    | CompactionSummaryMessage
    | SystemMessage
)
"""Every message a session context can hold."""

LlmMessage = UserMessage | AssistantMessage | ToolResultMessage | SystemMessage
"""What a model provider understands: the result of :func:`convert_to_llm`.

System messages pass through as Pi 1.6's ``convertToLlm`` passes them; a provider client
sends them as (part of) the system prompt, or not at all."""


# --- tolerant readers ---------------------------------------------------------------------


def blocks(message: Any) -> list[dict[str, Any]]:
    """The content blocks of a message; a bare string becomes one text block."""
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return [block for block in content if isinstance(block, dict)]
    return []


def block_text(block: dict[str, Any], field: str = "text") -> str:
    """A block's text field, or "" when it is missing or not a string."""
    value = block.get(field)
    return value if isinstance(value, str) else ""


def text_of(message: Any, separator: str = "") -> str:
    """The text of a message's text blocks joined by ``separator`` (images dropped)."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    return separator.join(
        block_text(block) for block in blocks(message) if block.get("type") == "text"
    )


def tool_arguments(call: dict[str, Any]) -> dict[str, Any]:
    """A tool call's arguments; missing or ``null`` arguments read as ``{}``."""
    arguments = call.get("arguments")
    return arguments if isinstance(arguments, dict) else {}


def tool_calls(message: Any) -> Iterator[dict[str, Any]]:
    """The tool-call blocks of an assistant message."""
    for block in blocks(message):
        if block.get("type") == "toolCall":
            yield block


def role_of(message: Any) -> str:
    role = message.get("role") if isinstance(message, dict) else None
    return role if isinstance(role, str) else ""


# --- conversion to provider messages ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SummaryWrapping:
    """How a checkpoint and a branch summary are worded when they reach the model.

    The stored entry is the same whatever the wording: this only shapes the user message
    that carries it. Applications (and the Pi-parity driver) may supply their own.
    ``tight_compaction_prefix`` is the checkpoint's opening under a cap its usual wording
    would take a noticeable share of (:func:`synopsis.compaction.compact_messages`): the
    sentence that explains the checkpoint is detail, the tag that bounds it is not.
    ``None`` keeps ``compaction_prefix`` under every cap.
    """

    compaction_prefix: str
    compaction_suffix: str
    branch_prefix: str
    branch_suffix: str
    tight_compaction_prefix: str | None = None

    def wrap_compaction(self, summary: str) -> str:
        return self.compaction_prefix + summary + self.compaction_suffix

    def wrap_branch(self, summary: str) -> str:
        return self.branch_prefix + summary + self.branch_suffix

    def tight(self) -> SummaryWrapping:
        """This wording with the tight checkpoint opening (itself when it has none)."""
        if self.tight_compaction_prefix is None:
            return self
        return replace(self, compaction_prefix=self.tight_compaction_prefix)


DEFAULT_WRAPPING = SummaryWrapping(
    compaction_prefix=(
        "Your memory of the earlier conversation, condensed; continue from it.\n<checkpoint>\n"
    ),
    compaction_suffix="\n</checkpoint>",
    branch_prefix=(
        "Before returning to this point, the conversation explored another branch. "
        "What happened there:\n\n<branch-summary>\n"
    ),
    branch_suffix="\n</branch-summary>",
    tight_compaction_prefix="<checkpoint>\n",
)


def bash_execution_text(message: Any) -> str:
    """How a user's shell command and its output read to the model."""
    command = message.get("command")
    output = message.get("output")
    text = f"Ran `{command if isinstance(command, str) else ''}`\n"
    text += f"```\n{output}\n```" if isinstance(output, str) and output else "(no output)"
    exit_code = message.get("exitCode")
    if message.get("cancelled"):
        text += "\n\n(command cancelled)"
    elif isinstance(exit_code, int) and not isinstance(exit_code, bool) and exit_code != 0:
        text += f"\n\nCommand exited with code {exit_code}"
    full_output_path = message.get("fullOutputPath")
    if message.get("truncated") and full_output_path:
        text += f"\n\n[Output truncated. Full output: {full_output_path}]"
    return text


def _user_text(text: str, timestamp: Any) -> UserMessage:
    message: UserMessage = {"role": "user", "content": [{"type": "text", "text": text}]}
    if timestamp is not None:
        message["timestamp"] = timestamp
    return message


def convert_to_llm(
    messages: Sequence[Any], wrapping: SummaryWrapping = DEFAULT_WRAPPING
) -> list[LlmMessage]:
    """Turn session-context messages into the three roles every provider understands.

    User commands and extension messages become user messages; summaries become user
    messages wrapped by ``wrapping``; bash runs marked ``excludeFromContext`` are dropped,
    and so are roles nobody knows. System messages stay as they are.
    """
    converted: list[LlmMessage] = []
    for message in messages:
        role = role_of(message)
        timestamp = message.get("timestamp") if role else None
        if role in ("user", "assistant", "toolResult", "system"):
            converted.append(cast(LlmMessage, message))
        elif role == "bashExecution":
            if not message.get("excludeFromContext"):
                converted.append(_user_text(bash_execution_text(message), timestamp))
        elif role == "custom":
            content = message.get("content")
            custom: UserMessage = {
                "role": "user",
                "content": [{"type": "text", "text": content}]
                if isinstance(content, str)
                else cast(list[TextContent | ImageContent], content),
            }
            if timestamp is not None:
                custom["timestamp"] = timestamp
            converted.append(custom)
        elif role == "branchSummary":
            summary = message.get("summary")
            converted.append(_user_text(wrapping.wrap_branch(str(summary or "")), timestamp))
        elif role == "compactionSummary":
            summary = message.get("summary")
            converted.append(_user_text(wrapping.wrap_compaction(str(summary or "")), timestamp))
    return converted


def parse_arguments(raw: Any) -> dict[str, Any]:
    """Tool-call arguments as a dict; text that is not a JSON object is kept, not lost.

    OpenAI sends arguments as a JSON string, which a model sometimes gets wrong; the
    text is kept under ``_raw`` so the tool (and the log) can show what was sent.
    """
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, str) or not raw.strip():
        return {}
    try:
        parsed = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return {"_raw": raw}
    return parsed if isinstance(parsed, dict) else {"_value": parsed}
