#!/usr/bin/env python3
"""How many of Pi 1.6.0's reference outputs the driver reproduces.

    .venv/bin/python -m tests.parity.score [-v] [NAME_FILTER]

Prints ``N/620`` and the mismatches per output kind (context, prepare-k2000, …) and per
input; ``-v`` lists every mismatch with its reason.
"""

from __future__ import annotations

import sys
from collections import Counter

from tests.parity.cases import cases, mismatch


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    filters = [a for a in argv if a != "-v"]
    selected = [c for c in cases() if not filters or any(f in c.id for f in filters)]
    if not selected:
        print("no cases (are ../shared/fixtures/pi16 present?)")
        return 1
    by_kind: Counter[str] = Counter()
    by_input: Counter[str] = Counter()
    passed = 0
    for case in selected:
        reason = mismatch(case)
        if reason is None:
            passed += 1
            continue
        by_kind[case.stem] += 1
        by_input[case.name] += 1
        if verbose:
            print(f"{case.id}: {reason}")
    print(f"{passed}/{len(selected)} outputs match")
    if by_kind:
        print("mismatches by output:", ", ".join(f"{k} {n}" for k, n in sorted(by_kind.items())))
        print("mismatches by input:", ", ".join(f"{k} {n}" for k, n in by_input.most_common()))
    return 0 if passed == len(selected) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
