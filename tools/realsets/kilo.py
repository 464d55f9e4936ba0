"""A Kilo Code (or Roo Code) task export (``kilo_code_task_….md``) → a corpus case's turns.

The export alternates ``**User:**`` and ``**Assistant:**`` blocks separated by ``---``. An
assistant block is the model's text followed by one XML tool call (``<apply_diff>…``,
``<read_file>…``); the next user block starts with ``[tool for 'x'] Result:`` and holds the
result, the harness text (``<environment_details>``, the reminders table, dropped here) and
what the person typed (``<feedback>``, ``<user_message>``, the opening ``<task>``), which
become user turns after the tool turn. ``attempt_completion``'s ``<result>`` is the answer
the person reads, so it is the assistant turn's text.

    python3 tools/realsets/kilo.py EXPORT.md FIRST_LINE LAST_LINE OUT.json [REAL=FAKE …]
"""

from __future__ import annotations

import re
import sys
from typing import Any

from common import Scrubber, clean, close_open_calls, convert_export, trim

BLOCK = re.compile(r"^\*\*(User|Assistant):\*\*\s*$", re.M)
TOOLS = (
    *("read_file", "write_to_file", "apply_diff", "insert_content", "search_and_replace"),
    *("execute_command", "update_todo_list", "attempt_completion", "ask_followup_question"),
    *("list_files", "search_files", "list_code_definition_names", "codebase_search"),
    *("new_task", "switch_mode", "browser_action", "use_mcp_tool", "access_mcp_resource"),
    "fetch_instructions",
)
CALL = re.compile(r"^<(" + "|".join(TOOLS) + r")>\s*$(.*?)^</\1>\s*$", re.M | re.S)
FIELD = re.compile(r"<(\w+)>\n?(.*?)\n?</\1>", re.S)
RESULT = re.compile(r"^\[(\w+)(?: for '[^\n]*?)?\] Result:")
PERSON = re.compile(r"<(task|feedback|user_message)>\s*(.*?)\s*</\1>", re.S)
HARNESS = re.compile(r"<environment_details>.*?(?:</environment_details>|\Z)", re.S)
INTERRUPTED = "[Response interrupted by a tool use result."
TOOL_LIMIT = 1500
TEXT_LIMIT = 4000
TASK_LIMIT = 6000


def _assistant(body: str, index: int, scrub: Scrubber) -> dict[str, Any]:
    found = CALL.search(body)
    text = body[: found.start()] if found else body
    turn: dict[str, Any] = {"role": "assistant", "text": ""}
    if found:
        name = found.group(1)
        fields = {k: v for k, v in FIELD.findall(found.group(2))}
        if name == "attempt_completion":
            text = text + "\n\n" + fields.pop("result", "")
        arguments = {k: trim(scrub(v), TEXT_LIMIT) for k, v in fields.items()}
        turn["tool_calls"] = [{"id": f"kilo_{index}", "name": name, "arguments": arguments}]
    turn["text"] = trim(scrub(text).strip(), TEXT_LIMIT)
    return turn


def _user(
    body: str, pending: list[dict[str, Any]], turns_so_far: list[dict[str, Any]], scrub: Scrubber
) -> list[dict[str, Any]]:
    body = HARNESS.sub("", body).strip()
    if body.startswith("<task>"):
        # The opening message: the task and any file pasted with it, as the person sent them.
        return [{"role": "user", "text": trim(scrub(body), TASK_LIMIT)}]
    said = [(m.group(1), m.group(2)) for m in PERSON.finditer(body)]
    rest = PERSON.sub("", body).strip()
    turns: list[dict[str, Any]] = []
    if RESULT.match(rest) and pending:
        call = pending.pop(0)
        result = RESULT.sub("", rest, count=1).strip() or "(empty result)"
        turns.append(
            {
                "role": "tool",
                "tool_call_id": call["id"],
                "name": call["name"],
                "text": trim(scrub(result), TOOL_LIMIT),
            }
        )
    elif RESULT.match(rest) and turns_so_far and turns_so_far[-1]["role"] == "tool":
        # A second result block for a call already answered (the model was cut off and the
        # harness sent the result again): it belongs to the same tool turn.
        extra = RESULT.sub("", rest, count=1).strip()
        turns_so_far[-1]["text"] = trim(
            turns_so_far[-1]["text"] + "\n\n" + scrub(extra), TOOL_LIMIT
        )
    elif pending and not said and rest.lstrip("[ \n").startswith(INTERRUPTED.lstrip("[")):
        # A stray block holding only Kilo's interruption notice, sent before the result of
        # the open call: dropped, so the result that follows still answers the call.
        pass
    elif rest and not said:
        said = [("text", rest)]
    for kind, words in said:
        turns.append(
            {
                "role": "user",
                "text": trim(scrub(words), TASK_LIMIT if kind == "task" else TEXT_LIMIT),
            }
        )
    return turns


def convert(text: str, first: int, last: int, scrub: Scrubber) -> list[dict[str, Any]]:
    lines = clean(text).split("\n")
    stretch = "\n".join(lines[first - 1 : last])
    heads = list(BLOCK.finditer(stretch))
    turns: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    for number, head in enumerate(heads):
        end = heads[number + 1].start() if number + 1 < len(heads) else len(stretch)
        body = stretch[head.end() : end].strip()
        body = body.removesuffix("---").strip()
        if head.group(1) == "Assistant":
            turn = _assistant(body, number, scrub)
            turns.append(turn)
            pending = list(turn.get("tool_calls", []))
        else:
            turns.extend(_user(body, pending, turns, scrub))
    return close_open_calls(turns)


if __name__ == "__main__":
    convert_export(convert, sys.argv[1:])
