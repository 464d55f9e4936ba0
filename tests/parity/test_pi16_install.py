"""Without node or npm, Pi 1.6.0 is not installed and the reason says why (tests and
benchmarks then skip with it), before anything is written to the cache folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.parity import pi16


def test_without_node_or_npm_the_reason_is_given_and_nothing_is_installed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setattr(pi16, "CACHE", cache)
    monkeypatch.setattr(pi16, "PI_DIR", cache / "node_modules" / "pi")
    monkeypatch.setattr(shutil, "which", lambda name: None if name == "npm" else "/bin/node")
    assert pi16.install_pi16() == "node or npm is not installed"
    assert not cache.exists()
