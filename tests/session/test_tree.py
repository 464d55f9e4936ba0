"""The session tree: appends, leaf moves, paths, children, the whole tree, labels, names."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from synopsis.errors import DuplicateEntryIdError, EntryNotFoundError, SynopsisError
from synopsis.session import Session, TreeNode
from tests.session.builders import assistant, texts, user

HEX8 = re.compile(r"[0-9a-f]{8}")


def ids(entries: list[dict[str, object]]) -> list[object]:
    return [e["id"] for e in entries]


def shape(nodes: list[TreeNode]) -> list[object]:
    """The tree as nested (id, children) pairs."""
    return [(node.entry["id"], shape(node.children)) for node in nodes]


APPENDS: dict[str, Callable[[Session], str]] = {
    "message": lambda s: s.append_message(user("hi")),
    "model_change": lambda s: s.append_model_change("acme", "acme-small"),
    "thinking_level_change": lambda s: s.append_thinking_level_change("high"),
    "compaction": lambda s: s.append_compaction("sum", s.entries[0]["id"], 10, {"readFiles": []}),
    "custom": lambda s: s.append_custom("state", {"k": 1}),
    "custom_message": lambda s: s.append_custom_message("hint", "look left"),
    "label": lambda s: s.append_label(s.entries[0]["id"], "start"),
    "session_info": lambda s: s.append_session_info("orchard"),
}


@pytest.mark.parametrize("kind", sorted(APPENDS))
def test_each_append_returns_an_eight_hex_id_and_moves_the_leaf(kind: str) -> None:
    session = Session()
    first = session.append_message(user("root"))
    new_id = APPENDS[kind](session)
    assert HEX8.fullmatch(new_id)
    assert new_id != first
    entry = session.require_entry(new_id)
    assert entry["type"] == kind
    assert entry["parentId"] == first
    assert isinstance(entry["timestamp"], str)
    assert session.leaf_id == new_id
    assert session.leaf_entry is entry
    assert ids(session.path()) == [first, new_id]


def test_appended_fields_are_stored() -> None:
    session = Session()
    root = session.append_message(user("root"))
    compaction = session.append_compaction("s", root, 42, {"readFiles": ["a"]}, from_hook=True)
    entry = session.require_entry(compaction)
    assert (entry["summary"], entry["firstKeptEntryId"], entry["tokensBefore"]) == ("s", root, 42)
    assert entry["details"] == {"readFiles": ["a"]}
    assert entry["fromHook"] is True
    plain = session.require_entry(session.append_compaction("t", root, 1))
    assert "details" not in plain and "fromHook" not in plain
    model = session.require_entry(session.append_model_change("acme", "m2"))
    assert (model["provider"], model["modelId"]) == ("acme", "m2")
    level = session.require_entry(session.append_thinking_level_change("low"))
    assert level["thinkingLevel"] == "low"


def test_empty_session() -> None:
    session = Session()
    assert session.leaf_id is None
    assert session.leaf_entry is None
    assert session.path() == []
    assert session.tree() == []
    assert session.children(None) == []
    assert len(session) == 0
    assert session.name is None
    context = session.build_context()
    assert (context.messages, context.thinking_level, context.model) == ([], "off", None)


def test_header_is_version_3_with_a_session_id() -> None:
    session = Session()
    assert session.header["type"] == "session"
    assert session.header["version"] == 3
    assert session.session_id == session.header["id"]


def test_linear_appends_chain_parents() -> None:
    session = Session()
    a = session.append_message(user("1"))
    b = session.append_message(assistant("2"))
    c = session.append_message(user("3"))
    assert [e["parentId"] for e in session.entries] == [None, a, b]
    assert ids(session.path()) == [a, b, c]
    assert ids(session.path(b)) == [a, b]
    assert shape(session.tree()) == [(a, [(b, [(c, [])])])]


def test_branch_moves_the_leaf_and_the_next_append_is_a_sibling() -> None:
    session = Session()
    a = session.append_message(user("1"))
    b = session.append_message(assistant("2"))
    session.branch(a)
    assert session.leaf_id == a
    c = session.append_message(assistant("2 again"))
    assert session.require_entry(c)["parentId"] == a
    assert ids(session.children(a)) == [b, c]
    assert ids(session.path()) == [a, c]
    assert shape(session.tree()) == [(a, [(b, []), (c, [])])]


def test_three_branches_from_one_node_and_deeper_branching() -> None:
    session = Session()
    root = session.append_message(user("root"))
    tips = []
    for n in range(3):
        session.branch(root)
        tips.append(session.append_message(assistant(f"try {n}")))
    session.branch(tips[1])
    deep = session.append_message(user("deeper"))
    assert ids(session.children(root)) == tips
    assert shape(session.tree()) == [
        (root, [(tips[0], []), (tips[1], [(deep, [])]), (tips[2], [])])
    ]
    assert ids(session.path()) == [root, tips[1], deep]


def test_unknown_ids_raise_entry_not_found() -> None:
    session = Session()
    session.append_message(user("1"))
    with pytest.raises(EntryNotFoundError, match="Entry nowhere not found"):
        session.branch("nowhere")
    with pytest.raises(EntryNotFoundError):
        session.branch_with_summary("nowhere", "summary")
    with pytest.raises(EntryNotFoundError):
        session.append_label("nowhere", "x")
    with pytest.raises(KeyError):  # also a KeyError, for dict-like callers
        session.require_entry("nowhere")
    assert issubclass(EntryNotFoundError, SynopsisError)
    assert len(session) == 1  # failed calls appended nothing
    assert session.get_entry("nowhere") is None
    assert "nowhere" not in session


def test_reset_leaf_starts_a_new_root() -> None:
    session = Session()
    a = session.append_message(user("1"))
    session.reset_leaf()
    assert session.leaf_id is None
    assert session.path() == []
    b = session.append_message(user("fresh start"))
    assert session.require_entry(b)["parentId"] is None
    assert ids(session.children(None)) == [a, b]
    assert shape(session.tree()) == [(a, []), (b, [])]


def test_children_index_follows_later_appends() -> None:
    session = Session()
    a = session.append_message(user("1"))
    assert session.children(a) == []  # builds the index
    b = session.append_message(assistant("2"))
    session.branch(a)
    c = session.append_custom("x")
    assert ids(session.children(a)) == [b, c]


def test_orphan_entry_is_a_root_and_its_path_stops_there() -> None:
    entries: list[dict[str, Any]] = [
        {"type": "message", "id": "o1", "parentId": None, "timestamp": "t",
         "message": user("first")},
        {"type": "message", "id": "o2", "parentId": "gone", "timestamp": "t",
         "message": user("orphan")},
    ]  # fmt: skip
    session = Session(None, entries)
    assert session.leaf_id == "o2"
    assert ids(session.path()) == ["o2"]
    assert ids(session.children(None)) == ["o1", "o2"]
    assert texts(session.build_context().messages) == ["orphan"]


def test_labels_last_wins_and_empty_or_none_clears() -> None:
    session = Session()
    a = session.append_message(user("1"))
    b = session.append_message(assistant("2"))
    session.append_label(a, "first try")
    session.append_label(a, "checkpoint")
    session.append_label(b, "answer")
    assert session.labels() == {a: "checkpoint", b: "answer"}
    assert session.label(a) == "checkpoint"
    session.append_label(a, None)
    session.append_label(b, "")
    assert session.labels() == {}
    assert session.label(a) is None
    session.append_label(b, "again")
    assert session.label(b) == "again"


def test_labels_appear_on_tree_nodes_and_not_in_the_context() -> None:
    session = Session()
    a = session.append_message(user("1"))
    session.append_message(assistant("2"))
    session.append_label(a, "here")
    nodes = session.tree()
    assert nodes[0].label == "here"
    assert nodes[0].children[0].label is None
    assert texts(session.build_context().messages) == ["1", "2"]


def test_session_name_is_the_latest_session_info() -> None:
    session = Session()
    assert session.name is None
    session.append_session_info("first name")
    session.append_session_info("better name")
    assert session.name == "better name"
    session.append_session_info("")
    assert session.name is None


def test_branch_with_summary_from_an_entry() -> None:
    session = Session()
    a = session.append_message(user("1"))
    session.append_message(assistant("dead end"))
    summary_id = session.branch_with_summary(a, "tried X, failed", {"readFiles": ["x.py"]})
    entry = session.require_entry(summary_id)
    assert entry["type"] == "branch_summary"
    assert (entry["parentId"], entry["fromId"], entry["summary"]) == (a, a, "tried X, failed")
    assert entry["details"] == {"readFiles": ["x.py"]}
    assert session.leaf_id == summary_id
    assert len(session.children(a)) == 2


def test_branch_with_summary_from_before_the_first_entry() -> None:
    session = Session()
    session.append_message(user("1"))
    summary_id = session.branch_with_summary(None, "gave up on all of it", from_hook=True)
    entry = session.require_entry(summary_id)
    assert entry["parentId"] is None
    assert entry["fromId"] == "root"
    assert entry["fromHook"] is True
    assert len(session.children(None)) == 2
    assert texts(session.build_context().messages) == ["<gave up on all of it>"]


def test_custom_entry_between_messages_stays_out_of_the_context() -> None:
    session = Session()
    a = session.append_message(user("1"))
    c = session.append_custom("tracker", {"count": 3})
    b = session.append_message(assistant("2"))
    entry = session.require_entry(c)
    assert (entry["customType"], entry["data"], entry["parentId"]) == ("tracker", {"count": 3}, a)
    assert ids(session.path()) == [a, c, b]
    assert len(session.build_context().messages) == 2


def test_context_follows_the_current_branch_only() -> None:
    session = Session()
    a = session.append_message(user("question"))
    session.append_message(assistant("answer one"))
    session.branch(a)
    session.append_message(assistant("answer two"))
    session.append_message(user("follow-up"))
    assert texts(session.build_context().messages) == ["question", "answer two", "follow-up"]


def test_id_source_collisions_fall_back_to_a_fresh_id() -> None:
    session = Session(new_id=lambda: "deadbeef")
    first = session.append_message(user("1"))
    second = session.append_message(user("2"))
    assert first == "deadbeef"
    assert second != first
    assert HEX8.fullmatch(second)


def test_duplicate_ids_in_given_entries() -> None:
    entry = {"type": "custom", "id": "same", "parentId": None, "timestamp": "t"}
    with pytest.raises(DuplicateEntryIdError):
        Session(None, [entry, dict(entry)])
    session = Session(None, [entry, dict(entry, customType="later")], duplicates="last-wins")
    assert session.require_entry("same")["customType"] == "later"
    assert len(session.tree()) == 1  # the shadowed entry is not shown twice
