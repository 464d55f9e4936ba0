"""The HTML reports of ``synopsis eval`` in a real headless browser: per case, what was
lost and the checkpoint text; runs over their budget flagged."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from tests.viewer.test_viewer import CHROMIUM, _chromium

SYNOPSIS = str(Path(sys.executable).parent / "synopsis")
needs_browser = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed")


def _page_text(page: Path) -> tuple[str, str]:
    dom = _chromium("--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr
    return dom.stdout, unescape(re.sub(r"<[^>]+>", " ", dom.stdout))


def _corpus(folder: Path) -> None:
    filler = "The sync job wrote another heartbeat to the log, nothing new. " * 30
    turns: list[dict[str, Any]] = [
        {"role": "user", "text": "Please move the photo sync to the <b>new</b> bucket."},
        {"role": "assistant", "text": "Should the thumbnails move too, or only originals?"},
        {"role": "user", "text": "Only originals, thumbnails get rebuilt anyway."},
    ]
    for n in range(8):
        turns.append({"role": "user", "text": f"How far is batch {n}? {filler}"})
        turns.append({"role": "assistant", "text": f"Batch {n} is copying. {filler}"})
    truth = [
        {"id": "g1", "kind": "goal", "turn": 0, "tokens": ["photo sync"]},
        {"id": "f9", "kind": "fact", "turn": 2, "tokens": ["QX-NEVER-SAID-42"]},
    ]
    case = {"id": "sync-1", "turns": turns, "truth": truth}
    (folder / "sync-1.json").write_text(json.dumps(case), encoding="utf-8")


@needs_browser
def test_the_corpus_report_shows_lost_items_and_the_checkpoint(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    _corpus(folder)
    page = tmp_path / "corpus.html"
    subprocess.run(
        [SYNOPSIS, "eval", "--corpus", str(folder), "--html", str(page)],
        check=True,
        capture_output=True,
    )
    dom, text = _page_text(page)
    assert dom.count('<details class="case"') == 2  # one case, two conditions
    assert "sync-1 · free — 1 lost" in text
    assert "fact f9: QX-NEVER-SAID-42 (missing: QX-NEVER-SAID-42)" in text
    assert "## Goal" in text and "photo sync" in text  # the checkpoint text itself
    assert "photo sync to the" in text and "<b>" not in dom  # data is text, not markup
    assert "<script" not in dom


@needs_browser
def test_the_scenario_report_flags_runs_over_budget(tmp_path: Path) -> None:
    page = tmp_path / "eval.html"
    done = subprocess.run(
        [SYNOPSIS, "eval", "--seeds", "1", "--rounds", "2", "--budgets", "5%", "--styles",
         "coding", "--languages", "en", "--compactors", "truncation,guarded", "--json",
         "--html", str(page)],
        check=True,
        capture_output=True,
        text=True,
    )  # fmt: skip
    report = json.loads(done.stdout)
    over = [r for r in report["runs"] if r["contextTokens"] > r["limits"]["budgetTokens"]]
    assert [r["overBudget"] for r in report["runs"]] == [
        r["contextTokens"] > r["limits"]["budgetTokens"] for r in report["runs"]
    ]
    _, text = _page_text(page)
    assert "coding-en-s1 · guarded @ 5%" in text and "coding-en-s1 · truncation @ 5%" in text
    assert "## Goal" in text  # the guarded run's checkpoint
    assert ("over budget" in text.split("Per case")[1]) == any(r["round"] == 2 for r in over)
    for cell in report["cells"]:
        if cell["overBudgetRuns"]:  # what went over its budget keeps nothing when ranked
            assert cell["survivalInBudget"]["hit"] < cell["survival"]["hit"]
