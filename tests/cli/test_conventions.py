"""CLI conventions a new user relies on, tried as they would: real processes, real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from synopsis.cli import command as click_command
from synopsis.session import open_session
from tests.synthetic import write_session

SYNOPSIS = str(Path(sys.executable).parent / "synopsis")
COMMANDS = sorted(click_command().commands)
"""Every command the CLI registers, new ones included."""


def run(
    *args: str, ok: bool = True, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "COLUMNS": "200", **(env or {})}
    done = subprocess.run(
        [SYNOPSIS, *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=environment,
    )
    if ok:
        assert done.returncode == 0, done.stderr
    return done


def one_line_error(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith("error:"), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    for word in words:
        assert word in done.stderr


def flat(text: str) -> str:
    """Terminal output with box borders and line wrapping taken out."""
    return " ".join(text.replace("│", " ").split())


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("conventions") / "generated.jsonl"
    write_session(path, seed=5, entries=300)
    return path


def test_version_is_the_installed_packages() -> None:
    done = run("--version")
    assert done.stdout.strip() == f"synopsis {version('synopsis')}"


def test_every_command_documents_json_and_shows_flags_as_flags() -> None:
    assert {"tree", "context", "migrate", "plan", "compact", "demo"} <= set(COMMANDS)
    listed = run("--help").stdout
    for command in COMMANDS:
        assert command in listed
        page = run(command, "--help").stdout
        assert "--json" in page, command
        assert "<bool>" not in page, command
        assert "--no-" not in page, command  # one spelling per flag
    assert "<bool>" not in listed


def test_migrate_json_reports_what_it_wrote(generated: Path, tmp_path: Path) -> None:
    out = tmp_path / "copy.jsonl"
    report = json.loads(run("migrate", str(generated), "-o", str(out), "--json").stdout)
    assert report["output"] == str(out)
    assert report["version"] == 3
    assert report["migrated"] is False and report["versionBefore"] == 3
    assert report["entries"] == len(open_session(generated).entries)
    assert out.read_bytes() == generated.read_bytes()


def test_context_explains_its_figures_and_shows_the_checkpoint_whole(
    generated: Path, tmp_path: Path
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(generated.read_bytes())
    summary = json.loads(run("compact", str(path), "--keep-recent", "3000", "--json").stdout)[
        "summary"
    ]
    assert len(summary) > 500
    shown = run("context", str(path)).stdout
    assert " ".join(summary.split()) in flat(shown)
    for figure in ("contextTokens:", "usageTokens:", "trailingTokens:", "estimatedTokens:"):
        assert figure in shown
    assert "checkpoint, shown in full below" in shown
    # the other messages stay one-line previews of at most 60 characters
    rows = [line for line in shown.splitlines() if "  toolResult  " in line]
    assert rows and all(len(line) < 200 for line in rows)


def test_context_counts_with_the_chosen_counter(tmp_path: Path) -> None:
    path = tmp_path / "zh.jsonl"
    write_session(path, seed=9, entries=120, language="zh")
    pi = json.loads(run("context", str(path), "--json").stdout)
    cjk = json.loads(run("context", str(path), "--json", "--counter", "cjk").stdout)
    assert (pi["counter"], cjk["counter"]) == ("chars4", "cjk")
    assert cjk["estimatedTokens"] > pi["estimatedTokens"]
    chinese = [i for i, m in enumerate(pi["messages"]) if m["role"] == "user"]
    assert any(cjk["perMessageTokens"][i] > 2 * pi["perMessageTokens"][i] for i in chinese)
    assert cjk["usageTokens"] == pi["usageTokens"]  # reported usage is not re-counted
    one_line_error(run("context", str(path), "--counter", "words", ok=False), "'words'")


def window_report(path: Path, window: int, *extra: str) -> dict[str, Any]:
    report = json.loads(run("plan", str(path), "--window", str(window), "--json", *extra).stdout)
    trigger: dict[str, Any] = report["autoCompaction"]
    return trigger


def test_plan_window_says_whether_auto_compaction_would_trigger(generated: Path) -> None:
    size = json.loads(run("context", str(generated), "--json").stdout)["contextTokens"]
    small = window_report(generated, 16_000)
    assert small["contextTokens"] == size
    assert small["wouldTrigger"] is (size > small["threshold"])
    assert small["threshold"] == 16_000 - small["reserveTokens"]
    assert small["reserveTokens"] < 16_000 and small["keepRecentTokens"] < small["threshold"]
    huge = window_report(generated, 10 * size)
    assert huge["wouldTrigger"] is False
    at_edge = window_report(generated, size + 1000, "--reserve", "1000")
    assert at_edge["threshold"] == size and at_edge["wouldTrigger"] is False  # not over it
    over = window_report(generated, size + 999, "--reserve", "1000")
    assert over["wouldTrigger"] is True
    assert "would trigger now" in run("plan", str(generated), "--window", "16000").stdout
    assert "would not trigger now" in run("plan", str(generated), "--window", str(10 * size)).stdout
    assert json.loads(run("plan", str(generated), "--json").stdout)["autoCompaction"] is None


def test_small_windows_work_with_the_default_options(generated: Path) -> None:
    for window in ("16000", "32000"):
        done = run("plan", str(generated), "--window", window, "--json")
        assert json.loads(done.stdout)["compact"] is True


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["plan", "{missing}", "--window", "0"], ["context_window"]),
        (["plan", "{missing}", "--keep-recent", "-5"], ["keep_recent_tokens"]),
        (["plan", "{missing}", "--counter", "words"], ["'words'"]),
        (["context", "{missing}", "--counter", "cjk:x"], ["cjk:RATIO"]),
        (["compact", "{missing}", "--model", "gpt-4o"], ["gpt-4o"]),
        (["compact", "{missing}", "--base-url", "http://127.0.0.1:9/v1"], ["--base-url"]),
        (["compact", "{missing}", "--reserve", "-1"], ["reserve_tokens"]),
        (["migrate", "{missing}", "-o", "{missing}"], ["is the input file"]),
        (["demo", "--language", "fr"], ["'fr'"]),
        (["demo", "--entries", "0"], ["--entries"]),
        (["demo", "--window", "1000", "--keep-recent", "5000"], ["keep_recent_tokens"]),
    ],
)
def test_arguments_are_checked_before_any_work(
    tmp_path: Path, args: list[str], words: list[str]
) -> None:
    """Bad options are reported as such, before the session is even opened (the file
    does not exist: an error about the file would mean the work had started)."""
    missing = str(tmp_path / "missing.jsonl")
    done = run(*(a.replace("{missing}", missing) for a in args), ok=False)
    one_line_error(done, *words)
    if args[0] != "migrate":
        assert "missing.jsonl" not in done.stderr
    assert "synopsis demo" not in done.stdout  # the demo did not start


def test_demo_json_is_clean_and_the_temporary_folder_is_removed(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = run(
        "demo", "--entries", "150", "--window", "8000", "--json", env={"TMPDIR": str(scratch)}
    )
    report = json.loads(done.stdout)  # nothing but the document on stdout
    assert report["prompts"] > 0 and report["contextWindow"] == 8000
    assert report["sessionFile"] is None
    assert list(scratch.iterdir()) == []
    human = run("demo", "--entries", "150", "--window", "8000", env={"TMPDIR": str(scratch)})
    assert "temporary, removed" in human.stdout
    assert list(scratch.iterdir()) == []
    out = tmp_path / "kept.jsonl"
    kept = json.loads(run("demo", "--entries", "150", "--out", str(out), "--json").stdout)
    assert kept["sessionFile"] == str(out) and out.exists()
