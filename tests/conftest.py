"""Shared pytest fixtures. Each block below belongs to one area; add yours in its own block."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.llm_server import LLMServer

# --- hypothesis: the suite runs the same examples every time; `make fuzz` explores -------
# A property test that finds a new counterexample on some CI run blocks an unrelated
# change from landing; the suite is derandomized so that its verdict depends on the code
# only, and `make fuzz` (SYNOPSIS_HYPOTHESIS=explore) draws new examples to hunt for bugs,
# each found one kept as an @example.
settings.register_profile("suite", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("SYNOPSIS_HYPOTHESIS", "suite"))
# --- end hypothesis ----------------------------------------------------------------------

# --- llm_server: a scripted OpenAI/Anthropic HTTP server (see tests/llm_server.py) -------


@pytest.fixture
def llm_server() -> Iterator[LLMServer]:
    """A running :class:`~tests.llm_server.LLMServer` on 127.0.0.1, fresh for each test."""
    with LLMServer() as server:
        yield server


# --- end llm_server ----------------------------------------------------------------------
