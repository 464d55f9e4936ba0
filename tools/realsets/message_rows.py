"""A transcript kept as one chat message per line → a corpus case's turns.

Some projects publish a session as bare ``{"role": …, "content": …}`` lines, the Anthropic
Messages shape with a timestamp (e.g. a Claude Code session re-exported without its
bookkeeping): ``assistant`` lines carry content blocks (``text``, ``tool_use``;
``thinking`` dropped), and consecutive assistant lines are one turn, as the API streamed
them; a ``user`` line holds either what was typed (a string or ``text`` blocks — skill
documents the harness injects arrive this way, and stay user turns because the model saw
them) or ``tool_result`` blocks, each a tool turn for its ``tool_use_id``. A base64 image
in a result is replaced by a note.

    python3 tools/realsets/message_rows.py SESSION.jsonl FIRST_LINE LAST_LINE OUT.json [REAL=FAKE …]
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


def _text(content: Any) -> str:
    return blocks_text(content, "(an image; its data is not kept in the case)")


def convert(rows: list[dict[str, Any]], scrub: Scrubber) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    names: dict[str, str] = {}
    for row in rows:
        content = row.get("content")
        if row.get("role") == "assistant":
            if not turns or turns[-1]["role"] != "assistant":
                turns.append({"role": "assistant", "text": ""})
            turn = turns[-1]
            for block in content if isinstance(content, list) else []:
                if block.get("type") == "text":
                    text = trim(scrub(clean(str(block.get("text") or ""))), TEXT_LIMIT)
                    turn["text"] = (turn["text"] + "\n\n" + text).strip()
                elif block.get("type") == "tool_use":
                    names[block["id"]] = block["name"]
                    arguments = scrub_arguments(block.get("input") or {}, scrub, TEXT_LIMIT)
                    call = {"id": block["id"], "name": block["name"], "arguments": arguments}
                    turn.setdefault("tool_calls", []).append(call)
            continue
        blocks = content if isinstance(content, list) else []
        for block in blocks:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                call_id = str(block.get("tool_use_id"))
                text = trim(scrub(clean(_text(block.get("content")))), TOOL_LIMIT)
                tool = {"role": "tool", "tool_call_id": call_id, "name": names.get(call_id, "tool")}
                turns.append({**tool, "text": text or "(empty result)"})
        typed = _text(
            content
            if isinstance(content, str)
            else [b for b in blocks if b.get("type") != "tool_result"]
        ).strip()
        if typed:
            turns.append({"role": "user", "text": trim(scrub(clean(typed)), TEXT_LIMIT)})
    turns = [t for t in turns if t["role"] != "assistant" or t["text"] or t.get("tool_calls")]
    return close_open_calls(turns)


if __name__ == "__main__":
    convert_jsonl(convert, sys.argv[1:])
