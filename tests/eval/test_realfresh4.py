"""The fourth fresh set of real transcripts (tests/data/realfresh4): well-formed cases, a CLI.

Cases from agents and export formats the other sets lack (two Amp threads, an OpenClaw
operations assistant reached over Telegram, Roo Code's native-tool export in Japanese, a Qwen
Code fork's ``/export``), labelled the same way and held out: nobody who changes synopsis
reads them, so a change made while looking at tests/data/realdev can be checked on them.
These tests check the data (see tests/eval/_real_sets.py), not the scores.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from synopsis.eval.corpus import Case, load_corpus
from tests.eval import _real_sets as checks

DATA = Path(__file__).resolve().parents[1] / "data"
REALFRESH4 = DATA / "realfresh4"
CASES = load_corpus(REALFRESH4)

FRESH_CHECKS = (
    *checks.PER_CASE,
    checks.check_updates_name_stale_values,
    checks.check_resolved_failures,
)


def _sources(folder: Path) -> list[dict[str, str]]:
    return [
        json.loads(path.read_text(encoding="utf-8"))["source"]
        for path in sorted(folder.glob("*.json"))
    ]


def test_the_set_brings_new_agents_settings_and_languages() -> None:
    assert 5 <= len(CASES) <= 7
    assert {case.language for case in CASES} - {"en"}
    agents = {source["agent"].split()[0] for source in _sources(REALFRESH4)}
    assert len(agents) >= 4
    assert len({case.setting for case in CASES}) >= 3
    assert sum(len(case.truth) for case in CASES) >= 120
    assert all(case.untrusted or case.noise for case in CASES)
    assert any(item.get("stale") for case in CASES for item in case.truth)
    assert any("resolved_turn" in item for case in CASES for item in case.truth)
    assert {case.unfinished for case in CASES} == {True, False}


def test_every_case_is_long_enough_to_need_compaction() -> None:
    assert all(len(case.turns) >= 60 for case in CASES)


def test_no_repository_of_the_other_real_sets_is_reused() -> None:
    checks.check_sources_distinct(REALFRESH4, [DATA / "realdev", DATA / "realheld"])


@pytest.mark.parametrize("check", FRESH_CHECKS, ids=checks.check_name)
@pytest.mark.parametrize("case", CASES, ids=checks.case_ids(CASES))
def test_each_case_is_well_formed(case: Case, check: Callable[[Case], None]) -> None:
    check(case)


def test_the_readme_lists_every_case_with_its_source() -> None:
    checks.check_readme_lists_sources(REALFRESH4)


def test_synopsis_eval_runs_over_the_folder() -> None:
    checks.check_eval_runs(REALFRESH4, CASES)
