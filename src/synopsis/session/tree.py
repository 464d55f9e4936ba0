"""The session tree: an append-only set of entries linked by ``parentId``, and a leaf.

:class:`Session` offers the operations of Pi's session manager: append each entry type
(the new entry becomes a child of the leaf and the new leaf), move the leaf, walk the path
root → leaf, list children and the whole tree, resolve labels and the session name.
Whether entries also go to a file is decided by the optional writer
(:class:`synopsis.session.store.SessionWriter`); the tree itself does no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from synopsis.errors import DuplicateEntryIdError, EntryNotFoundError, ParentCycleError
from synopsis.messages import AgentMessage
from synopsis.session.context import SessionContext, build_session_context, iso_to_ms
from synopsis.session.entries import CURRENT_VERSION, Entry, SessionHeader
from synopsis.session.live_context import LiveContext
from synopsis.session.migration import random_entry_id
from synopsis.system_messages import current_system_message
from synopsis.tokens import ContextTokens, estimate_tokens

DuplicatePolicy = Literal["error", "last-wins"]


class EntrySink(Protocol):
    """Where appended entries go besides memory (a session file, a database...)."""

    def write_entry(self, header: SessionHeader, entry: Entry) -> None: ...


@dataclass(slots=True)
class TreeNode:
    entry: Entry
    children: list[TreeNode] = field(default_factory=list)
    label: str | None = None


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _uuid4() -> str:
    import uuid  # here: it imports platform, a cost for every process that opens a file

    return str(uuid.uuid4())


def new_header(
    *, session_id: str | None = None, cwd: str = "", parent_session: str | None = None
) -> SessionHeader:
    header: SessionHeader = {
        "type": "session",
        "version": CURRENT_VERSION,
        "id": session_id or _uuid4(),
        "timestamp": now_iso(),
        "cwd": cwd,
    }
    if parent_session:
        header["parentSession"] = parent_session
    return header


def find_parent_cycle(
    entries: Sequence[Entry],
    by_id: dict[str, Entry],
    first: Entry,
    *,
    parents_first: bool | None = None,
) -> None:
    """Raise :class:`ParentCycleError` if following ``parentId`` links ever loops.

    Each entry is visited once over all walks, so this is linear in the number of entries.
    The walk from ``first`` (the leaf) goes first, so the error names the leaf when the
    current path is the broken one. The usual file, where every parent comes before its
    children, is recognised in one cheap pass: its walks only go back, so none can loop.
    ``parents_first`` is that pass's answer when the caller has it (see :func:`index_entries`).
    """
    if parents_first is None:
        parents_first = _parents_come_first(entries, by_id)
    if len(by_id) == len(entries) and parents_first:
        return
    finished: set[str] = set()
    for start in (first, *entries):
        on_walk: set[str] = set()
        walk: list[str] = []
        entry: Entry | None = start
        while entry is not None:
            entry_id = entry["id"]
            if entry_id in finished:
                break
            if entry_id in on_walk:
                raise ParentCycleError(start["id"], entry_id)
            on_walk.add(entry_id)
            walk.append(entry_id)
            parent = entry.get("parentId")
            entry = by_id.get(parent) if parent is not None else None
        finished.update(walk)


def _parents_come_first(entries: Sequence[Entry], by_id: dict[str, Entry]) -> bool:
    """Does every entry's parent (when it names a known entry) come before it in ``entries``?

    Only meaningful when ids are unique (``by_id`` has one entry per id).
    """
    seen: set[str] = set()
    add = seen.add
    for entry in entries:
        parent = entry.get("parentId")
        if parent is not None and parent not in seen and parent in by_id:
            return False
        add(entry["id"])
    return True


def index_entries(entries: Sequence[Entry]) -> tuple[dict[str, Entry], bool]:
    """The id index of ``entries`` (a later entry replaces an earlier one with its id) and
    :func:`_parents_come_first`'s answer, found in the same pass: on a large session each
    walk over the entries costs a cache miss per entry, so one walk instead of two.
    """
    by_id: dict[str, Entry] = {}
    ahead: list[str] = []
    """Parents named before any entry had their id: unknown ids, or a parent that comes later."""
    for entry in entries:
        parent = entry.get("parentId")
        if parent is not None and parent not in by_id:
            ahead.append(parent)
        by_id[entry["id"]] = entry
    return by_id, not any(parent in by_id for parent in ahead)


class Session:
    """An in-memory session tree, optionally mirrored to a sink such as a JSONL file."""

    def __init__(
        self,
        header: SessionHeader | None = None,
        entries: Iterable[Entry] = (),
        *,
        sink: EntrySink | None = None,
        new_id: Callable[[], str] | None = None,
        duplicates: DuplicatePolicy = "error",
        entry_lines: Sequence[int] | None = None,
        source_path: str | None = None,
    ) -> None:
        self.header: SessionHeader = header if header is not None else new_header()
        self.entries: list[Entry] = list(entries)
        # Later entries replace earlier ones with the same id ("last-wins"); with "error"
        # the first repeated id is looked for only when there is one.
        self._by_id: dict[str, Entry]
        self._by_id, parents_first = index_entries(self.entries)
        if duplicates == "error" and len(self._by_id) != len(self.entries):
            seen: set[str] = set()
            for position, entry in enumerate(self.entries):
                entry_id = entry["id"]
                if entry_id in seen:
                    line = entry_lines[position] if entry_lines is not None else None
                    raise DuplicateEntryIdError(entry_id, path=source_path, line=line)
                seen.add(entry_id)
        if self.entries:
            find_parent_cycle(
                self.entries, self._by_id, self.entries[-1], parents_first=parents_first
            )
        self.leaf_id: str | None = self.entries[-1]["id"] if self.entries else None
        self._sink = sink
        self._new_id = new_id
        self._children: dict[str | None, list[Entry]] | None = None
        self._live: LiveContext | None = None

    # --- reading ---------------------------------------------------------------------------

    @property
    def session_id(self) -> str:
        return self.header["id"]

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._by_id

    def get_entry(self, entry_id: str) -> Entry | None:
        return self._by_id.get(entry_id)

    def require_entry(self, entry_id: str) -> Entry:
        entry = self._by_id.get(entry_id)
        if entry is None:
            raise EntryNotFoundError(entry_id)
        return entry

    @property
    def leaf_entry(self) -> Entry | None:
        return self._by_id.get(self.leaf_id) if self.leaf_id is not None else None

    def path(self, leaf_id: str | None = None) -> list[Entry]:
        """Entries from the root to ``leaf_id`` (default: the current leaf).

        A ``parentId`` that names no entry ends the walk there, as in Pi. Linear in the
        path's length. An unknown ``leaf_id`` is an :class:`EntryNotFoundError`.
        """
        start = self.leaf_id if leaf_id is None else leaf_id
        live = self._live
        if live is not None and start == self.leaf_id and self._describes_leaf(live):
            return list(live.path)  # walked already, to build the leaf's context
        entry = self._by_id.get(start) if start is not None else None
        if entry is None and leaf_id is not None:
            raise EntryNotFoundError(leaf_id)
        path: list[Entry] = []
        while entry is not None:
            path.append(entry)
            parent = entry.get("parentId")
            entry = self._by_id.get(parent) if parent is not None else None
        path.reverse()
        return path

    def children(self, entry_id: str | None) -> list[Entry]:
        """Direct children of ``entry_id`` (``None``: the roots), in file order."""
        return list(self.child_lists().get(entry_id, ()))

    def child_lists(self) -> dict[str | None, list[Entry]]:
        """The children of every entry that has some (``None``: the roots), in file order.

        The session's own index, kept up to date by appends, for walks over the whole
        tree; read it, do not change it.
        """
        if self._children is None:
            index: dict[str | None, list[Entry]] = {}
            for entry in self.entries:
                parent = entry.get("parentId")
                key = parent if parent in self._by_id else None
                index.setdefault(key, []).append(entry)
            self._children = index
        return self._children

    def labels(self) -> dict[str, str]:
        """The label of every labelled entry (the last label entry wins; empty clears)."""
        labels: dict[str, str] = {}
        for entry in self.entries:
            if entry.get("type") != "label":
                continue
            target, label = entry.get("targetId"), entry.get("label")
            if not isinstance(target, str):
                continue
            if isinstance(label, str) and label:
                labels[target] = label
            else:
                labels.pop(target, None)
        return labels

    def label(self, entry_id: str) -> str | None:
        return self.labels().get(entry_id)

    @property
    def name(self) -> str | None:
        """The session name from the latest ``session_info`` entry, if any."""
        for entry in reversed(self.entries):
            if entry.get("type") == "session_info":
                name = entry.get("name")
                return name if isinstance(name, str) and name else None
        return None

    def tree(self) -> list[TreeNode]:
        """The whole tree; roots are entries without a (known) parent."""
        labels = self.labels()
        nodes = {e["id"]: TreeNode(e, label=labels.get(e["id"])) for e in self.entries}
        roots: list[TreeNode] = []
        for entry in self.entries:
            node = nodes[entry["id"]]
            if node.entry is not entry:  # an id used twice, loaded with "last-wins"
                continue
            parent = entry.get("parentId")
            parent_node = nodes.get(parent) if parent is not None else None
            (parent_node.children if parent_node is not None else roots).append(node)
        return roots

    def build_context(self, leaf_id: str | None = None) -> SessionContext:
        """The context the model sees at ``leaf_id`` (default: the current leaf).

        The current leaf's context is kept up to date as entries are appended (see
        :mod:`synopsis.session.live_context`), so asking for it again costs nothing
        however long the session; another leaf's is built from its path.
        """
        if leaf_id is not None and leaf_id != self.leaf_id:
            return build_session_context(self.path(leaf_id))
        return self._live_context().context()

    def context_tokens(self, count: Callable[[Any], int] = estimate_tokens) -> ContextTokens:
        """:func:`synopsis.tokens.current_context_tokens` of the current leaf's context,
        estimating with ``count`` (a token counter's ``count``), kept up to date as entries
        are appended: what an agent checks against its threshold before every call."""
        return self._live_context().tokens(count)

    def _live_context(self) -> LiveContext:
        """The live context of the current leaf, built afresh when the leaf moved or
        entries arrived other than through :meth:`_append` (another writer's, adopted)."""
        live = self._live
        if live is None or not self._describes_leaf(live):
            live = self._live = LiveContext(self.path(), self.leaf_id, len(self.entries))
        return live

    def _describes_leaf(self, live: LiveContext) -> bool:
        """Is ``live`` still the context of the current leaf of all the entries held?"""
        return live.leaf_id == self.leaf_id and live.entry_count == len(self.entries)

    # --- moving the leaf --------------------------------------------------------------------

    def branch(self, entry_id: str) -> None:
        """Move the leaf to ``entry_id``; the next append starts a new branch there."""
        self.require_entry(entry_id)
        self.leaf_id = entry_id

    def reset_leaf(self) -> None:
        """Move the leaf before the first entry; the next append is a new root."""
        self.leaf_id = None

    # --- appending --------------------------------------------------------------------------

    def _fresh_id(self) -> str:
        if self._new_id is not None:
            candidate = self._new_id()
            if candidate not in self._by_id:
                return candidate
        return random_entry_id(self._by_id)

    def _append(self, kind: str, fields: dict[str, Any]) -> str:
        entry: Entry = {
            "type": kind,
            "id": self._fresh_id(),
            "parentId": self.leaf_id,
            "timestamp": now_iso(),
            **fields,
        }
        if self._sink is not None:
            self._sink.write_entry(self.header, entry)
        live = self._live
        if live is not None and (not self._describes_leaf(live) or not live.extend(entry)):
            self._live = None  # it no longer describes the leaf: the next read rebuilds it
        self.entries.append(entry)
        self._by_id[entry["id"]] = entry
        if self._children is not None:
            parent = entry["parentId"]
            self._children.setdefault(parent if parent in self._by_id else None, []).append(entry)
        self.leaf_id = entry["id"]
        return str(entry["id"])

    def append_message(self, message: AgentMessage | dict[str, Any]) -> str:
        return self._append("message", {"message": message})

    def append_model_change(self, provider: str, model_id: str) -> str:
        return self._append("model_change", {"provider": provider, "modelId": model_id})

    def append_thinking_level_change(self, thinking_level: str) -> str:
        return self._append("thinking_level_change", {"thinkingLevel": thinking_level})

    def append_compaction(
        self,
        summary: str,
        first_kept_entry_id: str,
        tokens_before: int,
        details: Any = None,
        *,
        from_hook: bool = False,
        extra: dict[str, Any] | None = None,
    ) -> str:
        """Append a checkpoint. Like Pi 1.6, it carries the system prompt in force (the
        replay of the context's system messages) as ``systemMessage``, timestamped with the
        entry, when the context has one: the system messages it replaces leave the context."""
        timestamp = now_iso()
        fields: dict[str, Any] = {
            "timestamp": timestamp,
            "summary": summary,
            "firstKeptEntryId": first_kept_entry_id,
            "tokensBefore": tokens_before,
        }
        if details is not None:
            fields["details"] = details
        if from_hook:
            fields["fromHook"] = True
        fields.update(extra or {})
        if "systemMessage" not in fields:
            system = current_system_message(self.build_context().messages)
            if system is not None:
                fields["systemMessage"] = {**system, "timestamp": iso_to_ms(timestamp)}
        return self._append("compaction", fields)

    def append_context_edit(self, target_id: str, replacement: dict[str, Any] | None) -> str:
        """Change what ``target_id`` contributes to the context, as Pi 1.6 records it:
        ``None`` hides it (a failed attempt), ``{"content": ...}`` replaces its content.
        The target entry itself is never changed."""
        self.require_entry(target_id)
        return self._append("context_edit", {"targetId": target_id, "replacement": replacement})

    def append_custom(self, custom_type: str, data: Any = None) -> str:
        fields: dict[str, Any] = {"customType": custom_type}
        if data is not None:
            fields["data"] = data
        return self._append("custom", fields)

    def append_custom_message(
        self,
        custom_type: str,
        content: str | list[dict[str, Any]],
        *,
        display: bool = True,
        details: Any = None,
    ) -> str:
        fields = {"customType": custom_type, "content": content, "display": display}
        if details is not None:
            fields["details"] = details
        return self._append("custom_message", fields)

    def append_label(self, target_id: str, label: str | None) -> str:
        self.require_entry(target_id)
        return self._append("label", {"targetId": target_id, "label": label})

    def append_session_info(self, name: str) -> str:
        return self._append("session_info", {"name": name})

    def branch_with_summary(
        self,
        from_id: str | None,
        summary: str,
        details: Any = None,
        *,
        from_hook: bool = False,
    ) -> str:
        """Move the leaf to ``from_id`` and record a summary of the branch left behind."""
        if from_id is not None:
            self.require_entry(from_id)
        self.leaf_id = from_id
        fields: dict[str, Any] = {"fromId": from_id or "root", "summary": summary}
        if details is not None:
            fields["details"] = details
        if from_hook:
            fields["fromHook"] = True
        return self._append("branch_summary", fields)
