"""The real-transcript dev set (tests/data/realdev): well-formed cases and a runnable CLI.

These tests check the data, not synopsis' scores: every label must point at text that is
really in its turn, the tool calls must pair up as a chat API requires, and
``synopsis eval --corpus`` must run over the folder as a user would run it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from synopsis.eval.corpus import KINDS, Case, load_corpus

REALDEV = Path(__file__).resolve().parents[1] / "data" / "realdev"
SYNOPSIS = str(Path(sys.executable).parent / "synopsis")
CASES = load_corpus(REALDEV)
# Shapes of live credentials: a secret found in a source goes into a case only as an obvious fake.
LIVE_SECRET = re.compile(
    r"sk-(?:ant-|proj-)?[A-Za-z0-9_-]{24,}|gh[pousr]_[A-Za-z0-9]{30,}|AKIA[0-9A-Z]{16}"
    r"|xox[abp]-[A-Za-z0-9-]{20,}|-----BEGIN [A-Z ]*PRIVATE KEY-----"
)


def _ids(cases: list[Case]) -> list[str]:
    return [case.id for case in cases]


def test_the_set_holds_real_cases_in_more_than_one_language() -> None:
    assert len(CASES) >= 4
    assert len({case.language for case in CASES}) >= 2


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_every_label_token_is_in_its_turn(case: Case) -> None:
    assert len({item["id"] for item in case.truth}) == len(case.truth)
    for item in case.truth:
        assert item["kind"] in KINDS, item
        assert 1 <= len(item["tokens"]) <= 4, item
        turn = case.turns[item["turn"]]
        assert item["source"] == turn["role"], item
        for token in item["tokens"]:
            assert token in str(turn.get("text") or ""), (item["id"], token)
    for item in (*case.truth, *case.untrusted, *case.noise):
        for token in (*item["tokens"], *item.get("stale", [])):
            # A short token ("hi", "15") would match inside unrelated words or numbers.
            assert len("".join(token.split())) >= 5, (item, token)
    for item in (*case.untrusted, *case.noise):
        text = str(case.turns[item["turn"]].get("text") or "")
        for token in item["tokens"]:
            assert token in text, (item, token)


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_a_stale_value_was_said_before_the_update(case: Case) -> None:
    for item in case.truth:
        for token in item.get("stale", []):
            earlier = "\n".join(str(t.get("text") or "") for t in case.turns[: item["turn"]])
            assert token in earlier, (item["id"], token)
            assert "update" in item.get("tags", []), item


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_a_resolved_failure_is_resolved_by_a_later_turn(case: Case) -> None:
    for item in case.truth:
        if "resolved_turn" in item:
            assert item["kind"] == "failure", item
            assert item["turn"] < item["resolved_turn"] < len(case.turns), item


def test_some_failures_are_labelled_resolved() -> None:
    # the eval's "resolved failure under Blocked" check needs labels to count
    resolved = [i for case in CASES for i in case.truth if "resolved_turn" in i]
    assert len(resolved) >= 10


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_every_tool_turn_answers_a_call_and_every_call_is_answered(case: Case) -> None:
    open_calls: set[str] = set()
    for index, turn in enumerate(case.turns):
        if turn["role"] == "assistant":
            assert not open_calls, f"turn {index}: calls {open_calls} never answered"
            open_calls = {str(call["id"]) for call in turn.get("tool_calls") or []}
        elif turn["role"] == "tool":
            call_id = str(turn.get("tool_call_id"))
            assert call_id in open_calls, f"turn {index}: answers no open call"
            open_calls.discard(call_id)
        else:
            assert not open_calls, f"turn {index}: calls {open_calls} never answered"
    assert not open_calls


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_no_live_credential_shapes(case: Case) -> None:
    text = json.dumps([*case.turns], ensure_ascii=False)
    assert not LIVE_SECRET.search(text)


def test_the_readme_lists_every_case_with_its_source() -> None:
    readme = (REALDEV / "README.md").read_text(encoding="utf-8")
    for path in sorted(REALDEV.glob("*.json")):
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        source = data["source"]
        assert f"`{path.name}`" in readme
        assert source["repo"] in readme and source["commit"] in readme


def test_synopsis_eval_runs_over_the_folder() -> None:
    done = subprocess.run(
        [SYNOPSIS, "eval", "--corpus", str(REALDEV), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["config"]["cases"] == len(CASES)
    items = sum(len(case.truth) for case in CASES)
    assert {row["items"] for row in report["final"]} == {items}
