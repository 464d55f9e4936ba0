"""Canaries: typed facts planted in a benchmark session, and what counts as keeping one.

A canary is defined by strings, never by a compactor's output format: the tokens that
must appear (verbatim, up to case, whitespace and code quotes) somewhere in the context
after compaction for the canary to survive, and for a replaced value the old spellings
that must not be stated as current. Every canary carries a random part drawn from the
scenario's seed (a ticket number, a directory suffix, a revision hash), so a summarizer
cannot produce it from general knowledge: it survives only if the compaction kept it.

Plants are what the scenario generator inserts; it turns each into a :class:`Canary`
once it knows the position of the message that holds it.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal


class CanaryType(StrEnum):
    SAFETY = "safety"
    """A safety rule: something the agent must never do."""
    CONSTRAINT = "constraint"
    """A hard constraint on the work or its result."""
    PREFERENCE = "preference"
    """A user preference (style, format, contact)."""
    FACT = "fact"
    """An identifier or value later steps depend on (ticket, order id, commit, URL)."""
    GOAL = "goal"
    """What the user wants done; still open, so it must not be reported as done."""
    FAILED_APPROACH = "failed_approach"
    """A tool call that failed, with the reason it failed."""
    MODIFIED_FILE = "modified_file"
    """A file the agent changed successfully."""
    SUPERSEDED = "superseded"
    """A value the user replaced later (sometimes in other words)."""


CANARY_TYPES: tuple[CanaryType, ...] = tuple(CanaryType)
ExecStatus = Literal["done", "pending", "blocked"]
Spellings = tuple[str, ...]
"""Accepted spellings of one required value ("$460", "four hundred sixty dollars")."""


@dataclass(frozen=True, slots=True)
class Canary:
    """One planted fact and the test of whether a context still holds it."""

    id: str
    type: CanaryType
    required: tuple[Spellings, ...]
    """Every group must be present (any one spelling of it) for the canary to survive."""
    position: int
    """Index, in the scenario's messages, of the message holding the required tokens."""
    text: str
    """The planted sentence or output line (for reports and for sizing the budget)."""
    stale: Spellings = ()
    """Spellings of the replaced value: present as current = a stale value."""
    stale_position: int | None = None
    """Index of the message that stated the replaced value."""
    expected_status: ExecStatus | None = None
    """For tool-event and goal canaries: what the tool events say (done / pending / blocked)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "type": self.type.value,
            "required": [list(group) for group in self.required],
            "position": self.position,
            "text": self.text,
        }
        if self.stale:
            data["stale"] = list(self.stale)
            data["stalePosition"] = self.stale_position
        if self.expected_status is not None:
            data["expectedStatus"] = self.expected_status
        return data


# --- plants ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SaidPlant:
    """A sentence the user says (a rule, a preference, a fact, a goal)."""

    type: CanaryType
    sentence: str
    required: tuple[Spellings, ...]
    expected_status: ExecStatus | None = None


@dataclass(frozen=True, slots=True)
class ToolPlant:
    """A tool call the assistant makes and the result it gets."""

    type: CanaryType
    tool: str
    arguments: dict[str, Any]
    result: str
    is_error: bool
    required: tuple[Spellings, ...]
    expected_status: ExecStatus
    intro: str
    """What the assistant says as it makes the call."""
    remark: str
    """What the assistant says after the result."""


@dataclass(frozen=True, slots=True)
class CorrectionPlant:
    """A value the user states, then replaces later (possibly in other words)."""

    original: str
    correction: str
    required: tuple[Spellings, ...]
    """The new value's spellings."""
    stale: Spellings
    """The old value's spellings."""


Plant = SaidPlant | ToolPlant | CorrectionPlant


def said(kind: CanaryType, sentence: str) -> SaidPlant:
    """A rule the user states; its own text (without end punctuation) is what is required.

    Rules are required whole: a rule paraphrased is a rule lost ("never change the
    public API" is not "keep compatibility").
    """
    return SaidPlant(kind, sentence, ((sentence.rstrip(".。!！"),),))


def fact(sentence: str, value: str) -> SaidPlant:
    """A value the user states; the value itself is what is required."""
    return SaidPlant(CanaryType.FACT, sentence, ((value,),))


# --- random tokens ---------------------------------------------------------------------

_LOWER = "abcdefghjkmnpqrstuvwxyz"
_ALNUM = _LOWER + "23456789"


@dataclass
class TokenMint:
    """Random tokens that never repeat within one scenario (one mint per scenario)."""

    rng: random.Random
    _used: set[str] = field(default_factory=set)

    def _unique(self, make: Callable[[], str]) -> str:
        while True:
            token = make()
            if token not in self._used:
                self._used.add(token)
                return token

    def alnum(self, length: int = 4) -> str:
        """Lower-case letters and digits, starting with a letter and holding a digit."""

        def make() -> str:
            head = self.rng.choice(_LOWER)
            rest = "".join(self.rng.choice(_ALNUM) for _ in range(length - 1))
            return head + rest if any(c.isdigit() for c in rest) else head + rest[:-1] + "7"

        return self._unique(make)

    def upper(self, length: int = 4) -> str:
        return self.alnum(length).upper()

    def digits(self, length: int) -> str:
        def make() -> str:
            first = self.rng.choice("123456789")
            return first + "".join(self.rng.choice(string.digits) for _ in range(length - 1))

        return self._unique(make)

    def hex(self, length: int) -> str:
        """Lower-case hex holding at least one digit and one letter (a plausible hash)."""

        def make() -> str:
            while True:
                token = "".join(self.rng.choice("0123456789abcdef") for _ in range(length))
                if any(c.isdigit() for c in token) and any(c.isalpha() for c in token):
                    return token

        return self._unique(make)

    def number(self, low: int, high: int, step: int = 1) -> int:
        """A number in [low, high] on a ``step`` grid, not drawn before in this scenario."""
        return int(self._unique(lambda: str(self.rng.randrange(low, high + 1, step))))

    def date(self, year: int = 2026) -> str:
        def make() -> str:
            month = self.rng.randint(2, 11)
            day = self.rng.randint(1, 27)
            return f"{year}-{month:02d}-{day:02d}"

        return self._unique(make)
