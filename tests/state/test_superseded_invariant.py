"""Invariant (issue 11): a value a later statement replaced never appears in the rendered
checkpoint, and stays in the state's JSON (``details``), marked with what replaced it."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.eval.labels import contains
from synopsis.state import extract_working_state, render_state
from tests.state.builders import say, user

SUBJECTS = {
    "port": ("the proxy port", st.integers(1024, 65000).map(str)),
    "amount": ("the deposit", st.integers(120, 9000).map(lambda n: f"${n}")),
    "version": ("the release", st.tuples(st.integers(2, 9), st.integers(10, 40)).map(
        lambda t: f"{t[0]}.{t[1]}.1"
    )),
}  # fmt: skip
CORRECTIONS = (
    "Correction: {subject} is {new}, not {old}.",
    "Actually {subject} is now {new}.",
    "Small change, {subject} moved to {new}.",
)


ZH_CORRECTIONS = ("更正一下，端口改成 {new}。", "端口不是 {old}，是 {new}。")


@st.composite
def corrected_zh(draw: st.DrawFn) -> tuple[list[dict[str, object]], str, str]:
    old = str(draw(st.integers(1024, 65000)))
    new = str(draw(st.integers(1024, 65000).filter(lambda n: str(n) != old)))
    template = draw(st.sampled_from(ZH_CORRECTIONS))
    messages: list[dict[str, object]] = [
        user(f"帮我把测试环境部署起来，端口是 {old}。"),
        say("好的，记下了。"),
        user(template.format(new=new, old=old)),
        say("明白。"),
    ]
    return messages, old, new


@st.composite
def corrected(draw: st.DrawFn) -> tuple[list[dict[str, object]], str, str]:
    kind = draw(st.sampled_from(sorted(SUBJECTS)))
    subject, values = SUBJECTS[kind]
    old = draw(values)
    new = draw(values.filter(lambda v: v != old and old not in v and v not in old))
    template = draw(st.sampled_from(CORRECTIONS))
    messages: list[dict[str, object]] = [
        user(f"Please set up the staging deploy. {subject.capitalize()} is {old}."),
        say("Noted, I will use that."),
        user(template.format(subject=subject, new=new, old=old)),
        say("Understood."),
    ]
    return messages, old, new


@settings(max_examples=60, deadline=None)
@given(st.one_of(corrected(), corrected_zh()))
def test_a_replaced_value_leaves_the_checkpoint_and_stays_in_details(
    case: tuple[list[dict[str, object]], str, str],
) -> None:
    messages, old, new = case
    state = extract_working_state(messages)
    text = render_state(state)
    assert contains(text, new)
    assert not contains(text, old), text
    details = json.dumps(state.to_json(), ensure_ascii=False)
    assert old in details
    assert state.superseded_values().get(old) == new


RENAMES = (
    "Rename {old} to {new}.",
    "Instead of {old}, name it {new}.",
    "把 {old} 改名为 {new}。",
    "đổi tên {old} thành {new}",
    "Renombra {old} a {new}.",
    "Renomme {old} en {new}.",
    "Bitte {old} in {new} umbenennen.",
)
NAMES = st.from_regex(r"[a-z]{3,8}_[a-z0-9]{2,6}", fullmatch=True)


@st.composite
def renamed(draw: st.DrawFn) -> tuple[list[dict[str, object]], str, str]:
    old = draw(NAMES)
    new = draw(NAMES.filter(lambda n: old not in n and n not in old))
    template = draw(st.sampled_from(RENAMES))
    messages: list[dict[str, object]] = [
        user(f"Keep the generated files in {old}, never in the repo root."),
        say("Noted."),
        user(template.format(old=old, new=new)),
        say("Done."),
    ]
    return messages, old, new


@settings(max_examples=60, deadline=None)
@given(renamed())
def test_a_renamed_name_leaves_the_rules_and_the_checkpoint(
    case: tuple[list[dict[str, object]], str, str],
) -> None:
    messages, old, new = case
    state = extract_working_state(messages)
    text = render_state(state)
    assert not contains(text, old), text
    assert contains(text, new)
    assert not any(
        contains(c.text, old) and not contains(c.text, new) for c in state.current_constraints()
    )
    assert state.superseded_values().get(old) == new
    assert old in json.dumps(state.to_json(), ensure_ascii=False)
