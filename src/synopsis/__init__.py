"""synopsis: keep long-running LLM agents inside their context window without losing what
matters. Pi-compatible session files, compaction and context building for Python."""

from synopsis.compaction import CompactionPreparation, CompactionSettings, prepare_compaction
from synopsis.compaction.compact import CompactionResult, compact
from synopsis.compaction.messages_api import (
    CompactedMessages,
    compact_messages,
    compact_messages_sync,
)
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
    "CompactedMessages",
    "CompactionError",
    "CompactionPreparation",
    "CompactionResult",
    "CompactionSettings",
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
    "compact",
    "compact_messages",
    "compact_messages_sync",
    "convert_to_llm",
    "estimate_context_tokens",
    "estimate_tokens",
    "open_session",
    "prepare_compaction",
    "read_session_file",
    "should_compact",
]
