"""Section accuracy: items scored by the section they stand in, on checkpoints written here
by hand (in our layout and in a model's), and through ``synopsis eval --corpus``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from synopsis.eval.section_accuracy import (
    checkpoint_sections,
    ends_mid_request,
    is_empty,
    score_sections,
    sum_scores,
)

SYNOPSIS = str(Path(sys.executable).parent / "synopsis")

CHECKPOINT = """## Goal
- Port the exporter to the streaming API.

## Progress
### Done
- Edited 2 files under `src/export/`

### In Progress
- (none)

### Blocked
- pytest `tests/test_export.py` failed: KeyError: 'cursor'

## Key Decisions
- User chose: keep the CSV dialect as it is.

## Critical Context
- The staging bucket is exp-stg-7; the vendor said "use the streaming API".
"""


def item(id_: str, kind: str, turn: int, *tokens: str, **extra: Any) -> dict[str, Any]:
    return {"id": id_, "kind": kind, "turn": turn, "tokens": list(tokens), **extra}


def test_headings_name_sections_in_our_words_and_a_models() -> None:
    ours = checkpoint_sections(CHECKPOINT)
    assert "KeyError" in ours["blocked"] and "CSV dialect" in ours["decisions"]
    model = checkpoint_sections("# Summary\n**x**\n## What failed\n- wget 403\n## Todo\n- retry")
    assert model == {"failed": "- wget 403", "next": "- retry"}
    assert is_empty(ours["in_progress"]) and not is_empty(ours["done"])


def test_an_item_counts_only_in_its_own_section() -> None:
    truth = [
        item("g", "goal", 1, "streaming API"),
        item("d", "decision", 3, "CSV dialect"),
        item("d2", "decision", 4, "exp-stg-7"),  # only under Critical Context
        item("x", "failure", 5, "KeyError", "cursor"),
        item("late", "decision", 9, "anything"),  # still verbatim: not scored
    ]
    score = score_sections(CHECKPOINT, truth, frozenset(range(9)), end=10, unfinished=False)
    assert score.by_kind == {"goal": (1, 1), "decision": (1, 2), "failure": (1, 1)}
    assert score.missed == ("d2",)


def test_a_finished_request_counts_under_done_but_not_in_critical_context() -> None:
    text = CHECKPOINT.replace(
        "### Done\n", "### Done\n- Finished: “Rename the CSV export flag” → renamed it\n"
    )
    truth = [
        item("g1", "goal", 1, "Rename the CSV export flag"),
        item("g2", "goal", 2, "exp-stg-7"),  # a value that only Critical Context names
    ]
    score = score_sections(text, truth, frozenset(range(9)), end=10, unfinished=False)
    assert score.by_kind == {"goal": (1, 2)} and score.missed == ("g2",)


def test_the_task_figure_leaves_goals_out() -> None:
    truth = [item("g", "goal", 1, "nowhere at all"), item("d", "decision", 3, "CSV dialect")]
    score = score_sections(CHECKPOINT, truth, frozenset(range(9)), end=10, unfinished=False)
    totals = sum_scores([score])
    assert totals.task == (1, 1) and (totals.hit, totals.total) == (1, 2)
    assert totals.to_json()["decisionsAndTaskState"] == {"inOwnSection": 1, "items": 1}


def test_a_resolved_failure_under_blocked_is_counted() -> None:
    truth = [
        item("x", "failure", 5, "KeyError", tags=["resolved"]),
        item("y", "failure", 6, "TimeoutError", resolved_turn=8),
    ]
    score = score_sections(CHECKPOINT, truth, frozenset(range(9)), end=10, unfinished=True)
    assert (score.resolved_failures, score.resolved_blocked) == (2, 1)
    assert score.empty_while_unfinished
    early = score_sections(CHECKPOINT, truth[1:], frozenset(range(7)), end=7, unfinished=True)
    assert early.resolved_failures == 0  # not yet resolved when that stage ended
    kept = score_sections(CHECKPOINT, truth[1:], frozenset(range(7)), end=10, unfinished=True)
    assert kept.resolved_failures == 0  # the fix is in the kept messages, not summarized


def test_a_conversation_that_stops_before_the_answer_is_mid_request() -> None:
    assert ends_mid_request([{"role": "user", "text": "and the second one?"}])
    assert ends_mid_request([{"role": "assistant", "text": "", "tool_calls": [{"id": "1"}]}])
    assert ends_mid_request([{"role": "tool", "text": "ok"}])
    assert not ends_mid_request([{"role": "assistant", "text": "Done: both exported."}])
    assert not ends_mid_request([])


def test_eval_corpus_reports_section_accuracy(tmp_path: Path) -> None:
    filler = "The export job logs a heartbeat line every few seconds and nothing else. " * 30
    call = {"id": "c1", "name": "bash", "arguments": {"command": "pytest tests/test_export.py"}}
    turns: list[dict[str, Any]] = [
        {"role": "user", "text": "Please move the nightly export to the streaming API."},
        {"role": "assistant", "text": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "name": "bash", "text": "KeyError: 'cursor'"},
        {"role": "assistant", "text": "The cursor key is gone in v2. Should I map it?"},
        {"role": "user", "text": "Yes, go with the offset field instead."},
    ]
    for n in range(8):
        turns.append({"role": "user", "text": f"Status of shard {n}? {filler}"})
        turns.append({"role": "assistant", "text": f"Shard {n} is exporting. {filler}"})
    case = {
        "id": "export-1",
        "turns": turns,
        "truth": [
            item("g1", "goal", 0, "streaming API"),
            item("d1", "decision", 4, "offset field"),
        ],
        "unfinished": True,
    }
    (tmp_path / "export-1.json").write_text(json.dumps(case), encoding="utf-8")
    done = subprocess.run(
        [SYNOPSIS, "eval", "--corpus", str(tmp_path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout)
    final = report["sections"]["final"]["free"]
    assert final["items"] == 2
    assert final["byKind"]["goal"] == {"inOwnSection": 1, "items": 1}
    assert final["byKind"]["decision"] == {"inOwnSection": 1, "items": 1}
    last = [c for c in report["cases"] if c["condition"] == "free"][-1]
    assert last["unfinished"] is True and last["notInOwnSection"] == []
