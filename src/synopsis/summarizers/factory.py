"""Turn a model spec such as ``openai:gpt-4o-mini`` into a summarizer.

The CLI and settings files name a model as ``PROVIDER:MODEL``; only the first colon
separates the two, because local model names carry their own (``openai:qwen2.5:7b`` for
Ollama's OpenAI-compatible endpoint).
"""

from __future__ import annotations

from synopsis.errors import SettingsError
from synopsis.summarizers.base import Summarizer

PROVIDERS = ("openai", "anthropic")


def make_summarizer(
    spec: str, *, base_url: str | None = None, api_key: str | None = None
) -> Summarizer:
    """A model summarizer for ``spec`` (``openai:MODEL`` or ``anthropic:MODEL``).

    ``openai:`` covers every OpenAI-compatible server when ``base_url`` points at it.
    """
    provider, separator, model = spec.strip().partition(":")
    provider = provider.lower()
    if not separator or provider not in PROVIDERS or not model.strip():
        raise SettingsError(
            f"unknown model spec {spec!r}: use openai:MODEL (OpenAI or any OpenAI-compatible "
            "server, with --base-url) or anthropic:MODEL, e.g. openai:gpt-4o-mini"
        )
    model = model.strip()
    if provider == "openai":
        from synopsis.summarizers.model import OpenAISummarizer

        return OpenAISummarizer(model, base_url=base_url, api_key=api_key)
    from synopsis.summarizers.model import AnthropicSummarizer

    return AnthropicSummarizer(model, base_url=base_url, api_key=api_key)
