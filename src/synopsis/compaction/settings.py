"""Compaction settings, validated when they are made."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from synopsis.errors import SettingsError
from synopsis.tokens import PI_ESTIMATE, TokenCounter

PI_RESERVE_TOKENS = 16384
PI_KEEP_RECENT_TOKENS = 20000
WINDOW_SHARE = 0.25
"""``for_window`` gives the reserve and the kept part each this share of the window, at
most Pi's values: windows of 80,000 tokens and more get exactly Pi's defaults."""


@dataclass(frozen=True, slots=True)
class CompactionSettings:
    """When to compact and how much recent history to keep verbatim.

    ``reserve_tokens`` is room left for the model's reply: compaction triggers when the
    context passes ``window - reserve_tokens``. ``trigger_percent`` (0 < p ≤ 100), when
    set, triggers at ``p`` percent of the window instead, whichever comes first. The kept
    part is ``keep_recent_tokens`` of recent messages, or ``keep_recent_messages``
    messages when that is set; either way a tool call is never separated from its result.

    The defaults are Pi's, made for windows of 100k tokens and more;
    :meth:`for_window` scales them down for smaller windows.
    """

    enabled: bool = True
    reserve_tokens: int = PI_RESERVE_TOKENS
    keep_recent_tokens: int = PI_KEEP_RECENT_TOKENS
    trigger_percent: float | None = None
    keep_recent_messages: int | None = None
    full_pass_every: int | None = 5
    """Every N-th compaction rebuilds the checkpoint from the whole log (None: never). Only
    for summarizers whose text can drift (a model); the embedded summarizer renders the
    working state carried from round to round and never needs it."""
    full_pass_summary_share: float | None = 0.5
    """A full pass also runs once the previous summary uses more than this share of the
    summary budget (80% of ``reserve_tokens``); None: never."""
    checkpoint_role: Literal["user", "system"] = "user"
    """How the checkpoint reaches the model: as a user message (Pi's way, the default) or
    appended to the system prompt. The stored entry is the same either way."""
    token_counter: TokenCounter = PI_ESTIMATE
    """Estimates the messages that no reported usage covers, for the threshold decision
    (Pi's characters / 4 by default; see :func:`synopsis.token_counters.token_counter`)."""
    redact_secrets: bool = True
    """Replace credentials (API keys, tokens, passwords, private keys) by a reference to
    their entry in every checkpoint, its ``details`` and what a model summarizer reads."""

    @classmethod
    def for_window(
        cls,
        context_window: int,
        *,
        reserve_tokens: int | None = None,
        keep_recent_tokens: int | None = None,
        **options: Any,
    ) -> CompactionSettings:
        """Settings that fit ``context_window``; explicit values are kept as given.

        The reserve and the kept part not given are a quarter of the window each, at
        most Pi's 16,384 and 20,000, so a 16k or 32k window works out of the box and a
        window of 80k or more gets Pi's defaults. The result is checked against the
        window (:meth:`check_window`).
        """
        _require_int("context_window", context_window, minimum=1)
        share = int(context_window * WINDOW_SHARE)
        if reserve_tokens is None:
            reserve_tokens = min(PI_RESERVE_TOKENS, share)
        if keep_recent_tokens is None:
            keep_recent_tokens = min(PI_KEEP_RECENT_TOKENS, share)
        settings = cls(
            reserve_tokens=reserve_tokens, keep_recent_tokens=keep_recent_tokens, **options
        )
        settings.check_window(context_window)
        return settings

    def __post_init__(self) -> None:
        if not isinstance(self.enabled, bool):
            raise SettingsError(f"enabled must be true or false, got {self.enabled!r}")
        _require_int("reserve_tokens", self.reserve_tokens, minimum=0)
        _require_int("keep_recent_tokens", self.keep_recent_tokens, minimum=0)
        if self.keep_recent_messages is not None:
            _require_int("keep_recent_messages", self.keep_recent_messages, minimum=1)
        if self.full_pass_every is not None:
            _require_int("full_pass_every", self.full_pass_every, minimum=1)
        _require_fraction("full_pass_summary_share", self.full_pass_summary_share)
        if self.trigger_percent is not None:
            value = self.trigger_percent
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not 0 < value <= 100
            ):
                raise SettingsError(f"trigger_percent must be a number in (0, 100], got {value!r}")
        if not isinstance(self.token_counter, TokenCounter):
            raise SettingsError(
                "token_counter must be a TokenCounter (a name and a count(message) method), "
                f"got {self.token_counter!r}; synopsis.token_counters.token_counter(name) makes one"
            )
        if self.checkpoint_role not in ("user", "system"):
            raise SettingsError(
                f"checkpoint_role must be 'user' or 'system', got {self.checkpoint_role!r}"
            )

    def threshold(self, context_window: int) -> int:
        """The context size above which compaction triggers for ``context_window``."""
        limit = context_window - self.reserve_tokens
        if self.trigger_percent is not None:
            limit = min(limit, int(context_window * self.trigger_percent / 100))
        return limit

    def should_compact(self, context_tokens: int, context_window: int) -> bool:
        return self.enabled and context_tokens > self.threshold(context_window)

    def check_window(self, context_window: int) -> None:
        """Reject settings that cannot work with ``context_window``.

        A reserve as large as the window would compact on every turn; keeping more than
        the space left after the reserve could never bring the context under the threshold.
        """
        _require_int("context_window", context_window, minimum=1)
        fits = f"; CompactionSettings.for_window({context_window}) gives settings that fit"
        if self.reserve_tokens >= context_window:
            raise SettingsError(
                f"reserve_tokens ({self.reserve_tokens}) must be smaller than the context "
                f"window ({context_window}){fits}"
            )
        if self.keep_recent_messages is None and self.keep_recent_tokens >= self.threshold(
            context_window
        ):
            raise SettingsError(
                f"keep_recent_tokens ({self.keep_recent_tokens}) must be smaller than the "
                f"compaction threshold ({self.threshold(context_window)} tokens for a "
                f"{context_window}-token window){fits}"
            )


def _require_fraction(name: str, value: object) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 1:
        raise SettingsError(f"{name} must be a number in (0, 1], got {value!r}")


def _require_int(name: str, value: object, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingsError(f"{name} must be a whole number, got {value!r}")
    if value < minimum:
        raise SettingsError(f"{name} must be at least {minimum}, got {value}")
