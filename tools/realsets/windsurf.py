"""A Windsurf Cascade or Google Antigravity chat export (markdown) → the turns of a corpus case.

Both editors export a conversation as ``### User Input`` / ``### Planner Response`` sections;
the agent's actions appear between them as one italic line each (``*Viewed [file](…) *``,
``*Edited relevant file*``, ``*User accepted the command `…`*``, ``*Checked command status*``),
and the export says it holds no tool output. Each run of action lines becomes the calls of
one assistant turn (the text written just before them, or an empty turn when they follow the
user's message), and each call gets a tool turn saying that its result is not in the source.

    python3 tools/realsets/windsurf.py EXPORT.md FIRST_LINE LAST_LINE OUT.json [REAL=FAKE …]

FIRST_LINE / LAST_LINE (1-based, inclusive) bound the stretch kept; they should sit on
section headings.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from common import Scrubber, clean, convert_export, trim

HEADING = re.compile(r"^### (User Input|Planner Response)\s*$", re.M)
# The verbs the exports use for an action line, and the tool name each stands for.
ACTIONS = (
    ("User accepted the command", "run_command"),
    ("User rejected the command", "run_command"),
    ("Viewed", "view_file"),
    ("Edited relevant file", "edit_file"),
    ("Edited", "edit_file"),
    ("Checked command status", "command_status"),
    ("Listed directory", "list_dir"),
    ("Updated todo list", "update_todo_list"),
    ("Grep searched codebase", "grep_search"),
    ("Searched filesystem", "find_by_name"),
    ("Searched web", "search_web"),
    ("Semantic searched codebase", "codebase_search"),
    ("Read URL content", "read_url_content"),
    ("Read page", "read_url_content"),
    ("Analyzed", "view_code_item"),
    ("Running MCP tool", "mcp_tool"),
    ("MCP Tool", "mcp_tool"),
    ("Read resource", "mcp_resource"),
    ("Read terminal output", "read_terminal"),
    ("Generated image", "generate_image"),
    ("Opened", "open_browser"),
)
NO_RESULT = "(the result is not in the source transcript)"
# A ``### User Input`` with no text: the person sent only an image, which exports leave out.
NO_TEXT = "(the user's message has no text in the export: an image or a file only)"
NO_OUTPUT = "(the user accepted the command; its output is not in the source transcript)"
REJECTED = "(the user rejected the command)"
LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")
COMMAND = re.compile(r"`(.*)`", re.S)
TEXT_LIMIT = 4000


def _action(line: str) -> tuple[str, str] | None:
    """The tool name and the action text of an action line, or None for ordinary text."""
    if not (line.startswith("*") and line.rstrip().endswith("*")) or line.startswith("**"):
        return None
    inner = line.strip()[1:-1].strip()
    for verb, name in ACTIONS:
        if inner.startswith(verb):
            return name, inner
    return None


def _call(name: str, action: str, index: int, scrub: Scrubber) -> tuple[dict[str, Any], str]:
    action = scrub(action)
    arguments: dict[str, Any]
    result = NO_RESULT
    if name == "run_command":
        found = COMMAND.search(action)
        arguments = {"command": found.group(1) if found else action}
        result = REJECTED if action.startswith("User rejected") else NO_OUTPUT
    else:
        link = LINK.search(action)
        arguments = {"action": action.split("[", 1)[0].strip()}
        if link:
            arguments["path"] = link.group(2) or link.group(1)
        elif action != arguments["action"]:
            arguments["action"] = action
    return {"id": f"windsurf_{index}", "name": name, "arguments": arguments}, result


def _lines(body: str) -> list[str]:
    """Lines of a section, with a multi-line command action joined into one line."""
    out: list[str] = []
    for line in body.split("\n"):
        if out and out[-1].startswith("*User ") and not out[-1].rstrip().endswith("*"):
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def convert(text: str, first: int, last: int, scrub: Scrubber) -> list[dict[str, Any]]:
    lines = clean(text).split("\n")
    stretch = "\n".join(lines[first - 1 : last])
    heads = list(HEADING.finditer(stretch))
    turns: list[dict[str, Any]] = []
    index = 0
    for number, head in enumerate(heads):
        end = heads[number + 1].start() if number + 1 < len(heads) else len(stretch)
        body = stretch[head.end() : end]
        speaker = "user" if head.group(1) == "User Input" else "assistant"
        words: list[str] = []
        calls: list[tuple[dict[str, Any], str]] = []
        opening = next((line for line in body.split("\n") if line.strip()), "")
        if speaker == "user" and (not opening or _action(opening)):
            turns.append({"role": "user", "text": NO_TEXT})
        for line in _lines(body):
            found = _action(line)
            if found:
                index += 1
                calls.append(_call(found[0], found[1], index, scrub))
            elif line.strip():
                if calls:
                    turns.extend(_flush(speaker, words, calls, scrub))
                words.append(line)
            else:
                words.append(line)
        turns.extend(_flush(speaker, words, calls, scrub))
    return turns


def _flush(
    speaker: str, words: list[str], calls: list[tuple[dict[str, Any], str]], scrub: Scrubber
) -> list[dict[str, Any]]:
    """The turns for the text gathered so far and the calls after it (both lists emptied)."""
    said = scrub("\n".join(words)).strip()
    out: list[dict[str, Any]] = []
    if calls:
        if speaker == "user" and said:
            out.append({"role": "user", "text": trim(said, TEXT_LIMIT)})
            said = ""
        out.append(
            {
                "role": "assistant",
                "text": trim(said, TEXT_LIMIT),
                "tool_calls": [call for call, _ in calls],
            }
        )
        for call, result in calls:
            out.append(
                {"role": "tool", "tool_call_id": call["id"], "name": call["name"], "text": result}
            )
    elif said:
        out.append({"role": speaker, "text": trim(said, TEXT_LIMIT)})
    words.clear()
    calls.clear()
    return out


if __name__ == "__main__":
    convert_export(convert, sys.argv[1:])
