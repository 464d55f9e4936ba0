"""Credentials never travel into a checkpoint, its ``details`` or a summarizer's input.

A key pasted once would otherwise be copied into every checkpoint after it (the guard
pins ids) and sent to every model that summarizes. Each credential found is replaced by
a reference that says what it was and where the log holds it:
``[secret: API key, entry 1a2b3c4d]`` — the session file keeps the original, so nothing
is lost, and the agent can be pointed at it.

Why not ``detect-secrets``: measured on the fidelity corpus (255 k characters, 8 k
lines) its line scanner with the default plugins took 9.2 s (0.03 MB/s) and reported
18.5 k hits, most of them high-entropy words in logs; compaction runs inside the agent
loop. This module is one pass of labelled patterns for the credential shapes that
matter (provider keys, tokens, bot tokens, JWTs, private keys, passwords in URLs and assignments)
plus an entropy test for the generic ``password = …`` form; its own benchmark is in
``benchmarks/bench_secrets.py``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from synopsis.state._memo import remembered


@dataclass(frozen=True, slots=True)
class SecretShape:
    label: str
    """What the reference calls it ("API key", "private key" …)."""
    pattern: re.Pattern[str]
    group: str | None = None
    """The group holding the secret itself (the rest of the match stays readable)."""
    entropy: float = 0.0
    """Minimum Shannon entropy (bits per character) of the secret, for generic shapes."""
    needles: tuple[str, ...] = ()
    """Substrings one of which every match contains: the pattern runs only on text that
    holds one (a substring test is many times faster than a pattern scan; most text
    holds none). Empty: the pattern always runs."""
    folded: bool = False
    """The needles are looked for in the case-folded text (a case-insensitive pattern)."""
    starts: tuple[str, ...] = ()
    """Every match begins with one of these, in the text folded as :func:`_start_folded`
    folds it: the pattern is tried only where one stands, not at every position (a
    case-insensitive pattern has no fast scan of its own). Empty: it runs everywhere."""


_API_KEY_PREFIXES = ("sk-", "sk_", "pk_", "rk_", "AKIA", "ASIA", "AIza", "ghp_", "gho_", "ghu_",
                     "ghs_", "ghr_", "github_pat_", "glpat-", "xox", "hf_", "npm_")  # fmt: skip
_SHAPES = (
    SecretShape(
        "private key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----.*?"
            r"(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)",
            re.DOTALL,
        ),
        needles=("PRIVATE KEY",),
    ),
    SecretShape("JWT", re.compile(r"\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}"), needles=("eyJ",)),
    SecretShape(
        "API key",
        re.compile(
            r"\b(?:sk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{20,}|"
            r"(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|"
            r"AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|"
            r"(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|"
            r"glpat-[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|"
            r"hf_[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{30,})\b"
        ),
        needles=_API_KEY_PREFIXES,
    ),
    SecretShape(
        "bot token",
        re.compile(r"\b\d{8,10}:AA[A-Za-z0-9_-]{30,34}\b"),
        needles=(":AA",),
    ),  # a Telegram bot's token (bot id, a colon, "AA…"): pasted into chat-agent setups
    SecretShape(
        "password",
        re.compile(r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{1,64}:(?P<secret>[^\s@/]{3,128})@[\w.-]+"),
        group="secret",
        needles=("://",),
    ),
    SecretShape(
        "credential",
        re.compile(
            r"(?i)\b(?P<kw>password|passwd|pwd|pass|secret|client[_-]?secret|api[_-]?key|apikey|"
            r"access[_-]?key|auth[_-]?token|token|private[_-]?key)\b[\"']?\s*(?:[:=]|is|=>)\s*"
            r"[\"']?(?P<secret>[^\s\"',;()\[\]{}<>]{8,200})(?![(\w])"
        ),
        group="secret",
        entropy=3.0,
        # every keyword holds one of these (case-insensitively)
        needles=("pass", "pwd", "secret", "key", "token"),
        folded=True,
        # and starts with one of these
        starts=("pass", "pwd", "secret", "client", "api", "access", "auth", "token", "private"),
    ),
    SecretShape(
        "password",
        re.compile(
            r"(?:密码|口令|密钥|令牌)\s*(?:是|为|[:：=])\s*(?P<secret>[^\s，。；,;]{6,200})"
        ),
        group="secret",
        entropy=2.5,
        needles=("密码", "口令", "密钥", "令牌"),
    ),
)
SHORTEST_SECRET = 9
"""No shape matches fewer characters (the shortest: ``密码是`` and six more)."""


def _folded(text: str) -> str:
    """``text`` lower-cased as a case-insensitive pattern compares it: ``str.lower`` maps
    every other letter the keywords hold to its ASCII form (``K``, the Kelvin sign, too);
    the long s (``ſ``) is the one such pattern also takes for an ``s``."""
    return text.lower().replace("\u017f", "s")


def _start_folded(folded: str) -> str:
    """``_folded(text)`` with the dotless ``ı`` as an ``i`` (a case-insensitive pattern
    takes it for one): a keyword a case-insensitive pattern matches in the text stands
    at the same place in this. (Only when the folded text is as long as the text: the
    dotted ``İ`` lowers to two characters.)"""
    return folded.replace("\u0131", "i")


def _matches_from(
    pattern: re.Pattern[str], text: str, folded: str, starts: tuple[str, ...]
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern whose matches begin with one of ``starts``:
    the pattern is tried only where one stands (left to right, each after the last match,
    as ``finditer`` finds them)."""
    if len(folded) != len(text):
        yield from pattern.finditer(text)
        return
    haystack = _start_folded(folded)
    positions: set[int] = set()
    for start in starts:
        at = haystack.find(start)
        while at >= 0:
            positions.add(at)
            at = haystack.find(start, at + 1)
    end = 0
    for at in sorted(positions):
        if at < end:
            continue
        match = pattern.match(text, at)
        if match is not None:
            yield match
            end = match.end()


def entropy(text: str) -> float:
    counts = Counter(text)
    total = len(text)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


_KEYWORD_LABEL = {"pas": "password", "pwd": "password", "api": "API key", "tok": "token",
                  "aut": "token", "acc": "access key", "sec": "secret", "cli": "secret",
                  "pri": "private key"}  # fmt: skip
_CODE_NAME = re.compile(r"^[A-Za-z_][A-Za-z_.]*$|^\$\{?\w+\}?$|^<[^>]*>$|^\*+$")


def _looks_random(secret: str, minimum: float) -> bool:
    """A generic ``key = value`` value that is a secret, not a word, a name or a
    placeholder: mixed letters and digits (or symbols) and enough entropy."""
    if _CODE_NAME.match(secret) or entropy(secret) < minimum:
        return False
    has_digit = any(ch.isdigit() for ch in secret)
    has_other = any(not ch.isalnum() for ch in secret)
    return (any(ch.isalpha() for ch in secret) and (has_digit or has_other)) or len(secret) >= 24


@dataclass(frozen=True, slots=True)
class FoundSecret:
    label: str
    start: int
    end: int


def find_secrets(text: str) -> list[FoundSecret]:
    """Credentials in ``text``, left to right, without overlaps."""
    if len(text) < SHORTEST_SECRET:
        return []
    return list(_found(text))


def _scan(text: str, *, gated: bool) -> list[FoundSecret]:
    """Every shape's matches; with ``gated``, only the shapes whose needles ``text`` holds
    run (the needles are chosen so that this never changes the result)."""
    found: list[FoundSecret] = []
    folded: str | None = None
    for shape in _SHAPES:
        if gated and shape.needles:
            if shape.folded:
                folded = _folded(text) if folded is None else folded
                haystack = folded
            else:
                haystack = text
            if not any(map(haystack.__contains__, shape.needles)):
                continue
        if gated and shape.starts:
            folded = _folded(text) if folded is None else folded
            matches = _matches_from(shape.pattern, text, folded, shape.starts)
        else:
            matches = shape.pattern.finditer(text)
        for match in matches:
            start, end = match.span(shape.group) if shape.group else match.span()
            secret = text[start:end]
            if shape.entropy and not _looks_random(secret, shape.entropy):
                continue  # "password: required", "token = make_token": words and code
            if any(f.start < end and start < f.end for f in found):
                continue
            label = shape.label
            if "kw" in shape.pattern.groupindex:
                label = _KEYWORD_LABEL.get(match.group("kw").lower()[:3], label)
            found.append(FoundSecret(label, start, end))
    found.sort(key=lambda f: f.start)
    return found


_found = remembered(lambda text: tuple(_scan(text, gated=True)))


def reference(label: str, entry_id: str | None) -> str:
    where = f", entry {entry_id}" if entry_id else ""
    return f"[secret: {label}{where}]"


def redact(text: str, entry_id: str | None = None) -> str:
    """``text`` with each credential replaced by its reference."""
    found = _found(text) if len(text) >= SHORTEST_SECRET else ()
    return _replaced(text, found, entry_id) if found else text


def _replaced(text: str, found: tuple[FoundSecret, ...], entry_id: str | None) -> str:
    parts: list[str] = []
    position = 0
    for secret in found:
        parts.append(text[position : secret.start])
        parts.append(reference(secret.label, entry_id))
        position = secret.end
    parts.append(text[position:])
    return "".join(parts)


def redact_value(value: object, entry_id: str | None = None) -> object:
    """``value`` (a message, or any JSON-like data) with credentials in its strings
    redacted; the same object when it holds none (a container is copied only when one of
    its strings changed)."""
    if isinstance(value, str):
        return redact(value, entry_id) if len(value) >= SHORTEST_SECRET else value
    if isinstance(value, (dict, list)):
        return _redacted(value, entry_id)
    return value


def _redacted(
    container: dict[object, object] | list[object], entry_id: str | None
) -> dict[object, object] | list[object]:
    """:func:`redact_value` of a dict or list, in one loop over its items (most of a
    message's fields hold no text, or text seen before: a look-up in the memo)."""
    known = _found.results
    copy: dict[object, object] | list[object] | None = None
    items = container.items() if isinstance(container, dict) else enumerate(container)
    for key, item in items:
        if isinstance(item, str):
            if len(item) < SHORTEST_SECRET:
                continue
            found = known.get(item)
            if found is None:
                found = _found(item)
            if not found:
                continue
            redacted: object = _replaced(item, found, entry_id)
        elif isinstance(item, (dict, list)):
            redacted = _redacted(item, entry_id)
            if redacted is item:
                continue
        else:
            continue
        if copy is None:
            copy = dict(container) if isinstance(container, dict) else list(container)
        copy[key] = redacted  # type: ignore[call-overload]  # a key of its own container
    return container if copy is None else copy
