"""Every example in README.md runs as written.

The ```python blocks are taken from the README itself (not copied here), each run in a
namespace of its own — as a reader pasting one into a fresh interpreter would — in a
temporary folder with the small inputs the text assumes: a session file, a message list,
a model server. Every ``synopsis …`` line of the sh blocks runs too, on generated inputs.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from synopsis.session import open_session
from tests.llm_server import LLMServer, Reply, ToolCall
from tests.synthetic import write_session

README = Path(__file__).resolve().parents[1] / "README.md"
SYNOPSIS = str(Path(sys.executable).parent / "synopsis")


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", README.read_text(), re.S | re.M)


def python_block(*needles: str) -> str:
    """The one python block that holds every needle (so reordering the README is fine)."""
    found = [b for b in blocks("python") if all(n in b for n in needles)]
    assert len(found) == 1, f"README: {len(found)} python blocks hold {needles}"
    return found[0]


def run_block(source: str, **names: Any) -> dict[str, Any]:
    """Run one block; a traceback names the README's own line numbers."""
    text = README.read_text()
    padding = "\n" * text[: text.index(source)].count("\n")
    namespace: dict[str, Any] = {"__name__": "__readme__", **names}
    exec(compile(padding + source, str(README), "exec"), namespace)
    return namespace


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    yield tmp_path


def test_every_python_block_is_tested() -> None:
    tested = [
        ("compact_session", "session.jsonl"),
        ("compact_messages_sync",),
        ("AgentSession", "OpenAIChatModel"),
    ]
    # the framework examples run in tests/integrations/test_readme_examples.py
    core = [b for b in blocks("python") if "synopsis.integrations" not in b]
    assert len(core) == len(tested)
    for needles in tested:
        python_block(*needles)


def test_compacting_a_session_file(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_session(folder / "session.jsonl", seed=11, entries=300)
    run_block(python_block("compact_session", "session.jsonl"))
    printed = capsys.readouterr().out.splitlines()
    before, _, after = printed[0].partition(" → ")
    assert int(before) > int(after) > 0
    assert open_session(folder / "session.jsonl").path()[-1]["type"] == "compaction"
    assert printed[1].strip()  # the start of the checkpoint


def chat_history(turns: int) -> list[dict[str, Any]]:
    """An OpenAI-format history with tool calls, long enough to need compacting."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
    for turn in range(turns):
        messages.append({"role": "user", "content": f"Step {turn}: fix module_{turn}.py. " * 20})
        call_id = f"call_{turn}"
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {
                            "name": "read",
                            "arguments": f'{{"path": "module_{turn}.py"}}',
                        },
                    }
                ],
            }
        )
        source = f"def handler_{turn}(request):\n    return request.value * {turn}\n" * 25
        messages.append({"role": "tool", "tool_call_id": call_id, "content": source})
        messages.append({"role": "assistant", "content": f"Fixed module_{turn}.py. " * 15})
    return messages


def test_compacting_a_chat_history_again_and_again(folder: Path) -> None:
    history = chat_history(40)
    namespace = run_block(python_block("compact_messages_sync"), messages=history)
    final = namespace["out"].messages
    assert namespace["messages"] is not history  # replaced by the first compaction
    assert len(final) < len(history)
    assert final[0] == history[0]  # the system prompt stays first


def test_running_an_agent(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (folder / "README.md").write_text("# demo\nA project that does one thing well.\n")
    with LLMServer() as server:
        server.enqueue(
            Reply(tool_calls=[ToolCall("read", {"path": "README.md"})]),
            Reply(text="It is a project that does one thing well."),
        )
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        run_block(python_block("AgentSession", "OpenAIChatModel"))
        requests = server.requests
    assert len(requests) == 2
    tool_message = requests[1].messages[-1]
    assert tool_message["role"] == "tool" and "one thing well" in str(tool_message["content"])
    assert (folder / "work.jsonl").exists()


# --- the command line -----------------------------------------------------------------

FIXED_SERVER = "--base-url"
"""A line naming a server at a fixed address (a local Ollama) is not run; ``--model`` alone
goes to the test's model server through ``OPENAI_BASE_URL``, as the OpenAI SDK reads it."""


def cli_blocks() -> list[list[str]]:
    """The ``synopsis …`` lines of each sh block, comments and ``make`` lines left out."""
    found = []
    for block in blocks("sh"):
        lines = [line.split("  #")[0].strip() for line in block.splitlines()]
        commands = [line for line in lines if line.startswith("synopsis ")]
        if commands:
            found.append(commands)
    return found


CLI_LINES = [(block, index) for block in cli_blocks() for index in range(len(block))]


def outputs(words: list[str]) -> list[str]:
    """The files a command line writes (its ``-o`` arguments)."""
    return [words[i + 1] for i, word in enumerate(words[:-1]) if word == "-o"]


def prepare(folder: Path) -> None:
    """The inputs the examples name: a session, an old file, a transcript, the repo's tests."""
    write_session(folder / "session.jsonl", seed=12, entries=200)
    (folder / "old-v1.jsonl").write_bytes((folder / "session.jsonl").read_bytes())
    transcripts = Path(__file__).parent / "importers" / "data"
    (folder / "transcript.jsonl").write_bytes(
        (transcripts / "claude-code-hello-world.jsonl").read_bytes()
    )
    (folder / "tests").symlink_to(Path(__file__).parent)  # "from a checkout"


def synopsis(arguments: list[str], server: LLMServer) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SYNOPSIS, *arguments],
        capture_output=True,
        text=True,
        timeout=600,
        env={
            **os.environ,
            "COLUMNS": "160",
            "OPENAI_BASE_URL": server.openai_url,
            "OPENAI_API_KEY": "test-key",
        },
        check=False,
    )


def test_every_command_line_is_tested() -> None:
    lines = [line for block in cli_blocks() for line in block]
    assert len(lines) >= 10 and any("synopsis view" in line for line in lines)


@pytest.mark.parametrize(
    ("block", "index"), CLI_LINES, ids=[block[index] for block, index in CLI_LINES]
)
def test_every_command_line_example_runs(
    folder: Path, block: list[str], index: int, llm_server: LLMServer
) -> None:
    """Each line in a fresh folder; the earlier lines of its block that write a file it
    reads run first (``view imported.jsonl`` after the ``import`` that writes it)."""
    line = block[index]
    if FIXED_SERVER in line:
        pytest.skip("names a server at a fixed address")
    llm_server.set_default(Reply(text="## Goal\nShip the fix.\n\n## Next Steps\n- Test it."))
    prepare(folder)
    words = shlex.split(line)
    for earlier in map(shlex.split, block[:index]):
        if any(out in words for out in outputs(earlier)):
            for out in outputs(earlier):
                (folder / out).unlink(missing_ok=True)
            assert synopsis(earlier[1:], llm_server).returncode == 0, earlier
    if "[" in line:  # an optional part in brackets: run without it, then with it
        runs = [
            shlex.split(re.sub(r"\s*\[.*?\]", "", line))[1:],
            shlex.split(re.sub(r"[\[\]]", "", line))[1:],
        ]
    else:
        runs = [words[1:]]
    if words[1] in _SMALLER:  # the full runs take minutes: same options, less data
        runs = [[*run, *_SMALLER[words[1]]] for run in runs]
    for arguments in runs:
        for out in outputs(arguments):
            (folder / out).unlink(missing_ok=True)  # a command never overwrites unasked
        done = synopsis(arguments, llm_server)
        assert done.returncode == 0, f"{line}: {done.stderr}"
        assert done.stdout.strip(), line
        for out in outputs(arguments):
            assert (folder / out).exists(), f"{line} did not write {out}"
    if "--model" in line:
        assert llm_server.requests, "the model was not called"


_SMALLER = {
    "eval": ["--seeds", "1", "--styles", "coding", "--languages", "en"],
    "demo": ["--entries", "300"],
}
