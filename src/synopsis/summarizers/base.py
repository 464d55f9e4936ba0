"""The summarizer protocol: anything that turns a slice of conversation into a checkpoint.

A summarizer receives a :class:`SummaryRequest` and returns a :class:`SummaryResult`. The
embedded summarizer (no model, no network), the model clients and any user-supplied
implementation all meet here, so compaction never needs to know which one runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

from synopsis.state.model import WorkingState


class SummaryKind(StrEnum):
    HISTORY = "history"
    """Summarize a conversation from scratch."""
    UPDATE = "update"
    """Merge new messages into ``previous_summary``."""
    TURN_PREFIX = "turn_prefix"
    """Summarize the early part of a turn whose later part is kept verbatim."""
    BRANCH = "branch"
    """Summarize a branch the user navigated away from."""


@dataclass(frozen=True, slots=True)
class SummaryRequest:
    kind: SummaryKind
    conversation: str
    """The serialized transcript (``[User]: …`` parts) a model reads."""
    messages: Sequence[Any] = ()
    """The same messages, structured, for summarizers that read tool outcomes directly."""
    previous_summary: str | None = None
    previous_state: WorkingState | None = None
    """The working state behind ``previous_summary`` when synopsis wrote it (typed data,
    trusted); without it a summarizer can only read the previous checkpoint's text."""
    custom_instructions: str | None = None
    continued_by: Sequence[Any] = ()
    """Messages that follow ``messages`` and are summarized apart (a split turn's early
    part): a failure they got past is no longer open in this summary."""
    max_tokens: int = 13107
    """Upper bound on the summary's length in tokens."""


@dataclass(frozen=True, slots=True)
class SummaryUsage:
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float | None = None
    """In US dollars, when the provider or client knows it."""

    def __add__(self, other: SummaryUsage) -> SummaryUsage:
        cost = (
            None
            if self.cost is None and other.cost is None
            else ((self.cost or 0.0) + (other.cost or 0.0))
        )
        return SummaryUsage(
            self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens, cost
        )

    def to_json(self) -> dict[str, Any]:
        return {"input": self.input_tokens, "output": self.output_tokens, "cost": self.cost}


@dataclass(frozen=True, slots=True)
class SummaryResult:
    text: str
    usage: SummaryUsage = field(default_factory=SummaryUsage)


@runtime_checkable
class Summarizer(Protocol):
    """Turns a :class:`SummaryRequest` into a :class:`SummaryResult`.

    Implementations raise :class:`synopsis.errors.SummarizerError` when they cannot
    produce a usable summary; a cancelled call raises ``asyncio.CancelledError``.
    """

    async def summarize(self, request: SummaryRequest) -> SummaryResult: ...


def drifts(summarizer: Summarizer | None) -> bool:
    """Can this summarizer's checkpoints drift from the log, round after round?

    A model rewrites its previous text each round, and what it bends stays bent: a full
    pass over the original log repairs that. A summarizer whose checkpoint is a function
    of the working state it is handed (it sets ``derives_from_state = True``, as the
    embedded one does) carries nothing forward as text, so re-reading the whole log would
    only cost time — quadratic in the session's length. ``None`` is the embedded default.
    """
    if summarizer is None:
        return False
    return not getattr(summarizer, "derives_from_state", False)
