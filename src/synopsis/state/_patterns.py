"""The patterns that recognise rules, requests, decisions and values in message text.

Kept in one module so the vocabulary (English and Chinese) can be read and extended in one
place. Every pattern is linear (no nested unbounded repeats over the same characters), so
scanning megabytes of transcript stays fast.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from synopsis.state._memo import TextMemo, remembered
from synopsis.state._numbers import CN_NUMERAL, NUMBER_WORDS

_APOS = "['’]"

# --- user rules, limits and preferences ------------------------------------------------

CONSTRAINT_EN = re.compile(
    rf"\b(?:must(?:n{_APOS}t)?|never|don{_APOS}?t|do not|only|always|"
    r"prefer(?:s|red|ably)?|avoid|make sure|ensure|should(?:n['’]t)?|needs to|"
    r"ha(?:ve|s) to|no more than|at most|at least|not allowed|forbidden|"
    r"under no circumstances|without|mandatory|required|"
    r"keep\b[^.!?\n]{0,40}?\b(?:under|below|within|less than)|stay (?:under|within|below)|"
    # "I'd like X to be …" states how things should be; "I'd like you to …" is a request.
    rf"i(?:{_APOS}d| would) rather|i(?:{_APOS}d| would) like\b(?! to\b)[^.!?\n]{{0,60}}?\bto be)\b"
)
CONSTRAINT_ZH = re.compile(
    r"不要|必须|务必|禁止|一定|不能|不得|请勿|不准|不许|千万|绝不|绝对不|决不|避免|确保|只|仅|"
    r"(?<![分特区类级识告个])别(?![人的])|不可|严禁|总是|始终|永远|每次都|优先|偏好|尽量|"
    r"不超过|至少|最多|以内|保持|"
    # Preferences and standing rules, each held to the wording that states one: "我希望"
    # but not "希望不大", "统一用" but not "统一的接口", "一律" but not "千篇一律".
    r"我们?(?:更|比较|还是|最|不太?|很)?喜欢|更喜欢|"
    r"我们?(?:更|还是|真心|非常|很|只|一直)?希望|希望(?:你|您|能|可以|以后|每次|所有|都|尽量|不要)|"
    r"(?<!千篇)一律|统一(?:用|使用|采用|改|换|命名|放|写|成|为|走|按|以|格式|风格|到)|"
    r"最好(?:用|使用|是|别|不要|能|先|在|把|都|只|还是)|倾向于|"
    r"我们?(?:一般|通常)?习惯(?:用|使用|把|在|先|于)"
)
NOT_A_RULE = re.compile(
    rf"\b(?:i|we)\s+(?:really\s+|just\s+)?(?:do not|don{_APOS}?t)\s+"
    r"(?:think|tink|know|understand|see|get|remember|care|mind|believe|recall)\b"
)
"""'I don't think …' states a belief, not a rule."""

# --- user requests ------------------------------------------------------------------------

_LEAD_IN = (
    r"(?:(?:ok(?:ay)?|alright|all right|yes|yeah|yep|so|now|then|and|great|good|cool|nice|"
    r"well|also|hm+|hey|next|first|finally)\b[,.!:]?\s+)*(?:please\s+|pls\s+)?"
)
GOAL_EN = re.compile(
    rf"^{_LEAD_IN}(?:i want|i{_APOS}d like|i would like|i need|we need|we want|we have to|"
    r"the goal|goal\b|objective|task\b|your task|can you|could you|would you|will you|"
    r"help me|let['’]?s|implement|add|fix|create|write|build|make|update|refactor|migrate|"
    r"apply|rewrite|redo|revert|rerun|restart|rebuild|reset|undo|generate|translate|summari[sz]e|"
    r"bump|publish|upgrade|downgrade|verify|validate|compare|"
    r"analy[sz]e|prepare|extract|insert|append|hide|disable|enable|simplify|rework|"
    r"restructure|reorgani[sz]e|integrate|research|brainstorm|suggest|propose|recommend|"
    r"calculate|estimate|download|upload|revise|rephrase|reword|proofread|shorten|"
    r"highlight|walk me through|go through|go over|"
    r"remove|delete|investigate|port|move|rename|read|run|check|test|find|change|replace|"
    r"set up|setup|configure|install|deploy|document|review|explain|show|open|copy|adjust|"
    r"split|convert|clean|improve|optimi[sz]e|debug|figure out|look into|look at|try|"
    r"book|order|cancel|refund|send|schedule|get|give|tell|plan)\b"
    # a verb that is also a noun names what happened ("upload failed: …", "test is red")
    r"(?![^\S\n]*(?::|(?:is|was|are|were|failed|fails|works|worked|succeeded|errors?)\b))"
)
GOAL_ZH = re.compile(
    r"^(?:好的?[，,]?|那么?[，,]?|现在[，,]?|接下来[，,]?|然后[，,]?)*"
    r"(?:请|帮我|麻烦|我想|我要|我需要|我们要|我们需要|需要你|能不能|可以帮|给我|把|实现|修复|"
    r"添加|创建|写|做|改|重构|迁移|删除|调查|预订|订|取消|退款)|目标|任务"
)
MIN_GOAL_CHARS = 6
ASIDE = re.compile(
    r"^(?:(?:oh|ah|and|also)[,\s]+)?(?:btw|by the way|off topic|unrelated|random question|"
    r"just curious|out of curiosity)\b|^(?:顺便问|另外问|题外话|随便问|哦对了|对了)"
)
"""A sentence said on the side ("btw, …", "顺便问下 …"): small talk, no request."""
WORK_QUESTION = re.compile(
    r"\b(?:you|your|why|how|where|what|which|can|could|would|will|should|is there|are there|"
    r"does|do|did)\b|你|您|为什么|为何|怎么|怎样|如何|哪|能不能|可不可以|是不是|要不要"
)
"""A question put to the agent about the work ("why isn't …?", "can we …?", "你看下…？"),
not a remark ("修好了没？")."""
_ASK_VERBS = (
    r"fix|move|change|add|remove|delete|drop|make|update|create|implement|troubleshoot|"
    r"investigate|debug|check|look into|figure out|find out|rename|revert|undo|switch|put|"
    r"tell|explain|write|rewrite|run|try|test|verify|replace|convert|clean up|"
    r"refactor|split|merge|commit|push|deploy|install|document|review|build|set up"
)
REQUEST_INSIDE = re.compile(
    rf"(?:\b(?:so|and|then|but|now|please|pls)|[,;:]|\s[-–—])[^\S\n]+(?:please[^\S\n]+|pls[^\S\n]+|"
    rf"just[^\S\n]+|also[^\S\n]+|go[^\S\n]+(?:and[^\S\n]+)?)?(?:{_ASK_VERBS})\b"
    r"(?![^\S\n]+(?:to|of|for|with|is|are|was|were)\b)[^\S\n]+[\w`'\"/.(-]"
)
"""An ask in the middle of a sentence: "… like i asked, so move it out of …", "…, and fix
that also", "… — please add a retry"; the verb is followed by what it acts on (not "use
of", "check is")."""
PROBLEM_REPORT = re.compile(
    rf"\b(?:(?:is|are|was|were)(?:[^\S\n]+still)?[^\S\n]+not|isn{_APOS}?t|aren{_APOS}?t|"
    rf"doesn{_APOS}?t|does not|don{_APOS}?t|do not|won{_APOS}?t|will not|can{_APOS}?t|cannot|"
    rf"didn{_APOS}?t|did not|no longer)"
    r"[^\S\n]+(?:work|show|load|render|display|appear|compile|build|run|start|pass|save|"
    r"open|connect|update|respond|exist)\w*|"
    r"\b(?:is|are) (?:still )?(?:broken|failing|empty|missing|wrong)\b|"
    r"\bstill (?:fails|failing|broken|crash\w*|shows|getting|the same)\b|"
    r"\bstill (?:an? |the )?[45]\d\d\b|还是\s*[45]\d\d|"
    r"\b(?:throws|getting|i get|i got|i see|we get) (?:an? |the |this |that )?(?:\w+ )?"
    r"\w*(?:error|exception|"
    r"traceback|warning)\b|不(?:能|行|工作|显示|生效)了?|报错|出错|失败了|没(?:有)?(?:显示|反应|生效)"
)
"""A report of something wrong ("the diffs no longer show", "still fails", "I get an
error", "页面不显示"): said to the agent, it asks for a fix."""
ACKNOWLEDGEMENT = re.compile(
    r"^(?:ok(?:ay)?|yes|yeah|yep|sure|continue|go on|go ahead|thanks?(?: you)?|great|nice|"
    r"继续|好的?|是的|谢谢|可以)[\s.!。！]*$"
)

# --- the assistant's stated next steps (its decisions: synopsis.state._choices) -----------

NEXT_STEP_ANYWHERE = re.compile(
    r"next|after that|afterwards|still need to|remaining step|todo:|接下来|下一步|然后我"
)
NEXT_STEP = re.compile(
    rf"^(?:next,|next step|next i{_APOS}ll|then i{_APOS}ll|after that,|afterwards,)|"
    r"\b(?:still need to|remaining steps?|todo:)|^(?:接下来|下一步|然后我)"
)

# --- what the assistant found -----------------------------------------------------------

DIAGNOSIS = re.compile(
    r"\b(?:the (?:real |actual |underlying )?(?:bug|problem|issue|cause|root cause|culprit|"
    r"failure|reason|fix|leak|regression)\b[^.\n]{0,60}?\b(?:is|was|are|were|lies|comes|happens)\b|"
    r"root cause\b|(?:is|are|was|were) caused by|turns out|found it\b|"
    r"(?:it|this|that|which) (?:drops|ignores|skips|loses|overwrites|leaks|swallows|truncates|"
    r"duplicates|never)\b|(?:fails|breaks|crashes|hangs|times out) (?:when|because|on|with|if)\b|"
    r"(?:doesn't|does not|never) (?:handle|support|reset|close|check|release|escape|await)\b|"
    r"(?:returns|responds with|rejects|limits?) [^.\n]{0,30}\b\d)|"
    r"问题(?:出)?在|原因是|根因|导致|是因为"
)
"""A diagnosis the agent states ("the bug is in parse_date, it drops the timezone", "the
API returns 429 above 10 req/s", "原因是 …"): what it found, that later steps build on."""
CODE_NAME = re.compile(r"`[^`\n]{2,60}`|\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]+\b")
"""A name from the code (quoted, snake_case, camelCase): what a diagnosis is about."""

# --- slots ----------------------------------------------------------------------------------

BUDGET_WORDS = re.compile(
    r"\b(?:budget|spend(?:ing)?|spent|costs?|price|pay(?:ing)?|afford|cap|limit|max(?:imum)?)\b|"
    r"预算|花费|价格|费用|不超过|最多"
)
STRONG_BUDGET_WORDS = re.compile(r"\b(?:budget|spend(?:ing)?)\b|预算|花费")
DEADLINE_WORDS = re.compile(
    r"\b(?:deadline|due|by|before|until|no later than|latest|eta)\b|截止|之前|以前|到期|期限"
)
RELEASE_WORDS = re.compile(
    r"\b(?:release[sd]?|version|ship|cut(?:ting)?|tag|publish)\b|版本|发布|发版", re.IGNORECASE
)
BARE_NUMBER = re.compile(
    rf"(?<![A-Za-z0-9_.$€£¥])\d(?:[\d,]*\d)?(?:\.\d+)?(?![A-Za-z0-9_]|\.\d)|\b{NUMBER_WORDS}\b|{CN_NUMERAL}"
)
SINGLE_VALUED_SLOTS = frozenset({"budget", "deadline"})
"""Slots that hold one value: any new value replaces the old, correction word or not."""

# --- identifiers and values -----------------------------------------------------------------

_MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_WEEKDAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_EXT = (
    r"py|pyi|ts|tsx|js|jsx|mjs|cjs|json|jsonl|md|toml|yaml|yml|txt|rs|go|java|kt|c|h|cc|cpp|"
    r"hpp|cs|rb|php|sh|css|scss|html|sql|lock|cfg|ini|env|xml|swift|vue|svelte|csv|log|png|"
    r"jpg|svg|pdf"
)
_CURRENCY_WORDS = r"dollars?|usd|eur|euros?|gbp|pounds?|yuan|rmb|cny|bucks"
_CURRENCY_CASED = (
    r"dollars?|Dollars?|USD|usd|EUR|eur|euros?|Euros?|GBP|gbp|pounds?|yuan|RMB|rmb|CNY|cny|bucks"
)

_B1 = r"(?![A-Za-z0-9_])"
# ``\b`` is not used at the edges of values: Python counts CJK characters as word
# characters, so ``\b`` would miss ``PAY-4821`` in ``订单号PAY-4821``.
_SP = r"[^\S\n]"

SYMBOLIC = re.compile(
    # Values with a digit or a sign in them, on the original text (case matters: tickets
    # are upper case, shas lower case). The look ahead is a cheap gate: a token with none
    # of these characters (most words, and CJK prose) is skipped before any alternative
    # is tried.
    r"(?<![A-Za-z0-9_])(?=[^\s\u3000-\u9fff\uff00-\uffef]{0,60}?[\d/@#$€£¥_.:])(?:"
    + "|".join(
        (
            r"(?P<url>https?://[^\s<>\"'`)\]}“”‘’，。；、）】]+)",
            r"(?P<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)",
            # tickets and reference numbers: an upper-case prefix and dashed parts with a
            # digit ("PAY-4821", "XGH-44820193", "QB-SW-2026-0310-117", "OEBB-4K7QZP")
            rf"(?P<ticket>[A-Z][A-Z0-9]{{1,9}}(?=(?:-[A-Z]*)*-?[A-Z]*\d)(?:-[A-Z0-9]{{1,12}}){{1,4}})"
            rf"{_B1}(?!-[A-Za-z0-9])",
            rf"(?P<color>(?<![&#])#[0-9a-fA-F]{{6}}){_B1}",
            rf"(?P<issue>(?<![&#])#\d{{2,7}}){_B1}",
            # an API object id ("cus_8fK2…"): generated, so mixed case or a digit in it;
            # "sub_orders" is a name
            rf"(?P<account>(?:cus|acct|ord|sub|inv|txn|usr|cust|evt|prod|req|ref)_"
            rf"(?=[a-z]*[A-Z0-9])[A-Za-z0-9]{{6,}}|[a-z]{{2,6}}_(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{{6,}}){_B1}",
            rf"(?P<version>v?(?!0\d)\d+\.\d+\.\d+(?:\.\d+)*(?:-[0-9A-Za-z.]+)?){_B1}",
            rf"v(?P<version2>\d+\.\d+){_B1}(?!\.\d)",
            rf"(?P<date>\d{{4}}-\d{{2}}-\d{{2}}(?:[T ]\d{{2}}:\d{{2}}(?::\d{{2}})?Z?)?{_B1}"
            rf"|\d{{1,4}}{_SP}?年{_SP}?\d{{1,2}}{_SP}?月{_SP}?\d{{1,2}}{_SP}?[日号]"
            rf"|\d{{1,2}}{_SP}?月{_SP}?\d{{1,2}}{_SP}?[日号])",
            rf"(?P<amount>[$€£¥]{_SP}?\d(?:[\d,]*\d)?(?:\.\d+)?(?:[kKmM]{_B1})?"
            rf"|\d(?:[\d,]*\d)?(?:\.\d+)?{_SP}?(?:{_CURRENCY_CASED}){_B1}"
            rf"|\d(?:[\d,]*\d)?(?:\.\d+)?{_SP}?[元块])",
            rf"(?P<port2>\d{{2,5}}){_SP}*端口",
            r"(?P<path>(?<![/.:@~-])(?:~|\.{1,2})?/?(?:[\w.@-]+/)+[\w.@-]*)",
            rf"(?P<file>[\w-]+(?:\.[\w-]+)*\.(?:{_EXT})){_B1}",
            # not a group of a UUID ("9a41cd0d-3ed9-…-451c9221a81f" names no commit)
            rf"(?P<sha>(?<!-)(?=[0-9a-f]{{0,39}}\d)(?=[0-9a-f]{{0,39}}[a-f])[0-9a-f]{{7,40}})"
            rf"{_B1}(?!-[0-9a-f]{{4}})",
            # Carrier tracking numbers, serials, confirmation codes: upper case, 10-40
            # characters, at least two digits and a letter. Not a piece of a file name,
            # path or dashed token (``REPORT2024Q1.PDF``, ``SN-…``); words have no digits
            # and shas are lower case.
            r"(?<![-./:@#])(?P<code>(?=(?:[A-Z]*\d){2})(?=\d*[A-Z])[A-Z0-9]{10,40})"
            rf"{_B1}(?![-./][A-Za-z0-9])",
        )
    )
    + ")"
)

_KEYWORD_SOURCES = (
    rf"(?:commit[a-z]*|sha|revision|提交号?){_SP}*(?:(?:is|was|as|in){_SP}+|[=:：]{_SP}*|"
    rf"是|为|号是)?{_SP}*[`'\"]?(?P<commit>[0-9a-f]{{7,40}}){_B1}",
    # the word itself, not a piece of a longer one ("pg-orders-prod-1" names no order)
    rf"(?:(?<![a-z])(?:order|ticket|case|invoice|booking|reservation|account|customer|"
    rf"tracking)s?(?![a-z])|订单号?|工单号?|账号|单号|编号|客户){_SP}{{0,2}}(?:#|no\.?|number|id|号)?{_SP}*[:：]?"
    rf"{_SP}*(?:is{_SP}+|是{_SP}*)?(?P<id>[a-z0-9][a-z0-9_-]*\d[a-z0-9_-]*){_B1}",
    rf"(?:version|release){_SP}?(?P<version3>v?\d+\.\d+(?:\.\d+)*){_B1}(?!\.\d)",
    rf"(?P<mdate>(?:{_MONTHS})\.?{_SP}+\d{{1,2}}(?:st|nd|rd|th)?(?:,?{_SP}+\d{{4}})?){_B1}",
    rf"(?P<mdate>\d{{1,2}}(?:st|nd|rd|th)?{_SP}+(?:{_MONTHS}){_B1}(?:{_SP}+\d{{4}})?)",
    rf"(?:by|before|until|due|no later than|deadline(?:{_SP}+is)?:?){_SP}+"
    rf"(?P<reldate>(?:the{_SP}+)?(?:end{_SP}+of{_SP}+(?:the{_SP}+)?"
    rf"(?:day|week|month|year)|eod|eow|tomorrow|tonight|today|next{_SP}+(?:week|month|"
    rf"{_WEEKDAYS})|{_WEEKDAYS})){_B1}",
    r"(?P<zhdate>明天|后天|今天|下周[一二三四五六日天]?|本周[一二三四五六日天]?|周[一二三四五六日天]|"
    r"星期[一二三四五六日天]|月底|年底)(?=之前|以前|前|截止)",
    rf"(?P<wamount>{CN_NUMERAL}[元块])",
    rf"(?:port{_B1}{_SP}*[:#=]?{_SP}*|localhost:|端口{_SP}*号?[:：是为]?{_SP}*)"
    rf"(?P<port>\d{{2,5}}){_B1}",
)
_DIGIT = re.compile(r"\d")
_MONTH_STARTS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
"""Every month name of ``_MONTHS`` begins with one of these."""
_TRIGGERS: tuple[tuple[bool, tuple[str, ...]], ...] = (
    # (the value has a digit, words of which one must be in the text)
    (False, ("commit", "sha", "revision", "提交")),
    (True, ("order", "ticket", "case", "invoice", "booking", "reservation", "account",
            "customer", "tracking", "订单", "工单", "账号", "单号", "编号", "客户")),
    (True, ("version", "release")),
    (True, _MONTH_STARTS),
    (True, _MONTH_STARTS),
    (False, ("day", "tomorrow", "tonight", "eod", "eow", "week", "month", "year")),
    (False, ("天", "周", "星期", "月底", "年底")),
    (False, ("元", "块")),
    (True, ("port", "localhost", "端口")),
)  # fmt: skip
KEYWORD_VALUES = tuple(
    (needs_digit, triggers, re.compile(source))
    for (needs_digit, triggers), source in zip(_TRIGGERS, _KEYWORD_SOURCES, strict=True)
)
"""Values announced by a word ("commit abc1234", "order 1234", "port 8080", "by Friday",
"五百元"), matched on the lowered text (``re.IGNORECASE`` makes Python's matcher many times
slower). Separate patterns, because one big alternation defeats the matcher's prefix
scan; each runs only when one of its trigger words is in the text (a fast substring
test). A match must start at a token edge (checked by the caller)."""
_CURRENCY_TRIGGERS = ("dollar", "usd", "eur", "gbp", "pound", "yuan", "rmb", "cny", "buck")
CURRENCY_WORD = re.compile(rf"(?:{_CURRENCY_WORDS}){_B1}")
NUMBER_PHRASE_END = re.compile(rf"(?<![a-z])(?:{NUMBER_WORDS}){_SP}+$")
"""An English number phrase ending right before a currency word ("five hundred dollars")."""

_GROUP_KIND = {
    "url": "url",
    "email": "email",
    "commit": "commit",
    "id": "id",
    "ticket": "ticket",
    "color": "color",
    "issue": "issue",
    "account": "id",
    "version": "version",
    "version2": "version",
    "version3": "version",
    "date": "date",
    "mdate": "date",
    "reldate": "date",
    "zhdate": "date",
    "amount": "amount",
    "wamount": "amount",
    "port": "port",
    "port2": "port",
    "path": "path",
    "file": "path",
    "sha": "sha",
    "code": "id",
}
_NOT_TICKETS = frozenset(
    {"UTF", "SHA", "ISO", "TLS", "SSL", "ES", "TS", "HTTP", "MD", "AES", "RSA", "GPT", "UTC",
     "GMT", "IPV", "X", "H", "MP", "PEP"}
)  # fmt: skip
_KIND_RANK = {"commit": 3, "id": 2, "port": 2, "date": 2, "amount": 2, "version": 1}


@dataclass(frozen=True, slots=True)
class Found:
    """A value found in text: its kind, the verbatim value, and where it stands."""

    kind: str
    value: str
    start: int
    end: int


def lower_same(text: str) -> str:
    """``text`` in lower case with every character at the same position.

    The word patterns run on this (``re.IGNORECASE`` is many times slower) and their
    positions index the original text. ``str.lower`` keeps positions except for a few
    characters that lower to two (``İ``); those are left as they are.
    """
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _is_word_char(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


def find_identifiers(text: str) -> list[Found]:
    """Every identifier or value in ``text``, left to right, verbatim, without overlaps
    (remembered per text)."""
    return list(_identifiers(text))


LOWERS_TO_TWO = "\u0130"
"""The characters ``str.lower`` turns into two (``İ``): a text holding one is lowered by
``lower_same`` character by character, a line of it alone would not be."""


def _find_identifiers(text: str) -> tuple[Found, ...]:
    """The scan of ``text`` with each line's values remembered (the same lines recur
    across tool outputs: a file read again, a test run repeated); the lines not seen
    before are scanned together, as one text.

    What a line holds does not depend on the lines around it: no symbolic or
    keyword-announced value spans a newline, and every look-around at a line's edge
    answers as at the text's. Two things do: a number phrase before a currency word may
    span one (its words are separated by any white space), and the lowering of a text
    holding a character of :data:`LOWERS_TO_TWO`: such texts are scanned whole."""
    if "\n" not in text or LOWERS_TO_TWO in text:
        return _scan_identifiers(text)
    lines = text.split("\n")
    known = _line_values.results
    missing = [line for line in dict.fromkeys(lines) if line not in known]
    fresh = _scan_lines(missing) if missing else {}
    found: list[Found] = []
    offset = 0
    for line in lines:
        entry = known.get(line) or fresh.get(line)
        if entry is None:  # the memo started over meanwhile
            return _scan_identifiers(text)
        currency, items = entry
        if currency:
            return _scan_identifiers(text)
        if items:
            found.extend(Found(f.kind, f.value, f.start + offset, f.end + offset) for f in items)
        offset += len(line) + 1
    return tuple(found)


_LineValues = tuple[bool, tuple[Found, ...]]
"""Whether a line holds a currency word, and its values at offsets within it."""


def _scan_lines(lines: list[str]) -> dict[str, _LineValues]:
    """:data:`_LineValues` of each of ``lines`` (distinct), found by one scan of them
    joined, and remembered. With a currency word among them, each line is scanned alone
    (a number phrase before it may reach into the line joined before it)."""
    joined = "\n".join(lines)
    low = joined.lower()
    if any(map(low.__contains__, _CURRENCY_TRIGGERS)) and CURRENCY_WORD.search(low):
        result = {line: _scan_line(line) for line in lines}
    else:
        per_line: dict[str, list[Found]] = {line: [] for line in lines}
        index = 0
        line_start = 0
        line_end = len(lines[0])
        for item in _scan_identifiers(joined):
            while item.start >= line_end:
                index += 1
                line_start = line_end + 1
                line_end = line_start + len(lines[index])
            if line_start:
                item = Found(item.kind, item.value, item.start - line_start, item.end - line_start)
            per_line[lines[index]].append(item)
        result = {line: (False, tuple(items)) for line, items in per_line.items()}
    for line, entry in result.items():
        _line_values.remember(line, entry)
    return result


def _scan_line(line: str) -> _LineValues:
    return CURRENCY_WORD.search(line.lower()) is not None, _scan_identifiers(line)


def _scan_identifiers(text: str) -> tuple[Found, ...]:
    """Every identifier in ``text``, the whole text scanned at once (the plain scan)."""
    found: list[Found] = []
    for match in SYMBOLIC.finditer(text):
        _collect(match, text, found)
    low = lower_same(text)
    contains = low.__contains__
    has_digit = _DIGIT.search(low) is not None
    for needs_digit, triggers, pattern in KEYWORD_VALUES:
        if (needs_digit and not has_digit) or (triggers and not any(map(contains, triggers))):
            continue
        for match in pattern.finditer(low):
            start = match.start()
            if start > 0 and _is_word_char(low[start - 1]):
                continue
            _collect(match, text, found)
    currency = any(map(contains, _CURRENCY_TRIGGERS))
    for match in CURRENCY_WORD.finditer(low) if currency else ():
        start = match.start()
        if start > 0 and _is_word_char(low[start - 1]):
            continue
        head = NUMBER_PHRASE_END.search(low, max(0, start - 80), start)
        if head is not None:
            found.append(
                Found("amount", text[head.start() : match.end()], head.start(), match.end())
            )
    if len(found) < 2:
        return tuple(found)
    found.sort(key=lambda f: (f.start, -f.end))
    result = [found[0]]
    for item in found[1:]:
        last = result[-1]
        if item.start < last.end:
            same_span = item.start == last.start and item.end == last.end
            if same_span and _KIND_RANK.get(item.kind, 0) > _KIND_RANK.get(last.kind, 0):
                result[-1] = item  # the word-announced kind is the more precise one
            continue
        result.append(item)
    return tuple(result)


_identifiers = remembered(_find_identifiers)
_line_values: TextMemo[_LineValues] = remembered(_scan_line)


_VERSION_AFTER = re.compile(r"[ \t]+v?\d+(?:\.\d+)+\b")


def _collect(match: re.Match[str], text: str, found: list[Found]) -> None:
    group = match.lastgroup
    if group is None:
        return
    start, end = match.span(group)
    value = text[start:end]
    kind = _GROUP_KIND[group]
    if kind == "url":
        stripped = value.rstrip(".,;:!?")
        end -= len(value) - len(stripped)
        value = stripped
    elif group == "file" and _VERSION_AFTER.match(text, end):
        return  # a product and its version ("Node.js v23.4.0"), not a file
    elif (
        (kind == "ticket" and (value.split("-", 1)[0] in _NOT_TICKETS or _in_a_token(text, start)))
        or (group == "path" and not _looks_like_path(value))
        or (kind == "commit" and not (value.islower() or value.isdigit()))
    ):
        return
    if kind == "email" and _NUMERIC_DOMAIN.fullmatch(value.split("@", 1)[1]):
        kind = "version"  # a package pinned to a version ("next-intl@3.10.0"), no address
    found.append(Found(kind, value, start, end))


_NUMERIC_DOMAIN = re.compile(r"\d+(?:\.\d+)+")
"""The "domain" of a package pinned to a version ("next-intl@3.10.0")."""


def _in_a_token(text: str, start: int) -> bool:
    """Whether an upper-case dashed value goes on from the text before it: a line anchor
    of a link ("config.py#L64-70") or a piece of a character range ("[^a-zA-Z0-9]"),
    not a reference number of its own."""
    return start > 0 and text[start - 1] in "#-"


def _looks_like_path(value: str) -> bool:
    if value.count("/") == 0 or value in ("/", "//"):
        return False
    if value.startswith(("./", "../", "~/", "/")) or value.endswith("/"):
        return len(value) > 2
    last = value.rsplit("/", 1)[-1]
    return "." in last.strip(".") or value.count("/") >= 2
