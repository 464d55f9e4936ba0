"""The transcript of a skimmed history, part by part, read straight from the heads' lines.

:func:`synopsis.compaction.serialize.iter_serialized_parts` walks messages as dicts; a
skimmed history (:class:`synopsis.session.skim.MessageList`) would first have each head
read into one. :func:`iter_transcript_parts` gives the same parts without that step: a
user, assistant or tool-result head is decoded with the typed decoder of what a
transcript reads (texts, tool names and arguments; thinking, usage and details stay
unread) and rendered from it directly. Everything else (full messages, other roles, a
body of another shape) goes through ``iter_serialized_parts`` as it would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from synopsis.compaction.serialize import iter_serialized_parts, tool_call_text, tool_result_text
from synopsis.messages import AgentMessage, role_of
from synopsis.session.skim import with_lines

_PASSED_AS_THEY_ARE = frozenset({"user", "assistant", "toolResult", "system"})
"""Roles :func:`synopsis.messages.convert_to_llm` keeps unchanged."""


def iter_transcript_parts(
    messages: Iterable[AgentMessage],
    convert: Callable[[tuple[AgentMessage, ...]], Iterable[Any]],
) -> Iterator[str]:
    """``iter_serialized_parts(convert_to_llm(messages))``, heads rendered without dicts.

    ``convert`` turns one message of another role than user, assistant, tool result or
    system into provider messages (``convert_to_llm`` with the caller's wording).
    """
    from synopsis.session._skeleton import REJECTED, decode_body_line

    renderers = _RENDERERS
    for message, line in with_lines(messages):
        if line is not None:
            render = renderers.get(message["role"])
            if render is not None:
                try:
                    content = decode_body_line(line).message.content
                except REJECTED:
                    pass
                else:
                    yield from render(content)
                    continue
            message = message.read()
        if role_of(message) in _PASSED_AS_THEY_ARE:
            yield from iter_serialized_parts((message,))
        else:
            yield from iter_serialized_parts(convert((message,)))


def _text(content: Any) -> str:
    """:func:`synopsis.messages.text_of` of a decoded body's content."""
    if type(content) is str:
        return content
    if content is None:
        return ""
    return "".join([b.text for b in content if b.type == "text" and type(b.text) is str])


def _user(content: Any) -> tuple[str, ...]:
    text = _text(content)
    return ("[User]: " + text,) if text else ()


def _assistant(content: Any) -> tuple[str, ...]:
    if type(content) is str:
        return ("[Assistant]: " + content,)
    if content is None:
        return ()
    texts: list[str] = []
    calls: list[str] = []
    for block in content:
        kind = block.type
        if kind == "text":
            text = block.text
            texts.append(text if type(text) is str else "")
        elif kind == "toolCall":
            calls.append(tool_call_text(block.name, block.arguments))
    if not calls:
        return ("[Assistant]: " + "\n".join(texts),) if texts else ()
    called = "[Assistant tool calls]: " + "; ".join(calls)
    return ("[Assistant]: " + "\n".join(texts), called) if texts else (called,)


def _tool_result(content: Any) -> tuple[str, ...]:
    text = tool_result_text(_text(content))
    return ("[Tool result]: " + text,) if text else ()


_RENDERERS: dict[str, Callable[[Any], tuple[str, ...]]] = {
    "user": _user,
    "assistant": _assistant,
    "toolResult": _tool_result,
}
