"""Lines of tool output that the conversation goes on to rely on.

A tool prints far more than matters; what matters is what the work then uses. The
assistant's next words (or the user's) say which lines those are: "orders is 412 GB" after
a table of sizes, "`consumer poll timeout has expired (max.poll.interval.ms=300000)`"
after a log, "River crossings are allowed but not covered" after a policy page. A line of
a result that shares a specific token with the reply — a number of three or more digits,
an identifier (``debezium_old``, ``K8WZ2M``, ``v1beta2``), a name, several content words —
is kept verbatim as a reference fact, what the tool said rather than the reply's
paraphrase of it. The result is data: a line that addresses an agent or an AI ("Note for
automation tooling: …") is never kept, whatever refers to it.
"""

from __future__ import annotations

import re

from synopsis.state._memo import remembered
from synopsis.state._text import window
from synopsis.state._values import is_diff, removed_line
from synopsis.state.model import Fact

MAX_PENDING = 6
"""Results remembered until a reply reads them (the latest ones)."""
MAX_RESULT_CHARS = 20_000
"""How much of one result is searched (the rest of a huge log is not)."""
MAX_UNREAD_CHARS = 4000
"""How much of a result no reply has read yet travels to the next round (its lines that
could be relied on: the reply may come after the next compaction)."""
MAX_LINES_PER_RESULT = 3
MAX_LINE_CHARS = 200
MIN_SCORE = 3
"""A line is relied on when the tokens it shares with the reply weigh this much: one
specific token (a long number, an identifier) or a few content words."""

_DIGIT_COMMA = re.compile(r"(?<=\d),(?=\d{3}\b)")
_TOKEN = re.compile(
    r"[a-z0-9]+(?:[_./-][a-z0-9]+)+"  # identifiers, dotted names, versions, paths
    r"|[a-z]*\d[a-z0-9]*"  # numbers and codes with a digit
    r"|[a-z]{4,}"  # words
    r"|[\u3400-\u9fff]{2,}",  # CJK runs (read as character pairs)
    re.IGNORECASE,
)
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_DIGIT = re.compile(r"\d")
_JOINED = re.compile(r"[_./]")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = "(" + "|".join(_MONTHS) + r")[a-z]*\.?"
_DAY = re.compile(
    r"\b\d{4}[-/](\d{1,2})[-/](\d{1,2})\b"  # 2026-03-09
    r"|(\d{1,2})\s*月\s*(\d{1,2})"  # 3 月 9 日
    rf"|\b{_MONTH}\s+(\d{{1,2}})\b"  # March 9
    rf"|\b(\d{{1,2}})\s+{_MONTH}(?![a-z])",  # 9 March
    re.IGNORECASE,
)
"""A day of the year however it is written: the reply restates "2026-03-09" as "3 月 9
日" or "March 9"."""
_STOP = frozenset(
    {"that", "this", "with", "from", "have", "will", "were", "been", "into", "your", "they",
     "them", "then", "there", "what", "when", "which", "about", "after", "before", "also",
     "just", "here", "only", "than", "more", "each", "some", "such", "would", "could",
     "should", "does", "done", "true", "false", "null", "none", "line", "file", "error",
     "info", "warn", "debug", "note", "total", "value", "name", "type", "status"}
)  # fmt: skip
_ADDRESSED = re.compile(
    r"\b(?:ai|llms?|assistants?|agents?|automation|bots?|instructions?|system:)\b|"
    r"助理|助手|指令|系统提示|忽略",
    re.IGNORECASE,
)
"""A line that speaks to an agent is an instruction planted in data, not a fact."""
_BARE = re.compile(r"^[\s\W_]*$")
_CODE = re.compile(
    r"^\s*(?:\d+\s*(?:→|\||:)\s*)?"  # a line number a file read prints
    r"(?:(?:import|export|from|def|class|function|const|let|var|return|async|await|"
    r"public|private|static|fn|pub|use|package|type|interface|struct|enum)\b|"
    r"//|/\*|\*/|#include|@\w+\s*\(|[{}()\[\];]+\s*$)"
    r"|[{;]\s*$|\s=>\s",
)
"""A line of source code: the file itself is the reference, not a fact read from it."""
FILE_TOOLS = frozenset({"read", "edit", "write"})
"""Tools whose output is a file's content or an edit's confirmation: no facts are read
from it (the file lists name the files)."""
_STATUS_CODE = re.compile(
    r"[\"']?(?i:error|status|code|reason|result|state)[\"']?\s*[:=]\s*[\"']?"
    r"[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b"
)
"""A status a service returned as a code ("error": "SEAT_PREF_UNAVAILABLE")."""
_CAPITAL_NEGATION = re.compile(r"(?<![A-Z] )\b(?:NOT|NEVER|ONLY|NO LONGER)\b(?! [A-Z]{2})")
"""A word written in capitals to stress a limit ("River crossings are NOT covered"), not
a heading or a shouted line."""
_REFERENCE_FIELD = re.compile(
    r"^\s*[\"']?(?P<key>[A-Za-z][\w-]{0,40})[\"']?\s*[:=]\s*[\"']?"
    r"(?P<value>[A-Za-z0-9][\w-]{4,40})[\"']?,?\s*$"
)
_REFERENCE_KEY = re.compile(
    r"(?:^|[_-])(?:id|pnr|ref|reference|confirmation|booking|reservation|order|ticket|"
    r"tracking|waybill|invoice|case|serial|imei\d?|sn|no|number|code)$",
    re.IGNORECASE,
)
MAX_REFERENCE_FIELDS = 3
"""A result naming more references than this lists them (a search): none stands out."""
MAX_FLAGGED_PER_RESULT = 2
"""Lines of one result kept for a status code or a stressed limit (the first ones)."""


@remembered  # a reply's lines and the results it reads are weighed again by the guard's pass
def _weights(text: str) -> dict[str, int]:
    """The tokens of ``text`` with how specific each is (see :data:`MIN_SCORE`)."""
    found: dict[str, int] = {}
    for match in _DAY.finditer(text):
        month, day = _month_day(match.groups())
        if 1 <= month <= 12 and 1 <= day <= 31:
            found[f"day:{month}-{day}"] = 3
    for match in _TOKEN.finditer(_DIGIT_COMMA.sub("", text)):
        token = match.group()
        if token[0] >= "\u3400":
            for at in range(len(token) - 1):
                found[token[at : at + 2]] = 1
            continue
        low = token.lower()
        if low in _STOP:
            continue
        if _DIGIT.search(low):
            weight = 1 if (len(low) < 3 and low.isdigit()) or _YEAR.match(low) else 3
        elif _JOINED.search(low):
            weight = 3
        elif "-" in low:
            weight = 2
        else:  # a name ("Duarte", "Ridge") says more than a common word
            start = match.start()
            inside = start > 1 and text[start - 2] not in ".:!?-\n" and text[start - 1] == " "
            weight = 2 if inside and token[0].isupper() and not token.isupper() else 1
        found[low] = max(weight, found.get(low, 0))
    return found


def _month_day(groups: tuple[str | None, ...]) -> tuple[int, int]:
    iso_m, iso_d, cn_m, cn_d, en_m, en_d, day_en, month_en = groups
    if iso_m and iso_d:
        return int(iso_m), int(iso_d)
    if cn_m and cn_d:
        return int(cn_m), int(cn_d)
    if en_m and en_d:
        return _MONTHS.index(en_m[:3].lower()) + 1, int(en_d)
    if day_en and month_en:
        return _MONTHS.index(month_en[:3].lower()) + 1, int(day_en)
    return 0, 0


class ReliedLines:
    """Tool results waiting for the reply that shows which of their lines matter.

    ``unread`` are the results a previous round left unread (see :data:`MAX_UNREAD_CHARS`):
    a result may be compacted before the reply that relies on it comes."""

    def __init__(self, unread: tuple[Fact, ...] = ()) -> None:
        self.pending = [(f.text, f.entry_id) for f in unread][-MAX_PENDING:]

    def result(self, text: str, entry_id: str | None, tool: str = "") -> list[Fact]:
        """Remember a result for the reply; returns its lines that stand out whatever the
        reply says: a status code a service returned, a limit stressed in capitals."""
        if tool in FILE_TOOLS:
            return []
        lines, flagged = _result_lines(text[:MAX_RESULT_CHARS])
        unread = ("\n".join(lines)[:MAX_UNREAD_CHARS], entry_id)
        if lines and unread not in self.pending:  # merged again: already waiting
            self.pending = [*self.pending, unread][-MAX_PENDING:]
        return [Fact(line, entry_id, "tool", "tool") for line in flagged[:MAX_FLAGGED_PER_RESULT]]

    def unread(self) -> tuple[Fact, ...]:
        """The results no reply has read yet, for the next round."""
        return tuple(Fact(text, entry_id, "tool", "tool") for text, entry_id in self.pending)

    def reply(self, text: str, *, known: bool = False) -> list[Fact]:
        """The lines of the pending results that ``text`` refers to, as reference facts;
        the results are read. A reply ``known`` from an earlier merge reads nothing again
        (a result carried over from that merge would come after it)."""
        if not self.pending or not text.strip():
            return []  # a message with calls only: the results wait for its words
        pending, self.pending = self.pending, []
        if known:
            return []
        said = _weights(text)
        cjk = any(t[0] >= "\u3400" for t in said)
        days = any(t.startswith("day:") for t in said)
        found: list[Fact] = []
        for result, entry_id in pending:
            scored: list[tuple[int, int, str]] = []
            for index, (line, raw) in enumerate(_lines_and_words(result)):
                # the words a line shares with the reply, at C speed, before weighing them
                if (
                    said.keys().isdisjoint(raw)
                    and not (cjk and any(t[0] >= "\u3400" for t in raw))
                    and not (days and _DAY.search(line))
                ):
                    continue
                shared = {t: w for t, w in _weights(line).items() if t in said}
                score = sum(shared.values())
                # a lone value ("90211874") says nothing the reply does not: a fact is a
                # value with what it is of ("orders | 412 GB", '"total": 339')
                if score >= MIN_SCORE and _labelled(line):
                    at = _first_strong(line, shared)
                    scored.append((-score, index, window(line, at, MAX_LINE_CHARS)))
            best = sorted(scored)[:MAX_LINES_PER_RESULT]
            found.extend(
                Fact(line, entry_id, "tool", "tool") for _, _, line in sorted(best, key=_line)
            )
        return found


@remembered  # a result is read by its reply again in every pass over the log
def _lines_and_words(result: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each line of ``result``, stripped, with its lower-cased words (the tokens the reply
    is weighed by)."""
    lines = (line.strip() for line in result.split("\n"))
    return tuple(
        (line, tuple(_TOKEN.findall(_DIGIT_COMMA.sub("", line).lower()))) for line in lines
    )


_LETTER = re.compile(r"[^\W\d_]")


@remembered
def _result_lines(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A result's candidate lines and, of those, the ones that stand out on their own (a
    pure scan of its text: remembered, as each pass over a log meets the same results)."""
    diff = is_diff(text)  # what a diff removes is what the file no longer says
    lines = tuple(
        line for line in text.split("\n") if _candidate(line) and not (diff and removed_line(line))
    )
    references = [line for line in lines if _reference(line)]
    if len(references) > MAX_REFERENCE_FIELDS:
        references = []  # a listing of many: the reply says which one matters
    flagged = tuple(
        window(line.strip(), 0, MAX_LINE_CHARS)
        for line in lines
        if _STATUS_CODE.search(line) or _stressed(line) or line in references
    )
    return lines, flagged


def _reference(line: str) -> bool:
    """Whether a line of a result is the reference of one thing it names — a booking's
    PNR, an order number, a device's serial (``"pnr": "K8WZ2M"``): the handle later turns
    quote whether or not the next reply repeats it."""
    match = _REFERENCE_FIELD.match(line)
    return (
        match is not None
        and _REFERENCE_KEY.search(match.group("key")) is not None
        and _DIGIT.search(match.group("value")) is not None
    )


def _labelled(line: str) -> bool:
    """Whether a line says what its value is of: a word beside it (its label), or a
    line that is itself a name (``audit_log``) rather than a bare number."""
    return len(_TOKEN.findall(line)) > 1 or len(_LETTER.findall(line)) > len(line) // 2


def _stressed(line: str) -> bool:
    """Whether a line of prose stresses a limit in capitals (not a line all in capitals)."""
    return (
        _CAPITAL_NEGATION.search(line) is not None
        and len(line.split()) >= 5
        and sum(c.islower() for c in line) > sum(c.isupper() for c in line)
    )


def _candidate(line: str) -> bool:
    """Whether a line of output could be a fact: it says something, and not to an agent."""
    line = line.strip()
    return (
        len(line) >= 4
        and not _BARE.match(line)
        and not _ADDRESSED.search(line)
        and not _CODE.search(line)
    )


def _line(scored: tuple[int, int, str]) -> int:
    return scored[1]


def _first_strong(line: str, shared: dict[str, int]) -> int:
    """Where the most specific shared token stands in ``line`` (for a window of it)."""
    token = max((t for t in shared if not t.startswith("day:")), key=shared.__getitem__, default="")
    return max(line.lower().find(token), 0) if token else 0
