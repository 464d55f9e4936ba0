"""The line of a failed tool's output that says why it failed, verbatim.

Once a raw tool result is compacted away, this one line is all that is left of the
failure, so it has to be the *reason*, not a banner. Where the reason stands depends on
the tool: a Python traceback ends with it (its first line is only the header), pytest
marks it with ``E`` under a ``FAILURES`` banner, Node prints it right above the ``at …``
frames (after echoing the source line that threw), and most other tools print it as the
first line naming an error. Each is recognised here; the line returned is always a line
of the output (stripped, capped), never a rewording, so a tool's own message stays
verbatim.
"""

from __future__ import annotations

import json
import re

from synopsis.state import _patterns as pat
from synopsis.state._memo import remembered
from synopsis.state._regex import matches_anywhere
from synopsis.state._text import cap, normalize_ws, window
from synopsis.state.rules import any_match, first_match

MAX_ERROR_LINE = 300
NO_ERROR_MESSAGE = "(no error message)"

_HEAD_CHARS = 20000
"""How much of the output the generic scan reads: the message is near the top."""
_HEAD_LINES = 200
_TRACE_CHARS = 200_000
"""How far after a traceback header its exception line is looked for."""
_TRACE_LINES = 5000
_MAX_TRACEBACKS = 20
_JS_LOOKBACK = 20000
"""How far above the first stack frame a Node error's header is looked for."""

_ERROR_WORDS = re.compile(
    r"error|fail|exception|traceback|cannot|can't|could not|couldn't|not found|no such|"
    r"denied|invalid|refused|timed? ?out|exited with code|panic|fatal|missing|"
    r"错误|失败|异常|报错|錯誤|失敗|找不到|无法|無法|エラー|見つかりません|できません|"
    r"fehler|fehlgeschlagen|nicht gefunden|erreur|échec|introuvable|erro\b|falh(?:a|ou)|"
    r"não encontrad|ошибк|не удалось|не найден|chyb|selhal|nenalezen",
    re.IGNORECASE,
)
_BANNER = re.compile(r"^[=_*-]{3,}.*[=_*-]{3,}$|^[=_*-]{3,}$")
"""``==== FAILURES ====`` and rules: headings of a report, not its message."""

_PY_HEADER = "Traceback (most recent call last):"
_PYTEST_E = re.compile(r"^E {2,}\S", re.MULTILINE)
_JS_FRAME = re.compile(
    r"^[ \t]+at [^\n]*?(?::\d+:\d+\)?|\((?:native|<anonymous>)\))[ \t]*\r?$", re.MULTILINE
)
_JS_HEADER = re.compile(
    r"^[ \t]*(?:Uncaught )?(?:[\w$]+\.)*[\w$]*(?:Error|Exception)(?: \[[\w.-]+\])?:(?:[ \t]|\r?$)",
    re.MULTILINE,
)


def first_error_line(text: str) -> str:
    """The line of a failed tool's output that says what went wrong, verbatim (capped).

    A structured error (``{"error": "SOLD_OUT", "message": …}``) gives its code and
    message; a test runner's report gives the first failing test and its reason.
    """
    return _first_error_lines(text)


def _first_error_line(text: str) -> str:
    structured = json_error(text)
    if structured:
        return cap(structured, MAX_ERROR_LINE)
    line = _pytest_line(text) or _python_exception(text) or _node_error(text)
    if line is None:
        line = _first_named_error(text)
    test = _failing_test(text)
    if test is not None:
        head, reason = test
        reason = reason or line
        if reason and normalize_ws(reason) not in normalize_ws(head):
            line = f"{head} — {reason}"
        elif not line or normalize_ws(line) not in normalize_ws(head):
            line = head
    return cap(line, MAX_ERROR_LINE) if line else NO_ERROR_MESSAGE


def reported_failure(text: str) -> str | None:
    """The error line of output that reports a failure although the call itself was not
    flagged as failed (a tool returning ``{"ok": false, …}``, a test run with failures, a
    command printing ``ERROR: …``), else None."""
    return _reported_failures(text)


_RESULT_HEADER = re.compile(r"^\[[\w.-]+ for [^\n]*\] Result:\s*$")
"""A harness' header over a tool's result (Cline's ``[replace_in_file for 'x'] Result:``)."""
_OPENS_WITH_FAILURE = re.compile(
    r"(?:Failed to|Unable to|Could not|Couldn't|Cannot|Can't) [a-z]+\b|"
    r"(?:The )?[Uu]ser (?:denied|rejected|declined) (?:this|the) (?:operation|request|tool call)"
)
"""A tool's message that opens by saying it failed ("Failed to edit, 0 occurrences found
…", "The user denied this operation."): its own verdict, whatever the flag says."""


def _opens_with_failure(text: str) -> bool:
    lines = [line for line in text[:_HEAD_CHARS].splitlines() if line.strip()][:2]
    if lines and _RESULT_HEADER.match(lines[0]):
        lines = lines[1:]
    return bool(lines) and _OPENS_WITH_FAILURE.match(lines[0].strip()) is not None


def _reported_failure(text: str) -> str | None:
    if _opens_with_failure(text):
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return next(line for line in lines if not _RESULT_HEADER.match(line))
    if (
        json_error(text)
        or (_holds_any(text, _RUNNER_NEEDLES) and _runner_failed(text))
        or (_holds_any(head := text[:_HEAD_CHARS], _FAILURE_NEEDLES) and _failure_line(head))
    ):
        return first_error_line(text)
    return None


_first_error_lines = remembered(_first_error_line)
_reported_failures = remembered(_reported_failure)


def _holds_any(text: str, needles: tuple[str, ...]) -> bool:
    """A substring test before a pattern: many times faster than the pattern's scan, and
    most output holds none of its needles."""
    return any(map(text.__contains__, needles))


def json_error(text: str) -> str | None:
    """``code: message`` of a JSON object that reports an error, else None."""
    stripped = text.strip()
    if not stripped.startswith("{") or len(stripped) > 50_000:
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    error = data.get("error") or data.get("errors")
    status = data.get("status")
    failed = (
        bool(error)
        or data.get("ok") is False
        or data.get("success") is False
        or (isinstance(status, str) and status.lower() in ("error", "failed", "failure"))
    )
    if not failed:
        return None
    if isinstance(error, dict):
        code = error.get("code") or error.get("type") or ""
        message = error.get("message") or ""
    else:
        code = error if isinstance(error, str) else (status if isinstance(status, str) else "")
        message = data.get("message") or data.get("detail") or data.get("reason") or ""
    parts = [str(p) for p in (code, message) if p and isinstance(p, (str, int))]
    return ": ".join(parts) if parts else cap(normalize_ws(stripped), MAX_ERROR_LINE)


_RUNNER_FAILED = re.compile(
    r"^=+ .*\b\d+ (?:failed|errors?)\b.* =+$|^\s*Tests?:?\s+\d+ failed\b|"
    r"^\s*Test Files\s+\d+ failed\b|⎯ Failed Tests \d+ ⎯|^FAILED \S|"
    r"^\d+ (?:failed|errors?)[,;] \d+ passed\b|^test result: FAILED\b|^--- FAIL: ",
    re.MULTILINE,
)
"""A test runner's summary or marker of failed tests (pytest, jest, vitest, cargo, go)."""
_RUNNER_NEEDLES = ("failed", "error", "FAILED", "Failed Tests", "--- FAIL: ")
"""Every match of :data:`_RUNNER_FAILED` holds one of these (keep them in step)."""
_FAILURE_LINE = re.compile(
    r"^\s*(?:ERROR|FATAL|fatal|error|npm ERR!|ERR!)(?:\[[^\]]*\])?[: ]|\AError: \S|"
    r"^\s*(?:Fehler|Erreur|Erro|Ошибка|ОШИБКА|Chyba|エラー|错误|錯誤)\s*[:：]|"
    r"^\S*\d\d:\d\d\S*\s+(?:\[[^\]]*\]\s+)?(?:ERROR|FATAL|PANIC)\b|\"level\":\s*\"(?:error|fatal)\"|"
    r"^An error occurred \(|"
    r"^[\w./-]+\(\d+,\d+\): error TS\d+|\berror TS\d+:|^Traceback \(most recent call last\)|"
    r"ELIFECYCLE|\bCommand failed\b|^\S+: .*(?:Access denied|Permission denied|"
    r"command not found|No such file or directory)|"
    r"^[#>*!\s]*[1-9]\d* [\w/ .-]{1,40}? (?:failed|did not (?:match|apply))\b|"
    r"^[\w.-]+: (?:error|fatal)\b|^[\w.-]+:? (?:command )?not found\.?$",
    re.MULTILINE,
)
_FAILURE_NEEDLES = ("ERR", "FATAL", "fatal", "error", "Error: ", "PANIC", "Traceback",
                    "ELIFECYCLE", "Command failed", "denied", "not found", "No such file",
                    "failed", "did not", "Fehler", "Erreur", "Erro", "Ошибка", "ОШИБКА", "Chyba",
                    "エラー", "错误", "錯誤")  # fmt: skip
"""Every match of :data:`_FAILURE_LINE` holds one of these (keep them in step)."""
_runner_failed = matches_anywhere(_RUNNER_FAILED)
_failure_line = matches_anywhere(_FAILURE_LINE)
_FAILING_TEST = re.compile(r"^\s*FAIL\s+(\S.*?)\s*$", re.MULTILINE)


_REASON = re.compile(
    r"^\s*(?:E {2,}\S.*|(?:[\w$]+\.)*\w*(?:Error|Exception)\b:? .*)$", re.MULTILINE
)


def _failing_test(text: str) -> tuple[str, str | None] | None:
    """The first failing test a runner names (``FAIL src/x.test.ts > case``) and the reason
    printed right below it, if any."""
    match = _FAILING_TEST.search(text[:_TRACE_CHARS])
    if match is None:
        return None
    head = cap(normalize_ws(match.group(0)), 160)
    below = "\n".join(text[match.end() : match.end() + 3000].split("\n")[:25])
    reason = _REASON.search(below)
    return head, (reason.group(0).strip() if reason else None)


def _pytest_line(text: str) -> str | None:
    """Pytest's first ``E   …`` line: the assertion or exception of the first failure."""
    match = _PYTEST_E.search(text)
    if match is None:
        return None
    end = text.find("\n", match.start())
    return text[match.start() : end if end >= 0 else len(text)].strip()


def _python_exception(text: str) -> str | None:
    """The exception line that ends the last complete Python traceback in ``text``.

    With chained exceptions the last traceback is the one that propagated. Its frames are
    indented under the header; the first line back at the header's indentation is the
    exception (later lines, like psycopg's ``LINE 1: …``, only continue it). A prefix the
    tool puts before every line (``remote: ``) is allowed.
    """
    at = text.rfind(_PY_HEADER)
    for _ in range(_MAX_TRACEBACKS):
        if at < 0:
            return None
        line = _exception_after(text, at)
        if line is not None:
            return line
        at = text.rfind(_PY_HEADER, 0, at)
    return None


def _exception_after(text: str, at: int) -> str | None:
    prefix = text[text.rfind("\n", 0, at) + 1 : at]
    start = text.find("\n", at)
    if start < 0:
        return None
    body = text[start + 1 : start + 1 + _TRACE_CHARS].split("\n")
    cut = False
    for count, raw in enumerate(body):
        if count > _TRACE_LINES or not raw.startswith(prefix):
            return None
        rest = raw[len(prefix) :]
        if not rest.strip():
            continue
        if not rest[0].isspace():
            if _CUT_MARK.match(rest):
                cut = True  # where the output was cut, mid-stack: the exception comes later
                continue
            if cut and _frames_follow(body, count + 1, prefix):
                continue  # the rest of a line the cut began in: the stack goes on
            return rest.strip()
    return None


def _frames_follow(lines: list[str], index: int, prefix: str) -> bool:
    """Whether the next line with text (of ``lines`` from ``index``) is indented."""
    for raw in lines[index:]:
        rest = raw[len(prefix) :] if raw.startswith(prefix) else raw
        if rest.strip():
            return rest[0].isspace()
    return False


_CUT_MARK = re.compile(
    r"^\W{0,6}[\[(<][^\n]{0,80}?\b(?:truncated|trimmed|omitted|elided|cut)\b[^\n]{0,60}$",
    re.IGNORECASE,
)
"""A line where a harness cut a long output ("[... 120 lines truncated ...]", "…[trimmed:
2388 characters cut]…"): no line of the tool's own."""


def _node_error(text: str) -> str | None:
    """The ``Name: message`` line right above the first ``at …`` frame of a JS stack.

    Node first echoes the source line that threw (``throw new Error(…)``) with a caret;
    the header below it is the message. When the header only introduces the message
    (``TSError: ⨯ Unable to compile TypeScript:``), the line after it that names an error
    (the compiler's diagnostic) is the reason.
    """
    frame = _JS_FRAME.search(text)
    if frame is None:
        return None
    low = text.rfind("\n", 0, max(0, frame.start() - _JS_LOOKBACK)) + 1
    headers = list(_JS_HEADER.finditer(text, low, frame.start()))
    if not headers:
        return None
    start = headers[-1].start()
    end = text.find("\n", start)
    line = text[start:end].strip()
    if line.endswith(":"):
        for following in text[end + 1 : frame.start()].split("\n"):
            following = following.strip()
            if following and _ERROR_WORDS.search(following):
                return following
    return line


_HARNESS_MARK = re.compile(r"^Error: ")
"""How some harnesses mark a failed call's output (Claude Code: ``Error: <output>``)."""
_NO_MESSAGE = re.compile(
    r"^(?:> |\S+:\d+(?::\d+)?\s+\S*\s*[━─=]{3,})|"
    r"^(?:the )?(?:command|process|script|tool|task|job|step)(?: \S+)? "
    r"(?:failed|exited|returned|ended)(?: with)?(?: (?:a |an )?(?:non-zero |nonzero )?"
    r"(?:exit )?(?:code|status))?[: ]*-?\d*\.?$|^(?:exit (?:code|status)|output|stderr|stdout)"
    r"\s*[:=]?\s*-?\d*\.?$",
    re.IGNORECASE,
)
"""A line that names no reason: an npm script's echo (``> pkg@1.0 build``), a location
heading a diagnostic (``biome.json:3:3 deserialize ━━━``), or a harness' status line
around the output (``Command failed with exit code 1.``, ``Output:``, ``Exit code: 2``)."""


_LINK_ONLY = re.compile(r"^<?[a-z][a-z0-9+.-]*://\S+>?$", re.IGNORECASE)


def _first_named_error(text: str) -> str:
    """The first line naming an error, else the first non-empty line: build tools often
    print a banner before the message that matters (a harness' ``Error:`` mark, an npm
    script's echo, a diagnostic's location line are looked past)."""
    first = ""
    for count, raw in enumerate(text[:_HEAD_CHARS].splitlines()):
        line = raw.strip()
        if not line:
            continue
        if not first:
            first = line
        bare = _HARNESS_MARK.sub("", line)
        if _NO_MESSAGE.match(bare) or _LINK_ONLY.match(bare):
            continue  # no message, or a link to a help page ("…/edit-errors.html")
        if (_ERROR_WORDS.search(line) or bare[:1] in "×✖✗") and not _BANNER.match(line):
            return line
        if count > _HEAD_LINES:
            break
    return first


_ABORTED = re.compile(
    r"^\s*(?:command |operation |request |tool call )?(?:was )?"
    r"(?:aborted|cancell?ed|interrupted)\b",
    re.IGNORECASE,
)


def is_aborted(error: str | None) -> bool:
    """Whether a call "failed" only because it was stopped (the user pressed Esc, a
    timeout the agent set): nothing to get past, and no approach that failed."""
    return bool(error) and _ABORTED.match(error or "") is not None


_PASTED_ERROR = re.compile(
    r"\b[A-Z]\w*(?:Error|Exception)\b(?: \[[\w.-]+\])?:|\bERR_[A-Z_0-9]+\b|"
    r"\bE(?:CONN[A-Z]+|ADDRINUSE|ACCES|NOENT|PERM|TIMEDOUT|PIPE|EXIST|NOTFOUND|ISDIR|NOTDIR)\b|"
    r"\b(?:Failed|failed) (?:to|with)\b|\b\w+ Failed:|^\s*(?:ERROR|FATAL|error|fatal)\s*[:\[]|"
    r"\berror TS\d+|\b(?:Cannot|Could not|Unable to) \w+|Module not found|"
    r"(?:Fehler|Erreur|Erro|Ошибка|Chyba|エラー|错误|錯誤)\s*[:：]|"
    r"找不到|無法|无法|見つかりません",
    re.MULTILINE,
)
"""A line of an error a user pasted: an exception name, an error code (``ERR_PNPM_…``,
``ECONNRESET``), "Failed to …", a compiler's diagnostic, an error prefix in any of our
languages."""
_SAYS_BROKEN = re.compile(
    r"\b(?:doesn'?t|does not|didn'?t|did not|isn'?t|is not|aren'?t|are not|won'?t|"
    r"(?<!do )(?<!must )(?<!should )(?<!shall )(?<!will )(?<!to )not)\s+"
    r"(?:work(?:ing)?|appl(?:y|ied)|show(?:ing|s| up)?|load(?:ing|ed|s)?|start(?:ing|ed|s)?|"
    r"play(?:ed|ing|s)?|run(?:ning|s)?|compil(?:e|ing|es)|found|deal(?:ing|s)?|updat(?:e|ed|ing))"
    r"\b(?! anymore| any ?more| for (?:me|us|them)\b)|"
    r"\b(?:got|get|getting|there(?:'s| is)|throws?|threw|see|seeing)\s+(?:an?\s+|the\s+)?"
    r"(?:error|exception|crash|404|500)\b(?! handl| boundar| messages?\b| log| codes?\b)|"
    r"\b(?:crash(?:es|ed)?|broken|is failing|keeps failing)\b|"
    r"出错|报错|出现\s*\d{3}|都是\s*\d{3}|不(?:能|起)作用|没(?:有)?(?:生效|反应)|"
    r"エラーが|動かない|表示されない|funktioniert nicht|klappt nicht|geht nicht|não funciona|"
    r"deu erro|не работает|nefunguje",
    re.IGNORECASE,
)
"""The user's own words for a failure: "the last hit is not applied", "I get a 404",
"都是 404", "出错了", "funktioniert nicht", "não funciona"."""
MAX_USER_FAILURE = 220


_HTTP_FAILURE = re.compile(r"^HTTP/\d(?:\.\d)? [45]\d\d\b")
"""A response's status line that says the request failed ("HTTP/1.1 422 Unprocessable …")."""


def names_error(line: str) -> bool:
    """Whether a line of a tool's output is an error message: an exception, an error code
    or prefix, "Failed to …", a compiler's diagnostic, a failed response's status line —
    where the work ran into something, not a value to look up."""
    return bool(_PASTED_ERROR.search(line) or _failure_line(line) or _HTTP_FAILURE.match(line))


def states_failure(text: str) -> bool:
    """Whether a statement (of the assistant's) names an error or a failure it met ("The
    error "Email already registered" confirms …", "エラーは`window`が未定義です"): where the
    work ran into something, not context to look up. A question asks; it states none."""
    stripped = text.rstrip()
    return not stripped.endswith(("?", "？")) and bool(_ERROR_WORDS.search(stripped))


@remembered
def user_reported_failure(text: str) -> str | None:
    """The failure a user's message reports, verbatim: the first line of an error they
    pasted (with the stack frame under it, which says where), else the first of their
    sentences that says something does not work; None when it reports none (remembered
    per text: each pass over the same messages asks it again)."""
    lines = text[:_HEAD_CHARS].splitlines()
    for index, raw in enumerate(lines):
        match = _PASTED_ERROR.search(raw)
        if match is None or _NO_MESSAGE.match(raw.strip()):
            continue  # a harness' status line names no failure of its own
        line = window(raw.strip(), max(0, match.start() - len(raw) + len(raw.lstrip())),
                      MAX_USER_FAILURE)  # fmt: skip
        below = next((ln.strip() for ln in lines[index + 1 : index + 3] if ln.strip()), "")
        if _JS_FRAME.match("  " + below) or below.startswith(("at ", "File ")):
            line = f"{line} {cap(below, 80)}"
        return line
    for raw in lines:
        if (
            _SAYS_BROKEN.search(raw)
            or any_match("fault-report", pat.lower_same(raw))
            or first_match("broken", raw.lower()) is not None
        ):
            return window(normalize_ws(raw), 0, MAX_USER_FAILURE)
    return None
