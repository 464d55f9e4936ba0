"""Token accounting: per-message estimates and usage-based context size.

Pure functions, no I/O. The default estimate is deliberately the same crude, fast rule Pi
uses (characters / 4, rounded up, characters counted as UTF-16 code units) so that
compaction decisions agree with Pi's on the same session. Other counters (each a
:class:`TokenCounter`: a CJK-aware estimate, tiktoken) can be configured for threshold
decisions; the provider's reported usage, when there is a valid one, always takes
precedence over any estimate.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol, runtime_checkable

from synopsis._js import js_stringify, utf16_len
from synopsis.errors import SettingsError
from synopsis.messages import block_text, blocks, role_of, tool_arguments
from synopsis.system_messages import current_system_message

IMAGE_CHARS = 4800
"""An image counts as 4,800 characters (1,200 tokens), wherever it appears."""


TextCost = Callable[[str], float]
"""What one piece of text costs, in the unit a counter sums (characters, tokens, …)."""


def message_cost(message: Any, text_cost: TextCost, image_cost: float) -> float:
    """The summed cost of the parts of ``message`` a model reads, per Pi's rules.

    Which parts count is the same for every counter (text, thinking, tool names and their
    JSON arguments, bash commands and output, summaries; an image is ``image_cost``); only
    the cost of a piece of text differs. Roles without content cost 0.
    """
    role = role_of(message)
    if role in ("user", "custom", "toolResult"):
        content = message.get("content")
        if isinstance(content, str):
            return text_cost(content)
        cost: float = 0
        for block in blocks(message):
            kind = block.get("type")
            if kind == "text":
                cost += text_cost(block_text(block))
            elif kind == "image":
                cost += image_cost
        return cost
    if role == "assistant":
        cost = 0
        for block in blocks(message):
            kind = block.get("type")
            if kind == "text":
                cost += text_cost(block_text(block))
            elif kind == "thinking":
                cost += text_cost(block_text(block, "thinking"))
            elif kind == "toolCall":
                name = block.get("name")
                cost += text_cost(name) if isinstance(name, str) else 0
                cost += text_cost(js_stringify(tool_arguments(block)))
        return cost
    if role == "bashExecution":
        return _str_cost(message, text_cost, "command", "output")
    if role in ("branchSummary", "compactionSummary"):
        return _str_cost(message, text_cost, "summary")
    if role == "system":  # Pi 1.6: content, every section's text, the added tools as JSON
        cost = message_cost({**message, "role": "user"}, text_cost, image_cost)
        sections = message.get("sections")
        if isinstance(sections, dict):
            cost += sum(text_cost(v) for v in sections.values() if isinstance(v, str))
        tools = message.get("toolsAdded")
        if tools is not None:
            cost += text_cost(js_stringify(tools))
        return cost
    return 0


def _str_cost(message: Any, text_cost: TextCost, *fields: str) -> float:
    cost: float = 0
    for field in fields:
        value = message.get(field)
        if isinstance(value, str):
            cost += text_cost(value)
    return cost


def estimate_tokens(message: Any) -> int:
    """Estimated tokens of one message: ceil(characters / 4), Pi's rule."""
    return -(-int(message_cost(message, utf16_len, IMAGE_CHARS)) // 4)


@runtime_checkable
class TokenCounter(Protocol):
    """Counts the tokens of one message for threshold decisions.

    Settings carry one (``CompactionSettings.token_counter``); a provider's reported
    usage still takes precedence over any counter where there is one.
    """

    @property
    def name(self) -> str:
        """How the counter is named in settings and on the command line."""
        ...

    def count(self, message: Any) -> int: ...


@dataclass(frozen=True, slots=True)
class PiEstimate:
    """Pi's estimate, characters / 4: the default, and what parity with Pi needs."""

    @property
    def name(self) -> str:
        return "chars4"

    count = staticmethod(estimate_tokens)  # the function itself: no cost over calling it


# CJK scripts: Hangul jamo, CJK radicals and Kangxi, CJK punctuation, kana, bopomofo,
# Hangul compatibility jamo, enclosed and compatibility CJK, ideographs (and extension A),
# Hangul syllables and jamo extensions, compatibility ideographs and forms, fullwidth
# forms; astral ideographs (extensions B and later) separately, as they are two UTF-16 units.
# Compiled on first use: the classes take longer to compile than the rest of the
# module to load, and most processes (a CLI command, Pi's estimate) never count CJK text.
_CJK = (
    "[\u1100-\u11ff\u2e80-\u2fdf\u3000-\u9fff\ua960-\ua97f\uac00-\ud7ff"
    "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]"
)
_CJK_ASTRAL = "[\U00020000-\U0003ffff]"


@cache
def _cjk_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    return re.compile(_CJK), re.compile(_CJK_ASTRAL)


@dataclass(frozen=True, slots=True)
class CjkAwareEstimate:
    """Characters / 4, except that a CJK character counts ``tokens_per_char`` tokens.

    BPE tokenizers give a Chinese, Japanese or Korean character about one token, where
    characters / 4 gives it a quarter: on CJK text Pi's estimate is 2-3 times too low and
    compaction triggers too late. Fitted on the gettext catalogs of zh_CN, zh_TW, ja and
    ko, a CJK character costs 1.0-1.28 tokens in cl100k_base and 0.70-0.94 in o200k_base;
    one token sits between the two (``benchmarks/bench_token_counters.py`` measures the
    error against cl100k_base). Text without CJK characters is counted as Pi counts it.
    """

    tokens_per_char: float = 1.0

    def __post_init__(self) -> None:
        value = self.tokens_per_char
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 8:
            raise SettingsError(f"tokens_per_char must be a number in (0, 8], got {value!r}")

    @property
    def name(self) -> str:
        return "cjk" if self.tokens_per_char == 1.0 else f"cjk:{self.tokens_per_char:g}"

    def _units(self, text: str) -> float:
        """Quarter tokens: a UTF-16 unit outside CJK is one, a CJK character 4 × ratio."""
        if text.isascii():
            return len(text)
        extra = 4 * self.tokens_per_char
        cjk, cjk_astral = _cjk_patterns()
        bmp = len(cjk.findall(text))
        astral = len(cjk_astral.findall(text))
        return utf16_len(text) + bmp * (extra - 1) + astral * (extra - 2)

    def count(self, message: Any) -> int:
        return math.ceil(message_cost(message, self._units, IMAGE_CHARS) / 4)


PI_ESTIMATE = PiEstimate()
CJK_ESTIMATE = CjkAwareEstimate()


def text_tokens(counter: TokenCounter, text: str) -> int:
    """Tokens of a bare text (a system prompt, a checkpoint) by ``counter``: counted as
    the user message that would carry it, since counters count messages."""
    return counter.count({"role": "user", "content": text}) if text else 0


_USAGE_FIELDS = ("input", "output", "cacheRead", "cacheWrite")


def _count(usage: dict[str, Any], field: str) -> int:
    value = usage.get(field)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if isinstance(value, float) and not math.isfinite(value):
        return 0  # JSON such as 1e400 loads as infinity, which is no count
    return int(value)


def calculate_context_tokens(usage: dict[str, Any]) -> int:
    """Tokens a reply's usage says the context held: ``totalTokens``, else the sum of parts."""
    total = _count(usage, "totalTokens")
    if total:
        return total
    return sum(_count(usage, field) for field in _USAGE_FIELDS)


def valid_usage(message: Any) -> dict[str, Any] | None:
    """The usage of an assistant reply that can be trusted for context accounting.

    Replies that were aborted or failed carry partial or meaningless usage, and some
    providers report usage with every field 0: neither says how big the context was.
    """
    if role_of(message) != "assistant":
        return None
    if message.get("stopReason") in ("aborted", "error"):
        return None
    usage = message.get("usage")
    if not isinstance(usage, dict):
        return None
    if not any(_count(usage, field) for field in (*_USAGE_FIELDS, "totalTokens")):
        return None
    return usage


@dataclass(frozen=True, slots=True)
class ContextTokens:
    """The context size of a list of messages, and where the number comes from."""

    tokens: int
    usage_tokens: int
    trailing_tokens: int
    last_usage_index: int | None


def estimate_context_tokens(
    messages: Sequence[Any],
    per_message: Sequence[int] | None = None,
    count: Callable[[Any], int] = estimate_tokens,
) -> ContextTokens:
    """Context size: the last valid usage plus estimates of the messages after it.

    ``per_message`` may pass estimates already computed for ``messages``; ``count``
    estimates one message (a :class:`TokenCounter`'s ``count``; Pi's by default).
    """
    for index in range(len(messages) - 1, -1, -1):
        usage = valid_usage(messages[index])
        if usage is None:
            continue
        usage_tokens = calculate_context_tokens(usage)
        later = messages[index + 1 :]
        trailing = (
            sum(per_message[index + 1 :])
            if per_message is not None
            else sum(count(m) for m in later)
        )
        return ContextTokens(usage_tokens + trailing, usage_tokens, trailing, index)
    trailing = sum(per_message) if per_message is not None else sum(map(count, messages))
    return ContextTokens(trailing, 0, trailing, None)


def should_compact(
    context_tokens: int, context_window: int, reserve_tokens: int, *, enabled: bool = True
) -> bool:
    """Compaction triggers when the context leaves less than ``reserve_tokens`` free."""
    return enabled and context_tokens > context_window - reserve_tokens


def estimate_without_usage(
    messages: Sequence[Any], count: Callable[[Any], int] = estimate_tokens
) -> int:
    """The context estimate when no usage can be trusted (Pi 1.6's rule).

    System messages count once, as the prompt they add up to (see
    :func:`synopsis.system_messages.current_system_message`); every other message by its
    own estimate.
    """
    system = current_system_message(messages)
    total = count(system) if system is not None else 0
    return total + sum(count(m) for m in messages if role_of(m) != "system")


def current_context_tokens(
    messages: Sequence[Any],
    new_messages_start: int = 0,
    count: Callable[[Any], int] = estimate_tokens,
) -> ContextTokens:
    """Context size for the compaction trigger, ignoring usage older than the checkpoint.

    Replies before ``new_messages_start`` (the messages of entries before the latest
    compaction or context edit) were answered from a context that has since changed, so
    their usage says nothing about the current size: only a valid usage after that point
    counts, else every message is estimated (:func:`estimate_without_usage`). Runs before
    every model call, so it estimates only what it needs to, with ``count``.
    """
    recent = estimate_context_tokens(messages[new_messages_start:], count=count)
    if recent.last_usage_index is None:
        total = estimate_without_usage(messages, count)
        return ContextTokens(total, 0, total, None)
    return ContextTokens(
        recent.tokens,  # that reply's input already covered everything before it
        recent.usage_tokens,
        recent.trailing_tokens,
        recent.last_usage_index + new_messages_start,
    )
