"""The layer contract (pyproject.toml, ``[tool.importlinter]``) holds and can fail.

``make lint`` runs ``lint-imports`` on the real tree; these tests run it on a copy with one
planted import each, so a contract that silently stopped checking would be noticed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter not installed")


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=tree,
        env={"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "src", copy / "src", ignore=shutil.ignore_patterns("*.egg-info"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    return copy


def _plant(tree: Path, module: str, line: str) -> None:
    path = tree / "src" / Path(*module.split(".")).with_suffix(".py")
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


def test_the_real_tree_keeps_every_contract(tree: Path) -> None:
    done = _lint(tree)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        # the session layer importing upward, even inside a function
        (
            "synopsis.session.tree",
            "def _late():\n    from synopsis.compaction import settings  # noqa",
            "Layers import only downward BROKEN",
        ),
        ("synopsis.state.model", "import synopsis.summarizers.base  # noqa", "downward BROKEN"),
        ("synopsis.compaction.prepare", "import time  # noqa", "network BROKEN"),
        ("synopsis.state.extract", "import pathlib  # noqa", "network BROKEN"),
        ("synopsis.importers.codex", "import pathlib  # noqa", "read no files"),
        ("synopsis.viewer", "import synopsis.cli._app  # noqa", "downward BROKEN"),
        ("synopsis.session.store", "import langchain_core  # noqa", "integrations (optional"),
        ("synopsis.cli._app", "import synopsis.integrations.langchain  # noqa", "extras) BROKEN"),
        (
            "synopsis.compaction.settings",
            "from synopsis.compaction import prepare  # noqa",
            "No import cycles between sibling modules or packages BROKEN",
        ),
    ],
)
def test_a_planted_import_breaks_the_contract(
    tree: Path, module: str, line: str, broken: str
) -> None:
    _plant(tree, module, line)
    done = _lint(tree)
    assert done.returncode != 0
    assert broken in done.stdout
