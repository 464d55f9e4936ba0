"""Updates by the meaning of the slot: new cases for the stale classes of issue 11 (bare
prices, branch names, one date in another spelling, values an update states again, an
update whose subject is in the neighbouring sentence)."""

from __future__ import annotations

from typing import Any

import pytest

from synopsis.state import extract_working_state, render_state
from synopsis.state.statements import value_classes
from tests.state.builders import act, call, result, say, user


def checkpoint(*messages: dict[str, Any]) -> str:
    return render_state(extract_working_state(list(messages)))


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("单价按 86.5 报给客户。", "86.5"),
        ("The nightly rate is now 140.", "140"),
        ("价格改成 399 吧", "399"),
    ],
)
def test_a_bare_number_its_price_word_names_is_an_amount(sentence: str, value: str) -> None:
    assert ("amount", value) in value_classes(sentence)


@pytest.mark.parametrize("sentence", ["The rate is 5% now.", "单价降了 3 个点。", "price list v2"])
def test_a_percentage_or_a_name_is_no_price(sentence: str) -> None:
    assert not any(c == "amount" for c, _ in value_classes(sentence))


def test_a_new_unit_price_without_a_currency_replaces_the_old_price() -> None:
    text = checkpoint(
        user("给华远公司报 2000 个轴承，单价 45 元，交期三周。"),
        say("好的，报价单草稿已经准备好。"),
        user("等一下，老板说可以让一点，单价按 42.8 报。"),
    )
    assert "42.8" in text
    assert "45 元" not in text
    assert "2000 个轴承" in text  # the statement's other values stay


@pytest.mark.parametrize(
    ("sentence", "branch"),
    [
        ("Open the PR against the staging-next branch.", "staging-next"),
        ("合到 hotfix/2.3.1 分支上", "hotfix/2.3.1"),
        ("Please rebase onto main first.", "main"),
    ],
)
def test_branch_names_are_a_class_of_value(sentence: str, branch: str) -> None:
    assert ("branch", branch) in value_classes(sentence)


def test_main_as_a_word_is_no_branch() -> None:
    assert not any(c == "branch" for c, _ in value_classes("The main problem is the cache."))


def test_a_pull_request_moved_to_another_branch_leaves_the_old_branch() -> None:
    text = checkpoint(
        user("Target the release/4.2 branch with this PR, it ships Friday."),
        say("Noted."),
        user("Change of plans: the freeze started early. Point the PR at develop instead."),
    )
    assert "develop" in text
    assert "release/4.2" not in text


def test_one_day_written_with_spaces_is_the_same_stale_day() -> None:
    text = checkpoint(
        user("安装定在4月8号，那天我在家。"),
        say("已为您预约 4 月 8 日上门安装。"),
        user("不好意思，那天有事，改成 12 号吧。"),
    )
    assert "12 号" in text
    assert "4 月 8 日" not in text and "4月8号" not in text


def test_a_value_the_update_states_again_is_not_replaced() -> None:
    state = extract_working_state(
        [
            user("Book the workshop room for 2 hours next week."),
            say("Which day suits you?"),
            user("Thursday works."),
            say("Booked."),
            user("Actually move it to Friday, still 2 hours."),
        ]
    )
    text = render_state(state)
    assert "Book the workshop room for 2 hours next week." in text  # its duration holds
    assert "Friday" in text


def test_a_day_the_update_repeats_is_not_retired() -> None:
    state = extract_working_state(
        [
            user("Delivery on 5月3号，周六，上午。"),
            say("好的。"),
            user("改成 5月10号吧，也是周六。"),
        ]
    )
    stale = state.superseded_values()
    assert "5月3号" in stale
    assert "周六" not in stale


def test_the_subject_of_an_update_may_be_in_its_neighbouring_sentence() -> None:
    text = checkpoint(
        user("We deploy the mobile app with SDK 3.4. The web client stays on 7.1 for now."),
        say("OK."),
        user("Change of plans from the mobile team: their SDK review failed. Go with 3.6."),
    )
    assert "3.6" in text and "7.1" in text
    assert "3.4" not in text


def test_chinese_subjects_match_wherever_their_character_pairs_start() -> None:
    text = checkpoint(
        user("日志只留最近 30 天。"),
        say("好的，已配置。"),
        user("磁盘够用，改成留 90 天吧。"),
    )
    assert "90 天" in text and "30 天" not in text


# --- a value the same message says stays, the user's own slot, dates in call targets -------


def _current(state: Any) -> set[str]:
    return {i.value for i in state.identifiers if i.superseded_by is None}


@pytest.mark.parametrize(
    ("first", "update", "moved", "stays"),
    [
        ("Check in on May 4 and check out May 11.",
         "Change from the hotel: they can only take us from the 6th now. Checkout stays the 11th.",
         "May 4", "May 11"),
        ("5月3日出发，5月10日回来。", "改一下，出发推到 5 号。回来的日子不变，还是 10 号。",
         "5月3日", "5月10日"),
    ],
)  # fmt: skip
def test_a_day_the_updating_message_keeps_is_not_replaced(
    first: str, update: str, moved: str, stays: str
) -> None:
    state = extract_working_state([user(first), say("Noted."), user(update)])
    assert moved not in _current(state)
    assert stays in _current(state)
    assert stays in render_state(state)


def test_an_update_without_shared_words_moves_the_users_date_not_one_the_assistant_reported() -> (
    None
):
    state = extract_working_state(
        [
            user("We arrive in Porto on August 9, two nights."),
            say("The suite is held for you; free cancellation until August 2."),
            user("Bad news, our flight slipped: we get in the 10th now."),
        ]
    )
    assert "August 9" not in _current(state)
    assert "August 2" in _current(state)


def test_a_retired_day_leaves_a_call_target_and_the_failed_call_stays() -> None:
    from synopsis.state._text import contains_value, states_stale_outside_code

    assert contains_value("hold_room `from=2026-08-09T15:00`", "2026-08-09")
    assert not contains_value("batch 2026-08-091", "2026-08-09")
    line = "- hold_room `from=2026-08-09T15:00` failed: NO_AVAILABILITY"
    stale = {"2026-08-09": "the 10th"}
    assert not states_stale_outside_code(line, stale)
    assert states_stale_outside_code("- fact: arrival 2026-08-09", stale)


def test_hashes_only_a_tool_listed_are_bounded_and_the_ones_the_work_names_stay() -> None:
    from synopsis.state.render._from_state import MAX_UNREFERRED_VALUES
    from tests.state.builders import act, call, result

    shas = [f"{n:07x}a" for n in range(1_000_000, 1_000_000 + 3 * MAX_UNREFERRED_VALUES)]
    messages: list[dict[str, Any]] = [user("Find when the flaky retry test started failing.")]
    for index, sha in enumerate(shas):
        messages += [
            act(call(f"c{index}", "bash", command=f"git log -1 --skip {index}")),
            result(f"c{index}", "bash", f"commit {sha}\nAuthor: dev\n\n    tweak retry"),
        ]
    named = shas[3]  # the assistant names this one: the work refers to it
    messages.append(say(f"The failures start at {named}; the earlier ones pass."))
    text = render_state(extract_working_state(messages))
    assert named in text
    listed = [sha for sha in shas if sha in text and sha != named]
    assert len(listed) <= MAX_UNREFERRED_VALUES
    assert shas[-1] in text  # the latest stay


def _calls(*targets: tuple[str, str]) -> list[Any]:
    from synopsis.state.model import ToolCallRecord

    return [
        ToolCallRecord(f"c{i}", name, target, "ok", None, None)
        for i, (name, target) in enumerate(targets)
    ]


def test_a_later_call_of_the_same_search_with_one_value_changed_retires_the_old_value() -> None:
    from synopsis.state._values import superseded_call_values

    calls = _calls(
        ("find_rooms", "city=Graz, from=2026-09-02, guests=2"),
        ("find_rooms", "city=Linz, from=2026-09-04, guests=2"),
        ("find_rooms", "city=Graz, from=2026-09-03, guests=2"),  # the Graz stay moved
        ("find_rooms", "city=Linz, from=2026-09-05, guests=2"),  # so did Linz …
        ("find_rooms", "city=Wels, from=2026-09-04, guests=2"),  # … but this still uses 09-04
        ("web_search", "q=graz opera, page=1"),
        ("web_search", "q=graz museums, page=1"),  # a new question, not a corrected value
    )
    assert superseded_call_values(calls) == [("2026-09-02", "2026-09-03")]


def test_a_value_the_agent_replaced_in_its_next_call_leaves_the_text_and_the_calls_stay() -> None:
    state = extract_working_state(
        [
            user("Hold two seats on the 7:10 bus, route 4810, please."),
            act(call("a", "hold_seats", route="4810", seats=2, time="7:10")),
            result("a", "hold_seats", "ERROR BUS_FULL: route 4810 at 7:10 is full", error=True),
            act(call("b", "hold_seats", route="4830", seats=2, time="7:10")),
            result("b", "hold_seats", '{"hold": "HB-5521"}'),
            say("Route 4810 was full, so I held two seats on route 4830 (hold HB-5521)."),
        ]
    )
    text = render_state(state)
    assert "4810" not in text  # the route in force is 4830; 4810 stays in the state
    assert "route=4830" in text and "hold_seats" in text
    assert "4810" in {i.value for i in state.identifiers if i.superseded_by == "4830"}


# --- a statement that holds two values of one slot: the update moves the one it is about ---


@pytest.mark.parametrize(
    ("first", "update", "moved", "stays"),
    [
        ("My son finishes school at 3:15 on weekdays, and his judo class is Sunday at 9:00.",
         "Heads up: the dojo moved judo class to Sunday 16:00.", "9:00", "3:15"),
        ("他每天 17:40 下班，周日 8:30 有晨跑团。", "跑团群里说了，晨跑团改成周日 7:00 集合。",
         "8:30", "17:40"),
    ],
)  # fmt: skip
def test_an_update_replaces_only_the_value_of_the_clause_it_is_about(
    first: str, update: str, moved: str, stays: str
) -> None:
    request = user("Help me plan next week around the family's schedule.")
    state = extract_working_state([request, say("Sure."), user(first), say("Noted."), user(update)])
    text = render_state(state)
    assert stays in text  # the other value of that slot still holds
    assert moved not in text
    assert moved in state.superseded_values()
