"""Running the benchmark: scenarios × compactors × budgets, over repeated compactions.

Each run appends a scenario to a fresh session in ``rounds`` slices and compacts after
every slice, so round *k* compacts what round *k − 1* produced — the summary of a
summary, as in a long agent session. A budget is a share of the original size: after
round *k* the context should be about ``share ×`` the tokens of every message appended
so far. Half of it goes to recent messages kept verbatim, half to the checkpoint (the
truncation baseline spends all of it on recent messages).
"""

from __future__ import annotations

import asyncio
import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from synopsis.errors import SettingsError
from synopsis.eval.compactors import Compactor, RoundLimits
from synopsis.eval.metrics import PINNED_TYPES, CanaryScore, score_context
from synopsis.eval.scenarios import Scenario
from synopsis.messages import AgentMessage
from synopsis.session.tree import Session
from synopsis.tokens import estimate_tokens

KEEP_SHARE = 0.5
"""Share of a round's budget kept as verbatim recent messages (the rest: the checkpoint)."""
PINNED_ROOM = 2
"""A budget "allows" the rules when the checkpoint limit is at least this many times the
size of the safety rules and constraints planted so far (room for headings and ids)."""
DEFAULT_ROUNDS = 5


def parse_budget(text: str) -> float:
    """``"10%"`` or ``"0.1"`` → 0.1; a share in (0, 1]."""
    raw = text.strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        raise SettingsError(f"budget {text!r} is not a share: use e.g. 10% or 0.1") from None
    if not 0 < value <= 1:
        raise SettingsError(f"budget {text!r} must be more than 0% and at most 100%")
    return value


def budget_label(share: float) -> str:
    return f"{share * 100:g}%"


def round_limits(share: float, original_tokens: int) -> RoundLimits:
    """The token limits that make a compacted context about ``share`` of the original."""
    budget = max(2, round(share * original_tokens))
    keep = max(1, round(budget * KEEP_SHARE))
    return RoundLimits(budget, keep, max(1, budget - keep))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One round of one compactor on one scenario at one budget."""

    scenario: Scenario
    compactor: str
    budget: float
    round: int
    limits: RoundLimits
    original_tokens: int
    """Tokens of every message appended so far (the context without compaction)."""
    context_tokens: int
    """Tokens of the context after this round's compaction."""
    compacted: bool
    scores: tuple[CanaryScore, ...]
    seconds: float
    """Time spent compacting in this round."""
    pinned_fit: bool
    """Whether the checkpoint limit leaves room for every safety rule and constraint."""
    checkpoint: str = ""
    """The checkpoint text after this round ("" for a compactor that writes none)."""

    @property
    def over_budget(self) -> bool:
        """Whether the context after compaction is larger than the round's budget: such a
        run did not do what was asked, whatever it kept."""
        return self.context_tokens > self.limits.budget_tokens

    @property
    def size_ratio(self) -> float:
        return self.context_tokens / self.original_tokens if self.original_tokens else 0.0


def checkpoint_text(context: Sequence[AgentMessage]) -> str:
    """The checkpoint a context opens with (the latest compaction summary), or ""."""
    summaries = [m.get("summary") for m in context if m.get("role") == "compactionSummary"]
    return next((s for s in reversed(summaries) if isinstance(s, str)), "")


def _ids() -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"{next(counter):08x}"


def _pinned_fit(scenario: Scenario, end: int, limits: RoundLimits) -> bool:
    need = sum(math.ceil(len(c.text) / 4) for c in scenario.active(end) if c.type in PINNED_TYPES)
    return limits.summary_tokens >= PINNED_ROOM * need


async def run_scenario(
    scenario: Scenario, compactor: Compactor, share: float, rounds: int
) -> list[RoundResult]:
    """Append ``scenario`` in ``rounds`` slices, compacting after each; score every round."""
    session = Session(new_id=_ids())
    run = compactor.start()
    results = []
    for number, (start, end) in enumerate(scenario.slices(rounds), 1):
        for message in scenario.messages[start:end]:
            session.append_message(dict(message))
        original = scenario.tokens(end)
        limits = round_limits(share, original)
        began = time.perf_counter()
        compacted = await run.compact(session, limits)
        seconds = time.perf_counter() - began
        context = run.context(session)
        results.append(
            RoundResult(
                scenario=scenario,
                compactor=compactor.name,
                budget=share,
                round=number,
                limits=limits,
                original_tokens=original,
                context_tokens=sum(estimate_tokens(m) for m in context),
                compacted=compacted,
                scores=tuple(score_context(context, scenario.active(end))),
                seconds=seconds,
                pinned_fit=_pinned_fit(scenario, end, limits),
                checkpoint=checkpoint_text(context),
            )
        )
    return results


async def run_benchmark(
    scenarios: Sequence[Scenario],
    compactors: Sequence[Compactor],
    budgets: Sequence[float],
    rounds: int = DEFAULT_ROUNDS,
    *,
    concurrency: int = 1,
    on_done: Callable[[str], None] | None = None,
) -> list[RoundResult]:
    """Every scenario × compactor × budget; results in that order, round by round.

    ``concurrency`` runs that many scenario runs at once (worth it for model
    summarizers, which wait on the network; the offline ones are CPU-bound).
    ``on_done`` is told the name of each finished run (for progress display).
    """
    if concurrency < 1:
        raise SettingsError(f"concurrency must be at least 1, got {concurrency}")
    gate = asyncio.Semaphore(concurrency)

    async def one(scenario: Scenario, compactor: Compactor, share: float) -> list[RoundResult]:
        async with gate:
            results = await run_scenario(scenario, compactor, share, rounds)
        if on_done is not None:
            on_done(f"{compactor.name} {budget_label(share)} {scenario.name}")
        return results

    jobs = [
        one(scenario, compactor, share)
        for compactor in compactors
        for share in budgets
        for scenario in scenarios
    ]
    return [result for batch in await asyncio.gather(*jobs) for result in batch]
