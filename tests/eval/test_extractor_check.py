"""The extractor's own recall counts each truth item in the record that can hold it."""

from __future__ import annotations

from synopsis.eval.corpus import Case, check_extractor
from synopsis.state import extract_working_state
from tests.state.builders import say, user


def case(truth: list[dict[str, object]]) -> Case:
    return Case("c", "en", "travel", (), tuple(truth), (), ())


def test_a_users_statement_with_a_name_is_a_fact_in_the_state() -> None:
    state = extract_working_state(
        [user("Find me a ferry to Naxos."), user("Our hotel is the Aegean Breeze, by the port.")]
    )
    truth = [{"kind": "fact", "tokens": ["Aegean Breeze"], "source": "user"}]
    assert check_extractor(case(truth), state).found["fact"] == (1, 1)


def test_a_users_choice_counts_as_the_users_decision() -> None:
    state = extract_working_state(
        [
            user("Find me a ferry to Naxos on Tuesday."),
            say("There is a 7:30 fast ferry and a 12:00 slow one. Which one?"),
            user("Let us take the 12:00 one."),
        ]
    )
    truth = [{"kind": "decision", "tokens": ["12:00 one"], "source": "user"}]
    assert check_extractor(case(truth), state).found["decision"] == (1, 1)


def test_an_item_the_state_lacks_is_not_found() -> None:
    state = extract_working_state([user("Find me a ferry to Naxos.")])
    truth = [{"kind": "fact", "tokens": ["Paros"], "source": "user"}]
    assert check_extractor(case(truth), state).found["fact"] == (0, 1)
