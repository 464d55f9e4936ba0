"""The guard drops a rule line of a model's checkpoint that nothing the user wrote backs:
a model that invents a rule, or copies one from its previous checkpoint, does not keep it
round after round. Cases written for this file, in our own words."""

from __future__ import annotations

import asyncio
from typing import Any

from synopsis.compaction.messages_api import compact_messages
from synopsis.state import extract_working_state
from synopsis.state.guard import guard_summary
from synopsis.summarizers.base import SummaryRequest, SummaryResult

MADE_UP = "Always cc the finance director on every vendor email."
USERS = "Never book a flight that lands after midnight, the hotel closes its desk."
PARAPHRASE = "No flights that land after midnight (hotel desk closes)."


def talk(rounds: int = 6) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = [
        {"role": "user", "content": "Find me a flight from Porto to Oslo for the 14th."},
        {"role": "assistant", "content": "Looking at Porto to Oslo on the 14th."},
        {"role": "user", "content": USERS},
    ]
    for n in range(rounds):
        turns.append({"role": "user", "content": f"Any seats yet, try {n}?"})
        turns.append({"role": "assistant", "content": f"Still checking fares ({n})."})
    return turns


class CopyingModel:
    """A model-like summarizer that states a rule nobody gave and paraphrases a real one."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    async def summarize(self, request: SummaryRequest) -> SummaryResult:
        self.seen.append(request.previous_summary or "")
        return SummaryResult(
            "## Goal\n- Book the Porto to Oslo flight.\n\n## Constraints & Preferences\n"
            f"- {MADE_UP}\n- {PARAPHRASE}\n"
        )


def test_an_invented_rule_line_is_dropped_and_reported() -> None:
    state = extract_working_state(talk())
    summary = f"## Constraints & Preferences\n- {MADE_UP}\n- {PARAPHRASE}\n"
    guarded = guard_summary(summary, state)
    assert MADE_UP not in guarded.text
    assert PARAPHRASE in guarded.text  # the user's rule in the model's words stays
    assert [(c.action, c.text) for c in guarded.dropped] == [("dropped", MADE_UP)]
    assert guarded.to_json()["dropped"][0]["text"] == MADE_UP


def test_nothing_is_dropped_without_a_state_to_check_against() -> None:
    summary = f"## Constraints & Preferences\n- {MADE_UP}\n"
    guarded = guard_summary(summary, extract_working_state([]))
    assert MADE_UP in guarded.text and "dropped" not in guarded.to_json()


def test_a_rule_from_an_earlier_checkpoint_is_backed_by_it() -> None:
    earlier = {
        "role": "compactionSummary",
        "summary": f"## Constraints & Preferences\n- {MADE_UP}\n",
    }
    state = extract_working_state([earlier, *talk()])
    guarded = guard_summary(f"## Constraints & Preferences\n- {MADE_UP}\n", state)
    assert MADE_UP in guarded.text  # a checkpoint synopsis did not write: reference kept


def test_a_model_copying_its_invented_rule_never_gets_it_through() -> None:
    model = CopyingModel()
    first = asyncio.run(compact_messages(talk(), summarizer=model, keep_recent_tokens=40))
    assert first.summary is not None and MADE_UP not in first.summary
    second = asyncio.run(
        compact_messages(
            [*first.messages, *talk(9)[-6:]],
            summarizer=model,
            keep_recent_tokens=40,
            previous_summary=first.summary,
            previous_state=first.state,
        )
    )
    assert second.summary is not None and MADE_UP not in second.summary
    assert USERS in second.summary  # the user's own rule, pinned, verbatim


def test_a_rule_of_the_previous_checkpoint_stays_when_no_state_came_with_it() -> None:
    """A checkpoint passed on as text only (another tool wrote it, or its details were
    lost): the messages that backed its rules are gone, the checkpoint itself backs them."""
    kept_rule = MADE_UP  # in the previous checkpoint, and copied by the model from it
    previous = (
        "## Goal\n- Book the Porto to Oslo flight.\n\n"
        f"## Constraints & Preferences\n- {kept_rule}\n"
    )
    result = asyncio.run(
        compact_messages(
            talk(), summarizer=CopyingModel(), keep_recent_tokens=40, previous_summary=previous
        )
    )
    assert result.summary is not None and kept_rule in result.summary
    assert USERS in result.summary


def test_the_previous_checkpoint_backs_only_its_own_rules() -> None:
    state = extract_working_state(talk())
    earlier = "## Goal\n- Book the flight.\n\n## Constraints & Preferences\n- Window seats only.\n"
    guarded = guard_summary(
        f"## Constraints & Preferences\n- {MADE_UP}\n- Window seats only.\n", state, earlier=earlier
    )
    assert "Window seats only." in guarded.text
    assert MADE_UP not in guarded.text  # backed neither by the state nor by the checkpoint
