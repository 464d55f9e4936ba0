"""Which typed sentences become the user's rules: requests, descriptions and narratives
that merely contain a rule word are not; conditional instructions, limits and lists of
requirements are. Every case is written for this file, in our own words."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from synopsis.state._text import MAX_SENTENCE, sentences
from synopsis.state.extract import extract_working_state
from synopsis.state.statements import classify_all, statement


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


# --- what someone else said, did or is; what the speaker plans or believes ------------------


@pytest.mark.parametrize(
    "text",
    [
        # reported speech: another person's instruction, told over
        "My aunt always told me to never lend money to friends.",
        'The sign at the trailhead says, "Never leave the marked path".',
        # narration: always / never before a past tense, or in the present perfect
        "Back in school we never had a proper gym.",
        "The ferry always arrived late that summer.",
        "I've always been curious about glassblowing.",
        "She has never owned a car.",
        # someone else's habits
        "My brothers always tease me about it.",
        "They make sure every visitor signs the book.",
        "Most people don't read the small print, and others don't care.",
        # the condition of a sentence, not its request
        "It is hard to focus when you don't get enough sleep.",
        # an opinion with a modal
        "Honestly I think libraries should open on Sundays.",
        "We all agree that the council has to fix the bridge.",
        # the speaker's own plan or effort
        "I'm going to keep using the paper planner this year.",
        "I'll do my best to make sure the twins feel at home.",
        # care and cheer shaped like orders
        "Long week for you, so make sure you take care of yourself.",
        # a wh-clause with a longer noun phrase before its modal
        "It showed me how many forms we still have to fill in.",
        # a guess about how it went
        "You must have had a lovely time up there.",
        # an idiom
        "A shared calendar helps us stay on track.",
    ],
)
def test_narration_reports_beliefs_and_plans_are_not_rules(text: str) -> None:
    assert rules_of(text) == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("As I said before, never merge without a review.", "never merge"),
        ("I never said to rename the tables.", "rename the tables"),
        ("When the build is red, never deploy it.", "never deploy"),
        ("Always tag the release before you publish it.", "tag the release"),
        ("We don't want any tracking pixels in the emails.", "tracking pixels"),
        ("Make sure you take the database snapshot first.", "snapshot"),
        ("Keep using the staging bucket for uploads.", "staging bucket"),
    ],
)
def test_the_users_own_rules_next_to_those_shapes_stay_rules(text: str, kept: str) -> None:
    assert any(kept in rule for rule in rules_of(text))


# --- a new value of a standing rule -----------------------------------------------------------


def test_a_new_value_of_a_standing_rule_is_the_rule_now() -> None:
    state = extract_working_state(
        [
            user("Keep the error budget at 2% per week. Don't let it creep up."),
            user("Update: loosen the error budget to 3 for the launch week."),
        ]
    )
    rules = [c.text for c in state.current_constraints()]
    assert rules == ["Update: loosen the error budget to 3 for the launch week."]


def test_a_new_value_of_a_fact_beside_a_rule_leaves_the_rule_alone() -> None:
    rule = "Always lint before pushing. The squad is 6 people."
    state = extract_working_state([user(rule), user("Actually we are 8 people now.")])
    assert [c.text for c in state.current_constraints()] == [rule]


def test_the_value_a_rule_refers_back_to_is_one_statement_not_also_a_fact() -> None:
    state = extract_working_state([user("The cap is 40 euros a head. Don't exceed it.")])
    assert [c.text for c in state.current_constraints()] == [
        "The cap is 40 euros a head. Don't exceed it."
    ]
    assert not any("40 euros" in f.text for f in state.current_facts())


# --- a chat between two people -------------------------------------------------------------


def _chat(*turns: str) -> list[dict[str, Any]]:
    roles = ("user", "assistant")
    return [{"role": roles[i % 2], "content": t} for i, t in enumerate(turns)]


def test_friends_advice_in_a_chat_between_people_is_kept_as_what_they_said() -> None:
    messages = _chat(
        "Priya: hey! finally moved into the new flat",
        "Tomas: congrats!! how is it?",
        "Priya: tiny but bright. Never buy a sofa before measuring the door, trust me.",
    )
    state = extract_working_state(messages)
    assert state.current_constraints() == ()
    assert any("measuring the door" in f.text for f in state.current_facts())


def test_a_named_turn_in_an_agent_session_still_states_rules() -> None:
    messages = [
        {"role": "user", "content": "Priya: look at the failing job"},
        {
            "role": "assistant",
            "content": [{"type": "toolCall", "id": "c1", "name": "bash",
                         "arguments": {"command": "make ci"}}],
        },
        {"role": "toolResult", "toolCallId": "c1", "toolName": "bash",
         "content": [{"type": "text", "text": "ok"}], "isError": False},
        {"role": "assistant", "content": "Tomas: it passes locally."},
        {"role": "user", "content": "Priya: never rerun it on the shared runner."},
    ]  # fmt: skip
    assert any("shared runner" in r for r in rules_of_messages(messages))


def test_a_role_or_label_word_is_no_persons_name() -> None:
    messages = _chat("Note: the repo is big", "Assistant: understood.", "Note: never push to main.")
    assert any("push to main" in r for r in rules_of_messages(messages))


def rules_of_messages(messages: list[dict[str, Any]]) -> list[str]:
    return [c.text for c in extract_working_state(messages).current_constraints()]


# --- whole statements ---------------------------------------------------------------------


def test_a_budget_and_the_rule_about_it_are_one_statement() -> None:
    rules = rules_of("Budget is 75 euros for the dinner. Don't go above it without a call.")
    assert rules == ["Budget is 75 euros for the dinner. Don't go above it without a call."]


def test_the_sentence_after_a_rule_that_names_its_value_belongs_to_it() -> None:
    text = (
        "Card numbers must stay hidden in the export. "
        "There is a mask for that, mask_pan_v2, not the legacy one."
    )
    assert rules_of(text) == [text]


def test_a_fact_after_a_rule_with_a_value_that_does_not_point_back_stays_apart() -> None:
    rules = rules_of("Never restart broker-3 by hand. The cluster has 5 nodes.")
    assert rules == ["Never restart broker-3 by hand."]


def test_at_most_of_a_kind_is_no_limit() -> None:
    assert rules_of("Tips are expected at most places around here.") == []
    assert rules_of("At most 2 transfers on the way there.")


def test_merging_a_rule_with_its_value_sentence_again_changes_nothing() -> None:
    messages = [user("The cap is 40 euros a head. Don't exceed it.")]
    once = extract_working_state(messages, entry_ids=["e1"])
    again = extract_working_state(messages, entry_ids=["e1"], previous=once)
    assert again == once


def test_a_fact_a_rule_only_stands_beside_stays_a_fact() -> None:
    text = "Weekend visits only. I live near the Harbour Road depot."
    state = extract_working_state([user(text)])
    assert any("Weekend visits only" in c.text for c in state.current_constraints())
    assert [f.text for f in state.current_facts()] == ["I live near the Harbour Road depot."]


# --- this stop's classes: each written for this file, in words of our own ----------------


@pytest.mark.parametrize(
    "text",
    [
        # care, wishes and reported sayings in Chinese small talk
        "考试加油，记得好好休息！",
        "祝你们玩得开心，千万别累着。",
        "我奶奶总说吃饭一定要细嚼慢咽。",
        # how others or places are
        "她们一直很照顾我。",
        "那边的咖啡馆永远坐满了人。",
        # merely, and what there is
        "我只是好奇问一下。",
        "我们小区只有晚上才有热水。",
        # what the speaker lacks, what goes wrong, how something behaves
        "We don't have a test server at the moment.",
        "I noticed a bug: the counter never goes above nine.",
        "The scheduler is odd, it only fires on the first run.",
        "Don't stress yourself too much over the exam.",
    ],
)
def test_small_talk_descriptions_and_bug_reports_are_not_rules(text: str) -> None:
    assert rules_of(text) == []


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("The build agent is shared with QA. Never wipe it without telling them.", "build agent"),
        ("Our metrics bucket holds the billing exports. Never empty that bucket by hand.",
         "metrics bucket"),
        ("那台打印机是财务专用的。别往它上面发大文件。", "打印机"),
        # two back: a request, a phrase that goes on with it, then the limit
        ("Could you find a quieter hotel? One near the river. Keep it under 120 a night.", "hotel"),
    ],
)  # fmt: skip
def test_a_rule_that_points_back_carries_its_subject(text: str, subject: str) -> None:
    assert any(subject in rule for rule in rules_of(text))


def test_a_subject_in_an_earlier_paragraph_is_not_taken() -> None:
    text = "The staging box is slow.\n\nNever restart it on a Friday."
    assert rules_of(text) == ["Never restart it on a Friday."]


def test_a_rule_whose_value_changes_goes_with_its_subject_sentence() -> None:
    first = "The demo laptop is shared by sales. Never lend it out after 5pm."
    state = extract_working_state(
        [user(first), {"role": "assistant", "content": "Noted."}, user("Actually, make that 7pm.")]
    )
    assert not any("5pm" in c.text for c in state.current_constraints())


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Wait for my go-ahead before you touch the DNS records.", "go-ahead"),
        ("Let's migrate the handlers one module at a time.", "one module at a time"),
        ("Reply in Spanish, the client reads these notes.", "Spanish"),
        ("以后都用英文回复客户。", "英文"),
    ],
)
def test_standing_rules_in_more_words(text: str, kept: str) -> None:
    assert any(kept in rule for rule in rules_of(text))


def test_a_step_by_step_guide_asked_for_sets_no_rule() -> None:
    assert rules_of("Write me a step-by-step guide for the release.") == []


def test_a_new_value_said_with_a_pronoun_carries_the_subject_it_points_at() -> None:
    state = extract_working_state(
        [
            user("Deliveries only inside the loading slot, Tuesday 06:00–08:00."),
            {"role": "assistant", "content": "Got it."},
            user("Facilities changed our loading slot. It's now Thursday, 05:00 to 07:00."),
        ]
    )
    rules = [c.text for c in state.current_constraints()]
    assert any("loading slot" in r and "Thursday" in r for r in rules), rules
    assert not any("Tuesday" in r for r in rules)


def test_zh_a_description_of_how_things_stand_is_no_rule() -> None:
    assert rules_of("测试环境现在已经锁了，只接受回归修复。") == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Remove the old migration shims when you're done.", "old migration shims"),
        ("Tag the release, but before you do, bump the changelog.", "changelog"),
        ("Build a small parser (no regex engine needed).", "no regex engine"),
    ],
)
def test_instructions_tied_to_a_point_of_the_work(text: str, kept: str) -> None:
    assert any(kept in rule for rule in rules_of(text))


@pytest.mark.parametrize(
    "text",
    [
        "My role lacks the scopes needed to rotate the keys.",
        "The total should be 40, not 38, so fix that please.",
    ],
)
def test_what_something_takes_and_a_fix_asked_for_are_not_rules(text: str) -> None:
    assert rules_of(text) == []


_SENTENCES = hst.sampled_from(
    [
        "The staging box is shared.",
        "Never restart it during the day.",
        "Something quiet, near the river.",
        "Keep it under 120 a night.",
        "Could you find a hotel in Porto?",
        "Nothing in that bucket gets deleted, ever.",
        "We land on the 7th.",
        "测试服务器是大家共用的。",
        "白天不要重启它。",
        "Always sign your tags.",
    ]
)
_BREAKS = hst.sampled_from([" ", " ", "\n", "\n\n"])


@settings(max_examples=200, deadline=None)
@given(hst.lists(hst.tuples(_SENTENCES, _BREAKS), min_size=1, max_size=6))
def test_a_rule_statement_keeps_its_own_sentence_and_its_paragraph(
    parts: list[tuple[str, str]],
) -> None:
    """Taking the subject from the sentences before never drops the rule's own words, never
    reaches into another paragraph and never goes past the statement's length."""
    text = "".join(sentence + gap for sentence, gap in parts).strip()
    spans = sentences(text)
    low = text.lower()
    for index, kind in enumerate(classify_all(text, low, spans)):
        if kind != "rule":
            continue
        own = text[slice(*spans[index])]
        made = statement(text, spans, index, spans[index][0])
        assert len(made) <= MAX_SENTENCE
        if len(own) <= MAX_SENTENCE // 2:
            assert " ".join(own.split()) in made
        begin = text.rfind("\n\n", 0, spans[index][0])
        stop = text.find("\n\n", spans[index][1])
        paragraph = text[max(begin, 0) : stop if stop >= 0 else len(text)]
        assert all(word in " ".join(paragraph.split()) for word in made.split())
