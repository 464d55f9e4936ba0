"""What the OpenAI and Anthropic summarizers share: their settings, the call, the result.

Both lower the output limit to the model's own, build the same prompt, send one request
through their :class:`~synopsis.summarizers._connection.ProviderConnection` (asking again
without a parameter the model rejects), and turn the reply into a
:class:`~synopsis.summarizers.base.SummaryResult` or refuse it. A subclass says how the
request is sent (:meth:`SdkSummarizer._send`) and reads the facts of the reply in its
protocol (:meth:`SdkSummarizer._facts`); which replies are unusable, and what the error
says about them, is decided here, once.

A reply is only accepted as a summary when it is complete: one cut off by the output
limit, one that calls tools, a refusal or an empty reply raises
:class:`~synopsis.errors.SummarizerError` instead, because storing half a checkpoint would
silently lose the history it replaces.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from synopsis.errors import SummarizerError
from synopsis.messages import Usage
from synopsis.summarizers._connection import ProviderConnection, summary_usage
from synopsis.summarizers._retry import output_limit, reply_error
from synopsis.summarizers.base import SummaryRequest, SummaryResult
from synopsis.summarizers.prompts import build_prompt

Reply = TypeVar("Reply")

_MORE_ROOM = (
    "give the summary more room (a larger reserve or max_output_tokens) "
    "or summarize fewer messages at once"
)


@dataclass(frozen=True, slots=True)
class ReplyFacts:
    """What decides whether a reply is a summary, read from either protocol."""

    text: str
    usage: Usage
    stopped_early: str | None = None
    """How the reply stopped before it was complete, as it follows "the reply stopped"
    (``at the output limit of 640 tokens (finish_reason 'length')``); None if it finished."""
    tool_calls: bool = False
    refusal: str | None = None
    """Why the model refused, as it follows "the model refused to summarize"; None if it
    did not refuse."""


class SdkSummarizer(ABC, Generic[Reply]):
    """A summarizer that asks a model through an official SDK; see the module docstring."""

    temperature: float | None
    """Sent with every request unless None; dropped for good once a model rejects it."""

    def __init__(
        self,
        connection: ProviderConnection,
        max_input_tokens: int | None,
        max_output_tokens: int | None,
    ) -> None:
        self._connection = connection
        self.model = connection.endpoint.model
        self.max_input_tokens = max_input_tokens
        """The most transcript tokens one call may carry; longer ones are summarized in
        chunks by :func:`synopsis.compaction.compact.compact` (``None``: no limit)."""
        self.base_url = connection.base_url
        self.max_output_tokens = max_output_tokens
        self.timeout = connection.timeout

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r})"

    async def summarize(self, request: SummaryRequest) -> SummaryResult:
        limit = output_limit(request.max_tokens, self.max_output_tokens)
        system, user = build_prompt(replace(request, max_tokens=limit))
        reply = await self._connection.call(
            lambda client: self._send(client, system, user, limit), self._drop_rejected_parameter
        )
        facts = self._facts(reply, limit)
        return SummaryResult(self._summary_text(facts), summary_usage(facts.usage))

    def _summary_text(self, facts: ReplyFacts) -> str:
        """The summary in a reply, or the reason it is not one."""
        if facts.stopped_early is not None:
            raise self._unusable(
                f"the reply stopped {facts.stopped_early}, so the summary is cut off and was "
                "not used",
                _MORE_ROOM,
            )
        if facts.tool_calls:
            raise self._unusable(
                "the model replied with tool calls instead of a summary",
                "use a model that follows instructions without tools, or try again",
            )
        if facts.refusal is not None:
            raise self._unusable(
                f"the model refused to summarize{facts.refusal}",
                "try another model or remove the offending content",
            )
        text = facts.text.strip()
        if not text:
            raise self._unusable(
                "the reply is empty",
                "try again, or use a model that follows the summarization prompt",
            )
        return text

    def _unusable(self, problem: str, advice: str) -> SummarizerError:
        """The error for a reply that arrived but cannot be used as a summary."""
        return reply_error(self._connection.endpoint, problem, advice)

    def _drop_rejected_parameter(self, message: str) -> bool:
        """Adapt to a model that rejected a parameter; True when there is something to retry.

        ``temperature`` is dropped (reasoning models and recent Claude models accept only
        their default), once, and stays dropped for later calls.
        """
        if self.temperature is not None and "temperature" in message:
            self.temperature = None
            return True
        return False

    @abstractmethod
    async def _send(self, client: Any, system: str, user: str, limit: int) -> Reply:
        """Send the prompt with the SDK ``client``, its output limited to ``limit`` tokens."""

    @abstractmethod
    def _facts(self, reply: Reply, limit: int) -> ReplyFacts:
        """What ``reply``, asked for at most ``limit`` tokens, says; raises
        :class:`~synopsis.errors.SummarizerError` for one that is not a reply at all."""
