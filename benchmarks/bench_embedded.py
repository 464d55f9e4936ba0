#!/usr/bin/env python3
"""Throughput of the embedded summarizer: MB of serialized transcript per second.

    python benchmarks/bench_embedded.py [FILE …] [--repeat N] [--entries N] [--big]

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
present), sessions from ``tests.synthetic`` (English and Chinese, ``--entries`` each),
and with ``--big`` the 100k-entry ``bench-data`` session.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from _common import FIXTURES, big_session, median_ms

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


def _generated(entries: int) -> list[tuple[str, list[Any]]]:
    try:
        from tests.synthetic import generate_session
    except ImportError:
        return []
    branches = []
    for language in ("en", "zh"):
        generated = generate_session(seed=7, entries=entries, language=language)
        session = Session(generated.header, generated.entries, duplicates="last-wins")
        branches.append((f"generated-{language}-n{entries}", session.path()))
    return branches


def _branch_of(path: Path) -> list[Any]:
    session = open_session(path, invalid_header="new-session", duplicates="last-wins")
    return session.path()


def measure(name: str, branch: list[Any], repeat: int) -> None:
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
        for pass_, timed in (("cold", cold), ("warm", run)):
            ms, runs = median_ms(lambda r=request, t=timed: t(r), repeat)  # type: ignore[misc]
            print(
                f"{name:<28} {mode:<8} {pass_:<5} {len(messages):>7} msgs {size_mb:>8.2f} MB "
                f"{ms:>9.1f} ms  {size_mb / (ms / 1000):>7.1f} MB/s  "
                f"summary {len(first):>6} chars  ({runs} runs)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--entries", type=int, default=20_000, help="entries per generated one")
    parser.add_argument("--big", action="store_true", help="also the 100k-entry session")
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
        inputs += _generated(args.entries)
    for name, branch in inputs:
        measure(name, branch, args.repeat)


if __name__ == "__main__":
    main()
