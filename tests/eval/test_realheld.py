"""The held-out set of real transcripts (tests/data/realheld): well-formed cases, a runnable CLI.

The set is labelled independently of synopsis' extraction rules and of the dev set
(tests/data/realdev), from other repositories and other agents, so that work tuned on
the dev set can be checked on conversations it never saw. These tests check the data
(see tests/eval/_real_sets.py), not the scores.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from synopsis.eval.corpus import KINDS, Case, load_corpus
from tests.eval import _real_sets as checks

REALHELD = Path(__file__).resolve().parents[1] / "data" / "realheld"
REALDEV = REALHELD.parent / "realdev"
CASES = load_corpus(REALHELD)
IDS = checks.case_ids(CASES)


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


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_label_token_is_in_its_turn(case: Case) -> None:
    checks.check_label_tokens(case)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_stale_value_was_said_before_the_update(case: Case) -> None:
    checks.check_stale_values(case)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_an_update_names_the_values_it_replaced(case: Case) -> None:
    for item in case.truth:
        if "update" in item.get("tags", []):
            assert item.get("stale"), item


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_resolved_failure_names_the_later_turn_that_fixed_it(case: Case) -> None:
    checks.check_resolved_failures(case)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_tool_turn_answers_a_call_and_every_call_is_answered(case: Case) -> None:
    checks.check_call_pairing(case)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_no_live_credential_shapes(case: Case) -> None:
    checks.check_no_live_credentials(case)


def test_the_readme_lists_every_case_with_its_source() -> None:
    checks.check_readme_lists_sources(REALHELD)


def test_synopsis_eval_runs_over_the_folder() -> None:
    checks.check_eval_runs(REALHELD, CASES)
