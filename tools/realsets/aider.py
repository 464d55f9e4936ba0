"""An aider chat history (``.aider.chat.history.md``) → a corpus case's turns.

aider writes three kinds of lines: ``#### `` lines ending in two spaces (a markdown line
break; the model's own ``####`` headings have none) are what the person typed (a run of
them is one message, a ``/command`` included), ``> `` lines are aider's console (edits applied,
failed SEARCH/REPLACE blocks, token counts, lint and test output, API errors), and
everything else is the model's reply. The model saw the console only through aider, so
console lines are the result of a call ``aider`` made by the reply before them
(``{"step": "apply reply"}``); console lines that answer a ``/command`` or come before
any reply (an API error, a file added) are the result of an empty assistant turn whose call
is ``{"step": "handle request"}``. ``# aider chat started at …`` headers separate sessions
and are dropped; the console lines of a session's start (model, repo map) are kept.

    python3 tools/realsets/aider.py HISTORY.md FIRST_LINE LAST_LINE OUT.json [REAL=FAKE …]
"""

from __future__ import annotations

import sys
from typing import Any

from common import Scrubber, clean, convert_export, trim

TOOL_LIMIT = 1500
TEXT_LIMIT = 4000
HEADER = "# aider chat started at "
SILENT = "(aider printed nothing after this reply)"


def _kind(line: str) -> str:
    if line.startswith("####") and line.endswith("  "):
        return "user"
    if line.startswith("> ") or line.rstrip() == ">":
        return "console"
    if line.startswith(HEADER):
        return "header"
    return "reply"


def _blocks(lines: list[str]) -> list[tuple[str, str]]:
    """Runs of lines of one kind, in order; blank lines belong to the run they are in."""
    blocks: list[tuple[str, list[str]]] = []
    for line in lines:
        kind = _kind(line) if line.strip() else (blocks[-1][0] if blocks else "reply")
        if kind == "header":
            continue
        if blocks and blocks[-1][0] == kind:
            blocks[-1][1].append(line)
        else:
            blocks.append((kind, [line]))
    out: list[tuple[str, str]] = []
    for kind, run in blocks:
        if kind == "user":
            text = "\n".join(line[5:].rstrip() if line.startswith("#### ") else "" for line in run)
        elif kind == "console":
            text = "\n".join(line[2:].rstrip() if line.startswith("> ") else "" for line in run)
        else:
            text = "\n".join(run)
        text = text.strip()
        if text:
            out.append((kind, text))
    return out


def convert(source: str, first: int, last: int, scrub: Scrubber) -> list[dict[str, Any]]:
    lines = clean(source).split("\n")[first - 1 : last]
    turns: list[dict[str, Any]] = []
    calls = 0
    for kind, text in _blocks(lines):
        text = scrub(text)
        if kind == "user":
            turns.append({"role": "user", "text": trim(text, TEXT_LIMIT)})
        elif kind == "reply":
            calls += 1
            call = {"id": f"aider_{calls}", "name": "aider", "arguments": {"step": "apply reply"}}
            turns.append(
                {"role": "assistant", "text": trim(text, TEXT_LIMIT), "tool_calls": [call]}
            )
        else:
            last_turn = turns[-1] if turns else None
            if last_turn and last_turn["role"] == "assistant":
                call_id = last_turn["tool_calls"][0]["id"]
            elif last_turn and last_turn["role"] == "tool":
                last_turn["text"] += "\n" + trim(text, TOOL_LIMIT)
                continue
            else:
                calls += 1
                call_id = f"aider_{calls}"
                step = {"step": "handle request"}
                call = {"id": call_id, "name": "aider", "arguments": step}
                turns.append({"role": "assistant", "text": "", "tool_calls": [call]})
            turns.append(
                {
                    "role": "tool",
                    "tool_call_id": call_id,
                    "name": "aider",
                    "text": trim(text, TOOL_LIMIT),
                }
            )
    return _answer_silent_replies(turns)


def _answer_silent_replies(turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A reply aider printed nothing after still needs its call answered (a chat API wants one)."""
    out: list[dict[str, Any]] = []
    for index, turn in enumerate(turns):
        out.append(turn)
        following = turns[index + 1] if index + 1 < len(turns) else None
        if turn["role"] == "assistant" and (following is None or following["role"] != "tool"):
            call = turn["tool_calls"][0]
            out.append(
                {"role": "tool", "tool_call_id": call["id"], "name": "aider", "text": SILENT}
            )
    return out


if __name__ == "__main__":
    convert_export(convert, sys.argv[1:])
