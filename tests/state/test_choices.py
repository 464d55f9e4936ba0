"""Key Decisions: what was chosen, by whom, and why — on conversations written for these
tests in our own words. The expected lines are read off each history by hand."""

from __future__ import annotations

from typing import Any

import pytest

from synopsis.state import extract_working_state, render_state
from synopsis.state._choices import (
    approved_proposal,
    assistant_choices,
    is_stated_choice,
    takes_an_offer,
)
from synopsis.state.sections import parse_sections
from tests.state.builders import say, user


def decisions(messages: list[dict[str, Any]]) -> str:
    text = render_state(extract_working_state(messages))
    return "\n".join(
        "\n".join(items) for kind, _, items in parse_sections(text) if kind == "decisions"
    )


# --- the user's --------------------------------------------------------------------------


def test_a_chinese_choice_between_offered_plans_is_the_users_decision() -> None:
    messages = [
        user("帮我给仓库的备份挑一个存储套餐，每月不超过 200 元。"),
        say("有两个套餐：P001 每月 150 元，500 GB；P002 每月 190 元，1 TB。你选哪个？"),
        user("那就选P001吧"),
    ]
    assert "User chose: 那就选P001吧" in decisions(messages)


def test_a_short_yes_to_a_proposal_makes_the_proposal_the_decision() -> None:
    messages = [
        user("The nightly import keeps timing out, please look into it."),
        say(
            "The import fetches all 40 pages one after another. "
            "I'd fetch them in parallel with a limit of 4 connections — want me to do that?"
        ),
        user("ok do it"),
    ]
    found = decisions(messages)
    assert "User chose: ok do it → I'd fetch them in parallel with a limit of 4" in found


def test_a_no_to_a_proposal_is_a_decision_too() -> None:
    said = "I can also drop the legacy `v1` endpoint while I'm here. Should I?"
    assert approved_proposal("no, leave it", said) == f"no, leave it → {said.split('. ')[0]}."
    assert approved_proposal("no", "Done: the tests pass.") is None  # nothing was proposed


def test_a_yes_that_answers_no_proposal_decides_nothing() -> None:
    messages = [
        user("Rename the `cfg` module to `settings`."),
        say("Renamed it and updated the 12 imports; the tests pass."),
        user("great, thanks"),
    ]
    assert decisions(messages) == "- (none)"


def test_a_sentence_that_takes_up_an_offered_option_is_a_choice() -> None:
    said = (
        "The queue backs up because every worker holds a DB connection while it sleeps. "
        "Options: raise the pool to 50, or release the connection before the sleep."
    )
    assert takes_an_offer("Release the connection before the sleep, keep the pool as is.", said)
    assert not takes_an_offer("Also the logo on the login page is blurry.", said)
    messages = [
        user("Why is the queue so slow?"),
        say(said),
        user("OK. Release the connection first."),
    ]
    assert "User chose: Release the connection first." in decisions(messages)


# --- the assistant's ---------------------------------------------------------------------


def test_an_assistant_action_with_its_reason_is_a_decision() -> None:
    text = (
        "The fixtures folder is regenerated on every run. "
        "I'll add it to `.gitignore` since nobody should commit generated data."
    )
    assert assistant_choices(text) == [
        "I'll add it to `.gitignore` since nobody should commit generated data."
    ]


def test_an_explicit_choice_keeps_the_options_and_the_reason_before_it() -> None:
    text = (
        "Two ways to stop the double charge: a unique index on (order_id, attempt), "
        "or a lock around the whole handler. The index is enforced by the database itself. "
        "I'll go with the unique index."
    )
    (decision,) = assistant_choices(text)
    assert decision.startswith("Two ways to stop the double charge")
    assert decision.endswith("I'll go with the unique index.")


def test_a_bare_intention_takes_its_reason_from_the_sentence_before() -> None:
    text = (
        "The CI runner has no GPU, so the CUDA tests cannot run there. I'll do it locally instead:"
    )
    assert assistant_choices(text) == [text]
    assert assistant_choices("I'll do it locally instead:") == []  # a lead-in, nothing chosen


def test_a_plan_stated_as_a_list_is_one_decision() -> None:
    text = (
        "The config has two conflicting `allow` entries. I'll fix both:\n\n"
        "1. Remove the duplicate `Bash(npm:*)` entry\n"
        "2. Narrow `Bash(git:*)` to read-only commands\n"
    )
    (decision,) = assistant_choices(text)
    assert "Remove the duplicate `Bash(npm:*)` entry; Narrow `Bash(git:*)`" in decision


@pytest.mark.parametrize(
    "text",
    [
        "I could also switch the cache to Redis if you want.",
        "Maybe we should use SQLite here, since the data is small.",
        "I'll help you build the theme!",
        "Now I'll read the config to see what it loads.",
        "Let me check the logs first because the error may be older.",
        "Fixed the parser to accept blank lines.",
        "Would you like me to go with the smaller instance?",
        "Option A is a cron job; option B is a systemd timer.",
        "The tests pass now since the fixture is fixed. Let me commit the changes:",
        "It's not exported. Let me fix the test to use the exported API:",
        "The output looks off. Let me trace through what happens:\n1. the hook runs\n2. it exits\n",
        "Rules for the changelog:\n- Group entries by type\n- Say why I chose the bump\n",
    ],
)
def test_options_guesses_narration_and_pleasantries_are_no_decisions(text: str) -> None:
    assert assistant_choices(text) == []


def test_a_lead_in_without_its_list_or_reason_is_no_stated_choice() -> None:
    assert not is_stated_choice("I'll do it locally instead:")
    assert is_stated_choice("Let me drop the column for now as nothing reads it:")
    assert is_stated_choice("The build has no network. I'll vendor the wheel instead:")


def test_key_decisions_list_the_assistants_choice_in_a_checkpoint() -> None:
    messages = [
        user("Speed up the report endpoint, it takes 9 seconds."),
        say(
            "It runs one query per row. I'll load the rows with a single join "
            "because the per-row queries are what takes the time."
        ),
    ]
    assert "I'll load the rows with a single join because" in decisions(messages)


# --- Critical Context ------------------------------------------------------------------


def test_a_value_of_a_corrected_slot_that_replaced_nothing_is_not_marked_corrected() -> None:
    messages = [
        user("The API listens on port 8080."),
        say("Noted."),
        user("Correction: the API port is 9090, not 8080."),
        say("Noted."),
        user("The metrics exporter runs on port 9100."),
    ]
    text = render_state(extract_working_state(messages))
    marked = [line for line in text.splitlines() if "(corrected by the user" in line]
    assert not any("9100" in line for line in marked)  # another port, replacing none
    assert "the API port is 9090" in text
    assert "8080" not in text


def test_a_yes_in_another_language_to_a_closing_question_decides_it() -> None:
    said = "Индекс пересоздаётся при каждом запуске. Перенести его в отдельную задачу cron?"
    assert approved_proposal("да, давай", said) == (
        "да, давай → Перенести его в отдельную задачу cron?"
    )


def test_a_choice_reported_with_its_reason_is_a_decision() -> None:
    text = "I used a frozenset instead of a list, since the lookups dominate."
    assert assistant_choices(text) == [text]
    assert assistant_choices("I used the search tool to find the file.") == []
