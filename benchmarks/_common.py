"""Shared pieces of the benchmark scripts: inputs, timing, the reference figures, the table.

Benchmarks are plain scripts (pytest does not collect them). Speed is reported, never
asserted: the numbers go into the closing notes next to the reference implementation's.
"""

from __future__ import annotations

import gc
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # the synthetic-session generator lives in tests/synthetic
    sys.path.append(str(REPO))
BENCH_DATA = REPO / "bench-data"
SHARED = REPO.parent / "shared"
FIXTURES = SHARED / "fixtures" / "pi"
GENERATOR = SHARED / "tools" / "gen_pi_session.py"

BIG_SEED = 1000
BIG_ENTRIES = 100_000
BIG_NAME = "s1000-n100k"

# Median milliseconds of the reference (Pi v0.58.3 on Node 20, same machine kind), from
# the fixtures README. Keys: (input name, measurement).
REFERENCE_MS: dict[tuple[str, str], float] = {
    ("large-session", "open"): 46.6,
    ("large-session", "parse"): 14.3,
    ("large-session", "build context"): 0.58,
    ("large-session", "path walk"): 0.16,
    ("large-session", "estimate"): 1.55,
    ("large-session", "prepare"): 0.51,
    ("large-session", "serialize"): 3.26,
    ("before-compaction", "open"): 95.3,
    ("before-compaction", "parse"): 31.3,
    ("before-compaction", "build context"): 0.61,
    ("before-compaction", "path walk"): 0.20,
    ("before-compaction", "estimate"): 1.30,
    ("before-compaction", "prepare"): 0.28,
    ("before-compaction", "serialize"): 3.38,
    (BIG_NAME, "open"): 6739.0,
    (BIG_NAME, "parse"): 4269.0,
    (BIG_NAME, "build context"): 800.0,
    (BIG_NAME, "path walk"): 760.0,
    (BIG_NAME, "estimate"): 108.0,
    (BIG_NAME, "prepare"): 57.0,
    (BIG_NAME, "serialize"): 345.0,
}

# Whole-process reference for the 100k session: (wall ms median, peak RSS in MB).
REFERENCE_PROCESS: dict[str, tuple[float, float]] = {
    "prepare": (11_600.0, 1390.0),
    "context": (11_900.0, 1210.0),
}


@dataclass(frozen=True)
class Row:
    """One measured figure, with the reference figure when there is one."""

    input: str
    measure: str
    ms: float
    runs: int
    reference_ms: float | None = None
    rss_mb: float | None = None
    reference_rss_mb: float | None = None
    note: str = ""


def big_session() -> Path:
    """The 100k-entry session, generated once into ``bench-data/`` (git-ignored)."""
    path = BENCH_DATA / f"{BIG_NAME}.jsonl"
    if path.exists():
        return path
    BENCH_DATA.mkdir(exist_ok=True)
    if GENERATOR.exists():
        print(f"generating {path} with {GENERATOR.name} …", file=sys.stderr)
        subprocess.run(
            [
                sys.executable,
                str(GENERATOR),
                "--seed",
                str(BIG_SEED),
                "--entries",
                str(BIG_ENTRIES),
                "-o",
                str(path),
            ],
            check=True,
        )
    else:  # no shared tools: our own generator (figures then do not compare directly)
        from tests.synthetic import write_session

        print(f"generating {path} with tests.synthetic …", file=sys.stderr)
        write_session(path, seed=BIG_SEED, entries=BIG_ENTRIES)
    return path


def fixture_sessions() -> list[Path]:
    """Pi's two recorded sessions, when the shared fixtures are present."""
    names = ["large-session.jsonl", "before-compaction.jsonl"]
    return [FIXTURES / "sessions" / n for n in names if (FIXTURES / "sessions" / n).exists()]


def inputs(include_big: bool = True) -> list[Path]:
    found = fixture_sessions()
    if include_big:
        found.append(big_session())
    return found


def name_of(path: Path) -> str:
    return path.name.removesuffix(".jsonl")


def median_ms(fn: Callable[[], Any], repeat: int, *, warmup: int = 1) -> tuple[float, int]:
    """Median wall time of ``fn()`` in milliseconds over ``repeat`` runs (after warm-up).

    The collector runs between runs, never inside one, so one run does not pay for the
    garbage of the previous.
    """
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), repeat


def repeats_for(path: Path, small: int, big: int) -> int:
    return big if path.stat().st_size > 50_000_000 else small


def _fmt_ms(value: float | None) -> str:
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 1:
        return f"{value:.1f}"
    return f"{value:.3f}"


def print_table(rows: Iterable[Row], out: Any = None) -> None:
    """A plain-text table: ours next to the reference, and the ratio."""
    out = out or sys.stdout
    rows = list(rows)
    header = ["input", "measure", "ours ms", "ref ms", "ref/ours", "ours MB", "ref MB", "runs"]
    table = [header]
    for row in rows:
        ratio = f"{row.reference_ms / row.ms:.1f}×" if row.reference_ms and row.ms > 0 else "—"
        table.append(
            [
                row.input,
                row.measure + (f" ({row.note})" if row.note else ""),
                _fmt_ms(row.ms),
                _fmt_ms(row.reference_ms),
                ratio,
                f"{row.rss_mb:,.0f}" if row.rss_mb is not None else "—",
                f"{row.reference_rss_mb:,.0f}" if row.reference_rss_mb is not None else "—",
                str(row.runs),
            ]
        )
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for number, line in enumerate(table):
        cells = [
            cell.ljust(widths[i]) if i < 2 else cell.rjust(widths[i]) for i, cell in enumerate(line)
        ]
        print("  ".join(cells).rstrip(), file=out)
        if number == 0:
            print("  ".join("-" * w for w in widths), file=out)
