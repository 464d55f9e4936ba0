"""The working state: facts derived from the event log by code, and the summary guard.

A summary written by a model (or by the embedded summarizer) is a lossy narrative; the
working state is what code can prove from the log — goals, the user's rules verbatim,
identifiers, tool outcomes, files with hashes, decisions and corrected values. It is
stored with every compaction and carried to the next one, and the guard checks each
checkpoint against it.
"""

from synopsis.state.extract import extract_from_entries, extract_working_state
from synopsis.state.guard import GuardChange, GuardResult, PinnedFact, guard_summary, pinned_facts
from synopsis.state.model import (
    Constraint,
    Decision,
    FileRecord,
    Folded,
    Goal,
    Identifier,
    ToolCallRecord,
    WorkingState,
)
from synopsis.state.render import render_state

__all__ = [
    "Constraint",
    "Decision",
    "FileRecord",
    "Folded",
    "Goal",
    "GuardChange",
    "GuardResult",
    "Identifier",
    "PinnedFact",
    "ToolCallRecord",
    "WorkingState",
    "extract_from_entries",
    "extract_working_state",
    "guard_summary",
    "pinned_facts",
    "render_state",
]
