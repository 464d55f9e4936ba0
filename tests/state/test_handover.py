"""The checkpoint read as the agent that must continue: each line says its thing once, in
its section, in whole words — the request as the request, a failure told once, what is
still to do."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from synopsis.state import extract_working_state, render_state
from synopsis.state._progress import retells_failure
from synopsis.state._text import clip
from synopsis.summarizers.base import SummaryKind, SummaryRequest
from synopsis.summarizers.embedded import EmbeddedSummarizer
from tests.state.builders import act, bash, by_section, call, result, say, summarize, user

# --- quotes are cut where a word ends ------------------------------------------------------


def test_a_cut_quote_ends_after_a_whole_word() -> None:
    text = "Move the nightly invoice export from the old cron host to the scheduler service"
    cut = clip(text, 40)
    assert len(cut) <= 40 and cut.endswith("…")
    head = cut[:-1]
    assert text.startswith(head) and text[len(head)] == " "  # "…the old cron…", not "…cr…"


def test_a_long_compound_word_is_left_out_rather_than_cut() -> None:
    text = "Bitte prüfe die Datenbankverbindungskonfiguration im Staging-Cluster"
    assert clip(text, 30) == "Bitte prüfe die…"
    # a word longer than half the room is cut: its opening says more than nothing
    assert clip(text, 44) == "Bitte prüfe die Datenbankverbindungskonfigu…"


def test_chinese_is_cut_between_characters_and_a_latin_word_inside_it_whole() -> None:
    chinese = "我们需要把订单数据库迁移到新的服务器上然后重新部署整个应用"
    cut = clip(chinese, 12)
    assert cut == chinese[:11] + "…"
    mixed = "配置文件放在build目录下面"
    assert clip(mixed, 10) == "配置文件放在…"  # not "配置文件放在buil…"


_WORDY = st.text(alphabet="abcdefg 数据库かな-/.", min_size=0, max_size=120)


@given(_WORDY, st.integers(min_value=2, max_value=100))
def test_a_clipped_text_fits_and_is_the_text_s_own_opening(text: str, limit: int) -> None:
    cut = clip(text, limit)
    assert len(cut) <= limit
    if len(text) <= limit:
        assert cut == text
    else:
        assert cut.endswith("…") and text.startswith(cut[:-1])


@given(st.lists(st.sampled_from(["ab", "cde", "fghij", "klmnopq"]), min_size=2, max_size=30))
def test_words_within_reach_are_never_split(words: list[str]) -> None:
    text = " ".join(words)
    cut = clip(text, 30)
    if cut != text:
        assert cut[:-1].split(" ")[-1] in words  # the last word shown is a whole one


# --- the request of a split turn is the request, not a rule ---------------------------------


def test_a_turn_request_in_the_words_of_a_rule_is_listed_as_the_request() -> None:
    request = "Saving a draft wiped my notes, that should never happen."
    messages = [
        user(request),
        act(call("r1", "read", path="src/drafts.ts")),
        result("r1", "read", "export function save() {}\n"),
    ]
    found = by_section(summarize(messages, SummaryKind.TURN_PREFIX))
    assert f"- {request}" in found["original_request"]
    assert "Constraint:" not in found["original_request"]
    assert "- Working on: the request above" in found["in_progress"]


def test_a_rule_stated_beside_the_turn_request_keeps_its_label() -> None:
    messages = [
        user("Saving a draft wiped my notes.\n\nNever delete a draft without asking me first."),
        act(call("r1", "read", path="src/drafts.ts")),
        result("r1", "read", "export function save() {}\n"),
    ]
    original = by_section(summarize(messages, SummaryKind.TURN_PREFIX))["original_request"]
    assert "- Constraint: Never delete a draft without asking me first." in original


# --- a failure the user reported is said once ------------------------------------------------


def test_a_reported_failure_that_is_the_request_is_not_repeated_as_an_approach() -> None:
    report = "the CSV export crashes with a 500 error when the report is empty"
    messages = [
        user("Add a CSV export button to the reports page."),
        act(call("e1", "edit", path="reports.py", oldText="a", newText="b")),
        result("e1", "edit", "ok"),
        say("Done: the reports page has a CSV export button."),
        user(report),
        act(call("r1", "read", path="reports.py")),
        result("r1", "read", "def export(rows): ...\n"),
    ]
    found = by_section(summarize(messages))
    assert report in found["goal"]
    assert "crashes with a 500 error" not in found.get("failed", "")


def test_a_reported_failure_no_request_states_is_kept_as_an_approach() -> None:
    state = extract_working_state(
        [
            user("Add a CSV export button to the reports page."),
            say("Done: the reports page has a CSV export button."),
            user("the CSV export crashes with a 500 error when the report is empty"),
            say("Fixed: an empty report now exports a header row."),
            user("Now add a PDF export too."),
            say("Done: PDF export added."),
            user("Please rename the button to Download."),
            say("Done: renamed."),
            user("Also translate the button label into German."),
            say("Done: the label reads Herunterladen."),
            user("Finally, add a test for the empty report."),
        ]
    )
    assert "crashes with a 500 error" in by_section(render_state(state)).get("failed", "")


# --- one failure told twice by the assistant is listed once ---------------------------------


def test_the_retelling_of_a_failure_with_its_reason_replaces_the_first_telling() -> None:
    messages = [
        user("Normalise the line endings in the fixtures folder."),
        act(
            call("b1", "bash", command="sed -i 's/\\r$//' fixtures/*.txt"),
            text="I'll strip the carriage returns with sed.",
        ),
        result("b1", "bash", ""),
        say("Hmm, the sed replacement didn't work for every file."),
        *bash("b2", "file fixtures/*.txt", "fixtures/a.txt: UTF-16 text"),
        say("The sed replacement didn't work because two files are UTF-16, not UTF-8."),
    ]
    failed = by_section(summarize(messages)).get("failed", "")
    assert "because two files are UTF-16" in failed
    assert "for every file" not in failed


def test_two_different_failures_are_both_listed() -> None:
    assert not retells_failure(
        "The cache flush didn't help.", "The migration didn't work because the lock is held."
    )
    assert retells_failure(
        "The proxy restart did not fix it.", "The proxy restart did not fix it because of DNS."
    )
    # a later telling without the reason the first gave says less: both stay
    assert not retells_failure(
        "The proxy restart did not fix it because of DNS.", "The proxy restart did not fix it."
    )


# --- Next Steps while a request is open -----------------------------------------------------


def test_next_steps_name_the_open_request_even_when_the_size_target_binds() -> None:
    messages: list[dict[str, Any]] = [user("Split the billing module into three packages.")]
    for index in range(30):
        messages += bash(f"b{index}", f"pytest tests/billing/test_part{index}.py", "1 passed")
        messages.append(say(f"Part {index} of the billing split is moved and its tests pass."))
    state = extract_working_state(messages)
    text = render_state(state, target_chars=900)  # detail must go: the step stays, short
    assert "- Finish the current request (the last goal above)" in by_section(text)["next"]
    whole = render_state(state)
    assert "Finish the current request: “Split the billing module" in whole


def test_no_next_step_is_invented_when_the_request_is_finished() -> None:
    messages = [
        user("Bump the version to 2.4.0."),
        act(call("e1", "edit", path="pyproject.toml", oldText="2.3.9", newText="2.4.0")),
        result("e1", "edit", "ok"),
        say("Done: the version is 2.4.0."),
    ]
    assert "Finish the current request" not in summarize(messages)


# --- Goal: the original request first, remarks and old requests elsewhere -------------------


def test_an_earlier_current_request_does_not_stand_above_the_original_one() -> None:
    first = [
        user("Set up a staging environment for the shop."),
        say("Done: staging runs the shop on its own database."),
        user("Now write a README that explains how to deploy to staging."),
        act(call("e1", "edit", path="infra/db.tf", oldText="a", newText="b")),
        result("e1", "edit", "ok"),
    ]
    previous = summarize(first)
    later = [
        say("Done: the README explains the staging deploy."),
        user("Now add a Redis cache to staging."),
        act(call("e2", "edit", path="infra/cache.tf", oldText="a", newText="b")),
        result("e2", "edit", "ok"),
    ]
    request = SummaryRequest(
        SummaryKind.UPDATE,
        "",
        later,
        previous_summary=previous,
        previous_state=extract_working_state(first),
        max_tokens=4000,
    )
    goal = by_section(asyncio.run(EmbeddedSummarizer().summarize(request)).text)["goal"]
    lines = [line for line in goal.split("\n") if line]
    assert lines[0] == "- Set up a staging environment for the shop."
    assert lines[-1] == "- Now add a Redis cache to staging."


# --- a bulk run's progress lines name no value ----------------------------------------------


def test_values_in_a_tool_s_progress_lines_are_not_listed() -> None:
    shas = ["1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b", "2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c"]
    output = "\n".join(f"Rewrite {sha} ({n}/2) (0 seconds passed)" for n, sha in enumerate(shas, 1))
    messages = [
        user("Drop the leaked .env file from the whole git history."),
        *bash("b1", "git filter-branch --index-filter 'git rm --cached .env' -- --all", output),
        *bash("b2", "git log -1 --format=%H", "7e6d5c4b3a29180f7e6d5c4b3a29180f7e6d5c4b"),
        say("History rewritten; the head is 7e6d5c4b3a29180f7e6d5c4b3a29180f7e6d5c4b."),
    ]
    text = summarize(messages)
    assert not any(sha in text for sha in shas)
    assert "7e6d5c4b3a29180f7e6d5c4b3a29180f7e6d5c4b" in text  # a value it reported stays
