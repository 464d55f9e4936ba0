"""Check a session file for damage, and write a repaired copy.

:func:`diagnose` reads the bytes of a session file and lists every problem it finds, each
with its line, the entry id, a kind and a one-line message: a byte order mark before the
header, a missing or damaged header,
lines that are not JSON (a torn final line among them), entries the loader would skip,
required fields that are missing or have the wrong type, ids used twice, ``parentId``
links that name no entry or loop, compactions whose first kept entry is missing or off
their path, tool results without the tool call they answer, and the marks two writers
leave when they append to one session at once: two compactions on one parent, a
compaction appended on an entry that already had later entries, and entries of another
branch written after the final path had moved past their branch point (acknowledged
entries that are not in the context).

:func:`repair` writes a repaired copy to another file (never to the input): lines that
cannot be loaded are dropped, so are a leading byte order mark and later entries reusing
an id; a cycle is broken and
an orphan becomes a root by setting ``parentId`` to null; a missing header is replaced by
a new one. Every other line is copied byte for byte. Problems that cannot be repaired
without inventing data (a tool result without its call, a field of the wrong type) are
reported and left in place.

The analysis is pure (:func:`diagnose_bytes`, :func:`repair_bytes`); only :func:`diagnose`
and :func:`repair` touch files.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from synopsis.errors import SessionFormatError
from synopsis.messages import tool_calls
from synopsis.session.entries import (
    BLOCK_FIELDS,
    CURRENT_VERSION,
    ENTRY_FIELDS,
    MESSAGE_FIELDS,
    EntryType,
    FieldCheck,
    SessionHeader,
    entry_problem,
)
from synopsis.session.jsonl import (
    describe_parse_error,
    dump_line,
    is_header,
    is_torn_line,
    parse_line,
    read_file_bytes,
    write_atomically,
)
from synopsis.session.migration import migrate_entries
from synopsis.session.tree import new_header

FindingKind = Literal[
    "byte-order-mark",
    "missing-header",
    "invalid-header",
    "old-version",
    "unparsable-line",
    "torn-line",
    "invalid-entry",
    "stray-header",
    "invalid-field",
    "duplicate-id",
    "orphan-parent",
    "parent-cycle",
    "missing-first-kept",
    "first-kept-off-path",
    "orphan-tool-result",
    "sibling-compaction",
    "off-path-entries",
]
Severity = Literal["error", "warning", "info"]
"""``error``: the loader skips data or refuses the file; ``warning``: it loads, but
something is wrong; ``info``: worth knowing, not a problem."""
RepairAction = Literal["drop-line", "make-root", "new-header", "add-newline", "drop-bom"]

_BOM = b"\xef\xbb\xbf"
_BLANK = b" \t\r\n\x0b\x0c"
_ID_SHOWN = 40


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found in a session file."""

    line: int | None
    """1-based line number in the file (``None`` when the problem has no single line)."""
    entry_id: str | None
    kind: FindingKind
    severity: Severity
    message: str
    repair: RepairAction | None = None
    """What :func:`repair` does about it (``None``: reported only)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "entryId": self.entry_id,
            "kind": self.kind,
            "severity": self.severity,
            "repair": self.repair,
            "message": self.message,
        }


@dataclass(slots=True)
class DoctorReport:
    """Everything :func:`diagnose` found in one session file."""

    path: str | None
    findings: list[Finding]
    lines: int
    """Lines in the file, blank ones included."""
    entries: int
    """Entries that survive repair (what a repaired copy holds)."""
    version: int | None
    """The header's version as found in the file (``None`` when absent or unreadable)."""

    @property
    def healthy(self) -> bool:
        """No errors and no warnings (informational findings do not count)."""
        return not self.problems

    @property
    def problems(self) -> list[Finding]:
        return [f for f in self.findings if f.severity != "info"]

    def counts(self) -> dict[str, int]:
        """How many findings of each kind."""
        return dict(Counter(f.kind for f in self.findings))

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "healthy": self.healthy,
            "version": self.version,
            "lines": self.lines,
            "entries": self.entries,
            "counts": self.counts(),
            "findings": [f.to_json() for f in self.findings],
        }


@dataclass(slots=True)
class RepairReport:
    """What :func:`repair` changed, and what it could not fix."""

    source: str | None
    output: str | None
    dropped_lines: list[int] = field(default_factory=list)
    made_root: list[str] = field(default_factory=list)
    """Ids of entries whose ``parentId`` was set to null (orphans and cycle breakers)."""
    header_replaced: bool = False
    bom_removed: bool = False
    newline_added: bool = False
    converted_from_version: int | None = None
    """Set when an old-format file was written out in the current version."""
    entries: int = 0
    remaining: list[Finding] = field(default_factory=list)
    """Problems still present in the repaired copy (repair does not invent data)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "output": self.output,
            "droppedLines": self.dropped_lines,
            "madeRoot": self.made_root,
            "headerReplaced": self.header_replaced,
            "bomRemoved": self.bom_removed,
            "newlineAdded": self.newline_added,
            "convertedFromVersion": self.converted_from_version,
            "entries": self.entries,
            "remaining": [f.to_json() for f in self.remaining],
        }


# --- analysis ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Line:
    number: int
    start: int
    """Offset of the line's first byte (after a leading BOM)."""
    stop: int
    """Offset just past its content (before CR LF or LF)."""
    end: int
    """Offset just past its line end."""
    value: Any = None


@dataclass(slots=True)
class _Analysis:
    data: bytes
    lines: list[_Line]
    findings: list[Finding] = field(default_factory=list)
    header: _Line | None = None
    version: int | None = None
    entries: list[_Line] = field(default_factory=list)
    """Lines that stay entries after repair, in file order."""
    parents: dict[str, str | None] = field(default_factory=dict)
    """Every kept entry's parent once repaired (orphans and cycle breakers are roots)."""
    dropped: set[int] = field(default_factory=set)
    made_root: dict[int, str] = field(default_factory=dict)
    """Line number → id of entries whose parentId repair sets to null."""
    needs_header: bool = False
    add_newline: bool = False
    old_format: bool = False
    """Version 1 or 2: checked after migration, repaired by writing the current version."""
    ids_invented: bool = False
    """Version 1: entry ids are made up by migration, so findings do not name them."""

    def add(
        self,
        line: _Line | None,
        kind: FindingKind,
        severity: Severity,
        message: str,
        *,
        entry_id: str | None = None,
        repair: RepairAction | None = None,
    ) -> None:
        shown_id = None if self.ids_invented else entry_id
        number = line.number if line is not None else None
        self.findings.append(Finding(number, shown_id, kind, severity, message, repair))


def _show(value: Any) -> str:
    """A value for a one-line message: quoted if a string, cut short if long."""
    text = repr(value)
    return text if len(text) <= _ID_SHOWN else text[: _ID_SHOWN - 1] + "…"


def _split_lines(data: bytes) -> list[_Line]:
    lines: list[_Line] = []
    start = len(_BOM) if data.startswith(_BOM) else 0
    size = len(data)
    while start < size:
        newline = data.find(b"\n", start)
        end = size if newline == -1 else newline + 1
        stop = size if newline == -1 else newline
        if stop > start and data[stop - 1] == 0x0D:
            stop -= 1
        lines.append(_Line(len(lines) + 1, start, stop, end))
        start = end
    return lines


def _parse(analysis: _Analysis) -> list[_Line]:
    """Parse every non-blank line; report the ones that are not JSON. Returns the parsed."""
    data = analysis.data
    parsed: list[_Line] = []
    for line in analysis.lines:
        if line.start == line.stop or (
            data[line.start] in _BLANK and not data[line.start : line.stop].strip()
        ):
            continue
        torn = is_torn_line(data, line.stop)
        try:
            line.value = parse_line(data, line.start, line.stop)
        except ValueError as error:
            kind: FindingKind = "torn-line" if torn else "unparsable-line"
            reason = describe_parse_error(error, torn=torn)
            analysis.add(line, kind, "error", reason, repair="drop-line")
            analysis.dropped.add(line.number)
            continue
        parsed.append(line)
        if torn:
            analysis.add_newline = True
            analysis.add(
                line,
                "torn-line",
                "warning",
                "the file does not end with a newline; the line is complete, but a writer "
                "that does not check (Pi) would glue its next entry onto it",
                repair="add-newline",
            )
    return parsed


def _check_header(analysis: _Analysis, parsed: list[_Line]) -> list[_Line]:
    """Find the header (the first JSON line); returns the lines after it."""
    if not parsed:
        what = "the file is empty" if not analysis.data.strip() else "no line is valid JSON"
        analysis.needs_header = True
        analysis.add(
            None, "missing-header", "error", f"no session header: {what}", repair="new-header"
        )
        return []
    first = parsed[0]
    if not is_header(first.value):
        analysis.needs_header = True
        analysis.add(
            first,
            "missing-header",
            "error",
            'the first JSON line is not a session header ({"type":"session","id":...}); '
            "loaders refuse the file",
            repair="new-header",
        )
        if _looks_like_version_1(parsed):
            analysis.old_format = analysis.ids_invented = True
        return parsed
    analysis.header = first
    header = first.value
    version = header.get("version")
    if "version" in header and (isinstance(version, bool) or not isinstance(version, int)):
        analysis.add(
            first,
            "invalid-header",
            "warning",
            f"header 'version' is {_show(version)}, not an integer: loaders treat the file as "
            "version 1 and give every entry a new id",
        )
    elif isinstance(version, int):
        analysis.version = version
    for name in ("timestamp", "cwd"):
        if not isinstance(header.get(name), str):
            analysis.add(first, "invalid-header", "warning", f"header has no string {name!r}")
    found = analysis.version or 1
    if found < CURRENT_VERSION:
        analysis.old_format = True
        analysis.ids_invented = found < 2
        analysis.add(
            first,
            "old-version",
            "info",
            f"version {found} file: loaded after migration to version {CURRENT_VERSION}; "
            "a repaired copy is written in the current version",
        )
    return parsed[1:]


def _looks_like_version_1(lines: list[_Line]) -> bool:
    """Entries without ids: a version 1 file that lost its header keeps them all."""
    objects = [line.value for line in lines if isinstance(line.value, dict)]
    return bool(objects) and not any(isinstance(value.get("id"), str) for value in objects)


def _check_entries(analysis: _Analysis, candidates: list[_Line]) -> None:
    """Keep the lines the loader would load as entries; report the others and bad fields."""
    if analysis.old_format:
        # The same migration the loader runs; numbered ids keep the report reproducible.
        values = [line.value for line in candidates]
        counter = iter(range(1, len(values) + 1))
        migrate_entries({}, values, analysis.version or 1, new_id=lambda: f"{next(counter):08x}")
    seen: set[str] = set()
    for line in candidates:
        value = line.value
        problem = entry_problem(value, needs_id=True)
        if problem is not None:
            analysis.add(line, "invalid-entry", "error", problem, repair="drop-line")
            analysis.dropped.add(line.number)
            continue
        entry_id: str = value["id"]
        if value["type"] == "session":
            analysis.add(
                line,
                "stray-header",
                "warning",
                "a second session header in the middle of the file (two files joined?)",
                entry_id=entry_id,
                repair="drop-line",
            )
            analysis.dropped.add(line.number)
            continue
        if entry_id in seen:
            analysis.add(
                line,
                "duplicate-id",
                "error",
                f"entry id {_show(entry_id)} is already used by an earlier entry",
                entry_id=entry_id,
                repair="drop-line",
            )
            analysis.dropped.add(line.number)
            continue
        seen.add(entry_id)
        analysis.entries.append(line)
        problems = list(_field_problems(value))
        if problems:
            more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
            analysis.add(
                line,
                "invalid-field",
                "warning",
                "; ".join(problems[:3]) + more,
                entry_id=entry_id,
            )


def _check_parents(analysis: _Analysis) -> None:
    """Orphans become roots; each parent cycle is broken at its first entry in the file."""
    parents = analysis.parents
    by_id = {line.value["id"]: line for line in analysis.entries}
    for line in analysis.entries:
        entry_id = line.value["id"]
        parent = line.value.get("parentId")
        if parent is not None and parent not in by_id:
            analysis.add(
                line,
                "orphan-parent",
                "warning",
                f"parentId {_show(parent)} names no entry (the path stops here)",
                entry_id=entry_id,
                repair="make-root",
            )
            analysis.made_root[line.number] = entry_id
            parent = None
        parents[entry_id] = parent

    finished: set[str] = set()
    for line in analysis.entries:
        walk: list[str] = []
        on_walk: set[str] = set()
        current: str | None = line.value["id"]
        while current is not None and current not in finished:
            if current in on_walk:
                cycle = walk[walk.index(current) :]
                _break_cycle(analysis, cycle, by_id)
                break
            on_walk.add(current)
            walk.append(current)
            current = parents[current]
        finished.update(walk)


def _break_cycle(analysis: _Analysis, cycle: list[str], by_id: dict[str, _Line]) -> None:
    breaker = min(cycle, key=lambda entry_id: by_id[entry_id].number)
    line = by_id[breaker]
    shown = " → ".join(_show(entry_id) for entry_id in cycle[:6])
    if len(cycle) > 6:
        shown += f" → … ({len(cycle)} entries)"
    analysis.add(
        line,
        "parent-cycle",
        "error",
        f"parentId links loop: {shown} → {_show(cycle[0])}; loaders refuse the file",
        entry_id=breaker,
        repair="make-root",
    )
    analysis.made_root[line.number] = breaker
    analysis.parents[breaker] = None


def _check_paths(analysis: _Analysis) -> None:
    """Tool results and compactions, checked against the path from the root to them.

    One depth-first walk over the repaired tree: it counts the tool-call ids of the
    assistant messages on the current path (so each tool result is checked in constant
    time) and numbers the entries on entry and exit (so "is X on the path to Y" is two
    comparisons).
    """
    children: dict[str | None, list[_Line]] = {}
    for line in analysis.entries:
        children.setdefault(analysis.parents[line.value["id"]], []).append(line)
    enter: dict[str, int] = {}
    leave: dict[str, int] = {}
    calls_on_path: Counter[str] = Counter()
    clock = 0
    stack: list[tuple[_Line, bool]] = [(line, False) for line in reversed(children.get(None, []))]
    while stack:
        line, done = stack.pop()
        entry = line.value
        calls = _call_ids(entry)
        if done:
            calls_on_path.subtract(calls)
            leave[entry["id"]] = clock
            clock += 1
            continue
        enter[entry["id"]] = clock
        clock += 1
        _check_tool_result(analysis, line, calls_on_path)
        calls_on_path.update(calls)
        stack.append((line, True))
        stack.extend((child, False) for child in reversed(children.get(entry["id"], [])))

    for line in analysis.entries:
        entry = line.value
        if entry.get("type") != "compaction" or not isinstance(entry.get("firstKeptEntryId"), str):
            continue
        kept = entry["firstKeptEntryId"]
        if kept == entry["id"]:
            continue  # retain-none: the compaction keeps nothing before it
        if kept not in enter:
            analysis.add(
                line,
                "missing-first-kept",
                "warning",
                f"firstKeptEntryId {_show(kept)} names no entry: the context keeps only the "
                "summary and what follows it",
                entry_id=entry["id"],
            )
        elif not (enter[kept] < enter[entry["id"]] and leave[entry["id"]] < leave[kept]):
            analysis.add(
                line,
                "first-kept-off-path",
                "warning",
                f"firstKeptEntryId {_show(kept)} is not on this compaction's path: the "
                "context keeps only the summary and what follows it",
                entry_id=entry["id"],
            )


def _check_concurrent_writes(analysis: _Analysis) -> None:
    """What a writer that appended on a stale leaf leaves behind (see the module docstring).

    A compaction is appended on the leaf its writer knew, so one on an entry that already
    had children was made from a stale copy (a warning). Entries of a side branch written
    after the final path moved past it are reported as information only: going back to
    an older branch on purpose and continuing there looks the same.
    """
    entries = analysis.entries
    if not entries:
        return
    position = {line.value["id"]: index for index, line in enumerate(entries)}
    children: dict[str, list[_Line]] = {}
    for line in entries:
        parent = analysis.parents[line.value["id"]]
        if parent is not None:
            children.setdefault(parent, []).append(line)
    # Size and latest file position of every subtree, children before parents.
    size: dict[str, int] = {}
    latest: dict[str, int] = {}
    for line in reversed(_preorder(entries, analysis.parents, children)):
        entry_id = line.value["id"]
        below = children.get(entry_id, [])
        size[entry_id] = 1 + sum(size[c.value["id"]] for c in below)
        latest[entry_id] = max([position[entry_id], *(latest[c.value["id"]] for c in below)])

    for siblings in children.values():
        compactions: list[_Line] = []
        for index, line in enumerate(siblings):
            entry = line.value
            if entry.get("type") != "compaction":
                continue
            if compactions:
                first = compactions[0]
                analysis.add(
                    line,
                    "sibling-compaction",
                    "warning",
                    f"a second compaction on the same entry (the first is line {first.number}):"
                    " two writers compacted the same branch; only one can be on the path",
                    entry_id=entry["id"],
                )
            compactions.append(line)
            earlier = siblings[:index]
            if earlier:
                stranded = sum(size[e.value["id"]] for e in earlier)
                analysis.add(
                    line,
                    "off-path-entries",
                    "warning",
                    f"this compaction was appended on an entry that already had "
                    f"{_count(stranded)} after it (from line {earlier[0].number}), which are "
                    "off the checkpoint's path: a writer compacted a stale copy of the session",
                    entry_id=entry["id"],
                )

    leaf = entries[-1]
    current: str | None = leaf.value["id"]
    while current is not None:
        parent = analysis.parents[current]
        if parent is not None:
            for sibling in children[parent]:
                other = sibling.value["id"]
                if other != current and latest[other] > position[current]:
                    # Informational: going back to an older branch on purpose looks the same.
                    analysis.add(
                        sibling,
                        "off-path-entries",
                        "info",
                        f"{_count(size[other])} on this branch, some written after the final "
                        f"path had moved on to {_show(current)}, are not on the leaf's path "
                        "and not in the context: unless the leaf was moved back to this "
                        "path on purpose, two writers appended to the session at once",
                        entry_id=other,
                    )
        current = parent


def _count(entries: int) -> str:
    return f"{entries} {'entry' if entries == 1 else 'entries'}"


def _preorder(
    entries: list[_Line], parents: dict[str, str | None], children: dict[str, list[_Line]]
) -> list[_Line]:
    """Every entry of the repaired tree, each parent before its children (iteratively)."""
    order: list[_Line] = []
    stack = [line for line in reversed(entries) if parents[line.value["id"]] is None]
    while stack:
        line = stack.pop()
        order.append(line)
        stack.extend(reversed(children.get(line.value["id"], [])))
    return order


def _call_ids(entry: dict[str, Any]) -> list[str]:
    message = entry.get("message") if entry.get("type") == "message" else None
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return []
    return [call["id"] for call in tool_calls(message) if isinstance(call.get("id"), str)]


def _check_tool_result(analysis: _Analysis, line: _Line, calls_on_path: Counter[str]) -> None:
    entry = line.value
    message = entry.get("message") if entry.get("type") == "message" else None
    if not isinstance(message, dict) or message.get("role") != "toolResult":
        return
    call_id = message.get("toolCallId")
    if isinstance(call_id, str) and calls_on_path[call_id] <= 0:
        analysis.add(
            line,
            "orphan-tool-result",
            "warning",
            f"tool result for call {_show(call_id)}, but no assistant message before it on "
            "its path made that call",
            entry_id=entry["id"],
        )


def _analyse(data: bytes) -> _Analysis:
    analysis = _Analysis(data, _split_lines(data))
    if data.startswith(_BOM):
        analysis.add(
            analysis.lines[0] if analysis.lines else None,
            "byte-order-mark",
            "error",
            "the file starts with a UTF-8 byte order mark: Pi and synopsis refuse it as a "
            "session (the header must be the first bytes)",
            repair="drop-bom",
        )
    parsed = _parse(analysis)
    candidates = _check_header(analysis, parsed)
    _check_entries(analysis, candidates)
    _check_parents(analysis)
    _check_paths(analysis)
    _check_concurrent_writes(analysis)
    analysis.findings.sort(key=lambda f: (f.line is not None, f.line or 0))
    return analysis


# --- field checks (the schema is in synopsis.session.entries) -------------------------


def _missing_or_wrong(
    where: str, value: dict[str, Any], checks: tuple[FieldCheck, ...]
) -> Iterator[str]:
    for name, check, wanted, required in checks:
        if name not in value:
            if required:
                yield f"{where}{name!r} is missing"
        elif not check(value[name]):
            yield f"{where}{name!r} is {type(value[name]).__name__}, not {wanted}"


_TIMESTAMP: tuple[FieldCheck, ...] = (
    ("timestamp", lambda v: isinstance(v, str), "a string", True),
)


def _field_problems(entry: dict[str, Any]) -> Iterator[str]:
    """Required fields of an entry (that the loader accepted) that are missing or wrong."""
    if "parentId" not in entry:
        yield "'parentId' is missing"
    yield from _missing_or_wrong("", entry, _TIMESTAMP)
    kind = entry["type"]
    yield from _missing_or_wrong("", entry, ENTRY_FIELDS.get(kind, ()))
    if kind == EntryType.MESSAGE:
        message = entry["message"]
        yield from _missing_or_wrong("message.", message, MESSAGE_FIELDS.get(message["role"], ()))
        yield from _block_problems(message)
    elif kind == EntryType.CUSTOM_MESSAGE:
        yield from _block_problems(entry)
    elif kind == EntryType.COMPACTION and isinstance(entry.get("systemMessage"), dict):
        yield from _block_problems(entry["systemMessage"], "systemMessage.")


def _block_problems(holder: dict[str, Any], prefix: str = "") -> Iterator[str]:
    content = holder.get("content")
    if not isinstance(content, list):
        return
    for index, block in enumerate(content):
        where = f"{prefix}content[{index}]"
        if not isinstance(block, dict):
            yield f"{where} is {type(block).__name__}, not an object"
            continue
        kind = block.get("type")
        if not isinstance(kind, str):
            yield f"{where} has no string 'type'"
            continue
        yield from _missing_or_wrong(f"{where}.", block, BLOCK_FIELDS.get(kind, ()))


# --- repair -----------------------------------------------------------------------------


def _repaired_bytes(analysis: _Analysis, make_header: Callable[[], SessionHeader]) -> bytes:
    data = analysis.data
    out: list[bytes] = []
    if analysis.needs_header or analysis.header is None:
        header: dict[str, Any] = dict(make_header())
        out.append(dump_line(header))
    elif analysis.old_format:
        header = {**analysis.header.value, "version": CURRENT_VERSION}
        out.append(dump_line(header))
    if analysis.old_format:
        for line in analysis.entries:
            out.append(dump_line(_with_parent(line.value, analysis.parents[line.value["id"]])))
        return b"".join(out)
    unterminated = not data.endswith(b"\n")
    for line in analysis.lines:
        if line.number in analysis.dropped:
            continue
        if line.number in analysis.made_root:
            out.append(dump_line(_with_parent(line.value, None)))
        elif unterminated and line.end == len(data):
            out.append(data[line.start : line.end] + b"\n")
        else:
            out.append(data[line.start : line.end])
    return b"".join(out)


def _with_parent(entry: dict[str, Any], parent: str | None) -> dict[str, Any]:
    if entry.get("parentId") == parent and "parentId" in entry:
        return entry
    return {**entry, "parentId": parent}


# --- public API -------------------------------------------------------------------------


def diagnose_bytes(data: bytes, *, path: str | None = None) -> DoctorReport:
    """Check the bytes of a session file (pure: see the module docstring for the checks)."""
    analysis = _analyse(data)
    return DoctorReport(
        path, analysis.findings, len(analysis.lines), len(analysis.entries), analysis.version
    )


def repair_bytes(
    data: bytes,
    *,
    make_header: Callable[[], SessionHeader] | None = None,
    source: str | None = None,
    output: str | None = None,
) -> tuple[bytes, RepairReport]:
    """The repaired bytes of a session file, and what was done (pure, given ``make_header``).

    ``make_header`` makes the header written when the file has none (default: a fresh
    version 3 header with a random id, the current time and an empty ``cwd``).
    """
    analysis = _analyse(data)
    repaired = _repaired_bytes(analysis, make_header or (lambda: new_header(cwd="")))
    report = RepairReport(
        source,
        output,
        dropped_lines=sorted(analysis.dropped),
        made_root=[analysis.made_root[n] for n in sorted(analysis.made_root)],
        header_replaced=analysis.needs_header,
        bom_removed=data.startswith(_BOM),
        newline_added=analysis.add_newline and not analysis.old_format,
        converted_from_version=(analysis.version or 1) if analysis.old_format else None,
        entries=len(analysis.entries),
        remaining=[f for f in _analyse(repaired).findings if f.severity != "info"],
    )
    return repaired, report


def diagnose(path: str | os.PathLike[str]) -> DoctorReport:
    """Check a session file. It is opened read-only; unreadable is a :class:`SessionFormatError`."""
    name = os.fspath(path)
    return diagnose_bytes(read_file_bytes(name), path=name)


def repair(path: str | os.PathLike[str], out: str | os.PathLike[str]) -> RepairReport:
    """Write a repaired copy of the session file ``path`` to ``out``, atomically.

    ``out`` must not be ``path`` (the input is never written): that is a
    :class:`SessionFormatError`, and so is a file that cannot be read or written.
    """
    source, target = Path(path), Path(out)
    if same_file(source, target):
        raise SessionFormatError(
            "refusing to write the repaired copy over the input; choose another output file",
            path=str(source),
        )
    data = read_file_bytes(source)
    repaired, report = repair_bytes(data, source=str(source), output=str(target))
    try:
        write_atomically(target, repaired)
    except OSError as error:
        raise SessionFormatError(f"cannot write: {error.strerror}", path=str(target)) from None
    return report


def same_file(first: Path, second: Path) -> bool:
    """Do the two paths name one file (also through links)? Writing to one would clobber
    the other."""
    try:
        return first.resolve() == second.resolve() or (
            second.exists() and os.path.samefile(first, second)
        )
    except OSError:
        return False
