"""A weekday replacing a weekday, in the languages with rules (issue 11, item 5): the
days are values of one kind ("date") whatever language names them, so an update that
moves a day retires the old one. The cases are written here in new words; the old day
stands in the checkpoint before the update (so each case can fail)."""

from __future__ import annotations

import json

import pytest

from synopsis.state import extract_working_state, render_state
from synopsis.state import statements as st
from tests.state.builders import say, user

OPENING = [user("Help me plan the team's week."), say("Sure.")]


@pytest.mark.parametrize(
    ("first", "later", "old", "new"),
    [
        ("Das Training ist am Dienstag.", "Wir haben das Training auf Donnerstag verschoben.",
         "Dienstag", "Donnerstag"),
        ("Họp nhóm vào thứ Ba.", "Dời họp nhóm sang thứ Năm nhé.", "thứ Ba", "thứ Năm"),
        ("La consegna è lunedì.", "Abbiamo spostato la consegna a giovedì.", "lunedì",
         "giovedì"),
        ("Chỉ chạy job vào thứ Hai.", "Đổi sang thứ Sáu nhé.", "thứ Hai", "thứ Sáu"),
        ("La réunion doit être le mardi.", "Finalement, mettons-la le jeudi.", "mardi",
         "jeudi"),
    ],
)  # fmt: skip
def test_a_moved_weekday_leaves_the_checkpoint(first: str, later: str, old: str, new: str) -> None:
    said = [*OPENING, user(first), say("Noted.")]
    assert old in render_state(extract_working_state(said))
    state = extract_working_state([*said, user(later), say("OK.")])
    text = render_state(state)
    assert new in text
    assert old not in text, text
    assert state.superseded_values().get(old) == new
    assert old in json.dumps(state.to_json(), ensure_ascii=False)


@pytest.mark.parametrize(
    ("sentence", "days"),
    [
        ("Le colis arrive vendredi ou samedi.", ["vendredi", "samedi"]),
        ("Am Montag und am Mittwoch ist das Büro zu.", ["Montag", "Mittwoch"]),
        ("Họp vào chủ nhật.", ["chủ nhật"]),
        # "thứ hai" after "lần" / "người" is "the second", no day
        ("Đây là lần thứ hai nó lỗi.", []),
        ("Người thứ ba là Lan.", []),
    ],
)
def test_weekdays_are_date_values_and_ordinals_are_not(sentence: str, days: list[str]) -> None:
    assert [v for c, v in st.value_classes(sentence) if c == "date"] == days
