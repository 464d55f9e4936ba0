"""A Claude Code session (``~/.claude/projects/…/<session>.jsonl``) → a corpus case's turns.

Claude Code writes one line per event. ``user`` lines hold either what the person typed (a
string, or ``text`` blocks; slash commands and their output appear as
``<command-name>`` / ``<local-command-stdout>`` text, which the model saw, so they stay user
turns) or ``tool_result`` blocks, each a tool turn answering its ``tool_use_id``.
``assistant`` lines carry one content block each; the lines of one API message (the same
``message.id``) make one assistant turn: its ``text`` blocks the text, its ``tool_use``
blocks the calls (``thinking`` dropped). Sub-agent lines (``isSidechain``) and the
bookkeeping lines (``queue-operation``, ``file-history-snapshot``, ``ai-title``,
``last-prompt``, ``attachment``, ``summary``, ``system``) are dropped.

    python3 tools/realsets/claude_jsonl.py SESSION.jsonl FIRST_LINE LAST_LINE OUT.json [REAL=FAKE …]
"""

from __future__ import annotations

import sys
from typing import Any

from common import (
    Scrubber,
    blocks_text,
    clean,
    close_open_calls,
    convert_jsonl,
    scrub_arguments,
    trim,
)

TOOL_LIMIT = 1500
TEXT_LIMIT = 4000


IMAGE_NOTE = "(an image the user attached)"


def convert(
    events: list[dict[str, Any]], scrub: Scrubber, image_note: str = IMAGE_NOTE
) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    names: dict[str, str] = {}
    last_message = None
    for event in events:
        if event.get("isSidechain") or event.get("type") not in ("user", "assistant"):
            continue
        message = event.get("message") or {}
        content = message.get("content")
        if event["type"] == "assistant":
            if message.get("id") != last_message or not turns or turns[-1]["role"] != "assistant":
                turns.append({"role": "assistant", "text": ""})
                last_message = message.get("id")
            turn = turns[-1]
            for block in content or []:
                if block.get("type") == "text":
                    text = trim(scrub(clean(str(block.get("text") or ""))), TEXT_LIMIT)
                    turn["text"] = (turn["text"] + "\n\n" + text).strip()
                elif block.get("type") == "tool_use":
                    names[block["id"]] = block["name"]
                    call = {
                        "id": block["id"],
                        "name": block["name"],
                        "arguments": scrub_arguments(block.get("input") or {}, scrub, TEXT_LIMIT),
                    }
                    turn.setdefault("tool_calls", []).append(call)
            continue
        last_message = None
        blocks = content if isinstance(content, list) else []
        for block in blocks:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                call_id = str(block.get("tool_use_id"))
                text = trim(scrub(clean(blocks_text(block.get("content"), image_note))), TOOL_LIMIT)
                turns.append(
                    {
                        "role": "tool",
                        "tool_call_id": call_id,
                        "name": names.get(call_id, "tool"),
                        "text": text or "(empty result)",
                    }
                )
        typed = blocks_text(
            content
            if isinstance(content, str)
            else [b for b in blocks if b.get("type") != "tool_result"],
            image_note,
        ).strip()
        if typed:
            turns.append({"role": "user", "text": trim(scrub(clean(typed)), TEXT_LIMIT)})
    turns = [t for t in turns if t["role"] != "assistant" or t["text"] or t.get("tool_calls")]
    return close_open_calls(turns)


if __name__ == "__main__":
    convert_jsonl(convert, sys.argv[1:])
