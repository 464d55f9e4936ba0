"""The fidelity benchmark: what does compaction lose?

Deterministic sessions (coding agent, customer service; English, Chinese) carry typed
canaries — safety rules, hard constraints, preferences, ids, goals, failed approaches,
modified files, replaced values — at known positions. A compactor runs round after round
at a budget (a share of the original size) and each round's context is scored against
the canary definitions alone.

>>> import asyncio
>>> scenario = generate_scenario(1, "coding", "en", turns=10)
>>> results = asyncio.run(run_scenario(scenario, make_compactor("guarded"), 0.3, 2))
>>> [r.round for r in results]
[1, 2]
"""

from synopsis.eval.canaries import CANARY_TYPES, Canary, CanaryType
from synopsis.eval.compactors import (
    BUILTIN_COMPACTORS,
    Compactor,
    CompactorRun,
    RoundLimits,
    make_compactor,
)
from synopsis.eval.metrics import CanaryScore, context_parts, score_canary, score_context
from synopsis.eval.report import Cell, aggregate, report_json
from synopsis.eval.runner import (
    RoundResult,
    parse_budget,
    round_limits,
    run_benchmark,
    run_scenario,
)
from synopsis.eval.scenarios import Scenario, generate_scenario, generate_scenarios

__all__ = [
    "BUILTIN_COMPACTORS",
    "CANARY_TYPES",
    "Canary",
    "CanaryScore",
    "CanaryType",
    "Cell",
    "Compactor",
    "CompactorRun",
    "RoundLimits",
    "RoundResult",
    "Scenario",
    "aggregate",
    "context_parts",
    "generate_scenario",
    "generate_scenarios",
    "make_compactor",
    "parse_budget",
    "report_json",
    "round_limits",
    "run_benchmark",
    "run_scenario",
    "score_canary",
    "score_context",
]
