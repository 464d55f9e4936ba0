"""Retirement (issue 11, item 5): once a value is corrected, no section of the checkpoint
states it — not the assistant's report of it, not a request or a choice that quotes it,
not a line an earlier checkpoint cut from a superseded statement — while the state keeps
it, with what replaced it, for audit. Values about different subjects both stay."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.eval.labels import contains
from synopsis.state import extract_working_state, render_state
from synopsis.state._retire import retire_line
from synopsis.state.guard import guard_summary
from synopsis.state.model import Fact, Identifier, WorkingState
from tests.state.builders import say, user


def _rendered(*messages: dict[str, Any]) -> tuple[str, str]:
    state = extract_working_state(list(messages))
    return render_state(state), json.dumps(state.to_json(), ensure_ascii=False)


_CORRECTIONS = {
    "en": (
        [
            user("Book the small meeting room for the design review."),
            say("Done: I booked room 305 on the 3rd floor for 14:00."),
            user("Wrong time: the booking should be at 16:00 instead of 14:00."),
            say("Fixed: room 305 is now booked for 16:00."),
        ],
        "14:00",
        "16:00",
    ),
    "zh": (
        [
            user("帮我订个会议室，开设计评审会。"),
            say("已经把会议室订在 3 楼 305，时间是下午 2 点。"),
            user("时间不对，是下午 4 点，不是下午 2 点。"),
            say("好的，已改成下午 4 点。"),
        ],
        "下午 2 点",
        "下午 4 点",
    ),
    "de": (
        [
            user("Organisiere bitte die Abholung vom Flughafen."),
            say("Erledigt: die Abholung ist am Freitag um 9:30 gebucht."),
            user("Korrektur: die Abholung ist um 11:15, nicht um 9:30."),
        ],
        "9:30",
        "11:15",
    ),
    "es": (
        [
            user("Pide cita en el taller para revisar los frenos."),
            say("Listo: la cita en el taller queda para las 10:45."),
            user("Me equivoqué de hora: la cita es a las 12:30, no a las 10:45."),
        ],
        "10:45",
        "12:30",
    ),
    "fr": (
        [
            user("Réserve une table pour le dîner d'équipe."),
            say("C'est fait : table réservée pour 19:30 au Bistrot Lyonnais."),
            user("Erreur de ma part : c'est 20:15, pas 19:30."),
        ],
        "19:30",
        "20:15",
    ),
    "pt": (
        [
            user("Agende a entrega do sofá."),
            say("Pronto: entrega marcada para as 9:00 de sábado."),
            user("Na verdade é às 13:30, não às 9:00."),
        ],
        "9:00",
        "13:30",
    ),
    "ru": (
        [
            user("Забронируй переговорную на завтра."),
            say("Готово: переговорная забронирована на 11:00."),
            user("Ошибка: нужно на 15:30, не на 11:00."),
        ],
        "11:00",
        "15:30",
    ),
}


@pytest.mark.parametrize("language", sorted(_CORRECTIONS))
def test_a_time_set_against_the_old_one_leaves_the_assistants_report(language: str) -> None:
    messages, old, new = _CORRECTIONS[language]
    text, details = _rendered(*messages)
    assert contains(text, new)
    assert not contains(text, old), text
    assert old in details  # kept for audit, with what replaced it


def test_correcting_one_of_two_ports_said_together_keeps_the_other() -> None:
    text, _ = _rendered(
        user("The staging proxy listens on port 8081 and the production proxy on port 8443."),
        say("Noted, I'll use those."),
        user("Correction: the staging proxy now listens on port 9091."),
        say("Got it."),
    )
    assert contains(text, "9091")
    assert contains(text, "8443"), text  # the production proxy's port is still true
    assert not contains(text, "8081"), text


_OLD = "The search cluster runs elastic seven, use elasticsearch:7.17.9 for the test container"
_CORRECTED = WorkingState(
    facts=(
        Fact(_OLD, "e1", classes=("version",), superseded_by="e3"),
        Fact("Recreate the container on elasticsearch:8.12.2.", "e3", classes=("version",)),
    ),
    identifiers=(
        Identifier("elasticsearch:7.17.9", "version", "e1", superseded_by="elasticsearch:8.12.2"),
        Identifier("elasticsearch:8.12.2", "version", "e3"),
    ),
)
_CUT_BEFORE = (
    "## Critical Context\n"
    "- fact: The search cluster runs elastic seven, use … for the test container\n"
)
"""How a checkpoint written while the correction was among the kept messages showed the
statement: its value of a known shape cut, the old value without a shape still in it."""


def test_a_statement_an_earlier_checkpoint_cut_leaves_the_next_one() -> None:
    text = render_state(_CORRECTED, previous_summary=_CUT_BEFORE)
    assert contains(text, "elasticsearch:8.12.2")
    assert not contains(text, "elastic seven"), text
    assert _OLD in json.dumps(_CORRECTED.to_json())  # the state keeps it for audit


def test_the_guard_drops_a_model_summary_line_that_is_a_cut_superseded_statement() -> None:
    summary = "## Goal\n- Keep the search container current.\n\n" + _CUT_BEFORE
    checked = guard_summary(summary, _CORRECTED)
    assert not contains(checked.text, "elastic seven"), checked.text
    assert contains(checked.text, "Keep the search container current")


def test_a_line_left_with_nothing_but_its_label_goes() -> None:
    assert retire_line("- User chose: 14:00", {"14:00": "16:00"}, frozenset()) is None
    shown = retire_line("- fact: lunch at 12:15, review at 14:00", {"14:00": "16:00"}, frozenset())
    assert shown == "- fact: lunch at 12:15, review at …"


def test_a_cut_statement_that_still_states_a_value_in_force_stays() -> None:
    retired = frozenset({"She leaves school at 4:30 and has piano at 10:00 on Saturday."})
    line = "- fact: She leaves school at 4:30 and has piano at … on Saturday."
    assert retire_line(line, {"10:00": "15:00"}, retired) == line


# --- hypothesis: whatever the words, the old value is nowhere ------------------------------

_TIMES = st.tuples(st.integers(6, 21), st.sampled_from(["00", "15", "30", "45"])).map(
    lambda t: f"{t[0]}:{t[1]}"
)
_HISTORIES = {
    "en": (
        "Please set up the call with the supplier, {other} is our lunch break.",
        "Done: the supplier call is booked for {old}.",
        "That's wrong, the supplier call has to be at {new}, not {old}.",
        "Fixed, the supplier call is now at {new}.",
    ),
    "zh": (
        "帮我安排和供应商的电话会，{other} 是午休。",
        "已经把供应商电话会定在 {old}。",
        "时间不对，电话会是 {new}，不是 {old}。",
        "好的，电话会已改到 {new}。",
    ),
    "de": (
        "Bitte plane den Anruf mit dem Lieferanten, um {other} ist Mittagspause.",
        "Erledigt: der Anruf mit dem Lieferanten ist für {old} eingetragen.",
        "Korrektur: der Anruf ist um {new}, nicht um {old}.",
        "Verstanden, der Anruf ist jetzt um {new}.",
    ),
}


@st.composite
def corrected(draw: st.DrawFn) -> tuple[list[dict[str, Any]], str, str, str]:
    old, new, other = draw(st.lists(_TIMES, min_size=3, max_size=3, unique=True))
    asked, reported, correction, confirmed = _HISTORIES[draw(st.sampled_from(sorted(_HISTORIES)))]
    values = {"old": old, "new": new, "other": other}
    messages = [
        user(asked.format(**values)),
        say(reported.format(**values)),
        user(correction.format(**values)),
        say(confirmed.format(**values)),
    ]
    return messages, old, new, other


@settings(max_examples=40, deadline=None)
@given(corrected())
def test_no_section_states_a_corrected_time(
    case: tuple[list[dict[str, Any]], str, str, str],
) -> None:
    messages, old, new, other = case
    state = extract_working_state(messages)
    text = render_state(state)
    assert contains(text, new)
    assert contains(text, other), text  # another slot's value is not the corrected one
    assert not contains(text, old), text
    assert old in json.dumps(state.to_json(), ensure_ascii=False)


# --- a corrected choice: another option named for the same thing ---------------------------


def test_a_choice_changed_to_another_option_retires_the_old_option() -> None:
    text, details = _rendered(
        user("We're adding a session cache to the API. Let's use Redis for the session cache."),
        say("I'll use Redis for the session cache, since it supports expiry natively."),
        user("Change of plan: we'll go with Memcached for the session cache, ops runs it."),
        say("Understood, I'll switch the session cache to Memcached."),
    )
    assert contains(text, "Memcached")
    assert not contains(text, "Redis"), text
    assert "Redis" in details


def test_a_chinese_change_of_tool_retires_the_old_tool() -> None:
    text, _ = _rendered(
        user("前端用 Webpack 打包，输出到 dist 目录。"),
        say("好的，我会用 Webpack 配置打包。"),
        user("算了，改用 Vite 打包前端吧，速度快。"),
        say("好的，已经换成 Vite。"),
    )
    assert contains(text, "Vite")
    assert not contains(text, "Webpack"), text


def test_an_added_option_or_the_next_target_replaces_nothing() -> None:
    added, _ = _rendered(
        user("Use ESLint for the frontend build checks."),
        say("OK, ESLint is set up."),
        user("Now also add Prettier to the frontend build checks."),
        say("Done."),
    )
    assert contains(added, "ESLint") and contains(added, "Prettier")
    moved_on, _ = _rendered(
        user("Split `billing/invoice_view.py` into smaller modules, keep its tests green."),
        say("Split it into three modules; tests pass."),
        user("Now do the same for `billing/refund_view.py`."),
        say("On it."),
    )
    assert contains(moved_on, "billing/invoice_view.py"), moved_on


def test_a_spanish_meeting_they_moved_leaves_its_old_time() -> None:
    text, _ = _rendered(
        user("Prepara el informe para la revisión. La revisión es el martes a las 9:45."),
        say("De acuerdo, tendré el informe listo para las 9:45 del martes."),
        user("Me avisan que movieron la revisión al viernes a las 12:15."),
        say("Entendido, el informe estará listo para el viernes a las 12:15."),
    )
    assert contains(text, "12:15")
    assert not contains(text, "9:45"), text


@pytest.mark.parametrize(("old", "new"), [("1024", "61024"), ("80", "8080"), ("443", "4430")])
def test_a_new_number_that_holds_the_old_ones_digits_still_replaces_it(old: str, new: str) -> None:
    # "61024" restates no "1024": the old port is a whole number, not digits of the new one
    state = extract_working_state(
        [
            user(f"Bring the staging stack up, the port is {old}."),
            say("OK."),
            user(f"Correction: the port is {new}."),
            say("Noted."),
        ]
    )
    assert state.superseded_values() == {old: new}
    assert not contains(render_state(state), old)


@pytest.mark.parametrize(
    ("first", "correction"),
    [
        ("Set up the demo server, the port is 7000.", "Actually the port is 7100, not 7000."),
        ("帮我把演示服务器搭起来，端口是 7000。", "更正一下，端口改成 7100。"),
    ],
)
def test_a_request_whose_value_was_corrected_is_still_the_request(
    first: str, correction: str
) -> None:
    state = extract_working_state([user(first), say("OK."), user(correction), say("Noted.")])
    text = render_state(state)
    goal = text.split("## Goal\n", 1)[1].split("\n\n", 1)[0]
    assert "(none)" not in goal  # the server is still to set up
    assert not contains(text, "7000")


@pytest.mark.parametrize(
    ("plan", "next_request"),
    [
        (
            "我在 `src/shop/pricing.py` 里改一下，再加一个测试。",
            "帮我再检查一下 `tests/test_cart.py`，我觉得有个测试的断言写错了。",
        ),
        (
            "I'll make the change in `src/shop/pricing.py` and add a test for it.",
            "Now check `tests/test_cart.py` again, I think a test assertion there is wrong.",
        ),
    ],
)
def test_a_request_about_another_file_replaces_no_file_of_the_first(
    plan: str, next_request: str
) -> None:
    # a file named later is the next thing to look at, not an option put in place of the
    # file the work was on
    state = extract_working_state(
        [
            user("我需要把 `src/shop/pricing.py` 拆成两个模块，行为和现有测试都不能变。"),
            say(plan),
            user(next_request),
            say("好的，我看一下。"),
        ]
    )
    assert "src/shop/pricing.py" not in state.superseded_values()
    assert "src/shop/pricing.py" in render_state(state)
