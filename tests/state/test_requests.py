"""Which user messages are requests, and how much of a message the Goal keeps.

Conversations written for these tests, in our own words (not taken from any corpus)."""

from __future__ import annotations

import pytest

from synopsis.state import extract_working_state
from synopsis.state.extract import goal_text, is_request
from tests.state.builders import say, user


def goals(*texts: str) -> list[str]:
    messages = []
    for text in texts:
        messages += [user(text), say("Done.")]
    return [g.text for g in extract_working_state(messages).goals]


def test_the_sentences_that_say_what_the_result_must_be_stay_with_the_request() -> None:
    text = (
        "Convert the export script to asyncio. Add a progress bar while it runs.\n"
        "It lives in tools/export.py."
    )
    assert goal_text(text) == (
        "Convert the export script to asyncio. Add a progress bar while it runs. "
        "It lives in tools/export.py."
    )


def test_a_rule_after_the_request_stands_under_constraints_not_in_the_goal() -> None:
    text = "Rename the users table to accounts. Never drop a column while doing it."
    assert goal_text(text) == "Rename the users table to accounts."


def test_a_later_paragraph_joins_only_a_short_request() -> None:
    short = "Fix the login bug.\n\nIt happens on Safari, right after the redirect."
    assert goal_text(short) == "Fix the login bug. It happens on Safari, right after the redirect."
    long = (
        "Please rework the nightly report so that it groups the rows by region and week.\n\n"
        "Unrelated, the office is closed on Friday."
    )
    assert goal_text(long).endswith("by region and week.")


def test_context_before_the_ask_is_kept_when_it_fits() -> None:
    text = "Our S3 bill doubled this month. Can you set up lifecycle rules on the log buckets?"
    assert goal_text(text) == text


def test_a_message_without_an_ask_keeps_only_its_first_sentence() -> None:
    text = "We fly out on the 3rd. The hotel is the one near the station. It has a pool."
    assert goal_text(text) == "We fly out on the 3rd."


@pytest.mark.parametrize(
    "text",
    [
        "the sidebar links still point at the old domain, so update them too",
        "The export page doesn't load any more after your change.",
        "why isn't the cache invalidated when the file changes?",
        "I get a KeyError when the config has no [db] section",
        "Проверь, почему тесты падают на CI после обновления.",
    ],
)
def test_later_messages_that_ask_are_requests(text: str) -> None:
    assert is_request(text)
    assert goals("Set up the project.", text)[-1] == goal_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "The staging database is Postgres 15 in eu-west-1.",
        "thanks, that looks right to me",
        "btw, did the coffee machine get fixed?",
        "We use Redis and use it for sessions only.",
        "Never log the tokens.",
    ],
)
def test_statements_asides_and_thanks_are_no_requests(text: str) -> None:
    assert not is_request(text)
    assert goals("Set up the project.", text) == ["Set up the project."]


def test_short_replies_are_no_requests() -> None:
    for reply in ("yes", "ok do it", "continue", "go ahead", "好的", "继续"):
        assert goals("Move the cron job to a systemd timer.", reply) == [
            "Move the cron job to a systemd timer."
        ]


def test_an_explicit_ask_past_the_window_joins_a_long_lead_in() -> None:
    lead = (
        "Right, time for the flaky suite. The integration tests fail about one run in five "
        "on CI and pass locally, mostly the ones that talk to the queue, and I suspect the "
        "fixtures share one broker between workers. We tried pinning pytest-xdist to one "
        "worker last week and it helped a bit but made the run take twenty minutes. "
    )
    ask = "Can you give every worker its own broker vhost?"
    goal = goal_text(lead + ask + " The CI config is in .ci/test.yml.")
    assert goal.startswith("Right, time for the flaky suite.")
    assert goal.endswith(f" … {ask}")


def test_can_we_asks() -> None:
    assert is_request("Can we also tag the release commit with the version number")


@pytest.mark.parametrize(
    "text",
    [
        # a fault report typed without its apostrophe asks for a fix all the same
        "the upload page doesnt load on firefox",
        "hmm the cart still isnt showing the discount",
        "it wont compile after the merge",
        "i cant connect to the staging db anymore",
        # an imperative whose verb is no common one of the older list
        "revert the last two commits on the branch",
        "translate the onboarding emails into German",
        "rerun the flaky integration suite with logging on",
        "summarize what changed in the billing module",
        # a question to the agent without its question mark
        "where did you put the generated migration",
        "why is the worker restarting every minute",
        # a Chinese verb with 一下, wherever it stands; a status code that is still there
        "部署完了以后，帮忙核对一下环境变量",
        "日志里看一下有没有超时",
        "the checkout page is still a 502 after your fix",
        "改完还是 404",
        # Russian, a question to the agent without its mark
        "зачем ты удалил тесты",
    ],
)
def test_fault_reports_without_apostrophes_and_other_imperatives_are_requests(text: str) -> None:
    assert is_request(text)


@pytest.mark.parametrize(
    "text",
    [
        "Listo, ahora sigamos con la pantalla de perfil.",
        "antes de subirlo probemos el formulario con datos reales",
        "Ok, procediamo con la migrazione del database.",
        "Voglio un grafico per ogni reparto.",
        "Então vamos configurar o deploy no Render.",
        "Bon, essayons la version sans cache.",
        # French imperatives typed without their accents
        "maintenant genere les types a partir du schema",
        "ok deplace la config dans un fichier a part",
        "apply the second half of the plan",
    ],
)
def test_lets_and_i_want_in_romance_languages_are_requests(text: str) -> None:
    assert is_request(text)


@pytest.mark.parametrize(
    "text",
    [
        "the release notes are in docs/CHANGES.md",
        # a verb that is also a noun, naming what happened
        "upload failed: read ECONNRESET",
        "Reset failed with a 403 from the identity provider.",
        "一下子来了很多订单。",
        "how it renders is described in the design doc",
        "Estamos en la rama de desarrollo.",
        "Abbiamo già il database su Supabase.",
        "Nous avons déjà une version en production.",
    ],
)
def test_statements_stay_no_requests(text: str) -> None:
    assert not is_request(text)
