"""Compacting a session: prepare, summarize, and append the checkpoint entry."""

from __future__ import annotations

from synopsis.compaction.compact import CompactionResult, compact
from synopsis.compaction.prepare import prepare_compaction, wants_full_pass
from synopsis.compaction.settings import CompactionSettings
from synopsis.errors import CompactionError
from synopsis.messages import DEFAULT_WRAPPING, SummaryWrapping
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
    if branch and branch[-1].get("type") == "compaction":
        raise CompactionError("Already compacted: the branch ends with a compaction entry")
    preparation = prepare_compaction(branch, settings, full_pass=wants_full_pass(branch, settings))
    if preparation is None:
        raise CompactionError(
            "Nothing to compact: the whole branch fits in the keep window "
            f"(keep_recent_tokens={settings.keep_recent_tokens}); lower it to compact anyway"
        )
    result = await compact(
        preparation,
        summarizer or default_summarizer(),
        custom_instructions=custom_instructions,
        wrapping=wrapping,
        guard=guard,
    )
    usage = result.usage
    extra = {"usage": usage.to_json()} if usage.input_tokens or usage.output_tokens else None
    entry_id = session.append_compaction(
        result.summary,
        result.first_kept_entry_id,
        result.tokens_before,
        result.details,
        extra=extra,
    )
    return result, entry_id
