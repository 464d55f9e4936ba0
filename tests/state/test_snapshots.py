"""A summary a harness left in a user turn (Gemini CLI's ``<state_snapshot>``) is read
as a previous summary: its sections where they belong, none of it the user's words."""

from __future__ import annotations

import re

from synopsis.state import extract_working_state
from synopsis.state._snapshots import split_snapshot
from tests.state.builders import act, by_section, call, result, say, summarize, user

_SNAPSHOT = """<state_snapshot>
    <overall_goal>
        Build an offline flashcard app for learning Portuguese verbs.
    </overall_goal>
    <active_constraints>
        <!-- what the user asked for -->
        - **Storage:** Never send the cards to a server; keep them in IndexedDB.
        - **Deck size:** 412 cards at the moment.
    </active_constraints>
    <key_knowledge>
        - The spaced-repetition interval doubles after each correct answer &amp; resets on a miss.
    </key_knowledge>
    <task_state>
        1. [DONE] Card editor.
        2. [IN PROGRESS] Review screen.
        3. [TODO] Export a deck as CSV.
    </task_state>
</state_snapshot>"""


def test_a_snapshot_reads_as_the_sections_it_names() -> None:
    split = split_snapshot(f"{_SNAPSHOT}\nplease continue with the review screen")
    assert split is not None
    checkpoint, rest = split
    assert rest == "please continue with the review screen"
    found = by_section(checkpoint)
    assert "offline flashcard app" in found["goal"]
    assert "Never send the cards to a server" in found["constraints"]
    assert "412 cards" in found["critical"]  # a state of the work, not a rule
    assert "doubles after each correct answer & resets" in found["critical"]
    assert "Card editor." in found["done"] and "Review screen." in found["in_progress"]
    assert "Export a deck as CSV." in found["next"]
    assert not re.search(r"\[(?:DONE|TODO|IN PROGRESS)\]|<!--", checkpoint)


def test_a_snapshot_turn_is_the_previous_summary_not_the_user_s_words() -> None:
    messages = [
        user(_SNAPSHOT),
        say("Got it, thanks for the context."),
        user("Add a dark theme to the review screen."),
        act(call("e1", "edit", path="src/review.css", oldText="a", newText="b")),
        result("e1", "edit", "ok"),
    ]
    state = extract_working_state(messages)
    rule = next(c for c in state.constraints if "Never send the cards" in c.text)
    assert rule.source == "summary"  # the harness' summary, not typed by the user
    assert not any("flashcard" in f.text for f in state.facts if f.source == "user")
    found = by_section(summarize(messages))
    assert "Build an offline flashcard app" in found["goal"].split("\n")[0]
    assert "Add a dark theme to the review screen." in found["goal"]
    assert "Never send the cards to a server" in found["constraints"]
