"""Chat models: one small Protocol, the OpenAI and Anthropic implementations, retries.

Everything that talks to a model provider lives here — the agent loop's model and the
model summarizer both use a :class:`ChatModel` — so connection handling, retry policy and
the "failures are returned as error replies" contract are written once. The official SDKs
are optional extras, imported only when a model is created.
"""

from synopsis.providers._retry import RetryPolicy
from synopsis.providers.base import ChatModel, ChatRequest, ToolSpec, prepare_for_provider
from synopsis.providers.factory import make_chat_model
from synopsis.providers.overflow import is_context_overflow

__all__ = [
    "ChatModel",
    "ChatRequest",
    "RetryPolicy",
    "ToolSpec",
    "is_context_overflow",
    "make_chat_model",
    "prepare_for_provider",
]
