"""The agent loop: call the model, run tools, persist every message, compact in time.

:class:`AgentSession` drives a :class:`~synopsis.session.Session` with a
:class:`~synopsis.providers.base.ChatModel` and a set of tools. Compaction is checked before
every prompt, between turns inside a long tool loop, and after every run, so one long
run cannot grow past the window. A provider's "prompt too long" reply triggers one
compact-and-retry; a second one ends the run with a clear error.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from synopsis.agent.branching import abandoned_entries, summarize_branch
from synopsis.agent.events import (
    AgentEnd,
    AgentError,
    AgentEvent,
    BeforeCompact,
    BeforeCompactHook,
    BranchSummarized,
    CancelCompaction,
    CompactionEnd,
    CompactionReason,
    CompactionStart,
    HookError,
    Listener,
    MessageEnd,
)
from synopsis.agent.fitting import fit_tool_results, fixed_request_tokens
from synopsis.agent.tools import Tool
from synopsis.compaction.compact import CompactionResult, compact, default_summarizer
from synopsis.compaction.orchestrate import STALE_ATTEMPTS, plan_compaction, store_compaction
from synopsis.compaction.settings import CompactionSettings
from synopsis.errors import CompactionError, StaleSessionError, SynopsisError
from synopsis.messages import (
    DEFAULT_WRAPPING,
    AgentMessage,
    AssistantMessage,
    SummaryWrapping,
    ToolResultMessage,
    UserMessage,
    convert_to_llm,
    text_of,
    tool_arguments,
    tool_calls,
)
from synopsis.providers.base import ChatModel, ChatRequest, prepare_for_provider
from synopsis.providers.overflow import is_context_overflow
from synopsis.session.tree import Session
from synopsis.summarizers.base import Summarizer
from synopsis.tokens import ContextTokens

OVERFLOW_RECOVERY_FAILED = (
    "Context overflow recovery failed after one compact-and-retry attempt. "
    "Reduce the context (a smaller keep window) or switch to a model with a larger window."
)


def _now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True, slots=True)
class ContextUsage:
    tokens: int
    context_window: int
    threshold: int

    @property
    def percent(self) -> float:
        return 100.0 * self.tokens / self.context_window if self.context_window else 0.0


@dataclass(frozen=True, slots=True)
class NavigateResult:
    leaf_id: str | None
    editor_text: str | None
    """The text of the user message navigated to, for the user to edit and resend."""
    summary_entry_id: str | None


class AgentSession:
    """Runs an agent over a session with automatic compaction.

    ``settings`` default to :meth:`CompactionSettings.for_window` of the model's window;
    ``summarizer`` writes checkpoints (default: the embedded summarizer, no model);
    ``wrapping`` words the checkpoint for the model; ``max_turns`` bounds one run.
    """

    def __init__(
        self,
        session: Session,
        model: ChatModel,
        *,
        tools: Sequence[Tool] = (),
        settings: CompactionSettings | None = None,
        summarizer: Summarizer | None = None,
        system_prompt: str | None = None,
        wrapping: SummaryWrapping = DEFAULT_WRAPPING,
        max_turns: int = 200,
    ) -> None:
        self.session = session
        self.model = model
        self.tools = {tool.name: tool for tool in tools}
        if settings is None:
            settings = CompactionSettings.for_window(model.context_window)
        settings.check_window(model.context_window)
        self.settings = settings
        self.summarizer = summarizer or default_summarizer()
        self.system_prompt = system_prompt
        self.wrapping = wrapping
        self.max_turns = max_turns
        self._listeners: list[Listener] = []
        self._hooks: list[BeforeCompactHook] = []
        self._follow_ups: deque[str] = deque()
        self._overflow_retried = False
        self._stuck_at_entry: str | None = None
        self._abort_requested = False
        self._running: asyncio.Task[Any] | None = None

    # --- events and hooks -------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every event; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def before_compact(self, hook: BeforeCompactHook) -> BeforeCompactHook:
        """Register a hook that may cancel a compaction or supply its own result."""
        self._hooks.append(hook)
        return hook

    def _emit(self, event: AgentEvent) -> None:
        for listener in list(self._listeners):
            listener(event)

    # --- context accounting -----------------------------------------------------------------

    @property
    def threshold(self) -> int:
        return self.settings.threshold(self.model.context_window)

    def context_tokens(self) -> ContextTokens:
        """Context size now: the last valid usage after the checkpoint, plus estimates.

        The session keeps it up to date as messages are appended, so this costs the same
        at any length of the session (it runs before every model call).
        """
        return self.session.context_tokens(self.settings.token_counter.count)

    def context_usage(self) -> ContextUsage:
        return ContextUsage(self.context_tokens().tokens, self.model.context_window, self.threshold)

    def build_request(self) -> ChatRequest:
        """Exactly what the next model call will be sent.

        The checkpoint goes where ``settings.checkpoint_role`` says (a user message, or
        the end of the system prompt). When the context is over the threshold even after
        compacting (a huge tool result in the kept part), the largest tool results are
        shortened in what is sent (never in the session), so no request exceeds the window.
        """
        messages = self.session.build_context().messages
        system_prompt = self.system_prompt
        if (
            self.settings.checkpoint_role == "system"
            and messages
            and messages[0].get("role") == "compactionSummary"
        ):
            checkpoint = self.wrapping.wrap_compaction(str(messages[0].get("summary", "")))
            system_prompt = f"{system_prompt}\n\n{checkpoint}" if system_prompt else checkpoint
            messages = messages[1:]
        tools = [tool.spec for tool in self.tools.values()]
        sent = prepare_for_provider(convert_to_llm(messages, self.wrapping))
        fixed = fixed_request_tokens(system_prompt, tools)
        return ChatRequest(system_prompt, fit_tool_results(sent, self.threshold - fixed), tools)

    def llm_messages(self) -> list[Any]:
        """The messages of :meth:`build_request`."""
        return list(self.build_request().messages)

    # --- running ----------------------------------------------------------------------------

    def follow_up(self, text: str) -> None:
        """Queue a user message, delivered when the current run finishes."""
        self._follow_ups.append(text)

    def abort(self) -> None:
        """Stop the current run after the model call or tool in progress."""
        self._abort_requested = True
        if self._running is not None:
            self._running.cancel()

    async def prompt(self, text: str) -> AssistantMessage | None:
        """Send a user message and run until the model stops; returns its last reply."""
        self._overflow_retried = False  # a new prompt earns a new compact-and-retry
        await self._check_compaction()
        user: UserMessage = {
            "role": "user",
            "content": [{"type": "text", "text": text}],
            "timestamp": _now_ms(),
        }
        first_new = len(self.session.entries)
        self._append(user)
        return await self._run(first_new)

    async def continue_(self) -> AssistantMessage | None:
        """Run again from the current leaf without a new message (e.g. after an error)."""
        return await self._run()

    def _append(self, message: AgentMessage) -> str:
        entry_id = self.session.append_message(message)
        self._stuck_at_entry = None
        self._emit(MessageEnd(message, entry_id))
        return entry_id

    async def _call_model(self) -> AssistantMessage:
        self._running = asyncio.ensure_future(self.model.complete(self.build_request()))
        try:
            reply: AssistantMessage = await self._running
            return reply
        except asyncio.CancelledError:
            if not self._abort_requested:
                raise
            return {
                "role": "assistant",
                "content": [],
                "provider": self.model.provider,
                "model": self.model.model_id,
                "stopReason": "aborted",
                "errorMessage": "aborted by the user",
                "timestamp": _now_ms(),
            }
        finally:
            self._running = None

    async def _run_tools(self, reply: AssistantMessage) -> None:
        for call in tool_calls(reply):
            name = str(call.get("name"))
            tool = self.tools.get(name)
            if tool is None:
                text, is_error = f"Unknown tool {name!r}", True
            else:
                text, is_error = await tool.call(tool_arguments(call))
            result: ToolResultMessage = {
                "role": "toolResult",
                "toolCallId": str(call.get("id")),
                "toolName": name,
                "content": [{"type": "text", "text": text}],
                "isError": is_error,
                "timestamp": _now_ms(),
            }
            self._append(result)

    async def _run(self, added_from: int | None = None) -> AssistantMessage | None:
        """Run the loop, then the queued follow-ups; ``added_from`` is the index of the
        run's first entry (the prompt's user message), reported in ``AgentEnd``."""
        self._abort_requested = False
        if added_from is None:
            added_from = len(self.session.entries)
        last: AssistantMessage | None = None
        try:
            last = await self._loop()
            while self._follow_ups and not self._abort_requested:
                await self._check_compaction()
                text = self._follow_ups.popleft()
                self._append({"role": "user", "content": text, "timestamp": _now_ms()})
                last = await self._loop()
        finally:
            added = [
                e["message"] for e in self.session.entries[added_from:] if e["type"] == "message"
            ]
            self._emit(AgentEnd(tuple(added)))
        return last

    async def _loop(self) -> AssistantMessage | None:
        last: AssistantMessage | None = None
        for _ in range(self.max_turns):
            reply = await self._call_model()
            reply_id = self._append(reply)
            last = reply
            stop_reason = reply.get("stopReason")
            if is_context_overflow(reply, self.model.context_window):
                if stop_reason != "stop":
                    if self._overflow_retried:
                        self._emit(AgentError(OVERFLOW_RECOVERY_FAILED))
                        return last
                    self._overflow_retried = True
                    # Like Pi 1.6: the failed attempt leaves the context before the retry.
                    self.session.append_context_edit(reply_id, None)
                    if await self._compact("overflow", will_retry=True) is None:
                        self._emit(AgentError(OVERFLOW_RECOVERY_FAILED))
                        return last
                    continue
                # A good answer from an over-full context is kept; compact, no retry.
                await self._compact("overflow", will_retry=False)
            if stop_reason in ("error", "aborted"):
                if stop_reason == "error":
                    self._emit(AgentError(str(reply.get("errorMessage") or "model error")))
                return last
            self._overflow_retried = False
            if self._abort_requested or not any(True for _ in tool_calls(reply)):
                await self._check_compaction()
                return last
            await self._run_tools(reply)
            if self._abort_requested:
                return last
            await self._check_compaction()
        self._emit(AgentError(f"stopped after {self.max_turns} turns without a final answer"))
        return last

    # --- compaction -------------------------------------------------------------------------

    async def _check_compaction(self) -> None:
        if not self.settings.enabled or self._stuck_at_entry == self.session.leaf_id:
            return
        if self.context_tokens().tokens > self.threshold:
            await self._compact("threshold", will_retry=False)

    async def compact(self, instructions: str | None = None) -> CompactionResult:
        """Compact now. Raises :class:`CompactionError` when there is nothing to compact."""
        result = await self._compact("manual", will_retry=False, instructions=instructions)
        if result is None:  # unreachable: a manual compaction raises instead
            raise CompactionError("Compaction did not run")
        return result

    async def _run_hooks(self, event: BeforeCompact) -> CompactionResult | CancelCompaction | None:
        outcome: CompactionResult | CancelCompaction | None = None
        for hook in list(self._hooks):
            try:
                returned = hook(event)
                if inspect.isawaitable(returned):
                    returned = await returned
            except Exception as error:  # a broken hook must not break compaction
                self._emit(HookError("before_compact", f"{type(error).__name__}: {error}"))
                continue
            if isinstance(returned, CancelCompaction):
                return returned
            if returned is not None:
                outcome = returned
        return outcome

    async def _compact(
        self, reason: CompactionReason, *, will_retry: bool, instructions: str | None = None
    ) -> CompactionResult | None:
        """Compact the branch; planned again on the new leaf when another writer appended
        to the session file meanwhile (a checkpoint is never stored on a stale parent)."""
        for attempt in range(1, STALE_ATTEMPTS + 1):
            try:
                return await self._compact_once(reason, will_retry, instructions)
            except StaleSessionError as error:
                self._emit(CompactionEnd(reason, None, aborted=True, error=str(error)))
                if attempt == STALE_ATTEMPTS and reason == "manual":
                    raise
        return None

    async def _compact_once(
        self, reason: CompactionReason, will_retry: bool, instructions: str | None
    ) -> CompactionResult | None:
        branch = self.session.path()
        plan = plan_compaction(
            branch,
            self.settings,
            fit_within=self.threshold,
            summarizer=self.summarizer,
            projection=self.session.build_context().projection,
        )
        if plan.preparation is None:
            if reason == "manual":
                plan.require()
            return None
        preparation = plan.preparation
        self._emit(CompactionStart(reason, preparation.tokens_before))
        event = BeforeCompact(preparation, tuple(branch), reason, will_retry, instructions)
        outcome = await self._run_hooks(event)
        if isinstance(outcome, CancelCompaction):
            self._emit(CompactionEnd(reason, None, aborted=True, error=outcome.reason))
            if reason == "manual":
                raise CompactionError(f"Compaction cancelled: {outcome.reason}")
            return None
        from_hook = outcome is not None
        try:
            result = outcome or await compact(
                preparation,
                self.summarizer,
                custom_instructions=instructions,
                wrapping=self.wrapping,
            )
        except asyncio.CancelledError:
            self._emit(CompactionEnd(reason, None, aborted=True))
            raise
        except SynopsisError as error:
            self._emit(CompactionEnd(reason, None, error=f"Compaction failed: {error}"))
            if reason == "manual":
                raise
            return None
        entry_id = store_compaction(self.session, result, from_hook=from_hook)
        after = self.context_tokens().tokens
        problem = None
        if after > self.threshold:
            self._stuck_at_entry = self.session.leaf_id
            problem = (
                f"the context is still {after} tokens after compacting (threshold "
                f"{self.threshold}): the most recent messages alone are too large, so the "
                "largest tool results are shortened in what is sent to the model"
            )
        self._emit(
            CompactionEnd(
                reason,
                result,
                will_retry=will_retry,
                error=problem,
                entry_id=entry_id,
                from_hook=from_hook,
                kept_messages=len(preparation.kept_messages),
            )
        )
        return result

    # --- tree navigation --------------------------------------------------------------------

    async def navigate(
        self, target_id: str, *, summarize: bool = True, instructions: str | None = None
    ) -> NavigateResult:
        """Move to another point of the tree, summarizing the branch being left.

        Navigating to a user message puts the leaf just before it and returns its text,
        so the user can edit and resend it; any other target becomes the leaf itself.
        """
        target = self.session.require_entry(target_id)
        old_leaf = self.session.leaf_id
        if target_id == old_leaf:
            return NavigateResult(old_leaf, None, None)
        editor_text: str | None = None
        new_leaf: str | None = target_id
        message = target.get("message") if target.get("type") == "message" else None
        if target.get("type") == "custom_message" or (
            isinstance(message, dict) and message.get("role") == "user"
        ):
            editor_text = text_of(message if message is not None else target)
            new_leaf = target.get("parentId")
        summary = None
        if summarize:
            entries = abandoned_entries(self.session, old_leaf, target_id)
            budget = self.model.context_window - self.settings.reserve_tokens
            summary = await summarize_branch(
                entries, self.summarizer, token_budget=budget, custom_instructions=instructions
            )
        if summary is None:
            if new_leaf is None:
                self.session.reset_leaf()
            else:
                self.session.branch(new_leaf)
            return NavigateResult(new_leaf, editor_text, None)
        entry_id = self.session.branch_with_summary(new_leaf, summary.summary, summary.details)
        self._emit(BranchSummarized(entry_id, summary.summary))
        return NavigateResult(entry_id, editor_text, entry_id)
