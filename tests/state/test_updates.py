"""Updates by the meaning of the slot: new cases for the stale classes of issue 11 (bare
prices, branch names, one date in another spelling, values an update states again, an
update whose subject is in the neighbouring sentence)."""

from __future__ import annotations

from typing import Any

import pytest

from synopsis.state import extract_working_state, render_state
from synopsis.state.statements import value_classes
from tests.state.builders import say, user


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
