"""An OpenCode ``/export`` markdown file (``session-ses_XXXX.md``) → the turns of a corpus case.

OpenCode writes ``## User`` and ``## Assistant (agent · model · time)`` headings (an empty
``## User`` between assistant steps marks a continuation, not a message), the model's
reasoning after ``_Thinking:_`` (dropped here, up to the first tool block), and each tool
call as a fenced block: ``Tool: name``, ``**Input:**`` with a JSON block, ``**Output:**``
with the result.

    python3 tools/realsets/opencode.py EXPORT.md FIRST_LINE LAST_LINE OUT.json

FIRST_LINE / LAST_LINE (1-based, inclusive) bound the stretch kept; both should sit on
section headings or between them.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from common import Scrubber, clean, close_open_calls, convert_export, trim

HEADING = re.compile(r"^## (User|Assistant\b.*)$", re.M)
TOOL = re.compile(
    r"^```\nTool: (\w+)\n\n\*\*Input:\*\*\n```json\n(.*?)\n```\n"
    r"(?:\*\*Output:\*\*\n```\n(.*?)\n```\n)?```$",
    re.S | re.M,
)
THINKING = "_Thinking:_"
TOOL_LIMIT = 1500
TEXT_LIMIT = 4000


def _assistant(body: str, start: int, scrub: Scrubber) -> list[dict[str, Any]]:
    if body.lstrip().startswith(THINKING):
        first_tool = TOOL.search(body)
        body = body[first_tool.start() :] if first_tool else ""
    turns: list[dict[str, Any]] = []
    at, index = 0, start
    for match in TOOL.finditer(body):
        text = scrub(clean(body[at : match.start()])).strip().strip("-").strip()
        try:
            arguments = json.loads(match.group(2))
        except ValueError:
            arguments = {"input": match.group(2)}
        arguments = {
            k: trim(scrub(clean(v)), TEXT_LIMIT) if isinstance(v, str) else v
            for k, v in arguments.items()
        }
        index += 1
        call = {"id": f"opencode_{index}", "name": match.group(1), "arguments": arguments}
        turns.append({"role": "assistant", "text": trim(text, TEXT_LIMIT), "tool_calls": [call]})
        output = match.group(3) or "(no output in the source transcript)"
        turns.append(
            {
                "role": "tool",
                "tool_call_id": call["id"],
                "name": call["name"],
                "text": trim(scrub(clean(output)).strip(), TOOL_LIMIT),
            }
        )
        at = match.end()
    rest = scrub(clean(body[at:])).strip().strip("-").strip()
    if rest:
        turns.append({"role": "assistant", "text": trim(rest, TEXT_LIMIT)})
    return turns


def convert(text: str, first: int, last: int, scrub: Scrubber) -> list[dict[str, Any]]:
    lines = text.split("\n")
    stretch = "\n".join(lines[first - 1 : last])
    heads = list(HEADING.finditer(stretch))
    turns: list[dict[str, Any]] = []
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(stretch)
        body = stretch[head.end() : end].strip().removesuffix("---").strip()
        if head.group(1) == "User":
            if body:
                turns.append({"role": "user", "text": trim(scrub(clean(body)), TEXT_LIMIT)})
        else:
            turns.extend(_assistant(body, len(turns), scrub))
    return close_open_calls(turns)


def main() -> None:
    convert_export(convert, sys.argv[1:])


if __name__ == "__main__":
    main()
