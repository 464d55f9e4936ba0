"""The user's words inside a tool result: answers to a question tool, the reason given for
rejecting a call. Histories and outputs are written here in our own words, in shapes other
than the rule records' examples (different wording around the same kinds of answer)."""

from __future__ import annotations

import pytest

from synopsis.state import extract_working_state
from synopsis.state._choices import tool_answers
from tests.state.builders import act, by_section, call, result, summarize, user


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        (
            'User has answered your questions: "Which region should the bucket live in?"='
            '"eu-west-1", "Enable versioning?"="Yes (Recommended)". Continue with these.',
            [
                "eu-west-1 — to: “Which region should the bucket live in?”",
                "Yes (Recommended) — to: “Enable versioning?”",
            ],
        ),
        (
            "Request refused by the user. They provided the following reason: keep the old "
            "endpoint until the mobile app ships",
            ["keep the old endpoint until the mobile app ships"],
        ),
        (
            "Operation denied.\nThe user provided the following feedback:\n<feedback>\n"
            "rename it to billing_events, not events\n</feedback>",
            ["rename it to billing_events, not events"],
        ),
        ("User responded: the dark theme only", ["the dark theme only"]),
    ],
)
def test_the_users_words_in_a_tool_result_are_their_choices(
    output: str, expected: list[str]
) -> None:
    assert tool_answers(output) == expected


@pytest.mark.parametrize(
    "output",
    [
        'settings.ini: name = "alpha" and "beta"="gamma"',
        "The tool use was rejected.",
        "Answer: 42 rows matched",
        "The user selected a row in the grid and the app froze.",
    ],
)
def test_tool_output_without_the_users_words_carries_no_choice(output: str) -> None:
    assert tool_answers(output) == []


def test_an_answer_given_through_a_question_tool_stands_under_key_decisions() -> None:
    asked = call("q1", "AskUserQuestion", questions=["Which queue backend?"])
    history = [
        user("Set up background jobs for the mailer."),
        act(asked, text="Before I wire it, one question."),
        result("q1", "AskUserQuestion",
               'Your questions have been answered: "Which queue backend?"="Sidekiq with Redis".'),
    ]  # fmt: skip
    state = extract_working_state(history)
    assert any(d.source == "user" and "Sidekiq with Redis" in d.text for d in state.decisions)
    assert "Sidekiq with Redis" in by_section(summarize(history)).get("decisions", "")
