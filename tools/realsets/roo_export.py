"""A Roo Code task exported as markdown with native tool calls → a corpus case's turns.

Newer Roo Code exports (native tool protocol) write ``**User:**`` / ``**Assistant:**``
blocks separated by ``---``. An assistant block may start with a ``[Reasoning]`` part (the
model's summarised thinking, dropped as in the other sets), then its text, then calls, each
a ``[Tool Use: name]`` line followed by ``Key: value`` argument lines (a value runs on until
the next ``Key:`` line; a JSON value is decoded). ``attempt_completion``'s ``Result`` is the
answer the person reads, so it is also appended to the turn's text. A user block that starts
with ``[Tool]`` answers the next open call. When that result is a ``<user_message>`` (the
person's answer to ``ask_followup_question``, or what they typed while approving a call),
the person's words become a user turn after the tool turn, because the person typed them
(the tool turn says so). ``<environment_details>`` (open tabs, time, cost, the reminders
table) is harness text and is dropped. kilo.py reads the older XML-call format instead.

    python3 tools/realsets/roo_export.py TASK.md FIRST_LINE LAST_LINE OUT.json [REAL=FAKE …]
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from common import Scrubber, clean, convert_export, scrub_arguments, trim, user_assistant_turns

TOOL_LIMIT = 1500
TEXT_LIMIT = 4000
BLOCK = re.compile(r"^\*\*(User|Assistant):\*\*\s*$", re.M)
ENVIRONMENT = re.compile(r"<environment_details>.*?(?:</environment_details>|\Z)", re.S)
REASONING = re.compile(r"^\[Reasoning\]\n.*?(?=^\[Tool Use: |\Z)", re.M | re.S)
USE = re.compile(r"^\[Tool Use: ([^\]\n]+)\]\s*$", re.M)
ARGUMENT = re.compile(r"^([A-Z][A-Za-z_]*): ?(.*)$")
MESSAGE = re.compile(r"<user_message>\n?(.*?)\n?</user_message>", re.S)
ANSWERED = "(the person answered; their words follow as the next user turn)"


def _body(text: str) -> str:
    """A block without the harness text and the ``---`` separators around it."""
    text = ENVIRONMENT.sub("", text).strip()
    return text.removesuffix("---").strip()


def _arguments(lines: list[str]) -> dict[str, Any]:
    keys: list[tuple[str, list[str]]] = []
    for line in lines:
        match = ARGUMENT.match(line)
        if match:
            keys.append((match.group(1).lower(), [match.group(2)]))
        elif keys:
            keys[-1][1].append(line)
    arguments: dict[str, Any] = {}
    for key, parts in keys:
        value = "\n".join(parts).strip()
        try:
            arguments[key] = json.loads(value) if value[:1] in "[{" else value
        except json.JSONDecodeError:
            arguments[key] = value
    return arguments


def _assistant(body: str, scrub: Scrubber, number: int) -> dict[str, Any]:
    body = REASONING.sub("", _body(body))
    pieces = USE.split(body)
    said = [pieces[0].strip()]
    calls = []
    for index in range(1, len(pieces), 2):
        name = pieces[index].strip()
        arguments = _arguments(pieces[index + 1].strip().splitlines())
        if name == "attempt_completion" and arguments.get("result"):
            said.append(str(arguments["result"]))
        calls.append(
            {
                "id": f"roo_{number}_{index // 2 + 1}",
                "name": name,
                "arguments": scrub_arguments(arguments, scrub, 2000),
            }
        )
    text = trim(scrub(clean("\n\n".join(part for part in said if part))), TEXT_LIMIT)
    turn: dict[str, Any] = {"role": "assistant", "text": text}
    if calls:
        turn["tool_calls"] = calls
    return turn


def _user(body: str, scrub: Scrubber, open_calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    body = _body(body)
    if not body.startswith("[Tool]") or not open_calls:
        typed = MESSAGE.sub(lambda m: m.group(1), body.removeprefix("[Tool]")).strip()
        return [{"role": "user", "text": trim(scrub(clean(typed)), TEXT_LIMIT)}] if typed else []
    call = open_calls.pop(0)
    result = body.removeprefix("[Tool]").strip()
    typed = "\n".join(m.group(1).strip() for m in MESSAGE.finditer(result))
    shown = MESSAGE.sub("", result).strip()
    if typed:
        shown = f"{shown}\n{ANSWERED}".strip()
    tool = {
        "role": "tool",
        "tool_call_id": call["id"],
        "name": call["name"],
        "text": trim(scrub(clean(shown or "(empty result)")), TOOL_LIMIT),
    }
    out = [tool]
    if typed:
        out.append({"role": "user", "text": trim(scrub(clean(typed)), TEXT_LIMIT)})
    return out


def convert(text: str, first: int, last: int, scrub: Scrubber) -> list[dict[str, Any]]:
    chunk = "\n".join(text.splitlines()[first - 1 : last])
    return user_assistant_turns(BLOCK.split(chunk), scrub, _assistant, _user)


if __name__ == "__main__":
    convert_export(convert, sys.argv[1:])
