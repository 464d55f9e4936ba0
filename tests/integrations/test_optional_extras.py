"""The integrations are optional: the core imports without them, and a missing framework
gives an ImportError that names the extra to install."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

FRAMEWORKS = {
    "langchain": ("langchain", "synopsis[langchain]"),
    "pydantic_ai": ("pydantic_ai", "synopsis[pydantic-ai]"),
    "openai_agents": ("agents", "synopsis[openai-agents]"),
}


def test_the_core_and_the_package_import_no_framework() -> None:
    code = (
        "import sys, synopsis, synopsis.integrations\n"
        "from synopsis import compact_messages, WorkingState\n"
        "loaded = {'langchain', 'langgraph', 'pydantic_ai', 'agents'} & set(sys.modules)\n"
        "print(sorted(loaded))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("module", sorted(FRAMEWORKS))
def test_a_missing_framework_names_its_extra(module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    framework, extra = FRAMEWORKS[module]
    for name in [n for n in sys.modules if n == framework or n.startswith(framework + ".")]:
        monkeypatch.setitem(sys.modules, name, None)  # importing it now fails
    monkeypatch.setitem(sys.modules, framework, None)
    monkeypatch.delitem(sys.modules, f"synopsis.integrations.{module}", raising=False)
    with pytest.raises(ImportError, match=rf"pip install '{extra}'".replace("[", r"\[")):
        importlib.import_module(f"synopsis.integrations.{module}")
