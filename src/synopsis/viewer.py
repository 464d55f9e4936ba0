"""A session as one self-contained HTML page: its tree, its compactions, what they kept.

:func:`render_html` turns a :class:`~synopsis.session.tree.Session` into a page that
needs nothing else: no script at all, inline styles, and a Content-Security-Policy that
forbids scripts and remote loads, so even text that escaped escaping could not run or
call home. Collapsing is done by ``<details>`` elements. Every string from the session
is escaped; control characters are shown as ``\\xNN`` and lone surrogates as U+FFFD.

The tree is drawn the way ``synopsis tree`` prints it: depth grows only at branch points,
and long runs of ordinary entries fold away, so a 10,000-entry session stays one scroll.
Each compaction is a card: its checkpoint rendered from its markdown-ish text, the range
of entries it replaced (count and estimated tokens), the entries it kept, tokens before
(as stored) and after (estimated), and what the summary guard restored or marked stale
(``details.guard``). All of it is computed in one pass over the tree plus one walk per
compaction over the entries it covers.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from synopsis._js import js_stringify, replace_lone_surrogates
from synopsis.messages import block_text, blocks, role_of
from synopsis.session.entries import Entry
from synopsis.session.tree import Session
from synopsis.tokens import estimate_tokens

BODY_LIMIT = 2_000
"""Characters of an entry's text shown in the page; the rest is counted, not shown."""
CHECKPOINT_LIMIT = 60_000
RUN_EDGE = 3
"""Entries shown before and after a folded run."""
FOLD_AT = 12
"""Runs of ordinary entries longer than this are folded."""

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def esc(value: object) -> str:
    """Text safe inside HTML elements and quoted attributes."""
    text = value if isinstance(value, str) else str(value)
    text = replace_lone_surrogates(text)
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return html.escape(text, quote=True)


def _clip(text: str, limit: int = BODY_LIMIT) -> str:
    if len(text) <= limit:
        return esc(text)
    return esc(text[:limit]) + f'<span class="more">… {len(text) - limit:,} more characters</span>'


def _json(value: Any) -> str:
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
    except TypeError:  # integers beyond 64 bits, lone surrogates: as JavaScript writes them
        return js_stringify(value)


# --- markdown-ish checkpoint text ----------------------------------------------------------

_INLINE_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$")
_TAG_LINE = re.compile(r"^</?([a-z][a-z-]*)>$")


def _inline(text: str) -> str:
    escaped = esc(text)  # markup is added to escaped text only
    escaped = _INLINE_CODE.sub(r"<code>\1</code>", escaped)
    return _BOLD.sub(r"<strong>\1</strong>", escaped)


def render_checkpoint(text: str) -> str:
    """Headings, bullet lists, fenced code and ``<read-files>``-style blocks as HTML."""
    out: list[str] = []
    in_list = False
    fence: list[str] | None = None
    clipped = len(text) > CHECKPOINT_LIMIT
    for line in text[:CHECKPOINT_LIMIT].splitlines():
        if fence is not None:
            if line.strip().startswith("```"):
                out.append(f"<pre>{esc(chr(10).join(fence))}</pre>")
                fence = None
            else:
                fence.append(line)
            continue
        if line.strip().startswith("```"):
            fence = []
            continue
        bullet = _BULLET.match(line)
        if bullet is None and in_list:
            out.append("</ul>")
            in_list = False
        heading = _HEADING.match(line)
        tag = _TAG_LINE.match(line.strip())
        if heading is not None:
            level = min(len(heading.group(1)) + 2, 6)
            out.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif bullet is not None:
            if not in_list:
                out.append("<ul>")
                in_list = True
            nested = ' class="nested"' if bullet.group(1) else ""
            out.append(f"<li{nested}>{_inline(bullet.group(2))}</li>")
        elif tag is not None:
            out.append(f'<div class="tag">{esc(line.strip())}</div>')
        elif line.strip():
            out.append(f"<p>{_inline(line)}</p>")
    if fence is not None:
        out.append(f"<pre>{esc(chr(10).join(fence))}</pre>")
    if in_list:
        out.append("</ul>")
    if clipped:
        out.append(f'<p class="more">… {len(text) - CHECKPOINT_LIMIT:,} more characters</p>')
    return "\n".join(out)


# --- entries ---------------------------------------------------------------------------------


def context_message(entry: Entry) -> dict[str, Any] | None:
    """The message an entry puts in the model's context (for token estimates), if any."""
    kind = entry.get("type")
    if kind == "message" and isinstance(entry.get("message"), dict):
        message: dict[str, Any] = entry["message"]
        return message
    if kind == "custom_message":
        return {"role": "custom", "content": entry.get("content", "")}
    if kind == "branch_summary":
        return {"role": "branchSummary", "summary": str(entry.get("summary", ""))}
    if kind == "compaction":
        return {"role": "compactionSummary", "summary": str(entry.get("summary", ""))}
    return None


def _tokens(entry: Entry) -> int:
    message = context_message(entry)
    return estimate_tokens(message) if message is not None else 0


def _kind(entry: Entry) -> str:
    kind = str(entry.get("type"))
    if kind == "message":
        return role_of(entry.get("message"))
    return kind


def _message_text(message: Any) -> str:
    parts: list[str] = []
    for block in blocks(message):
        kind = block.get("type")
        if kind == "text":
            parts.append(block_text(block))
        elif kind == "thinking":
            parts.append("[thinking] " + block_text(block, "thinking"))
        elif kind == "toolCall":
            parts.append(f"→ {block.get('name')}({_json(block.get('arguments'))})")
        elif kind == "image":
            parts.append(f"[image {block.get('mimeType', '')}]")
    return "\n".join(parts)


def _body(entry: Entry) -> str:
    """The entry's full text (clipped later), as the page shows it."""
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        if not isinstance(message, dict):
            return _json(message)
        role = role_of(message)
        if role == "bashExecution":
            return f"$ {message.get('command', '')}\n{message.get('output', '')}"
        if role in ("compactionSummary", "branchSummary"):
            return str(message.get("summary", ""))
        text = _message_text(message)
        if role == "toolResult":
            flag = " (error)" if message.get("isError") else ""
            text = f"{message.get('toolName', '')}{flag}: {text}"
        return text
    if kind == "custom_message":
        content = entry.get("content")
        return content if isinstance(content, str) else _message_text({"content": content})
    if kind == "custom":
        return _json(entry.get("data"))
    if kind == "model_change":
        return f"model → {entry.get('provider')}/{entry.get('modelId')}"
    if kind == "thinking_level_change":
        return f"thinking level → {entry.get('thinkingLevel')}"
    if kind == "label":
        return f"label {entry.get('label')!r} on {entry.get('targetId')}"
    if kind == "session_info":
        return f"name: {entry.get('name')}"
    return _json({k: v for k, v in entry.items() if k not in ("id", "parentId")})


def _preview(entry: Entry, width: int = 140) -> str:
    kind = entry.get("type")
    if kind == "custom":
        text = str(entry.get("customType", ""))
    elif kind == "custom_message":
        text = f"{entry.get('customType', '')}: {_body(entry)}"
    elif kind == "compaction":
        text = f"checkpoint, kept from {entry.get('firstKeptEntryId')}"
    elif kind == "branch_summary":
        text = f"summary of the branch left at {entry.get('fromId')}"
    else:
        text = _body(entry)
    text = " ".join(text[: width * 4].split())
    return text if len(text) <= width else text[: width - 1] + "…"


# --- compactions -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CompactionFacts:
    """What a compaction replaced and kept (context messages), measured on its own path."""

    entry: Entry
    replaced_count: int
    replaced_tokens: int
    replaced_first: str | None
    replaced_last: str | None
    kept_count: int
    kept_tokens: int
    summary_tokens: int
    kept_found: bool

    @property
    def tokens_after(self) -> int:
        return self.summary_tokens + self.kept_tokens


def compaction_facts(session: Session, entry: Entry) -> CompactionFacts:
    """Walk back from a compaction: first the kept entries, then the replaced ones.

    The replaced range runs back to where the previous compaction on the path kept from
    (or to the root): what that checkpoint did not summarize, this one did.
    """
    kept_id = entry.get("firstKeptEntryId")
    kept_count = kept_tokens = 0
    previous_kept: str | None = None
    """Where the previous compaction on the path kept from, once one is passed."""
    current = _parent(session, entry)
    while current is not None and current["id"] != kept_id:
        if current.get("type") == "compaction":
            previous_kept = previous_kept or str(current.get("firstKeptEntryId"))
        elif context_message(current) is not None:
            kept_count += 1
            kept_tokens += _tokens(current)
        current = _parent(session, current)
    found = current is not None
    walking: Entry | None = None
    if current is not None:
        if context_message(current) is not None:
            kept_count += 1
            kept_tokens += _tokens(current)
        walking = _parent(session, current) if previous_kept != kept_id else None
    replaced_count = replaced_tokens = 0
    first = last = None
    while walking is not None:
        if walking.get("type") == "compaction":
            previous_kept = previous_kept or str(walking.get("firstKeptEntryId"))
        elif context_message(walking) is not None:
            replaced_count += 1
            replaced_tokens += _tokens(walking)
            last = last or walking["id"]
            first = walking["id"]
        if walking["id"] == previous_kept:
            break
        walking = _parent(session, walking)
    summary_tokens = _tokens(entry)
    return CompactionFacts(
        entry,
        replaced_count,
        replaced_tokens,
        first,
        last,
        kept_count,
        kept_tokens,
        summary_tokens,
        found,
    )


def _parent(session: Session, entry: Entry) -> Entry | None:
    parent = entry.get("parentId")
    return session.get_entry(parent) if isinstance(parent, str) else None


def _guard_changes(details: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    guard = details.get("guard") if isinstance(details, dict) else None
    if not isinstance(guard, dict):
        return [], []

    def changes(key: str) -> list[dict[str, Any]]:
        value = guard.get(key)
        return [c for c in value if isinstance(c, dict)] if isinstance(value, list) else []

    return changes("restored"), changes("stale")


def _link(entry_id: object) -> str:
    return f'<a href="#e-{esc(entry_id)}"><code>{esc(entry_id)}</code></a>'


def _compaction_card(facts: CompactionFacts) -> str:
    entry = facts.entry
    before = entry.get("tokensBefore")
    before_text = f"{before:,}" if isinstance(before, int) else "?"
    restored, stale = _guard_changes(entry.get("details"))
    replaced = (
        f"{facts.replaced_count:,} messages ({_link(facts.replaced_first)} … "
        f"{_link(facts.replaced_last)}), ≈{facts.replaced_tokens:,} tokens"
        if facts.replaced_first is not None
        else "nothing new (only an earlier checkpoint)"
    )
    kept = (
        f"{facts.kept_count:,} messages from {_link(entry.get('firstKeptEntryId'))}, "
        f"≈{facts.kept_tokens:,} tokens"
        if facts.kept_found
        else f"first kept entry {esc(entry.get('firstKeptEntryId'))} is not on this path"
    )
    rows = [
        ("tokens", f"{before_text} before → ≈{facts.tokens_after:,} after"),
        ("replaced", replaced),
        ("kept", kept),
        ("checkpoint", f"≈{facts.summary_tokens:,} tokens"),
    ]
    parts = ['<div class="card">', '<table class="facts">']
    parts += [f"<tr><th>{name}</th><td>{value}</td></tr>" for name, value in rows]
    parts.append("</table>")
    if restored or stale:
        parts.append('<div class="guard"><b>Guard</b><ul>')
        for change in restored:
            parts.append(
                f'<li class="restored">restored {esc(change.get("kind"))} in '
                f"{esc(change.get('section'))}: {_clip(str(change.get('text', '')), 400)}</li>"
            )
        for change in stale:
            parts.append(
                f'<li class="stale">marked superseded in {esc(change.get("section"))}: '
                f"{_clip(str(change.get('text', '')), 400)}</li>"
            )
        parts.append("</ul></div>")
    elif isinstance(entry.get("details"), dict) and "guard" in entry["details"]:
        parts.append('<div class="guard"><b>Guard</b>: nothing to restore or mark</div>')
    parts.append(
        '<details open><summary>checkpoint</summary><div class="checkpoint">'
        + render_checkpoint(str(entry.get("summary", "")))
        + "</div></details></div>"
    )
    return "\n".join(parts)


# --- the tree ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Marks:
    labels: dict[str, str]
    on_path: set[str]
    leaf: str | None
    facts: dict[str, CompactionFacts]


def _row(entry: Entry, marks: _Marks) -> str:
    entry_id = entry["id"]
    kind = _kind(entry)
    classes = ["entry", f"k-{re.sub(r'[^a-zA-Z]', '', kind) or 'x'}"]
    if entry_id in marks.on_path:
        classes.append("onpath")
    badges = ""
    if entry_id in marks.labels:
        badges += f'<span class="label">{esc(marks.labels[entry_id])}</span>'
    if entry_id == marks.leaf:
        badges += '<span class="leaf">leaf</span>'
    tokens = _tokens(entry)
    head = (
        (f'<span class="tok">≈{tokens:,}</span>' if tokens else "")
        + f'<span class="id">{esc(entry_id)}</span><span class="kind">{esc(kind)}</span>'
        + f'{badges}<span class="preview">{esc(_preview(entry))}</span>'
    )
    if entry.get("type") == "compaction":
        body = _compaction_card(marks.facts[entry_id])
        return (
            f'<div class="{" ".join(classes)} compaction" id="e-{esc(entry_id)}">'
            f'<div class="head">{head}</div>{body}</div>'
        )
    if entry.get("type") == "branch_summary":
        body = f'<div class="checkpoint">{render_checkpoint(str(entry.get("summary", "")))}</div>'
    else:
        body = f"<pre>{_clip(_body(entry))}</pre>"
    return (
        f'<details class="{" ".join(classes)}" id="e-{esc(entry_id)}">'
        f"<summary>{head}</summary>{body}</details>"
    )


def _notable(entry: Entry, marks: _Marks) -> bool:
    return (
        entry.get("type") in ("compaction", "branch_summary")
        or entry["id"] in marks.labels
        or entry["id"] == marks.leaf
    )


def _run(run: list[Entry], marks: _Marks) -> Iterator[str]:
    """A chain of single-child entries, with long stretches of ordinary ones folded."""
    stretch: list[Entry] = []

    def flush() -> Iterator[str]:
        if len(stretch) <= FOLD_AT:
            yield from (_row(e, marks) for e in stretch)
        else:
            yield from (_row(e, marks) for e in stretch[:RUN_EDGE])
            hidden = stretch[RUN_EDGE:-RUN_EDGE]
            tokens = sum(_tokens(e) for e in hidden)
            yield (
                f'<details class="fold"><summary>{len(hidden):,} more entries '
                f"({esc(hidden[0]['id'])} … {esc(hidden[-1]['id'])}, ≈{tokens:,} tokens)"
                "</summary>"
            )
            yield from (_row(e, marks) for e in hidden)
            yield "</details>"
            yield from (_row(e, marks) for e in stretch[-RUN_EDGE:])
        stretch.clear()

    for entry in run:
        if _notable(entry, marks):
            yield from flush()
            yield _row(entry, marks)
        else:
            stretch.append(entry)
    yield from flush()


def _tree(session: Session, marks: _Marks) -> Iterator[str]:
    roots = session.children(None)
    stack: list[tuple[str, Any]] = []
    for index, root in reversed(list(enumerate(roots))):
        if len(roots) > 1:
            stack += [("close", None), ("chain", root), ("open", (index, len(roots), root))]
        else:
            stack.append(("chain", root))
    while stack:
        action, value = stack.pop()
        if action == "close":
            yield "</div>"
            continue
        if action == "open":
            index, count, first = value
            here = " current" if first["id"] in marks.on_path else ""
            yield (
                f'<div class="branch{here}"><div class="bhead">branch {index + 1} of {count}'
                f"{' — the current path' if here else ''}</div>"
            )
            continue
        entry: Entry = value
        run = [entry]
        children = session.children(entry["id"])
        while len(children) == 1:
            entry = children[0]
            run.append(entry)
            children = session.children(entry["id"])
        yield from _run(run, marks)
        for index, child in reversed(list(enumerate(children))):
            stack += [("close", None), ("chain", child), ("open", (index, len(children), child))]


_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
header{background:#1d2330;color:#fff;padding:14px 22px}
header h1{font-size:18px;margin:0 0 4px} header .meta{opacity:.8;font-size:12px}
main{padding:12px 22px}
h2{font-size:15px;margin:18px 0 8px}
table.summary{border-collapse:collapse;background:#fff;font-size:13px}
table.summary td,table.summary th{border:1px solid #dde;padding:3px 8px;text-align:left}
.entry{background:#fff;border:1px solid #e1e4ea;border-radius:4px;margin:2px 0}
.entry>summary,.entry>.head{padding:3px 8px;cursor:pointer;white-space:nowrap;overflow:hidden;
text-overflow:ellipsis}
.entry pre{margin:0;padding:6px 10px;background:#fafbfc;white-space:pre-wrap;
word-break:break-word;font-size:12px;border-top:1px solid #eee}
.onpath{border-left:4px solid #3b7ddd}
.id{font-family:monospace;color:#778;margin-right:8px}
.kind{display:inline-block;min-width:86px;font-weight:600;margin-right:8px}
.k-user .kind{color:#0a7d32} .k-assistant .kind{color:#3b4fd8} .k-toolResult .kind{color:#8a5a00}
.k-custom .kind,.k-label .kind,.k-sessioninfo .kind{color:#888}
.preview{color:#333} .tok{float:right;color:#99a;font-size:12px;margin-left:8px}
.label{background:#e3f1ff;color:#0b5cad;border-radius:3px;padding:0 6px;margin-right:6px}
.leaf{background:#0a7d32;color:#fff;border-radius:3px;padding:0 6px;margin-right:6px}
.compaction{border:2px solid #c77d00;background:#fffaf0}
.card{padding:6px 12px 10px}
table.facts th{text-align:left;padding-right:12px;color:#855;font-weight:600}
.guard{margin:6px 0;padding:4px 10px;background:#fff;border:1px dashed #c77d00}
.guard .restored{color:#0a6d2a} .guard .stale{color:#a33}
.checkpoint{background:#fff;border:1px solid #eee;padding:4px 14px;margin-top:4px}
.checkpoint h3,.checkpoint h4,.checkpoint h5,.checkpoint h6{margin:10px 0 4px;font-size:14px}
.checkpoint ul{margin:2px 0;padding-left:22px} .checkpoint li.nested{margin-left:18px}
.checkpoint p{margin:3px 0} .tag{font-family:monospace;color:#888}
.fold{margin:2px 0 2px 12px} .fold>summary{color:#667;cursor:pointer;padding:2px}
.branch{margin:6px 0 6px 18px;padding-left:8px;border-left:2px dashed #aab}
.branch.current{border-left-color:#3b7ddd} .bhead{font-size:12px;color:#667;margin:2px 0}
.more{color:#a60;font-style:italic}
"""

_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
    "base-uri 'none'; form-action 'none'"
)


def render_html(session: Session, *, title: str | None = None) -> str:
    """The whole page for ``session`` (see the module docstring)."""
    labels = session.labels()
    path = session.path()
    compactions = [e for e in session.entries if e.get("type") == "compaction"]
    marks = _Marks(
        labels=labels,
        on_path={e["id"] for e in path},
        leaf=session.leaf_id,
        facts={e["id"]: compaction_facts(session, e) for e in compactions},
    )
    context_tokens = sum(
        estimate_tokens(m) for m in session.build_context().messages if m is not None
    )
    header = session.header
    name = session.name or title or "session"
    facts_shown = [str(header.get(key)) for key in ("id", "cwd", "timestamp") if header.get(key)]
    facts_shown += [
        f"{len(session.entries):,} entries",
        f"leaf {session.leaf_id}",
        f"context at the leaf ≈{context_tokens:,} tokens",
    ]
    meta = " · ".join(esc(fact) for fact in facts_shown)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(name)} — synopsis</title>",
        f"<style>{_STYLE}</style></head><body>",
        f'<header><h1>{esc(name)}</h1><div class="meta">{meta}</div></header><main>',
    ]
    if compactions:
        parts.append(f"<h2>Compactions ({len(compactions)})</h2>")
        parts.append(
            '<table class="summary"><tr><th>entry</th><th>tokens before</th>'
            "<th>after ≈</th><th>replaced</th><th>kept from</th><th>guard</th></tr>"
        )
        for entry in compactions:
            facts = marks.facts[entry["id"]]
            restored, stale = _guard_changes(entry.get("details"))
            before = entry.get("tokensBefore")
            parts.append(
                f"<tr><td>{_link(entry['id'])}</td>"
                f"<td>{f'{before:,}' if isinstance(before, int) else '?'}</td>"
                f"<td>{facts.tokens_after:,}</td>"
                f"<td>{facts.replaced_count:,} messages, ≈{facts.replaced_tokens:,} tokens</td>"
                f"<td>{_link(entry.get('firstKeptEntryId'))}</td>"
                f"<td>{len(restored)} restored, {len(stale)} marked</td></tr>"
            )
        parts.append("</table>")
    if labels:
        parts.append("<h2>Labels</h2><ul>")
        parts += [f"<li>{_link(i)} {esc(label)}</li>" for i, label in labels.items()]
        parts.append("</ul>")
    parts.append("<h2>Tree</h2>")
    parts.extend(_tree(session, marks))
    parts.append("</main></body></html>\n")
    return "\n".join(parts)
