"""Sessions: Pi-compatible JSONL files, the entry tree, and the context built from it."""

from synopsis.session.context import ModelRef, SessionContext, build_session_context
from synopsis.session.entries import CURRENT_VERSION, Entry, SessionEntry, SessionHeader
from synopsis.session.jsonl import (
    LoadedSession,
    SkippedLine,
    parse_session,
    read_session_file,
    render_session,
)
from synopsis.session.store import FileSession, SessionWriter, open_session
from synopsis.session.tree import Session, TreeNode, new_header

__all__ = [
    "CURRENT_VERSION",
    "Entry",
    "FileSession",
    "LoadedSession",
    "ModelRef",
    "Session",
    "SessionContext",
    "SessionEntry",
    "SessionHeader",
    "SessionWriter",
    "SkippedLine",
    "TreeNode",
    "build_session_context",
    "new_header",
    "open_session",
    "parse_session",
    "read_session_file",
    "render_session",
]
