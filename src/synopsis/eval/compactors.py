"""The compactors a benchmark compares, all behind one small interface.

* ``truncation`` — no summary: keep the most recent messages that fit the whole budget,
  cut where a turn starts (never between a tool call and its result). What an agent
  without compaction does when it runs out of room.
* ``summary`` — the embedded summarizer, guard off: its text as written.
* ``guarded`` — the embedded summarizer with the summary guard (synopsis's default).
* ``lead`` / ``lead+guard`` — a deliberately careless summarizer that keeps the opening
  of what it is given (previous summary first) up to its size limit, without and with the
  guard: the lossy, drifting summary that seed 004 measures, and what the guard saves of it.
* ``model:PROVIDER:MODEL`` — a model summarizer (:func:`make_summarizer`), guard on.

Each run gets its own state (a :class:`CompactorRun`), because a compactor that compacts
repeatedly builds on what it did in the previous round.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from synopsis.compaction.cut_points import find_cut_point, is_turn_start
from synopsis.compaction.orchestrate import compact_session
from synopsis.compaction.prepare import HISTORY_OUTPUT_SHARE
from synopsis.compaction.settings import CompactionSettings
from synopsis.errors import CompactionError, SettingsError
from synopsis.messages import AgentMessage
from synopsis.session.context import entry_message
from synopsis.session.tree import Session
from synopsis.summarizers.base import Summarizer, SummaryRequest, SummaryResult

BUILTIN_COMPACTORS = ("truncation", "lead", "lead+guard", "summary", "guarded")
DEFAULT_COMPACTORS = BUILTIN_COMPACTORS
MODEL_PREFIX = "model:"


@dataclass(frozen=True, slots=True)
class RoundLimits:
    """What one round may use, in estimated tokens."""

    budget_tokens: int
    """The whole context after compaction: about ``share × original``."""
    keep_recent_tokens: int
    """Recent messages kept verbatim."""
    summary_tokens: int
    """The checkpoint's size limit."""


class CompactorRun(Protocol):
    """One compactor working on one session through all its rounds."""

    async def compact(self, session: Session, limits: RoundLimits) -> bool:
        """Compact the session to ``limits``; False when there was nothing to compact."""
        ...

    def context(self, session: Session) -> list[AgentMessage]:
        """What the model would see now."""
        ...


@dataclass(frozen=True, slots=True)
class Compactor:
    name: str
    start: Callable[[], CompactorRun]


class _SummaryRun:
    """Compaction through :func:`compact_session`, with or without the guard."""

    def __init__(self, summarizer: Summarizer, *, guard: bool) -> None:
        self._summarizer = summarizer
        self._guard = guard

    async def compact(self, session: Session, limits: RoundLimits) -> bool:
        settings = CompactionSettings(
            # The checkpoint may use HISTORY_OUTPUT_SHARE of the reserve.
            reserve_tokens=max(1, math.ceil(limits.summary_tokens / HISTORY_OUTPUT_SHARE)),
            keep_recent_tokens=limits.keep_recent_tokens,
        )
        try:
            await compact_session(session, self._summarizer, settings, guard=self._guard)
        except CompactionError:
            return False  # the context already fits the keep window
        return True

    def context(self, session: Session) -> list[AgentMessage]:
        return session.build_context().messages


class _TruncationRun:
    """Keep the newest messages that fit the budget; drop the rest without a trace."""

    def __init__(self) -> None:
        self._first_kept: str | None = None

    def _start(self, branch: list[Any]) -> int:
        if self._first_kept is None:
            return 0
        return next(i for i, entry in enumerate(branch) if entry["id"] == self._first_kept)

    async def compact(self, session: Session, limits: RoundLimits) -> bool:
        branch = session.path()
        start = self._start(branch)
        cut = find_cut_point(branch, start, len(branch), max(1, limits.budget_tokens))
        first = cut.first_kept_index
        if cut.is_split_turn:
            # A kept part should open with what the user said; move on to the next turn.
            later = next((i for i in range(first, len(branch)) if is_turn_start(branch[i])), None)
            first = later if later is not None else first
        if first <= start:
            return False
        self._first_kept = branch[first]["id"]
        return True

    def context(self, session: Session) -> list[AgentMessage]:
        branch = session.path()
        messages = []
        for entry in branch[self._start(branch) :]:
            message = entry_message(entry)
            if message is not None:
                messages.append(message)
        return messages


class LeadSummarizer:
    """Keeps the first ``max_tokens`` worth of the previous summary and the transcript.

    A stand-in for a summary that is short on room and long on the beginning: what comes
    late is lost, and each round compresses the previous round's text again.
    """

    async def summarize(self, request: SummaryRequest) -> SummaryResult:
        parts = [request.previous_summary or "", request.conversation]
        text = "\n\n".join(part for part in parts if part)
        return SummaryResult(text[: request.max_tokens * 4])


def _embedded() -> Summarizer:
    from synopsis.summarizers.embedded import EmbeddedSummarizer

    return EmbeddedSummarizer()


def make_compactor(name: str, *, base_url: str | None = None) -> Compactor:
    """The compactor called ``name`` (see the module docstring)."""
    name = name.strip()
    if name == "truncation":
        return Compactor(name, _TruncationRun)
    if name == "lead":
        return Compactor(name, lambda: _SummaryRun(LeadSummarizer(), guard=False))
    if name == "lead+guard":
        return Compactor(name, lambda: _SummaryRun(LeadSummarizer(), guard=True))
    if name == "summary":
        return Compactor(name, lambda: _SummaryRun(_embedded(), guard=False))
    if name == "guarded":
        return Compactor(name, lambda: _SummaryRun(_embedded(), guard=True))
    if name.startswith(MODEL_PREFIX):
        from synopsis.summarizers.factory import make_summarizer

        summarizer = make_summarizer(name[len(MODEL_PREFIX) :], base_url=base_url)
        return Compactor(name, lambda: _SummaryRun(summarizer, guard=True))
    raise SettingsError(
        f"unknown compactor {name!r}: use {', '.join(BUILTIN_COMPACTORS)} or "
        "model:PROVIDER:MODEL (e.g. model:openai:gpt-4o-mini)"
    )
