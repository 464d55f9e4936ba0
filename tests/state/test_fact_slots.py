"""Facts and their slots (issue 11, the free condition): an update replaces the value it
is about and no other one of the same kind; a house number is no date; the answer to a
value the assistant proposed replaces the proposal. Conversations written for these
tests, in our own words."""

from __future__ import annotations

from typing import Any

from synopsis.state import extract_working_state, render_state
from synopsis.state.statements import value_classes
from tests.state.builders import say, user


def checkpoint(*messages: dict[str, Any]) -> str:
    return render_state(extract_working_state(list(messages)))


def superseded(*messages: dict[str, Any]) -> dict[str, str]:
    return extract_working_state(list(messages)).superseded_values()


# --- the answer to a proposal ----------------------------------------------------------------


def test_the_answer_to_a_proposed_date_replaces_the_proposal_not_the_users_own_date() -> None:
    messages = (
        user("We fly out of Lisbon on May 3. Book a hotel in Porto for the first nights."),
        say("Hotel held. With two nights in Porto, checkout would be May 5."),
        user("Make it May 6, we actually want three nights there."),
    )
    stale = superseded(*messages)
    assert "May 3" not in stale  # the day they fly out is not what the answer is about
    assert stale.get("May 5") == "May 6"
    text = checkpoint(*messages)
    assert "May 3" in text and "May 6" in text and "May 5" not in text


def test_a_correction_of_the_users_own_date_still_replaces_it() -> None:
    messages = (
        user("The dentist appointment is on March 12."),
        say("Noted, I'll remind you the day before."),
        user("Correction: the dentist moved it to March 14."),
    )
    assert superseded(*messages).get("March 12") == "March 14"
    text = checkpoint(*messages)
    assert "March 14" in text and "March 12" not in text


def test_a_proposal_the_update_is_not_about_is_left_alone() -> None:
    messages = (
        user("Pickup is on the 20th at the airport."),
        say("Done. Free cancellation until June 18 for the car."),
        user("Actually we land on the 21st, move the pickup please."),
    )
    stale = superseded(*messages)
    assert "June 18" not in stale  # the cancellation term is no proposal of the pickup day


# --- house numbers are no dates ----------------------------------------------------------------


def test_a_house_number_after_a_lane_is_part_of_the_address_not_a_date() -> None:
    classes = value_classes("新地址是闵行区虹梅路 77 弄 9 号 302")
    assert ("date", "9 号") not in classes
    assert any(kind == "address" and "9 号" in value for kind, value in classes)
    assert ("date", "9 号") in value_classes("复诊改到 9 号吧")


def test_a_new_address_leaves_the_deadline_dates_alone() -> None:
    messages = (
        user("我要退一件衬衫，订单号 TM20260105-88213"),
        say("已查到，1 月 8 日签收，退货截止到 1 月 15 日。"),
        user("另外我搬家了，地址写错了也不行，新的是闵行区虹梅路 77 弄 9 号 302。"),
    )
    stale = superseded(*messages)
    assert not any("1 月" in old for old in stale)
    assert "1 月 15 日" in checkpoint(*messages)
