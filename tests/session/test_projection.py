"""Pi 1.6's projection: context edits, system messages, retain-none compactions, the cut.

Small hand-made cases for each rule (the parity fixtures check them on Pi's own files).
"""

from __future__ import annotations

from typing import Any

from synopsis.compaction import CompactionSettings, prepare_compaction
from synopsis.compaction.cut_points import find_projected_cut
from synopsis.session import build_session_context
from synopsis.session.context import build_projection
from synopsis.system_messages import current_system_message
from synopsis.tokens import estimate_tokens
from tests.session.builders import Chain, assistant, texts, tool_result, user


def edit(chain: Chain, target: str, replacement: Any) -> str:
    return chain._add("context_edit", targetId=target, replacement=replacement)


def system(**fields: Any) -> dict[str, Any]:
    return {"role": "system", "content": "", **fields}


# --- context edits ------------------------------------------------------------------------


def test_a_null_replacement_hides_the_entry_and_the_latest_edit_wins() -> None:
    chain = Chain()
    chain.message(user("q"))
    failed = chain.message(assistant("half an answer", stop="error"))
    result = chain.message(tool_result("c1", "x" * 4000))
    edit(chain, failed, None)
    edit(chain, result, {"content": "first rewrite"})
    edit(chain, result, {"content": "[output elided]"})
    context = build_session_context(chain.entries)
    assert texts(context.messages) == ["q", "[output elided]"]
    # a string replacement of a tool result becomes one text block
    assert context.messages[1]["content"] == [{"type": "text", "text": "[output elided]"}]
    assert chain.entries[2]["message"]["content"][0]["text"] == "x" * 4000  # stored as it was
    projection = context.projection
    assert projection is not None
    assert (projection.edits_on_path, projection.edited, len(projection.omitted)) == (3, 2, 1)


def test_a_user_replacement_stays_a_string_and_an_edit_before_the_compaction_is_gone() -> None:
    chain = Chain()
    first = chain.message(user("old question"))
    edit(chain, first, None)  # summarized away by the compaction below
    kept = chain.message(user("kept question"))
    chain.compaction(kept)
    edit(chain, kept, {"content": "short question"})
    context = build_session_context(chain.entries)
    assert [m["role"] for m in context.messages] == ["compactionSummary", "user"]
    assert context.messages[1]["content"] == "short question"


# --- system messages ----------------------------------------------------------------------


def test_the_current_system_message_replays_every_patch() -> None:
    tool = {"name": "read", "description": "Read a file"}
    messages = [
        system(content="You help.", sections={"a": "A", "b": "B"}, toolsAdded=[tool]),
        user("q"),
        system(content="Be brief.", sections={"a": None, "c": "C"}),
        system(toolsRemoved=[{"name": "read"}], toolsAdded=[{"name": "bash"}]),
    ]
    current = current_system_message(messages)
    assert current == {
        "role": "system",
        "content": "You help.\n\nBe brief.",
        "sections": {"b": "B", "c": "C"},
        "toolsAdded": [{"name": "bash"}],
        "timestamp": 0,  # the first system message's, and it had none
    }
    assert current_system_message([user("q")]) is None
    # no timestamp and no tools: nothing in force, as Pi decides
    assert current_system_message([system(content="x")]) is None
    dated = current_system_message([system(content="x", timestamp=5), system(timestamp=9)])
    assert dated == {"role": "system", "content": "x", "timestamp": 5}
    blocks = [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    assert current_system_message([system(content=blocks, timestamp=1)])["content"] == "a\nb"
    # estimated: content + section texts + the tools as JSON
    chars = len("You help.\n\nBe brief.") + 2 + len('[{"name":"bash"}]')
    assert estimate_tokens(current) == -(-chars // 4)


def test_system_messages_are_never_cut_points_nor_summarized() -> None:
    chain = Chain()
    chain.message(system(content="prompt " * 100))
    chain.message(user("q1 " * 400))
    chain.message(assistant("a1 " * 400))
    chain.message(system(content="patch"))
    chain.message(user("q2 " * 400))
    chain.message(assistant("a2 " * 400))
    preparation = prepare_compaction(chain.entries, CompactionSettings(keep_recent_tokens=400))
    assert preparation is not None
    assert preparation.first_kept_entry_id == "e05"
    assert all(m["role"] != "system" for m in preparation.messages_to_summarize)
    assert texts(preparation.messages_to_summarize) == ["q1 " * 400, "a1 " * 400]


def test_the_compaction_system_message_comes_first_and_kept_system_messages_go() -> None:
    chain = Chain()
    chain.message(system(content="old prompt"))
    kept = chain.message(user("q"))
    chain.message(system(content="patch inside the kept part"))
    chain.compaction(kept, systemMessage=system(content="old prompt\n\npatch"))
    chain.message(assistant("a"))
    roles = [m["role"] for m in build_session_context(chain.entries).messages]
    assert roles == ["system", "compactionSummary", "user", "assistant"]


# --- retain-none compactions and the cut ------------------------------------------------------


def test_a_retain_none_compaction_keeps_nothing_and_is_not_missing_anything() -> None:
    chain = Chain()
    chain.message(user("q1"))
    chain.message(assistant("a1"))
    compaction = chain.compaction("e03")  # its own id
    chain.message(user("q2"))
    context = build_session_context(chain.entries)
    assert compaction == "e03"
    assert [m["role"] for m in context.messages] == ["compactionSummary", "user"]
    assert not context.first_kept_entry_missing


def test_the_cut_moves_onto_a_trailing_hidden_failed_attempt() -> None:
    chain = Chain()
    chain.message(user("q " * 4000))  # 0: big
    failed = chain.message(assistant("", stop="error"))  # 1
    edit(chain, failed, None)  # 2
    projection = build_projection(chain.entries)
    cut = find_projected_cut(projection, 0, len(projection), 100)
    assert (cut.first_kept_index, cut.turn_start_index, cut.is_split_turn) == (1, 0, True)
    # without the edit the reply is visible and the cut stays at the user message
    plain = build_projection(chain.entries[:2])
    assert find_projected_cut(plain, 0, 2, 100).first_kept_index == 0
