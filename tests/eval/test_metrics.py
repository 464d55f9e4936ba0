"""Scoring on hand-built contexts: what survives, what is stale, which status is claimed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.eval import Canary, CanaryType, generate_scenario, score_context
from synopsis.eval.metrics import find_token, normalize, status_accurate

SCENARIO = generate_scenario(4, "support", "en", turns=16)


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def checkpoint(text: str) -> dict[str, Any]:
    return {"role": "compactionSummary", "summary": text, "tokensBefore": 1000}


def tool_result(text: str, *, error: bool = False) -> dict[str, Any]:
    return {
        "role": "toolResult",
        "toolCallId": "t1",
        "toolName": "bash",
        "content": [{"type": "text", "text": text}],
        "isError": error,
    }


def all_tokens(canaries: tuple[Canary, ...], skip: str | None = None) -> str:
    return "\n".join(group[0] for c in canaries if c.id != skip for group in c.required)


def test_a_context_holding_every_required_token_keeps_every_canary() -> None:
    scores = score_context([checkpoint(all_tokens(SCENARIO.canaries))], SCENARIO.canaries)
    assert scores and all(score.survived for score in scores)
    assert not any(score.stale for score in scores)


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_dropping_one_canary_fails_exactly_that_canary(data: st.DataObject) -> None:
    dropped = data.draw(st.sampled_from(SCENARIO.canaries))
    scores = score_context(
        [checkpoint(all_tokens(SCENARIO.canaries, skip=dropped.id))], SCENARIO.canaries
    )
    failed = {score.canary.id for score in scores if not score.survived}
    assert failed == {dropped.id}
    (lost,) = (s for s in scores if s.canary.id == dropped.id)
    assert lost.missing == tuple(group[0] for group in dropped.required)


def test_each_required_group_is_needed_and_any_spelling_will_do() -> None:
    canary = Canary(
        "superseded-1",
        CanaryType.SUPERSEDED,
        (("$460", "four hundred sixty dollars"),),
        5,
        "keep spend under four hundred sixty dollars",
        stale=("$990",),
        stale_position=2,
    )
    two = Canary(
        "failed_approach-1", CanaryType.FAILED_APPROACH, (("wh-12",), ("no stock",)), 3, ""
    )
    assert score_context([user("Budget: Four Hundred  Sixty dollars.")], [canary])[0].survived
    assert score_context([user("budget $460")], [canary])[0].survived
    assert not score_context([user("budget $4600")], [canary])[0].survived
    assert score_context([user("WH-12 reports NO stock")], [two])[0].survived
    assert score_context([user("WH-12 failed")], [two])[0].missing == ("no stock",)


@pytest.mark.parametrize(
    ("text", "token", "found"),
    [
        ("never run rm -rf outside build-k7/.", "never run rm -rf outside build-k7/", True),
        ("budget $800 is fine", "$800", True),
        ("budget $8000 is fine", "$800", False),
        ("budget $800.50", "$800", False),
        ("ticket pay-1234", "pay-123", False),
        ("订单号ord-1234567。", "ord-1234567", True),
        ("see sn-ab12cd.", "sn-ab12cd", True),
        ("xsn-ab12cd", "sn-ab12cd", False),
        ("花费控制在四百六十元以内", "四百六十元", True),
    ],
)
def test_tokens_are_found_as_whole_tokens(text: str, token: str, found: bool) -> None:
    assert (find_token(normalize(text), normalize(token)) >= 0) is found


def test_matching_ignores_case_whitespace_and_code_quotes() -> None:
    rule = Canary(
        "safety-1",
        CanaryType.SAFETY,
        (("Never run `rm -rf` outside build-k7qx/",),),
        1,
        "Never run `rm -rf` outside build-k7qx/.",
    )
    context = [checkpoint("## Constraints\n- NEVER run rm -rf\n  outside `build-k7qx/`")]
    assert score_context(context, [rule])[0].survived
    softened = [checkpoint("## Constraints\n- Be careful with rm -rf outside build-k7qx/")]
    assert not score_context(softened, [rule])[0].survived


# --- stale values -----------------------------------------------------------------------

BUDGET = Canary(
    "superseded-1",
    CanaryType.SUPERSEDED,
    (("$460", "four hundred sixty dollars"),),
    9,
    "keep spend under four hundred sixty dollars",
    stale=("$990", "990 dollars"),
    stale_position=2,
)


@pytest.mark.parametrize(
    ("context", "stale"),
    [
        ([checkpoint("## Critical Context\n- budget: $990")], True),
        ([checkpoint("- budget: $990 (superseded: $990 → four hundred sixty dollars)")], False),
        ([checkpoint("- budget: $990 (no longer valid)")], False),
        ([checkpoint("- budget was $990, now four hundred sixty dollars")], False),
        ([checkpoint("- 预算：990 dollars（已作废）")], False),
        # A checkpoint contradicting itself: the old value stands on its own line.
        ([checkpoint("- budget: $990\n- keep spend under four hundred sixty dollars")], True),
        # Verbatim history: the correction comes after the old value.
        ([user("budget is $990"), user("keep spend under four hundred sixty dollars")], False),
        # A checkpoint written before the correction, then the kept correction.
        ([checkpoint("- budget: $990"), user("keep spend under $460")], False),
        # The correction is gone and only the old value is left.
        ([user("budget is $990")], True),
        ([user("keep spend under $460"), user("budget is $990 again")], True),
        ([checkpoint("- budget: $9900")], False),
    ],
)
def test_stale_values(context: list[dict[str, Any]], stale: bool) -> None:
    (score,) = score_context(context, [BUDGET])
    assert score.stale is stale


# --- execution state --------------------------------------------------------------------

FAILED = Canary(
    "failed_approach-1",
    CanaryType.FAILED_APPROACH,
    (("alembic upgrade 9f2c",), ("can't locate revision",)),
    3,
    "",
    expected_status="blocked",
)
EDITED = Canary(
    "modified_file-1",
    CanaryType.MODIFIED_FILE,
    (("src/app/ledger_x7.py",),),
    5,
    "",
    expected_status="done",
)
GOAL = Canary("goal-1", CanaryType.GOAL, (("ledger_v2_ab12",),), 0, "", expected_status="pending")

SECTIONS = (
    "## Goal\n- move settlement behind ledger_v2_ab12\n\n## Progress\n### Done\n{done}\n"
    "### In Progress\n{doing}\n### Blocked\n{blocked}\n\n## Critical Context\n{context}\n"
)


def sections(**parts: str) -> dict[str, Any]:
    filled = {key: parts.get(key, "- (none)") for key in ("done", "doing", "blocked", "context")}
    return checkpoint(SECTIONS.format(**filled))


@pytest.mark.parametrize(
    ("context", "canary", "accurate"),
    [
        ([sections(blocked="- alembic upgrade 9f2c: can't locate revision")], FAILED, True),
        ([sections(done="- ran alembic upgrade 9f2c")], FAILED, False),
        ([sections(blocked="- alembic upgrade 9f2c", context="- alembic upgrade 9f2c applied")],
         FAILED, False),
        # The line's own words win over the heading.
        ([sections(done="- alembic upgrade 9f2c failed")], FAILED, True),
        ([sections(context="- tried alembic upgrade 9f2c")], FAILED, False),
        ([tool_result("ERROR: Can't locate revision (alembic upgrade 9f2c)", error=True)],
         FAILED, True),
        ([sections(context="- modified src/app/ledger_x7.py")], EDITED, True),
        ([sections(done="- edited src/app/ledger_x7.py")], EDITED, True),
        ([sections(blocked="- src/app/ledger_x7.py")], EDITED, False),
        ([tool_result("Successfully replaced text in src/app/ledger_x7.py.")], EDITED, True),
        ([sections()], GOAL, True),
        ([sections(done="- ledger_v2_ab12 flag shipped")], GOAL, False),
        ([checkpoint("**Done:**\n- flag ledger_v2_ab12\n\n**Next steps:**\n- more")], GOAL, False),
        ([checkpoint("<modified-files>\nsrc/app/ledger_x7.py\n</modified-files>")], EDITED, True),
    ],
)  # fmt: skip
def test_execution_state_claims(
    context: list[dict[str, Any]], canary: Canary, accurate: bool
) -> None:
    (score,) = score_context(context, [canary])
    assert score.status_accurate is accurate


def test_an_unmentioned_event_has_no_status_and_a_plain_canary_none_at_all() -> None:
    (score,) = score_context([user("nothing here")], [FAILED])
    assert score.status_accurate is None and score.claims == ()
    assert status_accurate("blocked", ()) is None
    rule = Canary("safety-1", CanaryType.SAFETY, (("never",),), 0, "never")
    assert score_context([user("never")], [rule])[0].status_accurate is None
