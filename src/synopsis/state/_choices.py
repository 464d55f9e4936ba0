"""The choices a conversation states: Key Decisions.

A decision is a choice between ways of doing the work, stated by the one who made it:

* the user's: a choice they name ("go with the Frankfurt one", "那就选P001吧"), a short
  answer to what the assistant offered ("Friday 10:15."), a sentence that takes one of
  the options the assistant just listed ("Roll back now." after "Fastest mitigation:
  roll back to revision 41"), or a short yes or no to the assistant's proposal — then the
  proposal itself is what was decided ("ok do it → I'd drop the old slot first");
* the assistant's: an action it takes with the reason it gives ("Let me remove the
  organize section for now as it's not in the correct format"), a choice of means ("I'll
  use an enum for …"), an explicit choice ("I'll go with the conditional update",
  "修复：统一用 …") together with the sentences that state the options and why, or a plan
  it states as a list ("I'll fix both issues: 1. … 2. …").

Not decisions: options only considered or offered ("I could also …", "if you want …"),
guesses, pleasantries ("I'll help you …!"), the next step narrated ("Now I'll read the
config"), a change reported ("Fixed the parser"), and lead-ins that name nothing ("I'll
do it locally instead:") unless the sentence before says what and why.

Everything here is read from the user's and the assistant's own prose, never from tool
output; each decision is verbatim text (sentences joined by a space), capped.
"""

from __future__ import annotations

import re
from itertools import pairwise

from synopsis.state._memo import remembered, remembered_list
from synopsis.state._patterns import lower_same
from synopsis.state._text import cap, normalize_ws, sentences
from synopsis.state.rules import any_match, first_match, rules
from synopsis.state.statements import is_rule

MAX_STATEMENT = 240
MAX_DECISION = 320
"""A decision with the sentences that give its options and reason, at most."""

# --- the user's choices -------------------------------------------------------------------

_CHOICE_EN = re.compile(
    r"\b(?:go with|going with|let'?s go with|let'?s do|i'?ll take|i'?ll go with|take the|"
    r"pick|choose|book (?:it|that|the)|hold (?:the )?\w+|use the|works(?: for (?:me|us))?[.!]?$|"
    r"sounds good|that one|this one|is ok|is fine|do it|go for|can go\b|"
    r"yes,? (?:please|do|go|book|hold|reuse|use)|ask them to|tell them to|skip|instead|"
    r"i(?:'ll| will) just|i (?:actually )?(?:plan|want|prefer|intend) to|i'?d rather|"
    r"going forward|from now on)(?!\w)",
    re.IGNORECASE,
)
_CHOICE_OTHER = re.compile(
    r"を使(?:います|う|用します)|とします|にします|に決め|を採用|で(?:いきます|行きます)|を選び|"
    r"\b(?:option|variant|plan) [A-Z0-9]\b(?!\s*[?？])|"
    r"\b(?:stattdessen|lieber|nehmen wir|wir nehmen|verwenden wir|em vez de|ao invés de|"
    r"vamos usar|prefiro|usaremos|en lugar de|usaremos|à la place|plutôt|místo|вместо|"
    r"давай(?:те)? (?:использовать|сделаем))(?!\w)",
    re.IGNORECASE,
)
"""A choice named in Japanese ("…を使います", "…とします"), by the option's letter ("do
option A"), or with "instead" / "rather" in German, Portuguese, Spanish, French, Czech,
Russian."""
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
_SALIENT = re.compile(
    r"(?<![\w.:])\d+(?:[:.]\d+)*(?![\w])|(?<!\w)[A-Z][\w-]{2,}|[\u4e00-\u9fff]{2}|"
    r"`[^`\n]{2,40}`|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"
)
"""What names one thing in a sentence: a number or time, a capitalised name, a CJK word,
a quoted or snake_case identifier."""


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


_OFFERS = re.compile(
    r"[?？]|\b(?:options?|alternatives?|alternatively|either|or (?:we|i|you) could|"
    r"(?:i'?d|i would) (?:recommend|suggest)|i (?:recommend|suggest)|recommendation|"
    r"mitigation|proposal|propose)\b|建议|或者|还是|选项|方案|可以选",
    re.IGNORECASE,
)
"""An assistant message that puts options or a proposal to the user."""
_WORD = re.compile(r"[a-z][a-z'-]+")
_FUNCTION_WORDS = frozenset({
    "the", "a", "an", "to", "of", "in", "on", "at", "for", "and", "or", "but", "is", "are",
    "was", "be", "it", "this", "that", "with", "as", "by", "we", "you", "i", "me", "my", "our",
    "your", "can", "could", "would", "will", "should", "do", "does", "not", "no", "so", "if",
    "then", "there", "here"
})  # fmt: skip


def _pairs(text: str) -> set[tuple[str, str]]:
    """Adjacent word pairs of ``text`` (lower case) that are not both function words."""
    words = _WORD.findall(text.lower())
    return {
        (a, b) for a, b in pairwise(words) if not (a in _FUNCTION_WORDS and b in _FUNCTION_WORDS)
    }


def takes_an_offer(sentence: str, said: str) -> bool:
    """Whether a user's sentence takes up one of the options the assistant just put to
    them: it names a thing the offer named (a name, a time, an identifier) or repeats two
    of its words in a row ("Roll back now." after "Fastest mitigation: roll back to
    revision 41"; "Tasting April 4." after "Tasting March 28 or April 4")."""
    if len(sentence) > _TAKES_AN_OFFER:
        return False  # a long statement is no pick between options
    offer = _offer(said[-1500:])
    if offer is None or is_rule(sentence.lower()):
        return False  # no offer, or a rule: no pick between options
    named = {t for t in _NAMED.findall(sentence) if len(t) > 1}
    if not named.isdisjoint(offer[0]):
        return True
    return not _pairs(sentence).isdisjoint(offer[1])


@remembered
def _offer(said: str) -> tuple[frozenset[str], frozenset[tuple[str, str]]] | None:
    """What a pick can share with the assistant's last words when they put options (the
    names, the word pairs), else None: the same words are asked of each sentence of the
    reply, and again on each pass over the messages (remembered per text)."""
    if not _OFFERS.search(said):
        return None
    return frozenset(_NAMED.findall(said)), frozenset(_pairs(said))


_TAKES_AN_OFFER = 100
"""A sentence that picks an offered option is short ("Roll back now.")."""
_NAMED = re.compile(
    r"(?<![\w.:])\d+(?:[:.]\d+)*(?![\w])|(?<!\w)[A-Z][\w-]{2,}|`[^`\n]{2,40}`|"
    r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"
)
"""Names an offer and a pick share: numbers and times, capitalised names, identifiers
(a CJK pair is too common to tell; short CJK answers are read as replies)."""


_POSITIVE = re.compile(
    r"^(?:yes|yeah|yep|yup|ok(?:ay)?|sure|sounds good|go ahead|do it|please do|go for it|"
    r"agreed?|perfect|great|fine|lgtm|approved?|let'?s do (?:it|that)|that works|"
    r"好的?|行|可以|没问题|同意|就这样|就这么办|嗯|"
    # yes in other languages: a yes answers the proposal whatever the language
    r"да|давай|ок|хорошо|ja|jo|oui|d'accord|sí|si|vale|sim|claro|tak|ano|jasne|evet|"
    r"はい|お願い|네|좋아)(?!\w)",
    re.IGNORECASE,
)
_NEGATIVE = re.compile(
    r"^(?:no|nope|nah|don'?t|do not|not now|skip it|never mind|不用|不要|算了|别)\b", re.IGNORECASE
)
_PROPOSAL = re.compile(
    r"\b(?:(?:i'?d|i would) (?:recommend|suggest|propose|go with|rather)|i (?:recommend|suggest|"
    r"propose)|my recommendation|(?:the )?(?:best|simplest|safest|fastest|cleanest) "
    r"(?:option|approach|fix|way|mitigation)|(?:should|shall|can|may) i\b|want me to|"
    r"would you like me to|do you want me to|how about|i can\b)|"
    r"建议|要不要|我可以|是否需要|可以吗|好吗",
    re.IGNORECASE,
)
MAX_APPROVAL = 60
"""A yes or no this short answers the proposal before it."""


def approved_proposal(reply: str, said: str | None) -> str | None:
    """When a short yes or no answers a proposal of the assistant ("ok do it" after "I'd
    drop the old slot first — want me to?"), the decision it makes: the reply's words
    and the proposal they accept or turn down, verbatim ("ok do it → I'd drop …")."""
    line = normalize_ws(reply)
    if not said or not line or len(line) > MAX_APPROVAL or line.endswith(("?", "？")):
        return None
    low = line.lower()
    if not (
        _POSITIVE.match(line)
        or _NEGATIVE.match(line)
        or any_match("yes", low)  # the other languages' yes and no (rules/<lang>.py)
        or any_match("no", low)
    ):
        return None
    tail = said[-1500:]
    spans = sentences(tail)
    for start, end in reversed(spans[-4:]):  # the proposal is near the end of its message
        proposal = normalize_ws(tail[start:end])
        offers = _PROPOSAL.search(proposal) or any_match("proposal", proposal.lower())
        if offers and len(proposal) >= 12:
            return f"{line} → {cap(proposal, MAX_STATEMENT)}"
    if spans:  # in any language, a closing question is what a yes or no answers
        last = normalize_ws(tail[slice(*spans[-1])])
        if _is_question(last) and len(last) >= 12:
            return f"{line} → {cap(last, MAX_STATEMENT)}"
    return None


def user_choices(text: str, short_reply: bool, said: str | None = None) -> list[str]:
    """The choices a user message states, verbatim, one sentence each: the whole message
    when it is a short reply (not a request, a question or a mere "ok" — "黄山。",
    "Friday 10:15.") to what the assistant ``said`` (when known), else each sentence that
    names a choice or takes up an option the assistant just offered."""
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
        if (
            _CHOICE_EN.search(sentence)
            or _CHOICE_ZH.search(sentence)
            or _CHOICE_OTHER.search(sentence)
            or first_match("choice", sentence.lower()) is not None
            or (said and takes_an_offer(sentence, said))
        ):
            found.append(cap(sentence, MAX_STATEMENT))
    return found


# --- the assistant's choices --------------------------------------------------------------

_EXPLICIT = re.compile(
    r"\b(?:i(?:'|’)?ve decided|i decided|we decided|decided to|decision:|(?:i(?:'|’)ll|i will|"
    r"let(?:'|’)?s|we(?:'|’)ll) (?:go|stick) with|going with|opt(?:ing)? for|i chose|chose to|"
    r"i(?:'|’)m choosing|settle on|switching to|the plan is|i(?:'|’)d (?:skip|go with|recommend|"
    r"suggest|pick|use|rather|keep)|the fix\b[^.]{0,60}:|(?:\bi\b|\bwe\b|\blet(?:'|’)?s\b)[^.]*"
    r"\b(?:instead of|rather than)\b|\bneeds no\b|\b(?:is|are) (?:the )?(?:safer|simpler|cleaner|"
    r"better|faster|more robust)\b|the (?:simpler|simplest|better|best|safer|safest|cleanest|"
    r"right) (?:approach|option|way|fix|solution) (?:is|would be|here is)\b)|"
    r"修复[:：]|统一用|改用|决定|就用|采用|选用|选择了|方案是|计划是|"
    r"(?:我们?|咱们)(?:将|会|就|决定)?(?:使用|采用|选用)(?!了)|"
    r"\bthis is an? [^.]{0,60}\b(?:since|because)\b|"
    r"\b(?:wir sollten|ich werde daher|wir werden daher|daher werde ich|meine empfehlung)\b|"
    r"\b(?:preciso|precisamos|vou|vamos) [^.]{0,60}\b(?:para|porque|pois)\b|"
    r"我(?:在|把|给|会|来)[^。，,]{0,30}(?:加|改成|改为|换成|设为|设成)",
    re.IGNORECASE,
)
"""A choice said as one: decided, going with, opting for, "I'd skip …", "the fix: …",
"X instead of Y", "stripping is safer", "修复：统一用 …"."""
_CHOSE = re.compile(
    r"\b(?:i|we) (?:went with|chose|picked|opted for|switched (?:it |this |that )?to|settled on|"
    r"used|kept|replaced)\b",
    re.IGNORECASE,
)
"""A choice reported as made ("I used a set instead of a list, since …"): a decision when
it gives its reason or what it was instead of."""
_INTENT = re.compile(
    r"(?:^|[,;:—–]\s*|\s-\s|\bso\s+)(?:now\s+|then\s+|first\s+|ok(?:ay)?,?\s+)?"
    r"(?:i(?:'|’)ll|i will|i(?:'|’)m going to|i am going to|i need to|i(?:'|’)ll need to|"
    r"let me|let(?:'|’)?s|we(?:'|’)ll|we will|we need to|we should|i should)\s+"
    r"(?:also\s+|just\s+|now\s+|first\s+|instead\s+|then\s+)?(?P<verb>[a-z][a-z-]*)",
    re.IGNORECASE,
)
"""The agent saying what it does next, and the verb it does it with."""
_INTENT_ZH = re.compile(
    r"我(?:会|将|打算|准备|来|先)(?!看|查|读|检查|搜|找|确认|试)|我们(?:就|先|改|用)"
)
_LOOKING = frozenset({
    "read", "check", "look", "search", "run", "view", "examine", "verify", "see", "explore",
    "investigate", "inspect", "find", "start", "begin", "continue", "proceed", "try", "test",
    "analyze", "analyse", "review", "understand", "get", "open", "list", "take", "have",
    "know", "help", "grep", "scan", "rerun", "re-run", "confirm", "show", "print", "dig", "go",
    "work", "walk", "summarize", "summarise", "think", "figure", "gather", "fetch",
    "double-check", "create", "write", "present", "wait", "ask", "tell", "focus", "first",
    "quickly", "now", "commit", "push", "stage", "save", "rebuild", "build", "install",
    "restart", "trace", "debug", "step", "reproduce", "compare"
})  # fmt: skip
"""Verbs of finding out, or of starting: what the agent does next, no choice made."""
_ROUTINE = frozenset({
    "fix", "update", "change", "correct", "adjust", "modify", "edit", "add", "improve",
    "clean", "tidy", "tweak", "rewrite", "refactor"
})  # fmt: skip
"""Verbs of the edit at hand ("It's not exported. Let me fix the test:"): a choice only
with its reason in the same sentence, or as the head of a plan."""
_MEANS = frozenset({
    "use", "switch", "pick", "choose", "adopt", "stick", "keep", "prefer", "replace",
    "migrate", "store", "represent"
})  # fmt: skip
"""Verbs that choose a means ("I'll use an enum to …"): a choice even without a reason."""
_REASON = re.compile(
    r"\b(?:because|since|as (?:it|this|that|they|the|we|there|you|these|those)|so that|"
    r"given (?:that|the)|to avoid|to keep|to prevent|for now|instead of|rather than|"
    r"which (?:is|are|means|satisfies|keeps|avoids|matches|makes))\b|"
    r"\((?:not|no|which|since|because|as)\b|\s[-–—]\s(?:these|this|it|they|that|the)\b|"
    r"因为|由于|所以|以免|避免|这样",
    re.IGNORECASE,
)
_PROBLEM = re.compile(
    r"\b(?:not|no|never|only|already|ignored|missing|wrong|fail\w*|broken|errors?|"
    r"conflict\w*|deprecated|unused|obsolete|outdated|duplicated?|contradictory|too \w+)\b|"
    r"n['’]t\b|\(.{4,}\)|不|没|错|失败",
    re.IGNORECASE,
)
"""The sentence before a bare intention that says why ("… is ignored by git (it's a local
configuration file). I'll force-add it and commit")."""
_OPTIONS = re.compile(r"\b(?:options?|either|alternatives?|or)\b|或者|还是|两种|方案", re.I)
_OFFER_ONLY = re.compile(
    r"\bif (?:needed|necessary|required|you (?:want|prefer|like|'d like|agree))\b|"
    r"\bsay the word\b|\bwould you like\b|\bshould I\b|\bor (?:we|I) could\b|"
    r"\bcould (?:also )?(?:try|use|add|switch)\b|\bi can\b|\bwe could\b|"
    r"\b(?:help you|happy to|glad to|let me know|i bet|maybe|perhaps|probably|might|"
    r"i guess|i suspect|i think)\b|如果需要|如果你(?:想|愿意)|可能|也许|大概",
    re.IGNORECASE,
)
"""An option offered or left open, a guess or a pleasantry: nothing chosen."""
_NARRATION = re.compile(
    r"^(?:fixed|changed|updated|replaced|moved|renamed|removed|added|switched|converted|made|"
    r"refactored|rewrote|reworked|extracted)\b(?!.*\b(?:because|since|so that)\b)|"
    r"^(?:(?:the|this|it|that) )?[\w`\"'.()-]+(?: [\w`\"'.()-]+){0,3} (?:are |is )?now (?:just )?"
    r"(?:uses|takes|returns|has|is|shows?|calls|reads|renders|displays|includes|works|runs)\b|"
    r"^(?:now )?it (?:now )?(?:just )?(?:uses|takes|returns)\b|"
    r"^the \w+ changed\b|^[^,;:]{0,60}\b(?:are|is) now\b(?!.*\b(?:because|since|so that)\b)",
    re.IGNORECASE,
)
"""A change reported ("Footer now uses …", "Fixed the style objects …"): what was done,
not a choice between ways with its reason (a report that gives one stays a choice)."""
_LIST_ITEM = re.compile(r"^[^\S\n]{0,3}(?:[-*•+]|\d{1,2}[.)])[^\S\n]+(?P<item>\S[^\n]*)$", re.M)
_PLAN_ITEMS = 4
_PLAN_ITEM_CHARS = 90


def _is_question(sentence: str) -> bool:
    return sentence.rstrip().endswith(("?", "？"))


def _choice_kind(sentence: str) -> str | None:
    """How a sentence of the assistant chooses: "explicit", "reasoned" (an action with its
    reason), "means" (a choice of means), "bare" (an action that needs the sentence before
    for its reason), or None."""
    if _chooses_nothing(sentence):
        return None
    if sentence.endswith(("!", "！")):
        return None  # "I'll help you set that up!": a pleasantry
    if _EXPLICIT.search(sentence):
        return "explicit"
    if _CHOSE.search(sentence) and _REASON.search(sentence):
        return "reasoned"
    intent = _INTENT.search(sentence)
    if intent is None:
        zh = _INTENT_ZH.search(sentence)
        return "reasoned" if zh is not None and _REASON.search(sentence) else None
    verb = intent.group("verb").lower()
    if verb in _LOOKING:
        return None
    if _REASON.search(sentence):
        return "reasoned"
    if verb in _MEANS and not re.search(r"\buse the \w+ tool\b", sentence, re.I):
        return "means"
    return "bare"


_CUES = (
    "i'll", "i’ll", "i will", "i'm going", "i’m going", "i am going", "i need", "let me",
    "let's", "let’s", "lets ", "we'll", "we’ll", "we will", "we need", "we should", "i should",
    "i'd", "i’d", "decid", "decision", "going with", "opt", "chose", "choosing", "settle",
    "switching", "the plan", "the fix", "instead", "rather than", "needs no", "safer",
    "went with", "picked", "used", "kept", "replaced",
    "simpler", "cleaner", "better", "faster", "robust", "修复", "统一用", "改用", "决定",
    "就用", "采用", "选用", "选择了", "方案", "计划", "我",
    # the other records of _EXPLICIT: "this is a … since", German and Portuguese choices
    "this is a", "wir sollten", "daher", "empfehlung", "preciso", "precisamos", "vou ",
    "vamos ",
)  # fmt: skip
"""Words one of which a choice needs: a fast test before the sentence patterns."""


@remembered_list
def assistant_choices(text: str) -> list[str]:
    """The decisions an assistant message states (see the module docstring), verbatim."""
    low = text.lower()
    if not any(map(low.__contains__, _CUES)):
        return []
    found: list[str] = []
    spans = sentences(text)
    for index, (start, end) in enumerate(spans):
        sentence = normalize_ws(text[start:end])
        if _in_list_item(text, start) and not _FIRST_PERSON.match(sentence):
            continue  # a line of a list (a plan's items join the sentence that heads it)
        kind = _choice_kind(sentence)
        if kind is None:
            continue
        before = _same_paragraph_before(text, spans, index)
        parts = [sentence]
        if kind == "explicit" and before and not _REASON.search(sentence):
            # "Two options: A or B. A needs no lock. I'll go with A.": the options and
            # the reason, in the sentences before, belong to the choice
            near = before[-2:]
            listed = [i for i, earlier in enumerate(near) if _OPTIONS.search(earlier)]
            if listed and not any(map(_chooses_nothing, near[listed[0] :])):
                parts[:0] = near[listed[0] :]  # from the sentence that names the options
            else:
                for earlier in reversed(near):
                    if not _is_support(earlier):
                        break
                    parts.insert(0, earlier)
        elif kind == "bare":  # why is in the sentence before, or it heads a plan
            reason = before[-1] if before else ""
            intent = _INTENT.search(sentence)
            routine = intent is not None and intent.group("verb").lower() in _ROUTINE
            if reason and not routine and _is_support(reason) and _PROBLEM.search(reason):
                parts.insert(0, reason)
            elif not _plan_items(text, end):
                continue  # an action with no why: the next step, not a choice
        items = _plan_items(text, end) if sentence.endswith((":", "：")) else []
        lead_in = sentence.endswith((":", "：")) and not items and len(parts) == 1
        if lead_in and (kind in ("bare", "means") or not _REASON.search(sentence)):
            continue  # a lead-in to code or an edit, with nothing chosen in it
        decision = " ".join(parts)
        if items:
            decision = f"{decision} {'; '.join(items)}"
        decision = cap(decision, MAX_DECISION)
        if _long_enough(decision) and decision[0] not in "-*•" and decision not in found:
            found = [earlier for earlier in found if earlier not in decision]  # now with more
            found.append(decision)
    return found


_FIRST_PERSON = re.compile(r"(?:i|we|let(?:'|’)?s)\b|我", re.IGNORECASE)


def _in_list_item(text: str, start: int) -> bool:
    """Whether the sentence at ``start`` stands in a line of a list ("- Include …")."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    return _LIST_ITEM.match(line) is not None


def _chooses_nothing(sentence: str) -> bool:
    """A question, a guess or offer, or a change reported."""
    return bool(
        _is_question(sentence) or _OFFER_ONLY.search(sentence) or _NARRATION.match(sentence)
    )


def _is_support(sentence: str) -> bool:
    """Whether a sentence before a choice states its options or its reason (not a guess,
    a question or a change reported)."""
    if _chooses_nothing(sentence):
        return False
    return bool(_OPTIONS.search(sentence) or _REASON.search(sentence) or _PROBLEM.search(sentence))


def _long_enough(text: str) -> bool:
    """Whether a statement is long enough to say what was chosen (CJK says more per
    character: "决定改用 orjson 来解析。")."""
    return len(text) >= (_MIN_CJK if _CJK.search(text) else _MIN_LATIN)


_MIN_LATIN = 20
_MIN_CJK = 6
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _same_paragraph_before(text: str, spans: list[tuple[int, int]], index: int) -> list[str]:
    """The sentences before sentence ``index`` in its paragraph (no list item or code)."""
    found: list[str] = []
    at = index - 1
    while at >= 0 and len(found) < 3:
        start, end = spans[at]
        gap = text[end : spans[at + 1][0]]
        if "\n\n" in gap or _LIST_ITEM.match(text[start:end]):
            break
        found.insert(0, normalize_ws(text[start:end]))
        at -= 1
    return found


def _plan_items(text: str, end: int) -> list[str]:
    """The items of the list that follows a sentence ending in a colon: a plan stated as
    one ("I'll fix both issues:\n\n1. Remove …\n2. Update …")."""
    rest = text[end : end + 1500].lstrip("\n")
    items: list[str] = []
    for line in rest.split("\n"):
        if not line.strip():
            if items:
                break
            continue
        match = _LIST_ITEM.match(line)
        if match is None:
            break
        items.append(cap(normalize_ws(match.group("item").replace("**", "")), _PLAN_ITEM_CHARS))
    return items[:_PLAN_ITEMS]


def is_stated_choice(text: str) -> bool:
    """Whether an assistant "decision" kept in a state (an earlier version's record among
    them) states a choice rather than a pleasantry or a lead-in to a list."""
    stripped = text.strip()
    if not _long_enough(stripped) or stripped[0] in "-*•" or stripped[0].islower():
        return False  # a list item torn from its list, or a piece of a sentence
    if stripped.endswith(("!", "！")):
        return False
    if (
        stripped.endswith((":", "："))
        and not _REASON.search(stripped)
        and len(sentences(stripped)) < 2
    ):
        return False  # a lead-in: what it leads to is not in it
    return not _OFFER_ONLY.search(stripped) and not _NARRATION.match(stripped)


# --- the user's words in a tool result ----------------------------------------------------

_PAIR = re.compile(r'"(?P<question>[^"\n]+)"\s*=\s*"(?P<answer>[^"\n]*)"')
MAX_ASKED = 90
"""How much of the question an answer is listed with: enough to say what it answers."""


@remembered_list
def tool_answers(output: str) -> list[str]:
    """The choices a tool result carries in the user's own words (``tool-answer``
    records): each answer to a question the agent asked through a question tool, with the
    question it answers ("English / LTR (Recommended) — to: “How closely should we mirror
    …”"), and the reason the user gave for rejecting a call. The result is the harness',
    the words are the user's: what they chose, where no user message says it."""
    low = lower_same(output)  # (offsets into the output stay right)
    found: list[str] = []
    for rule in rules("tool-answer"):
        for match in rule.compiled.finditer(low):
            groups = match.groupdict()
            if groups.get("pairs") is not None:
                start, end = match.span("pairs")
                for pair in _PAIR.finditer(output, start, end):
                    answer = normalize_ws(pair["answer"])
                    asked = cap(normalize_ws(pair["question"]), MAX_ASKED)
                    if answer:
                        found.append(cap(f"{answer} — to: “{asked}”", MAX_STATEMENT))
            elif groups.get("answer") is not None:
                answer = normalize_ws(output[match.start("answer") : match.end("answer")])
                if answer:
                    found.append(cap(answer, MAX_STATEMENT))
    return list(dict.fromkeys(found))
