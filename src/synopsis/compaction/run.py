"""Compacting a session: prepare, summarize, and append the checkpoint entry."""

from __future__ import annotations

from collections.abc import Sequence

from synopsis.compaction.compact import CompactionResult, compact
from synopsis.compaction.prepare import prepare_compaction, wants_full_pass
from synopsis.compaction.settings import CompactionSettings
from synopsis.errors import CompactionError
from synopsis.messages import DEFAULT_WRAPPING, SummaryWrapping
from synopsis.session.entries import Entry
from synopsis.session.tree import Session
from synopsis.summarizers.base import Summarizer


def default_summarizer() -> Summarizer:
    """The embedded summarizer: no model, no network."""
    from synopsis.summarizers.embedded import EmbeddedSummarizer

    return EmbeddedSummarizer()


async def compact_session(
    session: Session,
    summarizer: Summarizer | None = None,
    settings: CompactionSettings | None = None,
    *,
    custom_instructions: str | None = None,
    wrapping: SummaryWrapping = DEFAULT_WRAPPING,
    guard: bool = True,
) -> tuple[CompactionResult, str]:
    """Compact the session's current branch; returns the result and the new entry's id.

    Raises :class:`CompactionError` when the branch already ends with a compaction or
    has nothing to summarize. The entry is appended only after the summarizer succeeded.
    """
    settings = settings or CompactionSettings()
    branch = session.path()
    check_compactable(branch)
    preparation = prepare_compaction(branch, settings, full_pass=wants_full_pass(branch, settings))
    if preparation is None:
        raise nothing_to_compact(settings)
    result = await compact(
        preparation,
        summarizer or default_summarizer(),
        custom_instructions=custom_instructions,
        wrapping=wrapping,
        guard=guard,
    )
    return result, append_result(session, result)


def check_compactable(branch: Sequence[Entry]) -> None:
    """Refuse to compact a branch that ends with a compaction (nothing new to summarize)."""
    if branch and branch[-1].get("type") == "compaction":
        raise CompactionError("Already compacted: the branch ends with a compaction entry")


def nothing_to_compact(settings: CompactionSettings) -> CompactionError:
    return CompactionError(
        "Nothing to compact: the whole branch fits in the keep window "
        f"(keep_recent_tokens={settings.keep_recent_tokens}); lower it to compact anyway"
    )


def append_result(session: Session, result: CompactionResult, *, from_hook: bool = False) -> str:
    """Store a compaction result as an entry (with the summary calls' usage, if any)."""
    usage = result.usage
    extra = {"usage": usage.to_json()} if usage.input_tokens or usage.output_tokens else None
    return session.append_compaction(
        result.summary,
        result.first_kept_entry_id,
        result.tokens_before,
        result.details,
        from_hook=from_hook,
        extra=extra,
    )
