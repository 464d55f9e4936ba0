"""The summary guard against a model's lossy checkpoint."""

from __future__ import annotations

from synopsis.state import WorkingState, extract_working_state
from synopsis.state.guard import guard_summary, pinned_facts
from synopsis.state.sections import parse_sections
from tests.state.builders import act, call, ids, result, say, user

MESSAGES = [
    user("Please fix the refund flow for order PAY-4821. Never change the public API."),
    say("I'll start with the refund handler."),
    act(call("c1", "bash", command="pytest tests/test_refund.py")),
    result("c1", "bash", "E   AssertionError: refund total 0 != 42", error=True),
    user("The budget is $800 for the load-test machines."),
    user("Actually keep spend under five hundred dollars."),
]


def state() -> WorkingState:
    return extract_working_state(MESSAGES, entry_ids=ids(MESSAGES))


PARAPHRASED = """## Goal
Fix the refund flow for the payment ticket.

## Constraints & Preferences
- Keep compatibility.

## Progress
### Done
- Looked at the refund handler.

### In Progress
- (none)

### Blocked
- Tests are failing.

## Key Decisions
- Start with the refund handler.

## Next Steps
1. Make the tests pass within the $800 budget.

## Critical Context
- Budget: $800
"""


def section(text: str, kind: str) -> str:
    return "\n".join("\n".join(items) for k, _, items in parse_sections(text) if k == kind)


def test_restores_a_dropped_constraint_into_its_section() -> None:
    guarded = guard_summary(PARAPHRASED, state())
    rules = section(guarded.text, "constraints")
    assert "Never change the public API." in rules
    assert "Keep compatibility." in rules  # the model's own line stays
    restored = {(c.kind, c.text, c.section) for c in guarded.restored}
    assert ("constraint", "Never change the public API.", "Constraints & Preferences") in restored


def test_restores_a_paraphrased_id_into_critical_context() -> None:
    guarded = guard_summary(PARAPHRASED, state())
    assert "PAY-4821" in section(guarded.text, "critical")
    assert ("identifier", "PAY-4821", "Critical Context") in {
        (c.kind, c.text, c.section) for c in guarded.restored
    }


def test_restores_the_goal_and_the_open_error() -> None:
    guarded = guard_summary(PARAPHRASED, state())
    assert "Please fix the refund flow for order PAY-4821." in section(guarded.text, "goal")
    assert "E   AssertionError: refund total 0 != 42" in section(guarded.text, "blocked")


def test_a_superseded_value_is_not_left_as_current() -> None:
    guarded = guard_summary(PARAPHRASED, state())
    for line in guarded.text.splitlines():
        if "$800" in line:
            assert "superseded" in line and "five hundred dollars" in line
    assert {c.text for c in guarded.stale} == {"$800"}
    assert "five hundred dollars" in guarded.text


def test_guarding_twice_changes_nothing_more() -> None:
    once = guard_summary(PARAPHRASED, state())
    twice = guard_summary(once.text, state())
    assert twice.text == once.text and not twice.changed


def test_a_faithful_summary_is_left_alone() -> None:
    facts = pinned_facts(state())
    faithful = "\n".join(["## Goal", "## Constraints & Preferences"] + [f.line for f in facts])
    guarded = guard_summary(faithful, state())
    assert guarded.restored == ()
    assert guarded.text == faithful


def test_missing_sections_are_created_in_checkpoint_order() -> None:
    guarded = guard_summary("The agent fixed some things.", state())
    kinds = [kind for kind, _, _ in parse_sections(guarded.text) if kind]
    assert kinds == ["goal", "constraints", "progress", "blocked", "critical"]
    assert guarded.text.startswith("The agent fixed some things.")


def test_restored_facts_go_before_a_split_turn_and_the_file_lists() -> None:
    text = (
        "## Goal\n- Refund flow.\n"
        "\n---\n\n## Earlier in the current turn (kept part follows)\n\n## Original Request\n- x"
        "\n\n<read-files>\nsrc/refund.py\n</read-files>"
    )
    guarded = guard_summary(text, state()).text
    head, _, turn = guarded.partition("\n---\n")
    assert "Never change the public API." in head and "PAY-4821" in head
    assert turn.endswith("<read-files>\nsrc/refund.py\n</read-files>")


def test_a_resolved_error_is_not_pinned() -> None:
    messages = [
        *MESSAGES,
        act(call("c2", "bash", command="pytest tests/test_refund.py")),
        result("c2", "bash", "1 passed"),
    ]
    facts = pinned_facts(extract_working_state(messages))
    assert "error" not in {f.kind for f in facts}


def test_paths_are_not_pinned_but_ids_from_the_assistant_are() -> None:
    messages = [
        user("Look at src/refund/handler.py please."),
        say("Committed as `a1b2c3d`."),
    ]
    facts = {f.text for f in pinned_facts(extract_working_state(messages))}
    assert "a1b2c3d" in facts
    assert "src/refund/handler.py" not in facts
