"""Compaction inside the agent frameworks people already use.

Each module wraps one framework with its own public API and message types, and needs
that framework installed (an optional extra):

- :mod:`synopsis.integrations.langchain` — ``SynopsisMiddleware`` for LangChain v1's
  ``create_agent`` (``pip install 'synopsis[langchain]'``);
- :mod:`synopsis.integrations.pydantic_ai` — ``SynopsisHistoryProcessor`` for
  pydantic-ai's ``ProcessHistory`` capability (``pip install 'synopsis[pydantic-ai]'``);
- :mod:`synopsis.integrations.openai_agents` — ``CompactingSession`` around any OpenAI
  Agents SDK ``Session`` (``pip install 'synopsis[openai-agents]'``).

This package itself imports no framework, so ``import synopsis`` works without any.
"""
