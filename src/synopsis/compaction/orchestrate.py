"""The one compaction path: plan → summarize → guard → result, and one store operation.

:func:`plan_compaction` decides, :func:`~synopsis.compaction.compact.compact` summarizes
and guards, :func:`store_compaction` appends; :func:`compact_session` runs all three.

Every caller compacts through these functions — session files (:func:`compact_session`),
the agent loop (which runs its hooks between planning and summarizing), plain chat lists
(:mod:`synopsis.compaction.messages_api`) and the CLI (``synopsis plan`` prints the
:class:`CompactionPlan` that ``synopsis compact`` then carries out) — so a change to how a
compaction is decided, summarized, guarded or stored is made in one place.

Planning is pure (entries and settings in, a plan out). Summarizing awaits the
summarizer and nothing else. Storing is the only step that writes, and it runs only
after the summary exists, so a failing or cancelled summarizer leaves a session as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Literal

from synopsis.compaction.compact import CompactionResult, compact
from synopsis.compaction.cut_points import CutPoint
from synopsis.compaction.prepare import (
    HISTORY_OUTPUT_SHARE,
    CompactionPreparation,
    CompactionRange,
    plan_projected_cut,
    prepare_compaction,
    to_branch_cut,
    wants_full_pass,
)
from synopsis.compaction.settings import CompactionSettings
from synopsis.errors import CompactionError, StaleSessionError
from synopsis.messages import DEFAULT_WRAPPING, SummaryWrapping
from synopsis.session.context import Projection, build_projection
from synopsis.session.entries import Entry
from synopsis.session.tree import Session
from synopsis.summarizers.base import Summarizer, drifts

MIN_KEEP_TOKENS = 256
"""Below this the keep window is not halved further but dropped to nothing."""

CutAdjustment = Callable[[Sequence[Entry], CutPoint], CutPoint]
"""Moves a cut the generic rules chose (the chat-list API keeps mixed Anthropic turns whole)."""


class NoCompaction(StrEnum):
    """Why a plan compacts nothing."""

    ALREADY_COMPACTED = "the branch already ends with a compaction"
    FITS = "nothing before the cut to summarize (the branch fits in the keep window)"
    EMPTY = "the branch is empty"


@dataclass(frozen=True, slots=True)
class CompactionPlan:
    """What a compaction of a branch would do now, decided once for every caller."""

    branch_length: int
    settings: CompactionSettings
    """The settings the cut was made with (a keep window shrunk to fit, when it was)."""
    bounds: CompactionRange | None = None
    cut: CutPoint | None = None
    preparation: CompactionPreparation | None = None
    skipped: NoCompaction | None = None
    """Set when there is nothing to compact (``preparation`` is then ``None``)."""

    def require(self) -> CompactionPreparation:
        """The preparation, or the :class:`CompactionError` that says why there is none."""
        if self.preparation is not None:
            return self.preparation
        if self.skipped is NoCompaction.ALREADY_COMPACTED:
            raise CompactionError("Already compacted: the branch ends with a compaction entry")
        raise CompactionError(
            "Nothing to compact: the whole branch fits in the keep window "
            f"(keep_recent_tokens={self.settings.keep_recent_tokens}); lower it to compact anyway"
        )


def plan_compaction(
    branch: Sequence[Entry],
    settings: CompactionSettings | None = None,
    *,
    fit_within: int | None = None,
    adjust_cut: CutAdjustment | None = None,
    summarizer: Summarizer | None = None,
    projection: Projection | None = None,
) -> CompactionPlan:
    """Decide a compaction of ``branch`` (root → leaf): the cut, the passes, the messages.

    ``summarizer`` is the one that will write the checkpoint (``None``: the embedded
    one); a full pass is planned only for a summarizer that can drift (:func:`drifts`).

    ``fit_within`` (the agent's threshold) halves the keep window while the kept part
    plus the checkpoint's allowance would still exceed it — a huge recent tool result must
    not leave the context over the threshold right after compacting.

    ``projection`` is ``build_projection(branch)`` when the caller holds it (a session's
    context at its leaf carries it: ``session.build_context().projection``).
    """
    settings = settings or CompactionSettings()
    if not branch or branch[-1].get("type") == "compaction":
        skipped = NoCompaction.ALREADY_COMPACTED if branch else NoCompaction.EMPTY
        return CompactionPlan(len(branch), settings, skipped=skipped)
    full_pass = drifts(summarizer) and wants_full_pass(branch, settings)
    if projection is None:  # one for every cut tried and the preparation
        projection = build_projection(branch)
    while True:
        bounds, projected_cut = plan_projected_cut(projection, settings)
        cut = to_branch_cut(projection, projected_cut)
        if adjust_cut is not None:
            cut = adjust_cut(branch, cut)
        preparation = prepare_compaction(
            branch, settings, full_pass=full_pass, cut=cut, projection=projection
        )
        plan = CompactionPlan(
            len(branch),
            settings,
            bounds=bounds,
            cut=cut,
            preparation=preparation,
            skipped=None if preparation else NoCompaction.FITS,
        )
        if preparation is None or fit_within is None or _fits(preparation, settings, fit_within):
            return plan
        smaller = settings.keep_recent_tokens // 2
        settings = replace(
            settings,
            keep_recent_tokens=smaller if smaller >= MIN_KEEP_TOKENS else 0,
            keep_recent_messages=None,
        )


def _fits(preparation: CompactionPreparation, settings: CompactionSettings, limit: int) -> bool:
    if settings.keep_recent_tokens <= 0:
        return True  # nothing left to shrink
    kept = sum(map(settings.token_counter.count, preparation.kept_messages))
    return kept + int(HISTORY_OUTPUT_SHARE * settings.reserve_tokens) <= limit


def store_compaction(session: Session, result: CompactionResult, *, from_hook: bool = False) -> str:
    """Append a compaction result as an entry (with the summary calls' usage, if any)."""
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


StaleCompaction = Literal["prepare-again", "error"]
"""What :func:`compact_session` does when another writer appended while it summarized."""

STALE_ATTEMPTS = 3
"""How many times a compaction is prepared again before the busy file wins."""


async def compact_session(
    session: Session,
    summarizer: Summarizer | None = None,
    settings: CompactionSettings | None = None,
    *,
    custom_instructions: str | None = None,
    wrapping: SummaryWrapping = DEFAULT_WRAPPING,
    guard: bool = True,
    dry_run: bool = False,
    on_stale: StaleCompaction = "prepare-again",
) -> tuple[CompactionResult, str | None]:
    """Compact the session's current branch; returns the result and the new entry's id.

    Raises :class:`CompactionError` when the branch already ends with a compaction, has
    nothing to summarize, or would not get smaller (a checkpoint larger than what it
    replaces). The entry is appended only after the summarizer succeeded, and not at all
    with ``dry_run`` (the id is then ``None``).

    A file session refuses to store the checkpoint if another process appended to the
    file meanwhile (:class:`~synopsis.errors.StaleSessionError`; their entries are then
    part of the session and its leaf is the newest): with ``on_stale="prepare-again"``
    the compaction is planned and summarized again on the new leaf, up to
    :data:`STALE_ATTEMPTS` times; with ``"error"`` the error is raised. A checkpoint is
    never stored on a stale parent.
    """
    attempt = 0
    while True:
        attempt += 1
        plan = plan_compaction(
            session.path(),
            settings,
            summarizer=summarizer,
            projection=session.build_context().projection,
        )
        result = await compact(
            plan.require(),
            summarizer,
            custom_instructions=custom_instructions,
            wrapping=wrapping,
            guard=guard,
        )
        if result.estimated_tokens_after >= result.tokens_before:
            raise CompactionError(
                f"Not compacted: the context would grow from {result.tokens_before} to about "
                f"{result.estimated_tokens_after} tokens (the checkpoint is larger than what "
                "it replaces); nothing was appended"
            )
        if dry_run:
            return result, None
        try:
            return result, store_compaction(session, result)
        except StaleSessionError:
            if on_stale == "error" or attempt >= STALE_ATTEMPTS:
                raise
