"""Corrections that change no value of a known shape (issue 11, item 5): a prohibition a
later message lifts, and a rule the user states again, changed. Each case is written
here in new words; the negative cases are two statements that are both true."""

from __future__ import annotations

from typing import Any

import pytest

from synopsis.state import extract_working_state, render_state
from synopsis.state._lifted import act_words, lifted, prohibitions
from tests.state.builders import say, user


def checkpoint(*messages: dict[str, Any]) -> str:
    return render_state(extract_working_state(list(messages)))


# --- a prohibition lifted --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "held", "later"),
    [
        ("Write the worker, but don't deploy the worker yet.", "don't deploy the worker",
         "Looks right. Go ahead and deploy the worker."),
        ("先把配置文件写好，先不要推送到远程仓库。", "先不要推送到远程仓库",
         "配置没问题，可以推送到远程仓库了。"),
        ("Prepara el script, pero todavía no ejecutes la migración.", "no ejecutes la migración",
         "Ahora ejecuta la migración, por favor."),
    ],
)  # fmt: skip
def test_a_later_message_that_allows_the_act_lifts_the_prohibition(
    request_text: str, held: str, later: str
) -> None:
    before = checkpoint(user(request_text), say("Done, nothing else touched."))
    assert held in before
    after = checkpoint(user(request_text), say("Done, nothing else touched."), user(later))
    assert held not in after


@pytest.mark.parametrize(
    ("request_text", "held", "later"),
    [
        # the same verb, another object: pushing the branch allows no push to main
        ("Never push to main directly.", "Never push to main directly",
         "Now push the feature branch."),
        # the message holds the act back again
        ("Don't restart the database.", "Don't restart the database",
         "Now fix the config, but don't restart the database yet."),
        # no cue that it is allowed now
        ("Do not drop the staging table.", "Do not drop the staging table",
         "We will drop the staging table after the audit."),
    ],
)  # fmt: skip
def test_a_prohibition_stays_unless_the_same_act_is_allowed(
    request_text: str, held: str, later: str
) -> None:
    assert [written for written, _ in prohibitions(request_text)] == [held]
    text = checkpoint(user(request_text), say("Understood."), user(later))
    assert held in text


def test_an_act_is_its_words_by_stem_and_han_pairs() -> None:
    assert act_words("run the migration") == ["run", "migra"]
    assert act_words("推送到远程") == ["推送", "送到", "到远", "远程"]


def test_lifting_needs_a_lift_cue() -> None:
    assert lifted(["please don't merge the branch"], "merge the branch") == []
    assert lifted(["please don't merge the branch"], "you can merge the branch") == [
        "don't merge the branch"
    ]


# --- a rule stated again, changed ------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "old_words", "second"),
    [
        ("Always put new rows at the top of the sheet, and the notes column must stay empty.",
         "at the top of the sheet",
         "That didn't do it, new rows still land at the bottom. Change it: new rows must go "
         "into the lowest-numbered free slot of the sheet, the notes column must stay empty."),
        ("以后导出的文件都放在桌面上，文件名必须带上日期。", "放在桌面上",
         "效果不行，换个方式：导出的文件必须放到下载文件夹，文件名必须带上日期。"),
    ],
)  # fmt: skip
def test_a_rule_said_again_changed_replaces_the_earlier_one(
    first: str, old_words: str, second: str
) -> None:
    text = checkpoint(user("Set up the export job."), user(first), say("OK."), user(second))
    assert old_words not in text
    assert second.split("，")[-1].split(", ")[-1].rstrip("。.") in text


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Never push to main without a review.", "Actually, also never force-push any tags."),
        ("Always use tabs in the Python files.", "Now, for YAML files always use two spaces."),
        ("生产环境的数据库不要直接改。", "另外，现在测试环境的配置文件也不要提交。"),
        # the same predicate of another subject
        ("The export button in the toolbar must never be greyed out on small screens.",
         "Actually, the settings dialog must never be greyed out on small screens either."),
    ],
)  # fmt: skip
def test_two_rules_that_are_both_true_both_stay(first: str, second: str) -> None:
    text = checkpoint(user("Set up the repo."), user(first), say("OK."), user(second))
    assert first in text
    assert second in text


# --- the rule record of a lifted prohibition ----------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "later"),
    [
        ("Draft the schema changes, and do not apply the migrations.",
         "Looks good, go ahead and apply the migrations."),
        ("先写接口，先不要合并到主分支。", "接口没问题，现在可以合并到主分支了。"),
        ("Escribe los tests, pero no ejecutes el despliegue todavía.",
         "Ya puedes ejecutar el despliegue."),
    ],
)  # fmt: skip
def test_a_rule_that_was_only_the_lifted_prohibition_is_no_current_constraint(
    request_text: str, later: str
) -> None:
    state = extract_working_state([user(request_text), say("Done."), user(later)])
    (rule,) = state.constraints
    assert rule.text == request_text  # kept for audit, with what replaced it
    assert rule.superseded_by is not None
    assert state.current_constraints() == ()


def test_a_rule_beside_the_lifted_prohibition_stays_in_force() -> None:
    state = extract_working_state(
        [
            user("Write the docs. Never push to main, and don't deploy the worker yet."),
            say("Done."),
            user("Go ahead and deploy the worker."),
        ]
    )
    current = [c.text for c in state.current_constraints()]
    assert current == ["Never push to main, and don't deploy the worker yet."]
    text = render_state(state)
    assert "Never push to main" in text
    assert "don't deploy the worker" not in text
