"""Writes that cannot lose or misplace entries, checked as a user meets them: real
``synopsis`` processes on real files, another real process appending at the same time,
real full and read-only file systems (mounted by the test where it may)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
import threading
from collections import Counter
from pathlib import Path

import pytest

from synopsis.session import open_session, read_session_file
from synopsis.session.jsonl import parse_session
from tests.cli._run import fill, one_error_line, remount_read_only, synopsis, tmpfs
from tests.llm_server import LLMServer, RecordedRequest, Reply
from tests.synthetic import write_session

CHECKPOINT = "## Goal\nKeep the refactor going.\n\n## Next Steps\n- Run the tests."
KEEP = ("--keep-recent", "4000")

# Appends three messages to the session at argv[1], printing each id once acknowledged.
APPENDER = textwrap.dedent(
    """
    import sys
    from synopsis.session import open_session
    session = open_session(sys.argv[1])
    for number in range(3):
        print(session.append_message({"role": "user", "content": f"meanwhile #{number}"}))
    """
)

V1 = (
    b'{"type":"session","id":"v1-session","timestamp":"2025-01-01T00:00:00Z","cwd":"/"}\n'
    + b"".join(
        json.dumps(
            {
                "type": "message",
                "timestamp": "2025-01-01T00:00:00Z",
                "message": {"role": role, "content": f"{role} says {'word ' * 300}{n}"},
            }
        ).encode()
        + b"\n"
        for n in range(12)
        for role in ("user", "assistant")
    )
)
"""A version 1 session (no ids), large enough to compact with ``--keep-recent 4000``."""


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("safe") / "generated.jsonl"
    write_session(path, seed=5, entries=300)
    return path.read_bytes()


def _copy(data: bytes, path: Path) -> Path:
    path.write_bytes(data)
    return path


def _model(server: LLMServer) -> tuple[str, ...]:
    return ("--model", "openai:test-model", "--base-url", server.openai_url)


# --- two writers ------------------------------------------------------------------------


def test_a_compaction_racing_appends_is_prepared_again_on_the_new_leaf(
    llm_server: LLMServer, generated: bytes, tmp_path: Path
) -> None:
    """While ``compact`` waits for its summary, another process appends three entries."""
    path = _copy(generated, tmp_path / "s.jsonl")
    acknowledged: list[str] = []
    once = threading.Lock()  # a split turn sends two summary requests at once

    def summarize(request: RecordedRequest) -> Reply:
        with once:
            if not acknowledged:  # the first summary request: the other writer strikes now
                done = subprocess.run(
                    [sys.executable, "-c", APPENDER, str(path)],
                    capture_output=True,
                    text=True,
                    check=True,
                    timeout=60,
                )
                acknowledged.extend(done.stdout.split())
        return Reply(text=CHECKPOINT)

    llm_server.set_default(summarize)
    done = synopsis("compact", path, *KEEP, *_model(llm_server), "--json")
    assert len(acknowledged) == 3
    summary_requests = len(llm_server.requests)
    assert summary_requests >= 2, "the compaction was not prepared again"

    session = open_session(path, strict=True)
    on_path = [entry["id"] for entry in session.path()]
    assert set(acknowledged) <= set(on_path), "an acknowledged entry fell off the path"
    compaction = session.require_entry(json.loads(done.stdout)["entryId"])
    assert compaction["parentId"] == acknowledged[-1]
    parents = Counter(e["parentId"] for e in session.entries if e["type"] == "compaction")
    assert all(count == 1 for count in parents.values())
    assert synopsis("doctor", path).returncode == 0


def test_doctor_reports_what_a_stale_compaction_leaves_behind(
    generated: bytes, tmp_path: Path
) -> None:
    """The file the race used to produce: a compaction on a parent another writer had
    already continued, then a second compaction on the same parent."""
    loaded = parse_session(generated)
    parent, first_kept = loaded.entries[-1]["id"], loaded.entries[-4]["id"]

    def line(entry_id: str, kind: str, **fields: object) -> bytes:
        entry = {"type": kind, "id": entry_id, "parentId": parent, "timestamp": "t", **fields}
        return json.dumps(entry).encode() + b"\n"

    checkpoint = {"summary": "stale", "firstKeptEntryId": first_kept, "tokensBefore": 1000}
    path = _copy(
        generated
        + line("lost-1", "message", message={"role": "user", "content": "acknowledged"})
        + line("stale-1", "compaction", **checkpoint)
        + line("stale-2", "compaction", **checkpoint),
        tmp_path / "raced.jsonl",
    )
    report = json.loads(synopsis("doctor", path, "--json", ok=False).stdout)
    kinds = Counter(finding["kind"] for finding in report["findings"])
    assert kinds["sibling-compaction"] == 1
    assert kinds["off-path-entries"] >= 2
    assert report["healthy"] is False


# --- files that changed under us --------------------------------------------------------


@pytest.mark.parametrize("change", ["replaced", "deleted"])
def test_a_file_that_changed_during_compaction_is_refused(
    llm_server: LLMServer, generated: bytes, tmp_path: Path, change: str
) -> None:
    path = _copy(generated, tmp_path / "s.jsonl")
    other_session = parse_session(generated).entries[:5]
    replacement = (
        b'{"type":"session","version":3,"id":"another","timestamp":"t","cwd":"/"}\n'
        + b"".join(json.dumps(e).encode() + b"\n" for e in other_session)
    )

    once = threading.Lock()

    def summarize(request: RecordedRequest) -> Reply:
        with once:
            if path.exists() and path.read_bytes() == generated:  # change it once
                change_file()
        return Reply(text=CHECKPOINT)

    def change_file() -> None:
        if change == "replaced":
            (tmp_path / "new.jsonl").write_bytes(replacement)
            os.replace(tmp_path / "new.jsonl", path)
        else:
            path.unlink()

    llm_server.set_default(summarize)
    error = one_error_line(synopsis("compact", path, *KEEP, *_model(llm_server), ok=False))
    assert change in error and "nothing was written" in error
    if change == "replaced":
        assert path.read_bytes() == replacement  # the other session is untouched
    else:
        assert not path.exists()  # no file holding a header and an orphan


def test_compact_on_a_symlinked_v1_file_migrates_the_target_and_keeps_a_backup(
    tmp_path: Path,
) -> None:
    target = _copy(V1, tmp_path / "real.jsonl")
    target.chmod(0o640)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target.name)
    done = synopsis("compact", link, "--keep-recent", "500")
    assert link.is_symlink() and link.resolve() == target.resolve()
    loaded = read_session_file(target, strict=True)
    assert loaded.version_before == 3 and loaded.entries[-1]["type"] == "compaction"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    backups = list(tmp_path.glob("link.jsonl.v1*.bak"))
    assert len(backups) == 1 and backups[0].read_bytes() == V1
    notice = done.stderr.decode()
    assert "version 3" in notice and backups[0].name in notice


def test_v1_ids_are_the_same_on_every_run(tmp_path: Path) -> None:
    path = _copy(V1, tmp_path / "v1.jsonl")
    first = json.loads(synopsis("tree", path, "--json").stdout)
    second = json.loads(synopsis("tree", path, "--json").stdout)
    assert first["entries"] == second["entries"]
    middle = first["entries"][5]["id"]
    context = json.loads(synopsis("context", path, "--leaf", middle, "--json").stdout)
    assert context["leafId"] == middle and context["messageCount"] == 6
    assert path.read_bytes() == V1


# --- all or nothing ---------------------------------------------------------------------


def test_a_full_disk_is_one_error_line_and_nothing_appended(
    generated: bytes, tmp_path: Path
) -> None:
    with tmpfs(tmp_path / "full", size="2m") as mounted:
        path = _copy(generated, mounted / "s.jsonl")
        fill(mounted)
        error = one_error_line(synopsis("compact", path, *KEEP, ok=False))
        assert "No space left on device" in error and "free some space" in error
        assert path.read_bytes() == generated
        out = mounted / "copy.jsonl"
        error = one_error_line(synopsis("migrate", path, "-o", out, ok=False))
        assert "No space left on device" in error
        assert sorted(p.name for p in mounted.iterdir()) == ["filler", "s.jsonl"]


def test_a_read_only_file_system_is_one_error_line(generated: bytes, tmp_path: Path) -> None:
    with tmpfs(tmp_path / "ro") as mounted:
        path = _copy(generated, mounted / "s.jsonl")
        _copy(V1, mounted / "v1.jsonl")
        remount_read_only(mounted)
        for args in (
            ("compact", path, *KEEP),
            ("compact", mounted / "v1.jsonl", "--keep-recent", "500"),
            ("migrate", path, "-o", mounted / "out.jsonl"),
            ("doctor", path, "--repair", "-o", mounted / "fixed.jsonl"),
        ):
            error = one_error_line(synopsis(*args, ok=False))
            assert "ead-only file system" in error, error
        assert path.read_bytes() == generated


def test_no_permission_is_one_error_line(generated: bytes, tmp_path: Path) -> None:
    path = _copy(generated, tmp_path / "s.jsonl")
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip("chattr +i is not available here (root ignores file permissions)")
    try:
        error = one_error_line(synopsis("compact", path, *KEEP, ok=False))
        assert "not permitted" in error.lower()
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=False)
    assert path.read_bytes() == generated


def test_bad_output_paths_are_one_error_line(generated: bytes, tmp_path: Path) -> None:
    path = _copy(generated, tmp_path / "s.jsonl")
    a_file = _copy(b"x", tmp_path / "plain-file")
    for out in (tmp_path / "missing" / "out.jsonl", a_file / "out.jsonl"):
        one_error_line(synopsis("migrate", path, "-o", out, ok=False))
        one_error_line(synopsis("doctor", path, "--repair", "-o", out, ok=False))
    error = one_error_line(
        synopsis("demo", "--entries", "200", "--out", tmp_path / "missing" / "d.jsonl", ok=False)
    )
    assert "does not exist" in error


@pytest.mark.parametrize("output", ["human", "json"])
def test_compact_with_a_lone_surrogate_succeeds_once(
    generated: bytes, tmp_path: Path, output: str
) -> None:
    """Half a surrogate pair in the part that is summarized (a truncated tool output)."""
    marker = b'"role":"user","content":[{"type":"text","text":"'
    assert marker in generated
    path = _copy(generated.replace(marker, marker + b"\\ud83d half a pair ", 1), tmp_path / "s")
    done = synopsis("compact", path, *KEEP, *(("--json",) if output == "json" else ()))
    text = done.stdout.decode("utf-8")  # valid UTF-8
    if output == "json":
        assert json.loads(text)["entryId"]
    else:
        # shown as U+FFFD, or escaped by the checkpoint itself (one_line): never raw
        assert "\ufffd half a pair" in text or "\\ud83d half a pair" in text
    compactions = [e for e in read_session_file(path).entries if e["type"] == "compaction"]
    assert len(compactions) == 1


# --- small promises ---------------------------------------------------------------------


def test_migrate_never_writes_the_input_and_needs_force_to_replace(
    generated: bytes, tmp_path: Path
) -> None:
    path = _copy(V1, tmp_path / "v1.jsonl")
    link = tmp_path / "link.jsonl"
    link.symlink_to(path)
    for out in (path, link, Path(os.path.relpath(path))):
        error = one_error_line(synopsis("migrate", path, "-o", out, ok=False))
        assert "input" in error
    assert path.read_bytes() == V1
    out = _copy(b"precious", tmp_path / "out.jsonl")
    error = one_error_line(synopsis("migrate", path, "-o", out, ok=False))
    assert "--force" in error and out.read_bytes() == b"precious"
    synopsis("migrate", path, "-o", out, "--force")
    assert read_session_file(out, strict=True).version_before == 3


@pytest.mark.parametrize("command", ["tree", "context", "plan", "compact"])
@pytest.mark.parametrize("content", [b"", b"\n  \n"])
def test_an_empty_file_is_not_a_session(command: str, content: bytes, tmp_path: Path) -> None:
    path = _copy(content, tmp_path / "empty.jsonl")
    error = one_error_line(synopsis(command, path, ok=False))
    assert "empty" in error
    assert path.read_bytes() == content


def test_doctor_repair_that_fixed_everything_exits_0(generated: bytes, tmp_path: Path) -> None:
    path = _copy(generated + b"{torn", tmp_path / "torn.jsonl")
    assert synopsis("doctor", path, ok=False).returncode == 1
    out = tmp_path / "fixed.jsonl"
    synopsis("doctor", path, "--repair", "-o", out)
    assert synopsis("doctor", out).returncode == 0
    error = one_error_line(synopsis("doctor", path, "--repair", "-o", out, ok=False))
    assert "--force" in error
    synopsis("doctor", path, "--repair", "-o", out, "--force")
