"""AgentSession fits its settings to the model's window and counts with the configured
counter: a small window works out of the box, a Chinese session compacts on time."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from synopsis.agent.events import CompactionStart
from synopsis.agent.replay import ReplayModel
from synopsis.agent.session import AgentSession
from synopsis.compaction.settings import CompactionSettings
from synopsis.errors import SettingsError
from synopsis.providers.base import ChatRequest
from synopsis.session import open_session
from synopsis.tokens import CJK_ESTIMATE
from tests.agent._support import Events

# About 60 characters of our own Chinese, repeated into long turns.
SENTENCE = "我们已经把超时时间从三十秒改成了六十秒，下一步是检查日志并修复登录页面的错误。"


def reply(text: str) -> Any:
    return {"role": "assistant", "content": [{"type": "text", "text": text}], "stopReason": "stop"}


@pytest.mark.parametrize("window", [8_000, 16_000, 32_000, 200_000])
def test_without_settings_the_agent_fits_its_window(tmp_path: Path, window: int) -> None:
    session = open_session(tmp_path / "s.jsonl", create=True)
    agent = AgentSession(session, ReplayModel([], context_window=window))
    assert agent.settings == CompactionSettings.for_window(window)
    with pytest.raises(SettingsError, match="for_window"):
        AgentSession(session, ReplayModel([], context_window=16_000), settings=CompactionSettings())


class NoUsageModel:
    """A model whose server reports no usage, so only the counter sizes the context."""

    provider = "test"
    model_id = "no-usage"
    context_window = 16_000

    def __init__(self, text: str) -> None:
        self.text = text

    async def complete(self, request: ChatRequest) -> Any:
        return reply(self.text)


def run_chinese_session(tmp_path: Path, settings: CompactionSettings | None) -> list[int]:
    """Five long Chinese turns through a 16k window; the context sizes compaction saw."""
    tmp_path.mkdir()
    session = open_session(tmp_path / "s.jsonl", create=True)
    turn = SENTENCE * 40  # 1,600 CJK characters: ~1,600 tokens, but 400 by characters / 4
    agent = AgentSession(session, NoUsageModel(turn), settings=settings)
    events = Events()
    agent.subscribe(events)
    for n in range(5):
        asyncio.run(agent.prompt(f"第{n}步：{turn}"))
    return [event.tokens_before for event in events.of(CompactionStart)]


def test_the_configured_counter_decides_when_to_compact(tmp_path: Path) -> None:
    pi = run_chinese_session(tmp_path / "pi", None)
    cjk = run_chinese_session(
        tmp_path / "cjk", CompactionSettings.for_window(16_000, token_counter=CJK_ESTIMATE)
    )
    # ~3,200 real tokens a turn: by characters / 4 the five turns (~4,000 "tokens") never
    # reach the 12,000-token threshold; counted per CJK character they pass it.
    assert pi == []
    assert cjk
