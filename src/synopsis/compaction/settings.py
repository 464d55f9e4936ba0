"""Compaction settings, validated when they are made."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from synopsis.errors import SettingsError


@dataclass(frozen=True, slots=True)
class CompactionSettings:
    """When to compact and how much recent history to keep verbatim.

    ``reserve_tokens`` is room left for the model's reply: compaction triggers when the
    context passes ``window - reserve_tokens``. ``trigger_fraction`` (0 < f ≤ 1), when
    set, triggers at ``f × window`` instead, whichever comes first. The kept part is
    ``keep_recent_tokens`` of recent messages, or ``keep_recent_messages`` messages when
    that is set; either way a tool call is never separated from its result.
    """

    enabled: bool = True
    reserve_tokens: int = 16384
    keep_recent_tokens: int = 20000
    trigger_fraction: float | None = None
    keep_recent_messages: int | None = None
    full_pass_every: int | None = 5
    """Every N-th compaction rebuilds the checkpoint from the whole log (None: never)."""
    full_pass_summary_share: float | None = 0.5
    """A full pass also runs once the previous summary uses more than this share of the
    summary budget (80% of ``reserve_tokens``); None: never."""
    checkpoint_role: Literal["user", "system"] = "user"
    """How the checkpoint reaches the model: as a user message (Pi's way, the default) or
    appended to the system prompt. The stored entry is the same either way."""

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
        _require_fraction("trigger_fraction", self.trigger_fraction)
        if self.checkpoint_role not in ("user", "system"):
            raise SettingsError(
                f"checkpoint_role must be 'user' or 'system', got {self.checkpoint_role!r}"
            )

    def threshold(self, context_window: int) -> int:
        """The context size above which compaction triggers for ``context_window``."""
        limit = context_window - self.reserve_tokens
        if self.trigger_fraction is not None:
            limit = min(limit, int(context_window * self.trigger_fraction))
        return limit

    def should_compact(self, context_tokens: int, context_window: int) -> bool:
        return self.enabled and context_tokens > self.threshold(context_window)

    def check_window(self, context_window: int) -> None:
        """Reject settings that cannot work with ``context_window``.

        A reserve as large as the window would compact on every turn; keeping more than
        the space left after the reserve could never bring the context under the threshold.
        """
        _require_int("context_window", context_window, minimum=1)
        if self.reserve_tokens >= context_window:
            raise SettingsError(
                f"reserve_tokens ({self.reserve_tokens}) must be smaller than the context "
                f"window ({context_window})"
            )
        if self.keep_recent_messages is None and self.keep_recent_tokens >= self.threshold(
            context_window
        ):
            raise SettingsError(
                f"keep_recent_tokens ({self.keep_recent_tokens}) must be smaller than the "
                f"compaction threshold ({self.threshold(context_window)} tokens for a "
                f"{context_window}-token window)"
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
