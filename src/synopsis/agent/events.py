"""Events the agent loop emits, and the hook that can take over a compaction.

Subscribe with :meth:`synopsis.agent.AgentSession.subscribe`; every event is a frozen
dataclass with a ``type`` string, so listeners can match on either.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from synopsis.compaction.compact import CompactionResult
from synopsis.compaction.prepare import CompactionPreparation
from synopsis.messages import AgentMessage
from synopsis.session.entries import Entry

CompactionReason = Literal["manual", "threshold", "overflow"]


@dataclass(frozen=True, slots=True)
class MessageEnd:
    type: ClassVar[str] = "message_end"
    message: AgentMessage
    entry_id: str


@dataclass(frozen=True, slots=True)
class CompactionStart:
    type: ClassVar[str] = "compaction_start"
    reason: CompactionReason
    tokens_before: int


@dataclass(frozen=True, slots=True)
class CompactionEnd:
    type: ClassVar[str] = "compaction_end"
    reason: CompactionReason
    result: CompactionResult | None
    aborted: bool = False
    will_retry: bool = False
    error: str | None = None
    entry_id: str | None = None
    from_hook: bool = False
    kept_messages: int = 0


@dataclass(frozen=True, slots=True)
class HookError:
    type: ClassVar[str] = "hook_error"
    hook: str
    error: str


@dataclass(frozen=True, slots=True)
class AgentError:
    """The run stopped on an error the loop could not recover from."""

    type: ClassVar[str] = "agent_error"
    message: str


@dataclass(frozen=True, slots=True)
class AgentEnd:
    type: ClassVar[str] = "agent_end"
    messages: Sequence[AgentMessage] = field(default_factory=tuple)
    """The messages this run added."""


@dataclass(frozen=True, slots=True)
class BranchSummarized:
    type: ClassVar[str] = "branch_summarized"
    entry_id: str
    summary: str


AgentEvent = (
    MessageEnd
    | CompactionStart
    | CompactionEnd
    | HookError
    | AgentError
    | AgentEnd
    | BranchSummarized
)
Listener = Callable[[AgentEvent], Any]


@dataclass(frozen=True, slots=True)
class BeforeCompact:
    """What a ``before_compact`` hook is shown."""

    preparation: CompactionPreparation
    branch_entries: Sequence[Entry]
    reason: CompactionReason
    will_retry: bool
    custom_instructions: str | None


@dataclass(frozen=True, slots=True)
class CancelCompaction:
    """Return this from a ``before_compact`` hook to skip the compaction."""

    reason: str = "cancelled by hook"


HookOutcome = CompactionResult | CancelCompaction | None
BeforeCompactHook = Callable[[BeforeCompact], "HookOutcome | Awaitable[HookOutcome]"]
