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
from synopsis.session.tree import find_parent_cycle


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
