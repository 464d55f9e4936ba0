"""A GitHub Copilot CLI ``/share`` export (``copilot-session-….md``) → a corpus case's turns.

The export is a list of sections separated by ``---``, each with a ``<sub>⏱️ time</sub>``
line and a ``### <icon> kind`` heading: ``👤 User`` (the person), ``💬 Copilot`` (the
model's text), ``💭 Reasoning`` (dropped), ``✅ `tool``` / ``❌ `tool``` (a call: a bold
description, the arguments — a JSON block under ``Arguments`` or one rendered line — and the
result in the last fenced block), ``ℹ️ Info`` / ``❌ Error`` (console notices, dropped) and
``✓ Task Complete`` (the CLI repeating the ``task_complete`` call's summary, dropped). Calls
between two texts belong to the assistant turn of the text before them.

    python3 tools/realsets/copilot_cli.py EXPORT.md FIRST_LINE LAST_LINE OUT.json [REAL=FAKE …]
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from common import Scrubber, clean, close_open_calls, convert_export, trim

SECTION = re.compile(r"^<sub>⏱️ [^<]*</sub>\s*\n+### (.+?)\s*$", re.M)
TOOL = re.compile(r"^(✅|❌) `([\w.-]+)`$")
FENCE = re.compile(r"^```[\w-]*\n(.*?)^```\s*$", re.M | re.S)
ARGUMENTS = re.compile(r"<summary>Arguments</summary>\s*```json\n(.*?)\n```", re.S)
DESCRIPTION = re.compile(r"^\*\*(.+?)\*\*\s*$", re.M)
NO_OUTPUT = "(no output in the source transcript)"
TOOL_LIMIT = 1500
TEXT_LIMIT = 4000


def _call(name: str, body: str, index: int, scrub: Scrubber) -> tuple[dict[str, Any], str]:
    found = ARGUMENTS.search(body)
    arguments: dict[str, Any] = {}
    if found:
        try:
            arguments = json.loads(found.group(1))
        except ValueError:
            arguments = {"input": found.group(1)}
        rest = body[found.end() :]
    else:
        described = DESCRIPTION.search(body)
        if described:
            arguments["description"] = described.group(1)
        rest = body
        first_fence = FENCE.search(body)
        start = described.end() if described else 0
        shown = body[start : first_fence.start() if first_fence else len(body)]
        shown = re.sub(r"</?details>|<summary>.*?</summary>", "", shown).strip()
        if shown:
            arguments["input"] = shown
    arguments = {
        k: trim(scrub(v), TEXT_LIMIT) if isinstance(v, str) else v for k, v in arguments.items()
    }
    fences = FENCE.findall(rest)
    result = fences[-1].strip() if fences else NO_OUTPUT
    call = {"id": f"copilot_{index}", "name": name, "arguments": arguments}
    return call, trim(scrub(result), TOOL_LIMIT) or "(empty output)"


def convert(text: str, first: int, last: int, scrub: Scrubber) -> list[dict[str, Any]]:
    lines = clean(text).split("\n")
    stretch = "\n".join(lines[first - 1 : last])
    heads = list(SECTION.finditer(stretch))
    turns: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None  # the assistant turn that calls join
    results: list[dict[str, Any]] = []  # its results, written before the next turn

    def begin(turn: dict[str, Any]) -> None:
        turns.extend(results)
        results.clear()
        turns.append(turn)

    for number, head in enumerate(heads):
        end = heads[number + 1].start() if number + 1 < len(heads) else len(stretch)
        body = stretch[head.end() : end].strip().removesuffix("---").strip()
        kind = head.group(1)
        tool = TOOL.match(kind)
        if kind.endswith("User"):
            begin({"role": "user", "text": trim(scrub(body), TEXT_LIMIT)})
            current = None
        elif kind.endswith("Copilot"):
            current = {"role": "assistant", "text": trim(scrub(body), TEXT_LIMIT)}
            begin(current)
        elif tool:
            call, result = _call(tool.group(2), body, number, scrub)
            if current is None:
                current = {"role": "assistant", "text": ""}
                begin(current)
            current.setdefault("tool_calls", []).append(call)
            results.append(
                {"role": "tool", "tool_call_id": call["id"], "name": call["name"], "text": result}
            )
    turns.extend(results)
    return close_open_calls(turns)


if __name__ == "__main__":
    convert_export(convert, sys.argv[1:])
