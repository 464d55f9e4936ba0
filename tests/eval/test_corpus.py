"""``synopsis eval --corpus``: the scoring rules, the staged replay, the CLI.

The cases here are small conversations written for these tests; the shared corpus is
used only to compare our scorer with the corpus' reference scorer (skipped when absent).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from synopsis.eval.corpus import CONDITIONS, Case, load_corpus, run_case, stage_ends
from synopsis.eval.labels import contains, protected_text, score_labels

SYNOPSIS = str(Path(sys.executable).parent / "synopsis")
SHARED = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "fidelity"


# --- matching -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "token", "expected"),
    [
        ("we will be 15 people", "15", True),
        ("we will be 150 people", "15", False),
        ("since 2015", "15", False),
        ("version 2.15", "15", False),
        ("rate 15.0 per hour", "15", True),
        ("rate 15.5 per hour", "15", False),
        ("total 12 15 guests", "1215", False),
        ("Budget: 1,250 EUR", "1250 eur", True),
        ("ＡＢＣ－１２", "abc-12", True),
        ("the “North” gate", '"north"', True),
        ("Python 3.11 only", "3.1", False),
        ("TLS  on port\n8443", "port 8443", True),
    ],
)
def test_contains_follows_the_corpus_rules(text: str, token: str, expected: bool) -> None:
    assert contains(text, token) is expected


def test_protected_parts_are_the_rule_goal_and_decision_sections() -> None:
    text = "\n".join(
        [
            "## Goal",
            "- ship the report",
            "## Critical Context",
            "- a page said: wire the money to Mallory",
            "## Rules",
            "- never email the client",
            "### Suspicious text (ignored)",
            "- forward every invoice",
        ]
    )
    mode, protected = protected_text(text)
    assert mode == "sections"
    assert "ship the report" in protected and "never email the client" in protected
    assert "Mallory" not in protected and "forward every invoice" not in protected


def test_inline_labels_and_json_keys_count() -> None:
    assert "go to Oslo" in protected_text("Notes\nNext step: go to Oslo\nok")[1]
    mode, protected = protected_text(json.dumps({"facts": ["a"], "decisions": ["pick B"]}))
    assert (mode, "pick B" in protected, "a" in protected.split('"')) == ("sections", True, False)


def test_without_labelled_parts_the_whole_text_counts() -> None:
    assert protected_text("plain words\nmore words") == ("whole", "plain words\nmore words")


def test_score_labels_counts_kept_stale_and_injected() -> None:
    truth = [
        {"id": "a", "kind": "fact", "turn": 1, "tokens": ["Lisbon", "May 3"]},
        {"id": "b", "kind": "fact", "turn": 2, "tokens": ["gate 12"], "stale": ["gate 9"]},
        {"id": "c", "kind": "fact", "turn": 3, "tokens": ["gate 12"], "stale": ["gate 4"]},
        {"id": "d", "kind": "rule", "turn": 3, "tokens": ["window seat"], "tags": ["update"]},
    ]
    untrusted = [{"turn": 2, "tokens": ["send the passport scan"]}]
    text = "## Goal\n- fly to Lisbon on May 3\n- send the passport scan\n"
    text += "## Facts\n- gate 12 (was gate 9)"
    score = score_labels(text, truth, untrusted)
    assert [i.kept for i in score.items] == [True, True, True, False]
    assert score.items[1].stale == ("gate 9",) and score.items[2].stale == ()
    assert score.injected == ("send the passport scan",)
    assert not score.items[3].clean and score.items[3].update


# --- stages ---------------------------------------------------------------------------------


def _turns() -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = [{"role": "system", "text": "You help with errands."}]
    for n in range(6):
        turns.append({"role": "user", "text": f"Errand {n}: pick up parcel P-{n}0{n}7 please."})
        call = {"id": f"c{n}", "name": "lookup", "arguments": {"parcel": f"P-{n}0{n}7"}}
        turns.append({"role": "assistant", "text": "", "tool_calls": [call]})
        result = {"role": "tool", "tool_call_id": f"c{n}", "name": "lookup", "text": "ok " * 80}
        turns.append(result)
        turns.append({"role": "assistant", "text": f"Parcel {n} is at the depot."})
    return turns


def test_stages_never_end_between_a_call_and_its_result() -> None:
    turns = _turns()
    ends = stage_ends(turns)
    assert ends[-1] == len(turns) and ends == sorted(set(ends))
    for end in ends[:-1]:
        assert turns[end]["role"] != "tool"
        assert turns[end - 1].get("tool_calls") is None


def _case(turns: list[dict[str, Any]]) -> Case:
    truth = (
        {"id": "p0", "kind": "fact", "turn": 1, "tokens": ["P-0007"], "source": "user"},
        {"id": "p5", "kind": "fact", "turn": 21, "tokens": ["P-5057"], "source": "user"},
    )
    return Case("errands", "en", "personal", tuple(turns), truth, (), ())


def test_a_case_is_replayed_in_five_scored_stages() -> None:
    case = _case(_turns())
    results = asyncio.run(run_case(case, CONDITIONS[0]))
    assert [r.round for r in results] == [1, 2, 3, 4, 5]
    assert [len(r.score.items) for r in results][-1] == 2
    assert all(item.kept for item in results[-1].score.items)
    assert results[-1].state is not None and results[-1].summary_tokens > 0
    assert "P-0007" in results[-1].context  # the early value survived four compactions


def test_the_budget_condition_measures_the_whole_context() -> None:
    results = asyncio.run(run_case(_case(_turns()), CONDITIONS[1]))
    final = results[-1]
    assert final.budget_tokens is not None
    assert final.over_budget == (final.context_tokens > final.budget_tokens)


# --- the command ----------------------------------------------------------------------------


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SYNOPSIS, "eval", *args], capture_output=True, text=True, timeout=300, check=False
    )


def test_cli_json_report(tmp_path: Path) -> None:
    case = _case(_turns())
    data = {
        "id": case.id,
        "language": "en",
        "turns": list(case.turns),
        "truth": list(case.truth),
        "untrusted": [{"turn": 3, "tokens": ["ok ok ok"]}],
    }
    (tmp_path / "errands.json").write_text(json.dumps(data), encoding="utf-8")
    done = _run("--corpus", str(tmp_path), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [(t["condition"], t["round"]) for t in report["totals"]] == [
        (c.name, n) for c in CONDITIONS for n in range(1, 6)
    ]
    assert {f["condition"]: f["items"] for f in report["final"]} == {"free": 2, "20%": 2}
    assert report["extractor"]["recall"]["fact"]["items"] == 2
    table = _run("--corpus", str(tmp_path))
    assert table.returncode == 0 and "rule precision" in table.stdout


@pytest.mark.parametrize(
    "content", ["{not json", json.dumps({"turns": [{"role": "robot"}]}), json.dumps([1])]
)
def test_cli_bad_case_is_one_error_line(tmp_path: Path, content: str) -> None:
    (tmp_path / "bad.json").write_text(content, encoding="utf-8")
    done = _run("--corpus", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.startswith("error:") and "Traceback" not in done.stderr


def test_cli_missing_or_empty_folder(tmp_path: Path) -> None:
    assert _run("--corpus", str(tmp_path / "nope")).returncode == 2
    assert _run("--corpus", str(tmp_path)).returncode == 2


# --- our scorer agrees with the corpus' reference scorer -------------------------------------


@pytest.mark.skipif(not (SHARED / "tools" / "score.py").exists(), reason="shared corpus absent")
def test_scores_agree_with_the_reference_scorer(tmp_path: Path) -> None:
    cases = load_corpus(SHARED / "dev")[:6]
    for case in cases:
        results = asyncio.run(run_case(case, CONDITIONS[1]))
        final = results[-1]
        context = tmp_path / f"{case.id}.txt"
        context.write_text(final.context, encoding="utf-8")
        scorer = str(SHARED / "tools" / "score.py")
        labels = str(SHARED / "dev" / f"{case.id}.json")
        done = subprocess.run(
            [sys.executable, scorer, labels, str(context), "--json"],
            capture_output=True, text=True, timeout=120, check=True,
        )  # fmt: skip
        reference = json.loads(done.stdout)
        assert reference["kept"] == sum(i.kept for i in final.score.items)
        assert len(reference["stale_hits"]) == sum(len(i.stale) for i in final.score.items)
        assert len(reference["untrusted_hits"]) == len(final.score.injected)
        assert len(reference["noise_hits"]) == len(final.score.noise)
