"""Shared pytest fixtures. Each block below belongs to one area; add yours in its own block."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

# --- llm_server: a scripted OpenAI/Anthropic HTTP server (see tests/llm_server.py) -------
from tests.llm_server import LLMServer


@pytest.fixture
def llm_server() -> Iterator[LLMServer]:
    """A running :class:`~tests.llm_server.LLMServer` on 127.0.0.1, fresh for each test."""
    with LLMServer() as server:
        yield server


# --- end llm_server ----------------------------------------------------------------------
