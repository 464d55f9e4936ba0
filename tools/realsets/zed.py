"""A Zed agent thread exported as markdown → a corpus case's turns.

Zed writes ``## User`` (``## User (checkpoint)`` when the thread kept a restore point) and
``## Assistant`` sections. An assistant section is the model's text and then its tool
calls, each a ``**Tool Call: TITLE**`` line, a ``Status: Completed`` / ``Status: Failed``
line and the result (a fenced file, a listing, a diff, a command's output) up to the next
call or section. Other ``## `` lines (``## Matches in …`` in a search result) belong to
the result they are in. The title is all the export says of the call's input, so it
becomes the call's ``title`` argument; the tool name is read off its wording (``Read
file `x``` → ``read_file``, ``Search files for regex`` → ``grep``, a bare path → ``edit_file``,
a backquoted command → ``terminal``). ``<thinking>`` blocks are dropped. Consecutive
assistant sections stay separate turns, as the model produced them.

    python3 tools/realsets/zed.py THREAD.md FIRST_LINE LAST_LINE OUT.json [REAL=FAKE …]
"""

from __future__ import annotations

import re
import sys
from typing import Any

from common import Scrubber, clean, close_open_calls, convert_export, trim

TOOL_LIMIT = 1500
TEXT_LIMIT = 4000
SECTION = re.compile(r"^## (User|Assistant)(?: \(checkpoint\))?\s*$")
CALL = re.compile(r"^\*\*Tool Call: (.*)\*\*\s*$")
STATUS = re.compile(r"^Status: (\w+)\s*$")
THINKING = re.compile(r"<thinking>.*?</thinking>", re.S)
NAMES = (
    (re.compile(r"^Read file\b"), "read_file"),
    (re.compile(r"^Search files for regex\b"), "grep"),
    (re.compile(r"^List the .* directory's contents$"), "list_directory"),
    (re.compile(r"^Create directory\b"), "create_directory"),
    (re.compile(r"^(?:Delete|Move|Copy|Rename)\b"), "move_or_delete_path"),
    (re.compile(r"^\d+ match(?:es)?$|^No matches$|^Find paths?\b"), "find_path"),
    (re.compile(r"^(?:Fetch|Fetched)\b"), "fetch"),
    (re.compile(r"^`.*`$|^Ran command$|^Run\b"), "terminal"),
    (re.compile(r"^[\w./-]+\.\w+$|^Edit file\b|^Read file$"), "edit_file"),
)


def tool_name(title: str) -> str:
    for pattern, name in NAMES:
        if pattern.search(title):
            return name
    return "tool"


def _sections(lines: list[str]) -> list[tuple[str, list[str]]]:
    sections: list[tuple[str, list[str]]] = []
    for line in lines:
        match = SECTION.match(line)
        if match:
            sections.append((match.group(1).lower(), []))
        elif sections:
            sections[-1][1].append(line)
    return sections


def _assistant(body: list[str], scrub: Scrubber, number: int) -> list[dict[str, Any]]:
    text: list[str] = []
    calls: list[tuple[str, str, list[str]]] = []
    for line in body:
        match = CALL.match(line)
        if match:
            calls.append((match.group(1).strip(), "Completed", []))
        elif calls and not calls[-1][2] and STATUS.match(line):
            title, _, result = calls[-1]
            calls[-1] = (title, STATUS.match(line).group(1), result)  # type: ignore[union-attr]
        elif calls:
            calls[-1][2].append(line)
        else:
            text.append(line)
    said = trim(scrub(clean(THINKING.sub("", "\n".join(text)).strip())), TEXT_LIMIT)
    turn: dict[str, Any] = {"role": "assistant", "text": said}
    out = [turn]
    for index, (title, status, result) in enumerate(calls, 1):
        call_id = f"zed_{number}_{index}"
        name = tool_name(title)
        turn.setdefault("tool_calls", []).append(
            {"id": call_id, "name": name, "arguments": {"title": scrub(title)}}
        )
        shown = "\n".join(result).strip() or "(the export shows no output)"
        if status != "Completed":
            shown = f"Status: {status}\n{shown}"
        out.append(
            {
                "role": "tool",
                "tool_call_id": call_id,
                "name": name,
                "text": trim(scrub(clean(shown)), TOOL_LIMIT),
            }
        )
    return out


def convert(text: str, first: int, last: int, scrub: Scrubber) -> list[dict[str, Any]]:
    lines = text.splitlines()[first - 1 : last]
    turns: list[dict[str, Any]] = []
    for number, (role, body) in enumerate(_sections(lines)):
        if role == "user":
            said = "\n".join(body).strip()
            turns.append({"role": "user", "text": trim(scrub(clean(said)), TEXT_LIMIT)})
        else:
            made = _assistant(body, scrub, number)
            if made[0]["text"] or made[0].get("tool_calls"):
                turns.extend(made)
    return close_open_calls(turns)


if __name__ == "__main__":
    convert_export(convert, sys.argv[1:])
