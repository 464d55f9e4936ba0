"""What the conversation itself says about progress: the user's choices, the approaches
the assistant gave up, and how a request ended.

The tool events say what ran; only the words say what was *chosen* ("那就选P001吧", "go
with the Frankfurt one") and why an approach was dropped ("plain quantize doesn't work
here"). These are read from the user's and the assistant's own text (never from tool
results), verbatim, one statement each.
"""

from __future__ import annotations

import re

from synopsis.state._text import cap, normalize_ws, sentences

MAX_STATEMENT = 240

_CHOICE_EN = re.compile(
    r"\b(?:go with|going with|let'?s go with|let'?s do|i'?ll take|i'?ll go with|take the|"
    r"pick|choose|book (?:it|that|the)|hold (?:the )?\w+|use the|works(?: for (?:me|us))?[.!]?$|"
    r"sounds good|that one|this one|is ok|is fine|do it|"
    r"yes,? (?:please|do|go|book|hold|reuse|use)|ask them to|tell them to|skip|instead|"
    r"i(?:'ll| will) just|i (?:actually )?(?:plan|want|prefer|intend) to|i'?d rather|"
    r"going forward|from now on)(?!\w)",
    re.IGNORECASE,
)
_CHOICE_ZH = re.compile(
    r"选|就(?:要|用|订|定|报|选|按)|那就|订.{0,12}那|换成|改成|改用|就这个|吧(?:[，,。！!]|$)|^行[，,]|^可以[，,]|"
    r"按.{0,6}来|用.{0,10}吧"
)
_SHORT_REPLY = 40
"""A user message this short that asks for nothing new answers the assistant: a choice,
when it names one (a number, a name, a yes or no: "黄山。", "Friday 10:15.")."""
_NAMES_ONE = re.compile(
    r"\d|[\u4e00-\u9fff]|^(?i:yes|no|yep|nope)\b|^[A-Z][a-z]+ [A-Z]|.\b[A-Z][a-z]|\b[A-Z]{2,}\b"
)

_ACK = re.compile(
    r"^(?:ok(?:ay)?|thanks?(?: you)?|thx|great|nice|cool|perfect|got it|sure|continue|go on|"
    r"fine|yes|yeah|yep|no|nope|谢谢|好的?|收到|可以|继续|行|对|嗯)[\s.!。！,，]*$",
    re.IGNORECASE,
)
_GAVE_UP = re.compile(
    r"\b(?:(?:does|did|do|would|will|is|was)(?: not|n'?t) (?:work|help|fix|solve|apply|pass)|"
    r"didn'?t work|won'?t work|not working|no luck|no good|dead end|"
    r"(?:that|this|it) (?:failed|broke)|failed because|abandon|give up on|giving up on|"
    r"rul(?:e|ed|ing) out|instead of (?:that|this))\b|"
    r"不行|行不通|没用|不起作用|无效|失败了|放弃|排除了?",
    re.IGNORECASE,
)
_REASON = re.compile(r"\b(?:because|since|due to|that'?s why)\b|因为|由于|原因", re.IGNORECASE)
_DONE_WORDS = re.compile(
    r"\b(?:done|fixed|completed?|finished|all set|booked|resolved|merged|pushed|deployed|"
    r"sent|created|updated|changed|added|removed|cancell?ed|confirmed|passes|passing|"
    r"(?:is|are) (?:now )?(?:green|working|in place)|ready)\b|"
    r"已完成|完成了|办好了|改好了|订好了|弄好了|搞定|成功|已(?:发送|取消|预订|修改|更新|提交|创建|生成|配好)",
    re.IGNORECASE,
)
_CLOSING_WAIT = re.compile(
    r"[?？]\s*$|\b(?:waiting (?:on|for)|let me know|your call|need your|pending)\b|"
    r"等待|请确认|需要您|要不要|是否",
    re.IGNORECASE,
)


_REPLY_OPENER = re.compile(
    r"^(?:yes|yeah|yep|yup|no|nope|nah|ok(?:ay)?|sure|right|correct|exactly|agreed?|fine|"
    r"sounds good|go ahead|(?:please do|do it)(?=[\s.!,]*$)|perfect|great)\b|"
    r"^(?:是的?|对|好的?|行|可以|嗯|不(?:用|要|行)?|没问题|同意)",
    re.IGNORECASE,
)
MAX_REPLY = 80
"""A reply longer than this is a message of its own, whatever it opens with."""


def is_reply(text: str) -> bool:
    """Whether a user message answers the assistant ("Yes remove the almond butter too.",
    "No, keep the old port.", "好，就这样"): short and opening with an answer word. It
    continues the request under way — a choice or a sub-step, never a new goal."""
    line = normalize_ws(text)
    return len(line) <= MAX_REPLY and bool(_REPLY_OPENER.match(line))


_WORKS = re.compile(
    r"^(?:(?:ok(?:ay)?|great|nice|perfect|yes|yep|cool|awesome|thanks?|thank you|confirmed|"
    r"good news)[\s,.!:;-]+)*(?:(?:it|that|this|everything|now it|it all|the \w+)\s+)?"
    r"(?:works|worked|is working|works now|is fixed|fixed it|did the trick|passes now)\b|"
    r"^(?:好了|可以了|成功了|能用了|没问题了|解决了|正常了)",
    re.IGNORECASE,
)
_NOT_YET = re.compile(r"\b(?:not|n't|no longer|still|but|except)\b|不|没|还是", re.IGNORECASE)


def says_it_works(text: str) -> bool:
    """Whether a user message reports that the work under way now works ("ok it works
    now", "that fixed it", "好了，能用了"): the failures of the request are past, however
    they were got past. A "still", "not" or "but" leaves them open."""
    line = normalize_ws(text)
    return len(line) <= MAX_REPLY and bool(_WORKS.match(line)) and not _NOT_YET.search(line)


_FOLLOW_UP = re.compile(
    r"^(?:(?:nice|great|perfect|cool|awesome|good|ok(?:ay)?|thanks?|thank you|lgtm|looks good)"
    r"[\s,.!:;-]+)*(?:(?:now|then|please|pls|and|so)\s+)*"
    r"(?:commit|push|commit and push|continue|proceed|go ahead|do it|try again|retry|"
    r"run (?:it|them|the tests)|merge(?: it)?|ship it|deploy(?: it)?|keep going|carry on|"
    r"提交|推送|继续)"
    r"(?:\s+(?:it|this|that|them|now|please|pls|too|as well|then|the changes|these changes))*"
    r"[\s.!。！]*$",
    re.IGNORECASE,
)


def is_follow_up(text: str) -> bool:
    """Whether a user message only asks for the next routine step of the work under way
    ("Nice, please commit", "ok push it", "继续") and names nothing new: a step of the
    current request, not a request of its own."""
    return bool(_FOLLOW_UP.match(normalize_ws(text)))


_SALIENT = re.compile(
    r"(?<![\w.:])\d+(?:[:.]\d+)*(?![\w])|(?<!\w)[A-Z][\w-]{2,}|[\u4e00-\u9fff]{2}"
)


def answers(reply: str, said: str) -> bool:
    """Whether ``reply`` answers what the assistant last said: it asked something, or the
    reply names a value or a name the assistant offered ("Friday 10:15." after "Fri
    10:15, Wed 9:00"). An order out of the blue ("sleep 5 seconds") answers nothing."""
    tail = said.strip()[-400:]
    if re.search(r"[?？]", tail):
        return True
    offered = set(_SALIENT.findall(said))
    named = [token for token in _SALIENT.findall(reply) if len(token) > 1]  # not "5"
    return any(token in offered for token in named)


def user_choices(text: str, short_reply: bool, said: str | None = None) -> list[str]:
    """The choices a user message states, verbatim, one sentence each: the whole message
    when it is a short reply (not a request, a question or a mere "ok" — "黄山。",
    "Friday 10:15.") to what the assistant ``said`` (when known), else each sentence that
    names a choice."""
    line = normalize_ws(text)
    if not line or line.startswith("/"):  # empty, or a slash command
        return []
    if (
        short_reply
        and (said is None or answers(line, said))
        and len(line) <= _SHORT_REPLY
        and _NAMES_ONE.search(line)
        and not _ACK.match(line)
        and not line.endswith(("?", "？"))
    ):
        return [line]
    found: list[str] = []
    for start, end in sentences(line):
        sentence = line[start:end].strip()
        if sentence.endswith(("?", "？")):
            continue
        if _CHOICE_EN.search(sentence) or _CHOICE_ZH.search(sentence):
            found.append(cap(sentence, MAX_STATEMENT))
    return found


_ASSISTANT_CHOICE = re.compile(
    r"\b(?:I'll|I will|I need to|I'm going to|let me|let's|we'll)\b[^.?!\n]{3,160}?"
    r"(?:\b(?:because|since|so that|for now)\b|\bas (?:it|they|this|that|the|we)\b|"
    r" [-–—] (?:these|this|it|they) (?:are|is)\b)|"
    r"\bI'?d (?:skip|go with|recommend|suggest|pick|use|rather)\b|\bthe fix\b[^.]{0,60}:|"
    r"(?:\bI\b|\bwe\b|\blet'?s\b)[^.]*\b(?:instead of|rather than)\b|\bneeds no\b|"
    r"修复[:：]|统一用|改用|"
    r"我(?:在|把|给|会|来)[^。，,]{0,30}(?:加|改成|改为|换成|设为|设成)",
    re.IGNORECASE,
)


def assistant_choices(text: str) -> list[str]:
    """Sentences in which the assistant states a choice with its reason ("I'd skip the
    pass …", "修复：统一用 …", "The F() version needs no lock …")."""
    found: list[str] = []
    for start, end in sentences(text):
        sentence = normalize_ws(text[start:end])
        if _ASSISTANT_CHOICE.search(sentence) and not sentence.endswith(("?", "？")):
            found.append(cap(sentence, MAX_STATEMENT))
    return found


def failed_approaches(text: str) -> list[str]:
    """Sentences in which the assistant says an approach did not work, each with the
    sentence before it when that one gives the reason."""
    found: list[str] = []
    spans = sentences(text)
    for index, (start, end) in enumerate(spans):
        sentence = text[start:end].strip()
        if not _GAVE_UP.search(sentence) or sentence.endswith(("?", "？")):
            continue
        if index > 0 and not _REASON.search(sentence):
            before = text[spans[index - 1][0] : spans[index - 1][1]].strip()
            if _REASON.search(before):
                sentence = f"{before} {sentence}"
        found.append(cap(normalize_ws(sentence), MAX_STATEMENT * 2))
    return found


def asks_user(text: str) -> bool:
    """Whether an assistant message ends by asking the user something."""
    return bool(re.search(r"[?？]\s*$", text.strip()))


REPORTED = " ⟪reported: "
REPORTED_END = "⟫"
"""Around the items of a long closing report inside a closing statement: what the
assistant listed as done, kept apart so that whether the request is finished is judged
on the statement's own opening and closing words (an item may say "Pending: …")."""
MAX_REPORT_ITEMS = 8
MAX_REPORT_ITEM = 110
MAX_REPORT = 520

_REPORT_ITEM = re.compile(
    r"^ {0,1}(?:[-*•+]|\d{1,2}[.)])\s+(?P<item>\S.*)$|^(?P<bold>\*\*[^*\n]{3,}\*\*.*)$",
    re.MULTILINE,
)


def report_items(text: str) -> list[str]:
    """The top-level items of a closing report's lists ("1. **Removed npm test
    permissions** (previously lines 5-6)", "- Moved both controls into the toolbar"),
    verbatim without their list marks and bold, each capped: what the assistant says
    it did, where the opening lines say only that it is done."""
    found: list[str] = []
    for match in _REPORT_ITEM.finditer(text):
        item = normalize_ws((match.group("item") or match.group("bold") or "").replace("**", ""))
        if len(item) >= 8 and item not in found:
            found.append(cap(item, MAX_REPORT_ITEM))
    return found[:MAX_REPORT_ITEMS]


def closing_statement(text: str) -> str:
    """How the assistant reported a request's end: its first lines, verbatim (capped),
    the items it listed (between :data:`REPORTED` marks) and its closing question when
    it ends with one."""
    flat = normalize_ws(text)
    if len(flat) <= MAX_STATEMENT:
        return flat
    spans = sentences(flat)
    last = flat[spans[-1][0] : spans[-1][1]].strip() if spans else ""
    question = asks_user(last) and len(last) < MAX_STATEMENT // 2
    room = MAX_STATEMENT - len(last) - 3 if question else MAX_STATEMENT
    items = report_items(text)
    opening = normalize_ws(_LIST_START.split(text, maxsplit=1)[0]) if items else ""
    if opening:  # the words before the list, then what the list says was done
        head = cap(opening, room) + REPORTED + cap("; ".join(items), MAX_REPORT) + REPORTED_END
    else:
        head = cap(flat, room)
    return f"{head} … {last}" if question else head


_LIST_START = re.compile(r"^ {0,3}(?:[-*•+]|\d{1,2}[.)]|#{1,6})\s|^\*\*", re.MULTILINE)
"""Where a report's first list, heading or bold item line starts."""


def statement_words(outcome: str) -> str:
    """A closing statement without its reported items: its own opening and closing."""
    start = outcome.find(REPORTED)
    end = outcome.find(REPORTED_END, start)
    if start < 0 or end < 0:
        return outcome
    return outcome[:start] + outcome[end + len(REPORTED_END) :]


def is_finished(outcome: str | None) -> bool:
    """Whether a closing statement reports the request done (and asks nothing more):
    a report of findings, a question or "waiting on …" leaves it open."""
    if not outcome:
        return False
    words = statement_words(outcome)
    if _CLOSING_WAIT.search(words):
        return False
    return bool(_DONE_WORDS.search(words))


def is_stated_choice(text: str) -> bool:
    """Whether an assistant "decision" states a choice rather than a pleasantry or a
    lead-in to a list ("I'll help you …!", "I'll do it locally instead:")."""
    stripped = text.strip()
    if stripped.endswith((":", "：", "!", "！")) or len(stripped) < 20 or stripped[0] in "-*•":
        return False  # a lead-in, an exclamation, or a list item torn from its list
    if _NARRATION.match(stripped):
        return False  # the next step or the change just made, told as it happens
    if stripped[0].islower():
        return False  # a piece of a sentence or of a list, not a statement of its own
    if _OPTION.search(stripped):
        return False  # an option offered or kept open, not one taken
    return not re.search(
        r"\b(?:help you|happy to|glad to|let me know|i bet|maybe|perhaps|probably|"
        r"might|i guess|i suspect)\b|可能|也许|大概",
        stripped,
        re.I,
    )  # a pleasantry or a guess chooses nothing


_OPTION = re.compile(
    r"\bif (?:needed|necessary|required|you (?:want|prefer|like|'d like|agree))\b|"
    r"\bsay the word\b|\bwould you like\b|\bshould I\b|\bor (?:we|I) could\b|"
    r"\bcould (?:also )?(?:try|use|add|switch)\b|如果需要|如果你(?:想|愿意)",
    re.IGNORECASE,
)
"""An option offered or left open ("I'll align the paths or add a special case if
needed", "If you want …, say the word"): nothing was chosen."""

_NARRATION = re.compile(
    r"^(?:now|next|first|then|ok(?:ay)?|great|perfect)?,?\s*(?:i['’]?ll|i will|let me|let['’]?s|"
    r"i['’]?m going to|i need to|i['’]?ll need to|i['’]?d need to) (?:now )?(?:first )?"
    r"(?:add|check|read|look|run|update|create|fix|write|open|try|start|see|test|analy[sz]e|"
    r"review|commit|stage|push|install|scan|implement|examine|investigate|explore|search|"
    r"verify|build|rerun|re-run|continue|proceed|help|systematically|know|understand|"
    r"get|find|take a look|have a look|go through|dig)\b|"
    r"^(?:fixed|changed|updated|replaced|moved|renamed|removed|added|switched|converted|made|"
    r"refactored|rewrote|reworked|extracted)\b(?!.*\b(?:because|since|so that)\b)|"
    r"^(?:(?:the|this|it|that) )?[\w`\"'.()-]+(?: [\w`\"'.()-]+){0,3} (?:are |is )?now (?:just )?"
    r"(?:uses|takes|returns|has|is|shows?|calls|reads|renders|displays|includes|works|runs)\b|"
    r"^(?:now )?it (?:now )?(?:just )?(?:uses|takes|returns)\b|"
    r"^the \w+ changed\b|^[^,;:]{0,60}\b(?:are|is) now\b(?!.*\b(?:because|since|so that)\b)",
    re.IGNORECASE,
)
"""A step announced ("Now I'll add a method …", "I'll need to see the config"), or a
change reported ("Footer now uses …", "Fixed the style objects to use functions instead
of strings", "The signature changed - it now takes …"): what was or will be done, not a
choice between options with its reason (a report that gives one stays a choice)."""
