"""Compaction for the OpenAI Agents SDK: a ``Session`` that wraps any other one.

``CompactingSession(SQLiteSession("user-42", "chats.db"), context_window=32_000)`` is
passed to ``Runner.run(..., session=...)`` like the session it wraps. The Runner reads
the session once at the start of each run, so compaction happens there, between runs:
when the stored history is over the threshold (``context_window - reserve_tokens``),
``get_items()`` returns a checkpoint message followed by the recent items verbatim, and
never a ``function_call_output`` without its ``function_call``.

Nothing is deleted. Every item the Runner adds goes into the wrapped session unchanged;
the compaction is stored there too, as one more item: a ``developer`` message whose
text starts with :data:`RECORD_PREFIX` and holds, as JSON, the checkpoint, the working
state and the index of the first item kept. So a fresh wrapper over the same store
gives the same view, the next compaction continues from the stored state, and
:meth:`CompactingSession.full_history` gives back every item without the records.
``get_items(limit)`` returns the latest ``limit`` items verbatim (without records): the
SDK reads that tail to check its own writes. Read such a store through this wrapper: the
wrapped session alone would also return the record items.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from synopsis.integrations._compactor import (
    ChatCompactor,
    Checkpoint,
    missing_extra,
    resolve_counter,
    window_budget,
)
from synopsis.integrations._responses_items import read_items
from synopsis.summarizers.base import Summarizer
from synopsis.tokens import TokenCounter

try:
    from agents.items import TResponseInputItem
    from agents.memory import Session, SessionSettings
except ImportError as error:  # pragma: no cover - exercised without the extra
    raise ImportError(missing_extra("the OpenAI Agents SDK", "openai-agents")) from error

__all__ = ["RECORD_PREFIX", "CompactingSession"]

RECORD_PREFIX = "[synopsis compaction record: not conversation; read through CompactingSession]\n"


class CompactingSession:
    """A ``Session`` that compacts the history it returns (see the module docstring).

    ``keep_recent_tokens`` and ``reserve_tokens`` default to a quarter of the window each,
    at most Pi's 20,000 and 16,384. ``instructions_tokens`` counts what the agent sends
    besides the history (its instructions and tool schemas) toward the threshold.
    ``summarizer`` writes the checkpoint (default: the embedded one, no model call).
    ``token_counter`` counts every token figure: a :class:`synopsis.TokenCounter` or its
    name (default ``cjk``: characters / 4, a CJK character one token; ``tiktoken`` counts
    exactly with cl100k_base, ``chars4`` is Pi's estimate).
    """

    def __init__(
        self,
        session: Session,
        *,
        context_window: int,
        keep_recent_tokens: int | None = None,
        reserve_tokens: int | None = None,
        summarizer: Summarizer | None = None,
        instructions_tokens: int = 0,
        custom_instructions: str | None = None,
        token_counter: TokenCounter | str | None = None,
    ) -> None:
        self.session = session
        self.session_id = session.session_id
        self.compactor = ChatCompactor(
            window_budget(
                context_window,
                keep_recent_tokens=keep_recent_tokens,
                reserve_tokens=reserve_tokens,
            ),
            summarizer,
            "openai",
            custom_instructions=custom_instructions,
            token_counter=resolve_counter(token_counter),
        )
        self.instructions_tokens = instructions_tokens

    @property
    def session_settings(self) -> SessionSettings | None:
        """The wrapped session's settings (a ``limit`` there makes the Runner read only
        that many recent items, verbatim, and so turns compaction off)."""
        return getattr(self.session, "session_settings", None)

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        items, record = _split(await self.session.get_items())
        if limit is not None:
            return items[-limit:] if limit > 0 else []
        start, checkpoint = 0, None
        if record is not None:
            start, checkpoint = record
        recent = items[start:]
        read = read_items(recent)
        compacted = await self.compactor.compact(
            read.chat, checkpoint, extra_tokens=self.instructions_tokens
        )
        if compacted is not None:
            checkpoint = compacted.checkpoint
            start += read.item_index(compacted.kept_from, len(recent))
            await self.session.add_items([_record_item(start, checkpoint)])
        if checkpoint is None:
            return items
        head: TResponseInputItem = {"role": "user", "content": checkpoint.text()}
        return [head, *items[start:]]

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        await self.session.add_items(items)

    async def pop_item(self) -> TResponseInputItem | None:
        """Remove and return the latest conversation item (records are not items).

        A record that sat after it is put back while the items it kept from remain.
        """
        records: list[TResponseInputItem] = []
        while True:
            item = await self.session.pop_item()
            if item is None or _record_of(item) is None:
                break
            records.append(item)
        if records:
            remaining, _ = _split(await self.session.get_items())
            latest = _record_of(records[0])
            if latest is not None and latest[0] <= len(remaining):
                await self.session.add_items([records[0]])
        return item

    async def clear_session(self) -> None:
        await self.session.clear_session()

    async def full_history(self) -> list[TResponseInputItem]:
        """Every item ever added (and not popped), without the compaction records."""
        items, _ = _split(await self.session.get_items())
        return items


def _record_item(first_kept: int, checkpoint: Checkpoint) -> TResponseInputItem:
    record = {"first_kept": first_kept, "checkpoint": checkpoint.to_json()}
    return {"role": "developer", "content": RECORD_PREFIX + json.dumps(record)}


def _record_of(item: Any) -> tuple[int, Checkpoint] | None:
    if not isinstance(item, Mapping) or item.get("role") != "developer":
        return None
    content = item.get("content")
    if not isinstance(content, str) or not content.startswith(RECORD_PREFIX):
        return None
    try:
        data = json.loads(content[len(RECORD_PREFIX) :])
    except json.JSONDecodeError:
        return None
    first_kept = data.get("first_kept") if isinstance(data, dict) else None
    checkpoint = Checkpoint.from_json(data.get("checkpoint")) if isinstance(data, dict) else None
    if not isinstance(first_kept, int) or first_kept < 0 or checkpoint is None:
        return None
    return first_kept, checkpoint


def _split(
    raw: Sequence[TResponseInputItem],
) -> tuple[list[TResponseInputItem], tuple[int, Checkpoint] | None]:
    """The conversation items, and the latest record that still fits them."""
    items: list[TResponseInputItem] = []
    latest: tuple[int, Checkpoint] | None = None
    for item in raw:
        record = _record_of(item)
        if record is None:
            items.append(item)
        elif record[0] <= len(items):
            latest = record
    return items, latest
