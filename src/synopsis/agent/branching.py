"""Summarizing a branch the user leaves when moving the leaf elsewhere in the tree.

When the user jumps back to an earlier point, the work done on the abandoned branch is
not lost from the agent's memory: it is summarized into a ``branch_summary`` entry that
becomes part of the new path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from synopsis.compaction.compact import summary_request
from synopsis.compaction.file_ops import FileOperations, format_file_lists
from synopsis.messages import AgentMessage
from synopsis.session.context import compaction_summary_message, entry_message
from synopsis.session.entries import Entry
from synopsis.session.tree import Session
from synopsis.summarizers.base import Summarizer, SummaryKind, SummaryUsage
from synopsis.tokens import estimate_tokens

BRANCH_SUMMARY_MAX_TOKENS = 2048
BRANCH_PREAMBLE = (
    "The user explored another branch of this conversation before coming back here. "
    "What happened there:\n\n"
)
"""Introduces a branch summary in the stored entry."""

_SUMMARY_ENTRY_SHARE = 0.9


def abandoned_entries(session: Session, old_leaf_id: str | None, target_id: str) -> list[Entry]:
    """Entries from the common ancestor (exclusive) to ``old_leaf_id``, oldest first."""
    if old_leaf_id is None:
        return []
    target_path = {entry["id"] for entry in session.path(target_id)}
    collected: list[Entry] = []
    for entry in reversed(session.path(old_leaf_id)):
        if entry["id"] in target_path:
            break
        collected.append(entry)
    collected.reverse()
    return collected


def _message(entry: Entry) -> AgentMessage | None:
    if entry.get("type") == "compaction":
        return compaction_summary_message(entry)
    message = entry_message(entry)
    # A tool result is noise without its call, and the call already names what was done.
    if message is not None and message.get("role") == "toolResult":
        return None
    return message


@dataclass(slots=True)
class BranchSelection:
    messages: list[AgentMessage]
    file_ops: FileOperations


def select_branch_messages(entries: Sequence[Entry], token_budget: int) -> BranchSelection:
    """The newest messages of an abandoned branch that fit ``token_budget`` (0: no limit).

    Summaries met on the way (compactions, earlier branch summaries) are still taken
    while the total is under 90% of the budget, as they condense much more history.
    File operations are collected from every message visited.
    """
    file_ops = FileOperations()
    for entry in entries:
        if entry.get("type") == "branch_summary" and not entry.get("fromHook"):
            file_ops.add_from_details(entry.get("details"))
    selected: list[AgentMessage] = []
    total = 0
    for entry in reversed(entries):
        message = _message(entry)
        if message is None:
            continue
        file_ops.add_from_message(message)
        tokens = estimate_tokens(message)
        if token_budget and total + tokens > token_budget:
            is_summary = entry.get("type") in ("compaction", "branch_summary")
            if is_summary and total < _SUMMARY_ENTRY_SHARE * token_budget:
                selected.append(message)
            break
        selected.append(message)
        total += tokens
    selected.reverse()
    return BranchSelection(selected, file_ops)


@dataclass(slots=True)
class BranchSummary:
    summary: str
    details: dict[str, Any]
    usage: SummaryUsage


async def summarize_branch(
    entries: Sequence[Entry],
    summarizer: Summarizer,
    *,
    token_budget: int,
    custom_instructions: str | None = None,
) -> BranchSummary | None:
    """Summarize an abandoned branch; ``None`` when it holds nothing to summarize."""
    selection = select_branch_messages(entries, token_budget)
    if not selection.messages:
        return None
    request = summary_request(
        SummaryKind.BRANCH,
        selection.messages,
        max_tokens=BRANCH_SUMMARY_MAX_TOKENS,
        custom_instructions=custom_instructions,
    )
    result = await summarizer.summarize(request)
    read_files, modified_files = selection.file_ops.file_lists()
    text = BRANCH_PREAMBLE + result.text + format_file_lists(read_files, modified_files)
    details = {"readFiles": read_files, "modifiedFiles": modified_files}
    return BranchSummary(text, details, result.usage)
