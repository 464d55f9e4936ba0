#!/usr/bin/env python3
"""Side by side with Pi 1.6.0: one whole process each, open + build context + prepare.

    python benchmarks/bench_pi.py [FILE] [--runs N] [--keep-recent K] [--reserve R]

Ours is ``tests/parity/driver.py prepare FILE --keep-recent K --reserve R`` in a fresh
interpreter (start-up, imports, reading, the tree, the projection, the cut and the
measures of the transcript to summarize). Pi's is ``pi_prepare.mjs``, our script that
asks Pi 1.6.0's ``SessionManager`` to open a copy of FILE (Pi may append a newline to what
it opens), build the session context and ``prepareCompaction`` with the same settings.
Pi's script does not render the transcript the driver measures (and hashes: on the 100k
session, 45 MB of text), so a third row times ``ours_prepare.py``, which does what Pi's
script does and no more. The runs alternate, driver, same work, Pi, so that a change in
the machine's load falls on all; the table has the medians of wall time, of CPU time
(user + system: steadier than the wall clock on a shared machine) and of peak resident
memory (``wait4``'s ``ru_maxrss``), the ratios Pi / ours, and the load average before and
after.

Pi is installed into a cache folder on first use (``tests/parity/pi16.py``); without
node or npm, or without network for the install, the comparison is skipped with a note.
Default input: the 100k-entry session ``bench-data/s1000-n100k.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from _common import big_session
from bench_process import DRIVER, ChildRun, run_child
from tests.parity.pi16 import PACKAGE, install_pi16

PROBE = Path(__file__).with_name("pi_prepare.mjs")
SAME_WORK = Path(__file__).with_name("ours_prepare.py")


@dataclass(frozen=True)
class SideBySide:
    """Medians of alternating runs of our driver and of Pi on one file."""

    input: str
    runs: int
    ours_ms: float
    pi_ms: float
    ours_cpu_ms: float
    pi_cpu_ms: float
    ours_mib: float
    pi_mib: float
    same_ms: float
    same_cpu_ms: float
    same_mib: float
    """``ours_prepare.py``: what Pi's script does, no transcript."""
    same_cut: bool
    """Did all choose the same first kept entry and count the same tokens before it?"""
    load_before: float
    load_after: float


def _cut(output: bytes) -> tuple[object, object]:
    result = json.loads(output.strip().splitlines()[-1]) if output.strip() else None
    if not isinstance(result, dict):
        return None, None
    return result.get("firstKeptEntryId"), result.get("tokensBefore")


def compare(path: Path, runs: int = 3, keep: int = 20000, reserve: int = 16384) -> SideBySide | str:
    """The side-by-side figures, or why Pi could not be run (a sentence)."""
    pi_dir = install_pi16()
    if isinstance(pi_dir, str):
        return pi_dir
    settings = [str(keep), str(reserve)]
    ours_argv = [sys.executable, str(DRIVER), "prepare", str(path)]
    ours_argv += ["--keep-recent", settings[0], "--reserve", settings[1]]
    load_before = os.getloadavg()[0]
    same_argv = [sys.executable, str(SAME_WORK), str(path), *settings]
    ours: list[ChildRun] = []
    same: list[ChildRun] = []
    pi: list[ChildRun] = []
    with tempfile.TemporaryDirectory(prefix="bench-pi-") as scratch:
        copy = Path(scratch) / path.name
        for _ in range(runs):
            ours.append(run_child(ours_argv))
            same.append(run_child(same_argv))
            shutil.copyfile(path, copy)  # a fresh copy each time: Pi may touch it
            pi.append(run_child(["node", str(PROBE), str(pi_dir), str(copy), *settings]))
    cuts = {_cut(run.output) for run in (*ours, *same, *pi)}
    return SideBySide(
        path.name,
        runs,
        statistics.median(r.wall_ms for r in ours),
        statistics.median(r.wall_ms for r in pi),
        statistics.median(r.cpu_ms for r in ours),
        statistics.median(r.cpu_ms for r in pi),
        statistics.median(r.rss_mib for r in ours),
        statistics.median(r.rss_mib for r in pi),
        statistics.median(r.wall_ms for r in same),
        statistics.median(r.cpu_ms for r in same),
        statistics.median(r.rss_mib for r in same),
        len(cuts) == 1,
        load_before,
        os.getloadavg()[0],
    )


def print_side_by_side(result: SideBySide | str, out: object = None) -> None:
    stream = out or sys.stdout
    if isinstance(result, str):
        print(f"Pi 1.6.0 side by side: skipped ({result})", file=stream)
        return
    print(
        f"{result.input}: open + build context + prepare, whole process, medians of "
        f"{result.runs} alternating runs (load average {result.load_before:.1f} → "
        f"{result.load_after:.1f})",
        file=stream,
    )
    rows = [
        ["", "time s", "cpu s", "peak MiB"],
        [
            "synopsis (driver.py prepare)",
            f"{result.ours_ms / 1000:.2f}",
            f"{result.ours_cpu_ms / 1000:.2f}",
            f"{result.ours_mib:.0f}",
        ],
        [
            "synopsis, Pi's work only (ours_prepare.py)",
            f"{result.same_ms / 1000:.2f}",
            f"{result.same_cpu_ms / 1000:.2f}",
            f"{result.same_mib:.0f}",
        ],
        [
            f"Pi 1.6.0 ({PACKAGE})",
            f"{result.pi_ms / 1000:.2f}",
            f"{result.pi_cpu_ms / 1000:.2f}",
            f"{result.pi_mib:.0f}",
        ],
        [
            "Pi / synopsis",
            f"{result.pi_ms / result.ours_ms:.2f}×",
            f"{result.pi_cpu_ms / result.ours_cpu_ms:.2f}×",
            f"{result.pi_mib / result.ours_mib:.2f}×",
        ],
        [
            "Pi / synopsis, Pi's work only",
            f"{result.pi_ms / result.same_ms:.2f}×",
            f"{result.pi_cpu_ms / result.same_cpu_ms:.2f}×",
            f"{result.pi_mib / result.same_mib:.2f}×",
        ],
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [
            row[0].ljust(widths[0]),
            *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)),
        ]
        print("  ".join(cells), file=stream)
    if not result.same_cut:
        print("warning: they chose different cuts (not the same work)", file=stream)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep-recent", type=int, default=20000)
    parser.add_argument("--reserve", type=int, default=16384)
    args = parser.parse_args()
    path = args.file or big_session()
    print_side_by_side(compare(path, args.runs, args.keep_recent, args.reserve))


if __name__ == "__main__":
    main()
