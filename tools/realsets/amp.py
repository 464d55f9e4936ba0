"""An Amp thread exported as markdown (``amp threads markdown``) → a corpus case's turns.

The export starts with a front matter block (title, ``threadId``, ``agentMode``) and a
``# title`` line, both dropped. Then ``## User`` and ``## Assistant`` sections alternate.
An assistant section is the model's text and its calls, each a ``**Tool Use:** `name```
line followed by a fenced JSON block (the call's input). A user section holds either what
the person typed or the results of the calls before it, each a ``**Tool Result:** `id```
line and the result (usually one fenced block, whose fence is removed); results answer
the open calls in order. ``**Tool Cancelled:** `id``` means the person stopped the call;
its tool turn says so and the text after it is the person's next message.

    python3 tools/realsets/amp.py THREAD.md FIRST_LINE LAST_LINE OUT.json [REAL=FAKE …]
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from common import Scrubber, clean, convert_export, scrub_arguments, trim, user_assistant_turns

TOOL_LIMIT = 1500
TEXT_LIMIT = 4000
SECTION = re.compile(r"^## (User|Assistant)\s*$", re.M)
USE = re.compile(r"^\*\*Tool Use:\*\* `([^`]+)`\s*\n+```(?:json)?\n(.*?)\n```\s*$", re.M | re.S)
RESULT = re.compile(r"^\*\*Tool (Result|Cancelled):\*\* `[^`]*`\s*$", re.M)
CANCELLED = "(the person cancelled this call before it returned)"


def _unfence(text: str) -> str:
    text = text.strip()
    lines = text.splitlines()
    if len(lines) >= 2 and lines[0].startswith("```") and lines[-1].strip() == "```":
        return "\n".join(lines[1:-1])
    return text


def _assistant(body: str, scrub: Scrubber, number: int) -> dict[str, Any]:
    calls = []
    for index, match in enumerate(USE.finditer(body), 1):
        try:
            arguments: Any = json.loads(match.group(2))
        except json.JSONDecodeError:
            arguments = {"input": match.group(2)}
        if not isinstance(arguments, dict):
            arguments = {"input": arguments}
        calls.append(
            {
                "id": f"amp_{number}_{index}",
                "name": match.group(1),
                "arguments": scrub_arguments(arguments, scrub, 2000),
            }
        )
    said = trim(scrub(clean(USE.sub("", body).strip())), TEXT_LIMIT)
    turn: dict[str, Any] = {"role": "assistant", "text": said}
    if calls:
        turn["tool_calls"] = calls
    return turn


def _user(body: str, scrub: Scrubber, open_calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    marks = list(RESULT.finditer(body))
    if not marks:
        said = trim(scrub(clean(body.strip())), TEXT_LIMIT)
        return [{"role": "user", "text": said}] if said else []
    out: list[dict[str, Any]] = []
    typed = ""
    for index, mark in enumerate(marks):
        end = marks[index + 1].start() if index + 1 < len(marks) else len(body)
        content = body[mark.end() : end]
        if mark.group(1) == "Cancelled":
            shown, typed = CANCELLED, content.strip()
        else:
            shown = _unfence(content) or "(empty result)"
        if not open_calls:
            continue
        call = open_calls.pop(0)
        text = trim(scrub(clean(shown)), TOOL_LIMIT)
        out.append({"role": "tool", "tool_call_id": call["id"], "name": call["name"], "text": text})
    if typed:
        out.append({"role": "user", "text": trim(scrub(clean(typed)), TEXT_LIMIT)})
    return out


def convert(text: str, first: int, last: int, scrub: Scrubber) -> list[dict[str, Any]]:
    chunk = "\n".join(text.splitlines()[first - 1 : last])
    return user_assistant_turns(SECTION.split(chunk), scrub, _assistant, _user)


if __name__ == "__main__":
    convert_export(convert, sys.argv[1:])
