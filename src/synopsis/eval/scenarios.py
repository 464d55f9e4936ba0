"""Benchmark scenarios: long, deterministic sessions with canaries at known positions.

A scenario is a list of agent messages (user turns, assistant tool calls, large tool
results) in one of two styles — a coding agent or a customer-service agent — and two
languages, plus the canaries planted in it. Everything comes from
``random.Random(f"{seed}:{style}:{language}")``: the same arguments always give the same
messages and canaries, so a benchmark figure can be reproduced and compared.

Rules, constraints and preferences tend to come early (as users state them), goals and
corrections later, tool events anywhere; the runner appends the scenario in slices, so
early canaries must survive every later compaction.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from synopsis.errors import SettingsError
from synopsis.eval._catalog import Catalog, coding_catalog, support_catalog
from synopsis.eval._filler import (
    PROCEED,
    FillerTurn,
    Step,
    coding_turn,
    coding_world,
    support_turn,
    support_world,
)
from synopsis.eval.canaries import (
    Canary,
    CanaryType,
    CorrectionPlant,
    Plant,
    SaidPlant,
    TokenMint,
    ToolPlant,
)
from synopsis.tokens import estimate_tokens

Style = Literal["coding", "support"]
Language = Literal["en", "zh"]
STYLES: tuple[Style, ...] = ("coding", "support")
LANGUAGES: tuple[Language, ...] = ("en", "zh")
DEFAULT_TURNS = 40
MIN_TURNS = 8

DEFAULT_COUNTS: dict[CanaryType, int] = {
    CanaryType.SAFETY: 2,
    CanaryType.CONSTRAINT: 2,
    CanaryType.PREFERENCE: 2,
    CanaryType.FACT: 3,
    CanaryType.GOAL: 1,  # besides the opening goal
    CanaryType.FAILED_APPROACH: 2,
    CanaryType.MODIFIED_FILE: 3,
    CanaryType.SUPERSEDED: 2,
}
"""How many canaries of each type a scenario plants."""

_START_MS = 1_768_212_000_000  # 2026-01-12T10:00:00Z
_MODEL = {"api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5"}
# Where in the session (as a share of its turns) each type is planted.
_WINDOWS: dict[CanaryType, tuple[float, float]] = {
    CanaryType.SAFETY: (0.0, 0.6),
    CanaryType.CONSTRAINT: (0.0, 0.6),
    CanaryType.PREFERENCE: (0.0, 0.7),
    CanaryType.FACT: (0.0, 1.0),
    CanaryType.GOAL: (0.4, 0.8),
    CanaryType.FAILED_APPROACH: (0.0, 1.0),
    CanaryType.MODIFIED_FILE: (0.0, 1.0),
}


@dataclass(frozen=True)
class Scenario:
    """One generated session and its canaries."""

    seed: int
    style: Style
    language: Language
    messages: tuple[dict[str, Any], ...]
    canaries: tuple[Canary, ...]
    turn_starts: tuple[int, ...]
    """Index of each turn's user message."""
    _prefix_tokens: tuple[int, ...] = field(repr=False, default=())

    @property
    def name(self) -> str:
        return f"{self.style}-{self.language}-s{self.seed}"

    def tokens(self, end: int | None = None) -> int:
        """Estimated tokens of ``messages[:end]`` (the uncompacted context)."""
        return self._prefix_tokens[len(self.messages) if end is None else end]

    def slices(self, rounds: int) -> list[tuple[int, int]]:
        """``rounds`` message ranges covering the session, each starting at a turn."""
        turns = len(self.turn_starts)
        if not 1 <= rounds <= turns:
            raise SettingsError(f"rounds must be between 1 and {turns} for {self.name}")
        bounds = [self.turn_starts[round(i * turns / rounds)] for i in range(rounds)]
        bounds.append(len(self.messages))
        return list(itertools.pairwise(bounds))

    def active(self, end: int) -> tuple[Canary, ...]:
        """Canaries planted in ``messages[:end]``."""
        return tuple(c for c in self.canaries if c.position < end)


def generate_scenario(
    seed: int,
    style: Style = "coding",
    language: Language = "en",
    *,
    turns: int = DEFAULT_TURNS,
    counts: dict[CanaryType, int] | None = None,
) -> Scenario:
    """The scenario for ``seed``, ``style`` and ``language`` (deterministic)."""
    if style not in STYLES:
        raise SettingsError(f"unknown style {style!r}; use one of: {', '.join(STYLES)}")
    if language not in LANGUAGES:
        raise SettingsError(f"unknown language {language!r}; use one of: {', '.join(LANGUAGES)}")
    if turns < MIN_TURNS:
        raise SettingsError(f"turns must be at least {MIN_TURNS}, got {turns}")
    return _Builder(seed, style, language, turns, counts or DEFAULT_COUNTS).build()


def generate_scenarios(
    seeds: Sequence[int],
    styles: Sequence[Style] = STYLES,
    languages: Sequence[Language] = LANGUAGES,
    *,
    turns: int = DEFAULT_TURNS,
) -> list[Scenario]:
    return [
        generate_scenario(seed, style, language, turns=turns)
        for seed in seeds
        for style in styles
        for language in languages
    ]


# --- building ---------------------------------------------------------------------------


def _paragraphs(*texts: str) -> str:
    """A remark on the last result and what comes next are separate paragraphs."""
    return "\n\n".join(t for t in texts if t)


@dataclass
class _Turn:
    said: list[tuple[str, Plant | None]] = field(default_factory=list)
    """Sentences the user adds, with the plant each comes from (None: a correction's
    original statement, which is not itself a canary)."""
    tools: list[ToolPlant] = field(default_factory=list)
    goal: SaidPlant | None = None


class _Builder:
    def __init__(
        self,
        seed: int,
        style: Style,
        language: Language,
        turns: int,
        counts: dict[CanaryType, int],
    ) -> None:
        self.seed, self.style, self.language = seed, style, language
        self.r = random.Random(f"{seed}:{style}:{language}")
        self.mint = TokenMint(self.r)
        self.zh = language == "zh"
        self.turn_count = turns
        self.counts = counts
        self.messages: list[dict[str, Any]] = []
        self.canaries: list[Canary] = []
        self.turn_starts: list[int] = []
        self.now = _START_MS
        self.numbers: dict[CanaryType, int] = {}
        if style == "coding":
            self.coding = coding_world(self.r)
            self.catalog: Catalog = coding_catalog(self.mint, self.zh, self.coding.package)
        else:
            self.support = support_world(self.r, self.mint, self.zh)
            self.catalog = support_catalog(self.mint, self.zh, self.support.product)

    def build(self) -> Scenario:
        plan = self._plan()
        for index, turn in enumerate(plan):
            self._turn(turn, self._filler(), first=index == 0)
        prefix = [0]
        for message in self.messages:
            prefix.append(prefix[-1] + estimate_tokens(message))
        return Scenario(
            self.seed,
            self.style,
            self.language,
            tuple(self.messages),
            tuple(sorted(self.canaries, key=lambda c: (c.position, c.id))),
            tuple(self.turn_starts),
            tuple(prefix),
        )

    # --- where each plant goes ----------------------------------------------------------

    def _window(self, kind: CanaryType) -> int:
        low, high = _WINDOWS[kind]
        last = self.turn_count - 1
        return self.r.randint(max(1, round(low * last)), max(1, round(high * last)))

    def _plan(self) -> list[_Turn]:
        plan = [_Turn() for _ in range(self.turn_count)]
        plan[0].goal = self.catalog.first_goal
        for kind, count in self.counts.items():
            candidates = self.catalog.candidates.get(kind, [])
            for plant in self.r.sample(candidates, min(count, len(candidates))):
                if isinstance(plant, CorrectionPlant):
                    last = self.turn_count - 1
                    first = self.r.randint(1, last // 2)
                    later = self.r.randint(min(last, first + last // 4), last)
                    plan[first].said.append((plant.original, None))
                    plan[later].said.append((plant.correction, plant))
                elif isinstance(plant, ToolPlant):
                    plan[self._window(kind)].tools.append(plant)
                elif plant.type is CanaryType.GOAL:
                    turn = plan[self._window(kind)]
                    if turn.goal is None:
                        turn.goal = plant
                    else:
                        turn.said.append((plant.sentence, plant))
                else:
                    plan[self._window(kind)].said.append((plant.sentence, plant))
        return plan

    # --- messages ---------------------------------------------------------------------------

    def _filler(self) -> FillerTurn:
        if self.style == "coding":
            return coding_turn(self.coding, self.r, self.zh)
        return support_turn(self.support, self.r, self.mint, self.zh)

    def _join(self, parts: list[str]) -> str:
        return ("" if self.zh else " ").join(p for p in parts if p)

    def _turn(self, turn: _Turn, filler: FillerTurn, *, first: bool) -> None:
        sentences = [text for text, _ in turn.said]
        if turn.goal is not None:
            parts = [turn.goal.sentence, *sentences, filler.request]
        elif sentences and self.r.random() < 0.5:
            parts = [*sentences, filler.request]
        else:
            parts = [filler.request, *sentences]
        if turn.tools and turn.goal is None:
            parts.insert(0, self.r.choice(PROCEED[self.style, self.zh]))
        self.turn_starts.append(len(self.messages))
        position = self._user(self._join(parts))
        if turn.goal is not None:
            self._canary(turn.goal, position)
        for _, plant in turn.said:
            if plant is not None:
                self._canary(plant, position)

        steps: list[Step | ToolPlant] = list(filler.steps)
        for plant in turn.tools:
            steps.insert(self.r.randint(0, len(steps)), plant)
        remark = ""
        for step in steps:
            intro = _paragraphs(remark, step.intro)
            if isinstance(step, ToolPlant):
                result_at = self._call(intro, step.tool, step.arguments, step.result, step.is_error)
                self._canary(step, result_at)
                remark = step.remark
            else:
                self._call(intro, step.tool, step.arguments, step.result, step.is_error)
                remark = ""
        self._assistant([{"type": "text", "text": _paragraphs(remark, filler.answer)}], "stop")

    def _tick(self) -> int:
        self.now += self.r.randint(800, 40_000)
        return self.now

    def _user(self, text: str) -> int:
        self.messages.append(
            {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": self._tick()}
        )
        return len(self.messages) - 1

    def _assistant(self, content: list[dict[str, Any]], stop: str) -> None:
        self.messages.append(
            {
                "role": "assistant",
                "content": content,
                **_MODEL,
                "stopReason": stop,
                "timestamp": self._tick(),
            }
        )

    def _call(
        self, intro: str, tool: str, arguments: dict[str, Any], result: str, is_error: bool
    ) -> int:
        call_id = "toolu_" + "".join(self.r.choice("0123456789abcdef") for _ in range(20))
        call = {"type": "toolCall", "id": call_id, "name": tool, "arguments": arguments}
        self._assistant([{"type": "text", "text": intro}, call], "toolUse")
        self.messages.append(
            {
                "role": "toolResult",
                "toolCallId": call_id,
                "toolName": tool,
                "content": [{"type": "text", "text": result}],
                "isError": is_error,
                "timestamp": self._tick(),
            }
        )
        return len(self.messages) - 1

    def _canary(self, plant: Plant, position: int) -> None:
        kind = CanaryType.SUPERSEDED if isinstance(plant, CorrectionPlant) else plant.type
        number = self.numbers.get(kind, 0) + 1
        self.numbers[kind] = number
        canary_id = f"{kind.value}-{number}"
        if isinstance(plant, CorrectionPlant):
            original = self._position_of(plant.original, before=position)
            canary = Canary(
                canary_id, kind, plant.required, position, plant.correction, plant.stale, original
            )
        else:
            text = plant.result.strip() if isinstance(plant, ToolPlant) else plant.sentence
            canary = Canary(
                canary_id,
                kind,
                plant.required,
                position,
                text,
                expected_status=plant.expected_status,
            )
        self.canaries.append(canary)

    def _position_of(self, sentence: str, *, before: int) -> int:
        for index in range(before - 1, -1, -1):
            message = self.messages[index]
            if message["role"] == "user" and sentence in message["content"][0]["text"]:
                return index
        raise AssertionError(f"original statement not planted: {sentence!r}")
