"""A user's message that states their choices stands once, under Key Decisions, whole —
not split between a choice there and the same message under Critical Context. Histories
written for this test."""

from __future__ import annotations

from tests.state.builders import by_section, say, summarize, user

_SCOPE = (
    "처음에는 창고 두 곳에 한해 먼저 서비스를 만들어 보고 점차 확대하는 식으로 진행할 예정이야. "
    "그리고 배송과 관련된 부분도 제외하고 입고-출고 관리로 범위를 확정할꺼야."
)


def test_a_message_of_choices_is_listed_whole_under_key_decisions() -> None:
    history = [
        user("사내 재고 관리 서비스를 기획하고 있어. 어떤 구조가 좋을까?"),
        say("웹 앱이나 엑셀 중에서 고를 수 있습니다. 범위는 어떻게 할까요?"),
        user(_SCOPE),
        say("알겠습니다. 범위를 반영해서 문서를 업데이트했습니다."),
    ]
    sections = by_section(summarize(history))
    decisions = sections.get("decisions", "")
    assert _SCOPE in decisions
    assert decisions.count("User chose:") == 1  # its two choices: the message, once
    assert "배송과 관련된 부분도 제외" not in sections.get("critical", "")


def test_a_fact_said_beside_a_choice_stays_context() -> None:
    history = [
        user("Build an inventory service for the warehouse team with an API and a web page."),
        say("Which database should it use: Postgres or SQLite?"),
        user(
            "We will go with Postgres for the inventory service. Returns stay out of scope "
            "for the first release, the team handles them by hand."
        ),
        say("Understood, I'll use Postgres."),
    ]
    sections = by_section(summarize(history))
    assert "go with Postgres" in sections.get("decisions", "")
    assert "Returns stay out of scope" not in sections.get("decisions", "")
