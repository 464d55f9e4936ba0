"""A Google Antigravity trajectory (one JSON step a line) → a corpus case's turns.

Unlike the markdown chat export (``windsurf.py``), the trajectory has the tool results.
Each line is a step with a ``type``:

- ``USER_INPUT``: the person's message, the text inside ``<USER_REQUEST>`` (the
  ``<ADDITIONAL_METADATA>`` clock and the ``<USER_SETTINGS_CHANGE>`` notes are the editor's
  and are dropped); an empty request (an image or a file only) says so.
- ``PLANNER_RESPONSE``: one assistant turn, its ``content`` the text and its ``tool_calls``
  the calls (arguments are JSON-encoded strings and are decoded; ``thinking`` is dropped; a
  response with neither text nor calls is dropped).
- every other step the model caused (``VIEW_FILE``, ``RUN_COMMAND``, ``CODE_ACTION``,
  ``GREP_SEARCH``, ``ERROR_MESSAGE`` for a call that could not run, …) is the result of the
  next unanswered call, in order.
- a step numbered at or below an earlier one starts a branch (the person rewound the
  conversation to edit a message): the steps it replaces are dropped, so the turns are the
  conversation as the model last saw it.
- ``SYSTEM_MESSAGE`` (a background command finished, with its output) reached the model as
  a message of its own and stays a user turn; ``EPHEMERAL_MESSAGE`` reminders,
  ``CONVERSATION_HISTORY`` and ``KNOWLEDGE_ARTIFACTS`` markers are harness text, dropped.

    python3 tools/realsets/antigravity_steps.py TRAJECTORY.jsonl FIRST LAST OUT.json [REAL=FAKE …]

(FIRST and LAST are step indexes.)
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from common import Scrubber, clean, trim, write_turns

TOOL_LIMIT = 1500
TEXT_LIMIT = 4000
REQUEST = re.compile(r"<USER_REQUEST>\s*(.*?)\s*</USER_REQUEST>", re.S)
DROPPED = {"EPHEMERAL_MESSAGE", "CONVERSATION_HISTORY", "KNOWLEDGE_ARTIFACTS", "CHECKPOINT"}
NO_TEXT = "(the user's message has no text in the trajectory: an image or a file only)"
NO_RESULT = "(no result step for this call in the source trajectory)"


def _argument(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _arguments(args: dict[str, Any], scrub: Scrubber) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in args.items():
        value = _argument(value)
        if isinstance(value, str):
            value = trim(scrub(value), TEXT_LIMIT)
        out[key] = value
    return out


def _result_text(step: dict[str, Any]) -> str:
    text = str(step.get("content") or step.get("error") or "")
    lines = text.split("\n")
    while lines and lines[0].startswith(("Created At:", "Completed At:")):
        lines.pop(0)
    return "\n".join(lines).strip() or f"({step['type']} step with no text)"


def convert(steps: list[dict[str, Any]], scrub: Scrubber) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    calls = 0

    def close() -> None:
        for call in pending:
            turns.append(
                {
                    "role": "tool",
                    "tool_call_id": call["id"],
                    "name": call["name"],
                    "text": NO_RESULT,
                }
            )
        pending.clear()

    for step in steps:
        kind = step["type"]
        if kind in DROPPED:
            continue
        if kind == "USER_INPUT":
            close()
            found = REQUEST.search(str(step.get("content") or ""))
            text = found.group(1).strip() if found else str(step.get("content") or "").strip()
            turns.append({"role": "user", "text": trim(scrub(clean(text)), TEXT_LIMIT) or NO_TEXT})
        elif kind == "SYSTEM_MESSAGE":
            close()
            text = trim(scrub(clean(_result_text(step))), TOOL_LIMIT)
            turns.append({"role": "user", "text": text})
        elif kind == "PLANNER_RESPONSE":
            close()
            turn: dict[str, Any] = {
                "role": "assistant",
                "text": trim(scrub(clean(str(step.get("content") or ""))).strip(), TEXT_LIMIT),
            }
            for call in step.get("tool_calls") or []:
                calls += 1
                made = {
                    "id": f"step{step['step_index']}_{calls}",
                    "name": call["name"],
                    "arguments": _arguments(call.get("args") or {}, scrub),
                }
                turn.setdefault("tool_calls", []).append(made)
                pending.append(made)
            if turn["text"] or turn.get("tool_calls"):
                turns.append(turn)
        else:
            text = trim(scrub(clean(_result_text(step))), TOOL_LIMIT)
            if pending:
                call = pending.pop(0)
                turns.append(
                    {"role": "tool", "tool_call_id": call["id"], "name": call["name"], "text": text}
                )
            elif turns and turns[-1]["role"] == "tool":
                turns[-1]["text"] += "\n" + text
    close()
    return turns


def linear(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The conversation as it finally stood: a step whose index is not past the last one
    starts a new branch from there (the person went back and edited an earlier message), so
    the steps it replaces are dropped."""
    kept: list[dict[str, Any]] = []
    for step in steps:
        while kept and kept[-1]["step_index"] >= step["step_index"]:
            kept.pop()
        kept.append(step)
    return kept


def main(argv: list[str]) -> None:
    source, first, last, out, *names = argv
    scrub = Scrubber(dict(pair.split("=", 1) for pair in names))
    steps = [
        json.loads(line)
        for line in Path(source).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    chosen = [s for s in linear(steps) if int(first) <= s["step_index"] <= int(last)]
    write_turns(convert(chosen, scrub), Path(out))


if __name__ == "__main__":
    main(sys.argv[1:])
