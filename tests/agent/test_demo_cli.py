"""`synopsis demo --model`: the real CLI, as a subprocess, against llm_server."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import synopsis.agent
from synopsis.agent.demo import DEMO_ENTRIES, DEMO_SEED
from synopsis.agent.replay import recorded_turns
from synopsis.summarizers.prompts import SYSTEM_PROMPT as SUMMARIZER_PROMPT
from tests.agent._support import Protocol, request_tokens
from tests.llm_server import LLMServer, RecordedRequest, Reply, ToolCall
from tests.synthetic import generate_session

SYNOPSIS = str(Path(sys.executable).parent / "synopsis")
ENTRIES = 200
WINDOW, RESERVE, KEEP = 8_000, 2_000, 1_500
CHECKPOINT = "## Goal\nFinish the refactor the user asked for.\n\n## Next Steps\n- Keep going."


def answered_tool(request: RecordedRequest) -> bool:
    """Does the request end with tool results (the model asked for a tool last time)?"""
    last = request.messages[-1]
    if last.get("role") == "tool":
        return True
    content = last.get("content")
    return isinstance(content, list) and any(b.get("type") == "tool_result" for b in content)


def fake_model(request: RecordedRequest) -> Reply:
    """Answers like a model: checkpoints for the summarizer; one tool call, then an answer."""
    if request.system == SUMMARIZER_PROMPT:
        return Reply(text=CHECKPOINT)
    if answered_tool(request):
        return Reply(text="Done with that step.")
    names = [t.get("name") or t["function"]["name"] for t in request.tools]
    name = "read" if "read" in names else names[0]  # file reads fill the window
    return Reply(tool_calls=[ToolCall(name, {"path": "src/app.py"})])


def run_demo(
    *arguments: str, ok: bool = True, entries: int = ENTRIES
) -> subprocess.CompletedProcess[str]:
    environment = {
        k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_"))
    }
    environment["COLUMNS"] = "200"
    done = subprocess.run(
        [SYNOPSIS, "demo", "--entries", str(entries), *arguments],
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
    )
    assert (done.returncode == 0) == ok, done.stdout + done.stderr
    return done


@pytest.mark.parametrize(
    ("protocol", "spec"), [("openai", "openai:test-model"), ("anthropic", "anthropic:claude-x")]
)
def test_demo_runs_the_loop_against_the_model(
    llm_server: LLMServer, tmp_path: Path, protocol: Protocol, spec: str
) -> None:
    llm_server.set_default(fake_model)
    out = tmp_path / "demo.jsonl"
    base_url = llm_server.openai_url if protocol == "openai" else llm_server.anthropic_url
    done = run_demo(
        "--model",
        spec,
        "--base-url",
        base_url,
        "--window",
        str(WINDOW),
        "--reserve",
        str(RESERVE),
        "--keep-recent",
        str(KEEP),
        "--out",
        str(out),
    )

    assert f"model: {spec} at {base_url}" in done.stdout
    assert "Report" in done.stdout
    recording = generate_session(DEMO_SEED, DEMO_ENTRIES)  # what the shipped file holds
    prompts = [turn.prompt for turn in recorded_turns(recording.entries[:ENTRIES])]
    entries = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    messages = [e["message"] for e in entries if e["type"] == "message"]
    assert [m["content"][0]["text"] for m in messages if m["role"] == "user"] == prompts
    assistants = [m for m in messages if m["role"] == "assistant"]
    provider, model_id = spec.split(":", 1)
    assert {(m["provider"], m["model"]) for m in assistants} == {(provider, model_id)}
    assert len(assistants) == 2 * len(prompts)  # a tool call and an answer per prompt
    # The loop really ran against the server, with the recording's tools...
    agent_calls = [r for r in llm_server.requests if r.system != SUMMARIZER_PROMPT]
    assert len(agent_calls) == len(assistants)
    recorded_tools = {
        m["toolName"]
        for e in recording.entries
        if e["type"] == "message" and (m := e["message"])["role"] == "toolResult"
    }
    for request in agent_calls:
        names = {t.get("name") or t["function"]["name"] for t in request.tools}
        assert names == recorded_tools
        assert request_tokens(request) <= WINDOW
    # ...and the model wrote the checkpoints of the compactions it needed.
    compactions = [e for e in entries if e["type"] == "compaction"]
    assert compactions
    # (the summary guard may add facts the model left out, around the model's own text)
    assert all("Finish the refactor the user asked for." in c["summary"] for c in compactions)
    summary_calls = [r for r in llm_server.requests if r.system == SUMMARIZER_PROMPT]
    assert len(summary_calls) >= len(compactions)
    [shown] = re.findall(r"compactions\s+│\s+(\d+)", done.stdout)
    assert int(shown) == len(compactions)


def test_without_model_the_demo_replays_offline(tmp_path: Path) -> None:
    out = tmp_path / "offline.jsonl"
    done = run_demo("--out", str(out))
    assert "model:" not in done.stdout
    assistants = [
        json.loads(line)["message"]
        for line in out.read_text().splitlines()[1:]
        if '"role":"assistant"' in line
    ]
    assert assistants and {m["provider"] for m in assistants} == {"replay"}


def test_bad_model_spec_and_orphan_base_url_are_one_line_errors(tmp_path: Path) -> None:
    bad = run_demo("--model", "gpt-4o", ok=False)
    assert bad.returncode == 2
    assert "unknown model spec 'gpt-4o'" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    orphan = run_demo("--base-url", "http://127.0.0.1:9/v1", ok=False)
    assert orphan.returncode == 2
    assert "--base-url needs --model" in orphan.stderr


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_whole_offline_demo_keeps_every_planted_fact(tmp_path: Path, language: str) -> None:
    """`make demo`'s promise, read from the file it wrote rather than from its report: after
    the last compaction of the whole replay, each fact the recording planted (the goal, the
    rules, the ids, the agent's own commit) is still in what the model is sent next."""
    out = tmp_path / f"demo-{language}.jsonl"
    run_demo("--language", language, "--out", str(out), entries=DEMO_ENTRIES)
    lines = out.read_text().splitlines()
    recording = Path(synopsis.agent.__file__).parent / "demo_data" / f"coding-{language}.jsonl.gz"
    with gzip.open(recording, "rt", encoding="utf-8") as stream:
        planted = json.loads(stream.readline())["demoFacts"]
    entries = [json.loads(line) for line in lines[1:]]
    compactions = [e for e in entries if e["type"] == "compaction"]
    assert len(compactions) >= 3
    last = compactions[-1]
    position = entries.index(last)
    first_kept = next(i for i, e in enumerate(entries) if e["id"] == last["firstKeptEntryId"])
    # the context: the checkpoint, then the kept messages from firstKeptEntryId on
    kept = json.dumps(
        [e.get("message") for e in entries[first_kept:position]]
        + [e.get("message") for e in entries[position + 1 :]],
        ensure_ascii=False,
    )
    sent = last["summary"] + kept
    missing = [
        f["text"]
        for f in planted
        if f["text"] not in sent and json.dumps(f["text"], ensure_ascii=False)[1:-1] not in sent
    ]
    assert not missing, missing
