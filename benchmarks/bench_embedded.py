#!/usr/bin/env python3
"""Throughput of the embedded summarizer: MB of serialized transcript per second.

    python benchmarks/bench_embedded.py [FILE …] [--repeat N] [--entries N[,N…]] [--big]
                                        [--languages en,zh] [--modes history,update]

For each input, the messages a compaction would summarize (``prepare_compaction`` with
keepRecentTokens 20,000, plus a split turn's prefix) go through
``EmbeddedSummarizer`` in history mode and in update mode (with the first summary as the
previous one). The size is that of the transcript a model summarizer would read
(``serialize_conversation``), UTF-8 encoded, so the figure compares with any summarizer.

Each mode is timed twice: ``cold``, the scans of message text remembered from earlier
runs forgotten first (what one summarizer pass over new messages costs), and ``warm``,
with them remembered (what a second pass over the same messages costs: the guard's, in
every compaction).

Inputs: the largest recorded Pi session in ``../shared/fixtures/pi/sessions`` (when
present), sessions from ``tests.synthetic`` (English and Chinese, ``--entries`` each;
several sizes, ``--entries 2000,4000,8000,16000``, show how the cost grows: the
``ms/MB`` column stays level when it grows with the input), and with ``--big`` the
100k-entry ``bench-data`` session.

Times are medians of wall time and of this process's CPU time (on a shared machine the
CPU figure is the steadier one), with the MB per second of each and the CPU ms per MB.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import FIXTURES, big_session

from synopsis.compaction import CompactionSettings, prepare_compaction, serialize_conversation
from synopsis.messages import convert_to_llm
from synopsis.session import Session, open_session
from synopsis.state._memo import forget
from synopsis.summarizers.base import SummaryKind, SummaryRequest
from synopsis.summarizers.embedded import EmbeddedSummarizer

SETTINGS = CompactionSettings(keep_recent_tokens=20_000)


def _largest_fixture() -> Path | None:
    folder = FIXTURES / "sessions"
    if not folder.is_dir():
        return None
    files = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_size)
    return files[-1] if files else None


def _generated(
    entries: int, languages: tuple[str, ...] = ("en", "zh")
) -> list[tuple[str, list[Any]]]:
    try:
        from tests.synthetic import generate_session
    except ImportError:
        return []
    branches = []
    for language in languages:
        generated = generate_session(seed=7, entries=entries, language=language)
        session = Session(generated.header, generated.entries, duplicates="last-wins")
        branches.append((f"generated-{language}-n{entries}", session.path()))
    return branches


def _medians_ms(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``fn()`` over ``repeat`` runs after one warm-up;
    the collector runs between runs, never inside one."""
    fn()
    wall, cpu = [], []
    for _ in range(repeat):
        gc.collect()
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def _branch_of(path: Path) -> list[Any]:
    session = open_session(path, invalid_header="new-session", duplicates="last-wins")
    return session.path()


def measure(name: str, branch: list[Any], repeat: int, modes: tuple[str, ...]) -> None:
    preparation = prepare_compaction(branch, SETTINGS)
    if preparation is None:
        print(f"{name}: nothing to summarize", file=sys.stderr)
        return
    messages = preparation.messages_to_summarize + preparation.turn_prefix_messages
    transcript = serialize_conversation(convert_to_llm(messages))
    size_mb = len(transcript.encode("utf-8", "surrogatepass")) / 1e6
    summarizer = EmbeddedSummarizer()

    def run(request: SummaryRequest) -> str:
        return asyncio.run(summarizer.summarize(request)).text

    history = SummaryRequest(SummaryKind.HISTORY, transcript, messages)
    first = run(history)
    update = SummaryRequest(SummaryKind.UPDATE, transcript, messages, previous_summary=first)

    def cold(request: SummaryRequest) -> str:
        forget()
        return run(request)

    for mode, request in (("history", history), ("update", update)):
        if mode not in modes:
            continue
        for pass_, timed in (("cold", cold), ("warm", run)):
            ms, cpu = _medians_ms(lambda r=request, t=timed: t(r), repeat)  # type: ignore[misc]
            print(
                f"{name:<28} {mode:<8} {pass_:<5} {len(messages):>7} msgs {size_mb:>6.2f} MB  "
                f"wall {ms:>8.1f} ms {size_mb / (ms / 1000):>5.1f} MB/s  "
                f"cpu {cpu:>8.1f} ms {size_mb / (cpu / 1000):>5.1f} MB/s "
                f"{cpu / size_mb:>7.1f} ms/MB  "
                f"summary {len(first):>6} chars  ({repeat} runs)",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--entries", default="20000", help="entries per generated session (comma-separated sizes)"
    )
    parser.add_argument("--big", action="store_true", help="also the 100k-entry session")
    parser.add_argument("--languages", default="en,zh", help="of the generated sessions")
    parser.add_argument("--modes", default="history,update", help="summary modes to time")
    args = parser.parse_args()

    inputs: list[tuple[str, list[Any]]] = []
    files = list(args.files)
    if not files:
        largest = _largest_fixture()
        if largest is not None:
            files.append(largest)
        if args.big:
            files.append(big_session())
    inputs += [(path.name.removesuffix(".jsonl"), _branch_of(path)) for path in files]
    if not args.files:
        for entries in args.entries.split(","):
            inputs += _generated(int(entries), tuple(args.languages.split(",")))
    for name, branch in inputs:
        measure(name, branch, args.repeat, tuple(args.modes.split(",")))


if __name__ == "__main__":
    main()
