"""The README's framework examples run as written, each in a fresh interpreter.

Each ```python block that imports ``synopsis.integrations`` is taken from README.md
itself (not copied here) and run with ``python -c`` in a temporary folder, its model
calls answered by the scripted local server through ``OPENAI_BASE_URL`` (the official
clients read it); nothing leaves the machine.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.llm_server import LLMServer, Reply, ToolCall

README = Path(__file__).resolve().parents[2] / "README.md"
PROJECT_README = "# demo\nA small project that parses invoices.\n"


def integration_blocks() -> dict[str, str]:
    """The README's integration examples, by the module they use."""
    found = re.findall(r"^```python\n(.*?)^```$", README.read_text(), re.S | re.M)
    return {
        match.group(1): block
        for block in found
        if (match := re.search(r"from synopsis\.integrations\.(\w+) import", block))
    }


def run_example(block: str, folder: Path, server: LLMServer) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "OPENAI_BASE_URL": server.openai_url,
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_AGENTS_DISABLE_TRACING": "1",
    }
    return subprocess.run(
        [sys.executable, "-c", block],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )


def test_every_integration_has_an_example() -> None:
    assert set(integration_blocks()) == {"langchain", "pydantic_ai", "openai_agents"}


@pytest.mark.parametrize("module", ["langchain", "pydantic_ai"])
def test_tool_using_example_runs(module: str, tmp_path: Path) -> None:
    pytest.importorskip({"langchain": "langchain_openai", "pydantic_ai": "pydantic_ai"}[module])
    (tmp_path / "README.md").write_text(PROJECT_README)
    with LLMServer() as server:
        server.enqueue(
            Reply(tool_calls=[ToolCall("read_file", {"path": "README.md"})]),
            Reply(text="It parses invoices."),
        )
        done = run_example(integration_blocks()[module], tmp_path, server)
        assert done.returncode == 0, done.stderr[-3000:]
        assert "It parses invoices." in done.stdout
        # The tool ran and its result reached the model, answering the call it made.
        last = server.requests[-1].messages
        tool_messages = [m for m in last if m.get("role") == "tool"]
        assert [m["content"] for m in tool_messages] == [PROJECT_README]
        calls = {c["id"] for m in last for c in m.get("tool_calls") or []}
        assert {m["tool_call_id"] for m in tool_messages} <= calls


def test_agents_sdk_example_runs_twice_over_one_session(tmp_path: Path) -> None:
    pytest.importorskip("agents")
    with LLMServer() as server:
        server.enqueue(Reply(text="Freeze, test, tag."), Reply(text="Freeze the branch."))
        done = run_example(integration_blocks()["openai_agents"], tmp_path, server)
        assert done.returncode == 0, done.stderr[-3000:]
        assert done.stdout.splitlines() == ["Freeze, test, tag.", "Freeze the branch."]
        # The second run was sent the first one from the session.
        assert "Plan the 2.0 release." in server.requests[-1].texts("user")
        assert (tmp_path / "chats.db").exists()
