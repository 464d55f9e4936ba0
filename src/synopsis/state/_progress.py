"""What the conversation itself says about progress: the approaches the assistant gave
up, and how a request ended (what was *chosen* is :mod:`synopsis.state._choices`).

The tool events say what ran; only the words say why an approach was dropped ("plain
quantize doesn't work here"). These are read from the user's and the assistant's own
text (never from tool results), verbatim, one statement each.
"""

from __future__ import annotations

import re

from synopsis.state._memo import remembered, remembered_list
from synopsis.state._text import cap, clip, normalize_ws, sentences, window
from synopsis.state.rules import first_match

MAX_STATEMENT = 240

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


@remembered_list
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
        found.append(clip(normalize_ws(sentence), MAX_STATEMENT * 2))
    return found


_SUBJECT_WORD = re.compile(r"[^\W\d_][\w.-]+")
_NO_SUBJECT = frozenset(
    {"the", "a", "an", "this", "that", "these", "those", "it", "its", "now", "so", "then",
     "but", "and", "also", "still", "here", "there", "is", "was", "are", "were", "be", "been",
     "issue", "problem", "approach", "attempt", "command", "fix", "change", "way", "thing",
     "one", "first", "last", "previous", "earlier", "my", "our", "your"}
)  # fmt: skip
"""Words that say nothing of what failed ("Now the issue is that the …")."""


def _failing_subject(text: str) -> frozenset[str]:
    """The words that name what failed, before the words that say it did ("sed" in "Now
    the issue is that the sed didn't work", and in "The sed command didn't work because …")."""
    found = _GAVE_UP.search(text)
    head = text[: found.start()] if found else ""
    return frozenset(w.lower() for w in _SUBJECT_WORD.findall(head)) - _NO_SUBJECT


def retells_failure(earlier: str, later: str) -> bool:
    """Whether ``later`` tells again the failure ``earlier`` told — what failed is the same
    — and says at least as much: its reason, or no reason where ``earlier`` gave none. The
    assistant works through one failure in several messages ("the sed didn't work …";
    then "the sed command didn't work because of …"); one telling, the latest, stands."""
    if not _failing_subject(earlier) & _failing_subject(later):
        return False
    return bool(_REASON.search(later)) or not _REASON.search(earlier)


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
            found.append(clip(item, MAX_REPORT_ITEM))
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
    return bool(_DONE_WORDS.search(words)) or first_match("done", words.lower()) is not None


_PENDING = re.compile(
    r"\b(?:still (?:need|needs|have|has|got) to|still (?:to do|open|missing|failing|fails)|"
    r"(?:is|are) still (?:missing|failing|open|to do|todo|not \w+)|not (?:yet )?(?:done|"
    r"implemented|ported|tested|covered|migrated|wired|finished) yet|(?:is|are) yet to|"
    r"remaining(?: steps?| work| tasks?| items?)?\s*:|"
    r"(?<![(,/|] )(?<![(,/|`])pending\b(?![)/|`])|left to do|to ?do\s*:|"
    r"next,? (?:i|we)(?:'ll| will| need to| should)|next steps?\s*(?::|is|are)|"
    r"blocked (?:by|on)|waiting (?:for|on))|"
    r"还(?:需要|要|得|差|剩|没有?(?:完成|做|实现|测试|处理|改))|尚未|待办|待处理|待完成|"
    r"剩下(?:的)?|未完成|接下来|下一步|被.{1,12}阻塞|等待",
    re.IGNORECASE,
)
"""Words that say work is still to do ("we still need to …", "Pending: …", "next I'll …",
"Remaining: … blocked by Task 48", "TODO:", "还需要 …", "下一步 …"). A "pending" that is
one value of a list or a code span ("(id 12, $50, pending)", "`pending`/`paid`") is the
status of a record, not work left."""
_DONE_NOW = re.compile(r"\b(?:no (?:longer|more) (?:pending|blocked)|nothing (?:left|pending))\b")
_PENDING_HEAD = re.compile(
    r"^\s{0,3}(?:#{1,6}\s*|\*\*)?(?:next steps?|remaining(?: work| steps?| tasks?)?|pending|"
    r"todo|to do|still to do|open items|下一步|待办(?:事项)?|剩余(?:工作)?|后续)"
    r"(?:\*\*)?\s*[:：]?(?:\*\*)?\s*$",
    re.IGNORECASE,
)
"""A heading that opens a list of what is still to do ("Next steps:", "**Remaining:**")."""
_LIST_ITEM = re.compile(r"^\s{0,4}(?:[-*•+]|\d{1,2}[.)]|\[ \])\s+(?P<item>\S.*)$")
MAX_PENDING = 5
MAX_PENDING_STEP = 200


@remembered_list
def pending_steps(text: str) -> list[str]:
    """What a message says is still to do, verbatim, one statement each: the items of
    a "Next steps:" / "Remaining:" / "待办：" list, and each sentence that says work is
    pending ("I still need to port the CLI", "Pending: task 60.8", "还需要补测试"). A
    question asks rather than states, and "nothing left" states nothing pending."""
    found: list[str] = []
    under_head = False
    for raw in text.split("\n"):
        line = raw.strip()
        if not line:
            continue
        if _PENDING_HEAD.match(line):
            under_head = True
            continue
        item = _LIST_ITEM.match(raw)
        if under_head and item is not None:
            found.append(clip(normalize_ws(item.group("item").replace("**", "")), MAX_PENDING_STEP))
            continue
        under_head = False
    for start, end in sentences(text):
        sentence = normalize_ws(text[start:end])
        if sentence.endswith(("?", "？")) or _DONE_NOW.search(sentence.lower()):
            continue
        if _PENDING_HEAD.match(sentence):
            continue  # the heading of a list read above
        match = _PENDING.search(sentence)
        other = first_match("pending", sentence.lower()) if match is None else None
        at = match.start() if match is not None else other[1].start() if other else None
        if at is not None and len(sentence) >= 12:  # (the other languages: rules/<lang>.py)
            found.append(window(sentence, at, MAX_PENDING_STEP))
    return list(merged_steps(found)[:MAX_PENDING])


def merged_steps(steps: list[str]) -> tuple[str, ...]:
    """``steps`` in order, without one that another one holds (the same sentence read by
    two rules, or a list item that repeats a sentence)."""
    distinct: list[str] = []
    for step in steps:
        flat = normalize_ws(step)
        if not any(flat in normalize_ws(other) for other in distinct):
            distinct = [o for o in distinct if normalize_ws(o) not in flat]
            distinct.append(step)
    return tuple(distinct)


_DID = re.compile(
    r"\b(?:i|we)(?:'ve| have)?\s+(?:now |also |just |successfully |already )*(?!need|want|"
    r"used?\b|tried|noticed|asked|seemed|wanted|looked|checked)[a-z]{3,}ed\b|"
    r"\b(?:i|we)(?:'ve| have)?\s+(?:now |also |just |successfully |already )*(?:made|built|"
    r"wrote|written|rewritten|set up|put|ran|rewrote|moved|split|kept|done|taken|chosen)\b|"
    r"\b(?:has|have|had) been (?:\w+ )?[a-z]{3,}(?:ed|en|t)\b|"
    r"\b(?:is|are|was|were) (?:now |all |both |also )?(?!need|bas|call|us|suppos|relat|nam|"
    r"requir|expect|interest|concern|locat|includ|design|intend)[a-z]{3,}ed\b|"
    r"\b(?:is|are) (?:now )?(?:complete|completed|done|fixed|in place|working|resolved|ready)\b|"
    r"^\W*(?:✓|✔|✅|\[x\]|done|fixed|added|created|removed|moved|updated|implemented|"
    r"refactored|deleted|renamed|restored|reverted|installed|committed|pushed|merged|"
    r"replaced|changed|converted|ported|enabled|disabled|configured|wrote|cleaned)\b|"
    r"\bsuccessfully\b|"
    r"(?:已经?|成功)(?:完成|添加|创建|修改|更新|移动|删除|安装|修复|设置|配置|实现|替换)|"
    r"(?:完成|添加|创建|修改|更新|移动|删除|安装|修复|设置|配置|实现|替换|改成|换成)(?:到)?了|"
    r"已经?把.{1,60}?了|"
    r"(?:し|き|え|け|せ|め|り)ました|完了|完成しました|"
    r"\b(?:wurden?|ist|sind) (?:\w+ )?(?:(?:ge|er|ver|be|ent|zer)\w+t|\w+iert|umgesetzt|"
    r"abgeschlossen|behoben)\b|\bhabe\b.*\b(?:ge\w+t|\w+iert|entfernt|abgeschlossen|behoben|umgesetzt)\b|"
    r"\berfolgreich\b|\b(?:foi|foram) (?:\w+ )?\w+(?:ad|id)[oa]s?\b|\bcom sucesso\b|"
    r"успешно|\bhotovo\b|úspěšně",
    re.IGNORECASE | re.MULTILINE,
)
"""A statement that something was done: "I've added …", "… has been created", "✓ …",
"Removed …" heading an item, "已添加 …", "…を作成しました", "… wurde implementiert",
"… foi removido". A plan ("I'll add …") or a question says nothing done."""


def states_done(text: str) -> bool:
    """Whether a statement says something was done: the words of :data:`_DID`, or a
    ``done`` record of the statement's language ("Ho rimosso l'utente", "문서 작성을
    완료했습니다", "J'ai ajouté le module"). A question asks; it reports nothing, and so
    does a plan — a statement that opens with what the agent is about to do ("I need to
    add them to `.gitignore` - these are generated files": a ``plan`` record), whatever
    its later clauses say."""
    if asks_user(text) or opens_with_plan(text):
        return False
    return bool(_DID.search(text)) or first_match("done", text.lower()) is not None


def opens_with_plan(text: str) -> bool:
    """Whether a statement opens with what the agent will do next (a ``plan`` record of
    its language: "Let me …", "I'll …", "我来 …", "Voy a …")."""
    return first_match("plan", text.lstrip().lower()) is not None


MAX_STEP = 200
MIN_STEP = 30
"""A shorter plan names too little to say more than the last call does ("Let me check.")."""


def stated_step(said: str) -> str | None:
    """The step the assistant last said it was taking ("I need to add the untracked files
    to `.gitignore` - these are generated files"): the latest sentence of its words that
    opens with a plan, capped; None when they state none (a report, a finding) or only
    lead in to what follows ("Let me fix this:")."""
    for start, end in reversed(sentences(said)):
        sentence = normalize_ws(said[start:end])
        if (
            len(sentence) >= MIN_STEP
            and not sentence.endswith((":", "：", "?", "？"))
            and opens_with_plan(sentence)
        ):
            return clip(sentence, MAX_STEP)
    return None


_ANY_ITEM = re.compile(
    r"^\s{0,8}(?:[-*•+]|\d{1,2}[.)]|#{1,6})\s+(?P<item>\S.*)$|^(?P<bold>\*\*[^*\n]{3,}\*\*.*)$"
)
_FENCE = re.compile(r"^\s*(?:```|~~~)")
MAX_REPORTED_ITEM = 160
MAX_REPORTED_PER_MESSAGE = 10


@remembered_list
def reported_done(text: str) -> list[str]:
    """What an assistant message reports as done, verbatim, one line each: each sentence
    stating it ("I've created the CLAUDE.md file"), and — when the words before its
    first list (headings included) report work done ("Successfully organised the changes
    into 4 branches:") — every top-level item and heading of its lists (the branches, the
    pull requests); else the items that state it themselves ("- Removed the npm
    permissions"), nested ones too. Code blocks are data, not a report."""
    lines: list[str] = []
    fenced = False
    for raw in text.split("\n"):
        if _FENCE.match(raw):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(raw)
    first_item = next((i for i, raw in enumerate(lines) if _LIST_ITEM.match(raw)), len(lines))
    opening = "\n".join(lines[:first_item])
    listed_done = states_done(opening)
    found: list[str] = []
    for raw in lines:
        match = _ANY_ITEM.match(raw)
        if match is not None:  # an item, verbatim but for its list mark
            item = normalize_ws(match.group("item") or match.group("bold") or "")
            nested = len(raw) - len(raw.lstrip()) >= 2 and not raw.lstrip().startswith("#")
            # a sub-item is detail of its item, unless it states something done itself;
            # a label that only introduces what follows ("**Changes:**") reports nothing
            if is_label(item):
                continue
            if len(item) >= 6 and ((listed_done and not nested) or states_done(item)):
                found.append(clip(item, MAX_REPORTED_ITEM))
            continue
        for start, end in sentences(raw):
            sentence = raw[start:end].strip()
            if len(sentence) >= 12 and states_done(sentence):
                found.append(clip(normalize_ws(sentence), MAX_REPORTED_ITEM))
    return list(dict.fromkeys(found))[:MAX_REPORTED_PER_MESSAGE]


_LABEL = re.compile(r"^[^\w`]*(?:[^\W\d][^\n:：`\d]{0,40})[:：]\W*$")


def is_label(item: str) -> bool:
    """Whether a report's item only introduces the ones after it ("**Changes:**", "Code
    Change:", "생성된 파일:"): a few words ending in a colon, naming no value."""
    return bool(_LABEL.match(item.replace("*", "").strip()))


_OTHER_WAY = re.compile(
    r"\binstead\b|\balternative(?:ly)?\b|\b(?:another|a different) (?:way|approach|tool|method|"
    r"command|route)\b|\bfall(?:ing)? back (?:to|on)\b|\bwork(?:ing)? around (?:it|this|that)\b|"
    r"\bswitch(?:ing)? to\b|\bbuilt-in\b|"
    r"改用|换成|换用|另一种(?:方法|方式)|替代|代わりに|別の方法|stattdessen|alternativ|"
    r"em vez|ao invés|вместо|místo toho",
    re.IGNORECASE,
)


@remembered
def turns_to_another_way(text: str) -> bool:
    """Whether the assistant says it goes another way after what failed ("Let me use the
    `gcloud storage` command instead", "改用 …", "stattdessen …"): the failures so far
    are an approach given up, no longer what blocks the request. A question proposes,
    it does not turn."""
    return any(
        _OTHER_WAY.search(text[start:end]) and not asks_user(text[start:end])
        for start, end in sentences(text)
    )
