"""Checks shared by the labelled sets of real transcripts (tests/data/realdev, realheld).

They check the data, not synopsis' scores: every label must point at text that is really
in its turn, the tool calls must pair up as a chat API requires, no live credential may
be in a case, the set's README must name each case's source, and ``synopsis eval
--corpus`` must run over the folder as a user would run it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from synopsis.eval.corpus import KINDS, Case

SYNOPSIS = str(Path(sys.executable).parent / "synopsis")
# Shapes of live credentials: a secret found in a source goes into a case only as an obvious fake.
LIVE_SECRET = re.compile(
    r"sk-(?:ant-|proj-)?[A-Za-z0-9_-]{24,}|gh[pousr]_[A-Za-z0-9]{30,}|AKIA[0-9A-Z]{16}"
    r"|xox[abp]-[A-Za-z0-9-]{20,}|-----BEGIN [A-Z ]*PRIVATE KEY-----"
    r"|\b\d{8,10}:AA[A-Za-z0-9_-]{30,34}\b|\bAIza[0-9A-Za-z_-]{35}\b|\b[rs]k_live_[0-9A-Za-z]{20,}"
)
"""Also a Telegram bot token (``BOT_ID:AA…``), a Google API key and a Stripe live key: the
shapes met in sources the sets were built from. Kept apart from ``synopsis.state.secrets``
on purpose: the data check must not trust the code whose redaction the sets measure."""


def case_ids(cases: list[Case]) -> list[str]:
    return [case.id for case in cases]


def check_label_tokens(case: Case) -> None:
    """Every truth token is an exact substring of its turn; kinds, sources and ids are sound."""
    assert len({item["id"] for item in case.truth}) == len(case.truth)
    for item in case.truth:
        assert item["kind"] in KINDS, item
        assert 1 <= len(item["tokens"]) <= 4, item
        turn = case.turns[item["turn"]]
        assert item["source"] == turn["role"], item
        for token in item["tokens"]:
            assert token in str(turn.get("text") or ""), (item["id"], token)
    for item in (*case.truth, *case.untrusted, *case.noise):
        for token in (*item["tokens"], *item.get("stale", [])):
            # A short token ("hi", "15") would match inside unrelated words or numbers.
            assert len("".join(token.split())) >= 5, (item, token)
    for item in (*case.untrusted, *case.noise):
        text = str(case.turns[item["turn"]].get("text") or "")
        for token in item["tokens"]:
            assert token in text, (item, token)


def check_stale_values(case: Case) -> None:
    """A stale value was said before the update that replaces it, and the update says so."""
    for item in case.truth:
        for token in item.get("stale", []):
            earlier = "\n".join(str(t.get("text") or "") for t in case.turns[: item["turn"]])
            assert token in earlier, (item["id"], token)
            assert "update" in item.get("tags", []), item


def check_updates_name_stale_values(case: Case) -> None:
    """An item tagged ``update`` says which values it replaced."""
    for item in case.truth:
        if "update" in item.get("tags", []):
            assert item.get("stale"), item


def check_resolved_failures(case: Case) -> None:
    """``resolved_turn`` names a later turn of the same case, on failures only."""
    for item in case.truth:
        if "resolved_turn" in item:
            assert item["kind"] == "failure", item
            assert item["turn"] < item["resolved_turn"] < len(case.turns), item


def check_call_pairing(case: Case) -> None:
    """Every tool turn answers a call of the nearest assistant turn, and every call is answered."""
    open_calls: set[str] = set()
    for index, turn in enumerate(case.turns):
        if turn["role"] == "assistant":
            assert not open_calls, f"turn {index}: calls {open_calls} never answered"
            open_calls = {str(call["id"]) for call in turn.get("tool_calls") or []}
        elif turn["role"] == "tool":
            call_id = str(turn.get("tool_call_id"))
            assert call_id in open_calls, f"turn {index}: answers no open call"
            open_calls.discard(call_id)
        else:
            assert not open_calls, f"turn {index}: calls {open_calls} never answered"
    assert not open_calls


def check_no_live_credentials(case: Case) -> None:
    """A secret found in a source goes into a case only as an obvious fake."""
    text = json.dumps([*case.turns], ensure_ascii=False)
    assert not LIVE_SECRET.search(text)


PER_CASE = (check_label_tokens, check_stale_values, check_call_pairing, check_no_live_credentials)
"""The checks every case of a real-transcript set must pass (parametrize over case × check)."""


def check_name(check: object) -> str:
    return str(getattr(check, "__name__", check)).removeprefix("check_")


def source_repos(folder: Path) -> set[str]:
    """The ``owner/name`` of every case's source repository in a set's folder."""
    return {
        json.loads(path.read_text(encoding="utf-8"))["source"]["repo"]
        for path in sorted(folder.glob("*.json"))
    }


def check_sources_distinct(folder: Path, others: list[Path]) -> None:
    """No repository a set was built from is the source of a case in another set: a held-out
    set taken from the same repository as a development case would not be held out."""
    mine = source_repos(folder)
    for other in others:
        assert not mine & source_repos(other), other.name


def check_readme_lists_sources(folder: Path) -> None:
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for path in sorted(folder.glob("*.json")):
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        source = data["source"]
        assert f"`{path.name}`" in readme
        assert source["repo"] in readme and source["commit"] in readme


def check_eval_runs(folder: Path, cases: list[Case]) -> None:
    """``synopsis eval --corpus FOLDER --json`` runs as a process and scores every item."""
    done = subprocess.run(
        [SYNOPSIS, "eval", "--corpus", str(folder), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["config"]["cases"] == len(cases)
    items = sum(len(case.truth) for case in cases)
    assert {row["items"] for row in report["final"]} == {items}
