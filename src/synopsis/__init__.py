"""synopsis: keep long-running LLM agents inside their context window without losing what
matters. Pi-compatible session files, compaction and context building for Python.

This module is the one public surface: everything a user imports is re-exported here,
once. Names are loaded on first use, so ``import synopsis`` (and every CLI start) stays
cheap and a program that only reads session files never imports the agent loop.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # sessions
    "FileSession": "synopsis.session.store",
    "open_session": "synopsis.session.store",
    "read_session_file": "synopsis.session.jsonl",
    "Session": "synopsis.session.tree",
    "SessionContext": "synopsis.session.context",
    "build_session_context": "synopsis.session.context",
    # compaction
    "CompactionSettings": "synopsis.compaction.settings",
    "CompactionPreparation": "synopsis.compaction.prepare",
    "prepare_compaction": "synopsis.compaction.prepare",
    "CompactionPlan": "synopsis.compaction.orchestrate",
    "plan_compaction": "synopsis.compaction.orchestrate",
    "compact": "synopsis.compaction.compact",
    "store_compaction": "synopsis.compaction.orchestrate",
    "compact_session": "synopsis.compaction.orchestrate",
    "CompactionResult": "synopsis.compaction.compact",
    "CompactedMessages": "synopsis.compaction.messages_api",
    "compact_messages": "synopsis.compaction.messages_api",
    "compact_messages_sync": "synopsis.compaction.messages_api",
    # working state
    "WorkingState": "synopsis.state.model",
    "extract_working_state": "synopsis.state.extract",
    "guard_summary": "synopsis.state.guard",
    # summarizers
    "Summarizer": "synopsis.summarizers.base",
    "SummaryKind": "synopsis.summarizers.base",
    "SummaryRequest": "synopsis.summarizers.base",
    "SummaryResult": "synopsis.summarizers.base",
    "SummaryUsage": "synopsis.summarizers.base",
    "EmbeddedSummarizer": "synopsis.summarizers.embedded",
    "RetryPolicy": "synopsis.providers._retry",
    # the agent loop
    "AgentSession": "synopsis.agent.session",
    "Tool": "synopsis.agent.tools",
    "ChatModel": "synopsis.providers.base",
    # messages and tokens
    "DEFAULT_WRAPPING": "synopsis.messages",
    "SummaryWrapping": "synopsis.messages",
    "convert_to_llm": "synopsis.messages",
    "ContextTokens": "synopsis.tokens",
    "calculate_context_tokens": "synopsis.tokens",
    "estimate_context_tokens": "synopsis.tokens",
    "estimate_tokens": "synopsis.tokens",
    "should_compact": "synopsis.tokens",
    "TokenCounter": "synopsis.tokens",
    "PiEstimate": "synopsis.tokens",
    "CjkAwareEstimate": "synopsis.tokens",
    "token_counter": "synopsis.token_counters",
    # errors
    "SynopsisError": "synopsis.errors",
    "SessionFormatError": "synopsis.errors",
    "SessionTreeError": "synopsis.errors",
    "DuplicateEntryIdError": "synopsis.errors",
    "ParentCycleError": "synopsis.errors",
    "EntryNotFoundError": "synopsis.errors",
    "SettingsError": "synopsis.errors",
    "CompactionError": "synopsis.errors",
    "SummarizerError": "synopsis.errors",
}

__all__ = [
    "DEFAULT_WRAPPING",
    "AgentSession",
    "ChatModel",
    "CjkAwareEstimate",
    "CompactedMessages",
    "CompactionError",
    "CompactionPlan",
    "CompactionPreparation",
    "CompactionResult",
    "CompactionSettings",
    "ContextTokens",
    "DuplicateEntryIdError",
    "EmbeddedSummarizer",
    "EntryNotFoundError",
    "FileSession",
    "ParentCycleError",
    "PiEstimate",
    "RetryPolicy",
    "Session",
    "SessionContext",
    "SessionFormatError",
    "SessionTreeError",
    "SettingsError",
    "Summarizer",
    "SummarizerError",
    "SummaryKind",
    "SummaryRequest",
    "SummaryResult",
    "SummaryUsage",
    "SummaryWrapping",
    "SynopsisError",
    "TokenCounter",
    "Tool",
    "WorkingState",
    "__version__",
    "build_session_context",
    "calculate_context_tokens",
    "compact",
    "compact_messages",
    "compact_messages_sync",
    "compact_session",
    "convert_to_llm",
    "estimate_context_tokens",
    "estimate_tokens",
    "extract_working_state",
    "guard_summary",
    "open_session",
    "plan_compaction",
    "prepare_compaction",
    "read_session_file",
    "should_compact",
    "store_compaction",
    "token_counter",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'synopsis' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return list(__all__)


if TYPE_CHECKING:
    from synopsis.agent.session import AgentSession
    from synopsis.agent.tools import Tool
    from synopsis.compaction.compact import CompactionResult, compact
    from synopsis.compaction.messages_api import (
        CompactedMessages,
        compact_messages,
        compact_messages_sync,
    )
    from synopsis.compaction.orchestrate import (
        CompactionPlan,
        compact_session,
        plan_compaction,
        store_compaction,
    )
    from synopsis.compaction.prepare import CompactionPreparation, prepare_compaction
    from synopsis.compaction.settings import CompactionSettings
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
    from synopsis.providers._retry import RetryPolicy
    from synopsis.providers.base import ChatModel
    from synopsis.session.context import SessionContext, build_session_context
    from synopsis.session.jsonl import read_session_file
    from synopsis.session.store import FileSession, open_session
    from synopsis.session.tree import Session
    from synopsis.state.extract import extract_working_state
    from synopsis.state.guard import guard_summary
    from synopsis.state.model import WorkingState
    from synopsis.summarizers.base import (
        Summarizer,
        SummaryKind,
        SummaryRequest,
        SummaryResult,
        SummaryUsage,
    )
    from synopsis.summarizers.embedded import EmbeddedSummarizer
    from synopsis.token_counters import token_counter
    from synopsis.tokens import (
        CjkAwareEstimate,
        ContextTokens,
        PiEstimate,
        TokenCounter,
        calculate_context_tokens,
        estimate_context_tokens,
        estimate_tokens,
        should_compact,
    )
