"""An OpenClaw session written out as a markdown transcript extract → a corpus case's turns.

The extract is a run of ``### TIMESTAMP ROLE`` entries, ROLE being ``user``, ``assistant``
or ``toolResult``. It records tool results but not the calls that asked for them, so a run
of results gets calls made up for it: they go to the assistant turn just before when that
turn has none yet (the model said what it would do, then did it), or else to an empty
assistant turn (``common.call_owner``); each call is named ``tool``, its one argument
``note`` says the transcript does not record it, and its tool turn is the result. The
gateway's ``Sender (untrusted metadata)`` / ``Conversation info (untrusted metadata)`` JSON
blocks at the top of a user entry are harness text (channel label, message id, the person's
name) and are dropped; ``System:`` lines the gateway put there stay, as the model read them.

    python3 tools/realsets/openclaw_transcript.py EXTRACT.md FIRST_LINE LAST_LINE OUT.json \
        [REAL=FAKE …]
"""

from __future__ import annotations

import re
import sys
from typing import Any

from common import Scrubber, call_owner, clean, close_open_calls, convert_export, trim

TOOL_LIMIT = 1500
TEXT_LIMIT = 4000
ENTRY = re.compile(r"^### \d{4}-\d\d-\d\dT[\d:.+-]+ (user|assistant|toolResult)\s*$", re.M)
METADATA = re.compile(
    r"^[A-Z][a-z]+(?: [a-z]+)? \(untrusted metadata\):\n```json\n.*?\n```\n?", re.M | re.S
)
UNRECORDED = {"note": "the transcript records the result, not the call"}


def convert(text: str, first: int, last: int, scrub: Scrubber) -> list[dict[str, Any]]:
    chunk = "\n".join(text.splitlines()[first - 1 : last])
    parts = ENTRY.split(chunk)
    turns: list[dict[str, Any]] = []
    for number in range(1, len(parts), 2):
        role, body = parts[number], clean(parts[number + 1]).strip()
        if role == "toolResult":
            owner = call_owner(turns)
            call = {
                "id": f"openclaw_{number // 2 + 1}",
                "name": "tool",
                "arguments": dict(UNRECORDED),
            }
            owner["tool_calls"].append(call)
            shown = trim(scrub(body or "(empty result)"), TOOL_LIMIT)
            turns.append(
                {"role": "tool", "tool_call_id": call["id"], "name": "tool", "text": shown}
            )
            continue
        if role == "user":
            body = METADATA.sub("", body).strip()
        said = trim(scrub(body), TEXT_LIMIT)
        if said:
            turns.append({"role": role, "text": said})
    return close_open_calls(turns)


if __name__ == "__main__":
    convert_export(convert, sys.argv[1:])
