"""The HTML view of a session: structure, escaping, compaction facts, and a real browser."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis import open_session
from synopsis.session import Session
from synopsis.viewer import compaction_facts, render_checkpoint, render_html
from tests.viewer.png import read_png

DATA = Path(__file__).parent.parent / "importers" / "data"
CHROMIUM = Path("/usr/bin/chromium")
HOSTILE = (
    "<script>alert(1)</script><img src=x onerror=\"document.title='pwned'\"> ' \" & "
    "\x00\x1b[31m \ud800"
)


class _Elements(HTMLParser):
    """Tags, attributes and text of a page, as a browser's tokenizer sees them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(page: str) -> _Elements:
    parser = _Elements()
    parser.feed(page)
    parser.close()
    return parser


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def reply(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": text}], "stopReason": "stop"}


def hostile_session() -> Session:
    session = Session()
    session.header["cwd"] = HOSTILE
    first = session.append_message(user(HOSTILE))
    session.append_message(
        {
            "role": "assistant",
            "content": [
                {"type": "toolCall", "id": "c1", "name": HOSTILE, "arguments": {"p": HOSTILE}}
            ],
            "stopReason": "toolUse",
        }
    )
    session.append_message(
        {
            "role": "toolResult",
            "toolCallId": "c1",
            "toolName": HOSTILE,
            "content": [{"type": "text", "text": HOSTILE}],
            "isError": True,
        }
    )
    session.append_custom(HOSTILE, {"x": HOSTILE})
    session.append_label(first, HOSTILE)
    session.append_session_info(HOSTILE)
    session.append_compaction(
        f"## Goal\n- {HOSTILE}\n```\n{HOSTILE}\n```",
        first,
        123,
        {
            "guard": {
                "restored": [
                    {
                        "action": "restored",
                        "kind": "constraint",
                        "text": HOSTILE,
                        "section": HOSTILE,
                    }
                ],
                "stale": [
                    {
                        "action": "marked",
                        "kind": "superseded",
                        "text": "budget 500 EUR",
                        "section": "Constraints & Preferences",
                    }
                ],
            }
        },
    )
    return session


def test_hostile_text_is_escaped_everywhere() -> None:
    session = hostile_session()
    page = render_html(session)
    page.encode("utf-8")  # no lone surrogate reaches the file
    elements = parse(page)
    tags = [tag for tag, _ in elements.tags]
    assert "script" not in tags and "img" not in tags
    assert not any(name.startswith("on") for _, attrs in elements.tags for name in attrs)
    text = "".join(elements.text)
    # What the reader sees: the text itself, control characters spelled out.
    visible = HOSTILE.replace("\x00", "\\x00").replace("\x1b", "\\x1b").replace("\ud800", "\ufffd")
    assert visible in text
    assert "\x00" not in page and "\x1b" not in page
    entries = [a for _, a in elements.tags if "entry" in (a.get("class") or "").split()]
    assert len(entries) == len(session.entries)
    # The guard's changes are listed on the compaction's card.
    assert f"restored constraint in {visible}" in text
    assert "marked superseded in Constraints & Preferences: budget 500 EUR" in text
    assert "1 restored, 1 marked" in text


def test_checkpoint_markdown_becomes_headings_and_lists() -> None:
    page = render_checkpoint(
        "## Goal\nShip **v2** of `api.py`\n\n## Progress\n- done: parser\n  - nested step\n"
        "1. numbered\n```\n<b>code</b>\n```\n<read-files>\nsrc/a.py\n</read-files>"
    )
    elements = parse(page)
    assert [t for t, _ in elements.tags] == [
        "h4", "p", "strong", "code", "h4", "ul", "li", "li", "li", "pre", "div", "p", "div",
    ]  # fmt: skip
    assert "<b>code</b>" in "".join(elements.text)


def _chain(session: Session, count: int, prefix: str) -> list[str]:
    ids = []
    for n in range(count):
        ids.append(session.append_message(user(f"{prefix} question {n}")))
        ids.append(session.append_message(reply(f"{prefix} answer {n}")))
    return ids


def test_compaction_facts_count_what_was_replaced_and_kept() -> None:
    session = Session()
    first_part = _chain(session, 5, "a")  # 10 entries
    kept_first = first_part[6]
    first = session.append_compaction("## Goal\n- a", kept_first, 900)
    second_part = _chain(session, 3, "b")  # 6 entries
    kept_second = second_part[2]
    second = session.append_compaction("## Goal\n- b", kept_second, 700)

    facts = compaction_facts(session, session.require_entry(first))
    assert (facts.replaced_count, facts.replaced_first, facts.replaced_last) == (
        6,
        first_part[0],
        first_part[5],
    )
    assert facts.kept_count == 4
    facts = compaction_facts(session, session.require_entry(second))
    # From where the first compaction kept, up to the second's first kept entry.
    assert (facts.replaced_first, facts.replaced_last) == (kept_first, second_part[1])
    assert facts.replaced_count == 4 + 2
    assert facts.kept_count == 4
    assert facts.tokens_after < 700

    # A compaction keeping from the same entry as the previous one replaced nothing new.
    third = session.append_compaction("## Goal\n- c", kept_second, 500)
    assert compaction_facts(session, session.require_entry(third)).replaced_count == 0


def test_a_long_session_folds_its_runs() -> None:
    session = Session()
    ids = _chain(session, 5_000, "long")
    session.append_label(ids[4_000], "checkpoint here")
    page = render_html(session)
    elements = parse(page)
    folds = [a for t, a in elements.tags if t == "details" and a.get("class") == "fold"]
    assert len(folds) == 2  # before and after the labelled entry
    entries = [a for _, a in elements.tags if "entry" in (a.get("class") or "").split()]
    assert len(entries) == len(session.entries)
    assert len(page) < 8_000_000


def _real_session(tmp_path: Path) -> Path:
    """A real import, compacted twice by the CLI, then a branch and a label."""
    session_path = tmp_path / "session.jsonl"

    def cli(*args: str | Path) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "synopsis", *map(str, args)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr

    cli("import", DATA / "codex-2025-09-legacy.jsonl", "-o", session_path)
    cli("compact", session_path, "--keep-recent", "3000")
    session = open_session(session_path)
    for n in range(4):
        session.append_message(user(f"Next step {n}: keep prices as Decimal. {HOSTILE}"))
        session.append_message(reply(f"Step {n} done. " + "details " * 200))
    cli("compact", session_path, "--keep-recent", "1500")
    session = open_session(session_path)
    messages = [e for e in session.entries if e["type"] == "message"]
    session.append_label(messages[3]["id"], "before the refactor")
    session.branch(messages[20]["id"])
    session.append_message(user("Try the other approach instead."))
    session.append_message(reply("Switching approach."))
    return session_path


def _chromium(*args: str) -> subprocess.CompletedProcess[str]:
    profile = tempfile.mkdtemp(prefix="chromium-")
    try:
        return subprocess.run(
            [
                str(CHROMIUM),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                f"--user-data-dir={profile}",
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed (/usr/bin/chromium)")
def test_the_page_in_a_real_browser(tmp_path: Path) -> None:
    session_path = _real_session(tmp_path)
    page = tmp_path / "view.html"
    done = subprocess.run(
        [sys.executable, "-m", "synopsis", "view", session_path, "-o", page, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["entries"] == len(open_session(session_path).entries)
    assert oct(page.stat().st_mode & 0o777) != oct(0o600)

    dom = _chromium("--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr
    assert "<title>session.jsonl — synopsis</title>" in dom.stdout  # no script renamed it
    text = re.sub(r"<[^>]+>", " ", dom.stdout)
    assert "Compactions (2)" in text
    assert "before the refactor" in text
    assert "branch 2 of 2" in text and "the current path" in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom.stdout
    assert "<script>" not in dom.stdout

    shot = tmp_path / "view.png"
    done = _chromium(f"--screenshot={shot}", "--window-size=1280,1600", page.as_uri())
    assert done.returncode == 0 and shot.exists(), done.stderr
    if os.environ.get("SYNOPSIS_KEEP_SCREENSHOT"):
        shutil.copy(shot, os.environ["SYNOPSIS_KEEP_SCREENSHOT"])
    width, height, bpp, rows = read_png(shot)
    assert (width, height) == (1280, 1600)

    def dark(top: int, bottom: int) -> float:
        """Share of sampled pixels in rows top..bottom dark enough to be text or a bar."""
        total = hits = 0
        for row in rows[top:bottom]:
            for x in range(0, width * bpp, bpp * 3):
                total += 1
                hits += sum(row[x : x + 3]) < 360
        return hits / total

    assert dark(0, 40) > 0.9  # the dark header bar
    for band in range(100, 1600, 250):
        assert dark(band, band + 250) > 0.005, band  # text all the way down


@pytest.mark.parametrize("case", ["missing", "not-a-session", "same-file"])
def test_view_bad_input_is_one_error_line(case: str, tmp_path: Path) -> None:
    source = tmp_path / "session.jsonl"
    out = tmp_path / "view.html"
    if case == "not-a-session":
        source.write_bytes(b"\x00\x01 garbage\n")
    elif case == "same-file":
        source.write_text(
            '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":""}\n'
        )
        out = source
    done = subprocess.run(
        [sys.executable, "-m", "synopsis", "view", str(source), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), done.stderr
    if case == "same-file":
        assert source.read_text().startswith('{"type":"session"')
    else:
        assert not out.exists()


_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12))
_json = st.recursive(
    _leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=10,
)
_entry_fields = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.just("message"),
            "message": st.one_of(
                _json,
                st.fixed_dictionaries(
                    {
                        "role": st.sampled_from(
                            ["user", "assistant", "toolResult", "bashExecution", "custom", "x"]
                        ),
                        "content": _json,
                    }
                ),
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(
                ["compaction", "branch_summary", "custom", "custom_message", "label", "odd"]
            ),
            "summary": _json,
            "details": _json,
            "tokensBefore": _json,
            "firstKeptEntryId": st.sampled_from(["00000001", "00000003", "nowhere"]),
            "customType": _json,
            "content": _json,
            "label": _json,
            "targetId": st.sampled_from(["00000001", "nowhere"]),
        }
    ),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_entry_fields, min_size=1, max_size=10), st.data())
def test_any_entries_render_as_a_page(fields: list[dict[str, Any]], data: st.DataObject) -> None:
    entries = []
    for number, field in enumerate(fields, start=1):
        parent = data.draw(st.integers(0, number - 1)) if number > 1 else 0
        entries.append(
            {
                **field,
                "id": f"{number:08x}",
                "parentId": f"{parent:08x}" if parent else None,
                "timestamp": "2026-01-01T00:00:00Z",
            }
        )
    page = render_html(Session(None, entries))
    page.encode("utf-8")
    elements = parse(page)
    assert "script" not in {tag for tag, _ in elements.tags}
    rows = [a for _, a in elements.tags if "entry" in (a.get("class") or "").split()]
    assert len(rows) == len(entries)
