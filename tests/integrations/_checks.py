"""Framework-neutral checks on what a model call received (independent of synopsis' code)."""

from __future__ import annotations

import math
from collections.abc import Iterable

RULE = "Never edit files under vendor/ and cite ticket QX-4471 in every commit message."
"""The rule planted in the first user message; it must reach late model calls verbatim."""


def chunk_text(n: int) -> str:
    """A tool result: ~700 characters of distinct, ordinary text."""
    words = " ".join(f"line{n}-{k} holds the value {n * 31 + k}" for k in range(22))
    return f"chunk {n}: {words}"


def rough_tokens(texts: Iterable[str]) -> int:
    """characters / 4, counted here rather than with synopsis' estimator."""
    return math.ceil(sum(len(t) for t in texts) / 4)


def paired(events: Iterable[tuple[str, str]]) -> bool:
    """``events`` are ("call", id) and ("result", id) in the order the model received them:
    every result must answer a call received before it."""
    calls: set[str] = set()
    for kind, call_id in events:
        if kind == "call":
            calls.add(call_id)
        elif call_id not in calls:
            return False
    return True
