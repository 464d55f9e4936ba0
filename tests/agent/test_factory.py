"""`make_chat_model`: a PROVIDER:MODEL spec becomes the right chat model."""

from __future__ import annotations

import pytest

from synopsis.errors import SettingsError
from synopsis.providers.anthropic import AnthropicChatModel
from synopsis.providers.factory import make_chat_model
from synopsis.providers.openai import OpenAIChatModel


def test_openai_compatible_models_keep_their_own_colons() -> None:
    model = make_chat_model(
        "OpenAI:qwen2.5:7b", context_window=32_768, base_url="http://127.0.0.1:11434/v1"
    )
    assert isinstance(model, OpenAIChatModel)
    assert (model.provider, model.model_id, model.context_window) == (
        "openai",
        "qwen2.5:7b",
        32_768,
    )
    assert model.base_url == "http://127.0.0.1:11434/v1"
    assert model.max_tokens_parameter == "max_tokens"


def test_anthropic_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    model = make_chat_model(" anthropic:claude-sonnet ", context_window=200_000)
    assert isinstance(model, AnthropicChatModel)
    assert (model.model_id, model.base_url) == ("claude-sonnet", "https://api.anthropic.com")


@pytest.mark.parametrize("spec", ["gpt-4o", "gemini:pro", "openai:", ":x", ""])
def test_bad_specs_say_what_to_write(spec: str) -> None:
    with pytest.raises(SettingsError, match="openai:MODEL"):
        make_chat_model(spec, context_window=1000)
