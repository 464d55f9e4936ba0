"""The transcript a summarizer reads: messages rendered as labelled plain text.

``[User]: …``, ``[Assistant]: …``, ``[Assistant tool calls]: name(k=v, …)`` and
``[Tool result]: …`` parts separated by blank lines, as Pi 1.6 writes them. Thinking is
left out (a summary records what was done and said, not the reasoning), and so are system
messages (the prompt is not conversation). Tool results are cut to 2,000 characters
(UTF-16 units, never splitting a surrogate pair) because a summary needs their gist, not
their bulk; the marker says how much was cut. Argument values are rendered exactly as JavaScript's
``JSON.stringify`` does, so the text is byte-identical to Pi's for the same messages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from synopsis._js import js_keys, js_stringify, utf16_len_and_prefix
from synopsis.messages import role_of, text_of

TOOL_RESULT_MAX_CHARS = 2000
TOOL_RESULT_LABEL = "[Tool result]: "
UNTRUSTED_TOOL_RESULT_LABEL = "[Tool result (untrusted data)]: "
"""Used in what model summarizers read: tool output (files, web pages, command output)
was written by no one we trust, and the label says so where the text stands."""


_ROLE_LABEL = re.compile(
    r"^([ \t]*)\[(User|Assistant(?: thinking| tool calls)?|Tool result[^\]\n]*)\]:", re.MULTILINE
)


def unforgeable(text: str) -> str:
    """Untrusted text in which no line can pass for a transcript label: a line of tool
    output that starts with ``[User]:`` is shown as ``\\[User]:``."""
    return _ROLE_LABEL.sub(r"\1\\[\2]:", text) if "]:" in text else text


def tool_call_text(name: object, arguments: object) -> str:
    """``name(key=value, …)``: a call's name (``""`` if not a string) and its arguments
    (none unless an object) in JavaScript's key order, values as ``JSON.stringify``."""
    if not isinstance(arguments, dict):
        arguments = {}
    rendered = ", ".join([f"{key}={js_stringify(arguments[key])}" for key in js_keys(arguments)])
    return f"{name if isinstance(name, str) else ''}({rendered})"


def _assistant_parts(message: Any) -> list[str]:
    """``[Assistant]: …`` and ``[Assistant tool calls]: …``, as :func:`blocks` reads them
    (walked here in one loop: this runs once per assistant message of a transcript)."""
    content = message.get("content")
    if isinstance(content, str):
        return ["[Assistant]: " + content]
    if not isinstance(content, list):
        return []
    texts: list[str] = []
    calls: list[str] = []
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            texts.append(text if isinstance(text, str) else "")
        elif kind == "toolCall":
            calls.append(tool_call_text(block.get("name"), block.get("arguments")))
    parts = []
    if texts:
        parts.append("[Assistant]: " + "\n".join(texts))
    if calls:
        parts.append("[Assistant tool calls]: " + "; ".join(calls))
    return parts


def tool_result_text(text: str) -> str:
    """A tool result's text as a transcript shows it: cut to
    :data:`TOOL_RESULT_MAX_CHARS` UTF-16 units, the marker saying how many were cut."""
    if len(text) * 2 <= TOOL_RESULT_MAX_CHARS:  # a character is at most two UTF-16 units
        return text
    length, head = utf16_len_and_prefix(text, TOOL_RESULT_MAX_CHARS)
    if length <= TOOL_RESULT_MAX_CHARS:
        return text
    if head and "\ud800" <= head[-1] <= "\udbff":
        head = head[:-1]  # the pair's other half is past the cut: keep neither
    return head + f"\n\n[... {length - TOOL_RESULT_MAX_CHARS} more characters truncated]"


def iter_serialized_parts(
    messages: Iterable[Any], *, mark_untrusted: bool = False
) -> Iterator[str]:
    """The parts of :func:`serialize_conversation`, one at a time, without the separators.

    Lets a caller measure or hash a huge transcript without holding all of it at once.
    """
    result_label = UNTRUSTED_TOOL_RESULT_LABEL if mark_untrusted else TOOL_RESULT_LABEL
    for message in messages:
        role = role_of(message)
        if role == "user":
            text = text_of(message)
            if text:
                yield "[User]: " + text
        elif role == "assistant":
            yield from _assistant_parts(message)
        elif role == "toolResult":
            text = tool_result_text(text_of(message))
            if text:
                yield result_label + (unforgeable(text) if mark_untrusted else text)


PART_SEPARATOR = "\n\n"


def serialize_conversation(messages: Iterable[Any], *, mark_untrusted: bool = False) -> str:
    """Render LLM messages (see :func:`synopsis.messages.convert_to_llm`) as a transcript.

    ``mark_untrusted`` labels tool results as untrusted data (for model summarizers; the
    plain label is Pi's transcript format).
    """
    return PART_SEPARATOR.join(iter_serialized_parts(messages, mark_untrusted=mark_untrusted))
