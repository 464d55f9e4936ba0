"""Parity with Pi's reference outputs (``../shared/fixtures/pi/expected/spec``).

Every session and edge case is run through the driver's commands and compared field by
field with what the reference produced. Skipped when the shared fixtures are absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.parity import driver

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "pi"
SPEC = FIXTURES / "expected" / "spec"

pytestmark = pytest.mark.skipif(not SPEC.is_dir(), reason="shared fixtures are not present")


def _cases() -> list[tuple[Path, Path, list[str]]]:
    cases = []
    if not SPEC.is_dir():
        return cases
    for session in sorted((FIXTURES / "sessions").glob("*.jsonl")):
        expected = SPEC / session.stem
        cases.append((session, expected, ["2000", "8000", "20000", "50000"]))
    for session in sorted((FIXTURES / "edge").glob("*.jsonl")):
        cases.append((session, SPEC / "edge" / session.stem, ["edge"]))
    return cases


CASES = _cases()
IDS = [str(case[0].relative_to(FIXTURES)) for case in CASES]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = driver.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _expect(expected_dir: Path, name: str) -> tuple[int, str, str]:
    rc_file = expected_dir / f"{name}.rc"
    rc = int(rc_file.read_text().strip()) if rc_file.exists() else 0
    stderr_file = expected_dir / f"{name}.stderr"
    stderr = stderr_file.read_text(encoding="utf-8") if stderr_file.exists() else ""
    suffix = ".txt" if name == "serialize" else ".json"
    output = expected_dir / f"{name}{suffix}"
    return rc, output.read_text(encoding="utf-8") if output.exists() else "", stderr


def _compare(name: str, expected_dir: Path, argv: list[str], capsys: Any) -> None:
    rc, out, err = _run(argv, capsys)
    want_rc, want_out, want_err = _expect(expected_dir, name)
    assert rc == want_rc, err
    if want_rc != 0:
        assert err.strip() == want_err.strip()
        assert out == ""
        return
    if name == "serialize":
        assert out == want_out
        return
    got = json.loads(out)
    want = json.loads(want_out)
    if isinstance(want, dict):
        for key in want:
            assert got.get(key) == want[key], f"{name}: field {key!r} differs"
    assert got == want


@pytest.mark.parametrize(("session", "expected", "keeps"), CASES, ids=IDS)
def test_context(session: Path, expected: Path, keeps: list[str], capsys: Any) -> None:
    _compare("context", expected, ["context", str(session)], capsys)


@pytest.mark.parametrize(("session", "expected", "keeps"), CASES, ids=IDS)
def test_serialize(session: Path, expected: Path, keeps: list[str], capsys: Any) -> None:
    _compare("serialize", expected, ["serialize", str(session)], capsys)


@pytest.mark.parametrize(("session", "expected", "keeps"), CASES, ids=IDS)
def test_prepare(session: Path, expected: Path, keeps: list[str], capsys: Any) -> None:
    for keep in ["200"] if keeps == ["edge"] else keeps:
        argv = ["prepare", str(session), "--keep-recent", keep, "--reserve", "16384"]
        _compare(f"prepare-k{keep}", expected, argv, capsys)


@pytest.mark.parametrize(("session", "expected", "keeps"), CASES, ids=IDS)
def test_cutpoints(session: Path, expected: Path, keeps: list[str], capsys: Any) -> None:
    for keep in ["100"] if keeps == ["edge"] else keeps:
        argv = ["cutpoints", str(session), "--keep-recent", keep]
        _compare(f"cutpoints-k{keep}", expected, argv, capsys)
