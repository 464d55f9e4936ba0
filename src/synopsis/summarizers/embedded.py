"""The embedded summarizer: a structured checkpoint written by code, with no model.

It is the default because it costs nothing, needs no network and cannot hallucinate:
every line comes from the working state (:mod:`synopsis.state`) — the user's rules and
values verbatim, progress from the tool events themselves, decisions in the assistant's
own words — and it runs fast enough to sit inside the agent loop. In update mode the
previous checkpoint is read back (its rules and values into the state, its other lines
as items) and merged; values the user has since corrected are dropped. When synopsis
wrote the previous checkpoint, its working state arrives as data with the request and
seeds the new one instead of the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from synopsis.messages import role_of, text_of
from synopsis.state._progress import is_reply
from synopsis.state._snapshots import split_snapshot
from synopsis.state.extract import asks_anew, extract_working_state
from synopsis.state.model import Decision, WorkingState
from synopsis.state.render import Layout, render_state
from synopsis.summarizers.base import SummaryKind, SummaryRequest, SummaryResult, SummaryUsage

_LAYOUT: dict[SummaryKind, Layout] = {
    SummaryKind.HISTORY: "checkpoint",
    SummaryKind.UPDATE: "checkpoint",
    SummaryKind.TURN_PREFIX: "turn_prefix",
    SummaryKind.BRANCH: "branch",
}


class EmbeddedSummarizer:
    """Implements the :class:`~synopsis.summarizers.base.Summarizer` protocol offline.

    ``custom_instructions`` are used only as a focus hint: items that mention their words
    are the last to go when the summary must shrink.
    """

    derives_from_state = True
    """The checkpoint is rendered from the working state, which travels between rounds as
    data: a full pass over the log cannot improve it (:func:`~synopsis.summarizers.base.drifts`)."""

    async def summarize(self, request: SummaryRequest) -> SummaryResult:
        return SummaryResult(summarize_request(request), SummaryUsage())


def read_back(summary: str) -> WorkingState:
    """What a checkpoint's text states, for checkpoints whose working state we lack
    (Pi's, a model's, a hook's). Its items are marked as read from a summary: the guard
    never pins them on their own."""
    return extract_working_state([{"role": "compactionSummary", "summary": summary}])


def summarize_request(request: SummaryRequest) -> str:
    """The checkpoint text for ``request`` (synchronous core of :class:`EmbeddedSummarizer`)."""
    previous_summary = request.previous_summary or None
    messages = list(request.messages)
    if not previous_summary:  # a harness' summary in a user turn is the previous one
        previous_summary, messages = harness_summary(messages)
    if previous_summary:
        seed = request.previous_state or read_back(previous_summary)
        # The new messages' first request is a goal of its own (the checkpoint's goals stay
        # first): withhold the seed's goals while extracting, so it is seen as one.
        state = extract_working_state(messages, previous=replace(seed, goals=()))
        new_goals = state.goals
        if seed.goals and new_goals and is_reply(new_goals[0].text):
            # an answer to the assistant continues the checkpoint's request: a choice
            reply = new_goals[0]
            new_goals = new_goals[1:]
            if all(d.text != reply.text for d in state.decisions):
                choice = Decision(reply.text, reply.entry_id, "user")
                state = replace(state, decisions=(*state.decisions, choice))
        elif seed.goals and new_goals and not asks_anew(new_goals[0].text):
            new_goals = new_goals[1:]  # "Nice, please commit": a step of the request under way
        goals = {goal.text: goal for goal in (*seed.goals, *new_goals)}
        state = replace(state, goals=tuple(goals.values()))
    else:
        state = extract_working_state(messages)
    if request.continued_by:
        state = got_past_later(state, request.continued_by)
    return render_state(
        state,
        layout=_LAYOUT.get(request.kind, "checkpoint"),
        previous_summary=previous_summary,
        max_tokens=request.max_tokens,
        focus=request.custom_instructions,
        target_chars=target_chars(request),
    )


def harness_summary(messages: list[Any]) -> tuple[str | None, list[Any]]:
    """(the checkpoint text of the latest summary a harness left in a user turn — Gemini
    CLI's ``<state_snapshot>`` — or None, the messages without the turns that held it)."""
    found: str | None = None
    rest: list[Any] = []
    for message in messages:
        snapshot = split_snapshot(text_of(message, "\n")) if role_of(message) == "user" else None
        if snapshot is None:
            rest.append(message)
            continue
        found, said = snapshot
        if said.strip():  # what the user wrote besides it stays their message
            rest.append({**message, "content": said})
    return found, rest


GOT_PAST_LATER = "got past later in the current turn"


def got_past_later(state: WorkingState, later: Sequence[Any]) -> WorkingState:
    """``state`` with the failures that the ``later`` messages got past marked so (a split
    turn's early part is summarized apart, but a fix there resolves the history's
    failure): what is still open is judged over all the calls, as one state would."""
    opened = state.open_errors()
    if not opened:
        return state
    joined = extract_working_state(list(later), previous=state)
    still_open = {r.call_id for r in joined.open_errors()}
    past = {r.call_id for r in opened if r.call_id not in still_open}
    if not past:
        return state
    calls = tuple(
        replace(r, outcome=GOT_PAST_LATER) if r.call_id in past else r for r in state.tool_calls
    )
    return replace(state, tool_calls=calls)


MIN_TARGET_CHARS = 3200
MAX_TARGET_CHARS = 3600
"""A normal checkpoint's size, whatever it replaces: about one screen an agent reads whole
(the file lists compaction appends come on top)."""
TURN_PREFIX_SHARE = 0.4
"""A split turn's early part gets this share of it (the history checkpoint the rest)."""
TARGET_SHARE = 0.1


def target_chars(request: SummaryRequest) -> int:
    """The size a normal checkpoint keeps to: a tenth of the transcript it replaces,
    within [MIN_TARGET_CHARS, MAX_TARGET_CHARS]; ``max_tokens`` stays the hard cap."""
    replaced = len(request.conversation) + len(request.previous_summary or "")
    target = max(MIN_TARGET_CHARS, min(MAX_TARGET_CHARS, int(replaced * TARGET_SHARE)))
    if request.kind == SummaryKind.TURN_PREFIX:
        return int(target * TURN_PREFIX_SHARE)
    return target
