"""Task state across the parts a checkpoint is made from, and failures got past another way.

The histories are written for each rule: a failure the early part of a split turn fixes,
a failed write done again with another tool, a failure of a request the user then left
for a new one, an unfinished turn. Expected lines are read off each history by hand.
"""

from __future__ import annotations

import asyncio
from typing import Any

from synopsis.compaction import CompactionSettings, prepare_compaction
from synopsis.compaction.compact import TURN_PREFIX_SEPARATOR, compact
from synopsis.session import Session
from synopsis.state import extract_working_state
from synopsis.summarizers.base import SummaryKind, SummaryRequest
from synopsis.summarizers.embedded import summarize_request
from tests.state.builders import act, bash, by_section, call, result, say, user


def blocked(text: str) -> str:
    return by_section(text).get("blocked", "").replace("- (none)", "").strip()


BUILD_ERROR = "src/lexer.ts(14,9): error TS2304: Cannot find name 'Span'."

HISTORY = [
    user("Get the lexer package to build."),
    *bash("b1", "npm run build", f"{BUILD_ERROR}\n\nCommand exited with code 2", error=True),
    say("The build stops on a missing type: Span is used in src/lexer.ts but never declared."),
]
PREFIX = [
    user("Please declare the Span type and rebuild, then add a test for it."),
    act(call("e1", "edit", path="src/lexer.ts", oldText="a", newText="b")),
    result("e1", "edit", "Successfully replaced text in src/lexer.ts."),
    *bash("b2", "npm run build", "Built lexer in 1.2s"),
]


def test_a_fix_in_the_split_turn_prefix_clears_the_historys_blocked() -> None:
    request = SummaryRequest(SummaryKind.HISTORY, "", HISTORY, continued_by=PREFIX)
    text = summarize_request(request)
    assert BUILD_ERROR not in blocked(text)
    assert "got past it later" in by_section(text)["failed"]
    assert "Get past the failure" not in text
    # told nothing of what follows, the history alone still calls it open
    alone = summarize_request(SummaryRequest(SummaryKind.HISTORY, "", HISTORY))
    assert BUILD_ERROR in blocked(alone)


def test_compact_tells_the_history_what_the_split_turn_did() -> None:
    session = Session()
    for message in HISTORY:
        session.append_message(message)
    session.append_message(say("Tell me how to go on. " + "x" * 6000))
    for message in PREFIX:
        session.append_message(message)
    for n in range(6):  # a long turn: the keep window ends inside it
        session.append_message(act(call(f"l{n}", "bash", command=f"ls -la fixtures/set{n}")))
        session.append_message(result(f"l{n}", "bash", "f" * 3000))
    preparation = prepare_compaction(session.path(), CompactionSettings(keep_recent_tokens=2000))
    assert preparation is not None and preparation.is_split_turn
    summary = asyncio.run(compact(preparation)).summary
    history, _, turn = summary.partition(TURN_PREFIX_SEPARATOR)
    assert BUILD_ERROR not in blocked(history)
    assert "got past it later" in history
    # the turn goes on in the kept part: its early part says where it stands
    assert "Working on" in by_section(turn)["in_progress"]


def test_the_turn_prefix_states_where_the_turn_stands_in_its_own_section() -> None:
    turn = [
        user("Port the CSV reader to the new API and keep the old flags working."),
        act(call("r1", "read", path="src/csv_reader.py")),
        result("r1", "read", "def read(path, delimiter=','): ..."),
        *bash(
            "t1",
            "pytest -q tests/test_csv.py",
            "E   TypeError: read() got an unexpected keyword argument 'sep'\n1 failed, 4 passed",
            error=True,
        ),
    ]
    text = summarize_request(SummaryRequest(SummaryKind.TURN_PREFIX, "", turn))
    found = by_section(text)
    assert "pytest -q tests/test_csv.py" in found["in_progress"]  # the last step and its result
    assert "unexpected keyword argument 'sep'" in found["early_progress"]
    assert "blocked" not in found  # the kept part follows: it may get past the failure
    assert "Port the CSV reader" in found["original_request"]


def test_a_failed_write_got_past_with_another_tool_is_no_blocker() -> None:
    sed_then_edit = [
        user("Switch the service to port 8443."),
        *bash(
            "s1",
            "sed -i 's/port: 8080/port: 8443/' deploy/service.yaml",
            "sed: -e expression #1, char 9: unknown option to `s'\n\nCommand exited with code 1",
            error=True,
        ),
        act(call("e1", "edit", path="/home/dev/app/deploy/service.yaml", oldText="8", newText="9")),
        result("e1", "edit", "Successfully replaced text in deploy/service.yaml."),
    ]
    assert not extract_working_state(sed_then_edit).open_errors()
    edit_then_heredoc = [
        user("Add the release notes for 2.4."),
        act(call("e1", "edit", path="docs/NOTES.md", oldText="## 2.3", newText="## 2.4")),
        result("e1", "edit", "Could not find the exact text in docs/NOTES.md", error=True),
        *bash("c1", "cat > docs/NOTES.md <<'EOF'\n## 2.4\n- faster import\nEOF", ""),
    ]
    assert not extract_working_state(edit_then_heredoc).open_errors()


def test_editing_the_file_a_check_failed_on_does_not_pass_the_check() -> None:
    messages = [
        user("Make the slug tests pass."),
        *bash(
            "t1",
            "pytest -q tests/test_slug.py",
            "E   AssertionError: assert 'a-b' == 'a--b'\n1 failed\n\nCommand exited with code 1",
            error=True,
        ),
        act(call("e1", "edit", path="tests/test_slug.py", oldText="a--b", newText="a-b")),
        result("e1", "edit", "Successfully replaced text in tests/test_slug.py."),
    ]
    (still,) = extract_working_state(messages).open_errors()  # an edit checks nothing
    assert still.target == "pytest -q tests/test_slug.py"


def test_a_failure_of_a_request_left_for_a_new_one_is_no_blocker_but_stays_on_record() -> None:
    error = '{"error": "unauthorized", "message": "token expired"}'
    messages = [
        user("Fetch the open invoices from the billing API."),
        *bash("c1", "curl -s https://billing.example.test/v2/invoices?state=open", error),
        say("The billing API answers that the token expired, so I cannot fetch the invoices."),
        user("Now write the README section on configuration, please."),
        act(call("w1", "write", path="README.md", content="## Configuration\n")),
        result("w1", "write", "Wrote README.md"),
    ]
    state = extract_working_state(messages)
    assert not state.open_errors()
    (left,) = state.left_errors()
    assert "invoices" in left.target
    text = summarize_request(SummaryRequest(SummaryKind.HISTORY, "", messages))
    assert "token expired" not in blocked(text)
    assert "unauthorized: token expired" in by_section(text)["failed"]  # its exact error
    # while the request is still the one under way, the same failure blocks it
    alone = summarize_request(SummaryRequest(SummaryKind.HISTORY, "", messages[:3]))
    assert "unauthorized: token expired" in blocked(alone)


def test_a_blocked_line_of_the_last_checkpoint_follows_the_states_judgement() -> None:
    first = [
        user("Get the lexer package to build."),
        *bash("b1", "npm run build", f"{BUILD_ERROR}\n\nCommand exited with code 2", error=True),
    ]
    state = extract_working_state(first)
    text = summarize_request(SummaryRequest(SummaryKind.HISTORY, "", first))
    assert BUILD_ERROR in blocked(text)
    # next round: a write of the file the failed command was about, then a new request
    second = [
        user("Now write the changelog entry for this release, please."),
        act(call("w1", "write", path="CHANGELOG.md", content="## 0.3\n")),
        result("w1", "write", "Wrote CHANGELOG.md"),
    ]
    update = SummaryRequest(
        SummaryKind.UPDATE, "", second, previous_summary=text, previous_state=state
    )
    again = summarize_request(update)
    assert BUILD_ERROR not in blocked(again)  # the request it blocked was left
    assert BUILD_ERROR in by_section(again)["failed"]


def test_what_is_still_to_do_in_anyones_words_becomes_next_steps() -> None:
    messages = [
        user("Move the mailer to the new queue."),
        act(call("e1", "edit", path="mail/sender.py", oldText="a", newText="b")),
        result("e1", "edit", "Successfully replaced text in mail/sender.py."),
        say(
            "The sender now publishes to the queue.\n\n**Remaining:**\n"
            "- retry policy for bounced messages\n- drop the old cron entry"
        ),
        user("ok. we still need to tell ops about the new queue name, don't forget"),
    ]
    steps = extract_working_state(messages).next_steps
    assert "retry policy for bounced messages" in steps
    assert "drop the old cron entry" in steps
    assert any("tell ops about the new queue name" in step for step in steps)
    text = summarize_request(SummaryRequest(SummaryKind.HISTORY, "", messages))
    assert "retry policy for bounced messages" in by_section(text)["next"]


def test_a_chinese_still_to_do_is_a_next_step_and_a_question_is_not() -> None:
    messages = [
        user("把登录页改成新的设计稿。"),
        act(call("w1", "write", path="web/login.vue", content="<template/>")),
        result("w1", "write", "Wrote web/login.vue"),
        say(
            "登录页已经改好了。还需要补上表单校验的单元测试，然后再部署到预发环境。要不要顺便改注册页？"
        ),
    ]
    steps = extract_working_state(messages).next_steps
    assert steps == ("还需要补上表单校验的单元测试，然后再部署到预发环境。",)


def test_steps_said_for_a_request_go_when_it_is_reported_done() -> None:
    messages = [
        user("Add pagination to the orders endpoint."),
        say("Next, I'll add the cursor parameter to the orders query."),
        act(call("e1", "edit", path="api/orders.py", oldText="a", newText="b")),
        result("e1", "edit", "Successfully replaced text in api/orders.py."),
        say("Done: the orders endpoint is paginated by cursor and its tests pass."),
    ]
    assert extract_working_state(messages).next_steps == ()
    # steps left by an earlier request stay while another request is under way
    later = [
        user("Add pagination to the orders endpoint."),
        say("Paginated. Pending: the same for /invoices once its schema lands."),
        user("Now rename the ledger module to billing, please."),
        *bash("m1", "git mv ledger billing", ""),
        say("Renamed: the ledger module is now billing and the imports are updated."),
    ]
    steps = extract_working_state(later).next_steps
    assert steps == ("Pending: the same for /invoices once its schema lands.",)


def test_done_names_each_command_of_a_program_and_keeps_the_latest_checks() -> None:
    messages: list[Any] = [user("Get the workspace green: lint, types and tests.")]
    messages += bash("c1", "cd core && pytest -q tests/unit 2>&1 | tail -3", "12 passed in 0.3s")
    messages += bash("c2", "pytest -q tests/integration", "41 passed in 2.0s")
    for n in range(80):  # many files written: the size target must bite
        path = f"crates/part{n}/src/lib.rs"
        messages += [
            act(call(f"w{n}", "write", path=path, content=f"pub fn part{n}() {{}}\n")),
            result(f"w{n}", "write", "ok"),
        ]
    text = summarize_request(SummaryRequest(SummaryKind.HISTORY, "", messages))
    assert len(text) < 4000
    done = by_section(text)["done"]
    # each command named as it ran (not the filter of its output), the latest last
    assert "bash `pytest` ×2: `pytest -q tests/unit`, `pytest -q tests/integration`" in done
    assert "41 passed" in done  # the latest check's result outlasts the size target


def test_a_commit_the_user_reset_is_not_listed_as_done() -> None:
    messages = [
        user("Commit the parser fix."),
        *bash(
            "c1",
            'git commit -am "fix: parser drops trailing comma"',
            "[main 4f2a9c1] fix: parser drops trailing comma\n 1 file changed, 2 insertions(+)",
        ),
        say("Committed as 4f2a9c1."),
        user("I reset the commit back, it broke the build on CI."),
    ]
    text = summarize_request(SummaryRequest(SummaryKind.HISTORY, "", messages))
    assert "4f2a9c1" not in text
    before = summarize_request(SummaryRequest(SummaryKind.HISTORY, "", messages[:-1]))
    assert "4f2a9c1" in by_section(before)["done"]


def test_a_blocked_line_a_cap_cut_short_follows_the_states_judgement_too() -> None:
    """A hard cap writes a long command cut short ("…"); the next round's state holds the
    whole command, got past since by another program on the same files: the old line is
    that call, so it stands under Failed Approaches only, not under Blocked as well."""
    command = (
        "tar -czf out/handbook.tar.gz --exclude '*.tmp' --exclude drafts/ "
        "handbook/chapters handbook/figures handbook/index.md"
    )
    error = "tar: handbook/figures/cover.svg: Cannot open: Permission denied"
    first = [
        user("Package the handbook so the printer can download it."),
        *bash("t1", command, f"{error}\n\nCommand exited with code 2", error=True),
    ]
    state = extract_working_state(first)
    cut = f"- bash `{command[:38]}…` failed: {error}"
    previous = (
        f"## Goal\n- Package the handbook so the printer can download it.\n\n"
        f"## Progress\n### Blocked\n{cut}\n"
    )
    second = [
        say("The figures folder is unreadable for tar; zip reads it with the same rights."),
        *bash("z1", "zip -r out/handbook.zip handbook/chapters handbook/figures", "adding: ok"),
    ]
    update = SummaryRequest(
        SummaryKind.UPDATE, "", second, previous_summary=previous, previous_state=state
    )
    text = summarize_request(update)
    assert "Permission denied" not in blocked(text)
    assert "Permission denied" in by_section(text)["failed"]  # tried, got past later
