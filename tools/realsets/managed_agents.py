"""A Claude Managed Agents session event log (``transcript.jsonl``) → a corpus case's turns.

The platform records one event per line: ``{"role", "kind", "time", "raw"}``, ``raw`` being
the API event. ``user`` / ``define_outcome`` is the task the person set: its description
and the grading rubric that came with it form the first user turn. ``agent`` / ``message``
and ``agent`` / ``tool_use`` events are the model's text and calls; those that follow one
another make one assistant turn; ``agent`` / ``tool_result`` answers its ``tool_use_id``.
The grader's verdict (``outcome_evaluation_end``, its ``explanation``) reaches the agent as
feedback, so it is a user turn, and so is ``user`` / ``interrupt``. Thinking events (their
text is not recorded), model-request spans, status and usage events are dropped.

    python3 tools/realsets/managed_agents.py TRANSCRIPT.jsonl FIRST LAST OUT.json [REAL=FAKE …]

(FIRST and LAST are line numbers.)
"""

from __future__ import annotations

import sys
from typing import Any

from common import Scrubber, clean, close_open_calls, convert_jsonl, scrub_arguments, trim

TOOL_LIMIT = 1500
TEXT_LIMIT = 4000
TASK_LIMIT = 6000


def _result_text(event: dict[str, Any]) -> str:
    if isinstance(event.get("content"), str):
        return str(event["content"])
    parts = []
    for block in (event.get("raw") or {}).get("content") or []:
        if block.get("type") == "text":
            parts.append(str(block.get("text") or ""))
        elif block.get("type") == "document":
            source = block.get("source") or {}
            title = block.get("title") or "document"
            parts.append(f"[{title}]\n{source.get('data') or ''}".strip())
        elif block.get("type") == "image":
            parts.append("(an image; its data is not kept in the case)")
    return "\n".join(parts)


def _user_text(event: dict[str, Any]) -> str:
    raw = event.get("raw") or {}
    if event.get("kind") == "define_outcome":
        rubric = (raw.get("rubric") or {}).get("content") or ""
        return f"{raw.get('description') or ''}\n\nRubric:\n{rubric}".strip()
    if event.get("kind") == "outcome_evaluation_end":
        verdict = raw.get("result") or "done"
        return f"(outcome evaluation: {verdict})\n{raw.get('explanation') or ''}"
    if event.get("kind") == "interrupt":
        return "(the user interrupted the session)"
    return str(event.get("content") or "")


def convert(events: list[dict[str, Any]], scrub: Scrubber) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    names: dict[str, str] = {}
    for event in events:
        role, kind, raw = event.get("role"), event.get("kind"), event.get("raw") or {}
        if role == "agent" and kind in ("message", "tool_use"):
            if not turns or turns[-1]["role"] != "assistant":
                turns.append({"role": "assistant", "text": ""})
            turn = turns[-1]
            if kind == "message":
                text = trim(scrub(clean(str(event.get("content") or ""))), TEXT_LIMIT)
                turn["text"] = (turn["text"] + "\n\n" + text).strip()
            else:
                name = str(raw.get("name") or event.get("tool") or "tool")
                names[str(raw.get("id"))] = name
                arguments = scrub_arguments(raw.get("input") or {}, scrub, TEXT_LIMIT)
                call = {"id": str(raw.get("id")), "name": name, "arguments": arguments}
                turn.setdefault("tool_calls", []).append(call)
        elif role == "agent" and kind == "tool_result":
            call_id = str(raw.get("tool_use_id"))
            text = trim(scrub(clean(_result_text(event))), TOOL_LIMIT)
            tool = {"role": "tool", "tool_call_id": call_id, "name": names.get(call_id, "tool")}
            turns.append({**tool, "text": text or "(empty result)"})
        elif kind in ("define_outcome", "outcome_evaluation_end", "interrupt"):
            limit = TASK_LIMIT if kind == "define_outcome" else TEXT_LIMIT
            turns.append({"role": "user", "text": trim(scrub(clean(_user_text(event))), limit)})
    return close_open_calls(turns)


if __name__ == "__main__":
    convert_jsonl(convert, sys.argv[1:])
