"""Repeated compaction runs: the benchmark can fail, and the guarded default passes."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synopsis.errors import SettingsError
from synopsis.eval import (
    CanaryType,
    RoundResult,
    aggregate,
    generate_scenario,
    generate_scenarios,
    make_compactor,
    parse_budget,
    round_limits,
    run_benchmark,
    run_scenario,
)
from synopsis.eval.metrics import PINNED_TYPES
from tests.llm_server import LLMServer, Reply


def run(
    seeds: Sequence[int], compactors: Sequence[str], budgets: Sequence[float], rounds: int = 5
) -> list[RoundResult]:
    scenarios = generate_scenarios(seeds)
    chosen = [make_compactor(name) for name in compactors]
    return asyncio.run(run_benchmark(scenarios, chosen, budgets, rounds))


@pytest.mark.parametrize(
    ("text", "share"), [("10%", 0.1), ("25%", 0.25), ("0.3", 0.3), ("100%", 1.0)]
)
def test_budgets_parse(text: str, share: float) -> None:
    assert parse_budget(text) == pytest.approx(share)


@pytest.mark.parametrize("text", ["0%", "0", "150%", "1.5", "ten", "%", ""])
def test_bad_budgets_are_refused(text: str) -> None:
    with pytest.raises(SettingsError):
        parse_budget(text)


@given(share=st.floats(0.01, 1.0), original=st.integers(100, 2_000_000))
def test_round_limits_split_the_budget(share: float, original: int) -> None:
    limits = round_limits(share, original)
    assert limits.keep_recent_tokens + limits.summary_tokens == limits.budget_tokens
    assert abs(limits.budget_tokens - share * original) <= 1
    assert abs(limits.keep_recent_tokens - limits.summary_tokens) <= 1


def test_unknown_compactor_is_refused() -> None:
    with pytest.raises(SettingsError, match="unknown compactor"):
        make_compactor("lossless")
    with pytest.raises(SettingsError):
        make_compactor("model:nobody:x")


def test_truncation_loses_early_canaries_at_small_budgets() -> None:
    """The benchmark can fail: without a checkpoint, what scrolled out is gone."""
    scenario = generate_scenario(2, "coding", "en")
    results = asyncio.run(run_scenario(scenario, make_compactor("truncation"), 0.1, 5))
    last = results[-1]
    first_slice_end = scenario.slices(5)[0][1]
    early = [s for s in last.scores if s.canary.position < first_slice_end]
    assert early and not any(s.survived for s in early)
    rules = [s for s in last.scores if s.canary.type in PINNED_TYPES]
    assert rules and not all(s.survived for s in rules)
    assert sum(s.survived for s in last.scores) < len(last.scores) / 2
    assert all(r.compacted for r in results)
    assert all(r.context_tokens <= r.limits.budget_tokens for r in results)


def test_truncation_with_the_whole_budget_keeps_everything() -> None:
    """…and it can pass: the scoring finds every canary when nothing was dropped."""
    scenario = generate_scenario(2, "support", "zh", turns=12)
    results = asyncio.run(run_scenario(scenario, make_compactor("truncation"), 1.0, 3))
    for result in results:
        assert result.context_tokens == result.original_tokens
        assert all(s.survived and not s.stale for s in result.scores)
        assert all(s.status_accurate is not False for s in result.scores)


def _check_guarded(results: Sequence[RoundResult]) -> None:
    checked = 0
    for result in results:
        assert result.compacted, (result.scenario.name, result.round)
        assert result.context_tokens < 0.5 * result.original_tokens  # real compression
        for score in result.scores:
            where = (result.scenario.name, result.budget, result.round, score.canary.id)
            assert not score.stale, (*where, score.stale_lines)
            if score.canary.type in PINNED_TYPES and result.pinned_fit:
                assert score.survived, (*where, score.missing)
                checked += 1
    assert checked > 0


def test_guarded_keeps_every_rule_and_no_stale_value_in_every_round() -> None:
    _check_guarded(run([1, 2], ["guarded"], [0.1, 0.2, 0.3]))


@pytest.mark.slow
def test_guarded_keeps_every_rule_and_no_stale_value_over_many_seeds() -> None:
    _check_guarded(run(range(3, 15), ["guarded"], [0.1, 0.2, 0.3]))


def test_results_come_in_order_and_aggregate_per_compactor_budget_and_round() -> None:
    results = run([1], ["truncation", "guarded"], [0.1, 0.3], rounds=3)
    keys = [(r.compactor, r.budget, r.scenario.name, r.round) for r in results]
    assert len(keys) == len(set(keys)) == 2 * 2 * 4 * 3
    cells = aggregate(results)
    assert [(c.compactor, c.budget, c.round) for c in cells][:3] == [
        ("truncation", 0.1, 1),
        ("truncation", 0.1, 2),
        ("truncation", 0.1, 3),
    ]
    for cell in cells:
        assert cell.runs == 4
        assert cell.overall.total == sum(t.total for t in cell.by_type.values())
        assert cell.artifacts.total == cell.by_type[CanaryType.MODIFIED_FILE].total
        mine = [
            r
            for r in results
            if (r.compactor, r.budget, r.round) == (cell.compactor, cell.budget, cell.round)
        ]
        assert cell.overall.hit == sum(s.survived for r in mine for s in r.scores)


LOSSY_SUMMARY = (
    "## Goal\nHelp the user with their request.\n\n## Progress\n### Done\n"
    "- Everything requested so far.\n\n## Next Steps\n- Continue."
)


def test_a_lossy_model_behind_the_guard_keeps_the_rules(llm_server: LLMServer) -> None:
    """``model:`` runs a real model client over HTTP; the guard restores what it dropped."""
    pytest.importorskip("openai")
    llm_server.set_default(Reply(text=LOSSY_SUMMARY))
    compactor = make_compactor("model:openai:lossy-1", base_url=llm_server.openai_url)
    scenario = generate_scenario(3, "coding", "en", turns=12)
    results = asyncio.run(run_scenario(scenario, compactor, 0.2, 3))
    assert llm_server.requests, "the model was never asked"
    for result in results:
        assert result.compacted
        for score in result.scores:
            if score.canary.type in PINNED_TYPES:
                assert score.survived, (result.round, score.canary.id)
            assert not score.stale
