"""What ``synopsis`` imports to start a light command: only what the command needs.

Starting the CLI used to import every command's dependencies (the evaluation harness,
the viewer, the compaction engine, model clients, Rich) before doing anything, half a
second for a 5-entry file. These tests run the real entry point in a process of its own
and read ``sys.modules`` as it exits: a structural check, no timing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from synopsis.cli import COMMAND_MODULES
from synopsis.cli import command as click_command

HEAVY = (
    "rich",
    "httpx",
    "openai",
    "anthropic",
    "tiktoken",
    "asyncio",
    "synopsis.eval",
    "synopsis.viewer",
    "synopsis.agent",
    "synopsis.compaction",
    "synopsis.state",
    "synopsis.summarizers",
    "synopsis.providers",
    "synopsis.importers",
    "synopsis.integrations",
    "synopsis.session.doctor",
    "synopsis.cli.eval",
    "synopsis.cli.demo",
    "synopsis.cli._status",
    "hashlib",  # (OpenSSL's loading costs more than a small module): only a migration hashes
)
"""Modules (and their submodules) that ``tree`` and ``context`` on a file do not need."""

SESSION = (
    '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}\n'
    '{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z",'
    '"message":{"role":"user","content":"hello","timestamp":1}}\n'
    '{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z",'
    '"message":{"role":"assistant","content":[{"type":"text","text":"hi"}],'
    '"usage":{"input":5,"output":1},"stopReason":"stop","timestamp":2}}\n'
)


def imported_by(tmp_path: Path, *args: str) -> set[str]:
    """The modules in ``sys.modules`` when the ``synopsis`` entry point has run ``args``."""
    listing = tmp_path / "modules.txt"
    script = (
        "import atexit, sys\n"
        f"atexit.register(lambda: open({str(listing)!r}, 'w').write('\\n'.join(sys.modules)))\n"
        "from synopsis.cli import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return set(listing.read_text().split())


def heavy_in(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


@pytest.mark.parametrize("args", [("context",), ("context", "--json"), ("tree",)])
def test_a_light_command_imports_no_heavy_module(tmp_path: Path, args: tuple[str, ...]) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(SESSION)
    command, *options = args
    modules = imported_by(tmp_path, command, str(path), *options)
    assert "synopsis.cli.session_commands" in modules
    assert heavy_in(modules) == []


def test_the_command_list_still_shows_every_command(tmp_path: Path) -> None:
    modules = imported_by(tmp_path, "--help")
    assert {f"synopsis.cli.{m}" for m in COMMAND_MODULES.values()} <= modules


@pytest.mark.parametrize("module", sorted(set(COMMAND_MODULES.values())))
def test_each_module_registers_the_commands_it_is_named_for(module: str) -> None:
    """``main`` imports only the module :data:`COMMAND_MODULES` names for a command: a
    command that module does not register would not be found."""
    first = next(name for name, owner in COMMAND_MODULES.items() if owner == module)
    script = f"from synopsis.cli import command; print(*sorted(command([{first!r}]).commands))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    registered = set(done.stdout.split())
    assert registered >= {name for name, owner in COMMAND_MODULES.items() if owner == module}


def test_every_command_is_in_the_table() -> None:
    assert set(click_command().commands) == set(COMMAND_MODULES)
