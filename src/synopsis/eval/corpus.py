"""``synopsis eval --corpus DIR``: replaying labelled conversations we did not write.

A corpus is a folder of cases (``<id>.json``: turns, truth items, untrusted and noise
labels; see :mod:`synopsis.eval.labels` for the scoring rules). Each case is replayed the
way a long-lived chat application meets it: in five stages (40 / 55 / 70 / 85 / 100 % of
its turns, a stage never ending between a tool call and its result), and after each
stage the application compacts what it holds — its previous output plus the new turns —
through :func:`~synopsis.compaction.compact_messages`, passing back the previous
summary and working state. Every stage's context (checkpoint + kept messages) is scored.

Two conditions are run:

* ``free`` — keep 10 % of the case's tokens verbatim, the checkpoint uncapped;
* ``20%`` — keep 5 %, the checkpoint capped at 15 %, and the whole context should fit
  within 20 % of the case's tokens (a case above that is *over budget*).

The final stage's working state is also checked on its own (the extractor's recall and
precision): was each truth item in the state, as the right kind of record, from the
right source?
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from synopsis.compaction.chat_format import read_chat_messages
from synopsis.compaction.messages_api import CompactedMessages, compact_messages
from synopsis.errors import SettingsError
from synopsis.eval.labels import ContextScore, contains, score_labels
from synopsis.eval.section_accuracy import SectionScore, ends_mid_request, score_sections
from synopsis.state.model import WorkingState
from synopsis.summarizers.base import Summarizer
from synopsis.tokens import estimate_tokens

STAGES = (0.40, 0.55, 0.70, 0.85, 1.00)
KINDS = ("fact", "rule", "constraint", "preference", "goal", "state", "failure", "decision")
RULE_KINDS = frozenset({"rule", "constraint", "preference"})
_ROLES = frozenset({"system", "user", "assistant", "tool"})


@dataclass(frozen=True, slots=True)
class Condition:
    name: str
    keep_share: float
    summary_share: float | None
    budget_share: float | None


CONDITIONS = (
    Condition("free", 0.10, None, None),
    Condition("20%", 0.05, 0.15, 0.20),
)


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    language: str
    setting: str
    turns: tuple[dict[str, Any], ...]
    truth: tuple[dict[str, Any], ...]
    untrusted: tuple[dict[str, Any], ...]
    noise: tuple[dict[str, Any], ...]
    unfinished: bool | None = None
    """The label ``unfinished``: whether the last request is still open at the end."""


# --- loading --------------------------------------------------------------------------------


def load_corpus(folder: Path) -> list[Case]:
    """Every ``*.json`` case in ``folder``, validated (bad input raises SettingsError)."""
    if not folder.is_dir():
        raise SettingsError(f"corpus {folder} is not a folder")
    cases = [_load_case(path) for path in sorted(folder.glob("*.json"))]
    if not cases:
        raise SettingsError(f"corpus {folder} holds no *.json case")
    return cases


def _load_case(path: Path) -> Case:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise SettingsError(f"{path}: not a readable JSON case ({error})") from None
    if not isinstance(data, dict) or not isinstance(data.get("turns"), list):
        raise SettingsError(f"{path}: a case is an object with a 'turns' list")
    turns = data["turns"]
    for index, turn in enumerate(turns):
        if not isinstance(turn, dict) or turn.get("role") not in _ROLES:
            raise SettingsError(f"{path}: turn {index} has no known role")
    labels: dict[str, tuple[dict[str, Any], ...]] = {}
    for key in ("truth", "untrusted", "noise"):
        raw = data.get(key, [])
        if not isinstance(raw, list) or not all(
            isinstance(item, dict) and isinstance(item.get("turn", 0), int) for item in raw
        ):
            raise SettingsError(f"{path}: {key!r} must be a list of labelled items")
        labels[key] = tuple(raw)
    return Case(
        id=str(data.get("id") or path.stem),
        language=str(data.get("language", "")),
        setting=str(data.get("setting", "")),
        turns=tuple(turns),
        truth=labels["truth"],
        untrusted=labels["untrusted"],
        noise=labels["noise"],
        unfinished=data["unfinished"] if isinstance(data.get("unfinished"), bool) else None,
    )


# --- turns as chat messages -----------------------------------------------------------------


def turn_message(turn: dict[str, Any]) -> dict[str, Any]:
    """One case turn as an OpenAI-format chat message."""
    role = turn["role"]
    text = str(turn.get("text") or "")
    if role == "tool":
        return {"role": "tool", "tool_call_id": str(turn.get("tool_call_id", "")), "content": text}
    if role != "assistant":
        return {"role": role, "content": text}
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    calls = turn.get("tool_calls") or []
    if calls:
        message["tool_calls"] = [
            {
                "id": str(call.get("id", "")),
                "type": "function",
                "function": {
                    "name": str(call.get("name", "")),
                    "arguments": json.dumps(call.get("arguments", {}), ensure_ascii=False),
                },
            }
            for call in calls
        ]
    return message


def stage_ends(turns: Sequence[dict[str, Any]], shares: Sequence[float] = STAGES) -> list[int]:
    """Where each stage ends (exclusive), never between a tool call and its results."""
    ends: list[int] = []
    for share in shares:
        end = min(len(turns), max(1, math.ceil(share * len(turns))))
        while end < len(turns) and turns[end].get("role") == "tool":
            end += 1
        if ends and end <= ends[-1]:
            continue
        ends.append(end)
    return ends


def context_tokens(messages: Sequence[dict[str, Any]]) -> int:
    """Estimated tokens of a chat message list (system messages included)."""
    system = [m for m in messages if m.get("role") in ("system", "developer")]
    rest = [m for m in messages if m.get("role") not in ("system", "developer")]
    chars = sum(len(str(m.get("content") or "")) for m in system)
    read = read_chat_messages(rest, "openai")
    return -(-chars // 4) + sum(estimate_tokens(r.message) for r in read)


def context_text(messages: Iterable[dict[str, Any]]) -> str:
    """The text a model would see in ``messages``: contents, tool calls' names and
    arguments, one message after another."""
    parts: list[str] = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, str) and content:
            parts.append(content)
        for call in message.get("tool_calls") or ():
            function = call.get("function", {})
            parts.append(f"{function.get('name', '')} {function.get('arguments', '')}")
    return "\n\n".join(parts)


# --- running --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StageResult:
    case: Case
    condition: str
    round: int
    end: int
    score: ContextScore
    context_tokens: int
    summary_tokens: int
    budget_tokens: int | None
    state: WorkingState | None = field(repr=False)
    context: str = field(repr=False, default="")
    """The scored text: checkpoint and kept messages."""
    summary: str = field(repr=False, default="")
    """The checkpoint alone."""
    sections: SectionScore | None = field(repr=False, default=None)
    """Which truth items stand in their own section of the checkpoint."""

    @property
    def over_budget(self) -> bool:
        return self.budget_tokens is not None and self.context_tokens > self.budget_tokens


def _active(labels: Iterable[dict[str, Any]], end: int) -> list[dict[str, Any]]:
    return [label for label in labels if int(label.get("turn", 0)) < end]


async def run_case(
    case: Case,
    condition: Condition,
    summarizer_factory: Callable[[], Summarizer | None] = lambda: None,
) -> list[StageResult]:
    """Replay ``case`` in stages under ``condition`` (see the module docstring)."""
    messages = [turn_message(t) for t in case.turns]
    total = context_tokens(messages)

    def share(value: float | None) -> int | None:
        return None if value is None else max(1, round(value * total))

    keep = share(condition.keep_share) or 1
    summary_cap = share(condition.summary_share)
    budget = share(condition.budget_share)
    summarizer = summarizer_factory()
    held: list[dict[str, Any]] = []
    previous: CompactedMessages | None = None
    start = 0
    results: list[StageResult] = []
    for number, end in enumerate(stage_ends(case.turns), 1):
        held = held + messages[start:end]
        start = end
        previous = await compact_messages(
            held,
            summarizer=summarizer,
            keep_recent_tokens=keep,
            summary_max_tokens=summary_cap,
            max_context_tokens=budget,
            previous_summary=previous.summary if previous else None,
            previous_state=previous.state if previous else None,
        )
        held = list(previous.messages)
        text = context_text(held)
        score = score_labels(
            text,
            _active(case.truth, end),
            _active(case.untrusted, end),
            _active(case.noise, end),
        )
        summary = previous.summary or ""
        verbatim = {id(m) for m in held}
        replaced = frozenset(i for i in range(end) if id(messages[i]) not in verbatim)
        last = end == len(case.turns) and case.unfinished is not None
        sections = score_sections(
            summary,
            case.truth,
            replaced,
            end=end,
            unfinished=bool(case.unfinished) if last else ends_mid_request(case.turns[:end]),
        )
        results.append(
            StageResult(
                case,
                condition.name,
                number,
                end,
                score,
                context_tokens(held),
                -(-len(summary) // 4),
                budget,
                previous.state,
                text,
                summary,
                sections,
            )
        )
    return results


async def run_corpus(
    cases: Sequence[Case],
    conditions: Sequence[Condition] = CONDITIONS,
    summarizer_factory: Callable[[], Summarizer | None] = lambda: None,
) -> list[StageResult]:
    results: list[StageResult] = []
    for condition in conditions:
        for case in cases:
            results.extend(await run_case(case, condition, summarizer_factory))
    return results


# --- the extractor on its own ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExtractorCheck:
    found: dict[str, tuple[int, int]]
    """Per truth kind: (items the state holds as the right kind from the right source, total)."""
    rule_records: int
    """Rule / constraint / preference records in the state, current ones."""
    rule_records_true: int
    """Of those, the ones that hold a labelled rule, constraint or preference."""


def _records(state: WorkingState, kind: str) -> list[tuple[str, str]]:
    """(text, source) of the state's records that could hold a truth item of ``kind``."""
    if kind in RULE_KINDS:
        return [(c.text, c.source) for c in state.current_constraints()]
    if kind == "goal":
        return [(g.text, "user") for g in state.goals]
    if kind == "decision":
        return [(d.text, d.source) for d in state.decisions]
    if kind == "failure":
        return [(f"{t.name} {t.target} {t.error or ''}", "tool") for t in state.tool_calls]
    values: list[tuple[str, str]] = [
        (f"{i.value} {i.context}", i.source) for i in state.identifiers
    ]
    # the user's statements with their values, kept verbatim, are facts too
    statements = [(f.text, f.source) for f in state.current_facts()]
    if kind == "fact":
        return values + statements
    # "state": where the work stands, from tool events, plans, requests and what the
    # assistant reported when a request's work ended.
    calls = [(f"{t.name} {t.target} {t.outcome or ''}", "tool") for t in state.tool_calls]
    steps = [(s, "assistant") for s in state.next_steps]
    decisions = [(d.text, "assistant") for d in state.decisions]
    goals = [(g.text, "user") for g in state.goals]
    outcomes = [(g.outcome, "assistant") for g in state.goals if g.outcome]
    return values + statements + calls + steps + decisions + goals + outcomes


def _source_matches(truth_source: str, record_source: str) -> bool:
    return record_source == truth_source or (
        truth_source == "tool" and record_source in ("tool", "assistant")
    )


def check_extractor(case: Case, state: WorkingState | None) -> ExtractorCheck:
    state = state or WorkingState()
    found: dict[str, list[int]] = {}
    for item in case.truth:
        kind = str(item.get("kind", ""))
        tokens = [str(t) for t in item.get("tokens", ())]
        source = str(item.get("source", "user"))
        hit = any(
            all(contains(text, t) for t in tokens) and _source_matches(source, record_source)
            for text, record_source in _records(state, kind)
        )
        tally = found.setdefault(kind, [0, 0])
        tally[0] += hit
        tally[1] += 1
    rules = [c for c in state.current_constraints() if c.source == "user"]
    labelled = [i for i in case.truth if i.get("kind") in RULE_KINDS]
    true = sum(
        any(all(contains(c.text, str(t)) for t in item.get("tokens", ())) for item in labelled)
        for c in rules
    )
    return ExtractorCheck({k: (v[0], v[1]) for k, v in found.items()}, len(rules), true)
