"""What the model sees: the context built from the path root → leaf.

Pure functions over a path of entries (see :meth:`synopsis.session.Session.path`). With a
compaction on the path, the latest one stands for everything before its first kept entry:
the context is its summary, then the entries it kept, then everything after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from synopsis.messages import AgentMessage, role_of
from synopsis.session.entries import Entry


@dataclass(frozen=True, slots=True)
class ModelRef:
    provider: str | None
    model_id: str | None


class SessionContext:
    """Messages for the model plus the settings in force at the leaf.

    A context stays what it was when it was built. The context of a session's current
    leaf is a view of lists the session keeps extending as entries are appended
    (:class:`synopsis.session.live_context.LiveContext`): its lists are copied, up to the
    lengths they had when it was built, the first time they are read. Building it costs
    nothing until then, so the agent loop can ask for it before every model call.
    """

    __slots__ = (
        "_entry_ids",
        "_live",
        "_live_sizes",
        "_messages",
        "_projection",
        "compaction_index",
        "first_kept_entry_missing",
        "model",
        "new_messages_start",
        "thinking_level",
    )

    def __init__(
        self,
        messages: list[AgentMessage] | None = None,
        thinking_level: str = "off",
        model: ModelRef | None = None,
        entry_ids: list[str] | None = None,
        compaction_index: int = -1,
        first_kept_entry_missing: bool = False,
        new_messages_start: int = 0,
        projection: Projection | None = None,
    ) -> None:
        self.thinking_level = thinking_level
        self.model = model
        self.compaction_index = compaction_index
        """Position on the path of the compaction in force, or -1."""
        self.first_kept_entry_missing = first_kept_entry_missing
        """The compaction's first kept entry is not on the path before it (its kept part is
        lost)."""
        self.new_messages_start = new_messages_start
        """Index of the first message whose entry came after the latest compaction or
        context edit on the path (0 without one). Usage reported by replies before that
        point describes a context that no longer exists."""
        self._messages: list[AgentMessage] | None = [] if messages is None else messages
        self._entry_ids: list[str] | None = [] if entry_ids is None else entry_ids
        self._projection = projection
        self._live: Projection | None = None
        self._live_sizes = (0, 0, 0)

    @classmethod
    def view(
        cls,
        live: Projection,
        *,
        thinking_level: str,
        model: ModelRef | None,
        first_kept_entry_missing: bool,
        new_messages_start: int,
    ) -> SessionContext:
        """The context ``live`` describes now, read from it lazily (see the class).

        ``live``'s lists must only ever be appended to.
        """
        context = cls(
            thinking_level=thinking_level,
            model=model,
            compaction_index=live.compaction_index,
            first_kept_entry_missing=first_kept_entry_missing,
            new_messages_start=new_messages_start,
        )
        context._live = live
        context._live_sizes = (len(live.entries), len(live.flat), live.path_length)
        context._messages = context._entry_ids = None  # read from ``live`` when asked for
        return context

    @property
    def messages(self) -> list[AgentMessage]:
        """The messages for the model, in order."""
        if self._messages is None:
            assert self._live is not None
            self._messages = self._live.flat[: self._live_sizes[1]]
        return self._messages

    @messages.setter
    def messages(self, value: list[AgentMessage]) -> None:
        self._messages = value

    @property
    def entry_ids(self) -> list[str]:
        """The id of the entry each message came from (the compaction's id for its summary)."""
        if self._entry_ids is None:
            assert self._live is not None
            self._entry_ids = self._live.flat_ids[: self._live_sizes[1]]
        return self._entry_ids

    @entry_ids.setter
    def entry_ids(self, value: list[str]) -> None:
        self._entry_ids = value

    @property
    def projection(self) -> Projection | None:
        """The context entries and their (edited) messages, see :func:`build_projection`."""
        if self._projection is None and self._live is not None:
            entries, _, path_length = self._live_sizes
            self._projection = self._live.prefix(
                entries, path_length, self.messages, self.entry_ids
            )
        return self._projection

    @projection.setter
    def projection(self, value: Projection | None) -> None:
        self._projection = value

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.messages,
            self.thinking_level,
            self.model,
            self.entry_ids,
            self.compaction_index,
            self.first_kept_entry_missing,
            self.new_messages_start,
            self.projection,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SessionContext):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        names = (
            "messages",
            "thinking_level",
            "model",
            "entry_ids",
            "compaction_index",
            "first_kept_entry_missing",
            "new_messages_start",
            "projection",
        )
        fields = ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields(), strict=True))
        return f"SessionContext({fields})"


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = timedelta(milliseconds=1)


def iso_to_ms(timestamp: Any) -> int | None:
    """Milliseconds since the epoch of an ISO 8601 timestamp, or ``None`` if unreadable."""
    if not isinstance(timestamp, str):
        return None
    try:
        moment = datetime.fromisoformat(timestamp)
        if moment.tzinfo is None:
            moment = moment.astimezone()  # no offset: local time, as JavaScript reads it
        # integer arithmetic: timestamp() * 1000 is a float and can land 1 ms short
        return (moment - _EPOCH) // _ONE_MS
    except (ValueError, OverflowError):
        return None


_LIST_CONTENT_ROLES = frozenset({"user", "assistant", "toolResult"})


def _with_content(message: dict[str, Any]) -> AgentMessage:
    """``message`` with a null or missing ``content`` read as Pi 1.6 reads it."""
    if message.get("content") is not None:
        return message  # type: ignore[return-value]
    role = message.get("role")
    if role in _LIST_CONTENT_ROLES:
        return {**message, "content": []}  # type: ignore[return-value]
    if role == "system":
        return {**message, "content": ""}  # type: ignore[return-value]
    return message  # type: ignore[return-value]


def entry_message(entry: Entry) -> AgentMessage | None:
    """The context message an entry contributes, or ``None`` for entries that add none.

    Compaction entries contribute nothing here: only the latest one on a path speaks,
    through its summary (and the system prompt it carries), and
    :func:`build_projection` places it. Context edits are not applied here either.
    """
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        return _with_content(message) if isinstance(message, dict) else None
    if kind == "custom_message":
        content = entry.get("content")
        custom: dict[str, Any] = {
            "role": "custom",
            "customType": entry.get("customType"),
            "content": [] if content is None else content,
            "display": entry.get("display"),
            "details": entry.get("details"),
            "timestamp": iso_to_ms(entry.get("timestamp")),
        }
        return cast(AgentMessage, custom)
    if kind == "branch_summary":
        summary = entry.get("summary")
        if not summary or not isinstance(summary, str):
            return None
        branch: dict[str, Any] = {
            "role": "branchSummary",
            "summary": summary,
            "fromId": entry.get("fromId"),
            "timestamp": iso_to_ms(entry.get("timestamp")),
        }
        return cast(AgentMessage, branch)
    return None


def compaction_summary_message(entry: Entry) -> AgentMessage:
    summary = entry.get("summary")
    tokens_before = entry.get("tokensBefore")
    return {
        "role": "compactionSummary",
        "summary": summary if isinstance(summary, str) else "",
        "tokensBefore": tokens_before if isinstance(tokens_before, int) else 0,
        "timestamp": iso_to_ms(entry.get("timestamp")),  # type: ignore[typeddict-item]
    }


_NONE: tuple[AgentMessage, ...] = ()


def compaction_messages(entry: Entry) -> tuple[AgentMessage, ...]:
    """What the compaction in force contributes: its system prompt (if any), its summary."""
    summary = compaction_summary_message(entry)
    system = entry.get("systemMessage")
    if isinstance(system, dict) and system.get("role") == "system":
        return (_with_content(system), summary)
    return (summary,)


def _is_system(entry: Entry) -> bool:
    if entry.get("type") != "message":
        return False
    message = entry.get("message")
    return isinstance(message, dict) and message.get("role") == "system"


def edited_message(message: AgentMessage, replacement: dict[str, Any]) -> AgentMessage:
    """``message`` with its content replaced as a context edit says (other roles unchanged)."""
    role = message.get("role")
    content = replacement.get("content")
    if role in ("user", "custom"):
        return cast(AgentMessage, {**message, "content": content})
    if role in ("assistant", "toolResult"):
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        return cast(AgentMessage, {**message, "content": content})
    return message


@dataclass(slots=True)
class Projection:
    """The context entries of a path and the messages each contributes (Pi 1.6).

    Without a compaction: every entry of the path. With one (the latest): that compaction,
    then the entries it kept (from its first kept entry up to it, system messages left
    out: its own ``systemMessage`` stands for them), then every entry after it. Each entry
    carries its messages after context edits: the latest ``context_edit`` among the
    context entries that targets an entry replaces its content, or (``replacement:
    null``) removes its messages. Older compactions contribute nothing.

    Positions here are projected positions; :attr:`indices` maps them to the path.
    """

    entries: list[Entry] = field(default_factory=list)
    indices: list[int] = field(default_factory=list)
    """The path index of each projected entry."""
    messages: list[tuple[AgentMessage, ...]] = field(default_factory=list)
    """The messages each projected entry contributes, after edits."""
    path_length: int = 0
    compaction_index: int = -1
    """Path index of the latest compaction (the projection's first entry), or -1."""
    first_kept_entry_missing: bool = False
    """That compaction's first kept entry is neither its own id nor on the path before it."""
    omitted: dict[int, str] = field(default_factory=dict)
    """Projected positions whose messages an edit removed, with the removed message's role."""
    edited: int = 0
    """Context entries with messages of their own that an edit among them targets."""
    edits_on_path: int = 0
    usage_floor: int = -1
    """Path index of the latest compaction or context edit: usage recorded by an entry at
    or before it describes a context that no longer exists."""
    message_count: int = 0
    flat: list[AgentMessage] = field(default_factory=list)
    """Every message in order: the context's messages."""
    flat_ids: list[str] = field(default_factory=list)
    """The id of the entry each of :attr:`flat` came from."""
    edit_targets: set[Any] = field(default_factory=set)
    """The ``targetId`` of every context edit among the context entries."""

    def __len__(self) -> int:
        return len(self.entries)

    def path_index(self, position: int) -> int:
        """The path index of projected ``position`` (the path's length past the end)."""
        return self.indices[position] if position < len(self.indices) else self.path_length

    @property
    def leading_compaction(self) -> bool:
        """Does a compaction in force open the projection (one an edit did not remove)?"""
        return self.compaction_index >= 0 and bool(self.messages[0])

    def extend(self, entry: Entry) -> bool:
        """Add ``entry``, appended to the path after its end, in place; ``False`` (nothing
        changed) when it changes more than its own messages: a compaction, a context edit,
        or an entry an earlier edit targets. Then only :func:`build_projection` is right.

        An entry after the end of the path is a context entry (it comes after any
        compaction) and contributes its own messages, exactly as :func:`build_projection`
        reads them; nothing before it changes.
        """
        kind = entry.get("type")
        if kind in ("compaction", "context_edit") or entry.get("id") in self.edit_targets:
            return False
        group: tuple[AgentMessage, ...]
        if kind == "message":
            message = entry.get("message")
            group = (_with_content(message),) if isinstance(message, dict) else _NONE
        else:
            other = entry_message(entry)
            group = _NONE if other is None else (other,)
        self.entries.append(entry)
        self.indices.append(self.path_length)
        self.messages.append(group)
        self.path_length += 1
        for message in group:
            self.flat.append(message)
            self.flat_ids.append(entry["id"])
        self.message_count += len(group)
        return True

    def prefix(
        self,
        entries: int,
        path_length: int,
        flat: list[AgentMessage],
        flat_ids: list[str],
    ) -> Projection:
        """A copy of this projection as it was with its first ``entries`` entries, before
        :meth:`extend` added the others (``flat`` and ``flat_ids``: its messages then)."""
        return Projection(
            entries=self.entries[:entries],
            indices=self.indices[:entries],
            messages=self.messages[:entries],
            path_length=path_length,
            compaction_index=self.compaction_index,
            first_kept_entry_missing=self.first_kept_entry_missing,
            omitted=dict(self.omitted),
            edited=self.edited,
            edits_on_path=self.edits_on_path,
            usage_floor=self.usage_floor,
            message_count=len(flat),
            flat=flat,
            flat_ids=flat_ids,
            edit_targets=set(self.edit_targets),
        )

    def new_messages_start(self) -> int:
        """Index of the first message whose entry comes after :attr:`usage_floor`."""
        count = self.message_count
        for position in range(len(self.entries) - 1, -1, -1):
            if self.indices[position] <= self.usage_floor:
                break
            count -= len(self.messages[position])
        return count


def _edited(
    projection: Projection, position: int, group: tuple[AgentMessage, ...], edit: Entry
) -> tuple[AgentMessage, ...]:
    """``group`` after ``edit``: removed (recorded in ``omitted``) or with new content."""
    projection.edited += 1
    replacement = edit.get("replacement")
    if replacement is None:
        projection.omitted[position] = str(group[0].get("role"))
        return _NONE
    if isinstance(replacement, dict):
        from synopsis.session.skim import full_message

        return tuple(edited_message(full_message(m), replacement) for m in group)
    return group


def _scan(path: Sequence[Entry], compactions: bool) -> tuple[int, list[int]]:
    """(index of the latest compaction or -1, indices of the context edits) of ``path``."""
    return _scan_kinds([entry.get("type") for entry in path], compactions)


def _scan_kinds(kinds: list[Any], compactions: bool) -> tuple[int, list[int]]:
    """:func:`_scan` given the ``type`` of each entry of the path: the list's own searches
    find the rare kinds, so the common one (a message) costs no step of Python."""
    edits = (
        [index for index, kind in enumerate(kinds) if kind == "context_edit"]
        if "context_edit" in kinds
        else []
    )
    return (_last_index(kinds, "compaction") if compactions else -1), edits


def _last_index(kinds: list[Any], kind: str) -> int:
    """Index of the last ``kind`` in ``kinds``, or -1."""
    if kind not in kinds:
        return -1
    return len(kinds) - 1 - kinds[::-1].index(kind)


def build_projection(
    path: Sequence[Entry],
    *,
    compactions: bool = True,
    scanned: tuple[int, list[int]] | None = None,
) -> Projection:
    """The projection of ``path`` (see :class:`Projection`).

    ``compactions=False`` treats every entry as a context entry contributing its own
    message (for lists of entries that are not a session path, such as a full pass).
    ``scanned`` passes what :func:`_scan` gives, when the caller walked the path already.
    """
    compaction_index, edits = _scan(path, compactions) if scanned is None else scanned
    projection = Projection(path_length=len(path))
    projection.edits_on_path = len(edits)
    projection.usage_floor = max(compaction_index, edits[-1] if edits else -1)

    positions: range | list[int]
    if compaction_index < 0:
        positions = range(len(path))
        projection.entries = list(path)
    else:
        projection.compaction_index = compaction_index
        compaction = path[compaction_index]
        first_kept_id = compaction.get("firstKeptEntryId")
        first_kept = -1
        if first_kept_id != compaction.get("id"):
            first_kept = next(
                (i for i in range(compaction_index) if path[i].get("id") == first_kept_id), -1
            )
            projection.first_kept_entry_missing = first_kept < 0
        kept = (
            [i for i in range(first_kept, compaction_index) if not _is_system(path[i])]
            if first_kept >= 0
            else []
        )
        positions = [compaction_index, *kept, *range(compaction_index + 1, len(path))]
        projection.entries = [path[i] for i in positions]
    projection.indices = list(positions)

    # The latest edit per target among the context entries (an edit summarized away or
    # on another branch has no effect).
    latest: dict[Any, Entry] = {}
    if edits:
        in_context = set(positions) if compaction_index >= 0 else None
        for index in edits:
            if in_context is None or index in in_context:
                latest[path[index].get("targetId")] = path[index]
        projection.edit_targets = set(latest)

    groups = projection.messages
    add_group = groups.append
    flat = projection.flat
    add_message = flat.append
    add_id = projection.flat_ids.append
    leading = 0 if compaction_index >= 0 else -1
    for position, entry in enumerate(projection.entries):
        group: tuple[AgentMessage, ...]
        if entry.get("type") == "message" and position != leading:  # the common case
            message: AgentMessage | None = entry.get("message")
            if isinstance(message, dict):
                if message.get("content") is None:
                    message = _with_content(message)  # type: ignore[arg-type]
                entry_id = entry["id"]
                if not latest or entry_id not in latest:
                    add_group((message,))
                    add_message(message)
                    add_id(entry_id)
                    continue
                group = _edited(projection, position, (message,), latest[entry_id])
            else:
                group = _NONE
        else:
            if position == leading:
                group = compaction_messages(entry)
            else:
                other = entry_message(entry)
                group = _NONE if other is None else (other,)
            if latest and group and entry.get("id") in latest:
                group = _edited(projection, position, group, latest[entry["id"]])
        add_group(group)
        for part in group:
            add_message(part)
            add_id(entry["id"])
    projection.message_count = len(flat)
    return projection


def model_and_level_after(
    entry: Entry, model: ModelRef | None, thinking_level: str
) -> tuple[ModelRef | None, str]:
    """The model and thinking level in force after ``entry``: an assistant message names
    the model that wrote it, a model or thinking-level change sets its own."""
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        if isinstance(message, dict) and message.get("role") == "assistant":
            return ModelRef(message.get("provider"), message.get("model")), thinking_level
    elif kind == "thinking_level_change":
        level = entry.get("thinkingLevel")
        if isinstance(level, str):
            return model, level
    elif kind == "model_change":
        return ModelRef(entry.get("provider"), entry.get("modelId")), thinking_level
    return model, thinking_level


def _latest_model(path: Sequence[Entry], kinds: list[Any]) -> ModelRef | None:
    """The model in force at the end of ``path``: that of its latest assistant message or
    model change (what :func:`model_and_level_after` folds to, found from the end)."""
    for index in range(len(kinds) - 1, -1, -1):
        kind = kinds[index]
        if kind == "model_change" or (
            kind == "message" and role_of(path[index].get("message")) == "assistant"
        ):
            return model_and_level_after(path[index], None, "")[0]
    return None


def _latest_thinking_level(path: Sequence[Entry], kinds: list[Any]) -> str:
    """The thinking level in force at the end of ``path``: that of its latest
    thinking-level change naming one (as :func:`model_and_level_after` folds), else off."""
    backwards = kinds[::-1]
    found = -1
    while True:
        try:
            found = backwards.index("thinking_level_change", found + 1)
        except ValueError:
            return "off"
        level = path[len(kinds) - 1 - found].get("thinkingLevel")
        if isinstance(level, str):
            return level


def build_session_context(path: Sequence[Entry]) -> SessionContext:
    """The context for the model at the end of ``path`` (entries root → leaf)."""
    kinds = [entry.get("type") for entry in path]
    context = SessionContext(
        thinking_level=_latest_thinking_level(path, kinds), model=_latest_model(path, kinds)
    )
    projection = build_projection(path, scanned=_scan_kinds(kinds, True))
    context.projection = projection
    context.compaction_index = projection.compaction_index
    context.first_kept_entry_missing = projection.first_kept_entry_missing
    context.messages = projection.flat
    context.entry_ids = projection.flat_ids
    context.new_messages_start = projection.new_messages_start()
    return context


def projected_context_tokens(projection: Projection) -> int:
    """``current_context_tokens`` of the projection's messages, walking back only as needed.

    The last valid usage counts only when its entry comes after the latest compaction or
    context edit; then the estimate is that usage plus the estimates of later messages.
    Otherwise every message is estimated (system messages once, as the prompt they make).
    Unread heads (:mod:`synopsis.session.skim`) are read for good as they are counted.
    """
    from synopsis.session.skim import full_message
    from synopsis.tokens import (
        calculate_context_tokens,
        estimate_tokens,
        estimate_without_usage,
        valid_usage,
    )

    trailing = 0
    for position in range(len(projection.entries) - 1, -1, -1):
        if projection.indices[position] <= projection.usage_floor:
            break
        for message in reversed(projection.messages[position]):
            message = full_message(message)
            usage = valid_usage(message)
            if usage is not None:
                return calculate_context_tokens(usage) + trailing
            trailing += estimate_tokens(message)
    return estimate_without_usage([full_message(message) for message in projection.flat])
