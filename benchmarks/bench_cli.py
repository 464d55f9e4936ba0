#!/usr/bin/env python3
"""Whole-process cost of the CLI's human output: ``synopsis tree`` and ``synopsis context``.

    python benchmarks/bench_cli.py [FILE] [--runs N]

Runs ``synopsis context`` on a two-entry file (the start-up cost: interpreter, imports,
one tiny session) and ``synopsis tree`` and ``synopsis context`` on FILE (default: the
100k-entry ``bench-data`` session, generated on first use), output to a file as when
piped, ``--runs`` times each in turn. Prints the median wall and CPU (user + system)
time and the peak resident memory of each. Goals (issue 16): start ≤ 0.15 s, tree and
context on 100k entries ≤ 3 s.

Run it from a small process (see ``bench_process.py``: a parent's memory counts in a
child's peak).

The package's bytecode is compiled first (``compileall``), as an installed copy has it:
with ``PYTHONDONTWRITEBYTECODE`` set (as on the machines these benchmarks run on) a
source checkout never caches it, and every start would compile the modules it imports
from source again (some 40 ms of the start-up, none of it the command's).
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import statistics
import sys
import tempfile
from pathlib import Path

from _common import big_session
from bench_process import ChildRun, run_child

SYNOPSIS = str(Path(sys.executable).with_name("synopsis"))

TINY = (
    b'{"type":"session","version":3,"id":"bench-tiny","timestamp":"2026-01-01T00:00:00Z",'
    b'"cwd":"/"}\n'
    b'{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z",'
    b'"message":{"role":"user","content":"hello","timestamp":1}}\n'
)


def compile_package() -> None:
    """Write the bytecode of the ``synopsis`` package next to its sources."""
    spec = importlib.util.find_spec("synopsis")
    if spec is not None and spec.submodule_search_locations:
        for folder in spec.submodule_search_locations:
            compileall.compile_dir(folder, quiet=1)


def measure(path: Path, runs: int) -> dict[str, list[ChildRun]]:
    """Each command's runs, the commands taken in turn so that load spreads over all."""
    with tempfile.TemporaryDirectory() as folder:
        tiny = Path(folder) / "tiny.jsonl"
        tiny.write_bytes(TINY)
        commands = {
            "context (2 entries)": ["context", str(tiny)],
            f"tree ({path.name})": ["tree", str(path)],
            f"context ({path.name})": ["context", str(path)],
        }
        results: dict[str, list[ChildRun]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, args in commands.items():
                results[name].append(run_child([SYNOPSIS, *args]))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    compile_package()
    results = measure(args.file or big_session(), args.runs)
    print(f"{'synopsis command':<36} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9}  (medians)")
    for name, runs in results.items():
        wall = statistics.median(r.wall_ms for r in runs) / 1000
        cpu = statistics.median(r.cpu_ms for r in runs) / 1000
        rss = max(r.rss_mib for r in runs)
        print(f"{name:<36} {wall:>8.2f} {cpu:>8.2f} {rss:>9.0f}  ({len(runs)} runs)")
    with open("/proc/loadavg") as load:
        print(f"load average: {' '.join(load.read().split()[:3])}")


if __name__ == "__main__":
    main()
