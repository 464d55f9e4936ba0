"""Tools the agent loop offers to the model: plain Python callables."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from synopsis.providers.base import ToolSpec


@dataclass(frozen=True, slots=True)
class ToolOutput:
    """A tool's result with an explicit error flag (returning a plain str means success)."""

    text: str
    is_error: bool = False


ToolFunction = Callable[[dict[str, Any]], "str | ToolOutput | Awaitable[str | ToolOutput]"]


@dataclass(frozen=True, slots=True)
class Tool:
    """A plain Python callable offered to the model.

    ``run`` receives the call's arguments and returns the result text or a
    :class:`ToolOutput` (or an awaitable of either). An exception becomes an error result
    the model can read, never a crash.
    """

    name: str
    description: str
    run: ToolFunction
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})

    @property
    def spec(self) -> ToolSpec:
        return ToolSpec(self.name, self.description, self.parameters)

    async def call(self, arguments: dict[str, Any]) -> tuple[str, bool]:
        """Run the tool; returns (text, is_error)."""
        try:
            outcome = self.run(arguments)
            if inspect.isawaitable(outcome):
                outcome = await outcome
        except Exception as error:  # a failing tool is reported to the model
            return f"{type(error).__name__}: {error}", True
        if isinstance(outcome, ToolOutput):
            return outcome.text, outcome.is_error
        return str(outcome), False
