"""A long brief — the specification of one piece of work, typed in one message — states
what the thing being built should do; those requirements are the request, not standing
rules. Its standing rules (never, always, forbidden) stay rules, and the same "should"
said in a short message stays a rule. Every text is written for this file."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from synopsis.state._patterns import lower_same
from synopsis.state._text import sentences
from synopsis.state.extract import extract_working_state
from synopsis.state.statements import BRIEF_CHARS, classify_all


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def rules_of(text: str) -> list[str]:
    state = extract_working_state([user(text)])
    return [c.text for c in state.current_constraints()]


def _padded(*sentences: str) -> str:
    """A brief: the sentences, then plain description until it is long enough."""
    filler = (
        "The app is a small tool for a bakery that tracks flour, sugar and butter by the "
        "kilogram and prints a list for the next delivery on Monday morning. "
    )
    text = " ".join(sentences)
    while len(text) < BRIEF_CHARS + 50:
        text += " " + filler
    return text


BRIEFS = [
    # (the requirement of the work, the rule beside it, which stays a rule)
    (
        "The order table should sort by delivery date and the totals row needs to stay "
        "visible while scrolling.",
        "Never delete a supplier record, archive it instead.",
    ),
    (
        "Stok ekranı her ürün için kalan miktarı göstermeli ve liste tarihe göre sıralanmalı.",
        "Veritabanındaki kayıtları asla elle silme.",
    ),
    (
        "Die Bestellliste muss nach Lieferdatum sortiert sein und die Summenzeile "
        "müssen wir unten fixieren.",
        "Lösche niemals einen Lieferanten aus der Datenbank.",
    ),
    (
        "A tela de estoque deve mostrar a quantidade restante de cada produto na lista.",
        "Nunca apague os pedidos antigos da base.",
    ),
    # a requirement with a standing word in it is a rule
    (
        "Each page should show twenty rows.",
        "The invoice export should never include the customer's card number.",
    ),
    # what the one addressed is to do is a rule
    (
        "The report screen should load in under two seconds.",
        "You should ask me before you change the database schema.",
    ),
    # the "only" of a requirement is the requirement's
    (
        "The refund button should only appear for orders paid by card.",
        "Only use the payments sandbox, never the live keys.",
    ),
    (
        "Fatura listesi sadece bu ayın kayıtlarını göstermelidir.",
        "Sadece test veritabanını kullan.",
    ),
    # a stressed step of the work
    (
        "You must ensure that the nightly job writes its report to the shared folder.",
        "Do not email the suppliers directly.",
    ),
]


@pytest.mark.parametrize(("requirement", "standing"), BRIEFS)
def test_a_briefs_requirements_are_not_rules_its_standing_rules_are(
    requirement: str, standing: str
) -> None:
    rules = rules_of(_padded(requirement, standing))
    assert not any(requirement[:30] in rule for rule in rules), rules
    assert any(standing[:25] in rule for rule in rules), rules


@pytest.mark.parametrize(
    "text",
    [
        "The order table should sort by delivery date.",
        "Stok ekranı her ürün için kalan miktarı göstermeli.",
        "A tela de estoque deve mostrar a quantidade restante.",
    ],
)
def test_the_same_requirement_in_a_short_message_stays_a_rule(text: str) -> None:
    assert any(text[:30] in rule for rule in rules_of(text))


def test_a_briefs_requirement_that_names_a_value_is_kept_as_a_fact() -> None:
    text = _padded("The label printer should use the 62 mm roll from tray 2.")
    state = extract_working_state([user(text)])
    assert not any("62 mm" in c.text for c in state.current_constraints())
    assert any("62 mm" in f.text for f in state.current_facts())


_POOL = [
    "The order table should sort by delivery date.",
    "Never delete a supplier record.",
    "Stok ekranı kalan miktarı göstermeli.",
    "Veritabanına asla elle yazma.",
    "Make sure the nightly export keeps its header.",
    "Is the printer on the second floor?",
    "The bakery opens at 6:30 on weekdays.",
    "Die Liste muss nach Datum sortiert sein.",
    "El botón debe quedar abajo a la derecha.",
    "Only use the staging database.",
    "We deliver to 14 shops in the north.",
]


@settings(max_examples=60, deadline=None)
@given(hst.lists(hst.sampled_from(_POOL), min_size=8, max_size=30))
def test_a_brief_only_turns_rules_into_facts(chosen: list[str]) -> None:
    """Against each sentence said alone, a brief changes nothing but rule → fact."""
    text = " ".join(chosen)
    if len(text) < BRIEF_CHARS:
        text = _padded(text)
    low = lower_same(text)
    spans = sentences(text)
    alone = [classify_all(text[a:b], low[a:b], [(0, b - a)])[0] for a, b in spans]
    together = classify_all(text, low, spans)
    for one, brief in zip(alone, together, strict=True):
        assert one == brief or (one, brief) == ("rule", "fact")
