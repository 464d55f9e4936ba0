"""What durable appends cost: one message appended to a session file, fsync on and off.

    .venv/bin/python benchmarks/bench_durability.py [--appends N] [--dir DIR]

Appends ``N`` small messages through :func:`synopsis.open_session` (the path every
writer takes: lock, read what others appended, write one line, fsync when durable) and
reports the median and 95th percentile per append, with ``durable=True`` (the default)
and ``durable=False``. ``--dir`` picks the file system (the default is a temporary
directory, which may be a tmpfs where fsync costs nothing: measure on the disk the
sessions live on). Also times one migration rewrite (v1 → v3, temporary file, fsync of
file and directory) of a 2,000-entry file both ways.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from synopsis.session import open_session


def _append_times(path: Path, appends: int, *, durable: bool) -> list[float]:
    session = open_session(path, create=True, durable=durable)
    session.append_message({"role": "user", "content": "first"})
    times = []
    for number in range(appends):
        began = time.perf_counter()
        session.append_message({"role": "user", "content": f"message {number} " + "x" * 200})
        times.append((time.perf_counter() - began) * 1000)
    return times


def _v1_bytes(entries: int) -> bytes:
    header = {"type": "session", "id": "bench", "timestamp": "t", "cwd": "/"}
    lines = [json.dumps(header)]
    lines += [
        json.dumps(
            {"type": "message", "timestamp": "t", "message": {"role": "user", "content": "x" * 300}}
        )
        for _ in range(entries)
    ]
    return ("\n".join(lines) + "\n").encode()


def _rewrite_ms(directory: Path, *, durable: bool) -> float:
    path = directory / f"v1-{durable}.jsonl"
    path.write_bytes(_v1_bytes(2000))
    session = open_session(path, durable=durable)
    began = time.perf_counter()
    session.append_message({"role": "user", "content": "triggers the v3 rewrite"})
    return (time.perf_counter() - began) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=300)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as name:
        directory = Path(name)
        print(f"file system of {directory}; {args.appends} appends of a ~250-byte message")
        print(f"{'durable':>8} {'median ms':>10} {'p95 ms':>8} {'rewrite ms':>11}")
        for durable in (True, False):
            times = sorted(
                _append_times(directory / f"s-{durable}.jsonl", args.appends, durable=durable)
            )
            p95 = times[int(0.95 * (len(times) - 1))]
            rewrite = _rewrite_ms(directory, durable=durable)
            print(f"{durable!s:>8} {statistics.median(times):>10.3f} {p95:>8.3f} {rewrite:>11.1f}")


if __name__ == "__main__":
    main()
