"""Which typed sentences become the user's rules: requests, descriptions and narratives
that merely contain a rule word are not; conditional instructions, limits and lists of
requirements are. Every case is written for this file, in our own words."""

from __future__ import annotations

from typing import Any

import pytest

from synopsis.state._text import sentences
from synopsis.state.extract import extract_working_state


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def rules_of(*texts: str) -> list[str]:
    state = extract_working_state([user(t) for t in texts])
    return [c.text for c in state.current_constraints()]


@pytest.mark.parametrize(
    "text",
    [
        # a one-off request whose rule word sits in a clause that asks or describes
        "Please read the config and tell me which keys need to be renamed.",
        "Could you reformat the table so that it should match the old layout",
        # a negated obligation relaxes; it forbids nothing
        "The slides don't have to be pretty, a rough draft is enough.",
        # frequency and correlatives describe
        "The retry flag isn't always honoured by the worker.",
        "Check that the export covers not only orders but refunds too.",
        # a compound adjective, and what the user says of themself
        "Append-only tables are fine to read.",
        "I always forget where the staging keys live.",
        # a narrative of what happened, with a modal in its relative clause
        "Whoops, I dropped the branch since it had the logs, which should be ignored anyway.",
        # a question without its question mark
        "Or is that limit only for the free plan",
    ],
)
def test_sentences_that_only_contain_a_rule_word_are_not_rules(text: str) -> None:
    assert rules_of(text) == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("When the cache is cold, skip the benchmark run.", "skip the benchmark"),
        ("If a migration fails, stop and ping the on-call.", "ping the on-call"),
        ("We want no deploys after 4pm on Fridays.", "no deploys after 4pm"),
        ("Under 45 euros per person for the dinner.", "45 euros"),
        ("Window table please, we like the view.", "Window table"),
        ("For the release notes use the past tense.", "past tense"),
        ("Be sure to keep the old endpoint alive.", "old endpoint"),
        ("A parking spot at the venue is non-negotiable.", "parking spot"),
        ("Leave the legacy importer exactly as it is.", "legacy importer"),
        ("Hard rules: nothing leaves the VPN.", "VPN"),
    ],
)
def test_instructions_without_the_old_rule_words_are_rules(text: str, kept: str) -> None:
    assert any(kept in rule for rule in rules_of(text))


def test_items_under_a_line_that_announces_rules_are_rules() -> None:
    text = "Set up the nightly report.\nConstraints:\n1. weekdays only\n2. mail it to the ops list"
    rules = rules_of(text)
    assert any("weekdays only" in r for r in rules)
    assert any("ops list" in r for r in rules)
    assert not any(r.startswith("Constraints") for r in rules)


def test_a_blank_line_ends_the_list_of_rules() -> None:
    text = "Conditions:\n- quiet rooms\n\nThe weather there is mild in May."
    assert not any("weather" in r for r in rules_of(text))


def test_a_rule_and_its_complement_on_one_line_are_one_statement() -> None:
    rules = rules_of("Only ship from the Leeds warehouse. Never ship from the Hull warehouse.")
    assert rules == ["Only ship from the Leeds warehouse. Never ship from the Hull warehouse."]


def test_two_unrelated_rules_on_one_line_stay_two() -> None:
    rules = rules_of("Never force-push. Always sign your tags.")
    assert rules == ["Never force-push.", "Always sign your tags."]


def test_chinese_standing_rules() -> None:
    rules = rules_of("金额以银行流水为准。", "那张表不用动。", "所有报价请附上有效期。")
    assert len(rules) == 3


def test_titles_abbreviations_and_list_numbers_do_not_end_a_sentence() -> None:
    text = "Book it with Dr. Alvarez at 9.\n1. bring the forms\n2. no food before"
    found = [text[a:b] for a, b in sentences(text)]
    assert found == ["Book it with Dr. Alvarez at 9.", "bring the forms", "no food before"]


def test_a_sentence_whose_rule_word_states_no_rule_is_still_kept_as_the_users_words() -> None:
    text = "Whoops, I wiped the cache folder, which should be ignored by git anyway."
    state = extract_working_state([user(text)])
    assert state.current_constraints() == ()
    assert [f.text for f in state.current_facts()] == [text]


def test_a_list_item_without_a_value_does_not_take_the_item_above() -> None:
    text = "Rules:\n1. keep 5 copies\n2. never delete by hand, use the purge job"
    rules = rules_of(text)
    assert "never delete by hand, use the purge job" in rules
    assert not any("copies" in r and "purge" in r for r in rules)


@pytest.mark.parametrize(
    "text",
    [
        "ok, the old token was revoked anyway. But seriously, never again.",
        "Fine, leave it. Just don't.",
        "好吧，这次先这样。别再这样了。",
        "收到。不要乱来。",
    ],
)
def test_a_rule_sentence_that_names_nothing_is_no_rule(text: str) -> None:
    assert rules_of(text) == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Never npm.", "npm"),
        ("No force pushes.", "force pushes"),
        ("Always rebase.", "rebase"),
        ("别用 npm。", "npm"),
        ("只要靠窗的座位。", "靠窗"),
        ("Don't go over it without asking me.", "asking me"),
    ],
)
def test_a_short_rule_that_names_its_subject_stays(text: str, kept: str) -> None:
    assert any(kept in rule for rule in rules_of(text))


@pytest.mark.parametrize(
    "text",
    [
        "Alright, one more try with the blue palette, then we should be good to go.",
        "I bumped the timeout, that should do the trick.",
        "Restart the worker, it should be fine afterwards.",
    ],
)
def test_a_should_of_expectation_is_no_rule(text: str) -> None:
    assert rules_of(text) == []


def test_a_should_of_requirement_stays_a_rule() -> None:
    assert rules_of("The nightly export should be ready by 6am.")
    assert rules_of("It should be ready by Friday, the client demo is Monday.")
