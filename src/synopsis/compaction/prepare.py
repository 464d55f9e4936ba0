"""Preparing a compaction: what is summarized, what is kept, and what a summarizer reads.

:func:`prepare_compaction` is pure: given the entries of a branch (root → leaf) and the
settings, it decides the cut and gathers the messages to summarize. It never loses what a
previous compaction kept: the summarized range starts at that compaction's first kept
entry, and the previous summary travels alongside to be merged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from synopsis.compaction.cut_points import CutPoint, find_cut_point
from synopsis.compaction.file_ops import FileOperations
from synopsis.compaction.settings import CompactionSettings
from synopsis.messages import AgentMessage
from synopsis.session.context import (
    branch_context_tokens,
    entry_message,
    find_first_kept_index,
    latest_compaction_index,
)
from synopsis.session.entries import Entry
from synopsis.tokens import estimate_tokens

HISTORY_OUTPUT_SHARE = 0.8
"""Share of ``reserve_tokens`` a checkpoint may use (the rest stays free for the reply)."""


@dataclass(frozen=True, slots=True)
class CompactionRange:
    """Where the summarized range starts and where the cut may go."""

    previous_compaction_index: int
    """Position of the latest compaction on the branch, or -1."""
    start: int
    """First entry of the range to summarize (the previous compaction's first kept entry)."""
    cut_floor: int
    """The cut lies at or after this position (just after the previous compaction)."""


def compaction_range(branch: Sequence[Entry]) -> CompactionRange:
    previous = latest_compaction_index(branch)
    if previous < 0:
        return CompactionRange(-1, 0, 0)
    first_kept = find_first_kept_index(branch, previous)
    start = first_kept if first_kept >= 0 else previous + 1
    return CompactionRange(previous, start, previous + 1)


def plan_cut(
    branch: Sequence[Entry], settings: CompactionSettings
) -> tuple[CompactionRange, CutPoint]:
    """The range and the cut a compaction of ``branch`` would use now."""
    bounds = compaction_range(branch)
    cut = find_cut_point(
        branch,
        bounds.start,
        len(branch),
        settings.keep_recent_tokens,
        cut_floor=bounds.cut_floor,
        keep_recent_messages=settings.keep_recent_messages,
        count=settings.token_counter.count,
    )
    return bounds, cut


@dataclass(slots=True)
class CompactionPreparation:
    """Everything a summarizer needs, and where the new checkpoint will stand."""

    first_kept_entry_id: str
    first_kept_index: int
    messages_to_summarize: list[AgentMessage]
    turn_prefix_messages: list[AgentMessage]
    is_split_turn: bool
    turn_start_index: int
    tokens_before: int
    previous_summary: str | None
    previous_compaction_index: int
    range_start: int
    file_ops: FileOperations
    settings: CompactionSettings
    kept_messages: list[AgentMessage] = field(default_factory=list)
    """Messages kept verbatim after the cut (up to the leaf)."""
    previous_details: Any = field(default=None)
    """``details`` of the previous compaction (working state travels there)."""
    source_entry_ids: list[str] = field(default_factory=list)
    """Entry ids of ``messages_to_summarize`` followed by those of ``turn_prefix_messages``."""
    full_pass: bool = False
    """The checkpoint is rebuilt from the whole log instead of updating the previous one."""


def _messages(
    branch: Sequence[Entry], start: int, stop: int, ids: list[str] | None = None
) -> list[AgentMessage]:
    """Context messages of ``branch[start:stop]``; their entry ids go to ``ids``."""
    messages = []
    for index in range(start, stop):
        message = entry_message(branch[index])
        if message is not None:
            messages.append(message)
            if ids is not None:
                ids.append(branch[index]["id"])
    return messages


def wants_full_pass(branch: Sequence[Entry], settings: CompactionSettings) -> bool:
    """Should the next compaction rebuild the checkpoint from the whole log?

    Incremental updates are cheap but each one can lose or bend a little; every
    ``full_pass_every``-th compaction, or once the previous summary has grown past its
    share of the summary budget, the checkpoint is rebuilt from the original entries.
    """
    compactions = [entry for entry in branch if entry.get("type") == "compaction"]
    if not compactions:
        return False
    every = settings.full_pass_every
    if every is not None and (len(compactions) + 1) % every == 0:
        return True
    share = settings.full_pass_summary_share
    summary = compactions[-1].get("summary")
    if share is None or not isinstance(summary, str):
        return False
    budget = HISTORY_OUTPUT_SHARE * settings.reserve_tokens
    return estimate_tokens({"role": "compactionSummary", "summary": summary}) > share * budget


def prepare_compaction(
    branch: Sequence[Entry],
    settings: CompactionSettings | None = None,
    *,
    full_pass: bool = False,
    cut: CutPoint | None = None,
) -> CompactionPreparation | None:
    """Decide a compaction of ``branch``; ``None`` when there is nothing to do.

    Nothing to do: the branch ends with a compaction (already compacted), or there is
    nothing before the cut to summarize. With ``full_pass`` the summary is rebuilt from
    the original log (everything on the branch before the cut) instead of updating the
    previous one, so that errors of earlier summaries cannot accumulate. ``cut`` replaces
    the cut the rules would choose (callers that must move it, such as the chat-list API).
    """
    settings = settings or CompactionSettings()
    if not branch or branch[-1].get("type") == "compaction":
        return None
    bounds, chosen = plan_cut(branch, settings)
    cut = cut or chosen
    if cut.first_kept_index >= len(branch):
        return None
    first_kept = branch[cut.first_kept_index]
    history_end = cut.turn_start_index if cut.is_split_turn else cut.first_kept_index
    source_ids: list[str] = []
    to_summarize = _messages(branch, 0 if full_pass else bounds.start, history_end, source_ids)
    prefix = (
        _messages(branch, cut.turn_start_index, cut.first_kept_index, source_ids)
        if cut.is_split_turn
        else []
    )
    if not to_summarize and not prefix:
        return None

    previous_summary: str | None = None
    previous_details: Any = None
    file_ops = FileOperations()
    if bounds.previous_compaction_index >= 0 and not full_pass:
        previous = branch[bounds.previous_compaction_index]
        summary = previous.get("summary")
        previous_summary = summary if isinstance(summary, str) else None
        previous_details = previous.get("details")
        if not previous.get("fromHook"):
            file_ops.add_from_details(previous_details)
    file_ops.add_from_messages(to_summarize)
    file_ops.add_from_messages(prefix)

    tokens_before = branch_context_tokens(branch)
    return CompactionPreparation(
        first_kept_entry_id=first_kept["id"],
        first_kept_index=cut.first_kept_index,
        messages_to_summarize=to_summarize,
        turn_prefix_messages=prefix,
        is_split_turn=cut.is_split_turn,
        turn_start_index=cut.turn_start_index,
        tokens_before=tokens_before,
        previous_summary=previous_summary,
        previous_compaction_index=bounds.previous_compaction_index,
        range_start=bounds.start,
        file_ops=file_ops,
        settings=settings,
        kept_messages=_messages(branch, cut.first_kept_index, len(branch)),
        previous_details=previous_details,
        source_entry_ids=source_ids,
        full_pass=full_pass,
    )
