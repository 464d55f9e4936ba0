#!/usr/bin/env python3
"""Compaction preparation speed: cut point, prepare, serialize.

    python benchmarks/bench_compaction.py [FILE …] [--repeat N] [--keep-recent N]

- cut point: ``plan_cut(branch, settings)`` — the range and the cut alone
- prepare: ``prepare_compaction(branch, settings)`` (keep 20,000, reserve 16,384)
- serialize: the summarizer's transcript of the whole context
  (``serialize_conversation(convert_to_llm(messages))``), as the reference measured it
- serialize summarized: the transcript of the messages the preparation would summarize
"""

from __future__ import annotations

import argparse
from pathlib import Path

from _common import REFERENCE_MS, Row, inputs, median_ms, name_of, print_table, repeats_for

from synopsis.compaction import (
    CompactionSettings,
    plan_cut,
    prepare_compaction,
    serialize_conversation,
)
from synopsis.messages import convert_to_llm
from synopsis.session import open_session


def run(path: Path, repeat: int | None = None, keep_recent: int = 20_000) -> list[Row]:
    name = name_of(path)
    small, big = (repeat, repeat) if repeat else (15, 5)
    runs = repeats_for(path, small, big)
    session = open_session(path)
    branch = session.path()
    messages = session.build_context().messages
    settings = CompactionSettings(keep_recent_tokens=keep_recent, reserve_tokens=16_384)
    preparation = prepare_compaction(branch, settings)
    to_summarize = preparation.messages_to_summarize if preparation is not None else []

    measures = {
        "cut point": lambda: plan_cut(branch, settings),
        "prepare": lambda: prepare_compaction(branch, settings),
        "serialize": lambda: serialize_conversation(convert_to_llm(messages)),
        "serialize summarized": lambda: serialize_conversation(convert_to_llm(to_summarize)),
    }
    rows = []
    for measure, fn in measures.items():
        ms, count = median_ms(fn, runs)
        rows.append(Row(name, measure, ms, count, REFERENCE_MS.get((name, measure))))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=None)
    parser.add_argument("--keep-recent", type=int, default=20_000)
    args = parser.parse_args()
    rows = [
        row for path in (args.files or inputs()) for row in run(path, args.repeat, args.keep_recent)
    ]
    print_table(rows)


if __name__ == "__main__":
    main()
