"""synopsis: keep long-running LLM agents inside their context window without losing what
matters. Pi-compatible session files, compaction and context building for Python."""

from synopsis.errors import (
    CompactionError,
    DuplicateEntryIdError,
    EntryNotFoundError,
    ParentCycleError,
    SessionFormatError,
    SessionTreeError,
    SettingsError,
    SummarizerError,
    SynopsisError,
)
from synopsis.messages import DEFAULT_WRAPPING, SummaryWrapping, convert_to_llm
from synopsis.session import (
    FileSession,
    Session,
    SessionContext,
    build_session_context,
    open_session,
    read_session_file,
)
from synopsis.tokens import (
    ContextTokens,
    calculate_context_tokens,
    estimate_context_tokens,
    estimate_tokens,
    should_compact,
)

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_WRAPPING",
    "CompactionError",
    "ContextTokens",
    "DuplicateEntryIdError",
    "EntryNotFoundError",
    "FileSession",
    "ParentCycleError",
    "Session",
    "SessionContext",
    "SessionFormatError",
    "SessionTreeError",
    "SettingsError",
    "SummarizerError",
    "SummaryWrapping",
    "SynopsisError",
    "__version__",
    "build_session_context",
    "calculate_context_tokens",
    "convert_to_llm",
    "estimate_context_tokens",
    "estimate_tokens",
    "open_session",
    "read_session_file",
    "should_compact",
]
