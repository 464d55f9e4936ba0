"""A Craft Agents session (``sessions/<id>/session.jsonl``) → a corpus case's turns.

The first line is the session's header (workspace, model, token counts) and is dropped.
Every other line is one message with a ``type`` and an ``order`` (the order the app shows
them in; the lines are written by time, which can differ):

- ``user``: what the person typed (attached images are not in the file);
- ``assistant``: the model's text, one turn each (``isIntermediate`` text between tool
  calls included);
- ``tool``: one call and its result together (``toolName``, ``toolInput``, ``toolResult``;
  an image result, the base64 of a pasted screenshot, is replaced by a note);
  the call is attached to the nearest assistant turn since the person last spoke (an empty
  assistant turn when there is none), the result becomes its tool turn;
- ``plan``: the plan the agent submitted for approval, an assistant turn;
- ``info``: the app's notices ("响应中断" when the person stopped a reply, "Compacted
  Conversation" after the app compacted the context), kept as user turns the model saw.

    python3 tools/realsets/craft_agents.py SESSION.jsonl FIRST LAST OUT.json [REAL=FAKE …]

(FIRST and LAST are ``order`` numbers.)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from common import Scrubber, clean, scrub_arguments, trim, write_turns

TOOL_LIMIT = 1500
TEXT_LIMIT = 4000
IMAGE = "(an image the tool returned: a screenshot the person pasted; its data is not kept)"


def _result(message: dict[str, Any]) -> str:
    """The tool's result as text; an image (a JSON list of base64 blocks) is named, not kept."""
    result = str(message.get("toolResult") or message.get("content") or "(empty result)")
    if result.lstrip().startswith("[") and '"type": "image"' in result[:200]:
        return IMAGE
    return result


def convert(messages: list[dict[str, Any]], scrub: Scrubber) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    speaker: dict[str, Any] | None = None  # the assistant turn calls attach to
    for message in sorted(messages, key=lambda m: m["order"]):
        kind = message.get("type")
        text = str(message.get("content") or "")
        if kind in ("user", "info"):
            turns.append({"role": "user", "text": trim(scrub(clean(text)), TEXT_LIMIT)})
            speaker = None
        elif kind in ("assistant", "plan"):
            speaker = {"role": "assistant", "text": trim(scrub(clean(text)).strip(), TEXT_LIMIT)}
            turns.append(speaker)
        elif kind == "tool":
            if speaker is None:
                speaker = {"role": "assistant", "text": ""}
                turns.append(speaker)
            call_id = str(message.get("toolUseId") or message["id"])
            name = str(message.get("toolName") or "tool")
            arguments = scrub_arguments(message.get("toolInput") or {}, scrub, TEXT_LIMIT)
            speaker.setdefault("tool_calls", []).append(
                {"id": call_id, "name": name, "arguments": arguments}
            )
            result = _result(message)
            turns.append(
                {
                    "role": "tool",
                    "tool_call_id": call_id,
                    "name": name,
                    "text": trim(scrub(clean(result)), TOOL_LIMIT),
                }
            )
    return turns


def main(argv: list[str]) -> None:
    source, first, last, out, *names = argv
    scrub = Scrubber(dict(pair.split("=", 1) for pair in names))
    lines = Path(source).read_text(encoding="utf-8").splitlines()[1:]
    messages = [json.loads(line) for line in lines if line.strip()]
    chosen = [m for m in messages if int(first) <= m["order"] <= int(last)]
    write_turns(convert(chosen, scrub), Path(out))


if __name__ == "__main__":
    main(sys.argv[1:])
