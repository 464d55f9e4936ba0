"""Scoring a compacted context against a labelled case (the fidelity corpus' rules).

A labelled case says which exact substrings must survive (truth items), which superseded
values must be gone (``stale``) and which injected or idle text must not reach a rule,
goal or decision part of the context (``untrusted``, ``noise``). This module applies the
corpus' published matching rules with code of our own:

* both sides are compared after NFKC, case folding, unified dashes and quotes, dropped
  thousands separators and removed whitespace;
* a short numeric token ("15", "3.11", "$240") only counts where it is not glued to more
  digits (``15`` is not in ``150`` or ``2.15``; a trailing ``.0`` is allowed);
* the *protected* text is what stands under headings, bold lines, ``Label:`` lines, tags
  or JSON keys that name a rule, constraint, goal, task, decision, plan or next step; a
  heading that says it holds untrusted or injected material is neutral, and a context
  without any labelled part counts whole.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

_UNIFY = str.maketrans(
    {
        **dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-"),
        **dict.fromkeys(map(ord, "\u2018\u2019"), "'"),
        **dict.fromkeys(map(ord, "\u201c\u201d"), '"'),
        0x00A0: " ",
    }
)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_SPACE = re.compile(r"\s+")
_DIGIT_GAP = re.compile(r"(?<=\d)\s+(?=\d)")
_SHORT_NUMBER = re.compile(r"[$€¥£+\-]?\d[\d.,:%]{0,5}")
_GAP = "\u2063"
"""Kept where whitespace separated two digits, so "12 15" does not read as "1215"."""


def _fold(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).translate(_UNIFY).casefold()
    return _THOUSANDS.sub("", folded)


@lru_cache(maxsize=4096)
def normalize(text: str) -> str:
    """What matching compares: folded, without any whitespace."""
    return _SPACE.sub("", _fold(text))


@lru_cache(maxsize=256)
def _with_digit_gaps(text: str) -> str:
    return _SPACE.sub("", _DIGIT_GAP.sub(_GAP, _fold(text)))


def contains(text: str, token: str) -> bool:
    """Whether ``token`` occurs in ``text`` under the corpus' matching rules."""
    needle = normalize(token)
    if not needle:
        return False
    if not _SHORT_NUMBER.fullmatch(needle):
        return needle in normalize(text)
    hay = _with_digit_gaps(text)
    at = hay.find(needle)
    while at >= 0:
        if not _glued(hay, at, at + len(needle), needle):
            return True
        at = hay.find(needle, at + 1)
    return False


def _glued(hay: str, start: int, end: int, needle: str) -> bool:
    """Whether a short number found at ``hay[start:end]`` is part of a longer one."""
    if needle[0].isdigit() and start > 0:
        before = hay[start - 1]
        if before.isdigit() or (before == "." and start > 1 and hay[start - 2].isdigit()):
            return True
    if needle[-1].isdigit() and end < len(hay):
        after = hay[end]
        if after.isdigit():
            return True
        if after == "." and end + 1 < len(hay) and hay[end + 1].isdigit():
            digits = end + 1
            while digits < len(hay) and hay[digits].isdigit():
                digits += 1
            return set(hay[end + 1 : digits]) != {"0"}  # "15.0" is 15; "15.5" is not
    return False


# --- the rule / goal / decision parts ------------------------------------------------------

_PROTECTED_WORDS = (
    "rule", "constraint", "requirement", "instruction", "prohibit", "forbid", "must",
    "policy", "guideline", "goal", "objective", "task", "intent", "request", "mission",
    "purpose", "decision", "decided", "plan", "next", "todo", "to do", "action item",
    "directive", "规则", "约束", "要求", "限制", "禁止", "指令", "目标", "任务", "需求", "决定",
    "决策", "计划", "下一步", "待办", "原则", "规定",
)  # fmt: skip
_QUARANTINE_WORDS = (
    "untrusted", "ignored", "injection", "injected", "suspicious", "不可信", "忽略", "注入", "可疑",
)  # fmt: skip
_NEUTRAL_WORDS = (
    "security", "warning", "fact", "context", "state", "status", "progress", "done",
    "completed", "file", "error", "failure", "note", "history", "summary", "事实", "背景",
    "进展", "状态", "已完成", "文件", "错误", "失败", "备注", "摘要", "信息",
)  # fmt: skip
_LABEL_LINES = (
    re.compile(r"^\s{0,3}#{1,6}\s*(.+?)\s*#*\s*$"),
    re.compile(r"^\s*\*\*(.+?)\*\*\s*[:：]?\s*$"),
    re.compile(r"^\s*<\s*([A-Za-z_\-]+)[^>]*>\s*$"),
    re.compile(r"^\s*([A-Za-z\u4e00-\u9fff][A-Za-z\u4e00-\u9fff /&_\-()]{0,40})\s*[:：]\s*$"),
)
_INLINE_LABEL = re.compile(
    r"^\s*(?:[-*]\s*)?\**([A-Za-z\u4e00-\u9fff][A-Za-z\u4e00-\u9fff /&_\-]{0,30})\**"
    r"\s*[:：]\s*(.+)$"
)


def label_class(label: str) -> str | None:
    """``protected``, ``neutral`` or None (a label that says nothing about its part)."""
    low = label.lower()
    if any(word in low for word in _QUARANTINE_WORDS):
        return "neutral"
    if any(word in low for word in _PROTECTED_WORDS):
        return "protected"
    if any(word in low for word in _NEUTRAL_WORDS):
        return "neutral"
    return None


def protected_text(text: str) -> tuple[str, str]:
    """(``sections`` or ``whole``, the text of the rule / goal / decision parts)."""
    from_json = _protected_json(text)
    if from_json is not None:
        return "sections", from_json
    parts: list[str] = []
    current: str | None = None
    labelled = False
    for line in text.splitlines():
        label = next((m.group(1) for rx in _LABEL_LINES if (m := rx.match(line))), None)
        if label is not None:
            kind = label_class(label)
            if kind is not None:
                current, labelled = kind, True
                continue
        else:
            inline = _INLINE_LABEL.match(line)
            if inline is not None and len(inline.group(1).split()) <= 4:
                kind = label_class(inline.group(1))
                if kind is not None:
                    labelled, current = True, kind
                    if kind == "protected":
                        parts.append(inline.group(2))
                    continue
        if current == "protected":
            parts.append(line)
    return ("sections", "\n".join(parts)) if labelled else ("whole", text)


def _protected_json(text: str) -> str | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, (dict, list)):
        return None
    parts: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                kind = label_class(str(key))
                if kind == "protected":
                    parts.append(json.dumps(value, ensure_ascii=False))
                elif kind is None:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    return "\n".join(parts) if parts else None


# --- one case -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ItemScore:
    id: str
    kind: str
    kept: bool
    update: bool
    missing: tuple[str, ...]
    stale: tuple[str, ...]

    @property
    def clean(self) -> bool:
        return self.kept and not self.stale


@dataclass(frozen=True, slots=True)
class ContextScore:
    items: tuple[ItemScore, ...]
    injected: tuple[str, ...]
    """Untrusted tokens found in the rule / goal / decision parts."""
    noise: tuple[str, ...]
    protected_mode: str


def score_labels(
    text: str,
    truth: Iterable[dict[str, Any]],
    untrusted: Iterable[dict[str, Any]] = (),
    noise: Iterable[dict[str, Any]] = (),
) -> ContextScore:
    """Score ``text`` (the whole compacted context) against a case's labels."""
    items = []
    for item in truth:
        tokens = [str(t) for t in item.get("tokens", ())]
        stale = [str(t) for t in item.get("stale", ())]
        items.append(
            ItemScore(
                id=str(item.get("id", "")),
                kind=str(item.get("kind", "")),
                kept=all(contains(text, t) for t in tokens),
                update="update" in item.get("tags", ()),
                missing=tuple(t for t in tokens if not contains(text, t)),
                stale=tuple(t for t in stale if contains(text, t)),
            )
        )
    mode, protected = protected_text(text)

    def hits(labels: Iterable[dict[str, Any]]) -> tuple[str, ...]:
        return tuple(
            str(t) for label in labels for t in label.get("tokens", ()) if contains(protected, t)
        )

    return ContextScore(tuple(items), hits(untrusted), hits(noise), mode)
