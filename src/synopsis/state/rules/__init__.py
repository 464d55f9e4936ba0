"""Extraction rules as data: one record per cue, per language.

Each :class:`Rule` names what it recognises (``label``), which stage uses it (``stage``)
and carries the examples it must and must not match, written for its own tests. Adding a
language is adding a module with a ``RULES`` tuple; no code changes (every module of this
package is read). A message in a language that has no module still keeps the user's short
typed messages (see :func:`synopsis.state.attribution.verbatim_message`).

Dispatch: the Chinese records, and the English records of most stages, apply to every
text (English names and words turn up in any message). A module that sets ``DETECT`` — a
pattern that finds the words or the script of its language in lower-cased text — applies
to a text only where ``DETECT`` finds something in it, so "no"/"solo"/"sempre" in a
Spanish or Italian record never fire on English. The English records of
:data:`ENGLISH_ONLY_STAGES` (what makes a sentence a rule) apply only to a sentence that
no other module reads as its own language (:func:`foreign_language`): "No servidor …" is
Portuguese for "on the server", "no van loi" unaccented Vietnamese for "it still fails".
Each sentence is asked on its own, so a message that mixes languages gets each sentence's
own records.

Stages:

* ``harness`` — text an agent harness or tool wrote into a user turn ("continue where we
  left off", command wrappers): never a rule, goal or fact of the user's;
* ``rule`` — a sentence that states a rule, limit or preference (beyond the older
  vocabulary in :mod:`synopsis.state._patterns`);
* ``not-rule`` — a rule word used for something else ("they don't *have to* be perfect",
  "tell me what *needs to* change", "it isn't *always* set"): the match (or its ``cue``
  group) is blanked out before the rule words are looked for;
* ``fault-report`` — a sentence that tells what goes wrong ("it should list them, but it
  only shows one", "it exits without writing the file"): its rule words describe the
  fault, so it is blanked like a ``not-rule`` match, and it is a failure the user reports;
* ``requirement`` — an obligation laid on the thing being built, not on the one
  addressed ("the button should turn green", "Buton … olmalı", "der Export muss …"), and
  the emphasis on a step ("make sure to", "kesinlikle ekle"): in a long brief (the
  specification of one piece of work) it is part of that request, so it is blanked
  like a ``not-rule`` match there (:func:`synopsis.state.statements.classify_all`); a
  standing word beside it ("never", "asla", "nie") still makes the sentence a rule;
* ``specific`` — a word that makes a declarative sentence a fact worth keeping
  verbatim (a place, a version, a named environment …);
* ``update`` — a sentence that changes an earlier value ("moved it to", "改到");
* ``correction`` — a word that makes a value in its sentence the new value of its slot
  ("actually", "change", "now", "改成"): asked yes or no, as one pattern (:func:`pattern`);
* ``old-marker`` — the words right before a value that mark it as the one being replaced
  ("not 5433", "instead of", "原来"): matched at the end of the text before the value;
* ``replace`` — a sentence that names both the old and the new value ("use X instead of
  Y", "把 X 改成 Y"), with ``old`` and ``new`` groups;
* ``substitute`` — a sentence that names the old value and the new one with words that
  say one takes the other's place ("use X instead of Y", "rename X to Y", "thay vì X thì
  đổi tên thành Y", "nimm X statt Y", "把 X 改名为 Y"), ``old`` and ``new`` groups (or
  ``old2``/``new2``, ``old3``/``new3`` for more word orders): unlike a ``replace``
  record ("X, not Y", which reads a contrast only beside a ``correction`` word), it
  replaces the old value on its own;
* ``keep`` — a sentence that says a value stays as it was ("stays the 28th", "不变");
* ``prohibit`` — a prohibition of one act, with the act in an ``act`` group ("do not run
  the migration", "不要推送"): what a later ``lift`` may allow;
* ``lift`` — a message that allows now what was held back ("run it now", "go ahead",
  "现在可以…了"): with the same act named, it lifts the prohibition;
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
* ``request`` — a sentence that asks the agent for something ("¿Puedes …?", "Füge … hinzu",
  "…してください"): in a language other than English and Chinese (whose requests are
  :mod:`synopsis.state._patterns`' ``GOAL_EN`` / ``GOAL_ZH``), what makes a later
  message a new request rather than a statement;
* ``refers-to-paste`` — the user's words after what they pasted, pointing back at it
  ("see above", "以上是评审意见"): typed, though they end a pasted document;
* ``done`` — a statement that something was done ("ho aggiornato il file", "설정이
  수정되었습니다"): the assistant's report of its work, in the languages beyond the
  English, Chinese, Japanese and German words of :mod:`synopsis.state._progress`;
* ``plan`` — a statement that opens with what the agent is about to do ("I need to add
  …", "Let me …", "我来 …", "Ich werde …", "Voy a …"): it reports nothing done, whatever
  its later clauses say ("… - these are generated files");
* ``choice`` — a user's sentence that chooses ("opzione B", "vamos con la opción 2",
  "웹 앱으로 가자"): beyond the English, Chinese and Japanese words of
  :mod:`synopsis.state._choices`;
* ``tool-answer`` — a tool result that carries the user's own words: the answers to the
  questions the agent asked through a question tool (``"Which DB?"="SQLite"``), the reason
  the user gave for rejecting a call, their feedback on a denied operation. Its ``answer``
  group (with the ``question`` group, or a ``pairs`` group of quoted question=answer
  pairs) is the user's choice (:mod:`synopsis.state.rules.harness`);
* ``broken`` — the user's own words for a failure ("non funziona", "masih error",
  "여전히 안 돼요"): beyond the words of :mod:`synopsis.state._errors`;
* ``automated``, ``protocol``, ``tool-result``, ``output-line``, ``output-failure``,
  ``error-name`` — a harness' own text and pasted terminal output, by their shape
  (:mod:`synopsis.state.rules.harness`).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from synopsis.state._memo import TextMemo, remembered

Stage = Literal[
    "harness",
    "rule",
    "not-rule",
    "fault-report",
    "requirement",
    "specific",
    "update",
    "correction",
    "old-marker",
    "replace",
    "substitute",
    "keep",
    "prohibit",
    "lift",
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
    "yes",
    "no",
    "proposal",
    "pending",
    "request",
    "done",
    "plan",
    "choice",
    "tool-answer",
    "broken",
    "earlier-summary",
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
    gate: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)
    """Its language's ``DETECT`` (None: the record applies to every text)."""
    english_only: bool = field(default=False, init=False, repr=False, compare=False)
    """An English record of :data:`ENGLISH_ONLY_STAGES`: not for another language's text."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "compiled", re.compile(self.pattern))

    def applies_to(self, low: str) -> bool:
        """Whether ``low`` is (or has a part) in the language of this record."""
        if self.english_only:
            return foreign_language(low) is None
        return self.gate is None or self.gate in _gates_in(low)


@dataclass(frozen=True, slots=True)
class Language:
    code: str
    detect: re.Pattern[str] | None
    """What finds a word (or a letter of the script) of the language; None: everywhere."""
    stages: frozenset[str]
    """The stages its module has records of."""


@cache
def _modules() -> tuple[tuple[Language, tuple[Rule, ...]], ...]:
    found = []
    for info in sorted(
        pkgutil.iter_modules(__path__), key=lambda m: (m.name not in ("en", "zh"), m.name)
    ):
        module = importlib.import_module(f"{__name__}.{info.name}")
        records: tuple[Rule, ...] = getattr(module, "RULES", ())
        source = getattr(module, "DETECT", None)
        detect = re.compile(source) if isinstance(source, str) else None
        for record in records:
            object.__setattr__(record, "gate", detect)
            english_only = info.name == "en" and record.stage in ENGLISH_ONLY_STAGES
            object.__setattr__(record, "english_only", english_only)
        stages = frozenset(record.stage for record in records)
        found.append((Language(info.name, detect, stages), records))
    return tuple(found)


@cache
def _gates() -> tuple[re.Pattern[str], ...]:
    return tuple(language.detect for language, _ in _modules() if language.detect is not None)


def _find_gates(low: str) -> frozenset[re.Pattern[str]]:
    return frozenset(gate for gate in _gates() if gate.search(low) is not None)


_gates_in = remembered(_find_gates)
"""The gates (the languages' ``DETECT``) that find something in a text, remembered: a
sentence is asked for every stage, and a gate search costs as much as a stage's records."""


def languages() -> tuple[Language, ...]:
    """Every language that has a module, English and Chinese first."""
    return tuple(language for language, _ in _modules())


def _all_rules() -> tuple[Rule, ...]:
    return tuple(record for _, records in _modules() for record in records)


MIN_DETECT_SHARE = 0.2
"""Of a text's words, the share that its language's ``DETECT`` must find."""
_WORDS = re.compile(r"[^\W\d_]+")
ENGLISH_ONLY_STAGES = frozenset({"rule", "not-rule", "fault-report", "requirement"})
"""The stages whose English records stay off a sentence in another language: their cue
words ("no", "only", "must", "without") are words or loans of other languages too."""
ENGLISH_WORDS = frozenset(
    {"the", "a", "an", "to", "of", "and", "or", "in", "on", "at", "for", "with", "from", "by",
     "is", "are", "was", "be", "it", "this", "that", "you", "i", "we", "my", "your", "our",
     "me", "us", "not", "no", "do", "don", "can", "please", "if", "so", "but", "then", "when",
     "what", "why", "how", "there", "all", "any", "use", "make", "add", "fix", "run"}
)  # fmt: skip
"""Common English words: how much of a text reads as English."""


def language_of(low: str) -> Language | None:
    """The language whose ``DETECT`` finds the most words of ``low`` (at least
    :data:`MIN_DETECT_SHARE` of them), or None. Only words count: a letter such as "é"
    gates the records but is shared by too many languages to tell one; and close
    languages share function words, so this tells whether *some* module reads the text
    rather than which language it is."""
    words = len(_WORDS.findall(low))
    best, best_hits = None, 0
    for language in languages():
        if language.detect is None:
            continue
        hits = sum(1 for match in language.detect.finditer(low) if len(match.group()) > 1)
        if hits > best_hits:
            best, best_hits = language, hits
    if best is None or best_hits < MIN_DETECT_SHARE * words:
        return None
    return best


def foreign_language(low: str) -> Language | None:
    """The language other than English that ``low`` (lower-cased text, mostly one
    sentence) is written in, or None: :func:`words_of_languages`' language, when its words
    outnumber the common English ones and are not a name or two in an English sentence
    ("Only Zürich servers."): "Never deploy on a Friday, por favor." stays English, "No
    entiendo por qué falla." is Spanish (remembered per text)."""
    return _foreign(low)


@remembered
def _foreign(low: str) -> Language | None:
    found = words_of_languages(low)
    if found is None:
        return None
    language, whole, marked = found
    words = _WORDS.findall(low)
    english = sum(1 for word in words if word in ENGLISH_WORDS)
    if whole + marked <= english or not (whole or 2 * marked >= len(words)):
        return None
    return language


def words_of_languages(low: str, *, own_letters: bool = False) -> tuple[Language, int, int] | None:
    """The module whose ``DETECT`` finds the most words of ``low`` — a whole word ("por",
    "khong", "ниже") or a letter of the language in one ("rápido", "作って") — with how
    many of each; None when it finds none. With ``own_letters`` a letter counts only for
    the one module that has it ("č" Czech, "ł" Polish, "ğ" Turkish; not "é" or "ü", which
    several languages share, Hungarian and Swedish too)."""
    spans = [word.span() for word in _WORDS.finditer(low)]
    starts = [start for start, _ in spans]
    best: tuple[Language, int, int] | None = None
    for language in languages():
        if language.detect is None:
            continue
        whole: set[int] = set()
        marked: set[int] = set()
        for match in language.detect.finditer(low):
            index = bisect_right(starts, match.start()) - 1
            if index < 0 or match.end() > spans[index][1]:
                continue  # not inside a word (a "¿", a "¡")
            if match.span() == spans[index]:
                whole.add(index)
            elif not own_letters or any(_owners(ch) == {language.code} for ch in match.group()):
                marked.add(index)
        found = len(whole) + len(marked - whole)
        if found and (best is None or found > best[1] + best[2]):
            best = (language, len(whole), len(marked - whole))
    return best


@cache
def _owners(letter: str) -> frozenset[str]:
    """The modules whose ``DETECT`` finds ``letter`` on its own."""
    return frozenset(
        language.code
        for language in languages()
        if language.detect is not None and language.detect.search(letter)
    )


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
        gates = _gates_in(low)
        for rule in records:
            if rule.english_only:
                if foreign_language(low) is not None:
                    continue
            elif rule.gate is not None and rule.gate not in gates:
                continue
            match = rule.compiled.search(low)
            if match is not None:
                return rule, match
        return None

    return remembered(first)


class StagePattern:
    """Every language's rules of a stage as one pattern per language, for a yes-or-no
    question asked often (a match of it is a match of one of the records that apply)."""

    def __init__(self, records: tuple[Rule, ...]) -> None:
        by_gate: dict[tuple[re.Pattern[str] | None, bool], list[str]] = {}
        for rule in records:
            by_gate.setdefault((rule.gate, rule.english_only), []).append(f"(?:{rule.pattern})")
        self._parts = [
            (gate, english_only, re.compile("|".join(sources)))
            for (gate, english_only), sources in by_gate.items()
        ]

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        first: re.Match[str] | None = None
        gates = _gates_in(text)
        for gate, english_only, joined in self._parts:
            if gate is not None and gate not in gates:
                continue
            if english_only and foreign_language(text) is not None:
                continue
            match = joined.search(text, pos, endpos)
            if match is not None and (first is None or match.start() < first.start()):
                first = match
        return first


@cache
def pattern(stage: Stage) -> StagePattern:
    """Every language's rules of ``stage`` as one pattern (see :class:`StagePattern`)."""
    return StagePattern(rules(stage))


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
    if first_match(stage, low) is None:  # (most texts): nothing to blank
        return low
    for rule in rules(stage):
        if not rule.applies_to(low) or rule.compiled.search(low) is None:
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
