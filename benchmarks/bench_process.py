#!/usr/bin/env python3
"""Whole-process speed and memory of the parity driver, as a user would run it.

    python benchmarks/bench_process.py [FILE] [--runs N]

Runs ``tests/parity/driver.py context FILE`` and ``driver.py prepare FILE --keep-recent
20000 --reserve 16384`` as separate processes (interpreter start-up, imports, loading and
all), ``--runs`` times each, and reports the median wall time and the peak resident
memory of the child (``wait4``'s ``ru_maxrss``, the same figure ``/usr/bin/time -f %M``
prints). The reference: prepare 11.6 s / 1.39 GB, context 11.9 s / 1.21 GB.

Run it from a small process: Linux counts the parent's resident memory at the moment of
the ``exec`` in the child's peak, so a parent holding a loaded session inflates the figure.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from _common import REFERENCE_PROCESS, REPO, Row, big_session, name_of, print_table

DRIVER = REPO / "tests" / "parity" / "driver.py"

COMMANDS: dict[str, list[str]] = {
    "context": ["context"],
    "prepare": ["prepare", "--keep-recent", "20000", "--reserve", "16384"],
}


@dataclass(frozen=True)
class ChildRun:
    """What one child process cost, as ``wait4`` reports it, and what it printed."""

    wall_ms: float
    cpu_ms: float
    """User plus system time: on a shared machine, steadier than the wall clock."""
    rss_mib: float
    output: bytes


def run_child(argv: list[str]) -> ChildRun:
    """Run ``argv`` to its end and measure it (a failure is a ``RuntimeError``)."""
    with tempfile.TemporaryFile() as output, tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=output, stderr=errors)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own resource usage
        wall = (time.perf_counter() - start) * 1000
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            errors.seek(0)
            message = errors.read().decode(errors="replace").strip()
            raise RuntimeError(f"{' '.join(argv)} exited {child.returncode}: {message}")
        output.seek(0)
        cpu = (usage.ru_utime + usage.ru_stime) * 1000
        return ChildRun(wall, cpu, usage.ru_maxrss / 1024, output.read())  # maxrss is in KiB


def run(path: Path, runs: int = 3) -> list[Row]:
    rows = []
    for name, args in COMMANDS.items():
        command, *options = args
        argv = [sys.executable, str(DRIVER), command, str(path), *options]
        results = [run_child(argv) for _ in range(runs)]
        wall = statistics.median(r.wall_ms for r in results)
        rss = max(r.rss_mib for r in results)
        reference = REFERENCE_PROCESS.get(name) if path.stat().st_size > 50_000_000 else None
        rows.append(
            Row(
                name_of(path),
                f"driver.py {name} (process)",
                wall,
                runs,
                reference[0] if reference else None,
                rss,
                reference[1] if reference else None,
            )
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print_table(run(args.file or big_session(), args.runs))


if __name__ == "__main__":
    main()
