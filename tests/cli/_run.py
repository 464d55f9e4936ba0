"""Running the real ``synopsis`` executable, and the file systems the write tests need."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

SYNOPSIS = str(Path(sys.executable).parent / "synopsis")


def synopsis(
    *args: str | Path, ok: bool | None = True, timeout: float = 120
) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI; ``ok=True`` expects exit 0, ``False`` a failure, ``None`` either."""
    environment = {
        k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_"))
    }
    environment["COLUMNS"] = "200"
    done = subprocess.run(
        [SYNOPSIS, *map(str, args)],
        capture_output=True,
        timeout=timeout,
        check=False,
        env=environment,
    )
    if ok is not None:
        assert (done.returncode == 0) == ok, done.stdout + done.stderr
    return done


def one_error_line(done: subprocess.CompletedProcess[bytes]) -> str:
    """The single ``error:`` line of a failed run (exit 2, no traceback)."""
    assert done.returncode == 2, done.stderr
    text = done.stderr.decode("utf-8")
    errors = [line for line in text.splitlines() if line.startswith("error")]
    assert len(errors) == 1 and errors[0].startswith("error: "), text
    assert "Traceback" not in text and "│" not in text, text
    return errors[0]


@contextmanager
def tmpfs(where: Path, *, size: str = "1m") -> Iterator[Path]:
    """A fresh tmpfs mounted at ``where`` (skips the test where mounting is not allowed)."""
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def remount_read_only(where: Path) -> None:
    done = subprocess.run(
        ["mount", "-o", "remount,ro", str(where)], capture_output=True, check=False
    )
    if done.returncode != 0:
        pytest.skip(f"cannot remount read-only: {done.stderr.decode(errors='replace').strip()}")


def fill(directory: Path) -> None:
    """Fill the file system holding ``directory`` to the last byte."""
    block = b"\0" * 4096
    with open(directory / "filler", "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(block)
        except OSError:
            pass
        try:
            while True:
                handle.write(b"\0")
        except OSError:
            pass
