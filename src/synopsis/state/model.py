"""The working state: facts derived by code from the event log, and their JSON form.

A summary is lossy; these records are not. Each one keeps the exact text it came from
and, when known, the id of the entry that holds it, so a checkpoint can be checked against
them and they can travel from one compaction to the next in the entry's ``details``
without ever depending on a summary surviving.

Records are frozen dataclasses in first-seen order, which makes the JSON stable: the same
messages always give byte-identical ``details``. :meth:`WorkingState.from_json` is
tolerant (a hand-edited or future-version ``details`` loses the bad items, never the
session), because it reads data from files we did not necessarily write.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from synopsis.state._commands import (
    SHELL_TOOLS,
    checks_subjects,
    cleans_tree,
    resolution_key,
    same_file,
    subjects,
    wants_clean_tree,
    written_files,
)
from synopsis.state._errors import is_aborted
from synopsis.state._patterns import lower_same
from synopsis.state._text import contains_value, cut_value, out_of_date, sentences
from synopsis.state.statements import is_rule

STATE_VERSION = 1
LAST_SAID_CHARS = 1000
"""How much of the assistant's latest words the state keeps for the next reply."""

ToolStatus = Literal["ok", "error", "pending"]
Source = Literal["user", "assistant", "tool", "summary"]
Written = Literal["typed", "pasted", "tool", "harness", "summary"]
"""How a text came to be in the log: typed by the user, pasted by the user (code, long
documents), produced by a tool, injected by the harness, or read back from a checkpoint.
Only typed text can become a rule, goal, preference or fact of the user's."""

_T = TypeVar("_T")

STRONG_KINDS = frozenset({"url", "email", "commit", "id", "ticket", "issue", "sha"})
"""Kinds of value that name one thing and are never guessable: kept whoever stated them."""


@dataclass(frozen=True, slots=True)
class Goal:
    """A request of the user: the first one, and each later new one."""

    text: str
    entry_id: str | None = None
    outcome: str | None = None
    """The assistant's closing statement after the request's work (None: still open)."""
    reported: tuple[str, ...] = ()
    """What the assistant reported done while working on it (its interim and closing
    reports, verbatim, the latest :data:`MAX_REPORTED` kept): a closing statement is
    forgotten when the work goes on, what it said was done is not."""


MAX_REPORTED = 12


@dataclass(frozen=True, slots=True)
class Constraint:
    """A rule, limit or preference the user stated, verbatim."""

    text: str
    entry_id: str | None = None
    source: Source = "user"
    """``summary`` when it was read back from an earlier checkpoint's constraints."""
    written: Written = "typed"
    superseded_by: str | None = None
    """The entry (or text) of a later statement that changed the value this rule states."""


@dataclass(frozen=True, slots=True)
class Fact:
    """A statement of the user's with specific values or names, verbatim.

    ``classes`` are the kinds of value it states (``date``, ``count:people``, ``address``
    …): a later update of the same class supersedes it. A superseded fact leaves the
    checkpoint text and stays here, with ``superseded_by``, for audit.
    """

    text: str
    entry_id: str | None = None
    source: Source = "user"
    written: Written = "typed"
    classes: tuple[str, ...] = ()
    superseded_by: str | None = None


@dataclass(frozen=True, slots=True)
class Identifier:
    """A value later steps depend on (id, sha, version, port, amount, date, URL, path).

    ``slot`` names what the value is *for* (``budget``, ``deadline``, ``port`` …) so that a
    later value for the same slot can replace it even when worded differently;
    ``superseded_by`` is the value that replaced it.
    """

    value: str
    kind: str
    entry_id: str | None = None
    source: Source = "user"
    context: str = ""
    slot: str | None = None
    superseded_by: str | None = None
    asserted_in: tuple[str, ...] = ()
    """Entries that stated this value for its slot (makes re-merging a no-op)."""
    written: Written = "typed"
    """``tool`` for a value a tool reported in its output: kept while there is room,
    never pinned (a log holds many ids; the user's and the calls' own values are pinned)."""


@dataclass(frozen=True, slots=True)
class ToolCallRecord:
    """One tool call and what came of it."""

    call_id: str
    name: str
    target: str
    status: ToolStatus = "pending"
    error: str | None = None
    """The first error line of the result, verbatim (capped)."""
    entry_id: str | None = None
    result_entry_id: str | None = None
    content_sha256: str | None = None
    """sha256 of the content a ``write`` call wrote."""
    ranged: bool = False
    """A ``read`` of part of a file (offset / limit): its result hashes no file."""
    called: bool = True
    """False while only the result is known (it came before its call, or the call was lost)."""
    outcome: str | None = None
    """What a successful call showed, when it says more than "ok" ("no match", the first
    error line of a log it printed); for a failed call, why it no longer blocks."""
    request: str | None = None
    """Digest of the text of the user request this call worked on."""


@dataclass(frozen=True, slots=True)
class FileRecord:
    """A file the agent read, modified or created, with its last known content hash."""

    path: str
    read: bool = False
    modified: bool = False
    created: bool = False
    sha256: str | None = None
    sha256_source: Literal["write", "read"] | None = None
    deleted: bool = False
    """Removed by a command (``rm``, ``git rm``) after it was touched."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A choice stated by the user ("那就选P001吧") or the assistant ("I'll …, because …")."""

    text: str
    entry_id: str | None = None
    source: Source = "assistant"


@dataclass(frozen=True, slots=True)
class Folded:
    """What the bounded lists let go of, kept as short digests so a merge stays idempotent."""

    tool_calls: tuple[str, ...] = ()
    decisions: tuple[str, ...] = ()
    goals: tuple[str, ...] = ()
    ok_calls_by_tool: tuple[tuple[str, int], ...] = ()
    """How many successful calls of each tool were folded away."""
    replies: tuple[str, ...] = ()
    """Digests of the user's messages read: whether a short one is a choice depends on
    what the assistant said before it, so a reply merged again is not read twice. The
    assistant's messages read are among them (``a:`` before the digest): merged again,
    one reads no tool result a second time."""


@dataclass(frozen=True, slots=True)
class WorkingState:
    """Everything code can tell about a conversation that a summary must not lose."""

    goals: tuple[Goal, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    identifiers: tuple[Identifier, ...] = ()
    tool_calls: tuple[ToolCallRecord, ...] = ()
    files: tuple[FileRecord, ...] = ()
    decisions: tuple[Decision, ...] = ()
    facts: tuple[Fact, ...] = ()
    next_steps: tuple[str, ...] = ()
    """Intentions the assistant stated last ("next, I'll …")."""
    failed_approaches: tuple[Decision, ...] = ()
    """What the assistant said did not work, and why, in its own words."""
    folded: Folded = field(default_factory=Folded)
    last_said: str = ""
    """The end of the assistant's latest words (at most :data:`LAST_SAID_CHARS`): what
    the user's next short reply answers, so a reply right after a compaction is read as
    it would have been without one."""
    unread_output: tuple[Fact, ...] = ()
    """The latest tool results no reply has read yet (their lines that may be facts): the
    reply that shows which lines the work relies on may come after a compaction."""

    # --- derived views ----------------------------------------------------------------

    def superseded_values(self) -> dict[str, str]:
        """Every replaced value → the value now in force (following chains)."""
        direct = {i.value: i.superseded_by for i in self.identifiers if i.superseded_by}
        current = {i.value for i in self.identifiers if not i.superseded_by}
        result: dict[str, str] = {}
        for old, new in direct.items():
            if old in current:
                continue  # the same text is also a value in force elsewhere
            seen = {old}
            while new in direct and new not in seen:
                seen.add(new)
                new = direct[new]
            result[old] = new
        return result

    def current_constraints(self) -> tuple[Constraint, ...]:
        """Constraints that still say something once the values the user replaced are cut.

        A rule whose every sentence states an old value without its replacement is out of
        date. One sentence that does not keeps the rule ("Never push to main. We'll be 9
        people." stays after 9 became 12): the renderer cuts the old value, the rule stays.
        A rule that names both the old value and its replacement is the correction itself
        ("keep it under $500, not $800") and stays.
        """
        stale = self.superseded_values()
        live = _without_contained(tuple(c for c in self.constraints if c.superseded_by is None))
        if not stale:
            return live
        return tuple(
            c for c in live if not all(rule_out_of_date(s, stale) for s in _sentences(c.text))
        )

    def current_facts(self) -> tuple[Fact, ...]:
        return tuple(f for f in self.facts if f.superseded_by is None)

    def retired_texts(self) -> frozenset[str]:
        """Whitespace-normalized texts of facts and rules a later statement superseded:
        a checkpoint line that repeats one is corrected information and is left out."""
        facts = [f.text for f in self.facts if f.superseded_by is not None]
        rules = [c.text for c in self.constraints if c.superseded_by is not None]
        return frozenset(" ".join(text.split()) for text in (*facts, *rules))

    def open_errors(self) -> tuple[ToolCallRecord, ...]:
        """Failed calls that nothing later resolved and that block the request the work is
        on: no later success of the same file, program or tool (see
        :func:`resolution_key`) nor of another command that builds, runs or checks the same
        files (:func:`checks_subjects`), nor a later write of a file they failed to write
        through another tool (:func:`written_files`), nor — for a command that failed on
        a dirty work tree (:func:`wants_clean_tree`) — a later stash or commit, and no
        report after them that the
        request they worked on was done (``outcome`` set: a failure the assistant worked
        around, then reported the request done, blocks nothing)."""
        return self.unresolved_errors()[0]

    def left_errors(self) -> tuple[ToolCallRecord, ...]:
        """Failed calls that nothing resolved, of a request the work then left for a newer
        one: what was tried there and failed, not what blocks the work now."""
        return self.unresolved_errors()[1]

    def unresolved_errors(self) -> tuple[tuple[ToolCallRecord, ...], tuple[ToolCallRecord, ...]]:
        """(:meth:`open_errors`, :meth:`left_errors`), in one pass over the calls."""
        resolved: set[tuple[str, ...]] = set()
        checked: set[str] = set()  # files a later successful build, run or check worked on
        written: set[str] = set()  # files a later successful call wrote
        cleaned = False  # a later successful stash or commit of the work tree's changes
        latest = next((r.request for r in reversed(self.tool_calls) if r.request), None)
        open_: list[ToolCallRecord] = []
        left: list[ToolCallRecord] = []
        for record in reversed(self.tool_calls):
            target = record.target
            key = resolution_key(record.name, target)
            shell = record.name in SHELL_TOOLS
            if record.status == "ok":
                resolved.add(key)
                written.update(written_files(record.name, target))
                if shell:
                    checked.update(checks_subjects(target))
                    cleaned = cleaned or cleans_tree(target)
            elif (
                record.status == "error"
                and key not in resolved
                and not (shell and subjects(target) & checked)
                and not (shell and cleaned and wants_clean_tree(record.error))
                and not any(same_file(p, written) for p in written_files(record.name, target))
                and record.outcome is None
                and not is_aborted(record.error)  # stopped, not failed: nothing to get past
            ):
                earlier = record.request is not None and record.request != latest
                (left if earlier else open_).append(record)
        return tuple(reversed(open_)), tuple(reversed(left))

    # --- JSON ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (camelCase keys, as Pi's ``details`` use)."""
        return {
            "version": STATE_VERSION,
            "goals": [
                _drop_none(
                    {
                        "text": g.text,
                        "entryId": g.entry_id,
                        "outcome": g.outcome,
                        "reported": list(g.reported) or None,
                    }
                )
                for g in self.goals
            ],
            "constraints": [
                _drop_none(
                    {
                        "text": c.text,
                        "entryId": c.entry_id,
                        "source": None if c.source == "user" else c.source,
                        "written": None if c.written == "typed" else c.written,
                        "supersededBy": c.superseded_by,
                    }
                )
                for c in self.constraints
            ],
            "identifiers": [_identifier_json(i) for i in self.identifiers],
            "toolCalls": [_tool_call_json(t) for t in self.tool_calls],
            "files": [_file_json(f) for f in self.files],
            "decisions": [_decision_json(d) for d in self.decisions],
            "facts": [_fact_json(f) for f in self.facts],
            "nextSteps": list(self.next_steps),
            "failedApproaches": [_decision_json(d) for d in self.failed_approaches],
            "folded": {
                "toolCalls": list(self.folded.tool_calls),
                "decisions": list(self.folded.decisions),
                "goals": list(self.folded.goals),
                "okCallsByTool": {name: n for name, n in self.folded.ok_calls_by_tool},
                **({"replies": list(self.folded.replies)} if self.folded.replies else {}),
            },
            **({"lastSaid": self.last_said} if self.last_said else {}),
            **(
                {"unreadOutput": [_fact_json(f) for f in self.unread_output]}
                if self.unread_output
                else {}
            ),
        }

    @classmethod
    def from_json(cls, data: Any) -> WorkingState:
        """Read :meth:`to_json` output back; ``None`` or junk gives an empty state."""
        if not isinstance(data, dict):
            return cls()
        folded = data.get("folded")
        folded = folded if isinstance(folded, dict) else {}
        by_tool = folded.get("okCallsByTool")
        return cls(
            goals=_items(data.get("goals"), _goal_from),
            constraints=_items(data.get("constraints"), _constraint_from),
            identifiers=_items(data.get("identifiers"), _identifier_from),
            tool_calls=_items(data.get("toolCalls"), _tool_call_from),
            files=_items(data.get("files"), _file_from),
            decisions=_items(data.get("decisions"), _decision_from),
            facts=_items(data.get("facts"), _fact_from),
            next_steps=tuple(_strings(data.get("nextSteps"))),
            failed_approaches=_items(data.get("failedApproaches"), _decision_from),
            folded=Folded(
                tool_calls=tuple(_strings(folded.get("toolCalls"))),
                decisions=tuple(_strings(folded.get("decisions"))),
                goals=tuple(_strings(folded.get("goals"))),
                ok_calls_by_tool=tuple(
                    (k, v)
                    for k, v in (by_tool.items() if isinstance(by_tool, dict) else ())
                    if isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                ),
                replies=tuple(_strings(folded.get("replies"))),
            ),
            last_said=_last_said(data.get("lastSaid")),
            unread_output=_items(data.get("unreadOutput"), _fact_from),
        )


# --- JSON helpers -------------------------------------------------------------------------


def _last_said(value: Any) -> str:
    return value[-LAST_SAID_CHARS:] if isinstance(value, str) else ""


def _drop_none(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if v is not None and v is not False}


def _decision_json(d: Decision) -> dict[str, Any]:
    source = None if d.source == "assistant" else d.source
    return _drop_none({"text": d.text, "entryId": d.entry_id, "source": source})


def _fact_json(f: Fact) -> dict[str, Any]:
    return _drop_none(
        {
            "text": f.text,
            "entryId": f.entry_id,
            "source": None if f.source == "user" else f.source,
            "written": None if f.written == "typed" else f.written,
            "classes": list(f.classes) or None,
            "supersededBy": f.superseded_by,
        }
    )


def _identifier_json(i: Identifier) -> dict[str, Any]:
    return _drop_none(
        {
            "value": i.value,
            "kind": i.kind,
            "entryId": i.entry_id,
            "source": i.source,
            "context": i.context or None,
            "slot": i.slot,
            "supersededBy": i.superseded_by,
            "assertedIn": list(i.asserted_in) or None,
            "written": None if i.written == "typed" else i.written,
        }
    )


def _tool_call_json(t: ToolCallRecord) -> dict[str, Any]:
    return _drop_none(
        {
            "id": t.call_id,
            "name": t.name,
            "target": t.target,
            "status": t.status,
            "error": t.error,
            "entryId": t.entry_id,
            "resultEntryId": t.result_entry_id,
            "contentSha256": t.content_sha256,
            "ranged": t.ranged,
            "uncalled": not t.called,
            "outcome": t.outcome,
            "request": t.request,
        }
    )


def _file_json(f: FileRecord) -> dict[str, Any]:
    return _drop_none(
        {
            "path": f.path,
            "read": f.read,
            "modified": f.modified,
            "created": f.created,
            "sha256": f.sha256,
            "sha256Source": f.sha256_source,
            "deleted": f.deleted,
        }
    )


def _items(raw: Any, make: Callable[[dict[str, Any]], _T | None]) -> tuple[_T, ...]:
    if not isinstance(raw, list):
        return ()
    out: list[_T] = []
    for item in raw:
        if isinstance(item, dict):
            made = make(item)
            if made is not None:
                out.append(made)
    return tuple(out)


def _strings(raw: Any) -> Iterable[str]:
    if isinstance(raw, list):
        yield from (s for s in raw if isinstance(s, str))


def _str(item: dict[str, Any], key: str) -> str | None:
    value = item.get(key)
    return value if isinstance(value, str) else None


def _source(item: dict[str, Any], default: Source) -> Source:
    value = item.get("source")
    if value in ("user", "assistant", "tool", "summary"):
        return value  # type: ignore[no-any-return]
    return default


def _goal_from(item: dict[str, Any]) -> Goal | None:
    text = _str(item, "text")
    if not text:
        return None
    reported = tuple(_strings(item.get("reported")))[-MAX_REPORTED:]
    return Goal(text, _str(item, "entryId"), _str(item, "outcome"), reported)


def _written(item: dict[str, Any], default: Written) -> Written:
    value = item.get("written")
    if value in ("typed", "pasted", "tool", "harness", "summary"):
        return value  # type: ignore[no-any-return]
    return default


def _constraint_from(item: dict[str, Any]) -> Constraint | None:
    text = _str(item, "text")
    if not text:
        return None
    return Constraint(
        text,
        _str(item, "entryId"),
        _source(item, "user"),
        _written(item, "typed"),
        _str(item, "supersededBy"),
    )


def _fact_from(item: dict[str, Any]) -> Fact | None:
    text = _str(item, "text")
    if not text:
        return None
    return Fact(
        text,
        _str(item, "entryId"),
        _source(item, "user"),
        _written(item, "typed"),
        tuple(_strings(item.get("classes"))),
        _str(item, "supersededBy"),
    )


def _decision_from(item: dict[str, Any]) -> Decision | None:
    text = _str(item, "text")
    return Decision(text, _str(item, "entryId"), _source(item, "assistant")) if text else None


def _identifier_from(item: dict[str, Any]) -> Identifier | None:
    value = _str(item, "value")
    kind = _str(item, "kind")
    if not value or not kind:
        return None
    return Identifier(
        value=value,
        kind=kind,
        entry_id=_str(item, "entryId"),
        source=_source(item, "user"),
        context=_str(item, "context") or "",
        slot=_str(item, "slot"),
        superseded_by=_str(item, "supersededBy"),
        asserted_in=tuple(_strings(item.get("assertedIn"))),
        written=_written(item, "typed"),
    )


def _tool_call_from(item: dict[str, Any]) -> ToolCallRecord | None:
    call_id = _str(item, "id")
    name = _str(item, "name")
    if not call_id or name is None:
        return None
    status = item.get("status")
    return ToolCallRecord(
        call_id=call_id,
        name=name,
        target=_str(item, "target") or "",
        status=status if status in ("ok", "error", "pending") else "pending",
        error=_str(item, "error"),
        entry_id=_str(item, "entryId"),
        result_entry_id=_str(item, "resultEntryId"),
        content_sha256=_str(item, "contentSha256"),
        ranged=item.get("ranged") is True,
        called=item.get("uncalled") is not True,
        outcome=_str(item, "outcome"),
        request=_str(item, "request"),
    )


def _file_from(item: dict[str, Any]) -> FileRecord | None:
    path = _str(item, "path")
    if not path:
        return None
    source = item.get("sha256Source")
    return FileRecord(
        path=path,
        read=item.get("read") is True,
        modified=item.get("modified") is True,
        created=item.get("created") is True,
        sha256=_str(item, "sha256"),
        sha256_source=source if source in ("write", "read") else None,
        deleted=item.get("deleted") is True,
    )


def _without_contained(constraints: tuple[Constraint, ...]) -> tuple[Constraint, ...]:
    """``constraints`` without the ones another states in full: a sentence and the whole
    statement it belongs to ("Don't change anything else there." inside "… only the role
    creation. Don't change anything else there.") are one rule, said once."""
    flat = [" ".join(c.text.split()) for c in constraints]
    return tuple(
        c
        for index, c in enumerate(constraints)
        if not any(
            other != flat[index] and flat[index] in other
            for position, other in enumerate(flat)
            if position != index
        )
        and flat[index] not in flat[:index]
    )


def rule_out_of_date(sentence: str, stale: dict[str, str]) -> bool:
    """Whether a rule's ``sentence`` says nothing in force once what was replaced is cut.

    A replaced *value* leaves it out of date when no value of its own is left ("只保留最近
    7 天的" once 7 天 became 14 天). A replaced *rule* — a prohibition the user lifted, whose
    words are themselves a rule ("don't deploy the worker") — leaves it out of date only
    when what is left is no rule: "Never push to main, and don't deploy the worker yet."
    still holds "Never push to main" after the deploy is allowed."""
    lifted = [old for old in stale if contains_value(sentence, old) and is_rule(lower_same(old))]
    if not lifted:
        return out_of_date(sentence, stale)
    rest = sentence
    for old in lifted:
        rest = cut_value(rest, old)
    values = {old: new for old, new in stale.items() if old not in lifted}
    return not is_rule(lower_same(rest)) or out_of_date(rest, values)


def _sentences(text: str) -> list[str]:
    return [text[start:end] for start, end in sentences(text)] or [text]
