"""The context at a session's leaf, kept up to date as entries are appended.

An agent builds the context and sizes it before every model call, and the session only
grows at its leaf in between. Building the context from the path each time costs time in
proportion to the session (85 ms per turn at 50,000 entries). :class:`LiveContext` builds
it once and then extends it with each appended entry, and keeps the size estimate per
token counter the same way, so a turn costs the same at any length. Whatever an entry
changes besides adding its own messages (a compaction, a context edit, an entry an edit
targets), and any move of the leaf, is left to a fresh build: the owner
(:class:`synopsis.session.tree.Session`) throws this one away and builds another.

Pure: no I/O. ``tests/session/test_live_context.py`` holds it equal to a fresh build.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from synopsis.messages import AgentMessage, role_of
from synopsis.session.context import (
    Projection,
    SessionContext,
    build_session_context,
    model_and_level_after,
)
from synopsis.session.entries import Entry
from synopsis.system_messages import current_system_message
from synopsis.tokens import ContextTokens, calculate_context_tokens, valid_usage

Count = Callable[[Any], int]

MAX_COUNTERS = 4
"""Tallies kept per context (one per token counter asked about; the oldest goes first)."""


@dataclass(slots=True)
class _Tally:
    """:func:`synopsis.tokens.current_context_tokens` of a context, kept as it grows.

    With a valid usage after the latest compaction or context edit, the size is that
    usage plus the estimates of the messages after it; without one it is every message's
    estimate, the system messages counted once as the prompt they replay to.
    """

    count: Count
    usage_index: int | None = None
    usage_tokens: int = 0
    trailing: int = 0
    others: int = 0
    """Without a usage: the estimates of every message that is not a system message."""
    systems: list[AgentMessage] = field(default_factory=list)
    system_tokens: int = 0

    @classmethod
    def of(cls, messages: Sequence[AgentMessage], start: int, count: Count) -> _Tally:
        tally = cls(count)
        trailing = 0
        for index in range(len(messages) - 1, start - 1, -1):
            usage = valid_usage(messages[index])
            if usage is not None:
                tally.usage_index = index
                tally.usage_tokens = calculate_context_tokens(usage)
                tally.trailing = trailing
                return tally
            trailing += count(messages[index])
        for message in messages:
            if role_of(message) == "system":
                tally.systems.append(message)
            else:
                tally.others += count(message)
        tally._count_systems()
        return tally

    def _count_systems(self) -> None:
        system = current_system_message(self.systems) if self.systems else None
        self.system_tokens = self.count(system) if system is not None else 0

    def add(self, message: AgentMessage, index: int) -> None:
        """Count ``message``, the context's message at ``index`` (after every usage floor)."""
        usage = valid_usage(message)
        if usage is not None:
            self.usage_index = index
            self.usage_tokens = calculate_context_tokens(usage)
            self.trailing = 0
            self.systems, self.others, self.system_tokens = [], 0, 0
        elif self.usage_index is not None:
            self.trailing += self.count(message)
        elif role_of(message) == "system":
            self.systems.append(message)
            self._count_systems()
        else:
            self.others += self.count(message)

    def tokens(self) -> ContextTokens:
        if self.usage_index is None:
            total = self.system_tokens + self.others
            return ContextTokens(total, 0, total, None)
        return ContextTokens(
            self.usage_tokens + self.trailing, self.usage_tokens, self.trailing, self.usage_index
        )


class LiveContext:
    """The context at ``leaf_id``, for a session holding ``entry_count`` entries.

    :meth:`extend` adds an entry appended at that leaf (then the leaf is the entry's, and
    the count one more); :meth:`context` and :meth:`tokens` read it. The owner compares
    ``leaf_id`` and ``entry_count`` with its own to know whether this still describes it.
    """

    def __init__(self, path: Sequence[Entry], leaf_id: str | None, entry_count: int) -> None:
        built = build_session_context(path)
        projection = built.projection
        assert projection is not None
        self.projection: Projection = projection
        self.path: list[Entry] = list(path)
        """The entries root → leaf (extended too: the session's path at its leaf)."""
        self.leaf_id = leaf_id
        self.entry_count = entry_count
        self.thinking_level = built.thinking_level
        self.model = built.model
        self.first_kept_entry_missing = built.first_kept_entry_missing
        self.new_messages_start = built.new_messages_start
        self._tallies: dict[Count, _Tally] = {}

    def extend(self, entry: Entry) -> bool:
        """Add ``entry``, just appended as a child of :attr:`leaf_id`. ``False`` (nothing
        changed) when only a fresh build gives the right context."""
        projection = self.projection
        first = len(projection.flat)
        if not projection.extend(entry):
            return False
        self.model, self.thinking_level = model_and_level_after(
            entry, self.model, self.thinking_level
        )
        self.path.append(entry)
        added = projection.flat[first:]
        for tally in self._tallies.values():
            for offset, message in enumerate(added):
                tally.add(message, first + offset)
        self.leaf_id = entry["id"]
        self.entry_count += 1
        return True

    def context(self) -> SessionContext:
        """The context now (it does not change when this one is extended later)."""
        return SessionContext.view(
            self.projection,
            thinking_level=self.thinking_level,
            model=self.model,
            first_kept_entry_missing=self.first_kept_entry_missing,
            new_messages_start=self.new_messages_start,
        )

    def tokens(self, count: Count) -> ContextTokens:
        """``current_context_tokens`` of the context now, estimating with ``count``."""
        tally = self._tallies.get(count)
        if tally is None:
            if len(self._tallies) >= MAX_COUNTERS:
                del self._tallies[next(iter(self._tallies))]
            tally = _Tally.of(self.projection.flat, self.new_messages_start, count)
            self._tallies[count] = tally
        return tally.tokens()
