"""A question typed without its question mark is still a question, never a rule (a
question word before an auxiliary and its subject); a plan closed by an ask whether it
can be done is the user's statement, kept as a fact, not a standing rule. Every text is
written for this file."""

from __future__ import annotations

import pytest

from synopsis.state._patterns import lower_same
from synopsis.state.statements import classify


@pytest.mark.parametrize(
    "text",
    [
        "but if the token only lasts an hour then how will we refresh it at night",
        "ok so what should i do with the old migrations, never mind the seeds",
        "how do i stop it from always opening the browser",
    ],
)
def test_a_question_without_its_mark_is_a_question(text: str) -> None:
    assert classify(text, lower_same(text)) == "question"


@pytest.mark.parametrize(
    "text",
    [
        "first the login page then a page that only asks for the code can you do that",
        "keep the cart in local storage only, is that possible",
        "we never show prices to guests, could you manage that",
    ],
)
def test_a_plan_closed_by_an_ask_is_a_statement_not_a_rule(text: str) -> None:
    assert classify(text, lower_same(text)) == "fact"


@pytest.mark.parametrize(
    "text",
    [
        "Never push to main; ask me when you want to merge.",
        "Only use the sandbox keys and tell me how it went.",
        "What you must never do is drop the audit table.",
    ],
)
def test_a_rule_that_mentions_asking_stays_a_rule(text: str) -> None:
    assert classify(text, lower_same(text)) == "rule"
