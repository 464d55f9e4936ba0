"""Model failures as the CLI meets them: the first hopeless one (no server, a refused
key) ends ``demo`` and ``eval`` with one line; retries are reported on stderr only."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from tests.cli._run import one_error_line, synopsis
from tests.llm_server import LLMServer, Reply
from tests.synthetic import write_session

SMALL_EVAL = ("eval", "--rounds", "2", "--turns", "10", "--budgets", "30%")


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_demo_stops_at_the_first_unreachable_server(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    out = tmp_path / "demo.jsonl"
    done = synopsis(
        "demo",
        "--entries",
        "300",
        "--model",
        "openai:m",
        "--base-url",
        url,
        "--out",
        out,
        ok=False,
    )
    error = one_error_line(done)
    assert "could not connect" in error and "stopped at the first" in error
    assert b"Report" not in done.stdout  # it did not go on to the end


def test_demo_stops_at_the_first_refused_key(llm_server: LLMServer, tmp_path: Path) -> None:
    llm_server.set_default(Reply.error(401, "invalid api key"))
    done = synopsis(
        "demo",
        "--entries",
        "300",
        "--model",
        "openai:m",
        "--base-url",
        llm_server.openai_url,
        "--out",
        tmp_path / "demo.jsonl",
        ok=False,
    )
    assert "401" in one_error_line(done)
    assert len(llm_server.requests) == 1


def test_eval_stops_at_the_first_refused_key(llm_server: LLMServer) -> None:
    llm_server.set_default(Reply.error(401, "invalid api key"))
    done = synopsis(
        *SMALL_EVAL,
        "--model",
        "openai:m",
        "--base-url",
        llm_server.openai_url,
        "--seeds",
        "7,8,9",
        "--concurrency",
        "1",
        "--json",
        ok=False,
    )
    assert "401" in one_error_line(done)
    assert done.stdout == b""
    # One run in flight, whose summary may go out as two calls (a split turn); no more.
    assert len(llm_server.requests) <= 2


def test_compact_reports_retries_on_stderr_and_keeps_json_clean(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    path = tmp_path / "s.jsonl"
    write_session(path, seed=2, entries=300)
    llm_server.enqueue(Reply.error(529, "overloaded", retry_after=0))
    llm_server.set_default(Reply(text="## Goal\nGo on.\n\n## Next Steps\n- Test."))
    done = synopsis(
        "compact",
        path,
        "--keep-recent",
        "4000",
        "--model",
        "openai:m",
        "--base-url",
        llm_server.openai_url,
        "--json",
    )
    assert json.loads(done.stdout)["entryId"]
    stderr = done.stderr.decode()
    assert "retrying:" in stderr and "529" in stderr and "retry 1 of 3" in stderr
