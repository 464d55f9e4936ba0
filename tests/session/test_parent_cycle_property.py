"""The cycle check agrees with a plain walk on any parent graph, in any file order.

``find_parent_cycle`` skips its walks when every parent comes before its children; this
property holds it to the obvious definition (some walk up the ``parentId`` links
revisits an entry) on random graphs with unique ids (repeated ids never take the short
cut), shuffled, with dangling parents and self-parents.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from synopsis.errors import ParentCycleError
from synopsis.session.tree import find_parent_cycle, index_entries


def _walk_loops(by_id: dict[str, dict[str, Any]], start: dict[str, Any]) -> bool:
    seen: set[str] = set()
    entry: dict[str, Any] | None = start
    while entry is not None:
        if entry["id"] in seen:
            return True
        seen.add(entry["id"])
        parent = entry.get("parentId")
        entry = by_id.get(parent) if parent is not None else None
    return False


@st.composite
def parent_graphs(draw: st.DrawFn) -> list[dict[str, Any]]:
    size = draw(st.integers(min_value=1, max_value=12))
    ids = [f"e{i}" for i in range(size)]
    names = [*ids, "missing", None]
    return [{"id": i, "parentId": draw(st.sampled_from(names))} for i in ids]


@given(parent_graphs(), st.randoms())
def test_a_cycle_is_reported_exactly_when_a_walk_loops(
    entries: list[dict[str, Any]], random: Any
) -> None:
    random.shuffle(entries)
    by_id = {entry["id"]: entry for entry in entries}
    expected = any(_walk_loops(by_id, entry) for entry in entries)
    try:
        find_parent_cycle(entries, by_id, entries[-1])
        found = False
    except ParentCycleError:
        found = True
    assert found == expected


@given(parent_graphs(), st.randoms(), st.booleans())
def test_the_one_pass_index_answers_as_the_two_passes(
    entries: list[dict[str, Any]], random: Any, repeat: bool
) -> None:
    """``index_entries`` builds the index and the parents-first answer in one walk; both
    are what building the index and then walking again give (ids repeated or not)."""
    random.shuffle(entries)
    if repeat:
        entries = [*entries, {"id": entries[0]["id"], "parentId": None}]
    expected_index = {entry["id"]: entry for entry in entries}
    seen: set[str] = set()
    expected_first = True
    for entry in entries:
        parent = entry.get("parentId")
        if parent is not None and parent not in seen and parent in expected_index:
            expected_first = False
        seen.add(entry["id"])
    by_id, parents_first = index_entries(entries)
    assert by_id == expected_index
    assert all(by_id[key] is value for key, value in expected_index.items())
    assert parents_first == expected_first
    found = expected = False
    try:
        find_parent_cycle(entries, by_id, entries[-1], parents_first=parents_first)
    except ParentCycleError:
        found = True
    try:
        find_parent_cycle(entries, expected_index, entries[-1])
    except ParentCycleError:
        expected = True
    assert found == expected
