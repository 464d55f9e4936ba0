"""Scoring a context against canaries: survival, stale values and execution state.

Scoring reads the context as text and knows only the canary definitions — never the
format a compactor writes — so a truncated transcript, the embedded checkpoint and a
model's prose are judged by the same rules:

* **Survival**: every required group has a spelling in the context. Matching ignores
  case, runs of whitespace and code quotes (`` ` ``), and a value counts only as a
  whole token (``$800`` is not found in ``$8000``).
* **Stale value**: a replaced value stated as current. An occurrence does not count when
  its line marks it as replaced (``superseded``, ``replaced by``, ``no longer``,
  ``已作废`` …), when the same line also states the new value ("budget $800 → $460"), or
  when a *verbatim* message at or after it states the new value: the conversation itself
  then shows the correction, after the old value (a checkpoint written before the user's
  correction, followed by the kept correction, is not stale). A checkpoint stating the
  new value elsewhere does not excuse its own stale line: that is a contradiction.
* **Execution state**: each line that mentions a canary's tokens claims a status —
  from its own words first ("failed", "done", "pending", "失败", "已完成" …), else from
  the nearest heading above it in the same message ("### Blocked", "**Done:**"). A
  failed approach must be claimed blocked somewhere and done nowhere; a finished file
  change must not be claimed blocked; an open goal must not be claimed done.

Text is the full text of each context message; the summarizer's transcript
(:func:`synopsis.compaction.serialize_conversation`) is not used because it cuts tool
results to 2,000 characters, which is what a summarizer reads, not what the model sees.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from synopsis.eval.canaries import Canary, CanaryType, ExecStatus
from synopsis.messages import bash_execution_text, block_text, blocks, role_of, text_of

Claim = Literal["done", "pending", "blocked", "neutral"]

_SUMMARY_ROLES = frozenset({"compactionSummary", "branchSummary"})
_WS = re.compile(r"\s+")
_B = r"(?<![a-z0-9])"
_E = r"(?![a-z0-9])"
_BLOCKED = re.compile(
    rf"{_B}(?:fail(?:s|ed|ing|ure|ures)?|errors?|errored|err|blocked|blockers?|exceptions?|"
    r"refused|rejected|denied|cannot|can't|couldn't|could not|unable|unavailable|suspended|"
    rf"did not work|didn't work|does not exist|not found|no such|missing|invalid){_E}|"
    r"失败|错误|报错|阻塞|受阻|异常|被拒绝|走不通|不可用"
)
_PENDING = re.compile(
    rf"{_B}(?:pending|in progress|in-progress|todo|to-do|to do|not yet|remaining|"
    rf"next steps?|waiting|planned|upcoming|open items?){_E}|"
    r"进行中|待处理|待办|尚未|未完成|下一步|计划中|等待"
)
_DONE = re.compile(
    rf"{_B}(?:done|complete|completed|succeeded|successful|successfully|success|finished|"
    rf"fixed|resolved|applied|merged|passed){_E}|✓|✅|已完成|完成|成功|已修复|已解决|搞定"
)
_MARKER = re.compile(
    r"supersed|replaced by|no longer|outdated|obsolete|overridden|corrected|"
    r"已被|作废|已失效|已更正|已替换|已取代|不再有效|旧值"
)
_HEADING = re.compile(
    r"^\s*(?:#{1,6}\s+\S.*|\*\*[^*\n]{1,80}\*\*[:：]?|[^\s\-*+•>|`].{0,48}[:：])\s*$"
)
_TAG_LINE = re.compile(r"^\s*</?[a-z][a-z0-9_-]*>\s*$")


def normalize(text: str) -> str:
    """Lower case, no code quotes, whitespace runs collapsed: what token matching sees."""
    return _WS.sub(" ", text.replace("`", "").lower()).strip()


def _joins(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


def find_token(text: str, token: str, start: int = 0) -> int:
    """Position of ``token`` in ``text`` standing as a whole token, or -1 (both normalized).

    Only ASCII letters, digits and ``_`` join onto a token, so ``ord-1234567`` is found in
    ``订单号ord-1234567。`` but ``800`` is not found in ``8000`` or ``800.5``.
    """
    if not token:
        return -1
    check_before, check_after = _joins(token[0]), _joins(token[-1])
    index = text.find(token, start)
    while index >= 0:
        end = index + len(token)
        ok = not (check_before and index > 0 and _joins(text[index - 1]))
        if ok and check_after and end < len(text):
            after = text[end]
            number_goes_on = after in ".," and end + 1 < len(text) and text[end + 1].isdigit()
            ok = not (_joins(after) or (token[-1].isdigit() and number_goes_on))
        if ok:
            return index
        index = text.find(token, index + 1)
    return -1


def has_token(text: str, token: str) -> bool:
    return find_token(text, token) >= 0


# --- the context as text --------------------------------------------------------------


def render_message(message: Any) -> str:
    """The full text a message puts in front of the model (tool calls as name(arguments))."""
    role = role_of(message)
    if role in _SUMMARY_ROLES:
        summary = message.get("summary")
        return summary if isinstance(summary, str) else ""
    if role == "assistant":
        parts = []
        for block in blocks(message):
            kind = block.get("type")
            if kind == "text":
                parts.append(block_text(block))
            elif kind == "thinking":
                parts.append(block_text(block, "thinking"))
            elif kind == "toolCall":
                arguments = json.dumps(block.get("arguments") or {}, ensure_ascii=False)
                parts.append(f"{block.get('name')}({arguments})")
        return "\n".join(p for p in parts if p)
    if role == "bashExecution":
        return bash_execution_text(message)
    return text_of(message, "\n")


@dataclass(frozen=True, slots=True)
class _Line:
    text: str
    """Normalized."""
    claim: Claim


@dataclass(frozen=True, slots=True)
class ContextPart:
    """One context message as text, split into lines with the status each claims."""

    summary: bool
    """Written by a compactor (a checkpoint), as opposed to a verbatim message."""
    text: str
    """Normalized whole text (for tokens that wrap across lines)."""
    lines: tuple[_Line, ...]


def _claim_words(line: str) -> Claim | None:
    if _BLOCKED.search(line):
        return "blocked"
    if _PENDING.search(line):
        return "pending"
    if _DONE.search(line):
        return "done"
    return None


def make_part(text: str, *, summary: bool) -> ContextPart:
    lines: list[_Line] = []
    heading: Claim = "neutral"
    for raw in text.split("\n"):
        line = normalize(raw)
        if _TAG_LINE.match(raw):
            heading = "neutral"
        elif _HEADING.match(raw):
            heading = _claim_words(line) or "neutral"
        lines.append(_Line(line, _claim_words(line) or heading))
    return ContextPart(summary, normalize(text), tuple(lines))


def context_parts(messages: Iterable[Any]) -> list[ContextPart]:
    """The context (session-context messages, checkpoint included) as scored text."""
    return [
        make_part(render_message(m), summary=role_of(m) in _SUMMARY_ROLES)
        for m in messages
        if role_of(m)
    ]


# --- scores -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CanaryScore:
    canary: Canary
    survived: bool
    missing: tuple[str, ...]
    """First spelling of each required group not found."""
    stale_lines: tuple[str, ...]
    """Lines stating a replaced value as current (normalized, capped)."""
    claims: tuple[Claim, ...]
    """The status each mention claims, in context order."""
    status_accurate: bool | None
    """None: no expected status, or not mentioned at all."""

    @property
    def stale(self) -> bool:
        return bool(self.stale_lines)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.canary.id, "survived": self.survived}
        if self.missing:
            data["missing"] = list(self.missing)
        if self.canary.stale:
            data["staleLines"] = list(self.stale_lines)
        if self.canary.expected_status is not None:
            data["claims"] = list(self.claims)
            data["statusAccurate"] = self.status_accurate
        return data


def _present(parts: Sequence[ContextPart], spellings: Sequence[str]) -> bool:
    wanted = [normalize(s) for s in spellings]
    return any(has_token(part.text, token) for part in parts for token in wanted)


def _stale_lines(parts: Sequence[ContextPart], canary: Canary) -> tuple[str, ...]:
    old = [normalize(s) for s in canary.stale]
    new = [normalize(s) for group in canary.required for s in group]

    def states_new(text: str) -> bool:
        return any(has_token(text, token) for token in new)

    found: list[str] = []
    last_correction = -1  # the last verbatim message stating the new value
    for index in range(len(parts) - 1, -1, -1):
        if not parts[index].summary and states_new(parts[index].text):
            last_correction = index
            break
    for index, part in enumerate(parts):
        if index <= last_correction:
            continue  # the conversation shows the correction at or after this message
        for line in part.lines:
            if not any(has_token(line.text, token) for token in old):
                continue
            if _MARKER.search(line.text) or states_new(line.text):
                continue
            found.append(line.text[:200])
    return tuple(found)


def _claims(parts: Sequence[ContextPart], canary: Canary) -> tuple[Claim, ...]:
    tokens = [normalize(s) for group in canary.required for s in group]
    return tuple(
        line.claim
        for part in parts
        for line in part.lines
        if any(has_token(line.text, token) for token in tokens)
    )


def status_accurate(expected: ExecStatus, claims: Sequence[Claim]) -> bool | None:
    """Whether the mentions agree with what the tool events say (None: no mention)."""
    if not claims:
        return None
    if expected == "blocked":
        return "blocked" in claims and "done" not in claims
    if expected == "done":
        return "blocked" not in claims and any(c in ("done", "neutral") for c in claims)
    return "done" not in claims


def score_canary(parts: Sequence[ContextPart], canary: Canary) -> CanaryScore:
    missing = tuple(group[0] for group in canary.required if not _present(parts, group))
    stale = _stale_lines(parts, canary) if canary.stale else ()
    claims = _claims(parts, canary) if canary.expected_status is not None else ()
    accurate = (
        status_accurate(canary.expected_status, claims)
        if canary.expected_status is not None
        else None
    )
    return CanaryScore(canary, not missing, missing, stale, claims, accurate)


def score_context(messages: Iterable[Any], canaries: Iterable[Canary]) -> list[CanaryScore]:
    """Score every canary against the context ``messages``."""
    parts = context_parts(messages)
    return [score_canary(parts, canary) for canary in canaries]


PINNED_TYPES = (CanaryType.SAFETY, CanaryType.CONSTRAINT)
"""The types a compaction must never lose when the budget can hold them."""
