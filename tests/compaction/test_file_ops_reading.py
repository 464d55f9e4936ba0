"""Which files the tool calls name: the one-loop reader answers as the documented readers.

``FileOperations.add_from_messages`` walks content blocks itself (it runs over every
message of a transcript); this property holds it to the plain reading through
``synopsis.messages`` (``role_of``, ``tool_calls``, ``tool_arguments``) on messages with
odd shapes: string content, blocks that are not objects, names and paths of the wrong
kind, nested calls in tool results.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.compaction.file_ops import FileOperations
from synopsis.messages import role_of, tool_arguments, tool_calls

_ODD = st.one_of(st.none(), st.integers(-1, 1), st.just([]), st.just({}), st.text(max_size=2))
_PATHS = st.one_of(st.sampled_from(["a.py", "b/c.md", "ü.txt"]), _ODD)
_TYPES = st.one_of(st.sampled_from(["toolCall", "text", "thinking"]), _ODD)
_NAMES = st.one_of(st.sampled_from(["read", "write", "edit", "bash"]), _ODD)
_CALLS = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["toolCall", "text"]),
            "name": st.sampled_from(["read", "write", "edit", "bash"]),
            "arguments": st.fixed_dictionaries({"path": _PATHS}),
        }
    ),
    st.fixed_dictionaries(
        {},
        optional={
            "type": _TYPES,
            "name": _NAMES,
            "arguments": st.one_of(st.fixed_dictionaries({}, optional={"path": _PATHS}), _ODD),
        },
    ),
)
_BLOCKS = st.lists(st.one_of(_CALLS, _ODD), min_size=1, max_size=4)
_MESSAGES = st.one_of(
    st.fixed_dictionaries({"role": st.just("assistant"), "content": _BLOCKS}),
    st.fixed_dictionaries(
        {"role": st.just("toolResult"), "nestedCalls": st.fixed_dictionaries({"calls": _BLOCKS})}
    ),
    st.fixed_dictionaries(
        {"role": st.one_of(st.sampled_from(["assistant", "user", "toolResult"]), _ODD)},
        optional={
            "content": st.one_of(_BLOCKS, _ODD),
            "nestedCalls": st.one_of(st.fixed_dictionaries({}, optional={"calls": _ODD}), _ODD),
        },
    ),
    _ODD,
)


def _plainly(messages: list[Any]) -> FileOperations:
    ops = FileOperations()
    kinds = {"read": ops.read, "write": ops.written, "edit": ops.edited}

    def add(call: dict[str, Any]) -> None:
        name, path = call.get("name"), tool_arguments(call).get("path")
        if isinstance(name, str) and name in kinds and isinstance(path, str):
            kinds[name][path] = None

    for message in messages:
        role = role_of(message)
        if role == "assistant":
            for call in tool_calls(message):
                add(call)
        elif role == "toolResult":
            nested = message.get("nestedCalls")
            calls = nested.get("calls") if isinstance(nested, dict) else None
            for call in calls if isinstance(calls, list) else []:
                if isinstance(call, dict):
                    add(call)
    return ops


@settings(max_examples=300)
@given(st.lists(_MESSAGES, max_size=6))
def test_files_are_read_from_calls_as_the_message_readers_read_them(messages: list[Any]) -> None:
    ops = FileOperations()
    ops.add_from_messages(messages)
    one_by_one = FileOperations()
    for message in messages:
        one_by_one.add_from_message(message)
    expected = _plainly(messages)
    for found in (ops, one_by_one):
        assert list(found.read) == list(expected.read)
        assert list(found.written) == list(expected.written)
        assert list(found.edited) == list(expected.edited)
