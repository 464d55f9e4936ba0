"""Classes of correction on text we did not write (issue 11, item 5), each tested on
phrasings written for this file: an apology that corrects, a statement said again in the
same words around another value (no cue word), a corrected path, a port named in another
language. The negative cases are values that are all true at once."""

from __future__ import annotations

from typing import Any

import pytest

from synopsis.state import extract_working_state, guard_summary, render_state
from synopsis.state._restated import same_frame
from synopsis.state.statements import value_classes
from tests.state.builders import say, user


def checkpoint(*said: str) -> str:
    messages: list[dict[str, Any]] = [user("Help me set up the service.")]
    for text in said:
        messages += [user(text), say("Noted.")]
    return render_state(extract_working_state(messages))


def assert_replaced(first: str, correction: str, old: str, new: str) -> None:
    """After ``first`` and its ``correction``, the new value stands and the old is gone."""
    text = checkpoint(first, correction)
    assert new in text
    assert old not in text


@pytest.mark.parametrize(
    ("first", "correction", "old", "new"),
    [
        ("The metrics exporter binds to port 9100.", "Oops, the exporter port is 9187.",
         "9100", "9187"),
        ("We need the hall for 40 guests.", "My mistake — it will be 55 guests.", "40 guests",
         "55 guests"),
        ("La cena es el viernes a las 20:30.", "Disculpa, la cena es a las 21:15.", "20:30",
         "21:15"),
        ("会议定在下午 3 点。", "抱歉，我说错了，会议是下午 4 点。", "下午 3 点", "下午 4 点"),
        ("Toplantı perşembe saat 09:45.", "Pardon, toplantı saat 10:30 olacak.", "09:45", "10:30"),
    ],
)  # fmt: skip
def test_an_apology_that_states_another_value_corrects_it(
    first: str, correction: str, old: str, new: str
) -> None:
    assert_replaced(first, correction, old, new)


def test_an_apology_for_something_else_corrects_nothing() -> None:
    text = checkpoint(
        "The production host is api.prod.internal on port 443.",
        "Sorry for the delay, the staging host is api.stage.internal on port 8443.",
    )
    assert "port 443" in text
    assert "8443" in text


@pytest.mark.parametrize(
    ("first", "again", "old"),
    [
        ("The demo for the board is scheduled for June 4.",
         "The demo for the board is scheduled for June 11.", "June 4"),
        ("Our monthly cloud budget is $1,200.", "Our monthly cloud budget is $1,450.", "$1,200"),
        ("The nightly backup starts at 01:30.", "OK so the nightly backup starts at 02:45.",
         "01:30"),
    ],
)  # fmt: skip
def test_the_same_words_around_another_value_update_it_without_a_cue(
    first: str, again: str, old: str
) -> None:
    text = checkpoint(first, again)
    assert again.split()[-1].rstrip(".") in text
    assert old not in text


@pytest.mark.parametrize(
    ("first", "second", "both"),
    [
        ("Ticket INC-3301 is assigned to me.", "Ticket INC-3307 is assigned to me.",
         ("INC-3301", "INC-3307")),
        ("The web tier runs on port 8080.", "The admin tier runs on port 9090.", ("8080", "9090")),
        ("The staging bucket is in eu-west-1 since March 2.",
         "The archive bucket is in us-east-2 since March 9.", ("March 2", "March 9")),
    ],
)  # fmt: skip
def test_values_of_different_subjects_all_stay(
    first: str, second: str, both: tuple[str, str]
) -> None:
    text = checkpoint(first, second)
    assert all(value in text for value in both)


def test_a_frame_needs_words_besides_its_value() -> None:
    assert not same_frame("At 10:00.", "At 11:00.")
    assert same_frame("Checkout is at 11:00 sharp.", "Checkout is at 12:00 sharp.")


@pytest.mark.parametrize(
    ("first", "correction", "old", "new"),
    [
        ("The logs go to /var/log/ingest/worker.log.",
         "Wrong file, they go to /var/log/ingest/consumer.log.", "worker.log", "consumer.log"),
        ("Put the key in ~/keys/deploy.pem.", "Sorry, wrong folder: ~/secrets/deploy.pem.",
         "~/keys/deploy.pem", "~/secrets/deploy.pem"),
    ],
)  # fmt: skip
def test_a_corrected_path_replaces_the_old_one(
    first: str, correction: str, old: str, new: str
) -> None:
    assert_replaced(first, correction, old, new)


def test_another_file_in_another_place_replaces_no_path() -> None:
    text = checkpoint(
        "The schema lives in db/schema/orders.sql.",
        "Actually, also read docs/api/overview.md before you start.",
    )
    assert "db/schema/orders.sql" in text
    assert "docs/api/overview.md" in text


@pytest.mark.parametrize(
    ("sentence", "value"),
    [("El puerto del servidor de correo es 2525.", "2525"), ("A porta do proxy é 3128.", "3128")],
)
def test_the_port_word_of_another_language_names_a_port(sentence: str, value: str) -> None:
    assert ("port", value) in value_classes(sentence)


def test_a_url_path_is_no_file_path() -> None:
    assert not any(c == "path" for c, _ in value_classes("See https://example.org/docs/a.html"))


# --- the assistant corrects what it just said -------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "fix", "old", "new"),
    [
        ("The staging cluster runs Kubernetes 1.27.",
         "I misread the output: the staging cluster runs Kubernetes 1.29.", "1.27", "1.29"),
        ("The invoice run is scheduled for the 3rd.",
         "My mistake, the invoice run is scheduled for the 5th.", "the 3rd", "the 5th"),
    ],
)  # fmt: skip
def test_the_assistant_naming_its_own_mistake_replaces_its_value(
    claim: str, fix: str, old: str, new: str
) -> None:
    messages = [user("Check what the cluster runs."), say(claim), say(fix)]
    text = render_state(extract_working_state(messages))
    assert new in text
    assert old not in text


def test_the_assistant_correcting_one_of_two_values_keeps_the_other() -> None:
    messages = [
        user("Which queues do we have?"),
        say("The billing queue holds 40 workers. The email queue holds 12 workers."),
        say("Correction: the billing queue holds 48 workers."),
    ]
    text = render_state(extract_working_state(messages))
    assert "12 workers" in text
    assert "48 workers" in text


@pytest.mark.parametrize(
    ("first", "moved", "old", "new"),
    [
        ("La auditoría es el 7 de octubre.", "El auditor la pasó al 14 de octubre.",
         "7 de octubre", "14 de octubre"),
        ("Demo cuma saat 10:00.", "Müşteri demoyu 14:15'e erteledi.", "10:00", "14:15"),
    ],
)  # fmt: skip
def test_a_value_another_party_moved_in_spanish_or_turkish(
    first: str, moved: str, old: str, new: str
) -> None:
    assert_replaced(first, moved, old, new)


@pytest.mark.parametrize("sentence", ["cd /d into the folder", "type /init to start", "and/or"])
def test_a_flag_or_a_slash_command_is_no_path(sentence: str) -> None:
    assert not any(c == "path" for c, _ in value_classes(sentence))


def test_the_guard_keeps_a_request_whose_value_was_corrected_as_the_renderer_does() -> None:
    state = extract_working_state(
        [user("Never schedule the launch later than 2026-04-10."), user("改成 April 17")]
    )
    guarded = guard_summary("", state).text
    assert "Never schedule the launch later than" in guarded
    assert "2026-04-10" not in guarded
    assert "Never schedule the launch later than" in render_state(state)
