"""A reference fact the rest of the work names again outlasts one nothing mentions.

Under the embedded size target the older findings used to go first. Here the early
finding names the broker host that a later call connects to; the later finding names a
setting no call, decision or later statement comes back to. Wherever the target leaves
room for only one of them, it is the one the work relied on."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from synopsis.state import extract_working_state, render_state
from synopsis.state._named_again import MIN_NAME_CHARS, named_again, names_of
from synopsis.state.model import Fact, ToolCallRecord, WorkingState
from tests.state.builders import act, call, result, say, user

USED = "`broker-east-2.int` on port 5671"
UNUSED = "dedupe window"


def session() -> WorkingState:
    return extract_working_state(
        [
            user("Work out why the order sync hangs every night."),
            say(
                "I read the sync worker's settings. The worker consumes from the broker host "
                "`broker-east-2.int` on port 5671."
            ),
            act(call("n1", "bash", command="nc -vz broker-east-2.int 5671")),
            result("n1", "bash", "nc: connect to broker-east-2.int port 5671 failed"),
            say("Also worth noting: the dedupe window in `sync.yaml` is 120 seconds long."),
            say("Nothing more in the worker folder looks off, so the network is the lead."),
        ]
    )


def only_one_fits(state: WorkingState, first: str, second: str) -> list[str]:
    """Which of two statements stands alone, at each target that keeps only one."""
    alone = []
    for target in range(300, 1200, 20):
        text = render_state(state, target_chars=target)
        if (first in text) != (second in text):
            alone.append(first if first in text else second)
    return alone


def test_where_only_one_finding_fits_it_is_the_one_a_call_used() -> None:
    alone = only_one_fits(session(), USED, UNUSED)
    assert alone, "no target keeps exactly one of the two findings"
    assert set(alone) == {USED}


def test_a_fact_is_named_again_by_a_call_target() -> None:
    kept = Fact("The signing key lives at `vault/kv/payments`.", source="assistant")
    idle = Fact("The page cache holds entries for 45 seconds.", source="assistant")
    calls = (ToolCallRecord("c1", "bash", "vault kv get vault/kv/payments"),)
    state = WorkingState(tool_calls=calls, facts=(kept, idle))
    assert named_again(state, state.facts) == {id(kept)}


def test_an_earlier_fact_does_not_make_a_later_one_relied_on() -> None:
    """Only what comes after a fact (or the calls, decisions, goals and files) counts: a
    later restatement relies on the earlier one, not the other way round."""
    first = Fact("Build 4.12.9 shipped the bad migration.", source="assistant")
    again = Fact("Rolling back to before 4.12.9 fixed it.", source="assistant")
    state = WorkingState(facts=(first, again))
    assert named_again(state, state.facts) == {id(first)}


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=120))
def test_every_name_stands_in_its_statement(text: str) -> None:
    for name in names_of(text):
        assert name in text
        assert len(name) >= MIN_NAME_CHARS


def test_a_finding_that_names_a_replaced_value_gains_nothing_from_it() -> None:
    """The call used the port the user then corrected: what relied on the finding was the
    old value, so it ranks as an unnamed finding does, and the later one outlasts it."""
    state = extract_working_state(
        [
            user("Work out why the order sync hangs every night. The broker port is 5671."),
            say("The sync worker consumes from port `5671` of the host `broker-east-2.int`."),
            act(call("n1", "bash", command="nc -vz broker-east-2.int 5671")),
            result("n1", "bash", "nc: connect to broker-east-2.int port 5671 failed"),
            user("Correction: the broker port is 5699, not 5671."),
            say("Also worth noting: the dedupe window in `sync.yaml` is 120 seconds long."),
            say("Nothing more in the worker folder looks off, so the network is the lead."),
        ]
    )
    alone = only_one_fits(state, "consumes from port", UNUSED)
    assert alone and set(alone) == {UNUSED}
