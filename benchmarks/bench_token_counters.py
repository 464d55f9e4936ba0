#!/usr/bin/env python3
"""How far each token estimate is from tiktoken's count on real CJK text, and its speed.

    python benchmarks/bench_token_counters.py [--locale-dir /usr/share/locale]

The text is the translations in the machine's gettext catalogs (``LC_MESSAGES/*.mo`` of
zh_CN, zh_TW, ja and ko: real translated program messages, mixed with the ASCII that
programs print — formats, options, paths — much as agent sessions mix prose and code).
Each translated string is one user message. For each language: the error of the total,
(estimate − exact) / exact, and the median error of single messages of 20+ tokens,
against tiktoken's ``cl100k_base`` (the encoding that installs offline). Needs the
``tiktoken`` extra; prints nothing useful without catalogs.
"""

from __future__ import annotations

import argparse
import gettext
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from synopsis.token_counters import token_counter
from synopsis.tokens import CJK_ESTIMATE, PI_ESTIMATE, TokenCounter

LANGUAGES = ("zh_CN", "zh_TW", "ja", "ko")


def catalog_texts(locale_dir: Path, language: str) -> list[str]:
    texts: list[str] = []
    for path in sorted((locale_dir / language / "LC_MESSAGES").glob("*.mo")):
        try:
            with path.open("rb") as handle:
                catalog: dict[Any, Any] = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
        except (OSError, ValueError, UnicodeDecodeError):
            continue
        texts += [v for k, v in catalog.items() if k and isinstance(v, str) and v.strip()]
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locale-dir", type=Path, default=Path("/usr/share/locale"))
    args = parser.parse_args()
    exact_counter = token_counter("tiktoken")
    estimates: dict[str, TokenCounter] = {"chars4": PI_ESTIMATE, "cjk": CJK_ESTIMATE}
    print(f"exact: {exact_counter.name}; error = (estimate - exact) / exact")
    header = f"{'lang':6} {'messages':>8} {'tokens':>9}"
    for name in estimates:
        header += f"  {name + ' total':>12} {name + ' median':>12}"
    print(header)
    speed: dict[str, float] = dict.fromkeys([*estimates, exact_counter.name], 0.0)
    for language in LANGUAGES:
        texts = catalog_texts(args.locale_dir, language)
        if not texts:
            print(f"{language:6} (no catalogs in {args.locale_dir})")
            continue
        messages = [{"role": "user", "content": text} for text in texts]
        started = time.perf_counter()
        exact = [exact_counter.count(m) for m in messages]
        speed[exact_counter.name] += time.perf_counter() - started
        total = sum(exact)
        row = f"{language:6} {len(messages):>8,} {total:>9,}"
        for name, counter in estimates.items():
            started = time.perf_counter()
            counts = [counter.count(m) for m in messages]
            speed[name] += time.perf_counter() - started
            errors = [(c - e) / e for c, e in zip(counts, exact, strict=True) if e >= 20]
            row += f"  {(sum(counts) - total) / total:>+12.1%} {statistics.median(errors):>+12.1%}"
        print(row)
    print("seconds for all messages: " + ", ".join(f"{k} {v:.2f}" for k, v in speed.items()))


if __name__ == "__main__":
    sys.exit(main())
