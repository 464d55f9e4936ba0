"""`synopsis doctor`: every planted defect is found, and a repaired copy loads strictly.

The library functions are checked directly; the command line is run as a real process
(the installed ``synopsis`` console script).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from synopsis.errors import SessionFormatError
from synopsis.session import open_session, parse_session
from synopsis.session.doctor import diagnose, diagnose_bytes, repair, repair_bytes
from synopsis.session.tree import Session
from tests.reliability._damage import PLANTERS, Draft, all_defects, plant_everything
from tests.reliability._sessions import SESSION_ID

CASES = [*PLANTERS, "all"]


def _synopsis() -> str:
    beside = Path(sys.executable).parent / "synopsis"
    found = str(beside) if beside.exists() else shutil.which("synopsis")
    if found is None:
        pytest.skip("the synopsis console script is not installed")
    return found


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_synopsis(), "doctor", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "240"},
    )


def _draft(case: str) -> tuple[Draft, list[bytes]]:
    """The damaged draft, and the lines of the healthy session the damage left untouched."""
    draft = Draft.healthy()
    originals = {id(line): line.data for line in draft.lines}
    (plant_everything if case == "all" else PLANTERS[case])(draft)
    return draft, [line.data for line in draft.lines if originals.get(id(line)) == line.data]


def _expected(draft: Draft) -> set[tuple[str, int | None, str | None]]:
    return {
        (e.kind, draft.line_number(e.line) if e.line is not None else None, e.entry_id)
        for e in draft.expected
    }


def _found(findings: list[dict[str, Any]]) -> set[tuple[str, int | None, str | None]]:
    return {(f["kind"], f["line"], f["entryId"]) for f in findings}


def _healthy_ids() -> set[str]:
    return {value["id"] for _, value in Draft.healthy().entries()}


UNREPAIRABLE = {
    "invalid-field",
    "invalid-header",
    "missing-first-kept",
    "off-path-entries",
    "sibling-compaction",
    "first-kept-off-path",
    "orphan-tool-result",
}
"""Problems repair reports but leaves alone: fixing them would mean inventing data."""


def _assert_repaired(repaired: bytes, untouched: list[bytes]) -> None:
    """Strict loading works, every healthy entry is there, untouched lines are unchanged."""
    loaded = parse_session(repaired, strict=True)
    Session(loaded.header, loaded.entries)
    assert _healthy_ids() <= {entry["id"] for entry in loaded.entries}
    lines = set(repaired.split(b"\n"))
    assert [line for line in untouched if line not in lines] == []
    assert {f.kind for f in diagnose_bytes(repaired).problems} <= UNREPAIRABLE


# --- the library ------------------------------------------------------------------------


def test_a_healthy_session_has_no_findings() -> None:
    report = diagnose_bytes(Draft.healthy().to_bytes())
    assert report.findings == []
    assert report.healthy


@pytest.mark.parametrize("case", CASES)
def test_diagnose_finds_exactly_the_planted_defects(case: str) -> None:
    draft, untouched = _draft(case)
    report = diagnose_bytes(draft.to_bytes())
    assert _found([f.to_json() for f in report.findings]) == _expected(draft)
    assert not report.healthy
    repaired, repair_report = repair_bytes(draft.to_bytes())
    _assert_repaired(repaired, untouched)
    assert {f.kind for f in repair_report.remaining} <= UNREPAIRABLE


def test_repair_reports_what_it_did() -> None:
    draft = all_defects()
    _, report = repair_bytes(draft.to_bytes())
    planted = {e.kind: e for e in draft.expected}
    assert report.header_replaced
    for kind in ("unparsable-line", "torn-line", "invalid-entry", "duplicate-id"):
        line = planted[kind].line
        assert line is not None
        assert draft.line_number(line) in report.dropped_lines
    assert {"loop-a", planted["orphan-parent"].entry_id} <= set(report.made_root)


def test_repair_copies_untouched_lines_byte_for_byte() -> None:
    """CRLF line ends and odd number spellings survive a repair unchanged; a BOM goes."""
    healthy = Draft.healthy().to_bytes()
    lines = healthy.split(b"\n")[:-1]
    lines[3] = lines[3].replace(b'"timestamp"', b'"n":1.0e0,"timestamp"', 1)
    data = b"\xef\xbb\xbf" + b"\r\n".join(lines) + b"\r\n" + b"garbage\r\n"
    assert diagnose_bytes(data).findings[0].kind == "byte-order-mark"
    repaired, report = repair_bytes(data)
    assert repaired == b"\r\n".join(lines) + b"\r\n"
    assert report.dropped_lines == [len(lines) + 1]
    assert report.bom_removed


def test_a_complete_last_line_without_newline_gets_one() -> None:
    healthy = Draft.healthy().to_bytes()
    report = diagnose_bytes(healthy[:-1])
    assert [(f.kind, f.severity, f.repair) for f in report.findings] == [
        ("torn-line", "warning", "add-newline")
    ]
    repaired, _ = repair_bytes(healthy[:-1])
    assert repaired == healthy


def test_version_1_file_is_repaired_into_the_current_version() -> None:
    data = (
        b'{"type":"session","id":"old","timestamp":"t","cwd":"/"}\n'
        b'{"type":"message","timestamp":"t","message":{"role":"user","content":"hi"}}\n'
        b"not json\n"
        b'{"type":"message","timestamp":"t","message":{"role":"assistant","content":[]}}\n'
    )
    report = diagnose_bytes(data)
    assert [f.kind for f in report.findings] == ["old-version", "unparsable-line"]
    assert all(f.entry_id is None for f in report.findings)  # v1 ids are made up on load
    repaired, repair_report = repair_bytes(data)
    assert repair_report.converted_from_version == 1
    loaded = parse_session(repaired, strict=True)
    assert loaded.version_before == 3
    assert [e["message"]["role"] for e in loaded.entries] == ["user", "assistant"]


def test_version_1_file_without_its_header_keeps_its_entries() -> None:
    data = (
        b'{"type":"message","timestamp":"t","message":{"role":"user","content":"hi"}}\n'
        b'{"type":"message","timestamp":"t","message":{"role":"assistant","content":[]}}\n'
    )
    repaired, report = repair_bytes(data)
    assert report.header_replaced
    assert len(parse_session(repaired, strict=True).entries) == 2


def test_repair_never_writes_the_input(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(all_defects().to_bytes())
    before = path.read_bytes()
    with pytest.raises(SessionFormatError):
        repair(path, path)
    with pytest.raises(SessionFormatError):
        repair(path, tmp_path / "." / "s.jsonl")
    link = tmp_path / "link.jsonl"
    link.symlink_to(path)
    with pytest.raises(SessionFormatError):
        repair(path, link)
    diagnose(path)
    assert path.read_bytes() == before


# --- the command line -------------------------------------------------------------------


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", CASES)
def test_cli_finds_every_planted_defect_and_repairs(case: str, tmp_path: Path) -> None:
    draft, untouched = _draft(case)
    path = tmp_path / "damaged.jsonl"
    out = tmp_path / "repaired.jsonl"
    path.write_bytes(draft.to_bytes())
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    result = _run(path, "--json", "--repair", "-o", out)
    document = json.loads(result.stdout)
    # 0: the copy is repaired; 1: problems remain that repair cannot fix.
    assert result.returncode == (1 if document["repair"]["remaining"] else 0), result.stderr
    assert document["healthy"] is False
    assert _expected(draft) <= _found(document["findings"])
    assert document["repair"]["output"] == str(out)
    _assert_repaired(out.read_bytes(), untouched)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


@pytest.mark.timeout(60)
def test_cli_table_names_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(all_defects().to_bytes())
    result = _run(path)
    assert result.returncode == 1, result.stderr
    for kind in PLANTERS:
        if kind != "invalid-header":  # the header is gone altogether in this file
            assert kind in result.stdout
    assert "--repair -o OUT" in result.stdout


@pytest.mark.timeout(60)
def test_cli_healthy_file_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "healthy.jsonl"
    path.write_bytes(Draft.healthy().to_bytes())
    result = _run(path)
    assert result.returncode == 0, result.stderr
    assert "healthy" in result.stdout
    document = json.loads(_run(path, "--json").stdout)
    assert document["healthy"] is True and document["findings"] == []
    out = tmp_path / "copy.jsonl"
    assert _run(path, "--repair", "-o", out).returncode == 0
    assert out.read_bytes() == path.read_bytes()
    assert open_session(out).session_id == SESSION_ID


@pytest.mark.timeout(60)
def test_cli_usage_and_io_errors_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(all_defects().to_bytes())
    before = path.read_bytes()
    for args in (
        [path, "--repair"],
        [path, "-o", tmp_path / "x.jsonl"],
        [path, "--repair", "-o", path],
        [tmp_path / "missing.jsonl"],
        [tmp_path],
        [path, "--repair", "-o", tmp_path / "no-such-dir" / "out.jsonl"],
    ):
        result = _run(*args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert "error:" in result.stderr
        assert "Traceback" not in result.stderr
    assert path.read_bytes() == before


@pytest.mark.timeout(60)
def test_cli_prints_hostile_ids_without_crashing(tmp_path: Path) -> None:
    """Ids with lone surrogates and control characters: shown escaped, exact in JSON."""
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(
        b'{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}\n'
        b'{"type":"custom","id":"\\ud800\\u001b[31m","parentId":"\\udc00",'
        b'"timestamp":"t","customType":"c"}\n'
        b'{"type":"custom","id":"\\ud800\\u001b[31m","parentId":null,'
        b'"timestamp":"t","customType":"c"}\n'
    )
    table = _run(path)
    assert table.returncode == 1, table.stderr
    assert "duplicate-id" in table.stdout and "\x1b[31m" not in table.stdout
    result = _run(path, "--json")
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)["findings"]
    assert {(f["kind"], f["entryId"]) for f in findings} == {
        ("orphan-parent", "\ud800\x1b[31m"),
        ("duplicate-id", "\ud800\x1b[31m"),
    }
