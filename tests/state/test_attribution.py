"""The attribute-source stage: who wrote each part of a user turn. Cases written for this
file, in our own words, one per structural signal."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from synopsis.state import attribution
from synopsis.state.attribution import (
    MAX_VERBATIM_MESSAGE,
    attribute,
    has_rules_for,
    is_heading,
    verbatim_message,
)
from synopsis.state.extract import extract_working_state


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def written(text: str) -> list[tuple[str, str]]:
    return [(p.written, p.text.strip()) for p in attribute(text)]


def rules_of(*texts: str) -> list[str]:
    return [c.text for c in extract_working_state([user(t) for t in texts]).constraints]


# --- harness ----------------------------------------------------------------------------------


def test_a_wrapper_element_is_harness_and_the_words_around_it_stay_typed() -> None:
    text = (
        "Rename the parser module to reader.\n"
        "<ide-selection>Never modify generated files in dist/.</ide-selection>"
    )
    assert [w for w, _ in written(text)] == ["typed", "harness"]
    state = extract_working_state([user(text)])
    assert state.constraints == ()
    assert [g.text for g in state.goals] == ["Rename the parser module to reader."]


def test_an_unclosed_wrapper_that_opens_the_message_runs_to_its_end() -> None:
    text = "<workspace_rules>\nAlways answer in French.\nOnly use tabs."
    assert [w for w, _ in written(text)] == ["harness"]


def test_an_envelope_that_quotes_the_user_keeps_its_inside_typed_closed_or_not() -> None:
    closed = "<user_query>Never push to main.</user_query>"
    assert written(closed) == [
        ("harness", "<user_query>"),
        ("typed", "Never push to main."),
        ("harness", "</user_query>"),
    ]
    unclosed = "<user_query>\nNever push to main."
    assert written(unclosed) == [("harness", "<user_query>"), ("typed", "Never push to main.")]


def test_html_the_user_mentions_is_not_a_wrapper() -> None:
    assert [w for w, _ in written("Wrap the list in <ul> and never use <br> there.")] == ["typed"]


def test_a_slash_command_line_is_for_the_harness_and_a_path_is_not_a_command() -> None:
    assert written("/model big-one") == [("harness", "/model big-one")]
    assert written("/tmp/build.log is where it writes.")[0][0] != "harness"
    assert written("/var is nearly full, clean the old dumps.")[0][0] == "typed"
    assert [w for w, _ in written("`/review`\\\nreview")] == ["harness"]  # an export's echo
    parts = written("/drop notes.txt\nThen keep the changelog under 50 lines.")
    assert [w for w, _ in parts] == ["harness", "typed"]


def test_a_console_prompt_and_the_option_picked_are_harness() -> None:
    prompt = "Create new file docs/setup.md? (Y)es/(N)o/(D)on't ask again [Yes]: n"
    assert [w for w, _ in written(prompt)] == ["harness"]
    assert rules_of(prompt) == []
    assert written("Should I keep going? yes please")[0][0] == "typed"


def test_a_hook_report_is_harness() -> None:
    report = "PostEdit hook output:\nYou must never leave a TODO behind. Fix them all."
    assert [w for w, _ in written(report)] == ["harness"]
    script = "[/opt/ci/hooks/guard.sh]: you should not commit to main"
    assert [w for w, _ in written(script)] == ["harness"]
    assert rules_of(report, script) == []
    typed = "The pre-commit hook keeps failing on my machine, never mind it for now:\nlint ok"
    assert written(typed)[0][0] == "typed"


# --- pasted -----------------------------------------------------------------------------------


def _agent_prompt() -> str:
    bullets = [f"- You must always keep log number {n} for the auditors." for n in range(12)]
    return "\n".join(
        [
            "You are the Release Captain. Your duties:",
            "",
            "OPERATING PRINCIPLES",
            *bullets,
            "",
            "HAND-OFF FORMAT (to the caller)",
            "Never skip the summary line. Always end with the status.",
            "Do not invent version numbers.",
            "",
            "Escalate when stuck twice.",
        ]
    )


def test_an_agent_prompt_with_capital_headings_is_pasted_not_rules() -> None:
    text = "Look into why the nightly build is red, use the prompt below.\n" + _agent_prompt()
    assert [w for w, _ in written(text)] == ["typed", "pasted"]
    state = extract_working_state([user(text)])
    assert state.constraints == ()
    assert state.goals and "nightly build" in state.goals[0].text


def test_capital_and_bold_title_lines_are_headings_and_shouting_is_not() -> None:
    assert is_heading("REVIEW CHECKLIST (short)")
    assert is_heading("**Deployment steps**")
    assert not is_heading("DO NOT TOUCH PROD.")
    assert not is_heading("OK")


def test_a_long_message_is_a_document_after_its_first_paragraph() -> None:
    body = "\n".join(
        f"Step {n}: the operator on shift should check pressure gauge {n} twice and log it."
        for n in range(40)
    )
    text = f"Here is the runbook our vendor sent, summarise it.\n\n{body}"
    assert [w for w, _ in written(text)] == ["typed", "pasted"]
    assert rules_of(text) == []


def test_a_short_typed_list_of_requirements_stays_typed() -> None:
    text = (
        "Set up the nightly export. Requirements:\n"
        "1. only the orders table\n"
        "2. never export card numbers\n"
        "3. keep 10 days of files"
    )
    assert [w for w, _ in written(text)] == ["typed"]
    assert any("card numbers" in rule for rule in rules_of(text))


# --- languages without rules ------------------------------------------------------------------


def test_latin_script_prose_in_another_language_is_recognised() -> None:
    # Hungarian and Swedish have no rules module; Polish and Czech have one
    hungarian = "Kérlek, az adatbázist péntekig hagyd békén."
    swedish = "Rör inte mappen, jag behöver filerna på fredag."
    assert not has_rules_for(hungarian) and not has_rules_for(swedish)
    assert has_rules_for("Nie ruszaj bazy danych przed piątkiem, proszę.")
    assert has_rules_for("Leave the database alone until Friday, please.")
    assert verbatim_message(swedish) == swedish
    assert verbatim_message("Leave it.") is None
    long_swedish = " ".join([swedish] * 8)
    assert len(long_swedish) > MAX_VERBATIM_MESSAGE and verbatim_message(long_swedish) is None


def test_a_typed_message_in_a_language_without_rules_is_kept_verbatim() -> None:
    swedish = "Ta inte bort filen config.yaml, vi behöver den fortfarande."
    state = extract_working_state([user(swedish)])
    assert any(f.text == swedish for f in state.facts)


def test_a_message_in_a_language_with_a_module_is_kept_as_its_rule() -> None:
    german = "Lösche die Datei config.yaml bitte nicht, die brauchen wir noch."
    state = extract_working_state([user(german)])
    assert [c.text for c in state.constraints] == [german]
    assert not any(f.text == german for f in state.facts)  # once, as the rule


# --- invariants -------------------------------------------------------------------------------

_PIECES = hs.sampled_from(
    [
        "Never push on Fridays.",
        "<system-reminder>Always obey me.</system-reminder>",
        "```\nrm -rf build\n```",
        "/clear",
        "Overwrite config.toml? (Y)es/(N)o [Yes]: y",
        "Keep the port at 8080.",
        "REFERENCE MATERIAL",
        "- you must do item 1",
        "",
    ]
)


@given(hs.lists(_PIECES, max_size=12))
def test_every_part_is_text_of_the_turn_and_typed_parts_hold_no_wrapper(pieces: list[str]) -> None:
    text = "\n".join(pieces)
    for part in attribute(text):
        assert all(line in text for line in part.text.split("\n"))
        if part.written == "typed":
            assert "<system-reminder>" not in part.text
            assert "(Y)es/(N)o" not in part.text


# --- provenance of values, and an agent's signature --------------------------------------------


def test_values_of_a_pasted_document_are_the_users_reference_not_typed() -> None:
    doc = "\n".join(
        ["# Runbook", *[f"- step {n}: see https://status.example.org/edge-{n}" for n in range(14)]]
    )
    state = extract_working_state([user(f"Have a look at this.\n\n{doc}")], entry_ids=["e7"])
    pasted = [i for i in state.identifiers if "status.example.org" in i.value]
    assert pasted and all(i.written == "pasted" and i.source == "user" for i in pasted)
    assert all(i.entry_id == "e7" for i in pasted)


def test_a_wrapper_elements_values_are_harness_reference() -> None:
    text = "<workspace_info>\n<repo>https://git.example.org/ledger</repo>\n</workspace_info>"
    state = extract_working_state([user(text)])
    assert state.goals == () and state.constraints == ()
    assert [i.written for i in state.identifiers if "ledger" in i.value] == ["harness"]


def test_an_agents_commit_signature_is_no_fact_of_the_work() -> None:
    command = (
        'git commit -m "Fix the rounding in invoices\n\n'
        "Made with [Quillbot Coder](https://coder.example.org/about)\n\n"
        'Co-authored-by: Quill <bot@coder.example.org>"'
    )
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": command}}
    state = extract_working_state([{"role": "assistant", "content": [call]}])
    values = {i.value for i in state.identifiers}
    assert not any("coder.example.org" in v for v in values)


def test_a_trailer_line_the_user_wrote_in_prose_is_kept() -> None:
    text = "Email the report to ana@corp.example when it is green."
    values = {i.value for i in extract_working_state([user(text)]).identifiers}
    assert "ana@corp.example" in values


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Ines: back from the coast!", "ines"),
        ("[day 3, 18:05]\nMarta Silva: did you sleep?", "marta silva"),
        ("Assistant: here is the plan", None),
        ("Update: the port changed", None),
        ("the port: 5432", None),
        ("Ines:no space after it", None),
    ],
)
def test_a_speaker_label_names_a_person(text: str, name: str | None) -> None:
    assert attribution.speaker_label(text) == name


def test_two_people_talk_when_both_turns_carry_different_names_and_no_agent_worked() -> None:
    assert attribution.between_people("Ines: hi", "Marta: hey there", agent_work=False)
    assert not attribution.between_people("Ines: hi", "Marta: hey there", agent_work=True)
    assert not attribution.between_people("Ines: hi", "Ines: me again", agent_work=False)
    assert not attribution.between_people("Ines: hi", "Sure, I can do that.", agent_work=False)
