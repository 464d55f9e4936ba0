"""A SpecStory markdown export (Cursor agent chats) → the turns of a corpus case.

SpecStory writes ``_**User (…)**_`` and ``_**Assistant (…)**_`` / ``_**Agent (…)**_`` headings,
``---`` between blocks, the model's reasoning inside ``<think>…</think>`` (dropped here), and
each tool call either as ``Tool use: **name**`` followed by its code blocks (older exports) or
as ``<tool-use data-tool-name="name"><details><summary>Tool use: **name** • what</summary>
body</details></tool-use>`` (newer ones). A call's arguments are its command (a leading
```` ```bash ```` block) or the summary line; its result is the rest of the block.

    python3 tools/realsets/specstory.py EXPORT.md FIRST_USER LAST_USER OUT.json [NAME=FAKE …]

FIRST_USER / LAST_USER are 0-based indices of user headings: the stretch kept runs from the
first one up to (not including) the user heading after LAST_USER.
"""

from __future__ import annotations

import html
import re
import sys
from typing import Any

from common import Scrubber, clean, close_open_calls, convert_export, trim

HEADING = re.compile(r"^_\*\*(User|Assistant|Agent)\b[^\n]*\*\*_\s*$", re.M)
THINK = re.compile(r"<think>.*?</think>", re.S)
OLD_TOOL = re.compile(r"^Tool use: \*\*(\w+)\*\*[ \t]*\n?(.*)", re.S)
NEW_TOOL = re.compile(
    r'<tool-use[^>]*data-tool-name="(\w+)"[^>]*>\s*<details>\s*<summary>\s*'
    r"Tool use: \*\*\w+\*\*(?: • )?(.*?)</summary>(.*?)</details>\s*</tool-use>",
    re.S,
)
SUMMARY = re.compile(r"<summary>(.*?)</summary>", re.S)
BARE_BLOCK = re.compile(r"^```(\w*)\n(.*)\n```$", re.S)
SHELL_START = ("npm ", "npx ", "pnpm ", "yarn ", "rm ", "cd ", "git ", "ls", "mkdir ", "mv ", "cp ")
NOT_IN_SOURCE = "(the result is not in the source transcript)"
COMMAND = re.compile(r"^\s*```(?:bash|sh|powershell|shell)?\n(.*?)\n```\s*", re.S)
TOOL_LIMIT = 1500
TEXT_LIMIT = 4000


def _call(name: str, head: str, body: str, index: int) -> tuple[dict[str, Any], str]:
    command = COMMAND.match(body)
    if command:
        arguments: dict[str, Any] = {"command": command.group(1).strip()}
        body = body[command.end() :]
    else:
        if not head.strip():
            summary = SUMMARY.search(body)
            lines = [line for line in body.splitlines() if line.strip()]
            head = summary.group(1) if summary else (lines[0] if lines else "")
        arguments = {"summary": head.strip()} if head.strip() else {}
    call = {"id": f"specstory_{index}", "name": name, "arguments": arguments}
    return call, body.strip() or "(no output in the source transcript)"


def _chunks(section: str) -> list[str]:
    return [c.strip() for c in re.split(r"\n---\n", THINK.sub("", section)) if c.strip()]


def _assistant_turns(section: str, start: int, scrub: Scrubber) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    index = start
    for chunk in _chunks(section):
        pieces: list[tuple[str, Any]] = []
        old = OLD_TOOL.match(chunk)
        bare = BARE_BLOCK.match(chunk)
        if bare and not old:
            # The earliest exports show a proposed edit or command as a bare code block,
            # with neither the tool's name nor its result.
            body = bare.group(2)
            if body.lstrip().startswith(SHELL_START):
                pieces.append(("bare", ("run_terminal_cmd", {"command": body.strip()})))
            else:
                pieces.append(("bare", ("edit_file", {"content": body})))
        elif old:
            first, _, rest = old.group(2).partition("\n")
            if first.startswith("```"):
                first, rest = "", old.group(2)
            pieces.append(("tool", (old.group(1), first, rest)))
        else:
            at = 0
            for match in NEW_TOOL.finditer(chunk):
                if chunk[at : match.start()].strip():
                    pieces.append(("text", chunk[at : match.start()]))
                body = html.unescape(match.group(3))
                pieces.append(("tool", (match.group(1), html.unescape(match.group(2)), body)))
                at = match.end()
            if chunk[at:].strip():
                pieces.append(("text", chunk[at:]))
        for kind, value in pieces:
            if kind == "text":
                text = scrub(clean(value)).strip()
                if turns and turns[-1]["role"] == "assistant" and not turns[-1].get("tool_calls"):
                    turns[-1]["text"] = trim(turns[-1]["text"] + "\n\n" + text, TEXT_LIMIT)
                else:
                    turns.append({"role": "assistant", "text": trim(text, TEXT_LIMIT)})
                continue
            index += 1
            if kind == "bare":
                name, arguments = value
                arguments = {k: trim(scrub(clean(v)), TEXT_LIMIT) for k, v in arguments.items()}
                call = {"id": f"specstory_{index}", "name": name, "arguments": arguments}
                result = NOT_IN_SOURCE
            else:
                name, head, body = value
                call, result = _call(name, scrub(clean(head)), scrub(clean(body)), index)
            if turns and turns[-1]["role"] == "assistant" and not turns[-1].get("tool_calls"):
                turns[-1]["tool_calls"] = [call]
            else:
                turns.append({"role": "assistant", "text": "", "tool_calls": [call]})
            turns.append(
                {
                    "role": "tool",
                    "tool_call_id": call["id"],
                    "name": name,
                    "text": trim(result, TOOL_LIMIT),
                }
            )
    return turns


def convert(text: str, first: int, last: int, scrub: Scrubber) -> list[dict[str, Any]]:
    heads = list(HEADING.finditer(text))
    sections = [
        (m.group(1), text[m.end() : heads[i + 1].start() if i + 1 < len(heads) else len(text)])
        for i, m in enumerate(heads)
    ]
    turns: list[dict[str, Any]] = []
    user_index = -1
    for role, body in sections:
        if role == "User":
            user_index += 1
        if user_index < first:
            continue
        if user_index > last:
            break
        if role == "User":
            said = scrub(clean(body)).strip().removesuffix("---").strip()
            turns.append({"role": "user", "text": trim(said, TEXT_LIMIT)})
        else:
            turns.extend(_assistant_turns(body, len(turns), scrub))
    return close_open_calls(_merge_steps(turns))


def _merge_steps(turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One assistant turn per step: text written under several headings before a call joins it."""
    out: list[dict[str, Any]] = []
    for turn in turns:
        last = out[-1] if out else None
        if (
            last is not None
            and turn["role"] == "assistant"
            and last["role"] == "assistant"
            and not last.get("tool_calls")
        ):
            last["text"] = trim(
                "\n\n".join(t for t in (last["text"], turn["text"]) if t), TEXT_LIMIT
            )
            if turn.get("tool_calls"):
                last["tool_calls"] = turn["tool_calls"]
            continue
        out.append(turn)
    return out


def main() -> None:
    convert_export(convert, sys.argv[1:])


if __name__ == "__main__":
    main()
