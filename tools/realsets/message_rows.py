"""A transcript kept as one chat message per line → a corpus case's turns.

Some projects publish a session as bare ``{"role": …, "content": …}`` lines, the Anthropic
Messages shape with a timestamp (e.g. a Claude Code session re-exported without its
bookkeeping). These are Claude Code's events without the envelope, so each row is wrapped as
one and converted as ``claude_jsonl.py`` does: consecutive assistant rows are one turn (no
row carries a message id, so nothing else splits them), ``tool_result`` blocks are tool
turns, typed text is a user turn (skill documents the harness injects arrive this way and
stay user turns, because the model saw them). A base64 image in a result becomes a note.

    python3 tools/realsets/message_rows.py SESSION.jsonl FIRST_LINE LAST_LINE OUT.json [REAL=FAKE …]
"""

from __future__ import annotations

import sys
from typing import Any

import claude_jsonl
from common import Scrubber, convert_jsonl

IMAGE_NOTE = "(an image; its data is not kept in the case)"


def convert(rows: list[dict[str, Any]], scrub: Scrubber) -> list[dict[str, Any]]:
    events = [
        {
            "type": row.get("role"),
            "message": {"role": row.get("role"), "content": row.get("content")},
        }
        for row in rows
    ]
    return claude_jsonl.convert(events, scrub, image_note=IMAGE_NOTE)


if __name__ == "__main__":
    convert_jsonl(convert, sys.argv[1:])
