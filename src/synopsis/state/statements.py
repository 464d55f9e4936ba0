"""The stages that turn the typed part of a user message into statements (after
:mod:`synopsis.state.attribution` has segmented the turn and attributed its parts):
classify → spot values → (the builder assigns slots and supersedes).

* **classify**: each typed sentence is a *rule* (a limit, prohibition or preference), a
  *fact* (a declarative sentence with specific values or names: versions, regions,
  hosts, people, paths, ids, amounts, dates), a question, or other.
* **whole statements**: a rule whose sentence carries no value takes the neighbouring
  sentence that does ("Budget is 300 euros. Don't go over it without asking me.").
* **spot values**: the classes of value a sentence states (``date``, ``time``,
  ``count:people``, ``duration``, ``amount``, ``version``, ``address`` …) so that a later
  update of the same class can supersede it, however it is worded.

The cues are data (:mod:`synopsis.state.rules`); this module is the mechanism.
"""

from __future__ import annotations

import re
from typing import Literal

from synopsis.state import _patterns as pat
from synopsis.state._memo import remembered
from synopsis.state._text import MAX_SENTENCE, sentences, window
from synopsis.state.rules import any_match, foreign_language
from synopsis.state.rules import masked as rules_masked

SentenceKind = Literal["rule", "fact", "question", "other"]

_INNER_NAME = re.compile(r"(?<=[a-z0-9,;:)] )[A-Z][a-z]+(?:[A-Z][a-z]+)*\b|\b[A-Z]{2,}[a-z]*\d*\b")
_DIGIT = re.compile(r"\d")
_BREAKS = re.compile(r"[^\S\n]*\n\s*")


# --- classify ------------------------------------------------------------------------------


def is_rule(sentence_low: str) -> bool:
    """A sentence that states a rule, limit or preference (the English rule words only in
    a sentence no other language's module reads as its own: see
    :func:`synopsis.state.rules.foreign_language`)."""
    masked = rule_masked(sentence_low)
    return bool(
        (pat.CONSTRAINT_EN.search(masked) and foreign_language(sentence_low) is None)
        or pat.CONSTRAINT_ZH.search(masked)
        or any_match("rule", masked)
    )


HAN = re.compile(r"[\u3400-\u9fff]")
"""A Han character (CJK ideographs, extension A included)."""
_ZH_EMPTY = re.compile(
    r"不要|不能|不准|不许|不可以|必须|一定|千万|务必|这样|那样|这么|那么|[别再又了啊吧呢哦乱搞弄做来去也都就还]"
)
MIN_HAN_SUBJECT = 2
"""A Chinese rule sentence with fewer Han characters than this besides its rule and
function words names only its verb ("别搞混", "不要乱来")."""


def has_subject(sentence: str, low: str) -> bool:
    """Whether a rule sentence names what it is about: a content word, a value or a name.
    "but yeah, just don't." and "别搞混。" name nothing — on their own they are the
    speaker's emphasis on something said before (which stands as its own statement), and
    as rules they would tell the next reader nothing."""
    if has_specific(sentence, low):
        return True
    if HAN.search(low):
        content = HAN.findall(_ZH_EMPTY.sub("", low))
        return len(content) >= MIN_HAN_SUBJECT or bool(re.search(r"[a-z]{3}", low))
    words = {w for w in _WORD3.findall(rule_masked(low)) if w not in _NOT_TOPIC}
    return bool(words - _EMPTY_WORDS)


_WORD3 = re.compile(r"[^\W\d_][^\W_]{2,}")
"""A word of three letters or more, in any script ("legacy", "русском")."""
_EMPTY_WORDS = frozenset(
    {"yeah", "yes", "okay", "fine", "right", "really", "please", "again", "but", "and", "the",
     "seriously", "honestly", "absolutely", "definitely", "literally", "obviously", "ever",
     "don", "not", "you", "that", "this", "just", "it's", "too", "now", "all", "any", "one",
     "can", "for", "was", "are", "doing", "does", "did", "got", "get"}
)  # fmt: skip


def rule_masked(sentence_low: str) -> str:
    """The sentence with rule words that state no rule blanked out (beliefs, negated
    obligations, clauses that ask or describe, fault reports: see the ``not-rule`` and
    ``fault-report`` records)."""
    masked = sentence_low
    if pat.NOT_A_RULE.search(sentence_low):
        masked = pat.NOT_A_RULE.sub(lambda m: " " * len(m.group()), sentence_low)
    return rules_masked("fault-report", rules_masked("not-rule", masked))


def has_specific(sentence: str, low: str) -> bool:
    """Whether a sentence names something specific: a value, a name, a place, a version."""
    if _DIGIT.search(sentence) or any_match("specific", low) or pat.find_identifiers(sentence):
        return True
    return _INNER_NAME.search(sentence) is not None


_ASKING_ORDER = re.compile(
    r"^(?:(?:or|and|but|so|then|hm+|ok)[,.]?\s+)?(?:is|are|was|were|do|does|did|can|could|will|"
    r"would|shall|should|must|has|have|had)(?:n['’]?t)?\s+(?:it|that|this|there|they|we|you|i|he|"
    r"she|these|those)\b"
)
"""A question without its question mark: an auxiliary before its subject ("or is that
only on weekdays", "should I use zod or yup")."""
_TAG_QUESTION = re.compile(r",\s*(?:right|correct|yes|yeah|isn['’]?t it|or not)\s*[.!]*$")
"""A question without its question mark, by the tag that asks to confirm it ("the file
must be in the root, right")."""


_ASKING_CLAUSE = re.compile(
    r"(?:^|\b(?:then|so|but|and|or)\s+)(?:how|what|why|where|when|which|who)\s+(?:will|would|"
    r"can|could|do|does|did|should|shall|is|are|am|was|were)\s+(?:i|we|you|u|it|they|he|she|"
    r"this|that)\b"
)
"""A question typed without its question mark by its clause: a question word before an
auxiliary and its subject ("… then how will i deploy it")."""
_CLOSING_ASK = re.compile(
    r"\b(?:can|could|would|will) (?:we|you|u) (?:do|make|manage|get|fix) (?:that|this|it)\s*[.!]*$|"
    r"\bis (?:that|this|it) (?:possible|doable|feasible)\s*[.!]*$"
)
"""A closing ask whether what the sentence describes can be done ("… then a page for the
code, can we do that"): the user's proposal of how the work goes, a statement of theirs
to keep, not a standing rule."""


def classify(sentence: str, low: str) -> SentenceKind:
    if (
        sentence.rstrip().endswith(("?", "？"))
        or _ASKING_ORDER.match(low)
        or _TAG_QUESTION.search(low)
        or _ASKING_CLAUSE.search(low)
    ):
        return "question"
    if is_rule(low):
        if _CLOSING_ASK.search(low):
            return "fact"  # the user's plan, asked whether it can be done
        return "rule" if has_subject(sentence, low) else "other"
    if has_specific(sentence, low) or _has_rule_word(low):
        return "fact"  # a rule word that states no rule still marks words worth keeping
    return "other"


def _has_rule_word(low: str) -> bool:
    return bool(pat.CONSTRAINT_EN.search(low) or pat.CONSTRAINT_ZH.search(low))


_LIST_ITEM = re.compile(r"\n[ \t]*(?:[-*+•]|\d{1,3}[.)])\s")
"""A line break that opens a list item: the items of a list are separate statements."""
_WORDS = re.compile(r"[^\W\d_]{2}")
_LABEL_LINE = re.compile(
    r"^(?:[a-z]+ )?(?:requirements?|rules?|constraints?|restrictions?|conditions|must-haves?|"
    r"ground rules|要求|规则|规矩|约束|限制|条件|注意事项)\s*[:：]\s*$"
)
"""A line that only announces rules ("Requirements:", "要求："): the lines under it are."""
_LABEL_START = re.compile(
    r"^(?:[a-z]+ )?(?:requirements?|rules?|constraints?|restrictions?|conditions|must-haves?|"
    r"ground rules|要求|规则|规矩|约束|限制|条件|注意事项)\s*[:：]\s*\S"
)


BRIEF_CHARS = 700
"""Typed text this long in one message is a brief: the specification of one piece of
work, whose "should"s are that work's requirements (see :func:`is_requirement`)."""


def is_requirement(sentence_low: str) -> bool:
    """Whether a rule sentence states a requirement of the work asked for rather than a
    standing rule: its rule words are only an obligation laid on the thing being built
    ("the export should keep the header", "Buton basılınca renk değiştirmeli") or the
    emphasis on a step ("make sure the cache is warmed"), the ``requirement`` records.
    In a brief such sentences are the request's content, one after another; a standing
    word ("never", "asla"), a prohibition or a limit on the one addressed ("only use …")
    beside them keeps the sentence a rule."""
    return not is_rule(rules_masked("requirement", sentence_low))


def brief_requirement(text: str, sentence_low: str) -> bool:
    """Whether a sentence of ``text`` is a requirement of the work in a brief."""
    return len(text) >= BRIEF_CHARS and is_requirement(sentence_low)


def classify_all(text: str, low: str, spans: list[tuple[int, int]]) -> list[SentenceKind]:
    """:func:`classify` of each sentence, with the items of a list under a line that
    announces rules ("Requirements:\n1. …\n2. …") taken as rules — until a blank line;
    in a brief (:data:`BRIEF_CHARS`), a requirement of the work (:func:`is_requirement`)
    is no rule but a statement of the user's, kept as a fact ("it should work the other
    way round" is also how a user reports a fault)."""
    kinds = [classify(text[start:end], low[start:end]) for start, end in spans]
    for index, (start, end) in enumerate(spans):
        if kinds[index] == "rule" and brief_requirement(text, low[start:end]):
            kinds[index] = "fact"  # what the user said of the work, kept as said
    under_label = on_label_line = False
    for index, (start, end) in enumerate(spans):
        if index:
            between = text[spans[index - 1][1] : start]
            under_label = under_label and "\n\n" not in between
            on_label_line = on_label_line and "\n" not in between
        if _LABEL_LINE.match(low[start:end]):
            under_label = True
            kinds[index] = "other"
            continue
        if _LABEL_START.match(low[start:end]):
            on_label_line = True  # "Requirements: A. B." — the rest of the line, too
        # items of the list are rules; on the label's own line, what states no fact of
        # its own ("Requirements: only G trains. A window seat for me.")
        promoted = ("fact", "other") if under_label else ("other",) if on_label_line else ()
        if kinds[index] in promoted and _WORDS.search(low[start:end]):
            kinds[index] = "rule"
    return kinds


# --- whole statements --------------------------------------------------------------------


def statement(
    text: str, spans: list[tuple[int, int]], index: int, at: int, subject: int | None = None
) -> str:
    """The rule in ``spans[index]`` as a whole statement: with the rule sentences next to
    it on the same line (a rule and its scope or exception, said in one breath: "Only
    packages/ui. Nobody touches packages/api."), and with the neighbouring sentence that
    carries its value when they carry none; windowed around the rule word ``at`` (an
    offset in ``text``) so its value and negation stay. ``subject`` is the sentence that
    names what it is about, when the caller knows it (see :func:`subject_of`)."""
    first = last = index
    while first > 0 and _same_line_rule(text, spans, first - 1, first):
        first -= 1
    while last + 1 < len(spans) and _same_line_rule(text, spans, last + 1, last):
        last += 1
    own = text[spans[index][0] : spans[index][1]]
    start, end = spans[first][0], spans[last][1]
    if last + 1 < len(spans) and _tells_its_value(text, spans, last + 1, end):
        end = spans[last + 1][1]  # "… stay masked. There's a role for that, analyst_masked."
    before = _subject_before(text, spans, first, end)
    start = spans[before if subject is None else min(before, subject)][0]
    if not has_specific(own, pat.lower_same(own)):
        for other in (first - 1, last + 1):
            if 0 <= other < len(spans):
                o_start, o_end = spans[other]
                neighbour = text[o_start:o_end]
                low = pat.lower_same(neighbour)
                if (
                    not neighbour.rstrip().endswith(("?", "？"))
                    and has_specific(neighbour, low)
                    and "\n\n" not in text[min(start, o_start) : max(end, o_end)]
                    and not _LIST_ITEM.search(text[min(start, o_start) : max(end, o_end)])
                ):
                    start, end = min(start, o_start), max(end, o_end)
                    break
    # One line: a statement that runs over a line break is joined with a space.
    return _BREAKS.sub(" ", window(text[start:end], at - start, MAX_SENTENCE))


MAX_SUBJECT_BACK = 2
"""How many sentences before a rule that points back ("Never restart it") its subject may
lie: the one it points at, and one more when that one names no subject of its own
("Could you add a granola bar? Something nut-free. Don't go above $6 for it.")."""


def subject_of(text: str, spans: list[tuple[int, int]], index: int) -> int:
    """The sentence before ``spans[index]`` that a statement opening with a pronoun is about
    ("They moved our window. It's now Saturday 23:00."), else ``index`` itself."""
    low = pat.lower_same(text[spans[index][0] : spans[index][1]])
    if _OPENS_WITH_PRONOUN.match(low) is None:
        return index
    return _subject_before(text, spans, index, spans[index][1], pointing=True, most=1)


_OPENS_WITH_PRONOUN = re.compile(
    r"^(?:(?:and|but|so|ok|okay)[,]?\s+)?(?:it|that|this)(?:['’]s| is| was)\b"
)


def _subject_before(
    text: str,
    spans: list[tuple[int, int]],
    first: int,
    end: int,
    pointing: bool | None = None,
    most: int = 2,
) -> int:
    """The first sentence of a rule statement starting at ``spans[first]``: the sentences
    before it in its paragraph that name what it points back at ("The staging box is
    shared. Never restart it during the day.": the rule is about the staging box), at
    most ``most`` of them (:data:`MAX_SUBJECT_BACK`)."""
    if pointing is None:
        pointing = points_back(pat.lower_same(text[spans[first][0] : end]))
    taken = 0
    while pointing and first > 0 and taken < min(most, MAX_SUBJECT_BACK):
        o_start, o_end = spans[first - 1]
        between = text[o_end : spans[first][0]]
        before = text[o_start:o_end]
        low = pat.lower_same(before)
        if (
            "\n\n" in between
            or _LIST_ITEM.search(between)
            or end - o_start > MAX_SENTENCE
            or classify(before, low) == "rule"
        ):
            break
        first, taken = first - 1, taken + 1
        pointing = points_back(low) or _ELLIPTICAL.match(low) is not None
    return first


_ELLIPTICAL = re.compile(
    r"^(?:something|anything|one|ones|ideally|preferably|nothing)\b|^(?:最好|要那种|那种|就要)"
)
"""A phrase that goes on with the sentence before it ("Something with a nut-free label."):
its subject is there."""


_POINTS_BACK = re.compile(
    r"(?<=[a-z] )(?:it|them)\b(?!['’]s| is| was)|\bthere\b(?!['’]s| is| are| was| were| will| has)|"
    r"(?<!\bso )\b(?:that|those)\s+(?!(?:the|a|an|it|its|is|was|are|were|we|you|i|they|he|she|"
    r"all|every|each|no|any|our|your|my|their|this|there|way|much|many|one|if|when|to|and|or|"
    r"can|will|would|should|must|might|may|does|do|did|has|have|had|not)\b)[a-z]{3,}|"
    r"它|(?:^|[，,]\s*)(?:那里|那儿|那边)"
)


def points_back(low: str) -> bool:
    """Whether a rule names its subject only by pointing back at it ("never restart it",
    "nothing in that bucket", "别动它"; not "It starts May 12, …", which names what it is
    about as it goes on): the sentence it points at belongs to it."""
    return _POINTS_BACK.search(low) is not None


def _tells_its_value(text: str, spans: list[tuple[int, int]], other: int, end: int) -> bool:
    """Whether the sentence after a rule points back at it and names the value it is
    about ("There's a role for that, analyst_masked"): not a rule or a question of its
    own, in the same paragraph."""
    o_start, o_end = spans[other]
    sentence = text[o_start:o_end]
    low = pat.lower_same(sentence)
    between = text[end:o_start]
    return (
        "\n\n" not in between
        and not _LIST_ITEM.search(between)
        and refers_back(low)
        and has_specific(sentence, low)
        and classify(sentence, low) == "fact"
    )


def _same_line_rule(text: str, spans: list[tuple[int, int]], other: int, near: int) -> bool:
    """Whether sentence ``other`` is a rule about the same thing as its neighbour ``near``,
    on the same line: a rule and its complement or exception ("Only invoices of type A.
    Never issue type B invoices."), not two rules said one after the other."""
    o_start, o_end = spans[other]
    between = text[min(o_end, spans[near][1]) : max(o_start, spans[near][0])]
    if "\n" in between:
        return False
    sentence = text[o_start:o_end]
    low = pat.lower_same(sentence)
    if classify(sentence, low) != "rule" or brief_requirement(text, low):
        return False  # (a brief's requirement is no rule: see classify_all)
    near_text = text[spans[near][0] : spans[near][1]]
    near_low = pat.lower_same(near_text)
    if refers_back(low if other > near else near_low):
        return True  # "Budget is 300 euros. Don't go over it." — the second is about the first
    return bool(topic_words(low) & topic_words(near_low))


_TOPIC = re.compile(r"[a-z][a-z0-9]{3,}|(?=([\u4e00-\u9fff]{2}))")
_NOT_TOPIC = frozenset(
    {"that", "this", "with", "from", "have", "will", "just", "please", "also", "they", "them",
     "then", "there", "what", "when", "about", "after", "before", "into", "your", "make",
     "don't", "never", "always", "only", "must", "should", "need", "want", "here", "where",
     "anything", "everything", "thing", "things", "sure", "okay", "yeah",
     "不要", "必须", "一定", "不能", "可以", "我们", "你们", "这个", "那个", "一下", "时候",
     "之前", "以后", "没有", "不用", "别的", "就是", "一律", "所有"}
)  # fmt: skip


def topic_words(low: str) -> set[str]:
    """Content words (four letters or more) and CJK character pairs of a lower-cased
    sentence, without rule words: roughly what it is about."""
    words = {m.group(1) or m.group() for m in _TOPIC.finditer(low)}
    return {w for w in words if w and w not in _NOT_TOPIC}


_REFERS_BACK = re.compile(
    r"\b(?:it|them)\b|\b(?:that|this|those)\s*(?:[.,;:!?]|$|\b(?:for|without|unless|again)\b)|"
    r"^(?:(?:and|but|also|so) )?(?:that|this)(?:['’]s| is| was)\b|"
    r"^(?:超了|超过了|超出|高于|低于|多于|少于)"
)
"""A pronoun that points back at something said before ("Don't go over it", "Don't go
above that for a box"; "超了先问我" names no subject at all)."""


def refers_back(low: str) -> bool:
    """Whether a sentence is about what the sentence before it named: the neighbour that
    holds its value belongs to it (and when that value is replaced, so is it)."""
    return _REFERS_BACK.search(low) is not None


def rule_topic(rule: str) -> set[str]:
    """What a rule statement is about: the topic words of its rule sentences, and of the
    sentences whose value a rule sentence refers back to ("keep the bar at 80%. Don't let
    it drop." is about the bar); not of a fact said beside it ("Always write the tests
    first. The team is 9 people." is not about the team)."""
    parts = [pat.lower_same(rule[start:end]) for start, end in sentences(rule)]
    rules = [low for low in parts if is_rule(low)]
    if any(refers_back(low) for low in rules):
        rules = parts
    return {word for low in rules for word in topic_words(low)}


# --- values and their classes --------------------------------------------------------------

_BRANCH = r"[`'\"][\w./-]+[`'\"]|[a-z0-9][\w.-]*[/_-][\w./-]*[a-z0-9]|[a-z][\w.-]*\d[\w.]*"
"""A branch name as written: quoted, or with a separator or a digit (not a plain word)."""
_PEOPLE = r"people|persons?|guests|adults|children|kids|pax|个人|人|位"
_VALUE_CLASSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "count:people",
        re.compile(
            rf"(?<![\w.])\d+\s*(?:{_PEOPLE})(?![a-z])|"
            r"\b(?:be|are) (?P<v>\d+)\b(?! ?(?!in total|total|altogether|of us)[a-z%])"
        ),
    ),
    (
        "port",
        re.compile(
            r"\bport (?:is |number is |=\s*|:\s*|(?:moved |changed )?to )?(?:now )?"
            r"(?P<v>\d{2,5})\b|"
            r"端口\s*(?:号)?\s*(?:[是为:：]|改成|改为|换成|改到|调到)?\s*(?P<v2>\d{2,5})|"
            # the word in other languages, a few words before the number ("el puerto es 6432")
            r"\b(?:puerto|porta|portu|порт)\b[^\d.;!?\n]{0,30}?(?P<v3>\d{2,5})\b(?!\.\d)"
        ),
    ),
    ("count:rooms", re.compile(r"(?<![\w.])\d+\s*(?:rooms?|nights?|间|晚)(?![a-z])")),
    (
        "duration",
        re.compile(
            r"(?<![\w.])\d+\s*(?:days?|weeks?|months?|years?|hours?|minutes?|天|周|个月|小时|分钟)"
            r"(?![a-z])"
        ),
    ),
    (
        "time",
        re.compile(
            r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|(?<![\d:])\d{1,2}:\d{2}(?![\d:])|"
            r"(?:上午|下午|晚上|凌晨|中午|早上)\s*[\d一二三四五六七八九十]{1,3}\s*点|"
            r"[\d一二三四五六七八九十]{1,3}\s*点"
        ),
    ),
    (
        "date",
        re.compile(
            r"\b\d{4}-\d{2}-\d{2}\b|\bthe \d{1,2}(?:st|nd|rd|th)\b|"
            r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b|"
            r"\b\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|"
            r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|"
            # weekdays in the other languages with rules: a weekday replaces a weekday
            # ("mardi" → "jeudi", "thứ Hai" → "thứ Sáu"); "thứ hai" after "lần" is "the second"
            r"\b(?:lunes|martes|miércoles|jueves|viernes|sábado|domingo|"
            r"lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|"
            r"montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|"
            r"lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica|"
            r"(?:segunda|terça|quarta|quinta|sexta)-feira)\b|"
            r"(?<!lần )(?<!bước )(?<!phần )(?<!người )\bthứ (?:hai|ba|tư|năm|sáu|bảy)\b|"
            r"\bchủ nhật\b|"
            # Spanish and Portuguese: "el 19 de mayo", "12 de março"
            r"\b\d{1,2} de (?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|sept?iembre|"
            r"octubre|noviembre|diciembre|janeiro|fevereiro|março|maio|junho|julho|setembro|"
            r"outubro|novembro|dezembro)\b|"
            r"\d{1,2}\s*月\s*\d{1,2}\s*[日号]?|"
            # "5 号" of "张江路 368 弄 5 号" is a house number, not the 5th
            r"(?<![\d.])(?<![路街道巷弄])(?<![路街道巷弄]\s)\d{1,2}\s*号(?![楼院])|"
            r"(?:下|本|这)?[周星期礼拜]{1,2}[一二三四五六日天]"
        ),
    ),
    ("percent", re.compile(r"\d+(?:\.\d+)?\s*(?:%|percent)|\d+\s*个点")),
    (
        "amount",
        re.compile(
            r"[$€£¥]\s?\d(?:[\d,]*\d)?(?:\.\d+)?|\d(?:[\d,]*\d)?(?:\.\d+)?\s*(?:dollars?|usd|eur|"
            r"euros?|gbp|"
            r"yuan|rmb|元|块)(?![a-z])"
        ),
    ),
    (  # a bare number its price word names ("单价按 121.6 报", "the rate is 95")
        "amount",
        re.compile(
            r"(?:单价|价格|价钱|报价|总价|房价|票价|\b(?:unit )?price|\bcost|\bfee|\brate|\bfare)"
            r"\s*(?:按|为|是|改成|改为|调到|降到|涨到|is|of|at|to|=|:|：)?\s*(?:now\s+)?"
            r"(?P<v>\d+(?:\.\d+)?)(?!\d|\.\d|[%:/-]|\s*(?:%|percent|个点|折))"
        ),
    ),
    (  # a branch: a name shaped like one next to the word, or a conventional name where
        # a PR or merge is ("release/1.8 分支", "branch `hotfix-22`", "rebase onto main")
        "branch",
        re.compile(
            rf"(?:\bbranch|分支)\s*[:：]?\s*(?P<v>{_BRANCH})|(?P<v2>{_BRANCH})\s*(?:branch\b|分支)|"
            r"(?:(?:\b(?:pr|merge|rebase|checkout|push|base|target|onto|into|at)\b|挂|合)"
            r"[^\n。.!?]{0,12}?)\b(?P<v3>main|master|develop|dev|trunk)\b"
        ),
    ),
    ("version", re.compile(r"\b(?:v?\d+\.\d+(?:\.\d+)*)\b|[a-z]+:\d+(?:\.\d+)+")),
    (
        "address",
        re.compile(
            r"[\u4e00-\u9fff]{1,10}(?:路|街|大道|弄|胡同)\s*\d+\s*(?:弄|号)(?:\s*\d+\s*号)?|"
            r"\d+ [a-z]+ (?:street|st|road|rd|avenue|ave)\b"
        ),
    ),
    ("severity", re.compile(r"\bsev\s?\d\b|\bp[0-4]\b")),
    (  # a file or folder: absolute ("/etc/app/x.yaml", "~/notes", "C:\\srv\\app"), or
        # relative with a file name ("src/app/main.py"); not a URL's path, nor a flag or a
        # slash command ("cd /d", "/init")
        "path",
        re.compile(
            r"(?<![\w/.:~-])(?:(?:~|\.{1,2})/(?:[\w.-]+/)*|/(?:[\w.-]+/)+)[\w.-]*[\w-]|"
            r"\b[a-z]:\\[^\s\"'<>|,;]+|"
            r"(?<![\w/.:-])[\w-]+/(?:[\w.-]+/)*[\w-]+\.[a-z]{1,5}\b"
        ),
    ),
)


def value_classes(sentence: str) -> list[tuple[str, str]]:
    """(class, verbatim value) of each classified value in ``sentence``, left to right
    (in its first :data:`MAX_SENTENCE` × 2 characters: longer "sentences" are logs;
    remembered per sentence)."""
    return list(_value_classes(sentence))


def _classify_values(sentence: str) -> tuple[tuple[str, str], ...]:
    sentence = sentence[: 2 * MAX_SENTENCE]
    low = pat.lower_same(sentence)
    found: list[tuple[int, str, str]] = []
    taken: list[tuple[int, int]] = []
    for name, pattern in _VALUE_CLASSES:
        for match in pattern.finditer(low):
            if any(s < match.end() and match.start() < e for s, e in taken):
                continue
            taken.append((match.start(), match.end()))
            group = next(
                (g for g in ("v", "v2", "v3") if g in pattern.groupindex and match.group(g)),
                None,
            )
            start, end = match.span(group) if group else match.span()
            found.append((start, name, sentence[start:end].strip().strip("`'\"")))
    for match in _UNIT_COUNT.finditer(low):  # "8 consumers", "7 座": the unit is the slot
        unit = match.group("unit")
        if unit.isascii() and unit.endswith("s") and not unit.endswith("ss"):
            unit = unit[:-1]  # one slot for "1 consumer" and "8 consumers"
        if unit in _NOT_UNITS or any(s < match.end() and match.start() < e for s, e in taken):
            continue
        taken.append(match.span())
        found.append((match.start(), f"count:{unit}", sentence[match.start() : match.end()]))
    found.sort()
    return tuple((name, value) for _, name, value in found)


_value_classes = remembered(_classify_values)


_UNIT_COUNT = re.compile(
    r"(?<![\w.$€£¥:/-])\d+\s*(?P<unit>[a-z]{3,}(?![\w-])|[座套台辆张件个份箱盒])"
)
_NOT_UNITS = frozenset(
    {"and", "the", "for", "with", "from", "into", "than", "more", "less", "per", "times"}
    | {"that", "this", "are", "was", "were", "has", "had", "but", "not", "out", "off", "via"}
)
NUMERIC_CLASSES = ("count:", "percent", "amount", "duration")
"""Classes a bare number in an update ("we'll be 15", "final count is 134") may restate."""
_BARE_NUMBER = re.compile(r"(?<![\w.$€£¥:/-])\d+(?:\.\d+)?(?![\w.%:/-])")
_NOT_NUMBER = re.compile(
    r"\b(?:not|rather than|instead of)\s+(?:around\s+|about\s+)?(\d+)|不是\s*(\d+)"
)


def bare_numbers(sentence: str) -> list[str]:
    """The unclassified numbers of an update sentence, the replaced ones ("not 120") left out."""
    low = pat.lower_same(sentence[: 2 * MAX_SENTENCE])
    old = {g for m in _NOT_NUMBER.finditer(low) for g in m.groups() if g}
    return [n for n in _BARE_NUMBER.findall(low) if n not in old]


def replaced_numbers(sentence: str) -> set[str]:
    """The numbers an update names as the old ones ("134, not 120" → {"120"})."""
    low = pat.lower_same(sentence[: 2 * MAX_SENTENCE])
    return {g for m in _NOT_NUMBER.finditer(low) for g in m.groups() if g}


_OLD_VALUE = re.compile(
    r"[,;]?\s*\b(?:not|rather than|instead of|no longer)\s+(?:the\s+|around\s+|about\s+)?"
    # the old value whole, a version's inner dots too ("not 2.10.1")
    r"(?:[^\s,.;!?]|\.(?=\w))*\d(?:[^\s,.;!?]|\.(?=\w))*(?:\s+[a-z]+)?(?=[\s,.;!?]|$)|"
    r"[，,]?\s*(?:不是|而不是|不再是)\s*[^\s，。；,.;]*\d[^\s，。；,.;]*"
)


def without_old_values(text: str) -> str:
    """An update statement without the value it replaces ("134, not 120" → "134"): a
    checkpoint states the current value only; the old one stays in the state for audit."""
    return _OLD_VALUE.sub("", text) if is_update(pat.lower_same(text)) else text


def is_update(low: str) -> bool:
    return any_match("update", low)


def keeps_value(low: str) -> bool:
    return any_match("keep", low) and not any_match("update", low)


_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_ISO_DAY = re.compile(r"\d{4}-(\d{2})-(\d{2})")
_CN_DAY = re.compile(r"(\d{1,2})\s*月\s*(\d{1,2})")
_EN_DAY = re.compile(r"([a-z]{3})[a-z]*\.?\s+(\d{1,2})\b|(\d{1,2})\s+([a-z]{3})[a-z]*")


_ORDINAL_DAY = re.compile(r"^(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)$|^(\d{1,2})\s*[日号]$")


def same_day(a: str, b: str) -> bool:
    """Whether two dates name the same day: by (month, day) when both have a month, by
    the day of the month when one is a bare day ("the 28th", "28 号" and "June 28")."""
    key_a, key_b = date_key(a), date_key(b)
    if key_a is not None and key_b is not None:
        return key_a == key_b
    day_a = key_a[1] if key_a is not None else _bare_day(a)
    day_b = key_b[1] if key_b is not None else _bare_day(b)
    return day_a is not None and day_a == day_b


def _bare_day(value: str) -> int | None:
    match = _ORDINAL_DAY.match(value.strip().lower())
    return None if match is None else int(match.group(1) or match.group(2))


def date_key(value: str) -> tuple[int, int] | None:
    """(month, day) of a date however it is written ("2026-03-06", "3月6日", "March 6",
    "6 Mar"), so one date in two spellings is recognised as the same value."""
    low = value.lower()
    if match := _ISO_DAY.search(low):
        return int(match.group(1)), int(match.group(2))
    if match := _CN_DAY.search(low):
        return int(match.group(1)), int(match.group(2))
    if match := _EN_DAY.search(low):
        month, day = (
            (match.group(1), match.group(2)) if match.group(1) else (match.group(4), match.group(3))
        )
        if month in _MONTH_NAMES:
            return _MONTH_NAMES.index(month) + 1, int(day)
    return None
