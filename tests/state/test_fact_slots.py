"""Facts and their slots (issue 11, the free condition): an update replaces the value it
is about and no other one of the same kind; a house number is no date; the answer to a
value the assistant proposed replaces the proposal. Conversations written for these
tests, in our own words."""

from __future__ import annotations

from typing import Any

from synopsis.state import extract_working_state, guard_summary, render_state
from synopsis.state._patterns import find_identifiers
from synopsis.state.statements import value_classes
from tests.state.builders import act, call, result, say, user


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


# --- a name set against the one it replaces -------------------------------------------------


def test_the_assistant_taking_up_a_typo_fix_retires_the_misspelt_name() -> None:
    messages = (
        user("Add a `customerRef` field to the invoice type."),
        say("Added `custmerRef` to the Invoice interface."),
        user("Spelling: it's actually customerRef"),
        say("Fixed, the interface now uses `customerRef` (not `custmerRef`)."),
    )
    assert superseded(*messages).get("custmerRef") == "customerRef"
    text = checkpoint(*messages)
    assert "custmerRef" not in text


def test_a_name_set_against_a_different_subject_in_prose_is_no_replacement() -> None:
    messages = (
        user("Keep `build` as the CI job name."),
        say("`lint` is not `build`-related, so I left it alone."),
    )
    assert "build" not in superseded(*messages)


# --- declarative facts that name something ----------------------------------------------------


def test_a_named_slot_of_no_known_shape_is_kept_as_the_users_fact() -> None:
    messages = (
        user("Set up publishing for the CLI. My npm username is tolvaj."),
        say("Got it."),
        user("Our registry scope is acme-tools, by the way."),
    )
    facts = [f.text for f in extract_working_state(list(messages)).facts]
    assert any("tolvaj" in f for f in facts)
    assert "tolvaj" in checkpoint(*messages)


def test_a_short_reply_that_names_the_real_identifier_is_a_fact() -> None:
    messages = (
        user("Rename the column to createdOn in the export."),
        say("Renamed it to `createOn`."),
        user("Typo, it's actually createdOn"),
    )
    facts = [f.text for f in extract_working_state(list(messages)).facts]
    assert "Typo, it's actually createdOn" in facts


def test_an_opinion_or_a_state_is_no_named_value() -> None:
    messages = (
        user("Let's tidy the report job."),
        say("Okay."),
        user("The output table is empty right now. It's actually fine, the weather is nice."),
    )
    facts = [f.text for f in extract_working_state(list(messages)).facts]
    assert not any("fine" in f or "weather" in f or "empty" in f for f in facts)


# --- an edit's diff replaces the value it removes ------------------------------------------------


DIFF = """Applied 1 hunk.
```diff
@@ -10,4 +10,4 @@
     "eslint": "^8.57.0",
-    "vitest": "0.34.6",
+    "vitest": "^1.6.0",
     "zod": "^3.23.8",
```"""


def test_a_removed_diff_line_is_no_fact_and_its_value_is_replaced() -> None:
    messages = (
        user("Upgrade vitest so the coverage flag works."),
        act(call("c1", "apply_diff", path="package.json")),
        result("c1", "apply_diff", DIFF),
        say("Bumped vitest from the old pin to ^1.6.0, coverage works now."),
    )
    state = extract_working_state(list(messages))
    assert state.superseded_values().get("0.34.6") == "^1.6.0"
    text = render_state(state)
    assert "0.34.6" not in text
    assert "^1.6.0" in text


def test_a_diff_changing_a_short_number_retires_nothing() -> None:
    diff = "@@ -1,3 +1,3 @@\n workers:\n-  count: 2\n+  count: 16\n"
    messages = (
        user("Ship it in release 4.12.2, and raise the workers."),
        act(call("c1", "apply_diff", path="deploy.yaml")),
        result("c1", "apply_diff", diff),
        say("Raised the workers to 16."),
    )
    state = extract_working_state(list(messages))
    assert "2" not in state.superseded_values()
    assert "4.12.2" in render_state(state)


# --- the reference a tool's result names -----------------------------------------------------


def test_the_reference_of_a_booking_is_kept_though_the_reply_does_not_repeat_it() -> None:
    booked = '{\n  "state": "confirmed",\n  "booking_ref": "QX7T4P",\n  "total_eur": 412\n}'
    messages = (
        user("Reserve the 18:05 ferry to Naxos for two."),
        act(call("c1", "reserve_ferry", sailing="BS-1805", seats=2)),
        result("c1", "reserve_ferry", booked),
        say("Reserved."),
    )
    assert "QX7T4P" in checkpoint(*messages)


def test_a_listing_of_many_references_flags_none_of_them() -> None:
    listing = "\n".join(f'"order_id": "SO-{4410 + n}",' for n in range(6))
    messages = (
        user("List last week's orders."),
        act(call("c1", "list_orders", week="2026-W09")),
        result("c1", "list_orders", "[\n" + listing + "\n]"),
        say("Six orders came in."),
    )
    facts = [f.text for f in extract_working_state(list(messages)).facts]
    assert not any("SO-44" in f for f in facts)


# --- a UUID's groups are no commits ------------------------------------------------------------


def test_the_groups_of_a_uuid_are_not_listed_as_commits() -> None:
    line = '{"parentUuid": "5c0e9b1a-77d2-4f3e-9a10-2b7e4c9d1f08", "commit": "d41f9e2"}'
    kinds = {(f.kind, f.value) for f in find_identifiers(line)}
    assert not any(kind == "sha" and value.startswith("5c0e") for kind, value in kinds)
    assert not any(value == "2b7e4c9d1f08" for _, value in kinds)
    assert any(value == "d41f9e2" for _, value in kinds)


# --- a rule that holds another value keeps it when one of its values moves ----------------------


def test_a_rule_keeps_its_deadline_when_its_address_is_replaced() -> None:
    messages = (
        user("帮我给外婆订一盒点心。必须 4 月 2 号之前送到她家，鼓楼区中山北路 210 号。"),
        say("好的，已下单。"),
        user("等一下，外婆搬了，改送到秦淮区长乐路 66 号 3 栋 501。"),
        say("好的，已改地址。"),
    )
    state = extract_working_state(list(messages))
    text = render_state(state)
    assert "4 月 2 号" in text and "长乐路 66 号" in text
    assert "中山北路 210" not in text
    rule = "- 必须 4 月 2 号之前送到她家，鼓楼区中山北路 210 号。"
    old_checkpoint = f"## Constraints & Preferences\n{rule}\n"
    guarded = guard_summary(old_checkpoint, state).text
    assert "4 月 2 号" in guarded and "中山北路 210" not in guarded
