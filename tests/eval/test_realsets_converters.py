"""The converters added for the fourth fresh set (tools/realsets/): each on a tiny export
written by hand in its own format, not on the real source.

The converters are standard-library scripts that import ``common`` as a sibling module, so
they are loaded from their folder the way ``python3 tools/realsets/X.py`` runs them.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.eval._real_sets import LIVE_SECRET

REALSETS = Path(__file__).resolve().parents[2] / "tools" / "realsets"


def _load(name: str) -> ModuleType:
    if str(REALSETS) not in sys.path:
        sys.path.insert(0, str(REALSETS))
    return importlib.import_module(name)


def _convert(name: str, text: str, names: dict[str, str] | None = None) -> list[dict[str, Any]]:
    module = _load(name)
    common = _load("common")
    turns: list[dict[str, Any]] = module.convert(text, 1, 10_000, common.Scrubber(names))
    return turns


def _pairs(turns: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(turn["role"], str(turn.get("text") or "")) for turn in turns]


ROO = """**User:**

<user_message>
Build a loan tracker
</user_message>
<environment_details>
# Current Cost
$0.00
</environment_details>

---

**Assistant:**

[Reasoning]
**Asking first**

I'll ask who uses it.
[Tool Use: ask_followup_question]
Question: Who borrows items?
Follow_up: [
  {"text": "Everyone", "mode": null}
]

---

**User:**

[Tool]
<user_message>
Only staff, never guests
</user_message>
<environment_details>
REMINDERS
</environment_details>

---

**Assistant:**

Writing it down.
[Tool Use: apply_patch]
Patch: *** Begin Patch
+line one
*** End Patch

---

**User:**

[Tool]
{"path":"notes.md","operation":"created"}

---

**Assistant:**

[Tool Use: attempt_completion]
Result: Wrote notes.md.
"""


def test_roo_export_pairs_calls_and_gives_the_persons_answers_to_the_user() -> None:
    turns = _convert("roo_export", ROO)
    assert [t["role"] for t in turns] == [
        "user",
        "assistant",
        "tool",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
    ]
    assert turns[0]["text"] == "Build a loan tracker"
    ask = turns[1]
    assert ask["text"] == ""  # the reasoning is dropped
    assert ask["tool_calls"][0]["name"] == "ask_followup_question"
    assert ask["tool_calls"][0]["arguments"]["question"] == "Who borrows items?"
    assert ask["tool_calls"][0]["arguments"]["follow_up"] == [{"text": "Everyone", "mode": None}]
    assert turns[2]["tool_call_id"] == ask["tool_calls"][0]["id"]
    assert turns[3]["text"] == "Only staff, never guests"
    assert "environment_details" not in str(turns) and "REMINDERS" not in str(turns)
    patch = turns[4]["tool_calls"][0]["arguments"]["patch"]
    assert patch.startswith("*** Begin Patch") and "+line one" in patch
    assert turns[4]["text"] == "Writing it down."
    assert turns[5]["text"] == '{"path":"notes.md","operation":"created"}'
    assert turns[6]["text"] == "Wrote notes.md."  # the completion is what the person reads


OPENCLAW = """### 2026-03-14T14:23:53.442000+00:00 user
Sender (untrusted metadata):
```json
{
  "label": "control-ui",
  "id": "control-ui"
}
```

[Sat 14:23 GMT] set up the bot for Jane Roe, token 7621122263:AAEkiAor5iy_6Cj3uSHf6eb2htgl2W7P7wM

### 2026-03-14T14:23:58.753000+00:00 toolResult
{"ok": true}

### 2026-03-14T14:23:59.000000+00:00 toolResult
restarted

### 2026-03-14T14:24:00.199000+00:00 assistant
Done for Jane Roe. Checking the logs.

### 2026-03-14T14:24:05.000000+00:00 toolResult
no errors

### 2026-03-14T14:24:06.000000+00:00 assistant
All clear.
"""


def test_openclaw_transcript_makes_up_the_calls_it_does_not_record_and_fakes_secrets() -> None:
    turns = _convert("openclaw_transcript", OPENCLAW, {"Jane Roe": "J. User"})
    assert [t["role"] for t in turns] == [
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "tool",
        "assistant",
    ]
    assert turns[0]["text"].startswith("[Sat 14:23 GMT] set up the bot for J. User")
    assert "untrusted metadata" not in turns[0]["text"]
    assert "1000000000:AAFAKE-telegram-bot-token-1" in turns[0]["text"]
    assert not LIVE_SECRET.search(str(turns))
    first = turns[1]
    assert first["text"] == ""
    assert [c["id"] for c in first["tool_calls"]] == [
        turns[2]["tool_call_id"],
        turns[3]["tool_call_id"],
    ]
    assert turns[3]["text"] == "restarted"
    # a result after the model's words is the call those words announced
    assert turns[4]["text"] == "Done for J. User. Checking the logs."
    assert turns[4]["tool_calls"][0]["id"] == turns[5]["tool_call_id"]


QWEN = """# Qwen Code Conversation Export

**Exported:** 10/6/2025, 11:45:38 PM
**Session ID:** 0000

## User Message

/model

---

### Info

> Switched model to `local-model` for this session.

## User Message

Fix the list; do not use the REST api.

---

### Tool Execution

**Tool:** ReadFile

---

### Tool Execution

**Tool:** Shell
**Result:** build ok

---

## Assistant Response

Fixed it.

---

### Tool Execution

**Tool:** Edit
**Result:** {"fileDiff": "+one line"}
"""


def test_qwen_export_gives_results_to_calls_and_keeps_the_cli_notice() -> None:
    turns = _convert("qwen_export", QWEN)
    assert _pairs(turns) == [
        ("user", "/model"),
        ("user", "Switched model to `local-model` for this session."),
        ("user", "Fix the list; do not use the REST api."),
        ("assistant", ""),
        ("tool", "(the export shows no result for this call)"),
        ("tool", "build ok"),
        ("assistant", "Fixed it."),
        ("tool", '{"fileDiff": "+one line"}'),
    ]
    assert [c["name"] for c in turns[3]["tool_calls"]] == ["ReadFile", "Shell"]
    assert turns[6]["tool_calls"][0]["name"] == "Edit"
    assert turns[7]["tool_call_id"] == turns[6]["tool_calls"][0]["id"]
