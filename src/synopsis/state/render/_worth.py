"""Which values and facts are worth a line of the checkpoint.

A pinned value or fact must appear in every checkpoint (the guard restores it); one that
is merely shaped like a value — a documentation placeholder, a reserved example host, a
progress counter, the earlier members of a series, a tool's usage line — names nothing a
later step needs, and is neither pinned nor shown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

from synopsis.state import _patterns as pat
from synopsis.state._text import (
    normalize_ws,
)
from synopsis.state.model import (
    STRONG_KINDS,
    Fact,
    Identifier,
)
from synopsis.state.render._items import _LISTING


def is_pinned_identifier(identifier: Identifier) -> bool:
    """Whether a value must appear in every checkpoint (the guard restores it).

    A link only a tool call's arguments name is not pinned: an agent that probes an API
    tries link after link (seven endpoints in one session), and pinned, they held the
    size target while the decisions it drops went. Kept while there is room, like any
    value; the user's links, and the ids and commits a call names, stay pinned."""
    if identifier.superseded_by is not None or identifier.kind == "path":
        return False  # paths travel in the file lists; the rules that name them are pinned
    if identifier.source == "summary" or identifier.written == "tool":
        return False  # read back from a checkpoint, or reported in a tool's output
    if _placeholder(identifier) or _shaped_only(identifier):
        return False  # a documentation placeholder names nothing (not shown either)
    if identifier.source == "tool" and identifier.kind == "url":
        return False  # only a call's arguments name it: one of the links the agent tried
    if identifier.written in ("pasted", "harness"):  # reference: only strong kinds stay
        return identifier.kind in STRONG_KINDS
    return identifier.source == "user" or identifier.kind in STRONG_KINDS


_RESERVED_HOST = re.compile(
    r"^(?:[a-z]+://)?(?:[^/@\s]*@)?(?:[\w-]+\.)*example\.(?:com|org|net)(?=[/:?#]|$)",
    re.IGNORECASE,
)


_USAGE_LINE = re.compile(
    r"\b(?:tokens?|cost|usage|spent|billed)\b.{0,80}?\b(?:sent|received|session|message|"
    r"request|prompt|completion)\b",
    re.IGNORECASE,
)
_COLOUR_CONTEXT = re.compile(
    r"(?:colou?r|background|fill|stroke|border|shadow|bg|fg)\b|:\s*$", re.I
)


_ORDER = re.compile(
    r"^(?:(?:dude|ok(?:ay)?|alright|yeah|yes|hey|so|and|now|then|pls|please|just|also|ah|oh)"
    r"[\s,!.]+)*(?:sleep|run|see|read|look(?: at| into)|check|open|remove|delete|"
    r"copy|undo|show me|tell me|restart|rerun|kill|commit|push)\b(?![,.!?])|"
    r"^(?:请|你|帮我)?(?:看一下|跑一下|运行一下|删掉|打开|重启一下)",
    re.IGNORECASE,
)
_VENTING = re.compile(
    r"\b(?:fuck\w*|shit\w*|wtf|damn\w*|crap\w*|bullshit)\b|他妈|妈的|卧槽", re.IGNORECASE
)


def is_pinned_fact(fact: Fact) -> bool:
    """Whether a fact must appear in every checkpoint (the guard restores it): what the
    user typed, unless it is an order for the moment or venting (:func:`not_a_fact`)."""
    return fact.source == "user" and fact.written == "typed" and not not_a_fact(fact.text)


def not_a_fact(text: str) -> bool:
    """Whether a statement of the user's is an order for the moment ("dude sleep 5 seconds
    via bash", "see main.ts") or venting ("you fucked that component up"): said to the
    agent, not about the world — a request stands under Goal, a complaint in the
    conversation; neither is a value or fact later steps need."""
    return bool(_ORDER.match(text) or _VENTING.search(text))


def _bare_host(identifier: Identifier) -> bool:
    """Whether a link the assistant or a tool wrote names only a site ("Here's a bare URL:
    https://github.com"): no page or resource of it, so nothing a later step opens."""
    if identifier.kind != "url" or identifier.source == "user":
        return False
    return bool(re.fullmatch(r"[a-z][a-z0-9+.-]*://[^/\s?#]+/?", identifier.value, re.I))


_PROGRESS_COUNTER = re.compile(r"[(\[]\s*\d+\s*/\s*\d+\s*[)\]]")
"""A bulk run's counter in a line of its output ("Rewrite 8a58… (3/25)", "[12/40] a.py")."""


def _shaped_only(identifier: Identifier) -> bool:
    """Whether a value not typed by the user is merely shaped like one: an amount in an
    agent's own usage line ("Tokens: 10k sent … Cost: $0.04 message, $0.10 session"),
    an "issue" that is a colour in a style declaration ("--color-dark: #000;"), a value
    in a tool's progress line ("Rewrite 8a58… (3/25)": one of the items a bulk run went
    through, counted off, none a handle a later step names)."""
    if identifier.source == "user" and identifier.written == "typed":
        return False
    if _bare_host(identifier):
        return True
    context = identifier.context
    if identifier.written == "tool" and _PROGRESS_COUNTER.search(context):
        return True
    if identifier.kind == "amount" and _USAGE_LINE.search(context):
        return True
    if identifier.kind == "issue":
        at = context.find(identifier.value)
        return at >= 0 and bool(_COLOUR_CONTEXT.search(context[max(0, at - 40) : at]))
    return False


def _placeholder(identifier: Identifier) -> bool:
    """Whether a value is a documentation placeholder: a link or address at
    ``example.com`` / ``.org`` / ``.net`` (reserved, RFC 2606) in a tool's
    output or the assistant's sample text names nothing a later step can use (a test
    fixture's link, a sample author). The user may still type one on purpose."""
    typed_by_user = identifier.source == "user" and identifier.written == "typed"
    return not typed_by_user and _reserved(identifier.kind, identifier.value)


def _reserved(kind: str, value: str) -> bool:
    """Whether a link or an address (the host after its ``@``) is at a reserved host."""
    if kind not in ("url", "email"):
        return False
    host = value.split("@", 1)[-1] if kind == "email" else value
    return bool(_RESERVED_HOST.match(host))


_RULE_LINE = re.compile(r"^\s*(?:[-*]\s*)?[-*_=]{3,}\s*$")
"""A horizontal rule (the separator before a turn prefix) read back as an item."""
_VALUE_LINE = re.compile(r"^- (url|email): (\S+)")


def _placeholder_line(text: str) -> bool:
    """Whether a prior checkpoint's value line names a documentation placeholder."""
    found = _VALUE_LINE.match(text)
    return found is not None and _reserved(found.group(1), found.group(2))


_ROW_HEAD = re.compile(r"^(?:commit |[-*]\s+|\|\s*)?$")


_K = TypeVar("_K")


def _earlier_of_series(shaped: Sequence[tuple[_K, object]]) -> set[_K]:
    """The keys of ``shaped`` whose shape at least :data:`_LISTING` keys share, but the
    latest of each shape: the same field many results report, each with its own value
    ("run_id: …" of each run), names a handle of each call — the latest may be the one a
    next step uses, the earlier ones are detail."""
    by_shape: dict[object, list[_K]] = {}
    for key, shape in shaped:
        by_shape.setdefault(shape, []).append(key)
    return {k for keys in by_shape.values() if len(keys) >= _LISTING for k in keys[:-1]}


def _field_of(identifier: Identifier) -> tuple[str, str]:
    """The kind of a reported value and the words its line puts before it ("session_id:")."""
    at = identifier.context.find(identifier.value)
    before = identifier.context[:at] if at >= 0 else ""
    return identifier.kind, normalize_ws(before[-40:]).lower()


_HANDLE_KINDS = frozenset({"id", "ticket"})
"""Kinds of value a call reports as its own handle (a run's, a session's, a job's id); a
commit is the record of work done, not one."""


def _shape(line: str) -> str:
    """A line of output with the handles in it blanked ("run_id: …"): lines alike but for
    them; "" for a line that names no handle."""
    handles = [f for f in pat.find_identifiers(line) if f.kind in _HANDLE_KINDS]
    for found in reversed(handles):
        line = line[: found.start] + "…" + line[found.end :]
    return normalize_ws(line).lower() if handles else ""


def _heads_a_row(identifier: Identifier) -> bool:
    """Whether a reported commit opens its line of output (``a41f0c2 feat: …`` in ``git
    log --oneline``, ``commit 9245…``): a row of a listing — the entry it came from need
    not be known — not the one handle a step made (``[main 6322cf4] …``)."""
    if identifier.kind not in ("sha", "commit"):
        return False  # an order or booking id heading its line is the handle a step made
    at = identifier.context.find(identifier.value)
    return at >= 0 and bool(_ROW_HEAD.match(identifier.context[:at]))
