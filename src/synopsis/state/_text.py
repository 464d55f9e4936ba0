"""Small text helpers shared by the extractor, the renderer and the guard.

Everything here is about keeping text *verbatim*: sentences are cut out of messages, never
rewritten; long ones are windowed, never paraphrased; a value is found only where it
stands as a whole token, so ``$800`` is not found inside ``$8000``.
"""

from __future__ import annotations

import hashlib
import re

from synopsis.state._memo import remembered

MAX_SENTENCE = 300
"""Longest constraint, goal or decision text kept (a verbatim window of the sentence)."""

_WS = re.compile(r"\s+")


@remembered  # asked of the same texts by many rules, and again in every pass over a log
def normalize_ws(text: str) -> str:
    """Whitespace runs collapsed to one space, ends stripped (for presence checks)."""
    return _WS.sub(" ", text).strip()


def window(sentence: str, at: int, limit: int = MAX_SENTENCE) -> str:
    """At most ``limit`` characters of ``sentence`` around position ``at``, verbatim.

    Long "sentences" are pasted logs or text without punctuation; the part around the
    keyword is what carries the rule. The cut snaps to whitespace when one is near.
    """
    if len(sentence) <= limit:
        return sentence
    start = max(0, min(at - limit // 3, len(sentence) - limit))
    end = start + limit
    if start > 0:
        space = sentence.find(" ", start, start + 30)
        if 0 <= space < at:
            start = space + 1
    if end < len(sentence):
        space = sentence.rfind(" ", end - 30, end)
        if space > at:
            end = space
    return sentence[start:end].strip()


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
"""Control characters, line and paragraph separators, and lone surrogates (which no
encoder can write)."""
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_TAG = re.compile(
    r"<(?=/?(?:summary|checkpoint|conversation|previous[-_]summary|read[-_]files|"
    r"modified[-_]files|instructions|system|user|assistant|tool|[\w-]*(?:prompt|context|summary|"
    r"instructions|reminder))(?:\s[^<>]*)?>)",
    re.IGNORECASE,
)
"""The tags a checkpoint or the prompts around it are wrapped in (ours, Pi's, a harness'
role and reminder tags): defused in content. Any other ``<…>`` (``<short-id>``, a
generic ``List<T>``, ``<div>``) is a value and stays verbatim."""


def one_line(text: str) -> str:
    """``text`` as one checkpoint line: control characters and line breaks escaped
    (``\\n``, ``\\u0007``) and tags defused (``<summary>`` → ``‹summary>``), so content —
    a tool name, a path, a quoted error — can open no section and close no wrapper."""
    if _CONTROL.search(text):
        text = _CONTROL.sub(lambda m: _ESCAPES.get(m.group(), f"\\u{ord(m.group()):04x}"), text)
    return _TAG.sub("‹", text) if "<" in text else text


def cap(text: str, limit: int) -> str:
    """The first ``limit`` characters of ``text`` (a verbatim prefix)."""
    return text if len(text) <= limit else text[:limit].rstrip()


_UNSPACED = re.compile(
    r"[\u2e80-\u2fdf\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]"
)
"""Scripts written without spaces between words (CJK ideographs, kana, their punctuation
and full-width forms): a boundary between two of their characters is a place to cut."""
_CLIP_REACH = 2
"""How far back a cut may go for a word boundary: half the room at most (a longer word
is cut: its opening still says more than nothing)."""


def _splits_word(before: str, after: str) -> bool:
    """Whether a cut between these two characters falls inside a word of a spaced script
    ("exam|ple"); between ideographs, or at a hyphen or a slash, it does not."""
    joined = (before.isalnum() or before in "_'’") and (after.isalnum() or after in "_'’")
    return joined and not (_UNSPACED.match(before) or _UNSPACED.match(after))


def clip(text: str, limit: int, mark: str = "…") -> str:
    """``text`` in at most ``limit`` characters, ``mark`` saying that some were cut: the
    cut goes back to a space when one is near, else to the nearest boundary that splits
    no word (in Chinese or Japanese, any boundary between characters) — a quote never
    ends in half a word ("the v…") — and only a word longer than the reach is cut."""
    if len(text) <= limit:
        return text
    end = max(1, limit - len(mark))
    reach = range(end, max(0, end - end // _CLIP_REACH - 1), -1)
    spaced = next((i for i in reach if text[i].isspace()), None)
    if spaced is None:
        spaced = next((i for i in reach if i and not _splits_word(text[i - 1], text[i])), end)
    return text[:spaced].rstrip() + mark


def _is_word_char(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}$")


def find_value(text: str, value: str, start: int = 0) -> int:
    """Position of ``value`` in ``text`` standing as a whole token, or -1.

    Only ASCII letters, digits and ``_`` count as joining characters, so ``PAY-4821`` is
    found in ``PAY-4821号`` but ``800`` is not found in ``8000`` or ``800.5``.
    """
    if not value:
        return -1
    index = text.find(value, start)
    if index < 0:  # most look-ups: the value is not in the text at all
        return -1
    check_before = _is_word_char(value[0])
    check_after = _is_word_char(value[-1])
    while index >= 0:
        end = index + len(value)
        ok = not (check_before and index > 0 and _is_word_char(text[index - 1]))
        if ok and check_after and end < len(text):
            nxt = text[end]
            digit_next = end + 1 < len(text) and text[end + 1].isdigit()
            if (
                _is_word_char(nxt) and not (nxt == "T" and digit_next and _ISO_DAY.match(value))
            ) or (nxt in ".," and digit_next):
                ok = False  # "2026-06-20" stands whole in "2026-06-20T16:00" (ISO 8601)
        if ok:
            return index
        index = text.find(value, index + 1)
    return -1


def contains_value(text: str, value: str) -> bool:
    return find_value(text, value) >= 0


def states_stale(text: str, stale: dict[str, str]) -> bool:
    """Whether ``text`` states a replaced value without also stating its replacement."""
    return any(
        contains_value(text, old) and not contains_value(text, new) for old, new in stale.items()
    )


_DIGIT = re.compile(r"\d")


def out_of_date(text: str, stale: dict[str, str]) -> bool:
    """Whether ``text`` states a replaced value and no value of its own besides: a rule
    that also holds another one ("必须 3 月 15 号之前寄到…文一西路 588 号" once the address
    moved) still says something — the deadline — and only the old value is cut from it."""
    if not states_stale(text, stale):
        return False
    for old in stale:
        if contains_value(text, old):
            text = cut_value(text, old)
    return _DIGIT.search(text) is None


_CODE_SPAN = re.compile(r"`[^`\n]*`")


_CALL_ERROR = re.compile(r" failed: .*$")


def states_stale_outside_code(text: str, stale: dict[str, str]) -> bool:
    """Whether ``text`` states a replaced value outside its code spans and a call's error:
    a call target (```start=2026-06-20T16:00```) and the error it got ("RJX 63 has no
    window seats left") record what an earlier step met, so the old value is cut from
    them and the line — the call, its outcome, its error — stays."""
    return states_stale(_CALL_ERROR.sub("", _CODE_SPAN.sub(" ", text)), stale)


_OLD_MARK = re.compile(
    r"(?:[,;]?\s*\b(?:not|rather than|instead of|from|was|no longer|previously)\s+"
    r"(?:the\s+|around\s+|about\s+)?|[，,]?\s*(?:不是|而不是|原来是|从))$",
    re.IGNORECASE,
)


_CONTRAST = re.compile(
    r"(?:\b(?:not|rather than|instead of|no longer|nicht|statt|anstatt|anstelle von|no|"
    r"en lugar de|en vez de|pas|au lieu de|não|em vez de|non|invece di|не|вместо)\s+"
    r"(?:(?:the|at|on|um|am|a las|à|às|le|el|la|в|на)\s+)?|(?:不是|而不是|不再是|并非)\s*)$",
    re.IGNORECASE,
)
"""The words that set a value against the one it replaces ("16:00, not 14:00", "nicht um
9:30", "不是下午 2 点"), right before the old value. "from" is not among them: "from 9:00
to 17:00" is a range, not a correction."""


def marked_old(text: str, value: str) -> bool:
    """Whether ``text`` sets ``value`` against another as the old one (see
    :data:`_CONTRAST`), wherever it stands in it."""
    at = find_value(text, value)
    while at >= 0:
        if _CONTRAST.search(text, 0, at) is not None:
            return True
        at = find_value(text, value, at + 1)
    return False


def cut_value(text: str, value: str) -> str:
    """``text`` with each whole-token ``value`` removed: with the word before it that marks
    it as the old one ("not", "from", "不是"), else replaced by "…"."""
    at = find_value(text, value)
    while at >= 0:
        mark = _OLD_MARK.search(text, 0, at)
        start = mark.start() if mark is not None else at
        filler = "" if mark is not None else "…"
        text = text[:start] + filler + text[at + len(value) :]
        at = find_value(text, value, start + len(filler))
    return text


# --- sentences ------------------------------------------------------------------------------

_ABBREVIATIONS = ("Dr.", "Mr.", "Mrs.", "Ms.", "Prof.", "vs.", "e.g.", "i.e.")
_NOT_AN_END = "".join(rf"(?<!\b{re.escape(word)})" for word in _ABBREVIATIONS) + (
    r"(?<!^\d\.)(?<!\n\d\.)(?<!^\d\d\.)(?<!\n\d\d\.)"
)
"""A title or an abbreviation ends no sentence: "with Dr. Amara Osei" is one statement;
nor does the number of a list item that opens a line ("1. keep 7 days")."""
_SENTENCE_BREAK = re.compile(rf"(?<=[.!?]){_NOT_AN_END}\s+|(?<=[。！？；;])|\n")
_INLINE_BREAK = re.compile(rf"(?<=[.!?]){_NOT_AN_END}\s+|(?<=[。！？；;])")
_LEADING_BULLET = re.compile(r"^(?:[-*+•>]|\d{1,3}[.)])\s+")
_CODE_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
MAX_CONTEXT = 200


def prose(text: str) -> str:
    """Text without fenced code: rules and decisions are written in prose."""
    return _CODE_FENCE.sub("\n", text) if "```" in text else text


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence or line of ``text``, as they stand (not stripped)."""
    return list(_sentence_spans(text))


def _split_sentences(text: str) -> tuple[tuple[int, int], ...]:
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_BREAK.finditer(text):
        if match.start() > start:
            spans.append((start, match.start()))
        start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    return tuple(spans or [(0, len(text))])


_sentence_spans = remembered(_split_sentences)


def sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of ``text``, stripped and without a leading bullet marker."""
    spans = []
    for start, end in sentence_spans(text):
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        bullet = _LEADING_BULLET.match(text[start:end])  # ("^" never matches at a pos > 0)
        if bullet is not None:
            start += bullet.end()
        if start < end:
            spans.append((start, end))
    return spans


def span_of(spans: list[tuple[int, int]], position: int) -> tuple[int, int]:
    """The span of ``spans`` (sorted, disjoint) that holds ``position`` (or precedes it)."""
    low, high = 0, len(spans) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if spans[middle][0] <= position:
            low = middle
        else:
            high = middle - 1
    return spans[low]


def sentence_around(text: str, position: int) -> str:
    """The sentence of ``text`` holding ``position``, windowed to :data:`MAX_CONTEXT`."""
    line_start = text.rfind("\n", 0, position) + 1
    line_end = text.find("\n", position)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    offset = position - line_start
    start = 0
    for match in _INLINE_BREAK.finditer(line):
        if match.end() > offset:
            line = line[: match.start()]
            break
        start = match.end()
    return window(line[start:].strip(), max(0, offset - start), MAX_CONTEXT)


@remembered  # the same keys (a request, a command) are digested again at every message
def digest(key: str) -> str:
    """A short digest of ``key``: how folded records are remembered."""
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
