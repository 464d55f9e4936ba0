"""In Progress says the step under way in the assistant's words: the latest sentence that
opens with a plan, while the request is open (histories and phrasings written here)."""

from __future__ import annotations

import pytest

from synopsis.state._progress import stated_step
from tests.state.builders import act, by_section, call, result, say, summarize, user


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "The build is green. Next, I'll move the fixtures into tests/data so CI finds them.",
            "Next, I'll move the fixtures into tests/data so CI finds them.",
        ),
        (
            "Ahora voy a regenerar el cliente porque el esquema cambió.",
            "Ahora voy a regenerar el cliente porque el esquema cambió.",
        ),
        ("Let me look at this:", None),  # a lead-in to what follows
        ("I'll check.", None),  # names nothing the last call does not
        ("The migration ran and the table has 3 rows.", None),  # a report, no plan
        ("Should I also drop the old index from the replica?", None),
    ],
)
def test_the_step_is_the_latest_plan_sentence(said: str, expected: str | None) -> None:
    assert stated_step(said) == expected


def test_in_progress_names_the_step_after_a_report_sent_back_to_work() -> None:
    history = [
        user("Add a retry to the upload client and cover it with a test."),
        say("Done: the client retries three times and the new test passes."),
        user("Stop hook feedback: the working tree has uncommitted changes."),
        act(
            call("c1", "bash", command="git status --short"),
            text="I need to commit the client and its test before stopping, the hook checks it.",
        ),
        result("c1", "bash", " M client.py\n M test_client.py"),
    ]
    in_progress = by_section(summarize(history)).get("in_progress", "")
    assert "Now: I need to commit the client and its test before stopping" in in_progress
