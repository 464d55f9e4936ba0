#!/usr/bin/env python3
"""Cost of one agent turn as the session grows: append, build the context, size it.

    python benchmarks/bench_turn.py [--sizes 1000,10000,50000,100000] [--turns N]

Before every model call :class:`synopsis.agent.AgentSession` appends the last message,
builds the context at the leaf and sizes it (``current_context_tokens``). One turn here
is exactly that: ``session.append_message(m)``, ``session.build_context()``, then
``session.context_tokens()`` (``current_context_tokens`` with Pi's estimate, which the
session keeps up to date as it grows). The last column adds reading the context's
messages (``current_context_tokens(context.messages, ...)``): the list is copied on
first read, as every model request must send it. The sessions are the
synthetic generator's (``tests.synthetic``, seed 1000), built in memory; the appended
messages cycle through a user prompt, an assistant reply with usage and a tool call,
and its tool result (the order of a real loop). Figures are medians over ``--turns``
turns, in milliseconds; :func:`measure` returns them for ``run.py``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import _common  # noqa: F401  (puts the repository on sys.path for tests.synthetic)
from tests.synthetic import generate_session

from synopsis.session import Session
from synopsis.tokens import current_context_tokens

SIZES = (1_000, 10_000, 50_000, 100_000)
SEED = 1000


@dataclass(frozen=True)
class TurnFigure:
    entries: int
    median_ms: float
    p90_ms: float
    turns: int
    read_ms: float
    """Median of a turn that also reads ``context.messages`` (a copy of the list, which
    every model request makes anyway) and sizes it with the pure function."""


def _turn_messages(turn: int) -> list[dict[str, Any]]:
    """The three messages of one loop round: prompt, reply with a tool call, result."""
    stamp = 1_800_000_000_000 + turn
    return [
        {"role": "user", "content": [{"type": "text", "text": f"step {turn}"}], "timestamp": stamp},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Reading the file."},
                {"type": "toolCall", "id": f"c{turn}", "name": "read", "arguments": {"path": "a"}},
            ],
            "provider": "bench",
            "model": "bench-1",
            "usage": {"input": 1000 + turn, "output": 20, "totalTokens": 1020 + turn},
            "stopReason": "toolUse",
            "timestamp": stamp,
        },
        {
            "role": "toolResult",
            "toolCallId": f"c{turn}",
            "toolName": "read",
            "content": [{"type": "text", "text": "x = 1\n" * 20}],
            "isError": False,
            "timestamp": stamp,
        },
    ]


def _median_turn(session: Session, messages: list[dict[str, Any]], read: bool) -> list[float]:
    times: list[float] = []
    gc.collect()
    for message in messages:
        start = time.perf_counter()
        session.append_message(message)  # type: ignore[arg-type]
        context = session.build_context()
        if read:
            current_context_tokens(context.messages, context.new_messages_start)
        else:
            session.context_tokens()  # current_context_tokens, kept by the session
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times)


def measure_size(entries: int, turns: int = 300) -> TurnFigure:
    generated = generate_session(seed=SEED, entries=entries)
    session = Session(generated.header, generated.entries)  # type: ignore[arg-type]
    session.build_context()  # the loop has built it once before its first turn
    session.context_tokens()
    messages = [m for turn in range(turns) for m in _turn_messages(turn)][:turns]
    times = _median_turn(session, messages, read=False)
    read = _median_turn(session, messages, read=True)
    return TurnFigure(
        entries,
        statistics.median(times),
        times[int(len(times) * 0.9)],
        turns,
        statistics.median(read),
    )


def measure(sizes: Sequence[int] = SIZES, turns: int = 300) -> list[TurnFigure]:
    """Per-turn figures at each session size (what ``make bench`` prints)."""
    return [measure_size(size, turns) for size in sizes]


def print_figures(figures: Sequence[TurnFigure]) -> None:
    base = figures[0].median_ms if figures else 0.0
    print("entries   per turn ms (median)   p90 ms   × smallest   + messages read ms   turns")
    for figure in figures:
        ratio = figure.median_ms / base if base else 0.0
        print(
            f"{figure.entries:>7,}   {figure.median_ms:>20.4f}   {figure.p90_ms:>6.4f}"
            f"   {ratio:>10.1f}   {figure.read_ms:>18.4f}   {figure.turns:>5}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--turns", type=int, default=300)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",") if size]
    print_figures(measure(sizes, args.turns))


if __name__ == "__main__":
    main()
