"""A Qwen Code conversation ``/export`` markdown file → a corpus case's turns.

The export (``# Qwen Code Conversation Export``, then ``**Exported:**`` / ``**Session ID:**``
lines, dropped) is a run of sections separated by ``---``: ``## User Message`` (what the
person typed, slash commands included), ``## Assistant Response`` (the model's text),
``### Tool Execution`` (one call: a ``**Tool:** name`` line and, when the export kept one, a
``**Result:**`` summary or output; the call's input is not in the export) and ``### Info``
(the CLI's notice after a slash command, a ``> `` quote). Calls in a row go to the assistant
response just before them when it has none yet, or else to an empty assistant turn; each has
the argument ``note`` saying its input is not in the export. An Info notice is a user turn,
as the person saw it in their console (craft_agents.py does the same with ``info``).

    python3 tools/realsets/qwen_export.py EXPORT.md FIRST_LINE LAST_LINE OUT.json [REAL=FAKE …]
"""

from __future__ import annotations

import re
import sys
from typing import Any

from common import Scrubber, call_owner, clean, close_open_calls, convert_export, trim

TOOL_LIMIT = 1500
TEXT_LIMIT = 4000
SECTION = re.compile(r"^##+ (User Message|Assistant Response|Tool Execution|Info)\s*$", re.M)
TOOL = re.compile(r"^\*\*Tool:\*\* *(\S+)\s*$", re.M)
RESULT = re.compile(r"^\*\*Result:\*\* ?", re.M)
NO_INPUT = {"note": "the export records the tool's name and result, not its input"}
NO_RESULT = "(the export shows no result for this call)"


def _body(text: str) -> str:
    return clean(text).strip().removesuffix("---").strip()


def _tool(body: str, scrub: Scrubber, turns: list[dict[str, Any]], number: int) -> None:
    name_match = TOOL.search(body)
    name = name_match.group(1) if name_match else "tool"
    result_match = RESULT.search(body)
    result = body[result_match.end() :].strip() if result_match else ""
    owner = call_owner(turns)
    call = {"id": f"qwen_{number}", "name": name, "arguments": dict(NO_INPUT)}
    owner["tool_calls"].append(call)
    text = trim(scrub(result or NO_RESULT), TOOL_LIMIT)
    turns.append({"role": "tool", "tool_call_id": call["id"], "name": name, "text": text})


def convert(text: str, first: int, last: int, scrub: Scrubber) -> list[dict[str, Any]]:
    chunk = "\n".join(text.splitlines()[first - 1 : last])
    parts = SECTION.split(chunk)
    turns: list[dict[str, Any]] = []
    for number in range(1, len(parts), 2):
        kind, body = parts[number], _body(parts[number + 1])
        if kind == "Tool Execution":
            _tool(body, scrub, turns, number // 2 + 1)
            continue
        if kind == "Info":
            body = "\n".join(
                line.removeprefix("> ").removeprefix(">") for line in body.splitlines()
            )
        if not body:
            continue
        role = "assistant" if kind == "Assistant Response" else "user"
        turns.append({"role": role, "text": trim(scrub(body), TEXT_LIMIT)})
    return close_open_calls(turns)


if __name__ == "__main__":
    convert_export(convert, sys.argv[1:])
