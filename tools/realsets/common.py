"""Helpers shared by the converters under tools/realsets: trimming, ANSI removal, pairing.

These scripts turn one public agent transcript into the turn list of a corpus case
(``../shared/fixtures/fidelity/README.md``); the labels are written by hand afterwards.
They use the standard library only and are not part of the synopsis package.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
NO_RESULT = "(no result in the source transcript: the call was interrupted before it returned)"


def clean(text: str) -> str:
    """Drop terminal colour codes and carriage returns; keep everything else as written."""
    return ANSI.sub("", text).replace("\r\n", "\n").replace("\r", "\n")


# Credential shapes found in the sources; each distinct value becomes a numbered, obvious fake.
SECRETS = (
    ("sk-FAKE-api-key-", re.compile(r"sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}")),
    ("AIzaFAKE-google-api-key-", re.compile(r"AIza[0-9A-Za-z_-]{35}")),
    ("SG.FAKE-sendgrid-key-", re.compile(r"SG\.[\w-]{16,}\.[\w-]{20,}")),
    ("ACfake-twilio-sid-", re.compile(r"\bAC[0-9a-f]{32}\b")),
    ("SKfake-twilio-key-", re.compile(r"\bSK[0-9a-f]{32}\b")),
    ("MGfake-twilio-service-", re.compile(r"\bMG[0-9a-f]{32}\b")),
    ("fake-hex-token-", re.compile(r"(?<=TOKEN=)[0-9a-f]{32}\b|(?<=TOKEN=\")[0-9a-f]{32}\b")),
    (
        "FAKE-db-password-",
        re.compile(
            r"(?<=://app_user:)[^@\s'\"]+(?=@)|(?<=password: ')[^']+(?=')"
            r"|(?<=--password=\")[^\"]+(?=\")|(?<=--password=)[^\s\"]+"
        ),
    ),
    ("FAKE-secret-", re.compile(r"(?<=SECRET=\")[A-Za-z0-9+/=_-]{16,}(?=\")")),
    ("FAKE-jwt-", re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("sb_FAKE-supabase-key-", re.compile(r"sb_(?:publishable|secret)_[A-Za-z0-9_-]{16,}")),
    # A Telegram bot token (BOT_ID:AA…); the fake keeps the shape, too short to pass as live.
    ("1000000000:AAFAKE-telegram-bot-token-", re.compile(r"\b\d{8,10}:AA[A-Za-z0-9_-]{30,34}\b")),
)


class Scrubber:
    """Replaces every credential by a stable fake (the same value → the same fake)."""

    def __init__(self, names: dict[str, str] | None = None) -> None:
        self.fakes: dict[str, str] = {}
        self.names = names or {}

    def __call__(self, text: str) -> str:
        for prefix, pattern in SECRETS:
            text = pattern.sub(lambda m, p=prefix: self._fake(p, m.group(0)), text)
        for real, fake in self.names.items():
            text = text.replace(real, fake)
        return text

    def _fake(self, prefix: str, value: str) -> str:
        if value not in self.fakes:
            self.fakes[value] = f"{prefix}{len(self.fakes) + 1}"
        return self.fakes[value]


def scrub_arguments(value: Any, scrub: Scrubber, limit: int) -> Any:
    """A tool call's arguments with every string scrubbed, cleaned and trimmed, at any depth."""
    if isinstance(value, str):
        return trim(scrub(clean(value)), limit)
    if isinstance(value, dict):
        return {k: scrub_arguments(v, scrub, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_arguments(v, scrub, limit) for v in value]
    return value


def trim(text: str, limit: int) -> str:
    """Cut the middle of a text longer than ``limit`` and say how much was cut."""
    if len(text) <= limit:
        return text
    head = text[: limit * 2 // 3]
    tail = text[-(limit // 3) :]
    cut = len(text) - len(head) - len(tail)
    return f"{head}\n…[trimmed for the dev set: {cut} characters cut]…\n{tail}"


def close_open_calls(turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give every call left unanswered a tool turn saying so (a chat API needs one)."""
    out: list[dict[str, Any]] = []
    open_calls: list[dict[str, Any]] = []

    def flush() -> None:
        for call in open_calls:
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": call["id"],
                    "name": call["name"],
                    "text": NO_RESULT,
                }
            )
        open_calls.clear()

    for turn in turns:
        if turn["role"] == "tool":
            open_calls[:] = [c for c in open_calls if c["id"] != turn["tool_call_id"]]
        else:
            flush()
        out.append(turn)
        if turn["role"] == "assistant":
            open_calls.extend(turn.get("tool_calls") or [])
    flush()
    return out


def user_assistant_turns(
    parts: Sequence[str],
    scrub: Scrubber,
    assistant: Callable[[str, Scrubber, int], dict[str, Any]],
    user: Callable[[str, Scrubber, list[dict[str, Any]]], list[dict[str, Any]]],
) -> list[dict[str, Any]]:
    """The turns of an export split by a ``(User|Assistant)`` heading pattern (``parts`` as
    ``re.split`` gives them): ``assistant(body, scrub, number)`` makes an assistant turn (kept
    when it says or calls something), ``user(body, scrub, open_calls)`` the turns of a user
    section, which may answer (and pop) the calls the assistant turn before it left open."""
    turns: list[dict[str, Any]] = []
    open_calls: list[dict[str, Any]] = []
    for number in range(1, len(parts), 2):
        role, body = parts[number], parts[number + 1]
        if role == "Assistant":
            turn = assistant(body, scrub, number // 2)
            if turn["text"] or turn.get("tool_calls"):
                turns.append(turn)
                open_calls = list(turn.get("tool_calls") or [])
        else:
            turns.extend(user(body, scrub, open_calls))
    return close_open_calls(turns)


def call_owner(turns: list[dict[str, Any]]) -> dict[str, Any]:
    """The assistant turn a call goes to when the export records results but not who asked:
    the assistant turn just before when it has no calls yet (the model said what it would
    do, then did it), the one that made the calls before when a result follows a result,
    or else a new empty assistant turn appended to ``turns``."""
    last = turns[-1] if turns else None
    if last is not None and last["role"] == "assistant" and not last.get("tool_calls"):
        last["tool_calls"] = []
        return last
    if last is not None and last["role"] == "tool":
        return next(turn for turn in reversed(turns) if turn["role"] == "assistant")
    turn: dict[str, Any] = {"role": "assistant", "text": "", "tool_calls": []}
    turns.append(turn)
    return turn


def write_turns(turns: list[dict[str, Any]], path: Path) -> None:
    path.write_text(json.dumps(turns, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def convert_export(
    convert: Callable[[str, int, int, Scrubber], list[dict[str, Any]]], argv: Sequence[str]
) -> None:
    """The command line of a markdown-export converter: SOURCE FIRST LAST OUT [REAL=FAKE …]
    (the turns of lines FIRST..LAST, each REAL string replaced by its FAKE)."""
    source, first, last, out, *names = argv
    scrub = Scrubber(dict(pair.split("=", 1) for pair in names))
    text = Path(source).read_text(encoding="utf-8")
    write_turns(convert(text, int(first), int(last), scrub), Path(out))


def blocks_text(content: Any, image_note: str) -> str:
    """The readable text of an Anthropic-style content value: a string, or ``text`` blocks
    (an image block becomes ``image_note``, a ``tool_reference`` names its tool)."""
    if isinstance(content, str):
        return content
    parts = []
    for block in content or []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            parts.append(str(block.get("text") or ""))
        elif block.get("type") == "image":
            parts.append(image_note)
        elif block.get("type") == "tool_reference":
            parts.append(f"(tool reference: {block.get('tool_name')})")
    return "\n".join(parts)


def convert_jsonl(
    convert: Callable[[list[dict[str, Any]], Scrubber], list[dict[str, Any]]], argv: Sequence[str]
) -> None:
    """The command line of a JSON-lines converter: SOURCE FIRST_LINE LAST_LINE OUT [REAL=FAKE …]
    (the turns of the events on lines FIRST..LAST, each REAL string replaced by its FAKE)."""
    source, first, last, out, *names = argv
    scrub = Scrubber(dict(pair.split("=", 1) for pair in names))
    lines = Path(source).read_text(encoding="utf-8").splitlines()[int(first) - 1 : int(last)]
    events = [json.loads(line) for line in lines if line.strip()]
    write_turns(convert(events, scrub), Path(out))
