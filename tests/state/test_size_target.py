"""What survives a size limit: the soft target binds the latest decisions too (detail
first, the assistant's choices before the user's, a rule never), a hard cap is used to
its end (what had to go comes back where the drops left room), and the lines the guard
would restore go last."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.state import extract_working_state, render_state
from synopsis.state.guard import guard_summary, without_empty_sections
from synopsis.state.render._fitting import _fit, _layout_text, _shorter
from synopsis.state.render._items import NEVER, _Item
from tests.state.builders import act, call, result, say, user


def _decided(count: int) -> list[dict[str, object]]:
    """A trip planned choice by choice: the assistant decides, the user picks, in turn."""
    messages: list[dict[str, object]] = [
        user("Plan the Lisbon offsite for the data team. Never book anything without my OK.")
    ]
    for n in range(count):
        messages.append(say(f"Which venue for day {n + 1}: the Alfama loft or the Belém hall?"))
        messages.append(user(f"Let's go with the Belém hall for day {n + 1}."))
        messages.append(say(f"I'll use the Belém hall for day {n + 1} because it seats 40 people."))
    return messages


def test_the_size_target_binds_the_latest_decisions_but_never_the_rule() -> None:
    state = extract_working_state(_decided(6))
    whole = render_state(state)
    small = render_state(state, target_chars=700)
    assert len(small) < len(whole)
    assert "Never book anything without my OK." in small
    decisions = small.split("## Key Decisions", 1)[1].split("##", 1)[0]
    chosen = [line for line in decisions.splitlines() if line.startswith("- User chose:")]
    stated = [line for line in decisions.splitlines() if line.startswith("- I'll use")]
    # the assistant's own choices go before the user's: the latest user choice stays
    assert chosen and "day 6" in chosen[-1]
    assert len(stated) < len(chosen) or not stated


def test_under_a_hard_cap_what_the_guard_restores_goes_last() -> None:
    """The checkpoint the cap leaves is the guard's too: nothing it would restore (and
    then cut other lines for) was dropped while a lesser line stayed."""
    messages = [
        user("Move the billing job to the new cluster. The cluster is kube-eu-7, namespace fin."),
        *[
            m
            for n in range(8)
            for m in (
                act(call(f"c{n}", "bash", command=f"kubectl get pods -n fin --selector=job{n}")),
                result(f"c{n}", "bash", f"pod billing-{n} Running"),
            )
        ],
        say("I'll drain the old node pool first because the job holds a lock."),
        user("The staging host is stg-db-07.internal and the change ticket is OPS-5521."),
        say("Noted: staging is stg-db-07.internal, ticket OPS-5521."),
        user("Marta Silva signs off the migration report, her deadline is March 14."),
    ]
    state = extract_working_state(messages)
    for cap in (80, 100, 130, 170):  # above what the pinned lines alone take
        text = render_state(state, max_tokens=cap)
        assert len(text) <= cap * 4
        checked = guard_summary(text, state, max_chars=cap * 4)
        assert checked.restored == (), (cap, text)


def test_a_line_that_did_not_fit_comes_back_shortened() -> None:
    request = "Rebuild the invoice export so the Lisbon office gets one CSV per cost centre"
    items = [
        _Item("goal", f"- {request}", 11, 0),
        _Item("in_progress", f"- Working on: “{request[:60]}…”", 10, 1),
        _Item("done", "- bash `make export` ×3 → ok; earlier: wrote 4 files; wrote 6 files", 3, 2),
    ]
    full = len(_layout_text(items, "checkpoint", bare=True))
    kept = _fit(items, full - 30, "checkpoint", frozenset(), terse=True)
    text = _layout_text(kept, "checkpoint", bare=True)
    assert len(text) <= full - 30
    assert "- Working on: the last goal above" in text  # the open request still says so


def test_the_short_form_keeps_the_substance() -> None:
    assert _shorter("- Finished: “ship it” → Done; did: a; b") == "- Finished: “ship it”"
    assert _shorter("- bash `make` ×2 → ok; earlier: built") == "- bash `make` ×2 → ok"
    assert (
        _shorter("- User chose: Friday 10:15 → Friday or Monday?") == "- User chose: Friday 10:15"
    )
    long = "- Earlier request, not reported done: “" + "word " * 30 + "” → found three"
    short = _shorter(long)
    assert short.endswith("…”") and "found three" not in short


_TEXTS = st.text(alphabet="abcdefgh ", min_size=1, max_size=40).map(lambda t: f"- {t}")
_SECTIONS = st.sampled_from(["goal", "done", "in_progress", "decisions", "critical"])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(_SECTIONS, _TEXTS, st.sampled_from([0, 3, 6, 9, 10, 11]))),
    st.lists(_TEXTS, max_size=3),
    st.integers(0, 600),
)
def test_a_hard_cap_holds_unless_the_rules_alone_pass_it(
    rows: list[tuple[str, str, int]], rule_texts: list[str], cap: int
) -> None:
    rules = [_Item("constraints", text, NEVER, -n) for n, text in enumerate(rule_texts)]
    items = [*rules, *(_Item(s, text, p, n) for n, (s, text, p) in enumerate(rows))]
    kept = _fit(items, cap, "checkpoint", frozenset(), terse=True)
    assert all(rule in kept for rule in rules)  # a rule never goes
    if len(_layout_text(items, "checkpoint")) <= cap:
        assert kept == items  # nothing goes when all fits
    elif len(_layout_text(rules, "checkpoint", bare=True)) <= cap:
        assert len(_layout_text(kept, "checkpoint", bare=True)) <= cap


SECTIONS = ["original_request", "early_progress", "in_progress", "decisions", "suffix_context"]


@given(st.lists(st.sampled_from(SECTIONS), min_size=1, max_size=6))
def test_a_bare_layout_is_measured_as_it_is_sent(sections: list[str]) -> None:
    """Over a hard cap the fitting measures the bare layout: it must be the text the
    checkpoint becomes once the empty sections' placeholders go (no placeholder counted,
    no heading dropped that a sub-section keeps)."""
    items = [_Item(s, f"- line {n} of {s}", 5, n) for n, s in enumerate(sections)]
    bare = _layout_text(items, "turn_prefix", bare=True)
    assert "(none)" not in bare
    assert bare == without_empty_sections(_layout_text(items, "turn_prefix"))


def test_the_links_a_call_tried_do_not_hold_the_size_target_against_the_decisions() -> None:
    """The links only a tool call's arguments name (every endpoint an agent probed) are
    not pinned: at the soft target they give way to the latest decision, and the guard
    does not put them back; a link the user typed stays pinned."""
    messages: list[dict[str, object]] = [
        user(
            "Find out why the dashboard cannot load the shipment list from the carrier API. "
            "The API docs are at https://docs.parcelnet.io/rest/shipments."
        )
    ]
    for n in range(6):
        url = f"https://carrier.parcelnet.io/rest/v{n}/shipments?region=eu{n}"
        messages.append(act(call(f"c{n}", "bash", command=f"curl -s {url}")))
        messages.append(result(f"c{n}", "bash", "HTTP 410 Gone"))
    for n in range(4):
        messages.append(
            say(f"I'll move the client to API version {n + 7} because version {n + 6} is gone.")
        )
    state = extract_working_state(messages)
    whole = render_state(state)
    assert "rest/v0/shipments" in whole and "version 10 because" in whole  # room: all stay
    target = len(whole) // 2
    checked = guard_summary(render_state(state, target_chars=target), state)
    decisions = checked.text.split("## Key Decisions", 1)[1].split("##", 1)[0]
    assert "version 10 because" in decisions  # the latest decision stays
    assert "https://docs.parcelnet.io/rest/shipments" in checked.text  # the user's link
    assert len(checked.text) <= target
