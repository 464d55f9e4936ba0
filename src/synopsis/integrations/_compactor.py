"""What the framework integrations share: a window budget, the checkpoint they carry
from round to round, and one compaction step over chat messages.

Every integration converts its framework's messages into OpenAI- or Anthropic-format
chat dicts, one dict per framework message, and lets :func:`compact_messages` choose the
cut, so the cut rules (never between a tool call and its result, split turns, the
guard) are the ones every other caller of synopsis gets. The step answers with *how many*
of the given messages to keep, which the integration maps back onto its own message
objects, kept untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from synopsis._sync import run_sync
from synopsis.compaction.chat_format import ChatFormat, checkpoint_message, read_chat_messages
from synopsis.compaction.messages_api import compact_messages
from synopsis.compaction.prepare import HISTORY_OUTPUT_SHARE
from synopsis.compaction.settings import CompactionSettings
from synopsis.messages import DEFAULT_WRAPPING, SummaryWrapping
from synopsis.state.model import WorkingState
from synopsis.summarizers.base import Summarizer
from synopsis.token_counters import as_counter
from synopsis.tokens import CJK_ESTIMATE, TokenCounter, text_tokens

PI_RESERVE_TOKENS = 16384
PI_KEEP_RECENT_TOKENS = 20000
WINDOW_SHARE = 0.25
"""A reserve or kept part not given is this share of the window, at most Pi's value.

The same rule as ``CompactionSettings.for_window`` (issue 15, item 7), kept here until
that lands so the integrations work with 16k and 32k windows out of the box."""

_M = TypeVar("_M")
"""A framework's message type."""


def missing_extra(framework: str, extra: str) -> str:
    """The ImportError message for an integration whose framework is not installed."""
    return (
        f"synopsis.integrations needs {framework} for this module: pip install 'synopsis[{extra}]'"
    )


@dataclass(frozen=True, slots=True)
class WindowBudget:
    """When to compact (context above ``threshold``) and how much to keep verbatim."""

    context_window: int
    reserve_tokens: int
    keep_recent_tokens: int

    @property
    def threshold(self) -> int:
        return self.context_window - self.reserve_tokens

    @property
    def summary_max_tokens(self) -> int:
        """What the checkpoint may use: 80% of the reserve, as for session files."""
        return max(1, int(HISTORY_OUTPUT_SHARE * self.reserve_tokens))


def window_budget(
    context_window: int,
    *,
    keep_recent_tokens: int | None = None,
    reserve_tokens: int | None = None,
) -> WindowBudget:
    """A budget that fits ``context_window``; values given are kept and checked.

    Raises :class:`synopsis.errors.SettingsError` for settings that cannot work with the
    window (a reserve as large as the window, a kept part above the threshold).
    """
    share = int(context_window * WINDOW_SHARE) if isinstance(context_window, int) else 0
    settings = CompactionSettings(
        reserve_tokens=min(PI_RESERVE_TOKENS, share) if reserve_tokens is None else reserve_tokens,
        keep_recent_tokens=(
            min(PI_KEEP_RECENT_TOKENS, share) if keep_recent_tokens is None else keep_recent_tokens
        ),
    )
    settings.check_window(context_window)
    return WindowBudget(context_window, settings.reserve_tokens, settings.keep_recent_tokens)


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The summary that replaces the older messages, and the working state behind it.

    Integrations store it next to the history they compact (agent state, a message's
    metadata, a session item) as :meth:`to_json`, so the next round continues from the
    state as data rather than from the summary text.
    """

    summary: str
    state: WorkingState | None = None

    def text(self, wrapping: SummaryWrapping = DEFAULT_WRAPPING) -> str:
        """The checkpoint as the model reads it."""
        return wrapping.wrap_compaction(self.summary)

    def to_json(self) -> dict[str, Any]:
        return {
            "summary": self.summary,
            "state": None if self.state is None else self.state.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any) -> Checkpoint | None:
        """The checkpoint stored as :meth:`to_json`; ``None`` for anything else."""
        if not isinstance(data, dict) or not isinstance(data.get("summary"), str):
            return None
        state = data.get("state")
        return cls(data["summary"], None if state is None else WorkingState.from_json(state))


@dataclass(frozen=True, slots=True)
class Compacted:
    checkpoint: Checkpoint
    kept_from: int
    """Index, in the messages given, of the first one kept verbatim."""
    tokens_before: int
    tokens_after: int


DEFAULT_COUNTER = CJK_ESTIMATE
"""What the integrations count tokens with unless told: Pi's characters / 4 on text
without CJK characters, one token per Chinese, Japanese or Korean character (where
characters / 4 is two to four times too low and compaction would come too late)."""


def resolve_counter(counter: TokenCounter | str | None) -> TokenCounter:
    """A counter given by object or name (``chars4``, ``cjk``, ``tiktoken[:ENCODING]``)."""
    return DEFAULT_COUNTER if counter is None else as_counter(counter)


@dataclass(frozen=True, slots=True)
class ReportedUsage:
    """What the provider reported for one response: the context it was given plus its
    reply (input + output tokens), and that response's index among the messages counted.

    It counts what no estimate sees (tool schemas, the framework's own instructions) and
    counts it with the model's own tokenizer.
    """

    index: int
    tokens: int


def latest_usage(
    messages: Sequence[_M], reported_tokens: Callable[[_M], int | None]
) -> ReportedUsage | None:
    """The usage of the latest message that reports one (``reported_tokens`` reads a
    framework message's input + output tokens, ``None`` or 0 when it has none)."""
    for index in range(len(messages) - 1, -1, -1):
        tokens = reported_tokens(messages[index])
        if tokens:
            return ReportedUsage(index, tokens)
    return None


@dataclass(frozen=True, slots=True)
class ChatCompactor:
    """One compaction step over the chat messages that follow a checkpoint."""

    budget: WindowBudget
    summarizer: Summarizer | None = None
    chat_format: ChatFormat = "openai"
    custom_instructions: str | None = None
    token_counter: TokenCounter = DEFAULT_COUNTER

    def text_tokens(self, text: str) -> int:
        """Tokens of a prompt text (system prompt, instructions) by this counter."""
        return text_tokens(self.token_counter, text)

    def context_tokens(
        self,
        messages: Sequence[dict[str, Any]],
        checkpoint: Checkpoint | None,
        extra_tokens: int = 0,
        reported: ReportedUsage | None = None,
    ) -> int:
        """What the model would receive: ``extra_tokens`` + checkpoint + messages, or,
        where more, the ``reported`` usage plus the messages after that response (Pi's
        rule; the larger of the two, so an estimate never hides a reported overflow)."""
        head = [] if checkpoint is None else [self._checkpoint_dict(checkpoint)]
        read = read_chat_messages([*head, *messages], self.chat_format)
        estimate = extra_tokens + sum(self.token_counter.count(r.message) for r in read)
        if reported is None:
            return estimate
        shift = len(head)  # source indexes count the checkpoint dict first
        after = (r.message for r in read if r.source_index - shift > reported.index)
        return max(estimate, reported.tokens + sum(map(self.token_counter.count, after)))

    async def compact(
        self,
        messages: Sequence[dict[str, Any]],
        checkpoint: Checkpoint | None,
        *,
        extra_tokens: int = 0,
        reported: ReportedUsage | None = None,
    ) -> Compacted | None:
        """Compact when the context is over the threshold; ``None`` when nothing changes.

        ``messages`` are the ones after ``checkpoint`` (without it) and must not start
        with system messages: the integration keeps those itself.
        """
        tokens = self.context_tokens(messages, checkpoint, extra_tokens, reported)
        if tokens <= self.budget.threshold:
            return None
        head = [] if checkpoint is None else [self._checkpoint_dict(checkpoint)]
        out = await compact_messages(
            [*head, *messages],
            summarizer=self.summarizer,
            keep_recent_tokens=self.budget.keep_recent_tokens,
            summary_max_tokens=self.budget.summary_max_tokens,
            previous_summary=None if checkpoint is None else checkpoint.summary,
            previous_state=None if checkpoint is None else checkpoint.state,
            format=self.chat_format,
            custom_instructions=self.custom_instructions,
            token_counter=self.token_counter,
        )
        if not out.compacted or out.summary is None:
            return None
        return Compacted(
            Checkpoint(out.summary, out.state),
            len(messages) - len(out.kept),
            tokens,
            extra_tokens + out.tokens_after,
        )

    def compact_sync(
        self,
        messages: Sequence[dict[str, Any]],
        checkpoint: Checkpoint | None,
        *,
        extra_tokens: int = 0,
        reported: ReportedUsage | None = None,
    ) -> Compacted | None:
        """:meth:`compact` for a framework's synchronous hooks."""
        return run_sync(
            self.compact(messages, checkpoint, extra_tokens=extra_tokens, reported=reported)
        )

    def _checkpoint_dict(self, checkpoint: Checkpoint) -> dict[str, Any]:
        return checkpoint_message(checkpoint.text(), self.chat_format)
