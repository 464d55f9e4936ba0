"""Cline's ``api_conversation_history.json`` → the turns of a corpus case.

Cline sends everything back as user messages: ``[tool for 'x'] Result:`` blocks answer the
assistant's ``tool_use`` blocks in order, the person's words arrive as ``<feedback>`` or
``<user_message>`` inside them, and each message carries harness text (``<environment_details>``,
the ``task_progress`` reminders, ``[TASK RESUMPTION]`` notes) that is dropped here.
``[ERROR] You did not use a tool…`` nudges are kept as user turns (the agent saw them).

    python3 tools/realsets/cline.py HISTORY.json FIRST LAST OUT.json
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from common import Scrubber, clean, close_open_calls, trim, write_turns

RESULT = re.compile(r"^\[(\w+)(?: for '.*?')?\] Result:", re.S)
PERSON = re.compile(r"<(feedback|user_message|answer)>\s*(.*?)\s*</\1>", re.S)
HARNESS_PREFIXES = (
    "<environment_details>",
    "[TASK RESUMPTION]",
    "The user has provided feedback on the results.",
)
# The person's name and address in the source, replaced as its secrets are.
NAMES = {
    "mike.mccully@noaa.gov": "m.user@agency.example",
    "mike.mccully": "m.user",
    "mikem": "muser",
}
SCRUB = Scrubber(NAMES)
TOOL_LIMIT = 1500
TEXT_LIMIT = 4000


def _is_reminder(text: str) -> bool:
    head = text.lstrip()[:120]
    return head.startswith("# task_progress") or head.startswith("# TODO LIST UPDATE")


def _person_words(text: str) -> list[str]:
    """What the person typed in a harness block (feedback, a new message)."""
    return [m.group(2) for m in PERSON.finditer(text) if m.group(1) != "answer"]


def convert(history: list[dict[str, Any]], first: int, last: int) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    for message in history[first : last + 1]:
        blocks = message["content"]
        if message["role"] == "assistant":
            text = "\n\n".join(SCRUB(clean(b["text"])) for b in blocks if b.get("type") == "text")
            calls = [
                {
                    "id": b["id"],
                    "name": b["name"],
                    "arguments": {k: v for k, v in b["input"].items() if k != "task_progress"},
                }
                for b in blocks
                if b.get("type") == "tool_use"
            ]
            for call in calls:
                for key, value in call["arguments"].items():
                    if isinstance(value, str):
                        call["arguments"][key] = trim(SCRUB(clean(value)), TEXT_LIMIT)
            turn: dict[str, Any] = {"role": "assistant", "text": trim(text, TEXT_LIMIT)}
            if calls:
                turn["tool_calls"] = calls
            turns.append(turn)
            pending = list(calls)
            continue
        for block in blocks:
            if block.get("type") != "text":
                continue
            text = SCRUB(clean(block["text"])).strip()
            if not text or _is_reminder(text) or text.startswith(HARNESS_PREFIXES[0]):
                continue
            if RESULT.match(text) and pending:
                call = pending.pop(0)
                said = ""
                marker = "The user provided the following feedback:"
                if marker in text:
                    text, said = text.split(marker, 1)
                turns.append(
                    {
                        "role": "tool",
                        "tool_call_id": call["id"],
                        "name": call["name"],
                        "text": trim(text.strip(), TOOL_LIMIT),
                    }
                )
                for words in _person_words(said):
                    turns.append({"role": "user", "text": trim(words, TEXT_LIMIT)})
                continue
            if text.startswith(HARNESS_PREFIXES):
                for words in _person_words(text):
                    turns.append({"role": "user", "text": trim(words, TEXT_LIMIT)})
                continue
            words = _person_words(text)
            if words:
                for said in words:
                    turns.append({"role": "user", "text": trim(said, TEXT_LIMIT)})
            else:
                turns.append({"role": "user", "text": trim(text, TEXT_LIMIT)})
    return close_open_calls(turns)


def main() -> None:
    source, first, last, out = sys.argv[1:5]
    history = json.loads(Path(source).read_text(encoding="utf-8"))
    write_turns(convert(history, int(first), int(last)), Path(out))


if __name__ == "__main__":
    main()
