"""Preparing a compaction: what is summarized, what is kept, and what a summarizer reads.

:func:`prepare_compaction` is pure: given the entries of a branch (root → leaf) and the
settings, it decides the cut and gathers the messages to summarize, as Pi 1.6 does: on the
projection of the branch (context edits applied, older compactions contributing nothing),
the summarized range starting at the previous compaction's first kept entry (so the cut
may land inside that kept part), and the previous summary travelling alongside to be
merged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from synopsis.compaction.cut_points import CutPoint, find_projected_cut
from synopsis.compaction.file_ops import FileOperations, calls_of
from synopsis.compaction.settings import CompactionSettings
from synopsis.messages import AgentMessage
from synopsis.session.context import Projection, build_projection, projected_context_tokens
from synopsis.session.entries import Entry
from synopsis.session.skim import MessageList, full_message, messages_of
from synopsis.tokens import estimate_tokens

HISTORY_OUTPUT_SHARE = 0.8
"""Share of ``reserve_tokens`` a checkpoint may use (the rest stays free for the reply)."""


@dataclass(frozen=True, slots=True)
class CompactionRange:
    """Where the summarized range starts, on the branch and in its projection."""

    previous_compaction_index: int
    """Branch index of the compaction in force (leading the projection), or -1."""
    start: int
    """Branch index of the first entry of the range to summarize: the previous
    compaction's first kept entry, else the entry after it (or the branch length)."""
    projected_start: int
    """The same entry's projected position."""


def compaction_range(projection: Projection) -> CompactionRange:
    """The range a compaction summarizes: the projection after its leading compaction."""
    if projection.leading_compaction:
        return CompactionRange(projection.compaction_index, projection.path_index(1), 1)
    return CompactionRange(-1, projection.path_index(0), 0)


def to_branch_cut(projection: Projection, cut: CutPoint) -> CutPoint:
    """A cut in projected positions, in branch indices."""
    turn = projection.path_index(cut.turn_start_index) if cut.turn_start_index >= 0 else -1
    return CutPoint(projection.path_index(cut.first_kept_index), turn, cut.is_split_turn)


def to_projected_cut(projection: Projection, cut: CutPoint) -> CutPoint:
    """A cut in branch indices, in projected positions (an entry outside the projection
    maps to the next projected entry after it in branch order)."""

    where = {index: position for position, index in enumerate(projection.indices)}

    def position(index: int) -> int:
        if index in where:
            return where[index]
        later = (p for p, i in enumerate(projection.indices) if i > index)
        return next(later, len(projection))

    turn = position(cut.turn_start_index) if cut.turn_start_index >= 0 else -1
    return CutPoint(position(cut.first_kept_index), turn, cut.is_split_turn)


def plan_projected_cut(
    projection: Projection, settings: CompactionSettings
) -> tuple[CompactionRange, CutPoint]:
    """The range and the cut (in projected positions) a compaction would use now."""
    bounds = compaction_range(projection)
    cut = find_projected_cut(
        projection,
        bounds.projected_start,
        len(projection),
        settings.keep_recent_tokens,
        keep_recent_messages=settings.keep_recent_messages,
        count=settings.token_counter.count,
    )
    return bounds, cut


def plan_cut(
    branch: Sequence[Entry], settings: CompactionSettings
) -> tuple[CompactionRange, CutPoint]:
    """The range and the cut a compaction of ``branch`` would use now, in branch indices."""
    projection = build_projection(branch)
    bounds, cut = plan_projected_cut(projection, settings)
    return bounds, to_branch_cut(projection, cut)


@dataclass(slots=True)
class CompactionPreparation:
    """Everything a summarizer needs, and where the new checkpoint will stand."""

    first_kept_entry_id: str
    first_kept_index: int
    messages_to_summarize: Sequence[AgentMessage]
    """A list, or for a skimmed branch (:mod:`synopsis.session.skim`) a
    :class:`~synopsis.session.skim.MessageList` that reads each body afresh per pass."""
    turn_prefix_messages: Sequence[AgentMessage]
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
    projection: Projection, start: int, stop: int, ids: list[str] | None = None
) -> list[AgentMessage]:
    """Non-system messages of projected positions ``[start, stop)``; entry ids go to ``ids``."""
    messages = []
    for position in range(start, stop):
        for message in projection.messages[position]:
            if message.get("role") != "system":
                messages.append(message)
                if ids is not None:
                    ids.append(projection.entries[position]["id"])
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
    projection: Projection | None = None,
) -> CompactionPreparation | None:
    """Decide a compaction of ``branch``; ``None`` when there is nothing to do.

    Nothing to do: the branch ends with a compaction (already compacted), or there is
    nothing before the cut to summarize. With ``full_pass`` the summary is rebuilt from
    the original log (everything on the branch before the cut) instead of updating the
    previous one, so that errors of earlier summaries cannot accumulate. ``cut`` replaces
    the cut the rules would choose (callers that must move it, such as the chat-list API).
    ``projection`` is ``build_projection(branch)`` when the caller holds it already (a
    session's context at its leaf carries it: ``session.build_context().projection``), so
    that the branch is not projected twice.
    """
    settings = settings or CompactionSettings()
    if not branch or branch[-1].get("type") == "compaction":
        return None
    if projection is None:
        projection = build_projection(branch)
    elif projection.path_length != len(branch):
        raise ValueError("the projection given is not that of the branch")
    bounds, chosen = plan_projected_cut(projection, settings)
    cut = chosen if cut is None else to_projected_cut(projection, cut)
    branch_cut = to_branch_cut(projection, cut)
    if cut.first_kept_index >= len(projection):
        return None
    first_kept = projection.entries[cut.first_kept_index]
    history_end = cut.turn_start_index if cut.is_split_turn else cut.first_kept_index
    source_ids: list[str] = []
    to_summarize = _messages(projection, bounds.projected_start, history_end, source_ids)
    if full_pass:
        # The whole log before the range, as plain entries (edits among them applied).
        before = build_projection(branch[: bounds.start], compactions=False)
        earlier_ids: list[str] = []
        to_summarize = [*_messages(before, 0, len(before), earlier_ids), *to_summarize]
        source_ids[:0] = earlier_ids
    prefix = (
        _messages(projection, cut.turn_start_index, cut.first_kept_index, source_ids)
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
    summarized, prefix_messages = messages_of(to_summarize), messages_of(prefix)
    for messages in (summarized, prefix_messages):
        if isinstance(messages, MessageList):
            file_ops.add_calls(messages.file_calls(calls_of))
        else:
            file_ops.add_from_messages(messages)

    return CompactionPreparation(
        first_kept_entry_id=first_kept["id"],
        first_kept_index=branch_cut.first_kept_index,
        messages_to_summarize=summarized,
        turn_prefix_messages=prefix_messages,
        is_split_turn=cut.is_split_turn,
        turn_start_index=branch_cut.turn_start_index,
        tokens_before=projected_context_tokens(projection),
        previous_summary=previous_summary,
        previous_compaction_index=bounds.previous_compaction_index,
        range_start=bounds.start,
        file_ops=file_ops,
        settings=settings,
        kept_messages=[
            full_message(m) for m in _messages(projection, cut.first_kept_index, len(projection))
        ],
        previous_details=previous_details,
        source_entry_ids=source_ids,
        full_pass=full_pass,
    )
