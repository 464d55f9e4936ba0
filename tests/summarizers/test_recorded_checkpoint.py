"""The model path has the embedded path's semantics: a right answer passes the guard as is.

A model reply written the way the prompt asks (the user's words verbatim, the grep that
found nothing not listed as a failure, the fixed failure under Failed Approaches, the
user's choice in Key Decisions) is served by the local protocol server; the guard must
leave it exactly as it is. The same reply with the user's rule dropped gets it back.
"""

from __future__ import annotations

import json
from typing import Any

from synopsis.compaction.messages_api import compact_messages_sync
from synopsis.summarizers.model import OpenAISummarizer
from synopsis.summarizers.prompts import CHECKPOINT_HEADINGS
from tests.llm_server import LLMServer, Reply

RULE = "不要入耳式的。"
STATEMENT = f"帮我找一款500元以内的蓝牙耳机，平时通勤用。{RULE}"
"""The rule with the sentence that carries its subject and value, as the user typed it."""

RECORDED = f"""\
## Goal
- 帮我找一款500元以内的蓝牙耳机，平时通勤用。

## Constraints & Preferences
- {STATEMENT}

## Progress
### Done
- Searched the catalogue (search_products `蓝牙耳机`): P001 459 元, P003 499 元.
- `grep -rn P002 stock.csv` found no match (exit 1): P002 is not in stock.
- check_stock P001 → in stock (an earlier timeout was retried and succeeded).

### In Progress
- Waiting to place the order for P001.

### Blocked
- (none)

### Failed Approaches
- check_stock timed out once ("upstream timeout"); the retry succeeded.

## Key Decisions
- User chose: 那就选P001吧。

## Next Steps
1. Place the order for P001 and confirm the delivery date.

## Critical Context
- Candidate: P001, 459 元 (within the 500 元 budget).
"""


def ask(call_id: str, name: str, **arguments: Any) -> dict[str, Any]:
    """An assistant message making one tool call (OpenAI format)."""
    function = {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": call_id, "type": "function", "function": function}],
    }


def tool(call_id: str, text: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def history() -> list[dict[str, Any]]:
    filler = "x" * 3000  # long tool output: the realistic weight that makes a cut worth it
    return [
        {"role": "system", "content": "You are a shopping assistant."},
        {"role": "user", "content": STATEMENT},
        ask("c1", "search_products", query="蓝牙耳机"),
        tool("c1", '[{"id": "P001", "price": 459}, {"id": "P003", "price": 499}] ' + filler),
        ask("c2", "bash", command="grep -rn P002 stock.csv"),
        tool("c2", "\n\nCommand exited with code 1"),
        ask("c3", "check_stock", sku="P001"),
        tool("c3", '{"ok": false, "error": "upstream timeout"}'),
        ask("c4", "check_stock", sku="P001"),
        tool("c4", '{"ok": true, "in_stock": 12} ' + filler),
        {"role": "assistant", "content": "P001 459 元，P003 499 元，都有货。您选哪一款？"},
        {"role": "user", "content": "那就选P001吧。"},
        {"role": "assistant", "content": "好的，P001 有货，我来下单。"},
        # a long last request: the cut lands on it, so the kept part is whole turns
        {"role": "user", "content": "下单吧，地址用公司的。" + "送货前请先打电话确认。" * 40},
    ]


def compact(server: LLMServer, reply: str) -> Any:
    server.set_default(Reply(text=reply))
    summarizer = OpenAISummarizer("test-model", base_url=server.openai_url, api_key="k")
    return compact_messages_sync(history(), summarizer=summarizer, keep_recent_tokens=100)


def test_a_right_model_checkpoint_passes_the_guard_unchanged(llm_server: LLMServer) -> None:
    out = compact(llm_server, RECORDED)
    assert out.compacted
    assert out.summary == RECORDED.strip()  # the client strips the reply
    assert out.messages[1]["role"] == "system"  # after the system prompt, as background
    prompt = llm_server.requests[0].texts("user")[0]
    for heading in CHECKPOINT_HEADINGS:  # the prompt asks for the same sections
        assert heading in prompt
    assert "`grep`/`rg` exit 1 means no match" in prompt


def test_a_dropped_rule_is_put_back(llm_server: LLMServer) -> None:
    out = compact(llm_server, RECORDED.replace(f"- {STATEMENT}\n", "- (none)\n"))
    assert out.summary is not None
    constraints = out.summary.split("## Constraints & Preferences", 1)[1].split("## Progress")[0]
    assert RULE in constraints
