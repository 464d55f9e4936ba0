"""Under a hard cap the checkpoint says each thing once and drops what the state keeps
anyway before it drops a fact."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from synopsis.state import extract_working_state, render_state
from synopsis.state.render._fitting import _said_once, _terse_line
from synopsis.state.render._items import _Item
from tests.state.builders import act, call, result, say, user


def test_a_line_another_line_of_its_priority_holds_is_said_once() -> None:
    items = [
        _Item("goal", "- Ship the invoice export to the Lisbon office by Friday.", 11, 0),
        _Item("in_progress", "- Working on: “Ship the invoice export to the Lisbon…”", 8, 1),
        _Item("critical", "- fact: Ship the invoice export to the Lisbon office by Friday.", 9, 2),
    ]
    kept = _said_once(items)
    # the fact goes; that the goal is the request under way is substance: said shortly,
    # saying which one (Goal lists the original request first, the current one last)
    assert [item.section for item in kept] == ["goal", "in_progress"]
    assert kept[1].text == "- Working on: the last goal above"


def test_a_line_is_not_dropped_for_a_line_that_goes_first() -> None:
    items = [
        _Item("critical", "- fact: The vault lives in eu-west-3.", 9, 0),
        _Item("done", "- bash `terraform apply` → ok (The vault lives in eu-west-3.)", 0, 1),
    ]
    assert _said_once(items) == items


def test_two_lines_of_the_same_words_keep_the_first() -> None:
    items = [
        _Item("critical", "- fact: Keep the staging database on Postgres 14.", 9, 0),
        _Item("critical", "- fact: Keep the staging database on Postgres 14.", 9, 1),
    ]
    assert _said_once(items) == items[:1]


def test_a_decision_stays_in_its_section_when_a_fact_says_it_too() -> None:
    items = [
        _Item("decisions", "- User chose: Keep the staging database on Postgres 14.", 7, 0),
        _Item("critical", "- fact: Keep the staging database on Postgres 14.", 9, 1),
    ]
    assert _said_once(items) == items


def test_an_earlier_request_a_rule_states_in_its_words_is_said_once() -> None:
    """The label of the line (with its comma) is not what it says: the rule holds it."""
    asked = "- Earlier request, not reported done: “Also remove the almond butter”"
    items = [
        _Item("constraints", "- Also remove the almond butter, and never substitute.", 1000, 0),
        _Item("done", asked, 5, 1),
        _Item("done", "- Left with an earlier request: bash `make` failed: no rule", 9, 2),
    ]
    assert _said_once(items) == [items[0], items[2]]


def test_a_line_with_a_value_left_out_still_holds_what_follows_the_gap() -> None:
    """A "…" inside a request (a replaced value left out) is not where the line was cut:
    the sentence after it is said there, so a fact of the same words is said once."""
    items = [
        _Item("goal", "- Quote 5000 bolt kits at …, valid 30 days. Send it to Mr Wang.", 12, 0),
        _Item("critical", "- fact: Send it to Mr Wang.", 9, 1),
        _Item("critical", "- fact: Mr Wang handles purchasing.", 9, 2),
    ]
    assert _said_once(items) == [items[0], items[2]]


def test_terse_lines_lose_the_entry_id_and_the_quote_only() -> None:
    assert _terse_line("- Never push to main. [entry 4f2a]") == "- Never push to main."
    assert _terse_line("- id: ORD-88 — “your order ORD-88 shipped”") == "- id: ORD-88"
    assert _terse_line("- fact: Budget is 300 euros.") == "- fact: Budget is 300 euros."


@given(
    st.lists(
        st.sampled_from(["alpha beta gamma", "delta epsilon zeta", "eta theta iota"]),
        min_size=1,
        max_size=6,
    ),
    st.lists(st.integers(0, 11), min_size=6, max_size=6),
)
def test_what_said_once_drops_is_still_said(texts: list[str], priorities: list[int]) -> None:
    items = [_Item("critical", f"- fact: {t} kappa", priorities[i], i) for i, t in enumerate(texts)]
    kept = _said_once(items)
    said = " ".join(item.text for item in kept)
    assert all(text in said for text in texts)


def test_a_capped_checkpoint_keeps_a_value_over_a_routine_command() -> None:
    messages = [
        user("Find the cheapest refundable room in Porto for 2 nights and hold it."),
        act(call("s1", "search_rooms", city="Porto", nights=2)),
        result("s1", "search_rooms", '{"room": "RM-55821", "price": "€212", "refundable": true}'),
        *[
            m
            for n in range(6)
            for m in (
                act(call(f"p{n}", "ping_inventory", shard=n)),
                result(f"p{n}", "ping_inventory", "ok"),
            )
        ],
        say("The room is on hold."),
    ]
    text = render_state(extract_working_state(messages), max_tokens=90)
    assert "€212" in text


def test_a_terse_line_keeps_the_head_of_a_long_call_target_and_its_whole_error() -> None:
    target = "rsync -az --delete /srv/media/ backup-02:/vol/media/ --exclude '*.tmp' --bwlimit=20m"
    line = f"- bash `{target}` failed: rsync error: No space left on device (code 11)"
    terse = _terse_line(line)
    assert terse.startswith("- bash `rsync -az --delete /srv/media/ backup-02")
    assert terse.endswith("…` failed: rsync error: No space left on device (code 11)")
    assert len(terse) < len(line)
    short = "- bash `make test` → ok"
    assert _terse_line(short) == short
