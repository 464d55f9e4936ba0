"""The agent loop with automatic compaction, and what it needs from models and tools."""

from synopsis.agent.events import (
    AgentEnd,
    AgentError,
    AgentEvent,
    BeforeCompact,
    BranchSummarized,
    CancelCompaction,
    CompactionEnd,
    CompactionStart,
    HookError,
    MessageEnd,
)
from synopsis.agent.session import AgentSession, ContextUsage, NavigateResult
from synopsis.agent.settings_files import load_agent_settings
from synopsis.agent.tools import Tool, ToolOutput
from synopsis.providers.base import ChatModel, ChatRequest, ToolSpec
from synopsis.providers.overflow import is_context_overflow

__all__ = [
    "AgentEnd",
    "AgentError",
    "AgentEvent",
    "AgentSession",
    "BeforeCompact",
    "BranchSummarized",
    "CancelCompaction",
    "ChatModel",
    "ChatRequest",
    "CompactionEnd",
    "CompactionStart",
    "ContextUsage",
    "HookError",
    "MessageEnd",
    "NavigateResult",
    "Tool",
    "ToolOutput",
    "ToolSpec",
    "is_context_overflow",
    "load_agent_settings",
]
