"""Extraction rules as data: one record per cue, per language.

Each :class:`Rule` names what it recognises (``label``), which stage uses it (``stage``)
and carries the examples it must and must not match, written for its own tests. Adding a
language is adding a module with a ``RULES`` tuple; no code changes. A message in a
language that has no module still keeps the user's short typed messages (see
:mod:`synopsis.state.statements`).

Stages:

* ``harness`` — text an agent harness or tool wrote into a user turn ("continue where we
  left off", command wrappers): never a rule, goal or fact of the user's;
* ``rule`` — a sentence that states a rule, limit or preference (beyond the older
  vocabulary in :mod:`synopsis.state._patterns`);
* ``not-rule`` — a rule word used for something else ("they don't *have to* be perfect",
  "tell me what *needs to* change", "it isn't *always* set"): the match (or its ``cue``
  group) is blanked out before the rule words are looked for;
* ``specific`` — a word that makes a declarative sentence a fact worth keeping
  verbatim (a place, a version, a named environment …);
* ``update`` — a sentence that changes an earlier value ("moved it to", "改到");
* ``correction`` — a word that makes a value in its sentence the new value of its slot
  ("actually", "change", "now", "改成"): asked yes or no, as one pattern (:func:`pattern`);
* ``old-marker`` — the words right before a value that mark it as the one being replaced
  ("not 5433", "instead of", "原来"): matched at the end of the text before the value;
* ``replace`` — a sentence that names both the old and the new value ("use X instead of
  Y", "把 X 改成 Y"), with ``old`` and ``new`` groups;
* ``keep`` — a sentence that says a value stays as it was ("stays the 28th", "不变");
* ``undo`` — the user undid the last commit themselves ("I've reset the previous commit");
* ``rewrite`` — the user rewrote the history, every earlier commit id changed ("I rebased");
* ``quote-envelope`` — the name of a harness' wrapper element whose content is the user's
  own words (Cline's ``<task>``, a ``<user_query>``): the tags are the harness', the inside
  is attributed like any user text (matched on the bare tag name);
* ``evaluation`` — a reviewer's verdict on the agent's work, addressed to it ("you
  implemented a solid …", "你实现了非常棒的…"): in a formatted document, the voice of
  another model's reply that the user pasted;
* ``role-framing`` — a prompt template's opening ("You are an expert …", "你是一名…"):
  with capitalised labels and rule bullets, a harness' or script's task prompt;
* ``task-label`` — the line of a prompt template that labels its request ("TASK: …",
  "任务：…"): the request, when no plain paragraph states it;
* ``refers-to-paste`` — the user's words after what they pasted, pointing back at it
  ("see above", "以上是评审意见"): typed, though they end a pasted document;
* ``automated``, ``protocol``, ``tool-result``, ``output-line``, ``output-failure``,
  ``error-name`` — a harness' own text and pasted terminal output, by their shape
  (:mod:`synopsis.state.rules.harness`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from synopsis.state._memo import TextMemo, remembered

Stage = Literal[
    "harness",
    "rule",
    "not-rule",
    "specific",
    "update",
    "correction",
    "old-marker",
    "replace",
    "keep",
    "undo",
    "rewrite",
    "quote-envelope",
    "evaluation",
    "role-framing",
    "refers-to-paste",
    "task-label",
    "automated",
    "protocol",
    "tool-result",
    "output-line",
    "output-failure",
    "error-name",
]


@dataclass(frozen=True, slots=True)
class Rule:
    label: str
    stage: Stage
    pattern: str
    """A regular expression, matched on lower-cased text."""
    matches: tuple[str, ...] = ()
    """Texts the rule must find something in (its tests)."""
    misses: tuple[str, ...] = ()
    """Texts it must not."""
    compiled: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "compiled", re.compile(self.pattern))


def _all_rules() -> tuple[Rule, ...]:
    from synopsis.state.rules import en, harness, zh

    return (*en.RULES, *zh.RULES, *harness.RULES)


@cache
def rules(stage: Stage) -> tuple[Rule, ...]:
    """Every language's rules of ``stage``."""
    return tuple(rule for rule in _all_rules() if rule.stage == stage)


def first_match(stage: Stage, low: str) -> tuple[Rule, re.Match[str]] | None:
    """The first rule of ``stage`` that matches ``low`` (lower-cased text), and where
    (remembered per text: the same sentences come back in every pass over a log)."""
    return _first_matches(stage)(low)


@cache
def _first_matches(stage: Stage) -> TextMemo[tuple[Rule, re.Match[str]] | None]:
    records = rules(stage)

    def first(low: str) -> tuple[Rule, re.Match[str]] | None:
        for rule in records:
            match = rule.compiled.search(low)
            if match is not None:
                return rule, match
        return None

    return remembered(first)


@cache
def pattern(stage: Stage) -> re.Pattern[str]:
    """Every language's rules of ``stage`` as one pattern, for a yes-or-no question asked
    often (a match of it is a match of one of the records)."""
    return re.compile("|".join(f"(?:{rule.pattern})" for rule in rules(stage)))


def any_match(stage: Stage, low: str) -> bool:
    return first_match(stage, low) is not None


def masked(stage: Stage, low: str) -> str:
    """``low`` with what each rule of ``stage`` matches blanked out (its ``cue`` group when
    it has one), the length unchanged so offsets still point into the original
    (remembered per text)."""
    return _maskers(stage)(low)


@cache
def _maskers(stage: Stage) -> TextMemo[str]:
    return remembered(lambda low: _masked(stage, low))


def _masked(stage: Stage, low: str) -> str:
    for rule in rules(stage):
        if rule.compiled.search(low) is None:
            continue
        cue = "cue" in rule.compiled.groupindex

        def blank(match: re.Match[str], cue: bool = cue) -> str:
            text = match.group()
            if not cue or match.group("cue") is None:
                return " " * len(text)
            start, end = (i - match.start() for i in match.span("cue"))
            return text[:start] + " " * (end - start) + text[end:]

        low = rule.compiled.sub(blank, low)
    return low
