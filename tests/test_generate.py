"""Tests for the synthetic session generator (tests.synthetic).

The generator feeds benchmarks and fidelity checks, so what matters is that its output is
reproducible, structurally valid Pi v3 (every tool call answered, a linear chain of unique
ids) and that the facts it reports are really where it says they are.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from synopsis.errors import SettingsError
from tests.synthetic import GeneratedSession, generate_session, write_session

HEX8 = re.compile(r"^[0-9a-f]{8}$")
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
CJK = re.compile(r"[\u4e00-\u9fff]")


def _text_of(message: dict[str, Any]) -> str:
    """All human-readable text of a message (text and thinking blocks, or a string)."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content or []:
        if block.get("type") == "text":
            parts.append(block["text"])
        elif block.get("type") == "thinking":
            parts.append(block["thinking"])
    return "\n".join(parts)


@pytest.fixture(scope="module")
def en_session() -> GeneratedSession:
    return generate_session(seed=42, entries=1500)


@pytest.fixture(scope="module")
def zh_session() -> GeneratedSession:
    return generate_session(seed=43, entries=1500, language="zh")


# ------------------------------------------------------------------ determinism


@pytest.mark.parametrize("language", ["en", "zh"])
def test_same_seed_gives_same_bytes(language: str) -> None:
    a = generate_session(7, 400, language=language).to_jsonl()
    b = generate_session(7, 400, language=language).to_jsonl()
    assert a == b


def test_different_seeds_give_different_sessions() -> None:
    a = generate_session(1, 300)
    b = generate_session(2, 300)
    assert a.to_jsonl() != b.to_jsonl()
    assert a.header["id"] != b.header["id"]
    assert [f.text for f in a.facts] != [f.text for f in b.facts]


def test_generation_does_not_touch_global_random_state() -> None:
    import random

    random.seed(123)
    expected = random.random()
    random.seed(123)
    generate_session(5, 200)
    assert random.random() == expected


def test_start_time_is_respected() -> None:
    s = generate_session(3, 10, start_time_ms=1_700_000_000_000)
    assert s.header["timestamp"] == "2023-11-14T22:13:20.000Z"
    assert s.entries[0]["timestamp"] > s.header["timestamp"]


# ------------------------------------------------------------------ structure


@pytest.mark.parametrize("count", [0, 1, 2, 3, 4, 5, 17, 64, 1000])
def test_exact_entry_count(count: int) -> None:
    s = generate_session(11, count)
    assert len(s.entries) == count
    data = s.to_jsonl()
    assert data.endswith(b"\n")
    assert data.count(b"\n") == count + 1


def test_every_line_is_valid_json_with_a_v3_header(en_session: GeneratedSession) -> None:
    lines = en_session.to_jsonl().split(b"\n")
    assert lines[-1] == b""
    header = json.loads(lines[0])
    assert header["type"] == "session"
    assert header["version"] == 3
    assert re.match(r"^[0-9a-f-]{36}$", header["id"])
    assert ISO.match(header["timestamp"])
    assert header["cwd"].startswith("/home/dev/")
    for raw in lines[1:-1]:
        entry = json.loads(raw)
        assert {"type", "id", "parentId", "timestamp"} <= entry.keys()


def test_ids_are_unique_hex_and_form_a_linear_chain(en_session: GeneratedSession) -> None:
    ids = [e["id"] for e in en_session.entries]
    assert len(set(ids)) == len(ids)
    assert all(HEX8.match(i) for i in ids)
    parent = None
    for e in en_session.entries:
        assert e["parentId"] == parent
        parent = e["id"]


def test_ids_stay_unique_in_a_long_session() -> None:
    # 30,000 random 32-bit ids collide with probability ~10%: the generator must redraw.
    s = generate_session(99, 30_000)
    ids = {e["id"] for e in s.entries}
    assert len(ids) == 30_000


def test_starts_with_model_and_thinking_level(en_session: GeneratedSession) -> None:
    first, second, third = en_session.entries[:3]
    assert first["type"] == "model_change"
    assert first["provider"] == "anthropic"
    assert first["modelId"] == "claude-sonnet-4-5"
    assert second["type"] == "thinking_level_change"
    assert third["type"] == "message"
    assert third["message"]["role"] == "user"


def test_timestamps_are_iso_and_never_go_backwards(en_session: GeneratedSession) -> None:
    stamps = [e["timestamp"] for e in en_session.entries]
    assert all(ISO.match(t) for t in stamps)
    assert stamps == sorted(stamps)


def test_every_tool_call_is_followed_by_its_results(en_session: GeneratedSession) -> None:
    entries = en_session.entries
    seen_calls = 0
    i = 0
    while i < len(entries):
        e = entries[i]
        msg = e.get("message") if e["type"] == "message" else None
        if msg and msg["role"] == "toolResult":
            pytest.fail(f"tool result {e['id']} without a preceding assistant tool call")
        if msg and msg["role"] == "assistant":
            calls = [b for b in msg["content"] if b["type"] == "toolCall"]
            assert msg["stopReason"] == ("toolUse" if calls else "stop")
            for j, call in enumerate(calls):
                assert call["id"].startswith("toolu_")
                assert call["name"] in {"read", "edit", "write", "bash", "grep"}
                result = entries[i + 1 + j]["message"]
                assert result["role"] == "toolResult"
                assert result["toolCallId"] == call["id"]
                assert result["toolName"] == call["name"]
                assert isinstance(result["isError"], bool)
                assert result["content"][0]["type"] == "text"
            seen_calls += len(calls)
            i += 1 + len(calls)
            continue
        i += 1
    assert seen_calls > 100


def test_tool_arguments_have_the_documented_shape(en_session: GeneratedSession) -> None:
    required = {
        "read": {"path"},
        "edit": {"path", "oldText", "newText"},
        "write": {"path", "content"},
        "bash": {"command"},
        "grep": {"pattern", "path"},
    }
    for e in en_session.entries:
        msg = e.get("message", {})
        if msg.get("role") != "assistant":
            continue
        for block in msg["content"]:
            if block["type"] == "toolCall":
                assert required[block["name"]] <= block["arguments"].keys()
                assert all(isinstance(v, str | int) for v in block["arguments"].values())


def test_usage_is_consistent_and_grows(en_session: GeneratedSession) -> None:
    inputs = []
    for e in en_session.entries:
        msg = e.get("message", {})
        if msg.get("role") != "assistant":
            continue
        u = msg["usage"]
        assert u["totalTokens"] == u["input"] + u["output"] + u["cacheRead"] + u["cacheWrite"]
        assert u["cost"]["total"] == pytest.approx(
            u["cost"]["input"] + u["cost"]["output"] + u["cost"]["cacheRead"]
            + u["cost"]["cacheWrite"]
        )  # fmt: skip
        assert msg["api"] == "anthropic-messages"
        assert msg["model"] == "claude-sonnet-4-5"
        inputs.append(u["input"])
    assert inputs == sorted(inputs)
    # Roughly chars/4 of the whole conversation so far.
    total_chars = len(en_session.to_jsonl())
    assert total_chars / 12 < inputs[-1] < total_chars / 2


def test_results_look_real(en_session: GeneratedSession) -> None:
    results = [
        e["message"]
        for e in en_session.entries
        if e["type"] == "message" and e["message"]["role"] == "toolResult"
    ]
    texts = [r["content"][0]["text"] for r in results]
    assert any(r["isError"] for r in results)
    assert any(not r["isError"] for r in results)
    assert any(len(t) > 10_000 for t in texts), "a few results should be large"
    assert max(len(t) for t in texts) < 64 * 1024
    joined = "\n".join(texts)
    assert "Command exited with code" in joined
    assert "Successfully replaced text in" in joined
    assert re.search(r"\bdef |\bfunction |\bclass |export ", joined)


def test_other_entry_types_occur() -> None:
    s = generate_session(21, 6000)
    kinds = {e["type"] for e in s.entries}
    roles = {e["message"]["role"] for e in s.entries if e["type"] == "message"}
    assert {"model_change", "thinking_level_change", "custom_message", "label"} <= kinds
    assert "session_info" in kinds
    assert {"user", "assistant", "toolResult", "bashExecution"} <= roles
    ids = {e["id"] for e in s.entries}
    for e in s.entries:
        if e["type"] == "label":
            assert e["targetId"] in ids
        if e["type"] == "custom_message":
            assert e["display"] is True
            assert e["details"] is None
        if e["type"] == "message" and e["message"]["role"] == "bashExecution":
            m = e["message"]
            assert isinstance(m["exitCode"], int)
            assert m["cancelled"] is False
            assert m["truncated"] is False


# ------------------------------------------------------------------ planted facts


@pytest.mark.parametrize("fixture", ["en_session", "zh_session"])
def test_planted_facts_occur_verbatim_where_named(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    s: GeneratedSession = request.getfixturevalue(fixture)
    by_id = {e["id"]: e for e in s.entries}
    kinds = {f.kind for f in s.facts}
    assert kinds == {"goal", "constraint", "identifier"}
    assert sum(f.kind == "constraint" for f in s.facts) >= 3
    assert sum(f.kind == "identifier" for f in s.facts) >= 5
    for fact in s.facts:
        entry = by_id[fact.entry_id]
        assert fact.text in _text_of(entry["message"]), fact


def test_facts_are_spread_through_the_session(en_session: GeneratedSession) -> None:
    index = {e["id"]: i for i, e in enumerate(en_session.entries)}
    positions = [index[f.entry_id] for f in en_session.facts]
    assert positions == sorted(positions)
    assert positions[0] < 5  # the goal opens the session
    assert positions[-1] > len(en_session.entries) // 2


def test_goal_is_in_the_first_user_message(en_session: GeneratedSession) -> None:
    goal = [f for f in en_session.facts if f.kind == "goal"]
    assert len(goal) == 1
    first_user = next(
        e for e in en_session.entries if e["type"] == "message" and e["message"]["role"] == "user"
    )
    assert goal[0].entry_id == first_user["id"]


def test_fact_values_depend_on_the_seed() -> None:
    a = {f.text for f in generate_session(1, 500).facts if f.kind == "identifier"}
    b = {f.text for f in generate_session(2, 500).facts if f.kind == "identifier"}
    assert not a & b


def test_short_sessions_plant_only_what_fits() -> None:
    for count in range(0, 12):
        s = generate_session(4, count)
        ids = {e["id"] for e in s.entries}
        assert all(f.entry_id in ids for f in s.facts)
    assert generate_session(4, 2).facts == []
    assert any(f.kind == "goal" for f in generate_session(4, 3).facts)


# ------------------------------------------------------------------ language


def test_zh_sessions_are_mostly_chinese(zh_session: GeneratedSession) -> None:
    users = [
        _text_of(e["message"])
        for e in zh_session.entries
        if e["type"] == "message" and e["message"]["role"] == "user"
    ]
    with_cjk = [u for u in users if CJK.search(u)]
    assert len(with_cjk) >= 0.9 * len(users)
    constraints = [f.text for f in zh_session.facts if f.kind == "constraint"]
    assert all(CJK.search(c) for c in constraints)
    # The file carries CJK as UTF-8 (as Pi writes it), not as \u escapes.
    raw = zh_session.to_jsonl()
    assert CJK.search(raw.decode("utf-8"))
    assert b"\\u4" not in raw


def test_en_sessions_have_no_chinese_user_text(en_session: GeneratedSession) -> None:
    for e in en_session.entries:
        if e["type"] == "message" and e["message"]["role"] == "user":
            assert not CJK.search(_text_of(e["message"]))


def test_unknown_language_is_rejected() -> None:
    with pytest.raises(SettingsError, match="language"):
        generate_session(1, 10, language="fr")


def test_negative_entry_count_is_rejected() -> None:
    with pytest.raises(SettingsError):
        generate_session(1, -1)


# ------------------------------------------------------------------ writing


def test_write_session_writes_the_same_bytes(tmp_path: Path) -> None:
    target = tmp_path / "s.jsonl"
    s = write_session(target, 8, 250, language="zh")
    assert target.read_bytes() == s.to_jsonl()
    assert target.read_bytes() == generate_session(8, 250, language="zh").to_jsonl()
    assert os.listdir(tmp_path) == ["s.jsonl"]  # no temporary file left behind


def test_the_shipped_demo_recordings_are_what_the_generator_makes() -> None:
    """``synopsis demo`` replays files made by this generator; they must not drift from it
    (rewrite them with ``python -m tests.synthetic.demo_recording``)."""
    from tests.synthetic.demo_recording import build_recording, recording_path

    for language in ("en", "zh"):
        assert recording_path(language).read_bytes() == build_recording(language), language
