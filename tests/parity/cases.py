"""The Pi 1.6.0 reference cases (``../shared/fixtures/pi16/``) and how an output is compared.

Shared by the parity tests and ``score.py``. Every case is one input and one expected
output file (``context.json``, ``prepare-k2000.json``, ``serialize.txt``, …); the driver's
output for it is compared exactly (JSON field by field, the transcript byte for byte), and
where the reference exited with a non-zero status the driver must exit the same way with
an ``error:`` line and nothing on stdout.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.parity import driver

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "pi16"
INDEX = FIXTURES / "index.json"


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    """The input's name in ``index.json`` (``edge/…`` for edge cases)."""
    kind: str
    input: Path
    output: str
    """The expected output's file name, e.g. ``prepare-k2000.json``."""

    @property
    def expected_dir(self) -> Path:
        return FIXTURES / "expected" / self.name

    @property
    def stem(self) -> str:
        return self.output.rsplit(".", 1)[0]

    @property
    def command(self) -> str:
        return self.stem.split("-", 1)[0]

    def argv(self) -> list[str]:
        argv = [self.command, str(self.input)]
        if self.command == "prepare":
            argv += ["--keep-recent", self.stem.split("-k", 1)[1], "--reserve", "16384"]
        elif self.command == "cutpoints":
            argv += ["--keep-recent", self.stem.split("-k", 1)[1]]
        return argv

    @property
    def id(self) -> str:
        return f"{self.name}:{self.stem}"


def cases() -> list[Case]:
    """Every (input, expected output) pair of the index, or none without the fixtures."""
    if not INDEX.is_file():
        return []
    index = json.loads(INDEX.read_text(encoding="utf-8"))
    return [
        Case(item["name"], item["kind"], (FIXTURES / item["input"]).resolve(), output)
        for item in index["inputs"]
        for output in item["outputs"]
    ]


def run_driver(argv: list[str]) -> tuple[int, bytes, str]:
    """Run the driver in this process: (exit status, stdout bytes, stderr text)."""
    out = io.BytesIO()
    err = io.StringIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8")
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(err):
        code = driver.main(argv)
        stdout.flush()
    return code, out.getvalue(), err.getvalue()


def _expected(case: Case) -> tuple[int, bytes]:
    rc_file = case.expected_dir / f"{case.stem}.rc"
    rc = int(rc_file.read_text().strip()) if rc_file.exists() else 0
    output = case.expected_dir / case.output
    return rc, output.read_bytes() if output.exists() else b""


def mismatch(case: Case) -> str | None:
    """Why the driver's output differs from the reference for ``case``, or ``None``."""
    try:
        code, out, err = run_driver(case.argv())
    except Exception as error:  # a crash is a mismatch to report, not to stop the scoring
        return f"crash: {type(error).__name__}: {error}"
    want_rc, want = _expected(case)
    if code != want_rc:
        return f"exit {code}, expected {want_rc} ({err.strip()[:200]})"
    if want_rc != 0:
        if out or not err.startswith("error: "):
            return "expected nothing on stdout and an 'error:' line"
        return None
    if case.command == "serialize":
        if out != want:
            return f"serialized text differs ({len(out)} bytes, expected {len(want)})"
        return None
    got: Any = json.loads(out)
    expected: Any = json.loads(want)
    if got == expected:
        return None
    if isinstance(expected, dict) and isinstance(got, dict):
        keys = [k for k in expected if got.get(k) != expected[k]]
        keys += [k for k in got if k not in expected]
        return "fields differ: " + ", ".join(keys)
    return f"got {str(got)[:80]}, expected {str(expected)[:80]}"


if __name__ == "__main__":  # pragma: no cover - a convenience for one case
    for found in cases():
        if found.id in sys.argv[1:]:
            print(found.id, mismatch(found))
