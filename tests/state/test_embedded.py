"""The embedded summarizer: sections, budget, update merging, kinds, trust."""

from __future__ import annotations

import asyncio
from typing import Any

from synopsis.state.sections import parse_sections
from synopsis.summarizers.base import Summarizer, SummaryKind, SummaryRequest, SummaryUsage
from synopsis.summarizers.embedded import EmbeddedSummarizer
from tests.state.builders import act, call, result, say, user
from tests.state.test_extract import INJECTION

CHECKPOINT = ["goal", "constraints", "progress", "done", "in_progress", "blocked",
              "decisions", "next", "critical"]  # fmt: skip


def summarize(
    kind: SummaryKind,
    messages: list[dict[str, Any]],
    *,
    previous: str | None = None,
    max_tokens: int = 13107,
    focus: str | None = None,
) -> str:
    request = SummaryRequest(
        kind,
        "",
        messages,
        previous_summary=previous,
        max_tokens=max_tokens,
        custom_instructions=focus,
    )
    reply = asyncio.run(EmbeddedSummarizer().summarize(request))
    assert reply.usage == SummaryUsage()
    return reply.text


def sections(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for kind, _, items in parse_sections(text):
        if kind:
            found[kind] = found.get(kind, "") + "\n".join(items)
    return found


def work(tool_output: str = "3 passed") -> list[dict[str, Any]]:
    return [
        user("Make the importer resumable. Never drop rows silently. 不要改 CSV 格式。"),
        act(
            call("r1", "read", path="src/importer.py"),
            call("b1", "bash", command="pytest -q tests/test_import.py"),
            text="I'll read the importer and run its tests.",
        ),
        result("r1", "read", "def run(): ..."),
        result("b1", "bash", "E   ValueError: row 17 has 3 columns", error=True),
        say("Going with a checkpoint file keyed by batch id. Next, I'll add the resume flag."),
        act(call("e1", "edit", path="src/importer.py", oldText="a", newText="b")),
        result("e1", "edit", "ok"),
        act(call("b2", "bash", command="curl https://ci.example.test/run/9912")),
        result("b2", "bash", tool_output),
        act(call("w1", "write", path="docs/resume.md", content="# Resume\n")),
    ]


def test_implements_the_protocol() -> None:
    assert isinstance(EmbeddedSummarizer(), Summarizer)


def test_history_has_the_six_sections_from_the_state() -> None:
    text = summarize(SummaryKind.HISTORY, work())
    found = sections(text)
    assert [k for k, _, _ in parse_sections(text) if k] == CHECKPOINT
    assert "Make the importer resumable." in found["goal"]
    assert "Never drop rows silently." in found["constraints"]
    assert "不要改 CSV 格式。" in found["constraints"]
    assert "Read 1 file: `src/importer.py`" in found["done"]  # grouped by artifact
    assert "Edited 1 file under `src/`: `importer.py`" in found["done"]
    assert "write `docs/resume.md` → no result yet" in found["in_progress"]
    assert "E   ValueError: row 17 has 3 columns" in found["blocked"]
    assert "Going with a checkpoint file keyed by batch id." in found["decisions"]
    assert "Next, I'll add the resume flag." in found["next"]
    assert "https://ci.example.test/run/9912" in found["critical"]


def test_same_request_same_text() -> None:
    assert summarize(SummaryKind.HISTORY, work()) == summarize(SummaryKind.HISTORY, work())


def test_instructions_in_tool_results_do_not_change_the_sections() -> None:
    clean = sections(summarize(SummaryKind.HISTORY, work("build 9912 passed")))
    injected = sections(summarize(SummaryKind.HISTORY, work(INJECTION)))
    # Only Critical Context may differ: a result's values are kept there as reference.
    assert {k: v for k, v in injected.items() if k != "critical"} == {
        k: v for k, v in clean.items() if k != "critical"
    }
    rules_goals = str({k: v for k, v in injected.items() if k != "critical"})
    assert "PAY-9999" not in rules_goals and "$1" not in rules_goals


def test_budget_drops_history_before_rules() -> None:
    messages = work()
    for index in range(300):  # distinct tools: one Done line each
        messages += [
            act(call(f"x{index}", f"probe{index}", query=f"dir{index}")),
            result(f"x{index}", f"probe{index}", ""),
        ]
    full = summarize(SummaryKind.HISTORY, messages)
    small = summarize(SummaryKind.HISTORY, messages, max_tokens=400)
    assert len(full) > 1600 >= len(small)
    assert "Never drop rows silently." in small and "不要改 CSV 格式。" in small
    assert "E   ValueError: row 17 has 3 columns" in small  # an open failure outranks old calls
    assert "`dir299`" not in small or "`dir0`" not in small


def test_rules_survive_even_a_budget_too_small_for_them() -> None:
    text = summarize(SummaryKind.HISTORY, work(), max_tokens=1)
    assert "Never drop rows silently." in text and "不要改 CSV 格式。" in text


def test_focus_keeps_matching_items_longer() -> None:
    messages = work()
    for index in range(40):
        messages += [
            act(call(f"x{index}", f"probe{index}", query=f"item{index}")),
            result(f"x{index}", f"probe{index}", ""),
        ]
    plain = summarize(SummaryKind.HISTORY, messages, max_tokens=300)
    focused = summarize(SummaryKind.HISTORY, messages, max_tokens=300, focus="keep item3 visible")
    assert "`item3`" not in plain
    assert "`item3`" in focused
    assert "- Focus: keep item3 visible" in sections(focused)["goal"]  # stated
    done = sections(focused)["done"].split("\n")
    assert "`item3`" in done[0]  # ranked first in its section


def test_update_keeps_prior_items_and_merges_new_ones() -> None:
    first = summarize(SummaryKind.HISTORY, work())
    later = [
        user("Also, always log the batch id."),
        act(
            call("w2", "write", path="docs/resume.md", content="# Resume\n"),
            call("b3", "bash", command="pytest -q tests/test_import.py"),
        ),
        result("w2", "write", "ok"),
        result("b3", "bash", "5 passed"),
    ]
    text = summarize(SummaryKind.UPDATE, later, previous=first)
    found = sections(text)
    assert "Make the importer resumable." in found["goal"]
    assert "Never drop rows silently." in found["constraints"]
    assert "always log the batch id." in found["constraints"]
    assert "`src/importer.py`" in found["done"]  # prior Done kept
    assert "`resume.md`" in found["done"]  # In Progress → Done on success
    assert "no result yet" not in found.get("in_progress", "")
    assert "Working on: " in found["in_progress"]  # the request was not answered
    assert "E   ValueError: row 17 has 3 columns" in found["critical"]  # resolved, on record
    assert "row 17" not in found.get("blocked", "")
    assert "pytest" not in found["next"]  # the prior step to fix the tests is done
    assert found["constraints"].count("Never drop rows silently.") == 1
    assert sum("ci.example.test/run/9912" in line for line in found["critical"].splitlines()) == 1


def test_update_drops_values_the_user_corrected() -> None:
    first = summarize(SummaryKind.HISTORY, [user("Plan the offsite. The budget is $800.")])
    assert "$800" in first
    text = summarize(
        SummaryKind.UPDATE, [user("Keep spend under five hundred dollars.")], previous=first
    )
    assert all("superseded" in line for line in text.splitlines() if "$800" in line)
    assert "$800" not in sections(text)["critical"]
    assert "five hundred dollars" in sections(text)["critical"]


def test_update_merges_a_model_written_summary() -> None:
    previous = (
        "## Goal\nMigrate the billing service.\n\n## Constraints & Preferences\n"
        "- Never touch the ledger tables.\n\n## Completed Work\n- Moved `invoice.py`\n\n"
        "## Branch\n`refactor` in `/repo`\n\n<read-files>\nsrc/a.py\n</read-files>"
    )
    text = summarize(SummaryKind.UPDATE, [user("Now port the tests too.")], previous=previous)
    found = sections(text)
    assert "Migrate the billing service." in found["goal"]
    assert "Now port the tests too." in found["goal"]
    assert "Never touch the ledger tables." in found["constraints"]
    assert "Moved `invoice.py`" in found["done"]
    assert "`refactor` in `/repo`" in found["critical"]
    assert "<read-files>" not in text  # compaction appends fresh file lists


def test_three_updates_in_a_row_keep_everything() -> None:
    rounds = [
        [user("Ship the exporter by 2026-05-01. Never log customer emails. Ticket OPS-311.")],
        [
            act(call("a", "bash", command="make e2e")),
            result("a", "bash", "FAIL: timeout", error=True),
        ],
        [user("只用 UTC 时间。"), say("I'll switch the scheduler to UTC.")],
    ]
    text: str | None = None
    for messages in rounds:
        kind = SummaryKind.UPDATE if text else SummaryKind.HISTORY
        text = summarize(kind, messages, previous=text)
    assert text is not None
    for fact in ("Never log customer emails.", "只用 UTC 时间。", "OPS-311", "2026-05-01",
                 "FAIL: timeout", "I'll switch the scheduler to UTC."):  # fmt: skip
        assert text.count(fact) >= 1, fact
    assert sections(text)["constraints"].count("Never log customer emails.") == 1


def test_turn_prefix_layout() -> None:
    text = summarize(SummaryKind.TURN_PREFIX, work())
    titles = [title for _, title, _ in parse_sections(text)]
    assert titles == ["Original Request", "Early Progress", "In Progress", "Key Decisions",
                      "Context for Suffix"]  # fmt: skip
    found = sections(text)
    assert "Make the importer resumable." in found["original_request"]
    assert "Never drop rows silently." in found["original_request"]
    assert "Edited 1 file under `src/`: `importer.py`" in found["early_progress"]
    # the turn goes on in the kept part: where it stands, in its own sub-section; what
    # failed so far stays early progress (the kept part, unseen here, may get past it)
    assert "write `docs/resume.md` → no result yet" in found["in_progress"]
    assert "E   ValueError: row 17 has 3 columns" in found["early_progress"]


def test_branch_layout_has_no_critical_context() -> None:
    text = summarize(SummaryKind.BRANCH, work())
    kinds = [k for k, _, _ in parse_sections(text) if k]
    assert kinds == CHECKPOINT[:-1]
    assert "https://ci.example.test/run/9912" in text
