"""The transcript a summarizer reads, and the files it names."""

from __future__ import annotations

from synopsis._js import to_utf8
from synopsis.compaction import FileOperations, format_file_lists, serialize_conversation
from synopsis.compaction.serialize import iter_serialized_parts
from tests.session.builders import IMAGE, assistant, call, tool_result, user

GRINNING = "\U0001f600"


def test_long_tool_result_is_cut_to_2000_characters_with_a_marker() -> None:
    text = serialize_conversation([tool_result("c1", "x" * 5000)])
    assert text.startswith("[Tool result]: " + "x" * 2000)
    assert text.endswith("\n\n[... 3000 more characters truncated]")
    assert "x" * 2001 not in text


def test_short_tool_result_is_written_whole() -> None:
    content = "y" * 1500
    assert serialize_conversation([tool_result("c1", content)]) == "[Tool result]: " + content
    exact = "z" * 2000
    assert serialize_conversation([tool_result("c1", exact)]) == "[Tool result]: " + exact


def test_user_and_assistant_text_is_never_cut() -> None:
    long_text = "w" * 5000
    text = serialize_conversation([user(long_text), assistant(long_text)])
    assert text == f"[User]: {long_text}\n\n[Assistant]: {long_text}"
    assert "truncated" not in text


def test_truncation_counts_utf16_units_and_never_splits_a_pair() -> None:
    content = "a" * 1999 + GRINNING + "b" * 10  # the emoji straddles unit 2000
    text = serialize_conversation([tool_result("c1", content)])
    # the head stops before the pair (1,999 units); the marker still counts from 2,000
    assert text == "[Tool result]: " + "a" * 1999 + "\n\n[... 11 more characters truncated]"
    assert "\ufffd" not in to_utf8(text).decode("utf-8")
    whole = "a" * 1998 + GRINNING + "b" * 10  # the pair ends at unit 2000: kept whole
    assert GRINNING + "\n\n[... 10 more" in serialize_conversation([tool_result("c1", whole)])


def test_a_result_of_astral_characters_is_cut_at_2000_units_not_characters() -> None:
    fits = GRINNING * 1000  # 1,000 characters, exactly 2,000 UTF-16 units
    assert serialize_conversation([tool_result("c1", fits)]) == "[Tool result]: " + fits
    over = GRINNING * 1001 + "\ud800"  # 2,003 units, ending in a lone surrogate
    expected = "[Tool result]: " + fits + "\n\n[... 3 more characters truncated]"
    assert serialize_conversation([tool_result("c1", over)]) == expected


def test_assistant_parts_come_in_a_fixed_order_without_thinking() -> None:
    message = {
        "role": "assistant",
        "content": [
            {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "a.md"}},
            {"type": "text", "text": "first"},
            {"type": "thinking", "thinking": "hmm"},
            {"type": "text", "text": "second"},
            {"type": "thinking", "thinking": "aha"},
            {"type": "toolCall", "id": "c2", "name": "ls", "arguments": {}},
        ],
    }
    assert list(iter_serialized_parts([message])) == [
        "[Assistant]: first\nsecond",
        '[Assistant tool calls]: read(path="a.md"); ls()',
    ]


def test_tool_call_arguments_are_rendered_as_javascript_would() -> None:
    arguments = {
        "z": 1.0,
        "10": -0.0,
        "2": [1e21, 1e-7, 0.1 + 0.2],
        "nested": {"b": None, "1": True},
        "text": "line\nbreak \u2028 \x01",
    }
    message = assistant(calls=[call("c1", "tool", arguments)])
    assert serialize_conversation([message]) == (
        "[Assistant tool calls]: tool(2=[1e+21,1e-7,0.30000000000000004], 10=0, z=1, "
        'nested={"1":true,"b":null}, text="line\\nbreak \u2028 \\u0001")'
    )


def test_call_without_arguments_renders_empty_parentheses() -> None:
    block = {"type": "toolCall", "id": "c1", "name": "ls"}
    assert serialize_conversation([assistant(calls=[block])]) == "[Assistant tool calls]: ls()"
    block_null = dict(block, arguments=None)
    assert serialize_conversation([assistant(calls=[block_null])]) == "[Assistant tool calls]: ls()"


def test_text_blocks_join_without_separator_and_images_are_dropped() -> None:
    message = {
        "role": "user",
        "content": [{"type": "text", "text": "look "}, IMAGE, {"type": "text", "text": "here"}],
    }
    result = {
        "role": "toolResult",
        "toolCallId": "c",
        "content": [IMAGE, {"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
    }
    assert serialize_conversation([message, result]) == "[User]: look here\n\n[Tool result]: ab"


def test_empty_messages_leave_no_part() -> None:
    messages = [
        user(images=1),
        tool_result("c1", images=1),
        assistant(""),
        {"role": "somethingElse", "content": "ignored"},
        user("only this"),
    ]
    assert serialize_conversation(messages) == "[User]: only this"
    assert serialize_conversation([]) == ""


def test_errors_and_tool_names_are_not_shown() -> None:
    text = serialize_conversation([tool_result("c1", "boom", name="bash", error=True)])
    assert text == "[Tool result]: boom"


def test_string_content_is_read_as_text() -> None:
    result = {"role": "toolResult", "toolCallId": "c", "content": "plain"}
    assert serialize_conversation([user("hi", as_string=True), result]) == (
        "[User]: hi\n\n[Tool result]: plain"
    )


def test_odd_assistant_shapes_and_a_lone_surrogate_argument() -> None:
    """String content, blocks that are no dicts or whose text is no string, and a string
    argument orjson refuses (a lone surrogate, which JSON.stringify escapes)."""
    odd = {
        "role": "assistant",
        "content": [
            "stray",
            None,
            {"type": "text", "text": 7},
            {"type": "text", "text": "kept"},
            {"type": "toolCall", "name": "edit", "arguments": {"path": "a\ud800b", "n": 2}},
            {"type": "toolCall", "name": ["not", "a", "name"], "arguments": "not a dict"},
        ],
    }
    messages = [
        {"role": "assistant", "content": "plain words"},
        {"role": "assistant", "content": None},
        odd,
    ]
    assert list(iter_serialized_parts(messages)) == [
        "[Assistant]: plain words",
        "[Assistant]: \nkept",
        '[Assistant tool calls]: edit(path="a\\ud800b", n=2); ()',
    ]


# --- file operations ----------------------------------------------------------------------


def test_only_read_write_edit_with_string_paths_count() -> None:
    ops = FileOperations()
    ops.add_from_messages(
        [
            assistant(
                calls=[
                    call("1", "read", {"path": "a.md"}),
                    call("2", "write", {"path": "b.py"}),
                    call("3", "edit", {"path": "c.py"}),
                    call("4", "read", {"path": 42}),
                    call("5", "read", {"path": ["x"]}),
                    call("6", "bash", {"path": "not-a-file-op"}),
                    call("7", "Read", {"path": "case.md"}),
                    call("8", "read", None),
                    call("9", "read", {"path": "a.md"}),
                ]
            ),
            user("read d.md please"),
            tool_result("1", "contents"),
        ]
    )
    assert list(ops.read) == ["a.md"]
    assert list(ops.written) == ["b.py"]
    assert list(ops.edited) == ["c.py"]


def test_file_lists_split_read_only_from_modified_and_sort_them() -> None:
    ops = FileOperations()
    for path in ["z.md", "b.py", "a.md"]:
        ops.read[path] = None
    ops.written["b.py"] = None
    ops.edited["c.py"] = None
    assert ops.file_lists() == (["a.md", "z.md"], ["b.py", "c.py"])


def test_file_lists_sort_by_utf16_units_as_javascript_does() -> None:
    ops = FileOperations()
    ops.read["\uff5e.txt"] = None  # U+FF5E: one unit 0xFF5E
    ops.read[f"{GRINNING}.txt"] = None  # two units starting 0xD83D
    read_only, _ = ops.file_lists()
    assert read_only == [f"{GRINNING}.txt", "\uff5e.txt"]


def test_details_from_a_previous_compaction_are_carried_over() -> None:
    ops = FileOperations()
    ops.add_from_details({"readFiles": ["r.md", 7], "modifiedFiles": ["m.py"], "other": ["x"]})
    ops.add_from_details(None)
    ops.add_from_details({"readFiles": "not-a-list"})
    assert list(ops.read) == ["r.md"]
    assert list(ops.edited) == ["m.py"]


def test_format_file_lists() -> None:
    assert format_file_lists([], []) == ""
    assert format_file_lists(["a"], []) == "\n\n<read-files>\na\n</read-files>"
    assert format_file_lists([], ["b", "c"]) == "\n\n<modified-files>\nb\nc\n</modified-files>"
    assert format_file_lists(["a"], ["b"]) == (
        "\n\n<read-files>\na\n</read-files>\n\n<modified-files>\nb\n</modified-files>"
    )
