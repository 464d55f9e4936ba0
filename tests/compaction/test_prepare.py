"""Preparing a compaction: what is summarized, what is kept (Pi 1.6's projection), files."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from synopsis.compaction import CompactionSettings, prepare_compaction
from synopsis.session import Session, build_session_context
from synopsis.tokens import estimate_context_tokens, estimate_tokens
from tests.session.builders import Chain, assistant, call, texts, tool_result, usage, user


def settings(keep: int, **options: Any) -> CompactionSettings:
    return CompactionSettings(keep_recent_tokens=keep, **options)


def test_nothing_to_do_on_an_empty_branch() -> None:
    assert prepare_compaction([], settings(10)) is None


def test_already_compacted_branch_gives_none() -> None:
    chain = Chain()
    first = chain.message(user("q" * 4000))
    chain.message(assistant("a" * 4000))
    chain.compaction(first)
    assert prepare_compaction(chain.entries, settings(10)) is None


def test_nothing_to_summarize_gives_none() -> None:
    """D4: when everything fits, there is nothing to summarize and no compaction to make."""
    chain = Chain()
    chain.message(user("short"))
    chain.message(assistant("also short"))
    assert prepare_compaction(chain.entries, settings(20_000)) is None
    only_metadata = Chain()
    only_metadata.model_change("acme", "m")
    only_metadata.thinking("high")
    assert prepare_compaction(only_metadata.entries, settings(0)) is None


def test_simple_cut_summarizes_what_comes_before() -> None:
    chain = Chain()
    chain.message(user("q1 " * 400))
    chain.message(assistant("a1 " * 400))
    kept = chain.message(user("q2 " * 400))
    chain.message(assistant("a2 " * 400))
    preparation = prepare_compaction(chain.entries, settings(500))
    assert preparation is not None
    assert preparation.first_kept_entry_id == kept
    assert preparation.first_kept_index == 2
    assert not preparation.is_split_turn
    assert preparation.turn_start_index == -1
    assert preparation.messages_to_summarize == [
        chain.entries[0]["message"],
        chain.entries[1]["message"],
    ]
    assert preparation.turn_prefix_messages == []
    assert preparation.previous_summary is None
    assert preparation.previous_compaction_index == -1
    assert preparation.range_start == 0


def test_split_turn_sends_the_turn_prefix_separately() -> None:
    chain = Chain()
    chain.message(user("earlier"))
    chain.message(assistant("earlier reply"))
    chain.message(user("mend the fence"))
    chain.message(assistant("", calls=[call("c1", "read", {"path": "fence.md"})]))
    chain.message(tool_result("c1", "post " * 800))
    a3 = chain.message(assistant("", calls=[call("c2", "edit", {"path": "gate.md"})]))
    r2 = chain.message(tool_result("c2", "hinge " * 700))
    a4 = chain.message(assistant("mended"))
    keep = sum(estimate_tokens(chain.entries[chain.index(i)]["message"]) for i in (r2, a4)) + 1
    preparation = prepare_compaction(chain.entries, settings(keep))
    assert preparation is not None
    assert preparation.first_kept_entry_id == a3
    assert preparation.is_split_turn
    assert preparation.turn_start_index == 2
    assert texts(preparation.messages_to_summarize) == ["earlier", "earlier reply"]
    assert [m["role"] for m in preparation.turn_prefix_messages] == [
        "user",
        "assistant",
        "toolResult",
    ]
    # files come from the summarized part and the prefix, not from the kept part
    assert list(preparation.file_ops.read) == ["fence.md"]
    assert list(preparation.file_ops.edited) == []


def test_tokens_before_ignores_usage_from_before_the_latest_compaction() -> None:
    """Usage recorded before the compaction measured a context that no longer exists."""
    chain = Chain()
    first = chain.message(user("u" * 400))
    chain.message(assistant("a" * 40, usage_=usage(900, 100)))
    chain.compaction(first, summary="s" * 80)
    chain.message(user("v" * 4000))
    chain.message(assistant("w" * 40))
    preparation = prepare_compaction(chain.entries, settings(1))
    assert preparation is not None
    context = build_session_context(chain.entries)
    # every message estimated: summary 20, kept 100 + 10, newer 1000 + 10
    assert preparation.tokens_before == 1140
    assert preparation.tokens_before == sum(map(estimate_tokens, context.messages))
    # a usage recorded after the compaction counts again
    chain.message(assistant("x" * 40, usage_=usage(3000, 100)))
    again = prepare_compaction(chain.entries, settings(1))
    assert again is not None
    assert again.tokens_before == 3100
    assert (
        again.tokens_before
        == estimate_context_tokens(build_session_context(chain.entries).messages).tokens
    )


def test_repeated_compaction_summarizes_what_the_previous_one_kept() -> None:
    """u1 a1 u2 a2 C(keep u2) u3 a3 u4 a4, keep only the last turn: the kept part is summarized."""
    chain = Chain()
    chain.message(user("u1"))
    chain.message(assistant("a1"))
    u2 = chain.message(user("u2"))
    chain.message(assistant("a2"))
    chain.compaction(u2, summary="first checkpoint", details={"readFiles": ["old.txt"]})
    chain.message(user("u3"))
    chain.message(assistant("a3"))
    u4 = chain.message(user("u4 " * 100))
    chain.message(assistant("a4 " * 100))
    preparation = prepare_compaction(chain.entries, settings(100))
    assert preparation is not None
    assert preparation.first_kept_entry_id == u4
    assert texts(preparation.messages_to_summarize) == ["u2", "a2", "u3", "a3"]
    assert preparation.previous_summary == "first checkpoint"
    assert preparation.previous_compaction_index == 4
    assert preparation.range_start == 2
    assert list(preparation.file_ops.read) == ["old.txt"]


def test_when_everything_after_a_compaction_fits_there_is_nothing_to_do() -> None:
    """The cut would be the previous first kept entry: nothing to summarize (Pi 1.6)."""
    chain = Chain()
    chain.message(user("u1"))
    u2 = chain.message(user("u2"))
    chain.compaction(u2, summary="cp")
    chain.message(user("u3"))
    chain.message(assistant("a3"))
    assert prepare_compaction(chain.entries, settings(50_000)) is None

    only_kept = Chain()
    u1 = only_kept.message(user("u1"))
    only_kept.compaction(u1, summary="cp")
    only_kept.label(u1, "mark")
    assert prepare_compaction(only_kept.entries, settings(0)) is None


def test_the_turn_prefix_may_lie_in_the_previous_kept_part() -> None:
    chain = Chain()
    chain.message(user("u0"))  # 0
    chain.message(assistant("a0"))  # 1
    u1 = chain.message(user("u1"))  # 2
    chain.message(assistant("", calls=[call("c1", "ls", {})]))  # 3
    chain.message(tool_result("c1", "small"))  # 4
    chain.compaction(u1, summary="mid-turn")  # 5
    a2 = chain.message(assistant("", calls=[call("c2", "ls", {"path": "/"})]))  # 6
    chain.message(tool_result("c2", "big " * 1000))  # 7
    chain.message(assistant("done"))  # 8
    preparation = prepare_compaction(chain.entries, settings(1004))
    assert preparation is not None
    assert preparation.first_kept_entry_id == a2
    assert preparation.is_split_turn
    assert preparation.turn_start_index == 2
    assert preparation.messages_to_summarize == []
    assert [m["role"] for m in preparation.turn_prefix_messages] == [
        "user",
        "assistant",
        "toolResult",
    ]


def test_missing_first_kept_entry_starts_the_range_after_the_compaction() -> None:
    chain = Chain()
    chain.message(user("u1"))
    chain.compaction("elsewhere", summary="cp")
    chain.message(user("u2 " * 400))
    u3 = chain.message(user("u3 " * 400))
    preparation = prepare_compaction(chain.entries, settings(100))
    assert preparation is not None
    assert preparation.range_start == 2
    assert preparation.first_kept_entry_id == u3
    assert len(preparation.messages_to_summarize) == 1


def test_file_operations_carry_over_from_the_previous_compaction() -> None:
    def branch(from_hook: bool) -> list[dict[str, Any]]:
        chain = Chain()
        u1 = chain.message(user("u1"))
        details = {"readFiles": ["notes.md"], "modifiedFiles": ["src/a.py"]}
        chain.compaction(
            u1, summary="cp", details=details, **({"fromHook": True} if from_hook else {})
        )
        chain.message(assistant("", calls=[call("c1", "write", {"path": "src/b.py"})]))
        chain.message(tool_result("c1", "ok"))
        chain.message(user("next " * 400))
        return chain.entries

    carried = prepare_compaction(branch(from_hook=False), settings(100))
    assert carried is not None
    assert list(carried.file_ops.read) == ["notes.md"]
    assert list(carried.file_ops.edited) == ["src/a.py"]
    assert list(carried.file_ops.written) == ["src/b.py"]
    assert carried.file_ops.file_lists() == (["notes.md"], ["src/a.py", "src/b.py"])
    assert carried.previous_details == {"readFiles": ["notes.md"], "modifiedFiles": ["src/a.py"]}

    from_extension = prepare_compaction(branch(from_hook=True), settings(100))
    assert from_extension is not None
    assert list(from_extension.file_ops.read) == []
    assert list(from_extension.file_ops.edited) == []
    assert list(from_extension.file_ops.written) == ["src/b.py"]


def test_preparation_does_not_change_the_branch() -> None:
    chain = Chain()
    for n in range(6):
        chain.message(user(f"q{n} " * 100))
        chain.message(assistant(f"a{n} " * 100))
    before = repr(chain.entries)
    first = prepare_compaction(chain.entries, settings(300))
    second = prepare_compaction(chain.entries, settings(300))
    assert first == second
    assert repr(chain.entries) == before


# --- a session compacted three times loses nothing ------------------------------------


def _turn(session: Session, n: int) -> None:
    session.append_message(user(f"turn {n}: please look at part {n} " + "detail " * 60))
    session.append_message(
        assistant(
            "", calls=[call(f"r{n}", "read", {"path": f"part{n}.txt"})], usage_=usage(500 * n, 50)
        )
    )
    session.append_message(tool_result(f"r{n}", f"contents of part {n} " + "line " * 200))
    session.append_message(assistant(f"part {n} looks fine " + "because " * 40))


def test_three_compactions_lose_nothing() -> None:
    session = Session()
    summarized: list[list[int]] = []  # ids of the message objects each compaction summarized
    previous_summary = None
    for round_ in range(3):
        for n in range(round_ * 6, round_ * 6 + 6):
            _turn(session, n)
        preparation = prepare_compaction(session.path(), settings(600))
        assert preparation is not None
        assert preparation.previous_summary == previous_summary
        covered = preparation.messages_to_summarize + preparation.turn_prefix_messages
        summarized.append([id(m) for m in covered])
        previous_summary = f"checkpoint {round_}"
        ops = preparation.file_ops
        read_files, modified = ops.file_lists()
        session.append_compaction(
            previous_summary,
            preparation.first_kept_entry_id,
            preparation.tokens_before,
            {"readFiles": read_files, "modifiedFiles": modified},
        )
        session.append_message(user(f"after checkpoint {round_}"))

    branch = session.path()
    assert [e["type"] for e in branch].count("compaction") == 3
    all_messages = [id(e["message"]) for e in branch if e["type"] == "message"]
    context = session.build_context()
    assert texts(context.messages[:1]) == ["<checkpoint 2>"]
    kept = [id(m) for m in context.messages[1:]]
    flat = [m for ids in summarized for m in ids]

    assert len(flat) == len(set(flat)), "a message was summarized twice"
    assert not set(flat) & set(kept), "a message was both summarized and kept"
    assert sorted(flat + kept) == sorted(all_messages), "a message was lost"
    # every compaction after the first summarized something the previous one had kept
    for earlier, later in itertools.pairwise(summarized):
        assert later and not set(earlier) & set(later)
    # and the file lists reached the last checkpoint
    last = [e for e in branch if e["type"] == "compaction"][-1]
    assert "part0.txt" in last["details"]["readFiles"]


_STEPS = st.lists(
    st.tuples(
        st.sampled_from(("turn", "turn", "turn", "compaction", "edit", "removal", "settings")),
        st.integers(0, 60),
    ),
    min_size=1,
    max_size=24,
)


@hyp_settings(max_examples=60, deadline=None)
@given(_STEPS, st.sampled_from((0, 40, 400)), st.booleans())
def test_the_projection_a_context_carries_prepares_as_the_branch_does(
    steps: list[tuple[str, int]], keep: int, full_pass: bool
) -> None:
    """Given the projection of the leaf's context (kept up to date as entries arrive), the
    preparation is the one the branch alone gives, whatever compactions and edits it holds."""
    session = Session()
    for kind, size in steps:
        ids = [e["id"] for e in session.path()]
        if kind == "turn":
            _turn(session, size)
        elif kind == "compaction" and ids:
            session.append_compaction(f"summary {size}", ids[size % len(ids)], size)
        elif kind in ("edit", "removal") and ids:
            replacement = {"content": "x" * size} if kind == "edit" else None
            session.append_context_edit(ids[size % len(ids)], replacement)
        elif kind == "settings":
            session.append_thinking_level_change("high")
        session.build_context()  # the live context follows every step
    options = settings(keep)
    alone = prepare_compaction(session.path(), options, full_pass=full_pass)
    given_projection = session.build_context().projection
    assert (
        prepare_compaction(
            session.path(), options, full_pass=full_pass, projection=given_projection
        )
        == alone
    )


def test_a_projection_of_another_branch_is_refused() -> None:
    session = Session()
    for n in range(4):
        _turn(session, n)
    projection = session.build_context().projection
    session.append_message(user("one more"))
    with pytest.raises(ValueError, match="not that of the branch"):
        prepare_compaction(session.path(), settings(0), projection=projection)
