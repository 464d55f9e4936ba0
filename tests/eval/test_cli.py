"""``synopsis eval`` as a user runs it: a real process, JSON, HTML, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.llm_server import LLMServer, Reply

SYNOPSIS = str(Path(sys.executable).parent / "synopsis")
SMALL = ["--rounds", "2", "--seeds", "7", "--turns", "10", "--budgets", "15%,30%"]


def run(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [SYNOPSIS, "eval", *args], capture_output=True, text=True, timeout=300, check=False
    )
    if ok:
        assert done.returncode == 0, done.stderr
    return done


def cell(report: dict[str, Any], compactor: str, budget: float, round_: int) -> dict[str, Any]:
    found: list[dict[str, Any]] = [
        c
        for c in report["cells"]
        if c["compactor"] == compactor and c["budget"] == budget and c["round"] == round_
    ]
    assert len(found) == 1
    return found[0]


def test_json_report() -> None:
    report = json.loads(run(*SMALL, "--json").stdout)
    assert report["version"] == 1
    assert report["config"]["compactors"] == [
        "truncation",
        "lead",
        "lead+guard",
        "summary",
        "guarded",
    ]
    assert report["config"]["budgets"] == [0.15, 0.3]
    assert [s["name"] for s in report["scenarios"]] == [
        "coding-en-s7",
        "coding-zh-s7",
        "support-en-s7",
        "support-zh-s7",
    ]
    assert len(report["cells"]) == 5 * 2 * 2
    assert len(report["runs"]) == 5 * 2 * 4 * 2
    canaries = {s["name"]: len(s["canaries"]) for s in report["scenarios"]}
    for run_ in report["runs"]:
        assert len(run_["scores"]) <= canaries[run_["scenario"]]
        assert run_["contextTokens"] < run_["originalTokens"]
    for c in report["cells"]:
        assert 0 <= c["survival"]["rate"] <= 1
        assert 0 < c["sizeRatio"] < 1
        assert set(c["byType"]) >= {"safety", "constraint", "goal", "superseded"}
    guarded = cell(report, "guarded", 0.15, 2)
    assert guarded["rules"]["rate"] == 1.0 and guarded["stale"]["count"] == 0
    truncated = cell(report, "truncation", 0.15, 2)
    assert truncated["survival"]["rate"] < guarded["survival"]["rate"]


def test_table_and_html_report(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    done = run(*SMALL, "--compactors", "truncation,guarded", "--html", str(out))
    assert "Survival by type and round" in done.stdout
    assert "overall" in done.stdout and "guarded" in done.stdout
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>")
    assert html.count("<svg") == 4  # all canaries and rules, per budget
    assert "<polyline" in html
    assert "<script" not in html and "http://" not in html.replace("http://www.w3.org", "")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--budgets", "120%"], "budget"),
        (["--compactors", "oracle"], "unknown compactor"),
        (["--styles", "poetry"], "--styles"),
        (["--rounds", "50", "--turns", "10"], "rounds must be between"),
        (["--seeds", "one"], "--seeds"),
    ],
)
def test_bad_options_exit_2_with_one_line(args: list[str], message: str) -> None:
    done = run(*args, ok=False)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_model_compactor_runs_in_the_same_table(llm_server: LLMServer) -> None:
    pytest.importorskip("openai")
    llm_server.set_default(Reply(text="## Goal\nKeep going.\n\n## Next Steps\n- Continue."))
    done = run(
        "--rounds", "2", "--seeds", "7", "--turns", "10", "--budgets", "20%",
        "--styles", "support", "--languages", "en", "--compactors", "truncation",
        "--model", "openai:scripted", "--base-url", llm_server.openai_url, "--json",
    )  # fmt: skip
    report = json.loads(done.stdout)
    assert report["config"]["compactors"] == ["truncation", "model:openai:scripted"]
    model = cell(report, "model:openai:scripted", 0.2, 2)
    assert model["rules"]["rate"] == 1.0  # the guard restored what the model dropped
    assert llm_server.requests


def test_the_guard_rescues_a_lossy_summarizer() -> None:
    """`lead` keeps only the opening of what it summarizes and loses rules round after
    round; the same summarizer behind the guard keeps every one."""
    args = ["--rounds", "3", "--budgets", "10%", "--seeds", "1", "--styles", "coding"]
    args += ["--languages", "en", "--compactors", "lead,lead+guard", "--json"]
    report = json.loads(run(*args).stdout)
    for round_ in (2, 3):
        assert cell(report, "lead", 0.1, round_)["rules"]["rate"] < 0.5
        assert cell(report, "lead+guard", 0.1, round_)["rules"]["rate"] == 1.0
