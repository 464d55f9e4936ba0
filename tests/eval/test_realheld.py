"""The held-out set of real transcripts (tests/data/realheld): well-formed cases, a runnable CLI.

The set is labelled independently of synopsis' extraction rules and of the dev set
(tests/data/realdev), from other repositories and other agents, so that work tuned on
the dev set can be checked on conversations it never saw. These tests check the data
(see tests/eval/_real_sets.py), not the scores.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from synopsis.eval.corpus import KINDS, Case, load_corpus
from tests.eval import _real_sets as checks

REALHELD = Path(__file__).resolve().parents[1] / "data" / "realheld"
REALDEV = REALHELD.parent / "realdev"
CASES = load_corpus(REALHELD)


def test_the_set_is_varied_in_languages_and_label_kinds() -> None:
    assert len(CASES) >= 4
    assert len({case.language for case in CASES}) >= 3
    kinds = {item["kind"] for case in CASES for item in case.truth}
    assert kinds == set(KINDS)
    assert any(item.get("stale") for case in CASES for item in case.truth)
    assert all(case.untrusted or case.noise for case in CASES)


def test_no_repository_of_the_dev_set_is_reused() -> None:
    def repositories(folder: Path) -> set[str]:
        return {
            json.loads(path.read_text(encoding="utf-8"))["source"]["repo"]
            for path in folder.glob("*.json")
        }

    assert not repositories(REALHELD) & repositories(REALDEV)


# Two more than the dev set's: its labels predate them (one update there has no stale
# value, and its `resolved` labels are another engineer's work in progress).
HELD_CHECKS = (
    *checks.PER_CASE,
    checks.check_updates_name_stale_values,
    checks.check_resolved_failures,
)


@pytest.mark.parametrize("check", HELD_CHECKS, ids=checks.check_name)
@pytest.mark.parametrize("case", CASES, ids=checks.case_ids(CASES))
def test_each_case_is_well_formed(case: Case, check: Callable[[Case], None]) -> None:
    check(case)


def test_the_readme_lists_every_case_with_its_source() -> None:
    checks.check_readme_lists_sources(REALHELD)


def test_synopsis_eval_runs_over_the_folder() -> None:
    checks.check_eval_runs(REALHELD, CASES)
