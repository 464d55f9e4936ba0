"""Compaction for applications that keep a plain list of chat messages.

Not every application stores Pi session files. :func:`compact_messages` applies the same
cut rules to an OpenAI- or Anthropic-format message list and returns the list to send
next: the leading system messages, a checkpoint message, then the recent messages kept
untouched. Calling it again on its own output, with the summary it returned, is how a
long-lived application compacts again and again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from synopsis._sync import run_sync
from synopsis.compaction.chat_format import (
    ChatFormat,
    ChatFormatError,
    ReadMessage,
    checkpoint_message,
    read_chat_messages,
)
from synopsis.compaction.compact import FRAMING_SHARE, CompactionResult, compact
from synopsis.compaction.cut_points import CutPoint
from synopsis.compaction.orchestrate import CompactionPlan, CutAdjustment, plan_compaction
from synopsis.compaction.prepare import CompactionPreparation
from synopsis.compaction.settings import CompactionSettings
from synopsis.messages import DEFAULT_WRAPPING, SummaryWrapping
from synopsis.session.entries import Entry
from synopsis.state.model import WorkingState
from synopsis.summarizers.base import Summarizer, SummaryUsage
from synopsis.token_counters import as_counter
from synopsis.tokens import PI_ESTIMATE, TokenCounter, text_tokens


@dataclass(slots=True)
class CompactedMessages:
    summary: str | None
    """The checkpoint text (``None`` when nothing needed compacting and none was given)."""
    kept: list[Any]
    """The original messages kept verbatim, in order."""
    messages: list[Any]
    """Ready to send: leading system messages + checkpoint message + kept messages."""
    compacted: bool
    tokens_before: int
    tokens_after: int
    usage: SummaryUsage = field(default_factory=SummaryUsage)
    state: WorkingState | None = None
    """The working state behind ``summary``: pass it back as ``previous_state`` (with
    ``previous_summary``) next time, so the next round starts from data, not from text."""


def _split_system(messages: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    lead = 0
    while (
        lead < len(messages)
        and isinstance(messages[lead], dict)
        and messages[lead].get("role") in ("system", "developer")
    ):
        lead += 1
    return list(messages[:lead]), list(messages[lead:])


def _is_checkpoint(message: Any, text: str) -> bool:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list) and len(content) == 1 and isinstance(content[0], dict):
        content = content[0].get("text")
    return message.get("role") in ("user", "system") and content == text


def _keep_chat_messages_whole(read: Sequence[ReadMessage], offset: int) -> CutAdjustment:
    """A cut adjustment that never keeps part of a chat message that carries tool results.

    An Anthropic user turn can hold tool results and new text together; keeping its text
    would keep results whose calls were summarized, so the cut moves past it and the turn
    it belongs to becomes a split turn. ``offset`` is the branch position of ``read[0]``.
    """
    sources = {r.source_index for r in read if r.message.get("role") == "toolResult"}
    inside = {i + offset for i, r in enumerate(read) if r.source_index in sources}

    def adjust(entries: Sequence[Entry], cut: CutPoint) -> CutPoint:
        first_kept = cut.first_kept_index
        while first_kept in inside:
            first_kept += 1
        if first_kept == cut.first_kept_index:
            return cut
        turn_start = cut.turn_start_index if cut.is_split_turn else cut.first_kept_index
        return CutPoint(first_kept, turn_start, True)

    return adjust


async def compact_messages(
    messages: Sequence[Any],
    *,
    summarizer: Summarizer | None = None,
    keep_recent_tokens: int = 20000,
    summary_max_tokens: int | None = None,
    max_context_tokens: int | None = None,
    previous_summary: str | None = None,
    previous_state: WorkingState | None = None,
    format: ChatFormat = "openai",
    custom_instructions: str | None = None,
    wrapping: SummaryWrapping = DEFAULT_WRAPPING,
    checkpoint_role: Literal["user", "system"] | None = None,
    token_counter: TokenCounter | str = PI_ESTIMATE,
) -> CompactedMessages:
    """Compact a chat message list (see the module docstring).

    ``previous_summary`` and ``previous_state`` are what the previous call returned
    (``summary`` and ``state``): the old checkpoint message is recognised and replaced,
    and the working state carries every rule and value of earlier rounds forward.
    The checkpoint goes in a system message right after the leading system messages with
    the OpenAI format (background the model reads as such, not a new request of the user)
    and in a user message with Anthropic's (whose system prompt is not a message);
    ``checkpoint_role`` overrides that (``"system"`` is refused for Anthropic).

    ``summary_max_tokens`` caps the checkpoint message as sent (its wrapper included);
    ``max_context_tokens`` caps the whole returned list: the checkpoint then gets what the
    system messages and the kept messages leave (the kept part may exceed
    ``keep_recent_tokens``, since a cut never splits a message).

    Every token figure (the kept part, both caps, ``tokens_before`` and ``tokens_after``)
    is counted by ``token_counter``: a :class:`synopsis.TokenCounter` or its name, such as
    ``chars4`` (Pi's characters / 4, the default), ``cjk`` or ``tiktoken[:ENCODING]``.
    """
    counter = as_counter(token_counter)
    if checkpoint_role is None:
        checkpoint_role = "user" if format == "anthropic" else "system"
    if checkpoint_role == "system" and format == "anthropic":
        raise ChatFormatError(
            "Anthropic messages have no system role: keep checkpoint_role='user', or put "
            "the returned summary into the system parameter yourself"
        )
    system, rest = _split_system(messages)
    held = wrapping  # how the checkpoint given back was worded (either form)
    if previous_summary:  # our own earlier checkpoint is not conversation to summarize
        forms = {f.wrap_compaction(previous_summary): f for f in (wrapping.tight(), wrapping)}

        def old(message: Any) -> SummaryWrapping | None:
            return next((f for text, f in forms.items() if _is_checkpoint(message, text)), None)

        held = next(filter(None, map(old, [*system, *rest[:1]])), wrapping)
        system = [message for message in system if old(message) is None]
        if rest and old(rest[0]) is not None:
            rest = rest[1:]
    read = read_chat_messages(rest, format)
    tokens_before = sum(counter.count(r.message) for r in read)
    offset = 1 if previous_summary else 0
    entries = _as_entries(read, previous_summary)
    system_tokens = sum(text_tokens(counter, _content_text(m)) for m in system)
    keep = keep_recent_tokens
    share = summary_max_tokens if summary_max_tokens is not None else max_context_tokens

    def no_room(preparation: CompactionPreparation | None) -> bool:
        """Whether the cap leaves the checkpoint less than half its share (or, with nothing
        to compact, whether the context is over the cap)."""
        assert max_context_tokens is not None and share is not None
        if preparation is None:
            summary = text_tokens(counter, held.wrap_compaction(previous_summary or ""))
            return system_tokens + summary + tokens_before > max_context_tokens
        around = system_tokens + sum(map(counter.count, preparation.kept_messages))
        cap = _message_cap(summary_max_tokens, max_context_tokens, around)
        wrapper = text_tokens(counter, _wording_within(wrapping, cap, counter).wrap_compaction(""))
        return max_context_tokens - around - wrapper < share // 2

    while True:
        plan = plan_compaction(
            entries,
            CompactionSettings(keep_recent_tokens=keep, token_counter=counter),
            adjust_cut=_keep_chat_messages_whole(read, offset),
            summarizer=summarizer,
        )
        if max_context_tokens is None or keep <= 0:
            break
        # Under a context cap the kept part gives way (as the agent's keep window does
        # before its threshold) when it would leave the checkpoint less than half its cap,
        # or when nothing would be compacted although the context is over the cap.
        if not no_room(plan.preparation):
            break
        keep = keep // 2 if keep // 2 >= MIN_KEEP_CHAT_TOKENS else 0

    def keeping_nothing() -> CompactionPlan:
        """The plan that summarizes every message: a one-space last message is where the
        cut then falls (the checkpoint states the last request as the open one)."""
        blank = {"role": "user", "content": " ", "timestamp": 0}
        end = {"type": "message", "id": "end", "parentId": None, "message": blank}
        return plan_compaction(
            [*entries, end],
            CompactionSettings(keep_recent_tokens=0, token_counter=counter),
            adjust_cut=_keep_chat_messages_whole(read, offset),
            summarizer=summarizer,
        )

    def reply(summary: str | None, kept_from: int, worded: SummaryWrapping) -> list[Any]:
        if not summary:
            return system + rest[kept_from:]
        head = checkpoint_message(worded.wrap_compaction(summary), format, checkpoint_role)
        return [*system, head, *rest[kept_from:]]

    preparation = plan.preparation
    if preparation is None:
        return CompactedMessages(
            summary=previous_summary,
            kept=rest,
            messages=reply(previous_summary, 0, held),
            compacted=False,
            tokens_before=tokens_before,
            tokens_after=tokens_before,
            state=previous_state,
        )

    async def checkpoint(
        preparation: CompactionPreparation,
    ) -> tuple[CompactionResult, int, SummaryWrapping]:
        """The checkpoint of ``preparation``, the context it leaves (counter tokens) and
        the wording of its message."""
        kept = system_tokens + sum(map(counter.count, preparation.kept_messages))
        worded = _wording_within(
            wrapping, _message_cap(summary_max_tokens, max_context_tokens, kept), counter
        )
        wrapper = text_tokens(counter, worded.wrap_compaction(""))
        cap = _checkpoint_cap(summary_max_tokens, max_context_tokens, wrapper=wrapper, around=kept)

        async def within(chars4_cap: int | None) -> CompactionResult:
            return await compact(
                preparation,
                summarizer,
                custom_instructions=custom_instructions,
                wrapping=wrapping,
                summary_max_tokens=chars4_cap,
                previous_state=previous_state,
            )

        summarized = [*preparation.messages_to_summarize, *preparation.turn_prefix_messages]
        result = await within(_chars4_cap(cap, counter, summarized))
        used = text_tokens(counter, worded.wrap_compaction(result.summary))
        if cap is not None and counter is not PI_ESTIMATE and used - wrapper > cap:
            # compact() caps in characters / 4; the checkpoint may count more per character
            # than the transcript it came from (another script mix): shrink it once more
            chars4 = -(-len(result.summary) // 4)
            scaled = chars4 * cap // (used - wrapper) - 1
            result = await within(max(MIN_CHECKPOINT_TOKENS, scaled))
            used = text_tokens(counter, worded.wrap_compaction(result.summary))
        return result, kept + used, worded

    result, context, worded = await checkpoint(preparation)
    over = max_context_tokens is not None and context > max_context_tokens
    if over and preparation.first_kept_index - offset < len(read):
        # The kept part leaves the checkpoint less room than what it cannot give up (a
        # rule never goes), or the last message alone passes the cap: the kept messages
        # are summarized too rather than the returned list passing the cap.
        fallback = keeping_nothing().preparation
        if fallback is not None:
            preparation = fallback
            result, context, worded = await checkpoint(preparation)
    first_kept = preparation.first_kept_index - offset
    kept_from = read[first_kept].source_index if first_kept < len(read) else len(rest)
    return CompactedMessages(
        summary=result.summary,
        kept=rest[kept_from:],
        messages=reply(result.summary, kept_from, worded),
        compacted=True,
        tokens_before=tokens_before,
        tokens_after=context - system_tokens,
        usage=result.usage,
        state=result.state,
    )


MIN_KEEP_CHAT_TOKENS = 16
"""Below this a keep window that gives way to a context cap becomes 0 (keep nothing)."""

MIN_CHECKPOINT_TOKENS = 16
"""The smallest cap a checkpoint is given, however full the rest of the context is."""


def _message_cap(
    summary_max_tokens: int | None, max_context_tokens: int | None, around: int
) -> int | None:
    """The cap of the checkpoint message: within ``summary_max_tokens`` and, with the rest
    of the context (``around`` = system + kept messages), within ``max_context_tokens``."""
    caps = [c for c in (summary_max_tokens, _minus(max_context_tokens, around)) if c is not None]
    return min(caps) if caps else None


def _checkpoint_cap(
    summary_max_tokens: int | None, max_context_tokens: int | None, *, wrapper: int, around: int
) -> int | None:
    """The cap of the checkpoint text: what its message's cap leaves after the wrapper."""
    cap = _message_cap(summary_max_tokens, max_context_tokens, around)
    return None if cap is None else max(MIN_CHECKPOINT_TOKENS, cap - wrapper)


def _wording_within(
    wrapping: SummaryWrapping, cap: int | None, counter: TokenCounter
) -> SummaryWrapping:
    """``wrapping``, or its tight form (the tags alone) when its wording would take more
    than 1/FRAMING_SHARE of ``cap``: the sentence that explains the checkpoint never costs
    the lines it explains."""
    if cap is None or text_tokens(counter, wrapping.wrap_compaction("")) * FRAMING_SHARE <= cap:
        return wrapping
    return wrapping.tight()


def _chars4_cap(cap: int | None, counter: TokenCounter, summarized: Sequence[Any]) -> int | None:
    """``cap`` (counted by ``counter``) in Pi's characters / 4, the unit compact() caps in,
    converted at the ratio the summarized messages show between the two counts."""
    if cap is None or counter is PI_ESTIMATE:
        return cap
    counted = sum(map(counter.count, summarized))
    chars4 = sum(map(PI_ESTIMATE.count, summarized))
    if counted <= 0 or chars4 <= 0:
        return cap
    return max(MIN_CHECKPOINT_TOKENS, cap * chars4 // counted)


def _minus(total: int | None, used: int) -> int | None:
    return None if total is None else total - used


def _content_text(message: Any) -> str:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def _as_entries(read: Sequence[ReadMessage], previous_summary: str | None) -> list[Entry]:
    """The chat list as a branch of session entries, so the session's rules apply to it.

    A previous checkpoint becomes a compaction entry that keeps everything after it: the
    next cut then merges its summary the way a session file's second compaction does.
    """
    entries: list[Entry] = []
    if previous_summary:
        entries.append(
            {
                "type": "compaction",
                "id": "checkpoint",
                "parentId": None,
                "summary": previous_summary,
                "firstKeptEntryId": "0",
                "tokensBefore": 0,
            }
        )
    for index, item in enumerate(read):
        entries.append(
            {"type": "message", "id": str(index), "parentId": None, "message": item.message}
        )
    return entries


def compact_messages_sync(
    messages: Sequence[Any],
    *,
    summarizer: Summarizer | None = None,
    keep_recent_tokens: int = 20000,
    summary_max_tokens: int | None = None,
    max_context_tokens: int | None = None,
    previous_summary: str | None = None,
    previous_state: WorkingState | None = None,
    format: ChatFormat = "openai",
    custom_instructions: str | None = None,
    wrapping: SummaryWrapping = DEFAULT_WRAPPING,
    checkpoint_role: Literal["user", "system"] | None = None,
    token_counter: TokenCounter | str = PI_ESTIMATE,
) -> CompactedMessages:
    """:func:`compact_messages` for code that is not async.

    Inside a running event loop (Jupyter, an async web framework) the coroutine runs to
    completion in a worker thread with a loop of its own, so the call still just returns.
    """
    coroutine = compact_messages(
        messages,
        summarizer=summarizer,
        keep_recent_tokens=keep_recent_tokens,
        summary_max_tokens=summary_max_tokens,
        max_context_tokens=max_context_tokens,
        previous_summary=previous_summary,
        previous_state=previous_state,
        format=format,
        custom_instructions=custom_instructions,
        wrapping=wrapping,
        checkpoint_role=checkpoint_role,
        token_counter=token_counter,
    )
    return run_sync(coroutine)
