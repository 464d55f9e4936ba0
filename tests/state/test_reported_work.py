"""The agent's report of its work, its plan, its failures and the user's choices, each in
its own section.

Histories written here in our own words, one per class of input that real transcripts
showed standing in the wrong section (or nowhere): a report of work done in a language
other than English or Chinese (so the request never counted as finished), an assistant's
report with no request to file it under (it stood under Critical Context as a "fact"),
an error the assistant names in its own words (a "fact" too), a user's failure report
or choice in another language, a todo list the agent wrote with a tool, and the report a
sub-agent returned as a tool result.
"""

from __future__ import annotations

import pytest

from synopsis.state import extract_working_state
from synopsis.state._choices import user_choices
from synopsis.state._errors import reported_failure, user_reported_failure
from synopsis.state._progress import is_finished, reported_done, states_done
from synopsis.state.render import render_state
from tests.state.builders import act, bash, by_section, call, result, say, user

# --- a report of work done, in other languages ---------------------------------------------


@pytest.mark.parametrize(
    "report",
    [
        "Ho aggiornato il file `nginx.conf` e riavviato il servizio.",
        "Il certificato è stato rinnovato.",
        "He creado el índice sobre la columna `fecha`.",
        "J'ai supprimé l'ancien fichier de variables.",
        "설정 파일을 수정했습니다.",
        "Saya sudah menambahkan validasi email di form.",
        "Я обновил зависимости в `package.json`.",
        "Upravil jsem styl tlačítka.",
        "Corrigi o caminho do arquivo de log.",
    ],
)
def test_a_report_of_work_done_in_another_language_states_it(report: str) -> None:
    assert states_done(report)
    assert is_finished(report)


@pytest.mark.parametrize(
    "not_done",
    [
        "Aggiorno il file `nginx.conf`?",
        "Voy a crear el índice sobre la columna `fecha`.",
        "설정 파일을 수정할까요?",
        "Saya akan menambahkan validasi email di form.",
        "Я обновлю зависимости.",
    ],
)
def test_a_plan_or_a_question_in_another_language_states_nothing_done(not_done: str) -> None:
    assert not states_done(not_done)
    assert not is_finished(not_done)


def test_the_items_of_a_korean_report_are_what_was_done() -> None:
    report = (
        "배포 문서 작성을 완료했습니다.\n\n"
        "- `docs/deploy.md` 파일을 생성했습니다\n"
        "- 롤백 절차를 추가했습니다\n"
    )
    done = reported_done(report)
    assert "`docs/deploy.md` 파일을 생성했습니다" in done
    assert "롤백 절차를 추가했습니다" in done


def test_a_request_finished_with_an_italian_report_moves_to_done() -> None:
    messages = [
        user("Puoi aggiungere un controllo di salute al servizio delle fatture?"),
        *bash("c1", "pytest tests/test_health.py", "3 passed in 0.4s"),
        say("Ho aggiunto l'endpoint `/health` al servizio delle fatture; i test passano."),
    ]
    sections = by_section(render_state(extract_working_state(messages)))
    assert "Finished: “Puoi aggiungere un controllo di salute" in sections["done"]
    assert "Ho aggiunto l'endpoint `/health`" in sections["done"]
    assert "Working on" not in sections.get("in_progress", "")


# --- a report with no request to file it under ---------------------------------------------


def test_a_report_without_a_request_stands_under_done_not_as_a_fact() -> None:
    messages = [  # a slash command opens the session: no request of the user's in words
        user("<command-name>/init</command-name>\n<command-message>init</command-message>"),
        act(call("w1", "write", path="AGENTS.md", content="# Notes"), text="Writing the guide."),
        result("w1", "write", "File created successfully at: AGENTS.md"),
        say("I've written AGENTS.md with the build commands and the layout of the tests."),
    ]
    sections = by_section(render_state(extract_working_state(messages)))
    assert "I've written AGENTS.md with the build commands" in sections["done"]
    assert "I've written AGENTS.md" not in sections.get("critical", "")


def test_a_report_its_request_lists_is_not_repeated_as_a_line_of_its_own() -> None:
    messages = [
        user("이제 배포 스크립트를 정리해 줘."),
        *bash("c1", "git mv deploy.sh scripts/deploy.sh", ""),
        say("배포 스크립트를 `scripts/` 폴더로 이동했습니다.\n\n- 실행 권한을 추가했습니다"),
    ]
    done = by_section(render_state(extract_working_state(messages)))["done"]
    assert "실행 권한을 추가했습니다" in done
    assert "- Reported: " not in done  # it stands in its request's line


# --- a user's choice in another language ---------------------------------------------------


@pytest.mark.parametrize(
    "choice",
    [
        "Opzione B, grazie.",
        "Vamos con la opción 2, es más barata.",
        "On part sur Postgres pour la base.",
        "웹 앱으로 가자.",
        "Kita pakai Supabase saja.",
        "Fico com o plano mensal.",
    ],
)
def test_a_choice_in_another_language_is_a_choice(choice: str) -> None:
    assert user_choices(choice, short_reply=False) == [choice]


def test_a_question_about_the_options_chooses_nothing() -> None:
    assert user_choices("¿Qué opción recomiendas para la caché?", short_reply=False) == []


def test_a_users_choice_in_italian_stands_under_key_decisions() -> None:
    messages = [
        user("Devo ricevere le email di verifica in locale, come faccio?"),
        say("Ci sono due strade: A) un server SMTP finto come Mailpit, B) un account Gmail."),
        user("Opzione A, usiamo Mailpit nel docker compose."),
    ]
    sections = by_section(render_state(extract_working_state(messages)))
    assert "Opzione A, usiamo Mailpit nel docker compose." in sections["decisions"]


# --- a failure in the user's words, in another language ------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Non vedo niente nella casella, il codice non arriva.",
        "El botón de guardar no funciona.",
        "La page ne s'affiche pas après la connexion.",
        "Loginnya masih error.",
        "저장할 때 오류가 발생해.",
    ],
)
def test_a_users_failure_report_in_another_language_is_one(said: str) -> None:
    assert user_reported_failure(said) == said


def test_a_users_italian_failure_report_stands_under_failed_approaches() -> None:
    messages = [
        user("Configura l'invio delle email di verifica con Mailpit."),
        *bash("c1", "docker compose up -d mailpit", "Container mailpit Started"),
        say("Ho aggiunto Mailpit al docker compose e riavviato il backend."),
        user("Non vedo niente nella casella, il codice non arriva."),
    ]
    failed = by_section(render_state(extract_working_state(messages)))["failed"]
    assert "Non vedo niente nella casella" in failed


# --- an error the assistant names ----------------------------------------------------------


def test_an_error_the_assistant_names_stands_under_failed_approaches() -> None:
    messages = [
        user("The sync job stopped importing invoices last night, can you look?"),
        *bash("c1", "tail -5 logs/sync.log", "ECONNREFUSED 127.0.0.1:5432"),
        say(
            "The error `ECONNREFUSED 127.0.0.1:5432` in the sync log means the Postgres "
            "container `db-main` is not running."
        ),
    ]
    sections = by_section(render_state(extract_working_state(messages)))
    assert "container `db-main` is not running" in sections["failed"]
    assert "container `db-main` is not running" not in sections.get("critical", "")


# --- a todo list the agent wrote -----------------------------------------------------------


_TODOS = [
    {"content": "Port parse_date to Rust", "status": "completed"},
    {"content": "Port format_span to Rust", "status": "in_progress"},
    {"content": "Delete the Python date module", "status": "pending"},
]
_CHECKLIST = (
    "[x] Port parse_date to Rust\n[-] Port format_span to Rust\n[ ] Delete the Python date module"
)


@pytest.mark.parametrize(
    ("tool", "todos"), [("TodoWrite", _TODOS), ("update_todo_list", _CHECKLIST)]
)
def test_a_todo_list_puts_its_finished_items_under_progress_and_the_rest_in_next_steps(
    tool: str, todos: object
) -> None:
    messages = [
        user("Port the date helpers from Python to Rust."),
        act(call("t1", tool, todos=todos)),
        result("t1", tool, "Todo list updated."),
    ]
    sections = by_section(render_state(extract_working_state(messages)))
    assert "Port parse_date to Rust" in sections["in_progress"]
    assert "Port format_span to Rust" in sections["next"]
    assert "Delete the Python date module" in sections["next"]


# --- a sub-agent's report ------------------------------------------------------------------


def test_what_a_sub_agent_reports_it_did_is_progress_of_the_request() -> None:
    report = (
        "The task is complete. I have modified `rates.py`.\n\n**Changes:**\n"
        "1. Added `retry(times=3, backoff=2.0)` around the HTTP call in `fetch_rates()`.\n"
        "2. Added a test for the third attempt succeeding."
    )
    messages = [
        user("Add retries to the exchange-rate client."),
        act(call("s1", "task", description="Implement retries", prompt="Retry fetch_rates")),
        result("s1", "task", report),
    ]
    sections = by_section(render_state(extract_working_state(messages)))
    assert "Added `retry(times=3, backoff=2.0)`" in sections["in_progress"]


# --- a tool's own verdict that it failed ---------------------------------------------------


@pytest.mark.parametrize(
    ("output", "line"),
    [
        (
            "Failed to edit, 0 occurrences found for old_string in app/view.html.",
            "Failed to edit, 0 occurrences found for old_string in app/view.html.",
        ),
        (
            "[write_to_file for 'config/.env'] Result:\nThe user denied this operation.",
            "The user denied this operation.",
        ),
    ],
)
def test_a_tool_result_that_opens_with_its_failure_reports_it(output: str, line: str) -> None:
    assert reported_failure(output) == line


def test_a_failure_word_further_down_a_successful_output_is_no_verdict() -> None:
    assert reported_failure("Build finished in 2.1s\nFailed to load optional plugin") is None


# --- dense Done lines ----------------------------------------------------------------------


def test_a_reports_labels_are_not_items_of_what_was_done() -> None:
    report = "I've updated the retry logic.\n\n**Changes:**\n- Added a backoff of 2 s\n"
    done = reported_done(report)
    assert "Added a backoff of 2 s" in done
    assert not any(item.strip("*").endswith(":") for item in done)


def test_a_finished_requests_report_is_said_once() -> None:
    messages = [
        user("Rename the `legacy` flag to `compat` in the settings loader."),
        *bash("c1", "pytest tests/test_settings.py", "5 passed in 0.2s"),
        say(
            "Done. I've renamed the flag.\n\n"
            "- Renamed `legacy` to `compat` in `settings.py`\n"
            "- Updated the two tests that set it"
        ),
    ]
    done = by_section(render_state(extract_working_state(messages)))["done"]
    assert done.count("Renamed `legacy` to `compat`") == 1
    assert "- Finished: “Rename the `legacy` flag" in done


def test_a_middle_request_finished_with_a_report_is_one_line() -> None:
    messages = [user("Set up the project skeleton."), say("Done, I've created the skeleton.")]
    messages += [
        user("Rename the `legacy` flag to `compat` in the settings loader."),
        say("Done. I've renamed the flag.\n\n- Renamed `legacy` to `compat` in `settings.py`"),
    ]
    later = (
        "Please add a changelog entry for the rename.",
        "Write a README section about the compat flag.",
        "Add a CI job that runs the settings tests.",
    )
    for step in later:
        messages += [user(step), say("Done, I've updated it.")]
    done = by_section(render_state(extract_working_state(messages)))["done"]
    lines = [line for line in done.splitlines() if "Renamed `legacy` to `compat`" in line]
    assert len(lines) == 1
    assert lines[0].startswith("- Finished: “Rename the `legacy` flag")


def test_a_long_report_listed_under_its_request_is_not_listed_again() -> None:
    # the request's "Reported done so far" cuts a long item; the statement it was cut
    # from is the same report, not a second one
    report = (
        "I've moved the retry loop out of `fetch_page` into its own helper so that the timeout "
        "and the backoff are set in one place, and the old inline loop in the crawler is gone."
    )
    state = extract_working_state([user("Clean up the crawler's retry handling."), say(report)])
    text = render_state(state)
    assert "Reported done so far: I've moved the retry loop" in text
    assert "- Reported: I've moved the retry loop" not in text
