"""What the assistant reports of a result it just read is kept as reference, never as the
user's fact; a title's full stop ends no sentence."""

from __future__ import annotations

from synopsis.state import extract_working_state, render_state
from synopsis.state._text import sentences
from synopsis.state.guard import pinned_facts
from tests.state.builders import act, call, result, say, user


def lookup() -> list[dict[str, object]]:
    return [
        user("Which vet did Bella see last spring? I need to book the follow-up."),
        act(call("q1", "records_search", pet="Bella")),
        result("q1", "records_search", '{"visits": [{"vet": "V-19", "clinic": "C-4"}]}'),
    ]


def test_the_assistants_report_of_a_result_is_a_reference_fact() -> None:
    state = extract_working_state(
        [*lookup(), say("Bella saw Dr. Priya Ramanathan at Northside Animal Clinic on April 3.")]
    )
    fact = next(f for f in state.facts if "Ramanathan" in f.text)
    assert fact.source == "assistant" and fact.written == "tool"
    assert "Ramanathan" in render_state(state)
    assert all("Ramanathan" not in f.text for f in pinned_facts(state))


def test_a_guess_is_no_finding() -> None:
    state = extract_working_state(
        [user("Plan a picnic."), say("Maybe Riverside Park on Sunday would be nice.")]
    )
    assert all(f.source != "assistant" for f in state.facts)


def test_a_question_back_is_no_finding() -> None:
    state = extract_working_state([*lookup(), say("Do you mean the visit in Lisbon on May 2?")])
    assert all(f.source != "assistant" for f in state.facts)


def test_findings_are_bounded_to_the_latest() -> None:
    messages = [user("Check each shard's size, please.")]
    for n in range(30):
        messages += [
            act(call(f"s{n}", "shard_size", shard=n)),
            result(f"s{n}", "shard_size", f"{n * 3} GB"),
            say(f"Shard {n} of cluster Orion holds {n * 3} GB."),
        ]
    findings = [f for f in extract_working_state(messages).facts if f.source == "assistant"]
    assert 0 < len(findings) <= 12
    assert "Shard 29 " in findings[-1].text


def test_a_title_ends_no_sentence() -> None:
    text = "Book me with Dr. Oseni, not Mrs. Oseni. She is e.g. the one in Mr. Lee's building."
    assert [text[a:b] for a, b in sentences(text)] == [
        "Book me with Dr. Oseni, not Mrs. Oseni.",
        "She is e.g. the one in Mr. Lee's building.",
    ]


def test_no_at_the_start_of_a_reply_still_ends_a_sentence() -> None:
    text = "No. Keep the old one."
    assert [text[a:b] for a, b in sentences(text)] == ["No.", "Keep the old one."]


def test_a_diagnosis_with_its_subject_is_a_finding() -> None:
    """What the agent found out, said with the code name it is about, in our own words."""
    messages = [
        user("Why are the invoices dated a day early?"),
        say(
            "Found it. The bug is in `to_local_day`: it drops the timezone before truncating. "
            "I think the report job is also slow."
        ),
        user("And why does the sync stop after a while?"),
        say("Root cause: the retry loop in sync_worker never resets its attempt counter."),
    ]
    facts = [f.text for f in extract_working_state(messages).facts if f.source == "assistant"]
    assert "The bug is in `to_local_day`: it drops the timezone before truncating." in facts
    assert "Root cause: the retry loop in sync_worker never resets its attempt counter." in facts
    assert not any("I think" in fact for fact in facts)  # a guess finds nothing


def test_a_remark_without_a_subject_is_no_finding() -> None:
    messages = [user("Check the build."), say("Found it. That was the problem all along.")]
    assert not [f for f in extract_working_state(messages).facts if f.source == "assistant"]
