"""``tree`` and ``context`` on large sessions: summarized by default, whole with --all.

The generated session has 1,500 entries and a second branch, so the tree is summarized;
what is left out is counted, and every landmark (branch points, labels, the leaf) stays.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synopsis.cli.session_commands import RUN_ENDS, _summarized
from synopsis.session import open_session
from tests.cli._run import synopsis
from tests.synthetic import write_session

LEFT_OUT = re.compile(r"… ([\d,]+) more entries")


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("large") / "large.jsonl"
    write_session(path, seed=11, entries=1500)
    session = open_session(path, durable=False)
    middle = session.entries[700]["id"]
    session.branch(middle)
    session.append_message({"role": "user", "content": "another way", "timestamp": 1})
    session.append_label(middle, "fork here")
    return path


def _text(*args: str | Path) -> str:
    return synopsis(*args).stdout.decode("utf-8")


def test_a_large_tree_is_summarized_and_accounts_for_every_entry(large: Path) -> None:
    session = open_session(large)
    lines = _text("tree", large).splitlines()
    shown = [line.split()[0] for line in lines if not line.lstrip().startswith(("…", "("))]
    left_out = sum(int(m.group(1).replace(",", "")) for m in map(LEFT_OUT.search, lines) if m)
    assert left_out > 0 and len(shown) < len(session.entries) / 5
    assert len(shown) + left_out == len(session.entries)
    assert len(set(shown)) == len(shown)
    fork = session.entries[700]["id"]
    leaf_line = next(line for line in lines if "← leaf" in line)
    assert session.leaf_id in leaf_line
    assert any(fork in line and "[fork here]" in line for line in lines)
    for child in session.children(fork):  # both branches start where they are shown
        assert child["id"] in shown


def test_tree_all_shows_every_entry_once(large: Path) -> None:
    session = open_session(large)
    lines = _text("tree", large, "--all").splitlines()
    assert sorted(line.split()[0] for line in lines) == sorted(e["id"] for e in session.entries)


def test_context_lists_the_last_messages_and_counts_the_others(large: Path) -> None:
    full = _text("context", large, "--all")
    limited = _text("context", large, "--limit", "7")
    rows = [line for line in full.splitlines() if re.match(r"\s*\d+  ", line)]
    listed = [line for line in limited.splitlines() if re.match(r"\s*\d+  ", line)]
    assert listed == rows[-7:]
    match = re.search(r"… ([\d,]+) earlier messages not listed", limited)
    assert match is not None and int(match.group(1).replace(",", "")) == len(rows) - 7
    assert "not listed" not in full


rows_strategy = st.lists(
    st.tuples(st.integers(0, 2), st.booleans(), st.sampled_from(("message", "compaction"))),
    max_size=80,
)


@given(rows_strategy)
def test_summarizing_keeps_order_landmarks_and_the_count(spec: list[tuple[int, bool, str]]) -> None:
    rows = [
        ({"id": f"e{n}", "type": kind}, depth, opens) for n, (depth, opens, kind) in enumerate(spec)
    ]
    shown = _summarized(rows, labels={}, leaf_id=None)  # type: ignore[arg-type]
    kept = [row for row in shown if not isinstance(row, int)]
    assert [r[0]["id"] for r in kept] == [r[0]["id"] for r in rows if r in kept]  # in order
    assert len(kept) + sum(n for n in shown if isinstance(n, int)) == len(rows)
    for row in rows:
        if row[2] or row[0]["type"] == "compaction":
            assert row in kept
    for index, item in enumerate(shown):
        if isinstance(item, int):  # a cut stands inside one run: RUN_ENDS rows each side
            assert item > 1
            before, after = shown[index - RUN_ENDS : index], shown[index + 1 : index + 1 + RUN_ENDS]
            assert len(before) == len(after) == RUN_ENDS
