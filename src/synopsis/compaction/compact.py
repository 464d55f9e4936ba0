"""Running a compaction: from a preparation to a checkpoint.

:func:`compact` asks a summarizer for the checkpoint text (and, when the cut splits a
turn, for a summary of that turn's early part, in parallel), appends the file lists and
returns a :class:`CompactionResult`. It does no I/O of its own: storing the result is
the session's job (:func:`compact_session`), so a failing or cancelled summarizer leaves
the session exactly as it was.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from synopsis._js import utf16_len
from synopsis.compaction.file_ops import format_file_lists
from synopsis.compaction.prepare import HISTORY_OUTPUT_SHARE, CompactionPreparation
from synopsis.compaction.serialize import serialize_conversation
from synopsis.messages import DEFAULT_WRAPPING, AgentMessage, SummaryWrapping, convert_to_llm
from synopsis.state import WorkingState, extract_working_state
from synopsis.state.guard import GuardResult, guard_summary, without_empty_sections
from synopsis.state.secrets import redact
from synopsis.summarizers.base import (
    Summarizer,
    SummaryKind,
    SummaryRequest,
    SummaryResult,
    SummaryUsage,
    drifts,
)
from synopsis.summarizers.embedded import EmbeddedSummarizer
from synopsis.tokens import estimate_tokens

TURN_PREFIX_SEPARATOR = "\n\n---\n\n## Earlier in the current turn (kept part follows)\n\n"
"""Joins the history checkpoint and the summary of a split turn's early part."""
TIGHT_TURN_PREFIX_SEPARATOR = "\n\n---\n\n"
"""The same under a cap the heading would take a noticeable share of: the rule and the
part's own headings still mark where the turn's part starts (the heading is framing)."""
FRAMING_SHARE = 10
"""Under a cap, what frames the checkpoint (the separator's heading here, the wording of
the chat-list message in :func:`~synopsis.compaction.compact_messages`) takes at most
1/FRAMING_SHARE of it; past that it takes its tight form."""

NO_PRIOR_HISTORY = "No prior history."

TURN_PREFIX_OUTPUT_SHARE = 0.5

SPLIT_PREFIX_SHARE = 0.3
"""Under ``summary_max_tokens``, the share of the cap a split turn's early part gets."""


@dataclass(slots=True)
class CompactionResult:
    """What a compaction produced; :func:`compact_session` stores it as an entry."""

    summary: str
    first_kept_entry_id: str
    tokens_before: int
    estimated_tokens_after: int
    details: dict[str, Any] = field(default_factory=dict)
    usage: SummaryUsage = field(default_factory=SummaryUsage)
    guard: GuardResult | None = None
    """What the summary guard restored or marked stale (``None`` with the guard off)."""
    is_split_turn: bool = False
    full_pass: bool = False
    """Rebuilt from the whole log rather than updating the previous checkpoint."""
    state: WorkingState | None = None
    """The working state after this compaction (``None`` with the guard off); the next
    round starts from it (stored as ``details.workingState`` in session files)."""


def summary_request(
    kind: SummaryKind,
    messages: Sequence[AgentMessage],
    *,
    max_tokens: int,
    previous_summary: str | None = None,
    previous_state: WorkingState | None = None,
    custom_instructions: str | None = None,
    wrapping: SummaryWrapping = DEFAULT_WRAPPING,
    redact_secrets: bool = True,
    continued_by: Sequence[AgentMessage] = (),
) -> SummaryRequest:
    """A request carrying both the transcript a model reads and the structured messages
    (credentials in the transcript replaced by references, unless told otherwise)."""
    conversation = serialize_conversation(convert_to_llm(messages, wrapping), mark_untrusted=True)
    return SummaryRequest(
        kind=kind,
        conversation=redact(conversation) if redact_secrets else conversation,
        messages=tuple(messages),
        previous_summary=previous_summary,
        previous_state=previous_state,
        custom_instructions=custom_instructions,
        continued_by=tuple(continued_by),
        max_tokens=max(1, max_tokens),
    )


def _transcript_tokens(message: AgentMessage, wrapping: SummaryWrapping) -> int:
    text = serialize_conversation(convert_to_llm([message], wrapping))
    return -(-utf16_len(text) // 4)


def split_for_window(
    messages: Sequence[AgentMessage], input_limit: int, wrapping: SummaryWrapping
) -> list[list[AgentMessage]]:
    """Consecutive chunks of ``messages`` whose transcripts fit ``input_limit`` tokens.

    A single message larger than the limit is a chunk of its own (its transcript is
    already bounded: tool results are cut to 2,000 characters).
    """
    chunks: list[list[AgentMessage]] = [[]]
    size = 0
    for message in messages:
        tokens = _transcript_tokens(message, wrapping)
        if chunks[-1] and size + tokens > input_limit:
            chunks.append([])
            size = 0
        chunks[-1].append(message)
        size += tokens
    return chunks


async def summarize_in_chunks(
    summarizer: Summarizer,
    messages: Sequence[AgentMessage],
    *,
    previous_summary: str | None,
    previous_state: WorkingState | None,
    max_tokens: int,
    input_limit: int | None,
    custom_instructions: str | None,
    wrapping: SummaryWrapping,
    redact_secrets: bool = True,
    continued_by: Sequence[AgentMessage] = (),
) -> SummaryResult:
    """Summarize ``messages``; in several calls when they exceed the summarizer's input.

    Each chunk updates the summary of the chunks before it, so a transcript larger than
    the summarizer's own window never makes the summary call overflow. The last chunk is
    told what ``continued_by`` (a split turn's early part, summarized apart) goes on with.
    """
    chunks = [list(messages)]
    if input_limit is not None:
        budget = max(1, input_limit - max_tokens - _summary_tokens(previous_summary))
        chunks = split_for_window(messages, budget, wrapping)
    summary = previous_summary
    usage = SummaryUsage()
    for number, chunk in enumerate(chunks, 1):
        request = summary_request(
            SummaryKind.UPDATE if summary else SummaryKind.HISTORY,
            chunk,
            max_tokens=max_tokens,
            previous_summary=summary,
            previous_state=previous_state if summary == previous_summary else None,
            custom_instructions=custom_instructions,
            wrapping=wrapping,
            redact_secrets=redact_secrets,
            continued_by=continued_by if number == len(chunks) else (),
        )
        result = await summarizer.summarize(request)
        summary, usage = result.text, usage + result.usage
    return SummaryResult(summary or "", usage)


def _summary_tokens(summary: str | None) -> int:
    return -(-utf16_len(summary) // 4) if summary else 0


def estimate_tokens_after(summary: str, kept: Sequence[AgentMessage]) -> int:
    """Estimated size of the rebuilt context: the checkpoint plus the kept messages."""
    checkpoint: AgentMessage = {"role": "compactionSummary", "summary": summary, "tokensBefore": 0}
    return estimate_tokens(checkpoint) + sum(estimate_tokens(m) for m in kept)


def default_summarizer() -> Summarizer:
    """The embedded summarizer: no model, no network."""
    return EmbeddedSummarizer()


async def compact(
    preparation: CompactionPreparation,
    summarizer: Summarizer | None = None,
    *,
    custom_instructions: str | None = None,
    wrapping: SummaryWrapping = DEFAULT_WRAPPING,
    summary_max_tokens: int | None = None,
    guard: bool = True,
    previous_state: WorkingState | None = None,
) -> CompactionResult:
    """Summarize what ``preparation`` selected and build the checkpoint; stores nothing.

    ``summarizer`` defaults to the embedded one (no model, no network).
    The checkpoint may use ``summary_max_tokens`` (default: 80% of the reserve; a
    split turn's prefix summary gets 5/8 of that). Raises whatever the summarizer raises
    (a :class:`synopsis.errors.SummarizerError`, or ``asyncio.CancelledError``); nothing
    is stored either way.

    With ``guard`` (the default) the working state is derived from the summarized
    messages, merged with the previous compaction's, stored in ``details`` and used to
    check the summary: pinned facts it dropped are restored, replaced values marked.
    ``previous_state`` is the state the previous round returned; without it, the one a
    previous compaction stored in its ``details`` is used.
    """
    summarizer = summarizer or default_summarizer()
    reserve = preparation.settings.reserve_tokens
    read_files, modified_files = preparation.file_ops.file_lists()
    file_lists = format_file_lists(read_files, modified_files)
    # a hard cap holds for the whole checkpoint: the summary gets what the file lists leave
    room = None if summary_max_tokens is None else summary_max_tokens - _summary_tokens(file_lists)
    if room is None:
        history_limit = int(HISTORY_OUTPUT_SHARE * reserve)
        prefix_limit = int(TURN_PREFIX_OUTPUT_SHARE * reserve)
    elif preparation.is_split_turn and preparation.turn_prefix_messages:
        # a split turn's early part shares it
        prefix_limit = max(1, int(room * SPLIT_PREFIX_SHARE))
        history_limit = max(1, room - prefix_limit)
    else:
        history_limit = prefix_limit = max(1, room)
    previous = preparation.previous_summary
    redact_secrets = preparation.settings.redact_secrets
    if previous and redact_secrets:
        previous = redact(previous)
    if previous_state is None:
        previous_state = _previous_state(preparation.previous_details)
    input_limit = getattr(summarizer, "max_input_tokens", None)

    prefix = preparation.turn_prefix_messages if preparation.is_split_turn else []
    separator = TURN_PREFIX_SEPARATOR
    if room is not None and _summary_tokens(separator) * FRAMING_SHARE > room:
        separator = TIGHT_TURN_PREFIX_SEPARATOR

    def bare(part: SummaryResult) -> SummaryResult:
        """Under a hard cap the placeholders of empty sections take room a fact could use."""
        return part if room is None else replace(part, text=without_empty_sections(part.text))

    async def history_summary() -> SummaryResult:
        summary = await summarize_in_chunks(
            summarizer,
            preparation.messages_to_summarize,
            previous_summary=previous,
            previous_state=previous_state,
            max_tokens=history_limit,
            input_limit=input_limit,
            custom_instructions=custom_instructions,
            wrapping=wrapping,
            redact_secrets=redact_secrets,
            continued_by=prefix,
        )
        return bare(summary)

    if prefix:

        async def prefix_summary(limit: int) -> SummaryResult:
            request = summary_request(
                SummaryKind.TURN_PREFIX,
                prefix,
                max_tokens=limit,
                custom_instructions=custom_instructions,
                wrapping=wrapping,
                redact_secrets=redact_secrets,
            )
            return bare(await summarizer.summarize(request))

        def left_by(part: SummaryResult) -> int:
            """What the cap leaves the other part of a split turn's checkpoint."""
            assert room is not None
            return room - _summary_tokens(part.text + separator)

        if not preparation.messages_to_summarize:
            history = SummaryResult(previous or NO_PRIOR_HISTORY)
            if room is not None:  # nothing new before the turn: its part gets the cap
                prefix_limit = max(prefix_limit, left_by(history))
            turn = await prefix_summary(prefix_limit)
            if (
                previous
                and room is not None
                and not drifts(summarizer)
                and left_by(turn) < _summary_tokens(previous)
            ):
                # the previous checkpoint and the turn's part pass the cap together: written
                # from the state, the history is ranked again within what the turn leaves,
                # rather than cut line by line as text
                history_limit = max(1, left_by(turn))
                history = await history_summary()
        elif room is not None and not drifts(summarizer):
            # Written from the state, fast and offline: each part gets what the other
            # leaves of the cap rather than a fixed share, so a short part wastes none of
            # it — the turn's part within its share, the history the rest, then the turn's
            # part again when the history left it more.
            turn = await prefix_summary(prefix_limit)
            history_limit = max(history_limit, left_by(turn))
            history = await history_summary()
            if left_by(history) > prefix_limit:
                turn = await prefix_summary(left_by(history))
        else:
            history, turn = await asyncio.gather(history_summary(), prefix_summary(prefix_limit))
        text = history.text + separator + turn.text
        usage = history.usage + turn.usage
    else:
        history = await history_summary()
        text, usage = history.text, history.usage

    details: dict[str, Any] = {"readFiles": read_files, "modifiedFiles": modified_files}
    checked = state = None
    if guard:
        state = extract_working_state(
            [*preparation.messages_to_summarize, *preparation.turn_prefix_messages],
            entry_ids=preparation.source_entry_ids,
            previous=previous_state,
            redact_secrets=redact_secrets,
        )
        # The kept messages may correct what the summarized ones said: the checkpoint
        # must not state a value the conversation after it replaces.
        later = extract_working_state(
            preparation.kept_messages, previous=state, redact_secrets=redact_secrets
        )
        # the whole checkpoint, guard additions and file lists included, fits the budget
        if summary_max_tokens is not None:
            budget = summary_max_tokens
        else:
            budget = history_limit + (prefix_limit if preparation.is_split_turn and prefix else 0)
        checked = guard_summary(
            text, state, later=later, max_chars=budget * 4 - len(file_lists), earlier=previous
        )
        text = checked.text
        details["workingState"] = state.to_json()
        details["guard"] = checked.to_json()
    if redact_secrets:  # a model may have copied one from the transcript or the old summary
        text = redact(text)
    summary = text + file_lists
    return CompactionResult(
        summary=summary,
        first_kept_entry_id=preparation.first_kept_entry_id,
        tokens_before=preparation.tokens_before,
        estimated_tokens_after=estimate_tokens_after(summary, preparation.kept_messages),
        details=details,
        usage=usage,
        guard=checked,
        is_split_turn=preparation.is_split_turn,
        full_pass=preparation.full_pass,
        state=state,
    )


def _previous_state(previous_details: Any) -> WorkingState | None:
    """The working state a previous compaction stored, if it stored one."""
    if isinstance(previous_details, dict) and previous_details.get("workingState") is not None:
        return WorkingState.from_json(previous_details["workingState"])
    return None
