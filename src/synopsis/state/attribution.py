"""The *attribute source* stage: who wrote each part of a user turn, and how.

A "user" message of an agent session holds much that the user did not type: the
harness' own text (command wrappers, hook output, continuation summaries, console
prompts and their answers, ``/init`` expansions, skill and instruction files) and
documents the user pasted (code, logs, READMEs, whole agent prompts). Only what the
user *typed* may become a rule, goal or preference; a pasted document is at most
reference material (its values are kept, as a tool's are), and the harness' text is
nobody's instruction.

The decision is made from the text's structure, not from its wording:

* **harness** — an element in a harness' wrapper tags (``<command-name>``,
  ``<system-reminder>``, ``<environment_context>``: a tag name with ``-`` or ``_``, which
  no prose uses); a line that starts a slash command (``/add src/x.py``); a console
  prompt with its option list and answer (``…? (Y)es/(N)o [Yes]: all``); a hook's report
  (a ``… hook …:`` line, or a line opened by a bracketed script path); and the known
  harness formats recorded as ``harness`` rules in :mod:`synopsis.state.rules`;
* **pasted** — fenced code, YAML front matter, terminal output, and documents: from a
  heading (markdown, an all-capitals title line or a bold title line) that opens a long
  run of lines, any very long block, and in a long message everything after its first
  paragraph (the user's framing of what they paste);
* **typed** — the rest.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from synopsis.state.model import Written
from synopsis.state.rules import any_match

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


# A harness' wrapper element: a tag name with "-" or "_" (custom-element style), closed;
# one that opens the message may run to its end.
_ELEMENT = re.compile(
    r"<(?P<name>[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+)(?:\s[^<>]*)?>.*?(?:</(?P=name)\s*>|\Z)",
    re.DOTALL | re.IGNORECASE,
)
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
_FENCE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.DOTALL)
_FRONT_MATTER = re.compile(r"\A---\s*\n(?:[\w-]+:.*\n){1,20}---\s*(?:\n|\Z)")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")
_BOLD_TITLE = re.compile(r"^\s*\*\*[^*\n]{2,80}\*\*:?\s*$")
_PARENTHETICAL = re.compile(r"\([^)]*\)")
_TERMINAL_LINE = re.compile(
    r"^\s*(?:"
    r"['\"]?~?/[^/\s]+/.*"  # an absolute path (a dropped file, a frame's file:line)
    r"|(?:➜|\$|%|>|PS [A-Z]:\\)\s.*"  # a shell prompt and its command
    r"|at \S.*"  # a stack frame
    r"|\[[\w .:/-]{1,30}\] .*"  # a log line: "[theme] Detected …", "[INFO] …"
    r"|(?:\w+\.)*\w*(?:Error|Exception)(?: \[\w+\])?: .*"  # an error header
    r"|\^+|[─━│┃┌┐└┘├┤═]{3,}.*|.*[⠁-⣿↑↓→].*"  # carets, rules, spinners, status bars
    r"|[^\s.,!?。！？]{1,40}"  # a lone token (a command's one-word answer)
    r")\s*$"
)
TERMINAL_SHARE = 0.6


def attribute(text: str) -> list[Part]:
    """The parts of a user turn, in order, each with how it was written."""
    parts: list[Part] = []
    position = 0
    for element in _ELEMENT.finditer(text):
        if element.group().endswith(">") or element.start() == 0:
            parts.extend(_unwrapped(text[position : element.start()]))
            parts.append(Part(element.group(), "harness"))
            position = element.end()
    parts.extend(_unwrapped(text[position:]))
    return [part for part in parts if part.text.strip()]


def typed_text(parts: list[Part]) -> str:
    return "\n\n".join(part.text for part in parts if part.written == "typed")


def _unwrapped(text: str) -> Iterator[Part]:
    """Attribution of text outside wrapper elements."""
    stripped = text.strip()
    if not stripped:
        return
    if any_match("harness", stripped.lower()) or _HOOK_REPORT.search(stripped):
        yield Part(text, "harness")
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
    position = 0
    for fence in _FENCE.finditer(text):
        yield from _documents(text[position : fence.start()])
        yield Part(fence.group(), "pasted")
        position = fence.end()
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
                yield Part(text.strip("\n")[first.end() :], "pasted")
                return
    for index, line in enumerate(lines):
        if is_heading(line):
            rest = [ln for ln in lines[index:] if ln.strip()]
            if len(rest) > MAX_TYPED_LINES:
                head = "\n".join(lines[:index])
                if head.strip():
                    yield from _documents(head)
                yield Part("\n".join(lines[index:]), "pasted")
                return
    yield from _paragraphs(text)


def _paragraphs(text: str) -> Iterator[Part]:
    typed: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        if len([ln for ln in block.split("\n") if ln.strip()]) > MAX_PASTED_FREE_LINES or (
            is_terminal_output(block)
        ):
            if typed:
                yield Part("\n\n".join(typed), "typed")
                typed = []
            yield Part(block, "pasted")
        else:
            typed.append(block)
    if typed:
        yield Part("\n\n".join(typed), "typed")


def is_terminal_output(block: str) -> bool:
    """Whether a paragraph of a user turn is terminal output the user pasted — a stack
    trace, prompts and their answers, a dropped file's path — rather than words typed:
    most of its lines are shaped like output. Pasted output is reference, never a rule or
    a fact in the user's words."""
    lines = [line for line in block.split("\n") if line.strip()]
    if not lines:
        return False
    hits = sum(1 for line in lines if _TERMINAL_LINE.match(line))
    if len(lines) == 1:  # one line: only a path or a frame, not a lone word ("Yes.")
        return hits == 1 and bool(re.match(r"^\s*(?:['\"]?~?/[^/\s]+/|at \S|➜\s)", lines[0]))
    return hits >= TERMINAL_SHARE * len(lines)


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


# --- languages without rules -------------------------------------------------------------

_CJK = re.compile(r"[\u3400-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")
_LETTER = re.compile(r"[^\W\d_]")
_WORD = re.compile(r"[^\W\d_]+")
_ENGLISH_WORDS = frozenset(
    {"the", "a", "an", "to", "of", "and", "or", "in", "on", "at", "for", "with", "from", "by",
     "is", "are", "was", "be", "it", "this", "that", "you", "i", "we", "my", "your", "our",
     "me", "us", "not", "no", "do", "don", "can", "please", "if", "so", "but", "then", "when",
     "what", "why", "how", "there", "all", "any", "use", "make", "add", "fix", "run"}
)  # fmt: skip
ENGLISH_SHARE = 0.12
"""Latin-script text with fewer common English words than this share is another language."""


def has_rules_for(text: str) -> bool:
    """Whether ``text`` is in a language our rule files cover: CJK, or Latin-script text
    that reads as English — without letters beyond ASCII, or with enough common English
    words (Czech, Polish or German prose has accented letters and almost none of them)."""
    letters = _LETTER.findall(text)
    if not letters:
        return True
    if any(_CJK.match(ch) for ch in letters):
        return True  # Chinese, or Chinese with English names and paths in it
    if sum(1 for ch in letters if _LATIN.match(ch)) * 2 < len(letters):
        return False
    words = [w.lower() for w in _WORD.findall(text) if not _CJK.match(w[0])]
    if len(words) < 4 or all(ch.isascii() for ch in letters):
        return True  # too short to tell, or English fragments and names ("Yes GP, no SCDW")
    return sum(1 for w in words if w in _ENGLISH_WORDS) >= ENGLISH_SHARE * len(words)


def verbatim_message(text: str) -> str | None:
    """A short typed message in a language without rules, kept whole (else None)."""
    flat = " ".join(text.split())
    if not flat or has_rules_for(flat) or len(flat) > MAX_VERBATIM_MESSAGE:
        return None
    return flat
