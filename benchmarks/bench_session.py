#!/usr/bin/env python3
"""Session engine speed: open, parse, tree construction, path walk, context, estimates.

    python benchmarks/bench_session.py [FILE …] [--repeat N]

Without files: Pi's recorded sessions (when the shared fixtures are present) and the
100k-entry synthetic session (generated into bench-data/ on first use).

What each figure covers, to compare with the reference's columns:

- open: ``open_session(path)`` — read the file, parse it, build and check the tree
- parse: ``parse_session(bytes)`` — JSON lines to entries (and in-memory migration)
- construct: ``Session(header, entries)`` — id index and cycle check
- path walk: ``session.path()`` — root → leaf
- build context: ``session.build_context()`` — path walk plus context (as Pi's
  ``buildSessionContext``, which walks the path itself)
- estimate: per-message token estimates of every context message, and the context total
"""

from __future__ import annotations

import argparse
from pathlib import Path

from _common import REFERENCE_MS, Row, inputs, median_ms, name_of, print_table, repeats_for

from synopsis.session import Session, open_session, parse_session
from synopsis.tokens import estimate_context_tokens, estimate_tokens


def run(path: Path, repeat: int | None = None) -> list[Row]:
    name = name_of(path)
    small, big = (repeat, repeat) if repeat else (15, 3)
    runs = repeats_for(path, small, big)
    data = path.read_bytes()
    loaded = parse_session(data)
    session = Session(loaded.header, loaded.entries)
    messages = session.build_context().messages

    def estimate() -> int:
        per_message = [estimate_tokens(m) for m in messages]
        return estimate_context_tokens(messages, per_message).tokens

    measures = {
        "open": lambda: open_session(path),
        "parse": lambda: parse_session(data),
        "construct": lambda: Session(loaded.header, loaded.entries),
        "path walk": session.path,
        "build context": session.build_context,
        "estimate": estimate,
    }
    rows = []
    for measure, fn in measures.items():
        ms, count = median_ms(fn, runs, warmup=0 if runs < 5 else 1)
        rows.append(Row(name, measure, ms, count, REFERENCE_MS.get((name, measure))))
    facts = f"{len(session.entries):,} entries, {len(messages):,} msgs"
    rows[0] = Row(name, "open", rows[0].ms, rows[0].runs, rows[0].reference_ms, note=facts)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=None)
    args = parser.parse_args()
    rows = [row for path in (args.files or inputs()) for row in run(path, args.repeat)]
    print_table(rows)


if __name__ == "__main__":
    main()
