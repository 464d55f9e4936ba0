"""Task state in its own section, from histories written for each class of input.

Each history is written here in our own words (no transcript was copied): a harness that
wraps a failed command's output in status lines, a tool that reports its effect in a
sentence of its own, failures in other languages, a user who reports an error, a
report of the assistant with nested items. Expected lines are read off each history.
"""

from __future__ import annotations

from typing import Any

import pytest

from synopsis.state import extract_working_state
from synopsis.state._errors import first_error_line, reported_failure
from synopsis.state._tools import reported_outcome
from synopsis.state.render import render_state
from synopsis.state.sections import parse_sections
from tests.state.builders import act, call, result, user


def bash(call_id: str, command: str, output: str, *, error: bool = False) -> list[Any]:
    calling = act(call(call_id, "bash", command=command))
    return [calling, result(call_id, "bash", output, error=error)]


def by_section(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for kind, _, items in parse_sections(text):
        if kind:
            found[kind] = found.get(kind, "") + "\n".join(items) + "\n"
    return found


# --- the error line behind a harness' status lines ----------------------------------------


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        (
            "Command failed with exit code 1.\nOutput:\n"
            "ERROR: (gcloud.run.deploy) PERMISSION_DENIED: caller lacks run.services.create",
            "ERROR: (gcloud.run.deploy) PERMISSION_DENIED: caller lacks run.services.create",
        ),
        ("Exit code: 2\nstderr:\nfatal: not a git repository", "fatal: not a git repository"),
        ("The process exited with status 3\nFehler: Datei fehlt", "Fehler: Datei fehlt"),
        ("Tool failed with a non-zero exit code\nErro: sem arquivo", "Erro: sem arquivo"),
    ],
)
def test_the_reason_is_looked_for_past_the_harness_status_lines(output: str, expected: str) -> None:
    assert first_error_line(output) == expected


def test_a_status_line_alone_is_still_the_error_line() -> None:
    status = "Command failed with exit code 1."
    assert first_error_line(status) == status


@pytest.mark.parametrize(
    "output",
    [
        "Baue Projekt …\nFehler: Modul 'karte' nicht gefunden",
        "ビルド中…\nエラー: モジュール 'map' が見つかりません",
        "Сборка…\nОшибка: файл не найден",
        "正在构建\n错误：找不到模块 map",
    ],
)
def test_an_unflagged_output_that_reports_a_failure_in_another_language(output: str) -> None:
    assert reported_failure(output) == output.splitlines()[-1]


def test_output_that_names_no_failure_reports_none() -> None:
    assert reported_failure("Built 3 targets, 0 errors.\nFertig.") is None


# --- what a tool reports it did -----------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("Command executed successfully (exit code 0).\nOutput:\nBackup files removed successfully",
         "Backup files removed successfully"),
        ("Creating gs://staging-assets/...", "Creating gs://staging-assets/..."),
        ("Saved working directory and index state WIP on main: 1a2b3c4 wip",
         "Saved working directory and index state WIP on main: 1a2b3c4 wip"),
        ("Rewrite 1a2b3c4 (3/3)\nWARNING: Ref 'refs/tags/v1' is unchanged\n"
         "Ref 'refs/heads/main' was rewritten",
         "Ref 'refs/heads/main' was rewritten"),
        ("[OK] Datei .env ist lokal vorhanden", "[OK] Datei .env ist lokal vorhanden"),
        ("Die Tabelle wurde erfolgreich angelegt.", "Die Tabelle wurde erfolgreich angelegt."),
    ],
)  # fmt: skip
def test_a_tool_reports_its_effect_in_a_sentence_of_its_own(output: str, expected: str) -> None:
    assert reported_outcome(output) == expected


@pytest.mark.parametrize(
    "output",
    ["Command executed successfully (exit code 0).", "Downloading wheel …\nUsed 12 MB of cache",
     "Needed 3 retries", "Tests: 2 failed, 5 passed"],
)  # fmt: skip
def test_lines_that_state_no_effect_are_no_outcome(output: str) -> None:
    assert reported_outcome(output) is None


def test_an_effect_a_command_reported_stands_under_done() -> None:
    messages = [
        user("Clear out the old terraform state so we start from nothing."),
        *bash(
            "c1",
            "del /q terraform.tfstate && echo Old state removed successfully",
            "Command executed successfully (exit code 0).\nOutput:\nOld state removed successfully",
        ),
    ]
    done = by_section(render_state(extract_working_state(messages)))["done"]
    assert "Old state removed successfully" in done
