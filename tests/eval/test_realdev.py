"""The real-transcript dev set (tests/data/realdev): well-formed cases and a runnable CLI.

These tests check the data, not synopsis' scores (see tests/eval/_real_sets.py): every
label must point at text that is really in its turn, the tool calls must pair up as a
chat API requires, and ``synopsis eval --corpus`` must run over the folder as a user
would run it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from synopsis.eval.corpus import Case, load_corpus
from tests.eval import _real_sets as checks

REALDEV = Path(__file__).resolve().parents[1] / "data" / "realdev"
CASES = load_corpus(REALDEV)


def test_the_set_holds_real_cases_in_more_than_one_language() -> None:
    assert len(CASES) >= 4
    assert len({case.language for case in CASES}) >= 2


@pytest.mark.parametrize(
    "check", (*checks.PER_CASE, checks.check_resolved_failures), ids=checks.check_name
)
@pytest.mark.parametrize("case", CASES, ids=checks.case_ids(CASES))
def test_each_case_is_well_formed(case: Case, check: Callable[[Case], None]) -> None:
    check(case)


def test_some_failures_are_labelled_resolved() -> None:
    # the eval's "resolved failure under Blocked" check needs labels to count
    resolved = [i for case in CASES for i in case.truth if "resolved_turn" in i]
    assert len(resolved) >= 10


def test_the_readme_lists_every_case_with_its_source() -> None:
    checks.check_readme_lists_sources(REALDEV)


def test_synopsis_eval_runs_over_the_folder() -> None:
    checks.check_eval_runs(REALDEV, CASES)
