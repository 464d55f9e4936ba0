"""Task state in its own section, from histories written for each class of input.

Each history is written here in our own words (no transcript was copied): a harness that
wraps a failed command's output in status lines, a tool that reports its effect in a
sentence of its own, failures in other languages, a user who reports an error, a
report of the assistant with nested items. Expected lines are read off each history.
"""

from __future__ import annotations

import pytest

from synopsis.state import extract_working_state
from synopsis.state._errors import first_error_line, reported_failure
from synopsis.state._tools import reported_outcome
from synopsis.state.render import render_state
from synopsis.summarizers.base import SummaryKind, SummaryRequest
from synopsis.summarizers.prompts import build_prompt
from tests.state.builders import act, bash, by_section, call, result, say, user

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


# --- what the assistant reported done, per request ----------------------------------------


def test_an_interim_report_outlasts_the_work_that_follows_it() -> None:
    messages = [
        user("Split the pending changes into branches and open a pull request for each."),
        say(
            "## Summary\n\nAll four branches are pushed and their pull requests opened:\n\n"
            "### Branch 1: `feat/cache-layer`\n**PR #41**: https://example.org/acme/app/pull/41\n"
            "### Branch 2: `docs/setup`\n**PR #42**: https://example.org/acme/app/pull/42\n"
        ),
        user("Now review each of them and tell me what you think."),
        *bash("c1", "gh pr diff 41", "diff --git a/cache.py b/cache.py"),
    ]
    text = render_state(extract_working_state(messages))
    done = by_section(text)["done"]
    assert (
        "`feat/cache-layer`" in done and "**PR #42**: https://example.org/acme/app/pull/42" in done
    )


def test_reports_in_other_languages_and_nested_items() -> None:
    messages = [
        user("Füge bitte eine Sprachumschaltung hinzu."),
        act(call("c1", "edit", path="src/lang.ts"), text="Ich ändere die Datei."),
        result("c1", "edit", "ok"),
        say(
            "Die Umschaltung wurde implementiert.\n\n- Ursache behoben\n"
            "  - Import von React wurde ergänzt"
        ),
        user("还有，把页面都移动到新的目录里。"),
        act(call("c2", "bash", command="mv src/pages src/app"), text="好的。"),
        result("c2", "bash", ""),
        say("我已经把所有页面移动到了新的 `[locale]` 目录中。"),
        *bash("c3", "npm run build", "Compiled with warnings"),
    ]
    text = render_state(extract_working_state(messages))
    sections = by_section(text)
    # "还有 …" goes on with the same request: both reports are of the request under way
    assert "Die Umschaltung wurde implementiert." in sections["in_progress"]
    assert "Import von React wurde ergänzt" in sections["in_progress"]
    assert "我已经把所有页面移动到了新的 `[locale]` 目录中。" in sections["in_progress"]


def test_a_plan_or_a_question_reports_nothing_done() -> None:
    messages = [
        user("Port the parser to Rust."),
        say("I'll start with the lexer, then the parser. Should I keep the Python tests?"),
    ]
    (goal,) = extract_working_state(messages).goals
    assert goal.reported == ()


# --- a failure the user reports -------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("Opening the page I get this:\n\nUncaught ReferenceError: Chart is not defined\n"
         "    at render (dashboard.js:88:5)\n    at main (dashboard.js:12:1)",
         "Uncaught ReferenceError: Chart is not defined at render (dashboard.js:88:5)"),
        ("the upload still breaks, the log says\nupload failed: read ECONNRESET",
         "upload failed: read ECONNRESET"),
        ("still! the third strike is not applied", "still! the third strike is not applied"),
        ("页面打开后全都是 404，怎么回事", "页面打开后全都是 404，怎么回事"),
        ("Der Export funktioniert nicht mehr.", "Der Export funktioniert nicht mehr."),
    ],
)  # fmt: skip
def test_a_failure_the_user_reports_stands_under_failed_approaches(
    said: str, expected: str
) -> None:
    messages = [
        user("Build the dashboard page."),
        *bash("c1", "npm run build", "Compiled successfully"),
        say("Done: the dashboard page is built."),
        user(said),
    ]
    failed = by_section(render_state(extract_working_state(messages))).get("failed", "")
    assert f"The user reported: {expected}" in failed


@pytest.mark.parametrize(
    "said",
    ["Hard rule: never run the migrations against prod.",
     "YOU DO NOT run builds yourself, I do.",
     "Make sure there is error handling around the upload.",
     "Saturday doesn't work anymore, move it to Sunday.",
     "Please add a retry to the fetcher.",
     "colours for the footer:\nwarning e5c07b\nerror cc6666"],
)  # fmt: skip
def test_a_rule_or_a_request_reports_no_failure(said: str) -> None:
    state = extract_working_state([user("Set up the importer."), say("Done."), user(said)])
    assert not [d for d in state.failed_approaches if d.source == "user"]


# --- a failure got past another way -------------------------------------------------------


def test_a_bucket_another_tool_then_created_is_no_blocker() -> None:
    messages = [
        user("Create the staging bucket for the media uploads."),
        *bash("c1", "gsutil mb -l europe-west1 gs://staging-media/",
              "ERROR: (gsutil) Unable to read file VERSION: [Errno 13] Permission denied",
              error=True),
        *bash("c2", "gcloud storage buckets create gs://staging-media --location=europe-west1",
              "Creating gs://staging-media/..."),
    ]  # fmt: skip
    state = extract_working_state(messages)
    assert not state.open_errors()
    assert "Creating gs://staging-media/..." in by_section(render_state(state))["done"]


def test_another_bucket_does_not_get_past_the_failure() -> None:
    messages = [
        user("Create the staging bucket for the media uploads."),
        *bash("c1", "gsutil mb gs://staging-media/", "AccessDeniedException: 403", error=True),
        *bash(
            "c2",
            "gcloud storage buckets create gs://other-bucket",
            "Creating gs://other-bucket/...",
        ),
    ]
    assert len(extract_working_state(messages).open_errors()) == 1


@pytest.mark.parametrize(
    "words",
    ["That tool is broken here, so I'll clone the repo with plain git instead.",
     "Das Skript fehlt; ich nehme stattdessen das Makefile.",
     "这个命令不可用，我改用 npx 来运行。"],
)  # fmt: skip
def test_the_assistant_turning_to_another_way_gives_the_failure_up(words: str) -> None:
    messages = [
        user("Fetch the vendored parser into third_party."),
        *bash("c1", "gh repo clone acme/parser third_party/parser",
              "gh: command not found", error=True),
        act(call("c2", "bash", command="git clone https://example.org/acme/parser third_party/p"),
            text=words),
    ]  # fmt: skip
    state = extract_working_state(messages)
    assert not state.open_errors()
    failed = by_section(render_state(state))["failed"]
    assert "gh: command not found; given up for another way" in failed


def test_a_question_about_another_way_leaves_the_failure_open() -> None:
    messages = [
        user("Fetch the vendored parser into third_party."),
        *bash("c1", "gh repo clone acme/parser third_party/parser", "gh: command not found",
              error=True),
        say("gh is missing. Should I clone it with plain git instead?"),
    ]  # fmt: skip
    assert len(extract_working_state(messages).open_errors()) == 1


# --- decisions in other languages -----------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "choice"),
    [
        ("地図の表示にはLeafletを使います。", "地図の表示にはLeafletを使います。"),
        ("認証はメールリンクのみとします。", "認証はメールリンクのみとします。"),
        ("Thanks, both look fine. Let's do option B: the nightly batch.", "option B"),
        ("Nimm stattdessen die SQLite-Datenbank.", "Nimm stattdessen die SQLite-Datenbank."),
        ("Usa o Redis em vez de memória local.", "Usa o Redis em vez de memória local."),
    ],
)  # fmt: skip
def test_a_users_choice_in_other_words_is_a_key_decision(said: str, choice: str) -> None:
    messages = [
        user("Build the store locator page."),
        say("Which map library and which storage should I use?"),
        user(said),
    ]
    decisions = by_section(render_state(extract_working_state(messages)))["decisions"]
    assert choice in decisions


@pytest.mark.parametrize(
    "said",
    ["我们将使用 `zod` 这个库来校验表单，它和 TypeScript 配合得好。",
     "This is a patch release since only a typo in the docs changed.",
     "Wir sollten den Cache nie im Hauptthread leeren, weil die Oberfläche sonst hängt."],
)  # fmt: skip
def test_an_assistants_choice_with_its_reason_in_other_words(said: str) -> None:
    messages = [user("Add validation to the signup form."), say(said)]
    decisions = by_section(render_state(extract_working_state(messages)))["decisions"]
    assert said in decisions


def test_a_cause_stated_in_the_past_is_no_decision() -> None:
    messages = [user("Fix the import error."), say("错误是因为我们使用了错误的导入路径。")]
    assert not extract_working_state(messages).decisions


# --- the model path asks for the same sections ----------------------------------------------


@pytest.mark.parametrize("kind", [SummaryKind.HISTORY, SummaryKind.UPDATE])
def test_the_model_prompt_asks_for_what_the_embedded_checkpoint_does(kind: SummaryKind) -> None:
    _, task = build_prompt(SummaryRequest(kind=kind, conversation="[User]: hi"))
    for asked in (
        "The user reported: …",  # a failure the user reports, under Failed Approaches
        "instead",  # a failure the assistant turned away from is no blocker
        "Command failed with exit code 1.",  # a status line is not the error line
        "reported done",  # what the assistant reported done, kept word for word
        "を使います",  # a user's choice in their language
    ):
        assert asked in task


def test_a_progress_line_is_no_effect() -> None:
    output = (
        'Waiting for deployment "api" rollout to finish: 2 of 6 replicas have been updated...\n'
        'deployment "api" successfully rolled out'
    )
    assert reported_outcome(output) == 'deployment "api" successfully rolled out'
