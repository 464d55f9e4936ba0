"""Under a hard cap a checkpoint says more per token: facts in their dense form, the facts
of one entry on one line, a choice said once, the unfinished requests without their last
report — and the original request is the last request to go."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from synopsis.state import extract_working_state, render_state
from synopsis.state.guard import guard_summary
from synopsis.state.render import FACT_LABEL
from synopsis.state.render._fitting import _layout_text, _said_once, _terse_line, dense_fact
from synopsis.state.render._items import _Item
from synopsis.state.sections import parse_sections
from tests.state.builders import act, call, result, say, user


def _section(text: str, kind: str) -> list[str]:
    return [item for k, _, items in parse_sections(text) if k == kind for item in items]


# --- the dense form of a fact --------------------------------------------------------------


def test_a_json_member_reads_as_what_it_states() -> None:
    assert dense_fact('"locker_code": "QX-3318",') == "locker_code: QX-3318"
    assert dense_fact('"seats_left": 4') == "seats_left: 4"
    assert dense_fact('"owner <mira@fabrikam.example>",') == "owner <mira@fabrikam.example>"


def test_table_columns_close_up_and_the_negation_stays() -> None:
    row = "eu-west-2    | NOT replicated   | 97 GB"
    assert dense_fact(row) == "eu-west-2 | NOT replicated | 97 GB"


def test_prose_stays_as_it_was_said() -> None:
    said = "The warehouse in Ghent ships on Tuesdays only, not on holidays."
    assert dense_fact(said) == said
    assert dense_fact('""') == '""'  # an empty string states nothing to unquote


@given(st.text(alphabet=st.sampled_from(list('ab 9:"-,\t')), max_size=40))
def test_the_dense_form_drops_only_spacing_quotes_and_commas(text: str) -> None:
    def content(value: str) -> str:
        return re.sub(r'[\s",]', "", value)

    assert content(dense_fact(text)) == content(text)
    assert len(dense_fact(text)) <= len(text.strip())


def test_a_terse_fact_line_is_dense() -> None:
    assert _terse_line('- fact: "gate":   "B14",') == "- fact: gate: B14"


# --- facts of one entry share a line over a hard cap ---------------------------------------


def _facts(group: str | None) -> list[_Item]:
    return [
        _Item("critical", f"{FACT_LABEL}courier: Ostara Freight", 8, 1, group),
        _Item("critical", f"{FACT_LABEL}pallets: 14", 8, 2, group),
        _Item("critical", "- id: PO-55120", 9, 3),
        _Item("critical", f"{FACT_LABEL}dock: 7", 8, 4, group),
    ]


def test_over_a_hard_cap_the_facts_of_one_entry_share_a_line() -> None:
    text = _layout_text(_facts("m4"), "checkpoint", bare=True)
    critical = _section(text, "critical")
    # the value line between them ends the run: the dock fact opens a line of its own
    assert critical == [
        "- fact: courier: Ostara Freight; pallets: 14",
        "- id: PO-55120",
        "- fact: dock: 7",
    ]


def test_within_the_size_each_fact_has_its_line() -> None:
    critical = _section(_layout_text(_facts("m4"), "checkpoint"), "critical")
    assert len(critical) == 4


def test_facts_of_no_known_entry_are_not_joined() -> None:
    critical = _section(_layout_text(_facts(None), "checkpoint", bare=True), "critical")
    assert len(critical) == 4


# --- a choice said once ---------------------------------------------------------------------


def test_under_a_cap_a_choice_a_rule_states_is_said_by_the_rule() -> None:
    items = [
        _Item("constraints", "- Window seats only, and no red-eye flights.", 1000, 0),
        _Item("decisions", "- User chose: Window seats only, and no red-eye flights.", 9, 1),
        _Item("decisions", "- User chose: the 7:40 departure from Oslo.", 9, 2),
    ]
    kept = _said_once(items, terse=True)
    assert [item.order for item in kept] == [0, 2]
    # within the size target a choice stays in its own section
    assert _said_once(items) == items


def test_under_a_cap_a_choice_a_request_states_stays_in_key_decisions() -> None:
    items = [
        _Item("goal", "- Fine, take the 7:40 departure from Oslo and book it.", 12, 0),
        _Item("decisions", "- User chose: take the 7:40 departure from Oslo", 9, 1),
    ]
    assert _said_once(items, terse=True) == items


def test_under_a_cap_a_choice_and_the_same_choice_with_its_proposal_are_one_line() -> None:
    items = [
        _Item("decisions", "- User chose: Take the ferry at noon, not the bridge.", 9, 0),
        _Item(
            "decisions",
            "- User chose: Take the ferry at noon, not the bridge. → Ferry or bridge?",
            9,
            1,
        ),
    ]
    assert len(_said_once(items, terse=True)) == 1


# --- requests under a cap -------------------------------------------------------------------


def test_an_unfinished_earlier_request_loses_its_last_report_under_a_cap() -> None:
    line = "- Earlier request, not reported done: “Compare the two quotes.” → Quote A: 2,100 …"
    assert _terse_line(line) == "- Earlier request, not reported done: “Compare the two quotes.”"


def _requests() -> list[dict[str, object]]:
    return [
        user("Plan the team offsite in Lisbon for the second week of May, twelve people."),
        say("Venue shortlist sent."),
        user("Now check flights from Berlin for the same dates."),
        say("Flights checked: four options."),
        user("Also look for a dinner place near the venue that seats twelve."),
    ]


def test_when_one_request_fits_it_is_the_original_one() -> None:
    state = extract_working_state(_requests())
    goals = _section(render_state(state, max_tokens=30), "goal")
    assert goals and "offsite in Lisbon" in goals[0]


def test_a_prior_goal_line_the_state_holds_as_a_fact_does_not_lead_goal() -> None:
    """The names the user gave when asked opened a split turn: the previous checkpoint
    listed them as that turn's request; the state holds them as a fact."""
    messages = [
        user("Book a table for six at a seafood place in Porto on Friday at eight."),
        act(call("f1", "find_tables", city="Porto", size=6)),
        result("f1", "find_tables", '{"venue": "Casa do Mar", "time": "20:00"}'),
        say("Casa do Mar has a table at 20:00. Under which names should I book it?"),
        user("Rita Sousa and Pedro Sousa, both on the booking please."),
    ]
    state = extract_working_state(messages)
    assert any("Rita Sousa" in fact.text for fact in state.current_facts())
    previous = (
        "## Goal\n- Rita Sousa and Pedro Sousa, both on the booking please.\n"
        "- Book a table for six at a seafood place in Porto on Friday at eight.\n"
    )
    text = render_state(state, previous_summary=previous)
    goals = _section(text, "goal")
    assert goals[0] == "- Book a table for six at a seafood place in Porto on Friday at eight."
    assert "Rita Sousa" in text  # the fact is still said, as a fact


# --- the guard leaves no empty heading -----------------------------------------------------


def test_a_section_whose_only_line_states_a_replaced_value_goes_whole() -> None:
    messages = [
        user("Set up the load-test machines. The budget is $800 for them."),
        user("Actually keep spend under five hundred dollars."),
    ]
    state = extract_working_state(messages)
    summary = (
        "## Goal\n- Set up the load-test machines.\n\n"
        "## Key Decisions\n- Rent three large machines for the $800.\n\n"
        "## Critical Context\n- amount: five hundred dollars\n"
    )
    text = guard_summary(summary, state).text
    assert "$800" not in text
    assert "## Key Decisions" not in text
    assert "five hundred dollars" in text


def test_a_prior_dense_line_of_facts_the_state_states_again_is_not_repeated() -> None:
    messages = [
        user("Ship the spare parts to the Tartu depot."),
        act(call("q1", "quote_shipping", depot="Tartu")),
        result("q1", "quote_shipping", '{\n  "carrier": "Baltic Haul",\n  "pallets": 3\n}'),
        say("Baltic Haul can take 3 pallets this week. Shall I book it?"),
    ]
    state = extract_working_state(messages)
    facts = [f.text for f in state.current_facts()]
    assert '"carrier": "Baltic Haul",' in facts
    # a capped previous checkpoint listed the two facts of its entry on one dense line
    joined = "carrier: Baltic Haul; Baltic Haul can take 3 pallets this week."
    text = render_state(state, previous_summary=f"## Critical Context\n- fact: {joined}\n")
    assert joined not in text
    assert '- fact: "carrier": "Baltic Haul",' in text  # within the size: verbatim
    # a prior fact line the state does not state again is kept
    other = "## Critical Context\n- fact: carrier: Baltic Haul; the depot closes at 17:00\n"
    assert "the depot closes at 17:00" in render_state(state, previous_summary=other)


def _offsite_with_prior(prior_request: str) -> tuple[object, str]:
    state = extract_working_state(_requests()[:1])
    previous = f"## Goal\n- {prior_request}\n\n## Critical Context\n- fact: twelve people\n"
    return state, previous


def test_a_prior_request_the_state_does_not_hold_comes_after_the_original_one() -> None:
    state, previous = _offsite_with_prior("Also ask whether the venue has a projector.")
    goals = _section(render_state(state, previous_summary=previous), "goal")  # type: ignore[arg-type]
    assert goals == [
        "- Plan the team offsite in Lisbon for the second week of May, twelve people.",
        "- Also ask whether the venue has a projector.",
    ]


def test_under_a_cap_a_prior_request_the_state_does_not_hold_goes_before_its_facts() -> None:
    messages = [
        *_requests()[:1],
        act(call("v1", "find_venues", city="Lisbon")),
        result("v1", "find_venues", '{\n  "venue": "Casa Azul",\n  "capacity": 14\n}'),
        say("Casa Azul fits twelve. Shall I hold it?"),
    ]
    state = extract_working_state(messages)
    previous = "## Goal\n- Also ask whether the venue has a projector.\n"
    whole = render_state(state, previous_summary=previous)
    assert "projector" in whole and "Casa Azul" in whole
    for cap in range(30, 60, 2):
        text = render_state(state, previous_summary=previous, max_tokens=cap)
        if "projector" in text:
            assert "Casa Azul" in text, cap  # the state's fact outlasted the unbacked line


def test_a_failed_attempt_keeps_its_command_a_closed_code_span_and_a_cap_shortens_it() -> None:
    command = (
        "psql -h reports-replica-3.db.internal -U ops -d reports -c "
        '"GRANT SELECT ON ALL TABLES IN SCHEMA finance TO auditor_ro"'
    )
    messages = [
        user("Give the auditor read access to the finance schema."),
        *[
            act(call("g1", "bash", command=command)),
            result(
                "g1", "bash", "ERROR:  cannot execute GRANT in a read-only transaction", error=True
            ),
        ],
        act(call("g2", "bash", command=command.replace("replica-3", "primary-1"))),
        result("g2", "bash", "GRANT"),
        say("Granted on the primary; the replica is read-only."),
    ]
    state = extract_working_state(messages)
    tried = [i for i in _section(render_state(state), "failed") if i.startswith("- Tried bash")]
    assert tried and tried[0].count("`") == 2  # the cut command still closes its span
    terse = _terse_line(tried[0])
    assert len(terse) < len(tried[0])
    assert terse.endswith("read-only transaction; got past it later")
