"""The fresh set of real transcripts (tests/data/realfresh): well-formed cases, a runnable CLI.

Cases from agents and languages the other sets lack (Kilo Code, Windsurf Cascade, Google
Antigravity, GitHub Copilot CLI; Indonesian, French, Korean, Spanish, Italian), labelled
the same way and held out: nobody who changes synopsis reads them, so a change made while
looking at tests/data/realdev can be checked on them. These tests check the data (see
tests/eval/_real_sets.py), not the scores.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from synopsis.eval.corpus import Case, load_corpus
from tests.eval import _real_sets as checks

DATA = Path(__file__).resolve().parents[1] / "data"
REALFRESH = DATA / "realfresh"
CASES = load_corpus(REALFRESH)

FRESH_CHECKS = (
    *checks.PER_CASE,
    checks.check_updates_name_stale_values,
    checks.check_resolved_failures,
)


def _repositories(folder: Path) -> set[str]:
    return {
        json.loads(path.read_text(encoding="utf-8"))["source"]["repo"]
        for path in folder.glob("*.json")
    }


def test_the_set_brings_new_agents_and_languages() -> None:
    assert len(CASES) >= 5
    assert len({case.language for case in CASES} - {"en"}) >= 3
    agents = {
        json.loads((REALFRESH / f"{case.id}.json").read_text(encoding="utf-8"))["source"]["agent"]
        for case in CASES
    }
    assert len({agent.split()[0] for agent in agents}) >= 3
    assert all(case.untrusted or case.noise for case in CASES)
    assert any(item.get("stale") for case in CASES for item in case.truth)
    assert any("resolved_turn" in item for case in CASES for item in case.truth)


def test_no_repository_of_the_other_real_sets_is_reused() -> None:
    fresh = _repositories(REALFRESH)
    for other in ("realdev", "realheld"):
        assert not fresh & _repositories(DATA / other), other


@pytest.mark.parametrize("check", FRESH_CHECKS, ids=checks.check_name)
@pytest.mark.parametrize("case", CASES, ids=checks.case_ids(CASES))
def test_each_case_is_well_formed(case: Case, check: Callable[[Case], None]) -> None:
    check(case)


def test_the_readme_lists_every_case_with_its_source() -> None:
    checks.check_readme_lists_sources(REALFRESH)


def test_synopsis_eval_runs_over_the_folder() -> None:
    checks.check_eval_runs(REALFRESH, CASES)
