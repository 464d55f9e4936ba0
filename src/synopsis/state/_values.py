"""Identifiers and values, their slots, and the values the user replaced.

A value is kept verbatim under the text it was written as. Values the user states get a
*slot* — what they are for (``budget``, ``deadline``, ``port`` …), read from the words of
their sentence — so that a later value for the same slot replaces them however it is
worded: "$800" and "keep spend under five hundred dollars" are both budgets, and the
numbers differ. Single-valued slots (budget, deadline) take any new value as the current
one; others change only when the sentence says so ("actually", "change", "now", "不是 …").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from synopsis.state import _patterns as pat
from synopsis.state import rules
from synopsis.state._memo import remembered
from synopsis.state._numbers import amount_value
from synopsis.state._text import MAX_CONTEXT, sentence_around, sentence_spans, span_of, window
from synopsis.state.model import Identifier, Source, ToolCallRecord, Written

_CORRECTION = rules.pattern("correction")
"""A word that makes a value in its sentence its slot's new value (the rule records)."""
_OLD_MARKER = rules.pattern("old-marker")
_TRIM = ".,;:!?`'\"“”‘’()[]{}<>，。；：！？"
_CONTRASTS = tuple(r for r in rules.rules("replace") if r.label == "new-not-old")
"""The replacement record that says which name is the right one (it also runs on what
the assistant says, as a name in code is the same thing however it is reported)."""
_MANY_VALUED = frozenset({"date", "amount"})
"""Slots a conversation holds many values of at once: the day one leaves and the day one
comes back, a price and a deposit."""
NOT_FROM_ASSISTANT = frozenset({"path", "color"})
MAX_REPORTED = 12
"""Values kept from one tool result (the first ones: replies lead with what matters)."""
MAX_REPORTED_CHARS = 8000
"""Kinds too common in the assistant's prose to be worth keeping from it."""


class ValueBook:
    """The identifiers of a working state under construction, keyed by their text."""

    def __init__(self, identifiers: tuple[Identifier, ...]) -> None:
        self.identifiers = {i.value: i for i in identifiers}

    # --- what the user says -----------------------------------------------------------------

    def user_values(self, text: str, low: str, entry_id: str | None) -> None:
        """Values in a user message, with their slots and any replacement they state."""
        found = pat.find_identifiers(text)
        budget_words = pat.STRONG_BUDGET_WORDS.search(low) is not None
        if not found and not budget_words:
            for start, end in sentence_spans(text):
                if _CORRECTION.search(low, start, end) or _names_a_replacement(low[start:end]):
                    self._replacements(text, low, start, end, entry_id)
            return
        spans = sentence_spans(text)
        grouped: dict[tuple[int, int], list[pat.Found]] = {span: [] for span in spans}
        for item in found:
            grouped[span_of(spans, item.start)].append(item)
        for (start, end), items in grouped.items():
            if budget_words and not any(i.kind == "amount" for i in items):
                bare = _bare_budget(text, low, start, end, items)
                if bare is not None:
                    items = [*items, bare]
            if items:
                self._sentence_values(text, low, start, end, items, entry_id)
            elif _CORRECTION.search(low, start, end) or _names_a_replacement(low[start:end]):
                self._replacements(text, low, start, end, entry_id)

    def _sentence_values(
        self,
        text: str,
        low: str,
        start: int,
        end: int,
        items: list[pat.Found],
        entry_id: str | None,
    ) -> None:
        sentence_low = low[start:end]
        correction = _CORRECTION.search(sentence_low) is not None
        valued: list[tuple[pat.Found, str | None, bool]] = []
        for item in items:
            slot = slot_of(item, sentence_low)
            if correction and slot in ("amount", "date"):
                slot = self._latest_slot(item.kind) or slot
            before = low[max(start, item.start - 30) : item.start]
            valued.append((item, slot, _OLD_MARKER.search(before) is not None))
        news = [(i, s) for i, s, old in valued if not old]
        replaced_any = False
        for item, slot, old in valued:
            if not old or slot is None:
                continue
            new = next((n for n, s in news if s == slot), None)
            if new is not None and new.value != item.value:
                self._supersede(item, slot, new.value, entry_id, sentence_around(text, item.start))
                replaced_any = True
            else:
                news.append((item, slot))  # "from X" with nothing replacing it: a plain value
        news += [(i, s) for i, s, old in valued if old and s is None]
        news.sort(key=lambda pair: pair[0].start)
        # a slot whose old value the sentence names ("um 17:00, nicht um 7:00") has that
        # value replaced, not every other value of it ("um 6:00 ist Mittagspause")
        named = {slot for item, slot, old in valued if old and slot is not None}
        for item, slot in news:
            context = sentence_around(text, item.start)
            # a correction of a slot that holds one value replaces it; of a kind of value
            # a conversation holds many of (dates, amounts), the statement it corrects is
            # found by its subject (extract's supersede), not every value of the kind
            supersede = (
                slot is not None
                and slot not in named
                and (slot in pat.SINGLE_VALUED_SLOTS or (correction and slot not in _MANY_VALUED))
            )
            self._assert_value(item, slot, entry_id, context, supersede)
        if (correction or _names_a_replacement(sentence_low)) and not replaced_any:
            self._replacements(text, low, start, end, entry_id)

    def _latest_slot(self, kind: str) -> str | None:
        """The slot of the latest value of ``kind`` in force ("actually make it $500")."""
        for record in reversed(self.identifiers.values()):
            if (
                record.kind == kind
                and record.source in ("user", "summary")
                and record.slot
                and record.superseded_by is None
            ):
                return record.slot
        return None

    def _assert_value(
        self,
        item: pat.Found,
        slot: str | None,
        entry_id: str | None,
        context: str,
        supersede: bool,
    ) -> None:
        record = self.identifiers.get(item.value)
        if (
            record is not None
            and record.source == "user"
            and (entry_id is None or entry_id in record.asserted_in)
        ):
            return  # this very statement was merged before
        if supersede and slot is not None:
            normal = _normal(item.kind, item.value)
            others = [
                other
                for other in self.identifiers.values()
                if other.slot == slot
                and other.superseded_by in (None, item.value)  # (ranked with those it replaced)
                and other.value != item.value
                and _normal(other.kind, other.value) != normal
            ]
            for other in _most_about(others, _clause_words(context, item.value)):
                if other.superseded_by is None:
                    self.identifiers[other.value] = replace(other, superseded_by=item.value)
        asserted = (entry_id,) if entry_id is not None else ()
        if record is None:
            self.identifiers[item.value] = Identifier(
                item.value, item.kind, entry_id, "user", context, slot, None, asserted
            )
            return
        self.identifiers[item.value] = replace(
            record,
            source="user",
            slot=slot or record.slot,
            entry_id=record.entry_id if record.source == "user" else entry_id,
            context=record.context if record.source == "user" else context,
            superseded_by=None if supersede else record.superseded_by,
            asserted_in=record.asserted_in + asserted,
        )

    def _supersede(
        self, item: pat.Found, slot: str, new: str, entry_id: str | None, context: str
    ) -> None:
        record = self.identifiers.get(item.value)
        if record is None:
            asserted = (entry_id,) if entry_id is not None else ()
            self.identifiers[item.value] = Identifier(
                item.value, item.kind, entry_id, "user", context, slot, new, asserted
            )
        elif record.superseded_by is None and not (
            entry_id in record.asserted_in and record.asserted_in[-1] != entry_id
        ):  # read again, a statement does not replace what a later message restated
            self.identifiers[item.value] = replace(record, superseded_by=new, slot=slot)

    def contrasted(self, text: str) -> None:
        """A name set against the one it replaces, whoever says it ("use `parentUuid`
        (not `parentUiuid`)", the assistant taking up the user's "typo, it's actually
        parentUuid"): the old name is replaced, so no checkpoint line states it."""
        if "`" not in text:
            return
        low = pat.lower_same(text)
        for rule in _CONTRASTS:
            for match in rule.compiled.finditer(low):
                old = text[match.start("old") : match.end("old")].strip(_TRIM)
                new = text[match.start("new") : match.end("new")].strip(_TRIM)
                if old and new and old != new:
                    self.retire(old, new)

    def _replacements(
        self, text: str, low: str, start: int, end: int, entry_id: str | None
    ) -> None:
        """A replaced value that is not a typed one ("use X instead of Y", "不是 Y，是 X")."""
        for rule in (*rules.rules("replace"), *rules.rules("substitute")):
            if not rule.applies_to(low):  # another language's record
                continue
            for match in rule.compiled.finditer(low, start, end):
                old, new = (text[a:b].strip(_TRIM) for a, b in _old_and_new(match))
                if not old or not new or old == new or len(old) > 60 or len(new) > 60:
                    continue
                slot = "replace:" + old.lower()
                context = window(text[start:end].strip(), match.start() - start, MAX_CONTEXT)
                self._assert_value(
                    pat.Found("value", new, 0, 0), slot, entry_id, context, supersede=False
                )
                self._supersede(pat.Found("value", old, 0, 0), slot, new, entry_id, context)

    def retire(self, old: str, new: str) -> None:
        """``old`` was replaced by ``new`` (an update of the same kind of value): remembered
        as superseded, so no checkpoint line states it as current."""
        record = self.identifiers.get(old)
        if record is None:
            self.identifiers[old] = Identifier(old, "value", None, "user", "", None, new)
        elif record.superseded_by is None:
            self.identifiers[old] = replace(record, superseded_by=new)

    # --- what others say ----------------------------------------------------------------------

    def values(
        self,
        text: str,
        entry_id: str | None,
        source: Source,
        kinds: frozenset[str],
        *,
        exclude: bool = False,
        written: Written = "typed",
    ) -> None:
        """Values stated by the assistant, a tool call, or a document the user pasted
        (``written``): kept, never given a slot.

        Only ``kinds`` are kept (with ``exclude``: all but ``kinds``).
        """
        for item in pat.find_identifiers(text):
            known = self.identifiers.get(item.value)
            if known is not None:
                self._referred(known, entry_id)
                continue
            if (item.kind in kinds) == exclude:
                continue
            context = sentence_around(text, item.start)
            self.identifiers[item.value] = Identifier(
                item.value, item.kind, entry_id, source, context, written=written
            )

    def _referred(self, record: Identifier, entry_id: str | None) -> None:
        """A value a tool's output reported is named again by the assistant or one of its
        calls: the work refers to it (``asserted_in`` records where), so it is not one of
        the hundreds of hashes and ids a listing names and nothing uses."""
        mark = entry_id or "?"
        if record.written == "tool" and mark not in record.asserted_in:
            self.identifiers[record.value] = replace(
                record, asserted_in=(*record.asserted_in, mark)
            )

    def reported(self, text: str, entry_id: str | None, limit: int = MAX_REPORTED) -> None:
        """Values a tool reported (an order id in a JSON reply, a version in a listing):
        the first ``limit`` new ones of a result, kept as reference, never pinned."""
        added = 0
        for item in pat.find_identifiers(text[:MAX_REPORTED_CHARS]):
            if added >= limit:
                return
            if item.kind in NOT_FROM_ASSISTANT or item.value in self.identifiers:
                continue
            context = sentence_around(text, item.start)
            self.identifiers[item.value] = Identifier(
                item.value, item.kind, entry_id, "tool", context, written="tool"
            )
            added += 1

    def summary_value(self, kind: str, value: str, context: str, entry_id: str | None) -> None:
        """A value an earlier checkpoint states, with the slot its context gives it."""
        if value in self.identifiers:
            return
        slot = slot_of(pat.Found(kind, value, 0, 0), pat.lower_same(context))
        self.identifiers[value] = Identifier(value, kind, entry_id, "summary", context, slot)

    def summary_values(self, body: str, entry_id: str | None) -> None:
        for item in pat.find_identifiers(body):
            if item.kind not in NOT_FROM_ASSISTANT:
                context = sentence_around(body, item.start)
                self.summary_value(item.kind, item.value, context, entry_id)


def slot_of(item: pat.Found, sentence: str) -> str | None:
    """What a value is for, from the words of its (lowered) sentence."""
    kind = item.kind
    if kind == "amount":
        return "budget" if pat.BUDGET_WORDS.search(sentence) else "amount"
    if kind == "date":
        return "deadline" if pat.DEADLINE_WORDS.search(sentence) else "date"
    if kind == "port":
        return "port"
    if kind == "version":
        return "version" if pat.RELEASE_WORDS.search(sentence) else None
    if kind == "url":
        return "url"
    return None


def _normal(kind: str, value: str) -> str:
    """A value as compared for a change: amounts by their number, the rest by their text."""
    if kind == "amount":
        number = amount_value(value)
        if number is not None:
            return f"amount:{number:g}"
    return value.strip().lower()


def _bare_budget(
    text: str, low: str, start: int, end: int, items: list[pat.Found]
) -> pat.Found | None:
    """A budget stated without a currency ("预算 800", "budget of five hundred")."""
    if not pat.STRONG_BUDGET_WORDS.search(low, start, end):
        return None
    taken = [(i.start, i.end) for i in items]
    for match in pat.BARE_NUMBER.finditer(low, start, end):
        if any(s <= match.start() < e for s, e in taken):
            continue
        value = text[match.start() : match.end()].strip()
        if value:
            return pat.Found("amount", value, match.start(), match.end())
    return None


_ARGUMENT = re.compile(r"(?:^|, )(\w+)=(.*?)(?=, \w+=|$)")
_CALL_WINDOW = 20
"""Earlier calls of the same tool and arguments a call is compared with."""


def superseded_call_values(calls: Iterable[ToolCallRecord]) -> list[tuple[str, str]]:
    """(old, new) values the agent's own calls replaced: a later call of the same tool with
    the same arguments but one, whose value changed ("date=2026-06-13" → "date=2026-06-14"
    in the same search), retires the old value — unless a later call that nothing replaced
    still uses it. Only values with a digit (dates, amounts, ids) count: a changed search word is a
    new question, not a corrected value."""
    families: dict[tuple[str, tuple[str, ...]], list[tuple[int, dict[str, str]]]] = {}
    replaced: list[tuple[int, str, str]] = []
    arguments: list[dict[str, str]] = []
    for index, record in enumerate(calls):
        args = dict(_ARGUMENT.findall(record.target)) if "=" in record.target else {}
        arguments.append(args)
        if len(args) < 2:
            continue
        family = families.setdefault((record.name, tuple(sorted(args))), [])
        for earlier, old_args in reversed(family[-_CALL_WINDOW:]):
            changed = [key for key in args if args[key] != old_args[key]]
            if len(changed) == 1:
                old, new = old_args[changed[0]], args[changed[0]]
                if any(c.isdigit() for c in old) and len(old) >= 4:
                    replaced.append((earlier, old, new))
                break
        family.append((index, args))
    if not replaced:
        return []
    gone = {earlier for earlier, _, _ in replaced}

    def still_used(old: str, after: int) -> bool:
        return any(
            old in args.values() for i, args in enumerate(arguments[after:], after) if i not in gone
        )

    return [(old, new) for earlier, old, new in replaced if not still_used(old, earlier)]


_NAMING_SLOT = (
    r"(?:user ?name|name|handle|login|account|e-?mail|host(?:name)?|server|region|zone|"
    r"branch|repo(?:sitory)?|database|db|bucket|project|org(?:anization)?|workspace|"
    r"namespace|cluster|domain|endpoint|queue|topic|table|schema|time ?zone|package manager)"
)
_NAMES_EN = re.compile(
    r"\b(?:my|our|the|his|her|their|its|your)\s+(?:[\w-]+\s+){0,2}?"
    + _NAMING_SLOT
    + r"\s+(?:is|was|will be|=|:|is called|is named)\s+(?P<v>[^\s,.;!?]+)",
    re.IGNORECASE,
)
"""A declarative naming fact: "My github username is kiliman", "Our main table is orders"."""
_NAMES_ZH = re.compile(
    r"(?:名字|用户名|账号|帐号|邮箱|主机|服务器|分支|仓库|数据库|项目|区域|地区|时区|表名)"
    r"\s*(?:是|叫|为|用)\s*\S"
)
_CODE_NAME = re.compile(r"`[^`\s]+`|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[a-z0-9]+_[a-z0-9_]+\b")
"""A name as code writes it: in backticks, camelCase, snake_case."""
_IT_IS = re.compile(
    r"\b(?:it|that|this|the right one)(?:'s|’s| is| should be)\s+(?:actually\s+|really\s+|"
    r"called\s+|named\s+)?(?P<v>`[^`\s]+`|[^\s,.;!?]+)",
    re.IGNORECASE,
)
_NOT_A_NAME = frozenset(
    {"a", "an", "the", "to", "not", "that", "this", "it", "fine", "good", "ok", "okay", "done",
     "here", "there", "same", "different", "empty", "missing", "wrong", "right", "correct",
     "important", "fixed", "broken", "down", "up", "new", "old", "ready", "set", "private",
     "public", "mine", "yours", "unknown", "unclear", "too", "very", "still", "also"}
)  # fmt: skip


def names_a_value(sentence: str) -> bool:
    """Whether a sentence without a value of a known shape names something all the same:
    what a slot is called ("My github username is kiliman", "仓库叫 atlas-web"), or the
    name in code that something really is ("Typo, it's actually parentUuid"). Such a
    statement is a fact, kept verbatim; its name has no shape a pattern would know."""
    match = _NAMES_EN.search(sentence)
    if match is not None and match.group("v").lower().strip("`'\"") not in _NOT_A_NAME:
        return True
    if _NAMES_ZH.search(sentence):
        return True
    said = _IT_IS.search(sentence)
    return said is not None and _CODE_NAME.fullmatch(said.group("v").strip(".,;:!?")) is not None


_HUNK = re.compile(r"^@@ [^\n]* @@", re.MULTILINE)
"""A unified diff's hunk header: the lines after it are context, removed and added."""
_MIN_RETIRED = 4
"""The shortest value a diff retires (as with :func:`superseded_call_values`)."""
_DIGIT_TOKEN = re.compile(r"[\w^~<>=.+-]*\d[\w^~.+-]*")


@remembered
def is_diff(text: str) -> bool:
    """Whether ``text`` holds a unified diff's hunk (asked of every tool result, and of
    the same results again on each pass: remembered per text)."""
    return _HUNK.search(text) is not None


def removed_line(line: str) -> bool:
    """Whether a line of a diff is one it removes (not the ``---`` file header)."""
    return line.startswith("-") and not line.startswith("---")


def _names_a_replacement(sentence_low: str) -> bool:
    """Whether a sentence names an old value and its replacement with words that say one
    takes the other's place (the ``substitute`` records: "rename out_dir to build_dir",
    "thay vì X thì đổi tên thành Y", "nimm uv statt pip"): no correction word is needed."""
    return rules.any_match("substitute", sentence_low)


def _old_and_new(match: re.Match[str]) -> tuple[tuple[int, int], tuple[int, int]]:
    """The spans of a ``replace`` or ``substitute`` match's old and new values: its
    ``old``/``new`` groups, or ``old2``/``new2`` (``old3``/``new3``) for a record with
    more word orders."""
    groups = match.re.groupindex
    for old, new in (("old", "new"), ("old2", "new2"), ("old3", "new3")):
        if old in groups and match.group(old) is not None:
            return match.span(old), match.span(new)
    return (0, 0), (0, 0)


def diff_replacements(text: str) -> list[tuple[str, str]]:
    """(old, new) values an edit's diff replaced: a removed line and the added line in its
    place that differ in one value ('-  "@types/react": "19.2.7",' then '+ … "^18.3.3",')
    — the old value is no longer what the file says."""
    if not is_diff(text):
        return []
    pairs: list[tuple[str, str]] = []
    removed: list[str] = []
    added: list[str] = []

    def pair_up() -> None:
        if len(removed) == len(added):
            for old_line, new_line in zip(removed, added, strict=True):
                old = [t for t in _DIGIT_TOKEN.findall(old_line) if t not in new_line]
                new = [t for t in _DIGIT_TOKEN.findall(new_line) if t not in old_line]
                if len(old) == 1 and len(new) == 1:
                    pairs.append((old[0].strip(_TRIM), new[0].strip(_TRIM)))
        removed.clear()
        added.clear()

    for line in text.split("\n"):
        if removed_line(line):
            if added:
                pair_up()
            removed.append(line[1:])
        elif line.startswith("+") and not line.startswith("+++"):
            added.append(line[1:])
        else:
            pair_up()
    pair_up()
    # a short number ("2" → "16") is too common to retire everywhere it is written
    return [(old, new) for old, new in pairs if len(old) >= _MIN_RETIRED and old != new and new]


_CLAUSE = re.compile(r"[,;:，；：。]|\s(?:and|but|while|und|aber|y|et|e|и)\s|和|而")
_CLAUSE_WORD = re.compile(r"[^\W\d_]{4,}|[\u4e00-\u9fff]{2}")


def _clause_words(context: str, value: str) -> set[str]:
    """The words of the clause of ``context`` that holds ``value`` (what it is about)."""
    at = context.find(value)
    if at < 0:
        return set()
    starts = [m.end() for m in _CLAUSE.finditer(context, 0, at)]
    after = _CLAUSE.search(context, at + len(value))
    clause = context[starts[-1] if starts else 0 : after.start() if after else len(context)]
    return {word.lower() for word in _CLAUSE_WORD.findall(clause)}


def _most_about(others: list[Identifier], words: set[str]) -> list[Identifier]:
    """Of the values a new one of their slot would replace, those whose clause is most
    about what the new one's is: "the staging proxy now listens on 9091" replaces the
    staging proxy's port, not the production proxy's named beside it. All of them when
    no clause says more than another."""
    if len(others) < 2 or not words:
        return others
    overlap = [len(words & _clause_words(o.context, o.value)) for o in others]
    best = max(overlap)
    return [o for o, n in zip(others, overlap, strict=True) if n == best] if best else others
