"""Turn a model spec such as ``openai:gpt-4o-mini`` into the agent's chat model.

The same ``PROVIDER:MODEL`` spelling as the summarizers (only the first colon separates,
so ``openai:qwen2.5:7b`` names an Ollama model); the SDKs are imported only here, when a
model is actually asked for.
"""

from __future__ import annotations

from synopsis.errors import SettingsError
from synopsis.providers.base import ChatModel

PROVIDERS = ("openai", "anthropic")


def make_chat_model(
    spec: str,
    *,
    context_window: int,
    base_url: str | None = None,
    api_key: str | None = None,
) -> ChatModel:
    """A chat model for ``spec`` (``openai:MODEL`` or ``anthropic:MODEL``).

    ``openai:`` covers every OpenAI-compatible server when ``base_url`` points at it.
    """
    provider, separator, model = spec.strip().partition(":")
    provider = provider.lower()
    model = model.strip()
    if not separator or provider not in PROVIDERS or not model:
        raise SettingsError(
            f"unknown model spec {spec!r}: use openai:MODEL (OpenAI or any OpenAI-compatible "
            "server, with --base-url) or anthropic:MODEL, e.g. openai:gpt-4o-mini"
        )
    if provider == "openai":
        from synopsis.providers.openai import OpenAIChatModel

        return OpenAIChatModel(
            model, context_window=context_window, base_url=base_url, api_key=api_key
        )
    from synopsis.providers.anthropic import AnthropicChatModel

    return AnthropicChatModel(
        model, context_window=context_window, base_url=base_url, api_key=api_key
    )
