"""Compaction for pydantic-ai 2.x agents, as a history processor.

``Agent(model, capabilities=[ProcessHistory(SynopsisHistoryProcessor(context_window=…))])``
runs the processor before each model request. Over the threshold
(``context_window - reserve_tokens``) it returns a new history: one ``ModelRequest``
holding the ``SystemPromptPart``s of the replaced messages and a ``CompactionPart`` with
the checkpoint, then the recent messages, the very same objects, untouched. A tool
return is never kept without the call it answers: the cut moves past any request that
carries returns of calls it summarized (pydantic-ai is not relied on to repair orphans).

pydantic-ai stores the processor's result as the run's history, so the processor keeps
everything it replaces: the ``CompactionPart``'s ``metadata`` (which pydantic-ai never
sends to a model) holds the checkpoint, the working state as data and the replaced
messages in pydantic-ai's own JSON form. The next compaction continues from that state
rather than from the summary text, and :func:`full_history` expands any history back to
every message it ever held. Messages are never changed in place: new ones are built.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synopsis.integrations._compactor import (
    ChatCompactor,
    Checkpoint,
    latest_usage,
    missing_extra,
    resolve_counter,
    window_budget,
)
from synopsis.summarizers.base import Summarizer
from synopsis.tokens import TokenCounter

try:
    from pydantic_ai.messages import (
        BaseToolCallPart,
        CompactionPart,
        ModelMessage,
        ModelMessagesTypeAdapter,
        ModelRequest,
        ModelResponse,
        SystemPromptPart,
        TextPart,
        ThinkingPart,
        UserPromptPart,
    )
except ImportError as error:  # pragma: no cover - exercised without the extra
    raise ImportError(missing_extra("pydantic-ai", "pydantic-ai")) from error

__all__ = ["METADATA_KEY", "SynopsisHistoryProcessor", "full_history"]

METADATA_KEY = "synopsis"
"""Key of the ``CompactionPart.metadata`` entry: ``{"checkpoint": …, "replaced": […]}``."""


class SynopsisHistoryProcessor:
    """A pydantic-ai history processor that compacts (see the module docstring).

    ``keep_recent_tokens`` and ``reserve_tokens`` default to a quarter of the window each,
    at most Pi's 20,000 and 16,384; ``instructions_tokens`` counts what the agent sends
    besides the history (instructions, tool schemas) toward the threshold. ``summarizer``
    writes the checkpoint (default: the embedded one, no model call).
    ``token_counter`` counts every token figure: a :class:`synopsis.TokenCounter` or its
    name (default ``cjk``: characters / 4, a CJK character one token; ``tiktoken`` counts
    exactly with cl100k_base, ``chars4`` is Pi's estimate).
    Where the latest response reports its usage, the context is at least that usage plus
    the messages after it (as Pi counts), which includes what no estimate sees.

    Calling it is asynchronous: pydantic-ai awaits it on its own event loop, so a model
    summarizer's HTTP calls need no thread.
    """

    def __init__(
        self,
        *,
        context_window: int,
        keep_recent_tokens: int | None = None,
        reserve_tokens: int | None = None,
        summarizer: Summarizer | None = None,
        instructions_tokens: int = 0,
        custom_instructions: str | None = None,
        token_counter: TokenCounter | str | None = None,
    ) -> None:
        budget = window_budget(
            context_window, keep_recent_tokens=keep_recent_tokens, reserve_tokens=reserve_tokens
        )
        self.compactor = ChatCompactor(
            budget,
            summarizer,
            "anthropic",
            custom_instructions=custom_instructions,
            token_counter=resolve_counter(token_counter),
        )
        self.instructions_tokens = instructions_tokens

    async def __call__(self, messages: list[ModelMessage]) -> list[ModelMessage]:
        start, checkpoint = _last_checkpoint(messages)
        previous = messages[start - 1] if checkpoint is not None else None
        recent = messages[start:]
        pinned = _system_parts(previous) if previous is not None else []
        system = [*pinned, *(p for m in recent for p in _system_parts(m))]
        extra = self.instructions_tokens + sum(
            self.compactor.text_tokens(p.content) for p in system
        )
        compacted = await self.compactor.compact(
            [_chat_dict(m) for m in recent],
            checkpoint,
            extra_tokens=extra,
            reported=latest_usage(recent, _reported_tokens),
        )
        if compacted is None:
            return messages
        summarized = recent[: compacted.kept_from]
        # The previous checkpoint request holds what it replaced itself, so the chain of
        # checkpoints keeps every message exactly once.
        replaced = [*([previous] if previous is not None else []), *summarized]
        pinned = _unique([*pinned, *(p for m in summarized for p in _system_parts(m))])
        head = _checkpoint_request(compacted.checkpoint, pinned, replaced)
        before = messages[: start - 1] if previous is not None else []
        return [*before, head, *recent[compacted.kept_from :]]


def full_history(messages: Sequence[ModelMessage]) -> list[ModelMessage]:
    """Every message a compacted history replaced, in order, and the ones after it."""
    out: list[ModelMessage] = []
    for message in messages:
        record = _record(message)
        if record is None:
            out.append(message)
            continue
        replaced = ModelMessagesTypeAdapter.validate_python(record.get("replaced") or [])
        out.extend(full_history(replaced))
    return out


def _checkpoint_request(
    checkpoint: Checkpoint, system: list[SystemPromptPart], replaced: list[ModelMessage]
) -> ModelRequest:
    record = {
        "checkpoint": checkpoint.to_json(),
        "replaced": ModelMessagesTypeAdapter.dump_python(replaced, mode="json"),
    }
    part = CompactionPart(content=checkpoint.summary, metadata={METADATA_KEY: record})
    return ModelRequest(parts=[*system, part])


def _reported_tokens(message: ModelMessage) -> int | None:
    """Input + output tokens reported for a response (the processor runs right before each
    model request, so the latest report answered the context as it stands)."""
    if not isinstance(message, ModelResponse) or not message.usage.input_tokens:
        return None
    return message.usage.input_tokens + message.usage.output_tokens


def _record(message: ModelMessage) -> dict[str, Any] | None:
    if not isinstance(message, ModelRequest):
        return None
    for part in message.parts:
        if isinstance(part, CompactionPart) and isinstance(part.metadata, dict):
            record = part.metadata.get(METADATA_KEY)
            if isinstance(record, dict):
                return record
    return None


def _last_checkpoint(messages: Sequence[ModelMessage]) -> tuple[int, Checkpoint | None]:
    """Where the messages after our latest checkpoint request start, and that checkpoint."""
    for index in range(len(messages) - 1, -1, -1):
        record = _record(messages[index])
        checkpoint = Checkpoint.from_json(record.get("checkpoint")) if record else None
        if checkpoint is not None:
            return index + 1, checkpoint
    return 0, None


def _system_parts(message: ModelMessage) -> list[SystemPromptPart]:
    if not isinstance(message, ModelRequest):
        return []
    return [p for p in message.parts if isinstance(p, SystemPromptPart)]


def _unique(parts: list[SystemPromptPart]) -> list[SystemPromptPart]:
    seen: set[str] = set()
    out: list[SystemPromptPart] = []
    for part in parts:
        if part.content not in seen:
            seen.add(part.content)
            out.append(part)
    return out


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        return "\n".join(item for item in content if isinstance(item, str))
    return ""


def _result_text(part: Any) -> str:
    for method in ("model_response_str", "model_response"):
        render = getattr(part, method, None)
        if callable(render):
            return str(render())
    return _text(getattr(part, "content", ""))


def _chat_dict(message: ModelMessage) -> dict[str, Any]:
    """One pydantic-ai message as one Anthropic-format chat dict (what the cut rules read).

    Anthropic's format fits one to one: a request's tool returns and user text share one
    user message, as a response's text and tool calls share one assistant message.
    """
    blocks: list[dict[str, Any]] = []
    if isinstance(message, ModelResponse):
        for part in message.parts:
            if isinstance(part, BaseToolCallPart):
                blocks.append(
                    {
                        "type": "tool_use",
                        "id": part.tool_call_id,
                        "name": part.tool_name,
                        "input": part.args_as_dict(),
                    }
                )
            elif isinstance(part, TextPart):
                blocks.append({"type": "text", "text": part.content})
            elif isinstance(part, ThinkingPart):
                blocks.append({"type": "thinking", "thinking": part.content})
        return {"role": "assistant", "content": blocks}
    for request_part in message.parts:
        if isinstance(request_part, SystemPromptPart):
            continue  # kept aside, never summarized away
        if isinstance(request_part, UserPromptPart):
            blocks.append({"type": "text", "text": _text(request_part.content)})
        elif isinstance(request_part, CompactionPart):
            blocks.append({"type": "text", "text": request_part.content or ""})
        elif getattr(request_part, "tool_name", None) and getattr(
            request_part, "tool_call_id", None
        ):
            blocks.append(
                {
                    "type": "tool_result",
                    "tool_use_id": getattr(request_part, "tool_call_id", ""),
                    "content": _result_text(request_part),
                }
            )
        elif hasattr(request_part, "content"):
            blocks.append({"type": "text", "text": _result_text(request_part)})
    return {"role": "user", "content": blocks}
