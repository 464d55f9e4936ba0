"""Whole statements, facts, provenance, updates by meaning: the failures of issue 11,
each as a new case written for this file."""

from __future__ import annotations

import asyncio
from typing import Any

from synopsis.compaction.messages_api import compact_messages
from synopsis.state.attribution import attribute, verbatim_message
from synopsis.state.extract import extract_working_state
from synopsis.state.guard import guard_summary
from synopsis.state.render import render_state
from synopsis.state.statements import date_key, value_classes


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def assistant(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def checkpoint(*texts: str) -> str:
    return render_state(extract_working_state([user(t) for t in texts]))


# --- whole statements ------------------------------------------------------------------------


def test_a_rule_keeps_the_neighbouring_sentence_that_holds_its_value() -> None:
    state = extract_working_state(
        [user("The monthly cap is 450 dollars. Never exceed it unless I say so.")]
    )
    assert any("450 dollars" in c.text and "Never exceed" in c.text for c in state.constraints)


def test_two_short_rules_in_a_row_both_survive() -> None:
    text = checkpoint("Only Node 20. No telemetry uploads from CI.")
    assert "Only Node 20." in text and "No telemetry uploads from CI." in text


def test_a_declarative_fact_with_names_is_kept_verbatim() -> None:
    sentence = "Our staging cluster runs Kubernetes 1.29 in us-west-2."
    state = extract_working_state([user(f"Hi. {sentence}")])
    assert [f.text for f in state.facts] == [sentence]
    assert sentence in render_state(state)


def test_near_duplicates_about_different_subjects_both_stay() -> None:
    text = checkpoint(
        "The staging database lives on stg-db-3.corp.",
        "The production database lives on prd-db-1.corp.",
    )
    assert "stg-db-3.corp" in text and "prd-db-1.corp" in text


# --- updates by the meaning of the slot ------------------------------------------------------


def test_a_correction_in_other_words_replaces_the_old_value_everywhere() -> None:
    messages = [
        user("Connect to the warehouse on port 5433 with the reporting role."),
        user("Correction: the port is 6543, not 5433."),
    ]
    state = extract_working_state(messages)
    text = guard_summary(render_state(state), state).text
    assert "6543" in text and "5433" not in text
    assert "5433" in str(state.to_json())  # kept for audit


def test_statements_made_in_one_message_do_not_supersede_each_other() -> None:
    """An update cue anywhere in a message ("now", "actually") makes its value sentences
    updates, but what one message states at once is all true: a spending limit and a budget
    said in one breath are two facts, not a correction."""
    for text, both in [
        (
            "Is the invoice ready now? Never approve expenses above €500 without my sign-off. "
            "The conference fee is €320.",
            ("€500", "€320"),
        ),
        (
            "Actually, one more thing. Don't deploy after 18:00 on Fridays. "
            "The freeze starts at 09:00 tomorrow.",
            ("18:00", "09:00"),
        ),
    ]:
        state = extract_working_state([user(text)])
        rendered = guard_summary(render_state(state), state).text
        assert all(value in rendered for value in both), (text, rendered)
        assert not any(c.superseded_by for c in state.constraints)
    # …while a later message with the same kind of value still replaces the earlier one
    later = extract_working_state(
        [user("The conference fee is €320."), user("Correction: the conference fee is €350 now.")]
    )
    assert "€320" not in guard_summary(render_state(later), later).text


def test_an_update_replaces_the_statement_most_about_its_subject() -> None:
    """Two earlier statements hold the same kind of value and share a word ("team"); the
    update replaces the one it is most about, not merely the latest."""
    state = extract_working_state(
        [
            user("The team standup is at 09:30."),
            user("No deploys during the team retro at 16:00."),
            user("Correction: the team standup is at 10:15."),
        ]
    )
    text = guard_summary(render_state(state), state).text
    assert "10:15" in text and "09:30" not in text
    assert "16:00" in text, text


def test_a_new_head_count_supersedes_the_old_one() -> None:
    state = extract_working_state(
        [user("Let's plan for 8 guests at the dinner."), user("Actually we'll be 11 guests.")]
    )
    text = render_state(state)
    assert "11 guests" in text and "8 guests" not in text
    assert any(f.superseded_by for f in state.facts)


def test_a_moved_date_supersedes_the_earlier_date() -> None:
    state = extract_working_state(
        [user("The dentist appointment is on the 9th at 10am."), user("They moved it to the 16th.")]
    )
    text = render_state(state)
    assert "the 16th" in text and "the 9th" not in text


def test_a_chinese_address_correction_replaces_the_address() -> None:
    state = extract_working_state(
        [user("收货地址是北京市海淀区学院路 30 号。"), user("地址写错了，改成朝阳区建国路 88 号。")]
    )
    text = render_state(state)
    assert "建国路 88 号" in text and "学院路 30 号" not in text


def test_a_value_that_stays_is_not_superseded() -> None:
    state = extract_working_state(
        [user("Pick-up is May 3 and the return is May 10."), user("The return stays May 10.")]
    )
    assert "May 10" in render_state(state)


def test_values_are_classed_by_meaning() -> None:
    classes = dict(value_classes("We are 4 people, landing at 9pm on the 7th, budget $300."))
    assert classes == {
        "count:people": "4 people",
        "time": "9pm",
        "date": "the 7th",
        "amount": "$300",
    }


def test_a_correction_in_the_kept_messages_cuts_the_value_from_the_checkpoint() -> None:
    old = [user("Book the table for 6 people on Friday, please."), assistant("Booked. " * 40)]
    later = [user("Change of plans: we'll be 9 people."), assistant("Updated the booking.")]
    result = asyncio.run(compact_messages([*old, *later], keep_recent_tokens=20))
    assert result.summary is not None
    assert "6 people" not in result.summary


# --- provenance ------------------------------------------------------------------------------


def test_harness_text_is_never_a_rule_or_goal() -> None:
    state = extract_working_state(
        [
            user(
                "Please continue the conversation from where we left off without asking "
                "the user any further questions."
            )
        ]
    )
    assert state.constraints == () and state.goals == () and state.facts == ()


def test_a_pasted_document_does_not_become_the_users_rules() -> None:
    readme = "\n".join(
        [
            "# Contributing",
            "",
            *[f"- You must always run check number {n} before pushing." for n in range(15)],
        ]
    )
    state = extract_working_state([user(f"Fix the flaky login test.\n\n{readme}")])
    assert state.constraints == ()
    assert [g.text for g in state.goals] == ["Fix the flaky login test."]


def test_fenced_code_is_pasted_and_the_prose_around_it_typed() -> None:
    parts = attribute("Never touch the schema.\n```\nmust_always = True\n```\nThanks")
    assert [p.written for p in parts] == ["typed", "pasted", "typed"]


def test_init_boilerplate_and_skill_files_are_not_typed() -> None:
    init = (
        "Please analyze this codebase and create a CLAUDE.md file, which will be given "
        "to future agents."
    )
    skill = "---\nname: deploy-helper\ndescription: Always deploy on Fridays\n---\nAlways deploy."
    state = extract_working_state([user(init), user(skill)])
    assert state.constraints == () and state.facts == ()


def test_a_language_without_rules_keeps_short_typed_messages() -> None:
    russian = "Сервер стоит в Берлине, пароль администратора не менять."
    korean = "마감은 금요일 오후 다섯 시입니다."
    assert verbatim_message(russian) == russian
    text = checkpoint(russian, korean)
    assert russian in text and korean in text


# --- the chat-list API remembers --------------------------------------------------------------


def test_the_second_compact_messages_round_keeps_what_the_first_knew() -> None:
    first_part = [
        user("The invoices live in the bucket acme-billing-eu on eu-west-3."),
        assistant("Noted. " * 60),
        user("Summarize last month's totals."),
        assistant("Working on it. " * 60),
    ]
    first = asyncio.run(compact_messages(first_part, keep_recent_tokens=40))
    assert first.summary and "acme-billing-eu" in first.summary
    more = [user("Now compare with the month before."), assistant("Comparing. " * 60)]
    second = asyncio.run(
        compact_messages(
            [*first.messages, *more],
            keep_recent_tokens=40,
            previous_summary=first.summary,
            previous_state=first.state,
        )
    )
    assert second.summary and "acme-billing-eu on eu-west-3" in second.summary


# --- values a tool reported -------------------------------------------------------------------


def test_a_value_a_tool_reported_is_kept_as_reference_not_pinned() -> None:
    messages = [
        user("Find my last order."),
        {
            "role": "assistant",
            "content": [
                {"type": "toolCall", "id": "q1", "name": "orders", "arguments": {"user": "me"}}
            ],
        },
        {
            "role": "toolResult",
            "toolCallId": "q1",
            "toolName": "orders",
            "content": [{"type": "text", "text": '{"order_id": "ORD-77120", "eta": "2026-05-02"}'}],
        },
    ]
    state = extract_working_state(messages)
    reported = {i.value: i for i in state.identifiers if i.written == "tool"}
    assert "ORD-77120" in reported and "ORD-77120" in render_state(state)
    assert "ORD-77120" not in guard_summary("## Goal\n- find it\n", state).text


def test_one_day_in_two_spellings_is_one_value() -> None:
    assert date_key("2026-03-06") == date_key("3月6日") == date_key("March 6") == (3, 6)
    assert date_key("6 Mar") == (3, 6) and date_key("the 7th") is None


def test_an_update_of_one_value_keeps_the_other_values_of_its_statement() -> None:
    state = extract_working_state(
        [
            user("Ship the parcel by June 4 to 12 Harbor Road."),
            user("Change of plans: send it to 40 Mill Street instead."),
        ]
    )
    text = render_state(state)
    assert "June 4" in text and "40 Mill Street" in text and "12 Harbor Road" not in text


def test_a_rule_said_inside_a_longer_statement_is_listed_once() -> None:
    for text, inner in (
        ("Deploy only from the release branch. Never force-push it.", "Never force-push it."),
        (
            "fine, run it on staging, but only the schema check. Don't touch the data there.",
            "but only the schema check.",
        ),
        ("只能用测试账号登录。不要动生产数据。", "不要动生产数据。"),
    ):
        state = extract_working_state([user(text)])
        rules = [c.text for c in state.current_constraints()]
        assert sum(inner in rule for rule in rules) == 1, rules


def test_a_restored_statement_is_not_restored_twice_as_its_value() -> None:
    text = "The invoice for the Lisbon trip is INV-55817, due on 2026-03-14."
    state = extract_working_state([user("Book the flights first."), user(text)])
    checked = guard_summary("## Goal\n- Book the flights first.\n", state)
    assert checked.text.count("INV-55817") == 1, checked.text


def test_a_count_with_the_same_unit_is_one_slot() -> None:
    for first, later, old, new in (
        ("Run 6 workers on the batch box.", "Hold on, cap it at 4 workers.", "6 workers", "4"),
        ("Spin up 3 replicas for the demo.", "Wait, 5 replicas after all.", "3 replicas", "5"),
        ("先订 2 辆车。", "等一下，改成 3 辆吧。", "2 辆", "3 辆"),
    ):
        state = extract_working_state([user(first), user(later)])
        text = render_state(state)
        assert new in text and old not in text, (first, later, text)


def test_a_bare_number_in_an_update_restates_the_numeric_value_of_its_subject() -> None:
    for first, later, old in (
        (
            "We're expecting around 40 guests at the dinner.",
            "Update: the dinner is 52, not 40.",
            "40 guests",
        ),
        ("Let's plan for 9 people.", "Turns out we'll be 11 in total.", "9 people"),
    ):
        state = extract_working_state([user(first), user(later)])
        assert old not in render_state(state), (first, later)


def test_a_bare_number_without_its_subject_or_old_value_replaces_nothing() -> None:
    state = extract_working_state(
        [user("Order 30 chairs for the hall."), user("Actually, call me at 5 instead.")]
    )
    assert "30 chairs" in render_state(state)


def test_counts_with_different_units_both_stay() -> None:
    state = extract_working_state([user("Book 2 cabins."), user("Actually, also 4 kayaks.")])
    text = render_state(state)
    assert "2 cabins" in text and "4 kayaks" in text
