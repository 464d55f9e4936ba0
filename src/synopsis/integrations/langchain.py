"""Compaction for LangChain v1 agents: ``create_agent(..., middleware=[SynopsisMiddleware(...)])``.

Before each model call over the threshold (``context_window - reserve_tokens``) the
model receives the system prompt, a checkpoint in place of the older messages, and the
recent messages verbatim; tool calls and their results are never separated.

Why ``wrap_model_call`` rather than ``before_model``: LangChain's own
``SummarizationMiddleware`` uses ``before_model`` and returns
``RemoveMessage(id=REMOVE_ALL_MESSAGES)``, which deletes the older messages from the
agent state — and with it from every checkpointer and from what ``invoke`` returns.
Here the agent state keeps the whole conversation (nothing is deleted, the full history
stays in ``state["messages"]``); only the request to the model is rewritten, with
``handler(request.override(messages=…))``. What must survive between model calls —
the checkpoint text, the working state as data and the id of the first message kept —
is written to the agent state under the ``synopsis`` key (this middleware's
``state_schema``), through the ``Command`` of an ``ExtendedModelResponse``. It is
JSON, so checkpointers store it, and it is part of ``invoke``'s output, so an
application without a checkpointer can pass it back with the messages. The next call
compacts only what came after the checkpoint, updating the summary and the state
instead of summarizing everything again.

Both the sync and the async hooks are implemented, so ``invoke`` and ``ainvoke`` work.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, NotRequired

from synopsis.integrations._compactor import (
    ChatCompactor,
    Checkpoint,
    Compacted,
    latest_usage,
    missing_extra,
    resolve_counter,
    window_budget,
)
from synopsis.summarizers.base import Summarizer
from synopsis.tokens import TokenCounter

try:
    from langchain.agents.middleware import (
        AgentMiddleware,
        AgentState,
        ExtendedModelResponse,
        ModelRequest,
        ModelResponse,
    )
    from langchain_core.messages import (
        AIMessage,
        AnyMessage,
        BaseMessage,
        HumanMessage,
        SystemMessage,
        ToolMessage,
    )
    from langgraph.types import Command
except ImportError as error:  # pragma: no cover - exercised without the extra
    raise ImportError(missing_extra("LangChain v1", "langchain")) from error

__all__ = ["STATE_KEY", "SynopsisMiddleware", "SynopsisState"]

STATE_KEY = "synopsis"
"""The agent-state key holding ``{"checkpoint": …, "first_kept_id": …, "compactions": n}``."""

CHECKPOINT_SOURCE = "synopsis"
"""``additional_kwargs["lc_source"]`` of the checkpoint message the model receives."""


class SynopsisState(AgentState[Any]):
    """The agent state with the compaction record this middleware carries between calls."""

    synopsis: NotRequired[dict[str, Any] | None]


ModelResult = ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]


class SynopsisMiddleware(AgentMiddleware[SynopsisState, Any, Any]):
    """Keeps a LangChain agent inside ``context_window`` (see the module docstring).

    ``keep_recent_tokens`` and ``reserve_tokens`` default to a quarter of the window each,
    at most Pi's 20,000 and 16,384. The system prompt counts toward the threshold;
    ``instructions_tokens`` adds what else the agent sends (tool schemas). ``summarizer``
    writes the checkpoint (default: the embedded summarizer, no model call); any
    :class:`synopsis.Summarizer` works.
    ``token_counter`` counts every token figure: a :class:`synopsis.TokenCounter` or its
    name (default ``cjk``: characters / 4, a CJK character one token; ``tiktoken`` counts
    exactly with cl100k_base, ``chars4`` is Pi's estimate).
    Where the latest response reports its usage, the context is at least that usage plus
    the messages after it (as Pi counts), which includes what no estimate sees.
    """

    state_schema = SynopsisState

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
        super().__init__()
        self.instructions_tokens = instructions_tokens
        budget = window_budget(
            context_window, keep_recent_tokens=keep_recent_tokens, reserve_tokens=reserve_tokens
        )
        self.compactor = ChatCompactor(
            budget,
            summarizer,
            "openai",
            custom_instructions=custom_instructions,
            token_counter=resolve_counter(token_counter),
        )

    @property
    def name(self) -> str:
        return "SynopsisMiddleware"

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResult:
        view = _View.of(request, self.compactor.text_tokens)
        compacted = self.compactor.compact_sync(
            view.chat,
            view.checkpoint,
            extra_tokens=view.system_tokens + self.instructions_tokens,
            reported=view.reported,
        )
        new_request, update = view.apply(request, compacted)
        return _with_update(handler(new_request), update)

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResult:
        view = _View.of(request, self.compactor.text_tokens)
        compacted = await self.compactor.compact(
            view.chat,
            view.checkpoint,
            extra_tokens=view.system_tokens + self.instructions_tokens,
            reported=view.reported,
        )
        new_request, update = view.apply(request, compacted)
        response = await handler(new_request)
        return _with_update(response, update)


class _View:
    """The messages since the stored checkpoint, as LangChain objects and as chat dicts."""

    def __init__(
        self,
        pinned: list[AnyMessage],
        checkpoint: Checkpoint | None,
        messages: list[AnyMessage],
        record: dict[str, Any] | None,
        system_tokens: int,
    ) -> None:
        self.pinned = pinned
        self.checkpoint = checkpoint
        self.messages = messages
        self.record = record
        self.system_tokens = system_tokens
        self.chat = [_chat_dict(m) for m in messages]
        self.reported = latest_usage(messages, _reported_tokens)

    @classmethod
    def of(cls, request: ModelRequest[Any], text_tokens: Callable[[str], int]) -> _View:
        messages = list(request.messages)
        pinned: list[AnyMessage] = []
        while messages and isinstance(messages[0], SystemMessage):
            pinned.append(messages.pop(0))
        system_text = request.system_message.text if request.system_message else ""
        system_tokens = text_tokens(system_text) + sum(text_tokens(m.text) for m in pinned)
        stored = request.state.get(STATE_KEY) if isinstance(request.state, dict) else None
        record = stored if isinstance(stored, dict) else None
        checkpoint = None
        if record is not None:
            start = _index_of(messages, record.get("first_kept_id"))
            checkpoint = Checkpoint.from_json(record.get("checkpoint"))
            if start is None or checkpoint is None:
                # The history no longer holds the message the checkpoint kept from
                # (edited or replaced): compact it afresh rather than guess.
                checkpoint, record = None, None
            else:
                messages = messages[start:]
        return cls(pinned, checkpoint, messages, record, system_tokens)

    def apply(
        self, request: ModelRequest[Any], compacted: Compacted | None
    ) -> tuple[ModelRequest[Any], dict[str, Any] | None]:
        """The request the model receives, and the state update to store (if any)."""
        checkpoint, kept, update = self.checkpoint, self.messages, None
        if compacted is not None:
            checkpoint = compacted.checkpoint
            kept = self.messages[compacted.kept_from :]
            count = int((self.record or {}).get("compactions", 0)) + 1
            first = kept[0].id if kept else None
            update = {
                "checkpoint": checkpoint.to_json(),
                "first_kept_id": first,
                "compactions": count,
                "tokens_before": compacted.tokens_before,
                "tokens_after": compacted.tokens_after,
            }
            if first is None:
                update = None  # nothing to anchor the next view on: compact again next time
        if checkpoint is None:
            return request, update
        head = HumanMessage(
            content=checkpoint.text(), additional_kwargs={"lc_source": CHECKPOINT_SOURCE}
        )
        return request.override(messages=[*self.pinned, head, *kept]), update


def _reported_tokens(message: BaseMessage) -> int | None:
    """Input + output tokens the provider reported for an AI message (a compaction happens
    right before a model call, so the latest report answered the context as it stands)."""
    usage = message.usage_metadata if isinstance(message, AIMessage) else None
    if not usage:
        return None
    return int(usage.get("total_tokens") or usage["input_tokens"] + usage["output_tokens"])


def _with_update(response: ModelResponse[Any] | AIMessage, update: Any) -> ModelResult:
    if update is None:
        return response
    if isinstance(response, AIMessage):
        response = ModelResponse(result=[response])
    return ExtendedModelResponse(
        model_response=response, command=Command(update={STATE_KEY: update})
    )


def _index_of(messages: Sequence[BaseMessage], message_id: Any) -> int | None:
    if not isinstance(message_id, str):
        return None
    for index, message in enumerate(messages):
        if message.id == message_id:
            return index
    return None


def _chat_dict(message: BaseMessage) -> dict[str, Any]:
    """One LangChain message as one OpenAI-format chat dict (what the cut rules read)."""
    text = message.text
    if isinstance(message, AIMessage):
        calls = [
            {
                "id": call.get("id") or "",
                "type": "function",
                "function": {"name": call["name"], "arguments": call.get("args") or {}},
            }
            for call in message.tool_calls
        ]
        return {"role": "assistant", "content": text, "tool_calls": calls}
    if isinstance(message, ToolMessage):
        return {
            "role": "tool",
            "tool_call_id": message.tool_call_id,
            "name": message.name or "",
            "content": text,
        }
    return {"role": "user", "content": text}
