#!/usr/bin/env python3
"""Run every benchmark and print one table of medians, ours next to the reference.

    python benchmarks/run.py [--quick] [--repeat N] [--process-runs N] [--no-process]
                             [--no-pi] [--no-turn] [--no-embedded] [--no-cli]

Inputs: Pi's recorded sessions (when ``../shared/fixtures/pi`` is present) and the
100k-entry synthetic session ``bench-data/s1000-n100k.jsonl`` (generated on first use
with ``../shared/tools/gen_pi_session.py --seed 1000 --entries 100000``). ``--quick``
leaves out the 100k session and the whole-process runs.

First comes the side-by-side with Pi 1.6.0 itself on the 100k session
(``bench_pi.py``: open + build context + prepare, whole processes, alternating runs;
skipped with a note without node), the CLI's ``tree`` and ``context`` on it
(``bench_cli.py``, whole processes, unless ``--no-cli``), then the per-turn cost at 1k /
10k / 50k / 100k entries (``bench_turn.py``, when present), then the table of
in-process figures. The
embedded summarizer's throughput (``bench_embedded.py``, its own table) runs last
unless ``--no-embedded``.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import time
from pathlib import Path

import bench_compaction
import bench_pi
import bench_process
import bench_session
from _common import big_session, inputs, print_table


def _per_turn(enabled: bool) -> None:
    """The per-turn figures of ``bench_turn.py`` (the incremental context's benchmark)."""
    if not enabled:
        return
    try:
        import bench_turn
    except ImportError:
        print("\nper-turn cost: skipped (benchmarks/bench_turn.py is not present)")
        return
    print("\nper turn: append + build_context() + context tokens (bench_turn.py)", flush=True)
    bench_turn.print_figures(bench_turn.measure())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small inputs only")
    parser.add_argument("--repeat", type=int, default=None, help="runs per in-process figure")
    parser.add_argument("--process-runs", type=int, default=3, help="runs per driver command")
    parser.add_argument("--no-process", action="store_true", help="skip whole-process runs")
    parser.add_argument("--no-pi", action="store_true", help="skip the side-by-side with Pi")
    parser.add_argument("--no-turn", action="store_true", help="skip the per-turn figures")
    parser.add_argument("--no-embedded", action="store_true", help="skip bench_embedded.py")
    parser.add_argument("--no-cli", action="store_true", help="skip bench_cli.py")
    args = parser.parse_args()

    started = time.perf_counter()
    rows = []
    # Child processes first, while this process is small: a child's peak RSS as the kernel
    # reports it includes its parent's memory at the moment it was started.
    if not (args.quick or args.no_process):
        if not args.no_pi:
            print("… side by side with Pi 1.6.0", file=sys.stderr, flush=True)
            side = bench_pi.compare(big_session(), args.process_runs)
            bench_pi.print_side_by_side(side)
        print("… whole-process driver runs", file=sys.stderr, flush=True)
        process_rows = bench_process.run(big_session(), args.process_runs)
        if not args.no_cli:
            print("\nCLI human output (bench_cli.py)", flush=True)
            cli = Path(__file__).with_name("bench_cli.py")
            subprocess.run([sys.executable, str(cli), "--runs", str(args.process_runs)], check=True)
    else:
        process_rows = []
    _per_turn(not (args.quick or args.no_turn))
    for path in inputs(include_big=not args.quick):
        print(f"… {path.name}", file=sys.stderr, flush=True)
        rows += bench_session.run(path, args.repeat)
        rows += bench_compaction.run(path, args.repeat)
    rows += process_rows
    print(f"\npython {platform.python_version()} on {platform.machine()}, medians in ms")
    print_table(rows)
    embedded = Path(__file__).with_name("bench_embedded.py")
    if embedded.exists() and not args.no_embedded:
        print("\nembedded summarizer throughput (bench_embedded.py)", flush=True)
        options = ["--repeat", str(args.repeat)] if args.repeat else []
        subprocess.run([sys.executable, str(embedded), *options], check=True)
    print(f"(benchmarks took {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
