"""Git history rewrites: commit ids a reset, amend, rebase or filter undid leave the checkpoint."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synopsis.state import extract_working_state, render_state
from synopsis.state._history import Rewrite, command_rewrite, undone
from tests.state.builders import act, call, result, say, user


def committed(number: int, sha: str, subject: str) -> list[dict[str, Any]]:
    """The agent commits; git answers with its usual ``[branch sha] subject`` line."""
    call_id = f"c{number}"
    command = f'git add -A && git commit -m "{subject}"'
    report = f"[trunk {sha}] {subject}\n 3 files changed, 40 insertions(+)"
    return [act(call(call_id, "bash", command=command)), result(call_id, "bash", report)]


def ran(number: int, command: str, output: str = "") -> list[dict[str, Any]]:
    call_id = f"r{number}"
    return [act(call(call_id, "bash", command=command)), result(call_id, "bash", output)]


def base() -> list[dict[str, Any]]:
    return [
        user("Please tidy the parser module and commit each step separately."),
        *committed(1, "a1b2c3d", "refactor: split tokenizer out of parser"),
        *committed(2, "e4f5a6b", "feat: accept trailing commas"),
    ]


def checkpoint(messages: list[dict[str, Any]]) -> str:
    return render_state(extract_working_state(messages))


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git reset --hard HEAD~1", Rewrite("last", "git reset HEAD~1", count=1)),
        ("cd repo && git reset --soft HEAD~3", Rewrite("last", "git reset HEAD~3", count=3)),
        ("git reset HEAD^^", Rewrite("last", "git reset HEAD^^", count=2)),
        ("git reset --hard 0badc0de", Rewrite("after", "git reset 0badc0de", since="0badc0de")),
        ("git -C app rebase -i main", Rewrite("all", "git rebase")),
        (
            "git filter-repo --path secrets/ --invert-paths --force",
            Rewrite("all", "git filter-repo"),
        ),
        ("git commit --amend --no-edit", Rewrite("last", "git commit --amend", count=1)),
        ("java -jar bfg.jar --delete-folders tmp", Rewrite("all", "BFG")),
    ],
)
def test_commands_that_rewrite_history(command: str, expected: Rewrite) -> None:
    assert command_rewrite(command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "git reset HEAD -- notes.txt",  # unstaging a path
        "git reset",  # unstaging everything
        "git rebase --abort",
        "git revert HEAD",  # a new commit; the old one still exists
        "git reset --hard origin/main",  # to another branch: nothing known undone
        "git log --oneline -5",
        "echo 'git reset --hard HEAD~1'",
    ],
)
def test_commands_that_do_not(command: str) -> None:
    assert command_rewrite(command) is None


def test_a_reset_retires_only_the_commits_it_undid() -> None:
    text = checkpoint([*base(), *ran(3, "git reset --hard HEAD~1", "HEAD is now at a1b2c3d")])
    assert "a1b2c3d" in text
    assert "e4f5a6b" not in text


def test_a_reset_to_a_commit_retires_the_later_ones() -> None:
    messages = [
        *base(),
        *committed(3, "9f8e7d6", "docs: describe the grammar"),
        *ran(4, "git reset --hard a1b2c3d"),
    ]
    text = checkpoint(messages)
    assert "a1b2c3d" in text
    assert "e4f5a6b" not in text and "9f8e7d6" not in text


def test_filtering_the_history_retires_every_earlier_commit_but_not_later_ones() -> None:
    messages = [
        *base(),
        *ran(3, "git filter-repo --path build/ --invert-paths --force", "Parsed 2 commits"),
        *ran(4, "git log --oneline", "77aa88b feat: accept trailing commas\n66cc55d refactor"),
        *committed(5, "1234abc", "chore: ignore build output"),
    ]
    text = checkpoint(messages)
    assert "a1b2c3d" not in text and "e4f5a6b" not in text
    assert "1234abc" in text and "77aa88b" in text


def test_an_amended_commit_replaces_the_one_before() -> None:
    messages = [
        *base(),
        *ran(3, "git commit --amend -m 'feat: accept trailing commas in lists'",
             "[trunk 5d5d5d5] feat: accept trailing commas in lists"),
    ]  # fmt: skip
    text = checkpoint(messages)
    assert "5d5d5d5" in text and "a1b2c3d" in text
    assert "e4f5a6b" not in text


def test_an_amend_is_kept_for_audit_with_what_replaced_it() -> None:
    state = extract_working_state(
        [
            *base(),
            *ran(3, "git commit --amend --no-edit", "[trunk 5d5d5d5] feat: accept trailing commas"),
        ]
    )
    assert state.superseded_values()["e4f5a6b"] == "5d5d5d5"


def test_the_same_subject_committed_twice_is_two_commits() -> None:
    text = checkpoint([*base(), *committed(3, "c0ffee1", "feat: accept trailing commas")])
    assert "c0ffee1" in text and "e4f5a6b" in text


@pytest.mark.parametrize(
    "said",
    ["I undid your last commit, it had the debug prints in it.",
     "Heads up: I've reset the commit, let's redo it without the debug prints.",
     "我已经把上一个提交撤销了，去掉调试输出再提交。"],
)  # fmt: skip
def test_the_user_undoing_the_last_commit_retires_it(said: str) -> None:
    text = checkpoint([*base(), say("Both steps are committed."), user(said)])
    assert "a1b2c3d" in text
    assert "e4f5a6b" not in text


def test_the_user_asking_for_a_reset_is_not_a_reset() -> None:
    text = checkpoint([*base(), say("Done."), user("Could you reset the last commit?")])
    assert "e4f5a6b" in text


def test_a_rewrite_is_idempotent_when_merged_again() -> None:
    messages = [*base(), *ran(3, "git reset --hard HEAD~1")]
    once = extract_working_state(messages)
    assert extract_working_state(messages, previous=once) == once


@given(st.integers(min_value=0, max_value=8), st.integers(min_value=1, max_value=10))
def test_undoing_the_last_n_takes_at_most_n_newest(made: int, count: int) -> None:
    commits = [f"{index:07x}" for index in range(made)]
    gone = undone(Rewrite("last", "reset", count=count), commits)
    assert gone == commits[len(commits) - min(count, made) :]
