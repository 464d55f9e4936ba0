"""Fixtures of the summarizer tests."""

from __future__ import annotations

import pytest

from tests.llm_server import Protocol
from tests.summarizers._support import PROTOCOLS, PROVIDER_ENVIRONMENT


@pytest.fixture(autouse=True)
def _no_provider_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """No key, base URL or profile of the machine running the tests is picked up."""
    for name in PROVIDER_ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", str(tmp_path_factory.mktemp("anthropic-config")))


@pytest.fixture(params=PROTOCOLS)
def protocol(request: pytest.FixtureRequest) -> Protocol:
    """Each protocol in turn, for tests that hold for both summarizers."""
    value: Protocol = request.param
    return value
