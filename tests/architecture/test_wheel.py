"""The wheel holds library code and the demo's data, nothing of the test suite."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    pytest.importorskip("setuptools")
    pytest.importorskip("wheel")
    out = tmp_path_factory.mktemp("wheel")
    # a clean copy: a stale build/ folder in the checkout would be packed again
    source = tmp_path_factory.mktemp("source")
    shutil.copytree(ROOT / "src", source / "src", ignore=shutil.ignore_patterns("*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(out), str(source)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [wheel] = out.glob("synopsis-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_no_generator_or_test_module_is_shipped(wheel_names: list[str]) -> None:
    modules = [name for name in wheel_names if name.endswith(".py")]
    assert all(name.startswith("synopsis/") for name in modules), modules
    assert not [name for name in modules if "generate" in name or "synthetic" in name]
    assert not [name for name in wheel_names if name.startswith("tests/")]


def test_the_library_and_the_demo_data_are_shipped(wheel_names: list[str]) -> None:
    for needed in (
        "synopsis/__init__.py",
        "synopsis/py.typed",
        "synopsis/compaction/orchestrate.py",
        "synopsis/providers/base.py",
        "synopsis/agent/demo_data/coding-en.jsonl.gz",
        "synopsis/agent/demo_data/coding-zh.jsonl.gz",
    ):
        assert needed in wheel_names
