"""The *attribute source* stage: who wrote each part of a user turn, and how.

A "user" message of an agent session holds much that the user did not type: the
harness' own text (command wrappers, hook output, continuation summaries, console
prompts and their answers, ``/init`` expansions, skill and instruction files) and
documents the user pasted (code, logs, READMEs, whole agent prompts). Only what the
user *typed* may become a rule, goal or preference; a pasted document is at most
reference material (its values are kept, as a tool's are), and the harness' text is
nobody's instruction.

The decision is made from the text's structure, not from its wording:

* **harness** — an element in a harness' wrapper tags, whatever the tag's name, told by
  where its tags stand (a name with ``-`` or ``_`` like ``<system-reminder>``, which no
  prose uses; an element that opens the message; tags on lines of their own) — except
  an envelope that quotes the user's own words (``<task>``, ``<user_query>``: recorded
  as ``quote-envelope`` rules), whose tags are the harness' and whose inside is
  attributed like any text; a line that is only a tag; a line that starts a slash
  command (``/add src/x.py``); a console prompt with its option list and answer
  (``…? (Y)es/(N)o [Yes]: all``); a hook's report (a ``… hook …:`` line, or a line opened
  by a bracketed script path); a templated task prompt (capitalised labels, a role
  framing, rule bullets) but for its request; and the known harness formats recorded as
  ``harness`` rules in :mod:`synopsis.state.rules`; and, by the classes recorded in
  :mod:`synopsis.state.rules.harness`, a stretch that declares itself automated (or not
  the user's), a paragraph that tells the model about its tools or turns while naming
  the user in the third person (with a title line over it), a paragraph opened by a
  capitalised status label in brackets ("[TASK RESUMED] The …");
* **tool** — a tool's result a harness returns in a user turn, from its bracketed header
  ("[read_file for 'a.py'] Result:") to the end of its stretch;
* **pasted** — fenced code, YAML front matter, terminal output, and documents: another
  model's formatted reply (headings, bold labels, tables, dense enough, or a verdict on
  "your" work), from a heading (markdown, an all-capitals title line or a bold title
  line) that opens a long run of lines, any very long block, and in a long message
  everything after its first paragraph (the user's framing of what they paste), and a
  reply copied off a terminal program (its lines keep the program's left margin).
  Terminal output is found as runs of output-shaped lines across paragraphs and is one
  block (``Part.output``): its values are not read, and its failure line
  (:func:`failure_line`) is all that is kept of it;
* **typed** — the rest.

Every decision reads the message alone, never a later one: what a message's words are
does not change when the conversation goes on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from synopsis.state._memo import remembered_list
from synopsis.state.model import Written
from synopsis.state.rules import (
    ENGLISH_WORDS,
    any_match,
    first_match,
    foreign_language,
    language_of,
    pattern,
    words_of_languages,
)
from synopsis.state.statements import HAN, is_rule

MAX_TYPED_LINES = 12
"""A part with more lines than this and a heading reads as a pasted document."""
MAX_PASTED_FREE_LINES = 40
"""A paragraph with more lines than this is pasted, heading or not."""
LONG_MESSAGE_LINES = 25
LONG_MESSAGE_CHARS = 2500
"""A message past both is a document after its first paragraph (nobody types that much
in one go; they introduce what they paste)."""
MAX_VERBATIM_MESSAGE = 300
"""A typed message in a language without rules is kept whole up to this many characters."""


@dataclass(frozen=True, slots=True)
class Part:
    text: str
    written: Written
    output: bool = False
    """Terminal or log output (pasted by the user, or a tool's result the harness put in
    the turn): one block, whose values are reference and whose failure line stands for it."""


# An element's opening tag; which elements are a harness' wrappers is decided by
# :func:`_elements` from where the tags stand, not from the tag's name alone.
_OPEN_TAG = re.compile(r"<(?P<name>[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*)(?:\s[^<>]*)?>", re.IGNORECASE)
_CUSTOM_NAME = re.compile(r"[-_]")
_TAG_LINE = re.compile(r"^[ \t]*</?[a-z][\w-]*(?:\s[^<>\n]*)?>[ \t]*(?:\n|\Z)", re.MULTILINE | re.I)
"""A line that is nothing but a tag: an envelope's end whose start the harness put
elsewhere ("</task>"); never words of the user's."""
_SLASH_COMMAND = re.compile(
    # not a top-level directory named in prose ("/tmp is full")
    r"^[ \t]*`?/(?!(?:tmp|etc|var|usr|opt|home|srv|dev|mnt|root|bin|proc|data|users)\b)"
    r"(?P<name>[a-z][\w:-]*)(?=[\s`\\]|$)[^\n]*(?:\n|\Z)",
    re.IGNORECASE,
)
_CONSOLE_PROMPT = re.compile(
    r"^[^\n]*\?\s*(?:\(\w\)[\w' ]*/){1,}\(\w\)[\w' ]*\s*(?:\[[^\]\n]*\])?\s*:[^\n]*$",
    re.MULTILINE,
)
# A hook's report: a short title line naming the hook and what it reports ("Stop hook
# feedback:", "PreToolUse:Bash hook error:"), or a line opened by the script's path.
_HOOK_REPORT = re.compile(
    r"\A[\w:./-]+(?: [\w:./-]+){0,2} hook (?:[\w-]+ ){0,3}?(?:feedback|output|error|result|"
    r"message|blocked)[\w ]{0,30}:[^\n]{0,120}\n|^\[[^\]\n]*[/\\][^\]\n]*\]:\s",
    re.IGNORECASE,
)
_LINE = re.compile(r"^.*$", re.MULTILINE)
_FENCE_OPEN = re.compile(r"^[ \t]*(?P<fence>```|~~~)|(?P<after>```|~~~)[\w+.#-]*[ \t]*$")


def fences(text: str) -> list[tuple[int, int]]:
    """Where ``text`` has fenced blocks: (start, end) of each, unclosed ones to the end.
    A fence opens on a line of its own or at the end of a line after a language tag
    ("see: ```bash"), and only as the one fence mark of its line; it is closed by a
    line that opens with the same mark. Marks inside a line ("```bashnode -e …```" in
    a pasted prompt line) open nothing."""
    if "```" not in text and "~~~" not in text:
        return []
    spans: list[tuple[int, int]] = []
    mark: str | None = None
    start = 0
    for line in _LINE.finditer(text):
        body = line.group()
        if mark is not None:
            if body.lstrip(" \t").startswith(mark):
                spans.append((start, line.end()))
                mark = None
            continue
        opening = _FENCE_OPEN.search(body)
        if opening is not None:
            found = opening.group("fence") or opening.group("after")
            if body.count(found) == 1:
                mark = found
                start = line.start() + opening.start()
    if mark is not None:
        spans.append((start, len(text)))
    return spans


_FRONT_MATTER = re.compile(r"\A---\s*\n(?:[\w-]+:.*\n){1,20}---\s*(?:\n|\Z)")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")
_BOLD_TITLE = re.compile(r"^\s*\*\*[^*\n]{2,80}\*\*:?\s*$")
_PARENTHETICAL = re.compile(r"\([^)]*\)")
TERMINAL_SHARE = 0.6


@remembered_list
def attribute(text: str) -> list[Part]:
    """The parts of a user turn, in order, each with how it was written."""
    parts: list[Part] = []
    position = 0
    for start, end, inner_start, inner_end, envelope in _elements(text):
        parts.extend(_unwrapped(text[position:start]))
        if envelope:  # the harness quotes the user's words
            parts.append(Part(text[start:inner_start], "harness"))
            parts.extend(attribute(text[inner_start:inner_end]))
            parts.append(Part(text[inner_end:end], "harness"))
        else:
            parts.append(Part(text[start:end], "harness"))
        position = end
    parts.extend(_unwrapped(text[position:]))
    return [part for part in parts if part.text.strip()]


def _elements(text: str) -> Iterator[tuple[int, int, int, int, bool]]:
    """A harness' wrapper elements in ``text``: (start, end, inner start, inner end, and
    whether it is an envelope that quotes the user: a ``quote-envelope`` name).

    An element is a wrapper when its tags stand where only a harness puts them: a tag
    name with ``-`` or ``_`` (custom-element style, which no prose uses; one that opens the
    message may run to its end), an element that opens the message and is closed in it,
    one whose tags stand at the start and the end of lines of their own, and an envelope
    known to quote the user (``<task>``, anywhere). HTML the user mentions in a sentence
    ("wrap it in <ul>") is none of these."""
    position = 0
    lead = len(text) - len(text.lstrip())
    closes: dict[str, re.Match[str] | None] = {}  # per name: the next closing tag found
    while (tag := _OPEN_TAG.search(text, position)) is not None:
        name = tag.group("name")
        custom = _CUSTOM_NAME.search(name) is not None
        key = name.lower()
        close = closes.get(key)
        if key not in closes or (close is not None and close.start() < tag.end()):
            # one search per closing tag and name (none found stays none): many tags of
            # one name in a pasted page stay linear
            close = re.compile(rf"</{re.escape(name)}\s*>", re.IGNORECASE).search(text, tag.end())
            closes[key] = close
        if close is None:
            if custom and tag.start() == 0:
                yield tag.start(), len(text), tag.end(), len(text), any_match("quote-envelope", key)
                return
            position = tag.end()
            continue
        at_start = tag.start() == lead
        own_lines = _opens_line(text, tag.start()) and _ends_line(text, close.end())
        envelope = any_match("quote-envelope", key)
        if custom or at_start or own_lines or envelope:
            yield tag.start(), close.end(), tag.end(), close.start(), envelope
            position = close.end()
        else:
            position = tag.end()


def _opens_line(text: str, position: int) -> bool:
    """Whether only spaces stand between the line's start and ``position``."""
    while position > 0 and text[position - 1] in " \t":
        position -= 1
    return position == 0 or text[position - 1] == "\n"


def _ends_line(text: str, position: int) -> bool:
    """Whether only spaces stand between ``position`` and the line's end."""
    while position < len(text) and text[position] in " \t\r":
        position += 1
    return position == len(text) or text[position] == "\n"


def typed_text(parts: list[Part]) -> str:
    return "\n\n".join(part.text for part in parts if part.written == "typed")


def _unwrapped(text: str) -> Iterator[Part]:
    """Attribution of text outside wrapper elements."""
    stripped = text.strip()
    if not stripped:
        return
    tag_line = _TAG_LINE.search(text)
    if tag_line is not None:
        yield from _unwrapped(text[: tag_line.start()])
        yield Part(tag_line.group(), "harness")
        yield from _unwrapped(text[tag_line.end() :])
        return
    low = stripped.lower()
    if (
        any_match("harness", low)
        or any_match("automated", low)
        or any_match("earlier-summary", low)  # the harness' summary of what came before
        or _HOOK_REPORT.search(stripped)
    ):
        yield Part(text, "harness")  # a known harness text, or one that says it is automated
        return
    result = pattern("tool-result").search(text.lower())
    if result is not None:  # a tool's result runs to the end of the stretch it heads
        yield from _unwrapped(text[: result.start()])
        yield Part(text[result.start() :], "tool", output=True)
        return
    command = _SLASH_COMMAND.match(stripped)
    if command is not None:  # a command to the harness, not words to the agent
        rest = stripped[command.end() :]
        name = command.group("name")
        if rest.strip(" \t\n\\`") == name:  # an export's echo of the command's name
            rest = ""
        yield Part(command.group(), "harness")
        yield from _unwrapped(rest)
        return
    prompt = _CONSOLE_PROMPT.search(stripped)
    if prompt is not None:  # the harness asked, the user picked an option
        yield from _unwrapped(stripped[: prompt.start()])
        yield Part(prompt.group(), "harness")
        yield from _unwrapped(stripped[prompt.end() :])
        return
    if _FRONT_MATTER.match(stripped):
        yield Part(text, "pasted")
        return
    document = _pasted_reply_or_prompt(text)
    if document is not None:
        for part in document:
            if part.written == "typed":
                yield from _documents(part.text)
            else:
                yield part
        return
    position = 0
    for start, end in fences(text):
        yield from _documents(text[position:start])
        yield Part(text[start:end], "pasted")
        position = end
    yield from _documents(text[position:])


def is_heading(line: str) -> bool:
    """A title line: markdown ``#``, ``**bold**`` alone, or all capitals ("REPORT FORMAT")."""
    if _MD_HEADING.match(line) or _BOLD_TITLE.match(line):
        return True
    bare = _PARENTHETICAL.sub("", line).strip().rstrip(":")
    letters = [ch for ch in bare if ch.isalpha()]
    return (
        len(letters) >= 6
        and len(bare) <= 60
        and " " in bare
        and not bare.endswith((".", "!", "?"))
        and all(ch.isupper() for ch in letters)
    )


# --- another model's reply, and a script's task prompt ------------------------------------

_FORMATTING: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("heading", re.compile(r"^\s*#{1,6}\s+\S")),
    ("bold", re.compile(r"^\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+)?\*\*[^*\n]{1,80}\*\*")),
    ("table", re.compile(r"^\s*\|.*\|\s*$")),
    ("rule", re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")),
    ("emoji", re.compile(r"^\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+)?[✅❌✔✗⚠🔴🟠🟡🟢👉📌💡🚀⭐🎯🔧📝]")),
)
"""How a writer formats a line: a heading, a bold label (in a list item too), a table
row, a horizontal rule, an emoji that marks a point. A quote line ("> …") is none: people
quote what they answer; code is fenced, and no line inside a fence counts."""
_LIST_LINE = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+\S")
_SHOUTED_LABEL = re.compile(
    r"^\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+)?(?:\*\*)?"
    r"(?!(?:ERROR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL|FAIL|FAILED|PASS|PASSED|DONE|SKIP|"
    r"SKIPPED|NOTICE)\b)[A-Z][A-Z0-9]{3,}(?:[ _/&-][A-Z0-9]+){0,3}"
    r"(?:\*\*)?(?:\s*[-–—:：]\s*\S|\s*[:：]?\s*$)"
)
"""A template's capitalised label: "CRITICAL - Depth control …", "IMPORTANT:", "OUTPUT
FORMAT" (a log line's level, "ERROR: …", is none)."""
REPLY_MIN_LINES = 8
REPLY_MIN_FORMATTED = 4
REPLY_MIN_CHARS = 300
"""A message this long with this many formatted lines of two kinds or more (a list
counts as a kind) reads as a document: people type chat messages, models and reviewers
write formatted replies (a table alone is pasted output). Two formatted lines in six are
enough when it passes a verdict on "your" work, a reviewer's voice."""
PROMPT_MIN_LINES = 10
PROMPT_MIN_CHARS = 500
PROMPT_MIN_RULE_BULLETS = 5
PROMPT_MANY_LABELS = 4
"""A script's task prompt is long and templated: capitalised labels, a role framing,
many rule bullets. A typed message that shouts once ("IMPORTANT: never push to main")
is none of this."""
MAX_FRAMING_CHARS = 600
"""The user's words around what they paste ("here is the review:") are short."""


def _pasted_reply_or_prompt(text: str) -> list[Part] | None:
    """The parts of ``text`` when it is another model's formatted reply the user pasted,
    or a templated task prompt a script or harness sent in the user's name; else None.

    Decided from the message alone (never from a later one): a typed chat message is
    short and plain; a reply is dense with formatting, a prompt template with capitalised
    labels, a role framing and rule bullets. Of a reply, the plain lines before its first
    formatted one (the user's framing: "here is what the reviewer said:") and a plain last
    paragraph that refers to it ("以上是评审意见，按这个改") stay typed, unless they
    already speak in the reply's voice. Of a prompt, its first plain paragraph is the
    request and stays typed; the rest is the harness'."""
    outside = _outside_code(text)
    lines = [line for line in outside.split("\n") if line.strip()]
    if len(lines) < 6:
        return None
    kinds = [_formatting(line) for line in lines]
    formatted = sum(1 for kind in kinds if kind)
    distinct = {kind for kind in kinds if kind}
    if any(_LIST_LINE.match(line) for line in lines):
        distinct.add("list")
    verdict = any_match("evaluation", outside.lower())
    size = text_size(outside)
    if (
        size >= REPLY_MIN_CHARS
        and (len(lines) >= REPLY_MIN_LINES or verdict)
        and (
            (formatted >= REPLY_MIN_FORMATTED and len(distinct) >= 2)
            or (verdict and formatted >= 2)
        )
    ):
        return _reply_parts(text, outside)
    if len(lines) < PROMPT_MIN_LINES or size < PROMPT_MIN_CHARS:
        return None
    labels = sum(1 for line in lines if _SHOUTED_LABEL.match(line))
    role = any(_is_role(line) for line in lines)
    bullets = sum(1 for line in lines if _LIST_LINE.match(line) and _states_rule(line))
    if (
        labels >= PROMPT_MANY_LABELS
        or (labels >= 2 and (role or bullets >= PROMPT_MIN_RULE_BULLETS))
        or (role and labels and bullets >= PROMPT_MIN_RULE_BULLETS)
    ):
        return _prompt_parts(text, outside)
    return None


def _formatting(line: str) -> str | None:
    return next((kind for kind, pattern in _FORMATTING if pattern.match(line)), None)


def _outside_code(text: str) -> str:
    """``text`` with every fenced block's lines blanked (same line count and offsets):
    a "# comment" or "SELECT" inside code is no heading or label."""
    for start, end in fences(text):
        text = text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]
    return text


def text_size(text: str) -> int:
    """Characters, a CJK character counted as three: about what it carries in Latin letters."""
    return len(text) + 2 * len(HAN.findall(text))


def _reply_parts(text: str, outside: str) -> list[Part]:
    lines, plain_lines = text.split("\n"), outside.split("\n")
    first = next(
        i
        for i, line in enumerate(plain_lines)
        if _formatting(line) or any_match("evaluation", line.lower())
    )
    framing = "\n".join(lines[:first])
    if text_size(framing) > MAX_FRAMING_CHARS or "```" in framing:
        framing, first = "", 0
    body = "\n".join(lines[first:])
    tail = ""
    last = re.search(r"\n\s*\n(?P<tail>[^\n]*(?:\n[^\n]+)*)\s*\Z", body)
    if last is not None:
        candidate = last.group("tail")
        if (
            text_size(candidate) <= MAX_FRAMING_CHARS
            and not any(_formatting(line) for line in candidate.split("\n"))
            and "```" not in candidate
            and any_match("refers-to-paste", candidate.lower())
            and not any_match("evaluation", candidate.lower())
        ):
            body, tail = body[: last.start()], candidate
    return [Part(framing, "typed"), Part(body, "pasted"), Part(tail, "typed")]


def _prompt_parts(text: str, outside: str) -> list[Part]:
    """The request (the first plain paragraph, else the line labelled as the task) typed;
    the template around it the harness' — or pasted, when the user's request introduces
    it ("use the prompt below")."""
    parts: list[Part] = []
    request = introduced = False
    position = 0
    for gap in [*re.finditer(r"\n\s*\n", outside), None]:
        end = len(text) if gap is None else gap.start()
        block, shape = text[position:end], outside[position:end]
        position = end if gap is None else gap.end()
        plain = "```" not in block and not any(
            _formatting(line)
            or _SHOUTED_LABEL.match(line)
            or _LIST_LINE.match(line)
            or _is_role(line)
            for line in shape.split("\n")
            if line.strip()
        )
        typed = (
            plain and bool(block.strip()) and not request and text_size(block) <= MAX_FRAMING_CHARS
        )
        written: Written = "typed" if typed else "pasted" if introduced else "harness"
        introduced = introduced or (typed and not parts)
        request = request or typed
        if parts and parts[-1].written == written:
            parts[-1] = Part(f"{parts[-1].text}\n\n{block}", written)
        else:
            parts.append(Part(block, written))
    if not request:  # no plain paragraph: the request is the line the template labels so
        for line in re.finditer(r"^[^\n]*$", outside, re.MULTILINE):
            if any_match("task-label", line.group().strip().lower()):
                start, end = line.span()
                return [
                    Part(text[:start], "harness"),
                    Part(text[start:end], "typed"),
                    Part(text[end:], "harness"),
                ]
    return parts


def _is_role(line: str) -> bool:
    return any_match("role-framing", line.strip().lower())


def _states_rule(line: str) -> bool:
    """A list item that words a rule (only counted here: a template's rule bullets)."""
    return is_rule(line.lower())


def _documents(text: str) -> Iterator[Part]:
    """Typed prose and pasted documents (see the module docstring)."""
    if not text.strip():
        return
    lines = text.split("\n")
    filled = [ln for ln in lines if ln.strip()]
    if len(filled) > LONG_MESSAGE_LINES and len(text) > LONG_MESSAGE_CHARS:
        first = re.search(r"\n\s*\n", text.strip("\n"))
        if first is not None:
            head = text.strip("\n")[: first.start()]
            if len(head) < MAX_VERBATIM_MESSAGE * 3:
                yield from _paragraphs(head)
                yield from _pasted(text.strip("\n")[first.end() :])
                return
    for index, line in enumerate(lines):
        if is_heading(line):
            rest = [ln for ln in lines[index:] if ln.strip()]
            if len(rest) > MAX_TYPED_LINES:
                head = "\n".join(lines[:index])
                if head.strip():
                    yield from _documents(head)
                yield from _pasted("\n".join(lines[index:]))
                return
    yield from _paragraphs(text)


def _pasted(text: str) -> Iterator[Part]:
    """A pasted document: output when most of it is runs of output lines (a log, a
    terminal session), else a document (a README with a command in it)."""
    if text.strip():
        covered = sum(end - start for start, end in output_runs(text))
        yield Part(text, "pasted", output=covered * 2 >= len(text.strip()))


def _paragraphs(text: str) -> Iterator[Part]:
    """Typed prose, pasted output, the harness' paragraphs about the model's protocol:
    runs of output lines first (one block each, however many paragraphs they span), then
    what is left paragraph by paragraph. Neighbouring parts written alike are one part
    (the user's message as they wrote it; one pasted block, not one per paragraph)."""
    segments: list[tuple[int, int, Written, bool]] = []
    position = 0
    for start, end in [*output_runs(text), (len(text), len(text))]:
        segments.extend(_plain_paragraphs(text, position, start))
        if end > start:
            segments.append((start, end, "pasted", True))
        position = end
    merged: list[tuple[int, int, Written, bool]] = []
    for start, end, written, output in segments:
        if merged and merged[-1][2] == written:
            merged[-1] = (merged[-1][0], end, written, merged[-1][3] or output)
        else:
            merged.append((start, end, written, output))
    for start, end, written, output in merged:
        yield Part(text[start:end], written, output=output)


def _plain_paragraphs(text: str, start: int, end: int) -> list[tuple[int, int, Written, bool]]:
    """The paragraphs of ``text[start:end]`` as (start, end, written, output)."""
    spans: list[tuple[int, int, Written, bool]] = []
    for block in re.finditer(r"\S(?:.*?\S)?(?=[ \t]*\n[ \t]*\n|\s*\Z)", text[start:end], re.DOTALL):
        body = block.group()
        written: Written
        if len([ln for ln in body.split("\n") if ln.strip()]) > MAX_PASTED_FREE_LINES:
            written, output = "pasted", False
        elif is_terminal_output(body):
            written, output = "pasted", True
        elif any_match("protocol", body.lower()) or _STATUS_LABEL.match(body):
            written, output = "harness", False  # told to the model about its own tools
        else:
            written, output = "typed", False
        spans.append((start + block.start(), start + block.end(), written, output))
    # paragraphs copied off a terminal program's screen, together (each may be one line)
    run: list[int] = []
    for index in [*range(len(spans)), -1]:
        a, b, written, _ = spans[index] if index >= 0 else (0, 0, "pasted", False)
        if index >= 0 and written == "typed" and _in_margin(text[text.rfind("\n", 0, a) + 1 : b]):
            run.append(index)
            continue
        if sum(text[spans[i][0] : spans[i][1]].count("\n") + 1 for i in run) >= MARGIN_LINES:
            for i in run:
                spans[i] = (spans[i][0], spans[i][1], "pasted", False)
        run = []
    # a title line over the harness' paragraph ("# Next Steps") is the harness' too
    for index, (a, b, written, _) in enumerate(spans[:-1]):
        title = text[a:b]
        if (
            written == "typed"
            and spans[index + 1][2] == "harness"
            and "\n" not in title
            and is_heading(title)
        ):
            spans[index] = (a, b, "harness", False)
    return spans


_STATUS_LABEL = re.compile(r"\[[A-Z][A-Z0-9]+(?:[ _-][A-Z0-9]+){0,3}\][ \t]+[A-Z][a-z]")
"""A paragraph a harness opens with its status label in capitals ("[TASK RESUMED] The
task was …", "[ERROR] You did …"): the harness reporting to the model in prose (a log's
"[ERROR] 12:01 db down" is output, found as such first)."""

MIN_OUTPUT_LINES = 3
"""A run of this many output-shaped lines is pasted output whatever lies between them."""
MAX_GAP_LINES = 2
MAX_GAP_CHARS = 240
"""Lines of other shapes inside a run (a message in prose a program printed, "Caused
by:") keep it going up to this many; more is the user's own words."""


def output_runs(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds terminal or log output: (start, end) of each run of lines
    shaped like output (:func:`is_output_line`), from its first such line to its last,
    across blank lines and short stretches of other lines. A run is kept when it has
    :data:`MIN_OUTPUT_LINES` such lines, or two and they make most of it; a lone word on a
    line ("all", "y") neither starts nor ends a run. The lines a prompt's command printed
    (up to a blank line) are no gap, but a run ends on one only when it is indented (else
    on an output-shaped line): the user's words typed right after a pasted command stay
    theirs."""
    runs: list[tuple[int, int]] = []
    first = last = -1
    hits = lines = gap = gap_chars = 0

    def close() -> None:
        if first >= 0 and (
            hits >= MIN_OUTPUT_LINES or (hits >= 2 and hits >= TERMINAL_SHARE * lines)
        ):
            runs.append((first, last))

    prompted = False  # the lines after a prompt, up to a blank line, are its command's output
    for line in _LINE.finditer(text):
        body = line.group()
        if not body.strip():
            prompted = False
            continue
        shape = output_shape(body)
        if shape is None and prompted and first >= 0:
            if body[0].isspace():  # printed indented, as no one types
                last = line.end()
            continue  # what the command printed: no gap, and not the run's end unless indented
        prompted = shape == "prompt" or (prompted and shape is not None)
        if shape in ("output", "prompt"):
            if first < 0:
                first, hits, lines = line.start(), 0, 0
            elif gap:
                lines += gap
            hits, lines, gap, gap_chars, last = hits + 1, lines + 1, 0, 0, line.end()
        elif first >= 0 and shape != "weak":
            gap, gap_chars = gap + 1, gap_chars + len(body)
            if gap > MAX_GAP_LINES or gap_chars > MAX_GAP_CHARS:
                close()
                first, hits, lines, gap, gap_chars = -1, 0, 0, 0, 0
    close()
    return runs


def output_shape(line: str) -> str | None:
    """``output`` for a line shaped like terminal or log output, ``prompt`` for a shell
    prompt and its command, ``weak`` for a lone word (a command's answer, or a word of
    prose on a line of its own), else None."""
    low = line.lower()
    if pattern("output-line").search(low) is None:  # one pass for most lines, typed ones
        return None
    match = first_match("output-line", low)
    if match is None:
        return None
    label = match[0].label
    return "weak" if label == "lone-token" else "prompt" if label == "shell-prompt" else "output"


def is_output_line(line: str) -> bool:
    return output_shape(line) is not None


MAX_FAILURE_LINE = 240


def failure_line(block: str) -> str | None:
    """The line of pasted output that stands for it: the first that names its error
    (``TypeError: …``, ``… ECONNRESET``), else the first that says something failed; the
    command's prompt line, a stack frame or a code frame never. None when nothing in it failed."""
    best: str | None = None
    for line in block.split("\n"):
        body = line.strip()
        low = body.lower()
        shape = first_match("output-line", low)
        if not body or (shape is not None and shape[0].label in _NOT_THE_FAILURE):
            continue
        if not any_match("output-failure", low) and not any_match("error-name", low):
            continue
        if len(re.sub(r"[\W_]+", "", body)) < 12:
            continue  # a bare label ("Error:") says nothing of what failed
        if any_match("error-name", low):
            return body[:MAX_FAILURE_LINE]
        best = best or body[:MAX_FAILURE_LINE]
    return best


_NOT_THE_FAILURE = frozenset({"shell-prompt", "stack-frame", "code-frame-line"})
"""Output lines that never stand for a failure: the command typed, where it was raised."""


def is_terminal_output(block: str) -> bool:
    """Whether a paragraph of a user turn is terminal output the user pasted — a stack
    trace, prompts and their answers, a dropped file's path — rather than words typed:
    most of its lines are shaped like output. Pasted output is reference, never a rule or
    a fact in the user's words."""
    lines = [line for line in block.split("\n") if line.strip()]
    if not lines:
        return False
    if _screen_copy(lines) or _indented_error(lines):
        return True
    hits = sum(1 for line in lines if is_output_line(line))
    if len(lines) == 1:  # one line: only a path, a frame or a prompt, not a word ("Yes.")
        return bool(_STRONG_LINE.match(lines[0]))
    return hits >= TERMINAL_SHARE * len(lines)


_STRONG_LINE = re.compile(r"^\s*(?:['\"]?~?/[^/\s]+/|at \S|➜\s|[A-Za-z]:\\[^\n<>]*>)")
"""One line that is output on its own: a dropped file's path, a stack frame, a prompt."""
MARGIN_LINES = 2
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s")


def _in_margin(block: str) -> bool:
    """Whether every line of a paragraph keeps a terminal program's left margin (one to
    three spaces, the same for all) and none is a list item: an agent CLI's reply copied
    off its screen. A typed message starts at the left edge; a typed nested list marks
    its items. :data:`MARGIN_LINES` such lines in a row, across paragraphs, are pasted."""
    block = block.strip("\n")
    lines = [line for line in block.split("\n") if line.strip()]
    margins = {len(line) - len(line.lstrip(" ")) for line in lines}
    return (
        len(margins) == 1
        and 1 <= min(margins) <= 3
        and not any(_LIST_ITEM.match(line) for line in lines)
    )


_ERROR_HEAD = re.compile(r"^ +(?:\w+\.)*\w*(?:Error|Exception|error)\b:? ")
SCREEN_LINES = 3


def _screen_copy(lines: list[str]) -> bool:
    """Lines copied off a terminal screen: most of them padded with spaces to one width
    (a full-screen program's rows), as no typed line is."""
    padded = [len(line) for line in lines if line.endswith("  ")]
    if len(padded) < SCREEN_LINES:
        return False
    width = max(set(padded), key=padded.count)
    return padded.count(width) >= TERMINAL_SHARE * len(lines)


def _indented_error(lines: list[str]) -> bool:
    """An error message as a terminal wraps it: an indented "Error: …" head whose
    continuation lines keep its indent."""
    if not _ERROR_HEAD.match(lines[0]):
        return False
    indent = len(lines[0]) - len(lines[0].lstrip(" "))
    return all(len(line) - len(line.lstrip(" ")) >= indent for line in lines[1:])


# --- an agent's signature ----------------------------------------------------------------

_SIGNATURE_LINE = re.compile(
    r"^[^\w\n]{0,4}(?:"
    r"[A-Z][\w]*(?:-[\w]+)*-by:[^\n]*<[^<>\s]+@[^<>\s]+>"  # a git trailer with an address
    r"|(?:generated|created|made|written|built|sent) (?:with|by|using) "
    r"(?:\[[^\]\n]+\]\([^)\s]+\)|\S+ ?\S*)"  # "Generated with [Tool](url)"
    r")[^\w\n]{0,4}$",
    re.MULTILINE | re.IGNORECASE,
)


def without_signatures(text: str) -> str:
    """Text without the signature lines an agent adds to what it writes (a commit's
    ``Co-Authored-By: … <address>`` trailer, "Generated with [tool](url)"): the same in
    every commit of every session, the agent's boilerplate, never a fact of this work."""
    if "by:" not in text.lower() and " with" not in text.lower():
        return text
    return _SIGNATURE_LINE.sub("", text)


# --- a chat between two people --------------------------------------------------------------

_SPEAKER_LABEL = re.compile(
    r"\A\s*(?:\[[^\]\n]{1,80}\]\s*\n\s*)?(?P<name>[A-Z][a-z]+(?:[ -][A-Z][a-z]+)?):[ \t]+\S"
)
"""A turn that opens with the name of who speaks ("Dana: …"), after a bracketed header
line at most ("[session 2, 3 May]", "[10:42]")."""
_NOT_PEOPLE = frozenset(
    {"user", "assistant", "system", "human", "ai", "bot", "model", "agent", "tool", "note",
     "update", "summary", "answer", "question", "reply", "response", "output", "input",
     "result", "error", "warning", "edit", "correction", "goal", "task", "status", "context",
     "plan", "step", "done", "todo", "rules", "requirements", "budget", "also", "ps", "fyi",
     "important", "scope", "issue", "problem", "bug", "feature", "example", "review"}
)  # fmt: skip


def speaker_label(text: str) -> str | None:
    """The person's name a turn opens with ("Dana: hi!"), lower-cased; a role or a label
    word ("Assistant:", "Note:", "Update:") is nobody's name."""
    match = _SPEAKER_LABEL.match(text)
    if match is None:
        return None
    name = match.group("name").lower()
    return None if name in _NOT_PEOPLE or name.split()[0] in _NOT_PEOPLE else name


def between_people(text: str, said: str, agent_work: bool) -> bool:
    """Whether a user turn belongs to a chat between two people rather than to a user
    instructing an assistant: no agent work so far (no tool call, no file), and this turn
    and the other side's last one each open with a different person's name. Friends'
    advice to each other ("make sure you rest", "never give up") is nobody's rule for an
    assistant to obey: their sentences are kept as what they said, not as constraints."""
    if agent_work:
        return False
    mine, theirs = speaker_label(text), speaker_label(said)
    return mine is not None and theirs is not None and mine != theirs


# --- languages without rules -------------------------------------------------------------

_LATIN = re.compile(r"[A-Za-z]")
_LETTER = re.compile(r"[^\W\d_]")
_WORD = re.compile(r"[^\W\d_]+")
ENGLISH_SHARE = 0.12
"""Latin-script text with fewer common English words than this share is another language."""


def has_rules_for(text: str, stage: str = "rule") -> bool:
    """Whether ``text`` is in a language our rule files cover for ``stage``: CJK, or
    Latin-script text that reads as English — without letters beyond ASCII, or with
    enough common English words (Czech, Polish or German prose has accented letters and
    almost none of them) — or a language whose module has records of ``stage``."""
    if _reads_as_english_or_chinese(text):
        return True
    low = text.lower()
    language = language_of(low)
    if language is None:  # too short for its function words: its words and letters
        found = words_of_languages(low, own_letters=True)
        if found is not None:
            language = found[0]
        elif low.isascii():  # a language typed without its accents, told by its words
            language = foreign_language(low)
            if language is None:
                return True  # no word of any module: the English records read it, as before
    return language is not None and stage in language.stages


def _reads_as_english_or_chinese(text: str) -> bool:
    letters = _LETTER.findall(text)
    if not letters:
        return True
    if any(HAN.match(ch) for ch in letters):
        return True  # Chinese, or Chinese with English names and paths in it
    if sum(1 for ch in letters if _LATIN.match(ch)) * 2 < len(letters):
        return False
    words = [w.lower() for w in _WORD.findall(text) if not HAN.match(w[0])]
    if len(words) < 4:
        return True  # too short to tell, or English fragments and names ("Yes GP, no SCDW")
    if all(ch.isascii() for ch in letters):
        # Plain ASCII is English unless a module's words outnumber the English ones: a
        # language typed without its accents ("hagamos el sprint por fases"). (A language
        # without a module, typed in ASCII, still reads as English: English typed in haste
        # has as few function words — "ok write markdown, code, tables, nested lists".)
        return foreign_language(text.lower()) is None
    return sum(1 for w in words if w in ENGLISH_WORDS) >= ENGLISH_SHARE * len(words)


def verbatim_message(text: str) -> str | None:
    """A short typed message in a language other than English or Chinese, kept whole (else
    None): a language without a module has no rules at all, and the records of the other
    modules read far fewer phrasings than the English ones (the caller leaves it out when
    the message gave a rule)."""
    flat = " ".join(text.split())
    if not flat or len(flat) > MAX_VERBATIM_MESSAGE or _reads_as_english_or_chinese(flat):
        return None
    return flat
