"""The summary guard: a checkpoint may not lose a pinned fact or state a replaced value.

Any summarizer can drop or paraphrase — a model turns "never change the public API" into
"keep compatibility" and "PAY-4821" into "the payment ticket". The guard checks the
checkpoint against the working state: every pinned fact (the constraints, the first and
latest requests, the values later steps depend on, the failures still open) must appear
verbatim, and what is missing is put back into the section it belongs to (created when
the summary has none). A value the user has since replaced is never left standing as
current: each line that states it gets a "(superseded: old → new)" note. The text the
summarizer wrote is otherwise kept as it is, and the result says what the guard changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from typing import Any, Literal

from synopsis.state._patterns import lower_same
from synopsis.state._retire import retire_line, stale_note
from synopsis.state._text import (
    contains_value,
    normalize_ws,
    one_line,
    states_stale,
    states_stale_outside_code,
)
from synopsis.state.model import WorkingState, rule_out_of_date
from synopsis.state.render import (
    FACT_LABEL,
    constraint_line,
    error_line,
    fact_line,
    identifier_line,
    is_pinned_fact,
    is_pinned_identifier,
    pinned_goals,
)
from synopsis.state.sections import (
    CHECKPOINT_ORDER,
    CONSTRAINT_LABEL,
    SECTION_TITLES,
    TURN_SPLIT,
    Heading,
    headings,
    item_text,
    section_end,
    split_entry_suffix,
    split_tail,
    unfenced,
)
from synopsis.state.statements import topic_words, without_old_values

MAX_PINNED_ERRORS = 20
"""The most recent open failures the guard insists on (older ones stay in the state)."""

FactKind = Literal["goal", "constraint", "fact", "identifier", "error"]

_FALLBACK_SECTIONS = {
    "goal": ("goal", "original_request"),
    "constraints": ("constraints",),
    "critical": ("critical", "suffix_context"),
    "blocked": ("blocked",),
}


@dataclass(frozen=True, slots=True)
class PinnedFact:
    """A fact every checkpoint must state verbatim, and the line that restores it."""

    kind: FactKind
    text: str
    line: str
    section: str
    entry_id: str | None = None
    whole: str | None = None
    """The fact as the user said it, before the value it replaced was cut from it: a
    checkpoint that quotes that (a goal or rule in the same words) states it too."""


@dataclass(frozen=True, slots=True)
class GuardChange:
    """One change the guard made: a fact restored, a line marked as superseded, or a rule
    line dropped that nothing the user wrote backs."""

    action: Literal["restored", "marked", "dropped"]
    kind: FactKind | Literal["superseded"]
    text: str
    section: str
    """Title of the section the fact went to (or where the marked line stands)."""
    entry_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "action": self.action,
            "kind": self.kind,
            "text": self.text,
            "section": self.section,
        }
        if self.entry_id is not None:
            data["entryId"] = self.entry_id
        return data


@dataclass(frozen=True, slots=True)
class GuardResult:
    text: str
    restored: tuple[GuardChange, ...] = ()
    stale: tuple[GuardChange, ...] = ()
    dropped: tuple[GuardChange, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.restored or self.stale or self.dropped)

    def to_json(self) -> dict[str, Any]:
        """For the compaction entry's ``details`` and the compaction event."""
        data: dict[str, Any] = {
            "restored": [change.to_json() for change in self.restored],
            "stale": [change.to_json() for change in self.stale],
        }
        if self.dropped:
            data["dropped"] = [change.to_json() for change in self.dropped]
        return data


def pinned_facts(state: WorkingState) -> list[PinnedFact]:
    """What :func:`guard_summary` insists on, in the order it restores it.

    Only the state's own records are pinned, never text read back from a checkpoint
    (source ``summary``) nor anything a model wrote: the guard cannot promote an invented
    rule. Replaced values are cut from the pinned text, as from every checkpoint line.
    """
    stale = state.superseded_values()
    facts: list[PinnedFact] = []
    by_text = {g.text: g for g in state.goals}
    for text in pinned_goals(state):
        goal = by_text[text]
        shown = one_line(stale_note(text, stale))
        if shown.strip(" …"):
            facts.append(PinnedFact("goal", shown, f"- {shown}", "goal", goal.entry_id))
    for constraint in state.current_constraints():
        if constraint.source != "user" or constraint.written != "typed":
            continue  # read back from a checkpoint, or not typed by the user: never pinned
        shown = one_line(stale_note(constraint.text, stale))
        line = constraint_line(shown, constraint.entry_id)
        facts.append(PinnedFact("constraint", shown, line, "constraints", constraint.entry_id))
    for fact in state.current_facts():
        if is_pinned_fact(fact):
            said = one_line(stale_note(fact.text, stale))
            shown = one_line(without_old_values(said))
            facts.append(
                PinnedFact("fact", shown, fact_line(shown), "critical", fact.entry_id, said)
            )
    for identifier in state.identifiers:
        if is_pinned_identifier(identifier):
            line = identifier_line(identifier, stale)
            facts.append(
                PinnedFact(
                    "identifier", one_line(identifier.value), line, "critical", identifier.entry_id
                )
            )
    for record in state.open_errors()[-MAX_PINNED_ERRORS:]:
        if record.error:
            shown = one_line(stale_note(record.error, stale))
            line = stale_note(error_line(record), stale)
            facts.append(PinnedFact("error", shown, line, "blocked", record.entry_id))
    return facts


def guard_summary(
    summary: str,
    state: WorkingState,
    *,
    later: WorkingState | None = None,
    max_chars: int | None = None,
    earlier: str | None = None,
) -> GuardResult:
    """``summary`` with every missing pinned fact restored and replaced values cut.

    ``later`` is the state with the messages kept after the checkpoint merged in: a value
    they correct is not restored and is cut from the checkpoint too, so the checkpoint
    never contradicts the conversation that follows it. ``earlier`` is the previous
    checkpoint the summary was written from: a rule it lists backs the same rule in the
    new one (see :func:`_without_unbacked_rules`). With ``max_chars`` the result,
    restored facts included, is cut back to that size: detail lines go first (Done,
    Critical Context, Failed Approaches, Key Decisions …), lines that state a pinned fact
    and the rules never go (see :func:`trim_to`).
    """
    original = summary
    current = later or state
    stale = current.superseded_values()
    retired = current.retired_texts()
    flat = normalize_ws(summary)
    with_restored, flat_restored = summary, flat
    missing: dict[str, list[PinnedFact]] = {}
    for fact in pinned_facts(state):
        if later is not None and (
            normalize_ws(fact.text) in retired or states_stale(fact.line, stale)
        ):
            continue  # corrected by a message the checkpoint is followed by
        if later is not None:
            fact = replace(
                fact,
                text=stale_note(fact.text, stale),
                line=stale_note(fact.line, stale),
                whole=None if fact.whole is None else stale_note(fact.whole, stale),
            )
        seen = (summary, flat) if fact.kind == "identifier" else (with_restored, flat_restored)
        if not _present(fact, *seen):
            missing.setdefault(fact.section, []).append(fact)
            # restored once: a fact that is a restored goal, or a value a fact restored to
            # Critical Context states, is not restored a second time
            if fact.kind == "fact" or fact.kind == "goal":
                with_restored += "\n" + fact.line
                flat_restored += " " + normalize_ws(fact.line)
            if fact.kind == "fact":
                summary, flat = summary + "\n" + fact.line, flat + " " + normalize_ws(fact.line)

    head, tail = split_tail(original)
    turn = TURN_SPLIT.search(head)
    body, split_part = (head[: turn.start()], head[turn.start() :]) if turn else (head, "")

    restored: list[GuardChange] = []
    earlier_rules = _rule_items(earlier.split("\n")) if earlier else []
    lines, dropped = _without_unbacked_rules(body.split("\n"), state, earlier_rules)
    if split_part:  # the split turn's own summary is a model's text too
        split_lines, split_dropped = _without_unbacked_rules(
            split_part.split("\n"), state, earlier_rules
        )
        split_part, dropped = "\n".join(split_lines), dropped + split_dropped
    for section in ("constraints", "goal", "blocked", "critical"):
        facts = missing.get(section)
        if not facts:
            continue
        lines, title = _insert(lines, section, [fact.line for fact in facts])
        restored.extend(
            GuardChange("restored", fact.kind, fact.text, title, fact.entry_id) for fact in facts
        )

    stale_changes: list[GuardChange] = []
    unmarked = "\n".join(lines) + split_part
    marked = _mark_stale(unmarked, current, stale_changes)
    if marked.count("\n") < unmarked.count("\n"):  # a section may have lost its last line
        marked = without_empty_sections(marked)
    if max_chars is not None:
        pinned = pinned_facts(state)
        rules = [f.text for f in pinned if f.kind == "constraint"]
        marked = trim_to(marked, max_chars - len(tail), [f.text for f in pinned], rules)
    return GuardResult(marked + tail, tuple(restored), tuple(stale_changes), tuple(dropped))


UNBACKED_SHARE = 0.5
"""A rule line is backed when this share of its topic words stands in one thing the state
holds from the user (a rule, a statement, a request) or from an earlier checkpoint's rules."""


def _rule_items(lines: list[str]) -> list[str]:
    """The texts of the Constraints items of a checkpoint's lines."""
    kinds = _section_kinds(lines)
    return [
        split_entry_suffix(item_text(line))[0]
        for index, line in enumerate(lines)
        if kinds.get(index) == "constraints" and _is_item(line)
    ]


def _without_unbacked_rules(
    lines: list[str], state: WorkingState, earlier_rules: Collection[str] = ()
) -> tuple[list[str], list[GuardChange]]:
    """``lines`` without the Constraints items that nothing the user wrote backs.

    A model summarizer may invent a rule, or copy one a previous model invented; the next
    round would read it back and keep it for good. The state knows what the user said:
    a rule line whose words stand in none of its records is nobody's rule and goes (a
    paraphrase of a real rule shares its words and stays; a rule the guard pins is
    restored verbatim anyway). A rule of the previous checkpoint (``earlier_rules``) is
    backed by it: its messages are no longer here to back it, and a checkpoint synopsis
    guarded kept only backed rules. With nothing to check against, nothing is dropped."""
    backing = [
        topic_words(lower_same(text))
        for text in (
            *(c.text for c in state.constraints),
            *(f.text for f in state.facts if f.source == "user"),
            *(g.text for g in state.goals),
            *(d.text for d in state.decisions if d.source == "user"),
            *(fact.line for fact in pinned_facts(state)),
            *earlier_rules,
        )
    ]
    if not backing:
        return lines, []
    kinds = _section_kinds(lines)
    kept: list[str] = []
    dropped: list[GuardChange] = []
    for index, line in enumerate(lines):
        if kinds.get(index) == "constraints" and _is_item(line):
            text, _ = split_entry_suffix(item_text(line))
            words = topic_words(lower_same(text))
            if words and not any(
                len(words & known) >= UNBACKED_SHARE * len(words) for known in backing
            ):
                dropped.append(
                    GuardChange("dropped", "constraint", text, SECTION_TITLES["constraints"])
                )
                continue
        kept.append(line)
    return kept, dropped


TRIM_ORDER: tuple[str | None, ...] = (
    "done",
    "critical",
    "suffix_context",
    "failed",
    "decisions",
    "next",
    "early_progress",
    "in_progress",
    "goal",
    "original_request",
    "blocked",
    None,
)
"""Sections whose lines go first when a checkpoint is over its size (a rule never goes)."""


def trim_to(text: str, max_chars: int, keep: list[str], rules: Collection[str] = ()) -> str:
    """``text`` without its least important bullet lines until it fits ``max_chars``.

    First the placeholders of empty sections go; then lines section by section in
    :data:`TRIM_ORDER`, oldest (topmost) first, sparing the lines that state one of
    ``keep`` (the pinned facts). A cap is a cap: when the pinned lines alone exceed it,
    detail goes before substance — the quoted sentence after a value, then the values,
    then the statements, then the open failures and the later goals (:data:`LAST_RESORT`).
    The Constraints section, a split turn's request that states one of ``rules`` (the
    user's rules: such a request is listed as the rule, not under Constraints) and the
    first goal always stay, so the result can remain over the size when those alone
    exceed it.
    """
    if len(text) <= max_chars:
        return text
    text = without_empty_sections(text)
    if len(text) <= max_chars:
        return text
    lines = text.split("\n")
    kind_of = _section_kinds(lines)
    kept = [normalize_ws(k) for k in keep if k]

    def spared(line: str) -> bool:
        flat = normalize_ws(line)
        return any(k in flat for k in kept)

    size = len(text)
    dropped: dict[int, None] = {}  # in the order the lines went
    for kind in TRIM_ORDER:
        size = _drop(lines, kind_of, {kind}, size, max_chars, dropped, spared)
    if size > max_chars:
        for index, line in enumerate(lines):
            if index not in dropped and kind_of.get(index) in _VALUE_SECTIONS:
                short = _QUOTE.sub("", line)
                size -= len(line) - len(short)
                lines[index] = short
    first_goal = next((i for i, k in kind_of.items() if k == "goal" and _is_item(lines[i])), -1)
    flat_rules = [normalize_ws(rule) for rule in rules if rule]
    said_rules = {
        index
        for index, kind in kind_of.items()
        if kind == "original_request" and any(r in normalize_ws(lines[index]) for r in flat_rules)
    }
    for kinds, which in LAST_RESORT:
        if size <= max_chars:
            break

        def chosen(line: str, which: str = which) -> bool:
            is_fact = line.startswith(FACT_LABEL)
            return which == "any" or (which == "fact") == is_fact

        protected = {first_goal, *said_rules}
        size = _drop(lines, kind_of, kinds, size, max_chars, dropped, _is_rule, protected, chosen)
    _take_back(lines, dropped, max_chars)
    result = "\n".join(line for index, line in enumerate(lines) if index not in dropped)
    return without_empty_sections(result) if size > max_chars or dropped else result


def _take_back(lines: list[str], dropped: dict[int, None], max_chars: int) -> None:
    """Take back (out of ``dropped``) the lines that fit after all: the drops count each
    line only, but a section they empty loses its heading too, so the text often ends up
    well below the cap — the last line to go (the most important) is tried first, each
    measured in the whole text as it would stand."""

    def size(without: Collection[int]) -> int:
        kept = "\n".join(line for index, line in enumerate(lines) if index not in without)
        return len(without_empty_sections(kept))

    current = size(dropped)
    for index in reversed(list(dropped)):
        if current + len(lines[index]) + 1 > max_chars:
            continue  # the line alone (its heading aside) is more than the room left
        grown = size(dropped.keys() - {index})
        if grown <= max_chars:
            del dropped[index]
            current = grown


_VALUE_SECTIONS = frozenset({"critical", "suffix_context"})
_QUOTE = re.compile(r" — “[^”]*”")
LAST_RESORT: tuple[tuple[frozenset[str], str], ...] = (
    (_VALUE_SECTIONS, "value"),
    (_VALUE_SECTIONS, "fact"),
    (frozenset({"blocked"}), "any"),
    (frozenset({"goal", "original_request"}), "any"),
    (frozenset(kind for kind in TRIM_ORDER if kind is not None), "any"),
)
"""What goes, in this order, when the pinned lines alone exceed the cap; last, a line of
any other section that states a pinned fact (a choice that quotes it): a cap is a cap."""


def _section_kinds(lines: list[str]) -> dict[int, str | None]:
    marks = headings(lines)
    kind_of: dict[int, str | None] = {}
    for position, mark in enumerate(marks):
        for index in range(mark.line + 1, section_end(lines, marks, position)):
            kind_of[index] = mark.kind
    return kind_of


def _is_rule(line: str) -> bool:
    return line.startswith(CONSTRAINT_LABEL)  # a split turn's rule, in its Original Request


def _is_item(line: str) -> bool:
    return line.lstrip().startswith("- ") and line.strip() != _EMPTY


def _drop(
    lines: list[str],
    kind_of: dict[int, str | None],
    kinds: Collection[str | None],
    size: int,
    max_chars: int,
    dropped: dict[int, None],
    spared: Callable[[str], bool],
    protected: Collection[int] = (),
    chosen: Callable[[str], bool] = lambda _: True,
) -> int:
    """Drop bullet lines of ``kinds`` sections, topmost first, until ``size`` fits."""
    for index, line in unfenced(lines):
        if size <= max_chars:
            break
        if index in dropped or index in protected or kind_of.get(index, "-") not in kinds:
            continue
        if not _is_item(line) or spared(line) or not chosen(line):
            continue
        dropped[index] = None
        size -= len(line) + 1
    return size


_EMPTY = "- (none)"
_RULE = "---"


def without_empty_sections(text: str) -> str:
    """``text`` without the placeholders of empty sections, for a checkpoint over its size.

    A ``- (none)`` line goes; so does a heading under which nothing is left (a heading
    stays while a subsection of it holds something), and a ``---`` rule with nothing
    after it. Nothing that states anything is removed.
    """
    lines = text.split("\n")
    marks = headings(lines)
    if not marks:
        return text
    fenced = {index for index, _ in unfenced(lines)}

    def says_something(index: int) -> bool:
        line = lines[index].strip()
        return index not in fenced or (bool(line) and line not in (_EMPTY, _RULE))

    drop: set[int] = {i for i, line in enumerate(lines) if i in fenced and line.strip() == _EMPTY}
    for position, mark in enumerate(marks):
        end = section_end(lines, marks, position)
        inner = [i for i in range(mark.line + 1, end) if not any(m.line == i for m in marks)]
        if not any(says_something(i) for i in inner):
            drop.add(mark.line)
    # a rule (the split-turn separator) stays only when something follows it
    for index, line in enumerate(lines):
        if index in fenced and line.strip() == _RULE:
            after = [i for i in range(index + 1, len(lines)) if i not in drop]
            if not any(says_something(i) for i in after if not lines[i].startswith("#")):
                drop.add(index)
            else:  # the heading that follows it names the part it opens
                heading = next((m.line for m in marks if m.line > index), None)
                drop.discard(heading if heading is not None else -1)
    kept = [line for index, line in enumerate(lines) if index not in drop]
    squeezed: list[str] = []
    for line in kept:  # one blank line between sections is enough
        if not line.strip() and (not squeezed or not squeezed[-1].strip()):
            continue
        squeezed.append(line)
    return "\n".join(squeezed).strip("\n") + ("\n" if text.endswith("\n") else "")


def _present(fact: PinnedFact, summary: str, flat: str) -> bool:
    if fact.kind == "identifier":
        return contains_value(summary, fact.text)
    return normalize_ws(fact.text) in flat or (
        fact.whole is not None and normalize_ws(fact.whole) in flat
    )


# --- restoring into sections --------------------------------------------------------------


def _insert(lines: list[str], section: str, new_lines: list[str]) -> tuple[list[str], str]:
    """``lines`` with ``new_lines`` added at the end of ``section`` (created if absent)."""
    marks = headings(lines)
    for kind in _FALLBACK_SECTIONS[section]:
        for position, mark in enumerate(marks):
            if mark.kind == kind:
                end = _content_end(lines, mark.line, section_end(lines, marks, position))
                return lines[:end] + new_lines + lines[end:], SECTION_TITLES[kind]
    if section == "blocked":
        for position, mark in enumerate(marks):
            if mark.kind == "progress":
                end = _content_end(lines, mark.line, section_end(lines, marks, position))
                block = ["", f"### {SECTION_TITLES['blocked']}", *new_lines]
                return lines[:end] + block + lines[end:], SECTION_TITLES["blocked"]
        block = [f"## {SECTION_TITLES['progress']}", "", f"### {SECTION_TITLES['blocked']}"]
        return _new_section(lines, marks, "progress", block + new_lines), SECTION_TITLES["blocked"]
    block = [f"## {SECTION_TITLES[section]}", *new_lines]
    return _new_section(lines, marks, section, block), SECTION_TITLES[section]


def _content_end(lines: list[str], heading_line: int, end: int) -> int:
    """Where a section's content ends: before the blank lines that close it."""
    while end - 1 > heading_line and not lines[end - 1].strip():
        end -= 1
    return end


def _new_section(
    lines: list[str], marks: list[Heading], section: str, block: list[str]
) -> list[str]:
    """Insert a new top-level section where the checkpoint order puts it."""
    rank = CHECKPOINT_ORDER.index(section)
    for mark in marks:
        if (
            mark.level <= 2
            and mark.kind in CHECKPOINT_ORDER
            and CHECKPOINT_ORDER.index(mark.kind) > rank
        ):
            return lines[: mark.line] + block + [""] + lines[mark.line :]
    end = len(lines)
    while end > 0 and not lines[end - 1].strip():
        end -= 1
    separator = [""] if end > 0 else []
    return lines[:end] + separator + block + lines[end:]


# --- replaced values ----------------------------------------------------------------------


_REQUEST_TITLES = frozenset({SECTION_TITLES["goal"], SECTION_TITLES["original_request"]})


def _mark_stale(text: str, state: WorkingState, changes: list[GuardChange]) -> str:
    """Lines that state a replaced value: dropped when they do not state its replacement
    too, else the old value is cut out (corrected information leaves the checkpoint)."""
    stale = state.superseded_values()
    retired = state.retired_texts()
    if not stale and not retired:
        return text
    lines = text.split("\n")
    section = ""
    keep: list[str] = []
    fenced = {index for index, _ in unfenced(lines)}
    for index, line in enumerate(lines):
        if index not in fenced:
            keep.append(line)
            continue
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        body = normalize_ws(split_entry_suffix(item_text(line))[0])
        stated = [old for old in stale if contains_value(line, old)]
        if section in _REQUEST_TITLES and not line.startswith("#"):
            keep.append(stale_note(line, stale))  # retire_line's rule for a request line
            changes.extend(GuardChange("marked", "superseded", old, section) for old in stated)
            continue
        if body in retired:
            changes.append(GuardChange("marked", "superseded", body, section))
            continue
        if not stated:
            shown = line if line.startswith("#") else retire_line(line, stale, retired)
            if shown is None:  # an earlier cut of a retired statement
                changes.append(GuardChange("marked", "superseded", body, section))
            else:
                keep.append(shown)
            continue
        changes.extend(GuardChange("marked", "superseded", old, section) for old in stated)
        if (
            line.startswith(("#", FACT_LABEL))
            or not states_stale_outside_code(line, stale)
            or (section.startswith("Constraints") and not rule_out_of_date(line, stale))
        ):  # a rule that holds another value of its own keeps it, the old one cut
            shown = (
                stale_note(line, stale)
                if line.startswith("#")
                else retire_line(line, stale, retired)
            )
            if shown is not None:
                keep.append(shown)
    return "\n".join(keep)
