"""make_summarizer: model specs to clients, and the clients it makes really work."""

from __future__ import annotations

import pytest

from synopsis.errors import SettingsError
from synopsis.summarizers.factory import make_summarizer
from synopsis.summarizers.model import AnthropicSummarizer, OpenAISummarizer
from tests.llm_server import LLMServer, Reply
from tests.summarizers._support import request, run


@pytest.mark.parametrize(
    ("spec", "kind", "model"),
    [
        ("openai:gpt-4o-mini", OpenAISummarizer, "gpt-4o-mini"),
        ("OpenAI:gpt-4o-mini", OpenAISummarizer, "gpt-4o-mini"),
        ("openai:qwen2.5:7b", OpenAISummarizer, "qwen2.5:7b"),
        (" anthropic:claude-sonnet-4-5 ", AnthropicSummarizer, "claude-sonnet-4-5"),
    ],
)
def test_specs(spec: str, kind: type, model: str) -> None:
    summarizer = make_summarizer(spec, api_key="k")
    assert isinstance(summarizer, kind)
    assert summarizer.model == model  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec", ["", "gpt-4o-mini", "openai:", "openai:  ", "gemini:pro", ":gpt-4o", "ollama:llama3"]
)
def test_bad_specs_say_what_is_accepted(spec: str) -> None:
    with pytest.raises(SettingsError, match="openai:MODEL") as caught:
        make_summarizer(spec, api_key="k")
    assert "anthropic:MODEL" in str(caught.value)


def test_openai_spec_with_a_base_url_talks_to_that_server(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text="## Goal\nx"))
    summarizer = make_summarizer("openai:llama3.1:8b", base_url=llm_server.openai_url)
    assert run(summarizer.summarize(request())).text == "## Goal\nx"
    assert llm_server.requests[0].body["model"] == "llama3.1:8b"


def test_anthropic_spec_with_a_base_url_talks_to_that_server(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text="## Goal\ny"))
    summarizer = make_summarizer(
        "anthropic:claude-test", base_url=llm_server.anthropic_url, api_key="k"
    )
    assert run(summarizer.summarize(request())).text == "## Goal\ny"
    assert llm_server.requests[0].path == "/v1/messages"
