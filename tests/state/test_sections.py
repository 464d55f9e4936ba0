"""The checkpoint's sections say what an agent continues from: Goal holds the original and
the current request, In Progress names the open one even under a tight cap, Key Decisions
holds choices (not requests), Done says what came of the work."""

from __future__ import annotations

import pytest

from synopsis.eval.section_accuracy import checkpoint_sections, is_empty
from synopsis.state import extract_working_state, render_state
from synopsis.state._choices import assistant_choices, is_stated_choice
from synopsis.state._commands import cleans_tree, wants_clean_tree
from synopsis.state._errors import first_error_line
from synopsis.state._progress import is_finished, is_reply, pending_steps
from tests.state.builders import act, call, result, say, user


@pytest.mark.parametrize(
    "request_text",
    [
        "Move the quarterly backups of the billing database to the cold storage bucket.",
        "把计费数据库的季度备份迁移到冷存储桶里，迁完告诉我。",
    ],
)
def test_the_open_request_stays_in_progress_under_a_tight_cap(request_text: str) -> None:
    report = "I looked at the storage classes and the lifecycle rules of both buckets; " * 3
    messages = [user(request_text), say(report)]  # no call yet: no "Last step" either
    text = render_state(extract_working_state(messages), max_tokens=55)
    sections = checkpoint_sections(text)
    assert not is_empty(sections.get("in_progress")), text
    assert request_text[:20] in sections["goal"]


def test_a_request_is_not_listed_as_a_choice_of_the_user() -> None:
    messages = [
        user("Pick the quietest room in the Lyon office and hold it for Thursday."),
        act(call("r1", "list_rooms", city="Lyon")),
        result("r1", "list_rooms", "R-14 (quiet), R-02 (loud)"),
        say("R-14 is the quietest; shall I hold it?"),
        user("Yes, R-14."),
    ]
    sections = checkpoint_sections(render_state(extract_working_state(messages)))
    assert "Pick the quietest room" not in sections.get("decisions", "")
    assert "R-14" in sections["decisions"]


@pytest.mark.parametrize(
    ("first", "middle", "last"),
    [
        (
            "Set up nightly exports of the sales table to the reporting bucket.",
            "Can you also check why the staging cron is silent?",
            "Now please write a runbook for the export job.",
        ),
        (
            "帮我把销售表每晚导出到报表存储桶。",
            "顺便帮我查一下为什么预发环境的定时任务没有输出？",
            "现在请帮我给导出任务写一份运行手册。",
        ),
    ],
)
def test_goal_is_the_original_and_the_current_request(first: str, middle: str, last: str) -> None:
    messages = [
        user(first),
        act(call("e1", "bash", command="crontab -l")),
        result("e1", "bash", "0 2 * * * /opt/export.sh"),
        say("The export runs nightly at 02:00; done."),
        user(middle),
        act(call("e2", "bash", command="journalctl -u cron -n 20")),
        result("e2", "bash", "no entries"),
        user(last),
    ]
    sections = checkpoint_sections(render_state(extract_working_state(messages)))
    goal = sections["goal"]
    assert first[:15] in goal and last[:15] in goal
    assert middle[:15] not in goal  # a later request came: it is history, under Done
    assert middle[:15] in sections["done"]


@pytest.mark.parametrize(
    "reply",
    ["Yes remove the almond butter too.", "No, keep the old port.", "好，就这样", "please do"],
)
def test_an_answer_is_a_reply(reply: str) -> None:
    assert is_reply(reply)


@pytest.mark.parametrize(
    "request_text",
    ["Please do the same thing for `ruff` and `mypy`.", "Do it for the staging cluster as well."],
)
def test_an_order_with_an_object_is_no_mere_reply(request_text: str) -> None:
    assert not is_reply(request_text)


def test_done_lists_what_the_closing_report_says_was_done() -> None:
    report = (
        "All set. I've reworked the nightly export.\n\n## Changes\n\n"
        "1. **Moved the export job to the reporting cluster** (was on the primary)\n"
        "2. **Removed the duplicate cron entry**\n"
        "   - `0 2 * * * /opt/export.sh` (the old one)\n"
        "- Added a retry wrapper around the upload step\n\n"
        + "The job now runs at 02:15 and reports to the ops channel; nothing else changed. "
        * 3
    )
    messages = [
        user("Please rework the nightly export so it stops hitting the primary database."),
        act(call("c1", "bash", command="crontab -e")),
        result("c1", "bash", "crontab: installing new crontab"),
        say(report),
        user("Now please write a runbook for the export job."),
    ]
    done = checkpoint_sections(render_state(extract_working_state(messages)))["done"]
    for item in (
        "Moved the export job to the reporting cluster",
        "Removed the duplicate cron entry",
        "Added a retry wrapper around the upload step",
    ):
        assert item in done
    assert "0 2 * * *" not in done  # a sub-item is detail


def test_a_report_item_saying_pending_leaves_the_request_finished() -> None:
    report = (
        "Done: the migration is applied and verified on staging.\n\n"
        "- Applied migration 0042 to staging\n"
        "- Pending: the production window, which the DBA schedules\n\n"
        + "Row counts match before and after on every table that was touched. "
        * 3
    )
    messages = [
        user("Please apply migration 0042 on staging and verify the row counts."),
        say(report),
    ]
    state = extract_working_state(messages)
    assert is_finished(state.goals[0].outcome)


def test_a_group_of_calls_lists_each_outcome_it_reported() -> None:
    messages = [user("Please restyle the header and footer of the shop.")]
    for n, path in enumerate(("app/Header.tsx", "app/Footer.tsx", "app/root.tsx", "")):
        outcome = f"Applied edit to {path}" if path else "Tokens: 10k sent, 400 received."
        messages += [
            act(call(f"a{n}", "aider", step="apply reply")),
            result(f"a{n}", "aider", outcome),
        ]
    done = checkpoint_sections(render_state(extract_working_state(messages)))["done"]
    for path in ("app/Header.tsx", "app/Footer.tsx", "app/root.tsx"):
        assert f"Applied edit to {path}" in done


def _blocked(messages: list[dict[str, object]]) -> str:
    return checkpoint_sections(render_state(extract_working_state(messages))).get("blocked", "")


def test_a_failure_another_program_later_gets_past_on_the_same_files_is_not_blocked() -> None:
    messages = [
        user("Please purge the transcripts folder from the git history."),
        act(
            call(
                "b1",
                "bash",
                command="git filter-branch --index-filter 'git rm -r --cached transcripts/'",
            )
        ),
        result("b1", "bash", "Cannot rewrite branches: You have unstaged changes.", error=True),
        act(
            call("b2", "bash", command="git filter-repo --path transcripts/ --invert-paths --force")
        ),
        result("b2", "bash", "Parsed 60 commits. HEAD is now at 72f4dc3"),
    ]
    assert "unstaged changes" not in _blocked(messages)


def test_a_later_edit_or_commit_of_the_files_does_not_resolve_a_failed_test_run() -> None:
    messages = [
        user("Please make the auth tests pass."),
        act(call("t1", "bash", command="pytest tests/api/test_auth.py -q")),
        result(
            "t1",
            "bash",
            "FAILED tests/api/test_auth.py::test_refresh - assert 401 == 200\n1 failed",
            error=True,
        ),
        act(call("t2", "bash", command="git add tests/api/test_auth.py")),
        result("t2", "bash", ""),
        act(call("t3", "edit", path="tests/api/test_auth.py", oldText="401", newText="200")),
        result("t3", "edit", "Successfully replaced text in tests/api/test_auth.py."),
    ]
    assert "test_refresh" in _blocked(messages)


def test_a_failed_edit_a_later_write_of_the_file_replaced_is_not_blocked() -> None:
    messages = [
        user("Please fix the typo in the README intro."),
        act(call("e1", "edit", path="README.md", oldText="teh", newText="the")),
        result("e1", "edit", "Could not find the exact text in README.md", error=True),
        act(call("e2", "write", path="README.md", content="# Intro\nThe tool …\n")),
        result("e2", "write", "Wrote README.md"),
    ]
    assert "README.md" not in _blocked(messages)


def _server_fails_then(reply: str) -> list[dict[str, object]]:
    return [
        user("Please get the dev server to start again."),
        act(call("s1", "bash", command="npm run dev")),
        result(
            "s1", "bash", "Error: listen EADDRINUSE: address already in use :::3000", error=True
        ),
        say("Port 3000 is taken by an old process; stop it with `kill` and retry."),
        user(reply),
    ]


@pytest.mark.parametrize("works", ["ok it works now, thanks", "好了，能用了"])
def test_a_failure_the_user_says_is_past_is_not_blocked(works: str) -> None:
    messages = _server_fails_then(works)
    assert "EADDRINUSE" not in _blocked(messages)
    assert "EADDRINUSE" in _blocked(messages[:-1])


@pytest.mark.parametrize(
    "still", ["it still does not work", "works, but the footer is gone", "还是不行"]
)
def test_a_failure_the_user_says_is_not_past_stays_blocked(still: str) -> None:
    assert "EADDRINUSE" in _blocked(_server_fails_then(still))


@pytest.mark.parametrize(
    "said",
    [
        "dude sleep 5 seconds via bash",
        "see main.ts",
        "you fucked that component up real good.",
        "ok, rerun the linter on the tui package",
        "帮我跑一下 npm test",
    ],
)
def test_an_order_for_the_moment_or_venting_is_no_critical_fact(said: str) -> None:
    messages = [
        user("Please port the selector components to the new theme API."),
        act(call("r1", "read", path="src/selector.ts")),
        result("r1", "read", "export class Selector {}"),
        user(said),
        user("The accent colour is #8abeb7 and the error colour is cc6666."),
    ]
    state = extract_working_state(messages)
    critical = checkpoint_sections(render_state(state)).get("critical", "")
    assert said not in critical
    assert "#8abeb7" in critical  # a fact with its values stays


def test_a_bare_site_link_the_assistant_wrote_is_no_critical_value() -> None:
    messages = [
        user("Please make bare links in the markdown renderer clickable."),
        say(
            "Here's a bare URL: https://github.com and a page: https://github.com/acme/tui/pull/42"
        ),
    ]
    critical = checkpoint_sections(render_state(extract_working_state(messages)))["critical"]
    assert "https://github.com/acme/tui/pull/42" in critical
    assert (
        "- url: https://github.com —" not in critical
        and "url: https://github.com\n" not in critical
    )


@pytest.mark.parametrize(
    ("output", "named"),
    [
        ("Order G-771045 ships from FreshCart #218 on Saturday.", "FreshCart #218"),
        ("Boarding for KL1023 is at Gate #14, 40 minutes before.", "Gate #14"),
    ],
)
def test_a_number_of_a_named_thing_is_said_with_its_name(output: str, named: str) -> None:
    messages = [
        user("Where does my order come from and when?"),
        act(call("o1", "get_order", order_id="G-771045")),
        result("o1", "get_order", output),
    ]
    critical = checkpoint_sections(render_state(extract_working_state(messages)))["critical"]
    number = named.split()[-1]
    assert f"issue: {number}" not in critical
    assert f"number: {named}" in critical


def test_an_issue_of_a_tracker_stays_an_issue() -> None:
    messages = [
        user("Which issue does the release fix?"),
        act(call("g1", "bash", command="git log -1 --format=%s")),
        result("g1", "bash", "fix: keep the cursor in view (fixes #218)"),
    ]
    critical = checkpoint_sections(render_state(extract_working_state(messages)))["critical"]
    assert "number: fixes" not in critical


@pytest.mark.parametrize(
    "sentence",
    [
        "Fixed DefaultTextStyle objects to use color functions instead of strings",
        'Empty padding lines are now `" ".repeat(width)` instead of `""`',
        "I'll need to see the Nginx configuration files to find the cause.",
        "The selector file has an old implementation with chalk instead of the theme system.",
    ],
)
def test_a_change_report_or_an_intention_is_no_decision(sentence: str) -> None:
    assert not any(is_stated_choice(c) for c in assistant_choices(sentence))


@pytest.mark.parametrize(
    "sentence",
    [
        "I'll use SQLite for the cache because the data fits on one machine.",
        "We keep the old port instead of 8080, since the proxy is pinned to it.",
        "Switched to the F() version because it needs no lock on the row.",
    ],
)
def test_a_choice_with_its_reason_is_a_decision(sentence: str) -> None:
    assert any(is_stated_choice(c) for c in assistant_choices(sentence))


def test_a_help_link_is_not_the_error_line() -> None:
    output = (
        "Tokens: 10,332 sent, 439 received.\n"
        "The LLM did not conform to the edit format.\n"
        "https://aider.chat/docs/troubleshooting/edit-errors.html\n\n"
        "# 1 SEARCH/REPLACE block failed to match!\n"
    )
    assert first_error_line(output) == "# 1 SEARCH/REPLACE block failed to match!"


def _merge_fails_on_local_changes(then: list[dict[str, object]]) -> list[dict[str, object]]:
    return [
        user("Bring the release branch up to date with main."),
        act(call("m1", "bash", command="git merge origin/main")),
        result(
            "m1",
            "bash",
            "error: Your local changes to the following files would be overwritten by merge:\n"
            "\tconfig/app.yml\nPlease commit your changes or stash them before you merge.",
            error=True,
        ),
        *then,
    ]


@pytest.mark.parametrize(
    "cleanup",
    ["git stash push -m wip", "git add config/app.yml && git commit -m 'wip: local config'"],
)
def test_a_failure_on_a_dirty_work_tree_a_later_stash_or_commit_cleared_is_not_blocked(
    cleanup: str,
) -> None:
    """The cause was the changes in the tree, not the merge: stashed or committed, it is
    gone, whichever command the work then goes on with."""
    messages = _merge_fails_on_local_changes(
        [act(call("c1", "bash", command=cleanup)), result("c1", "bash", "Saved working state")]
    )
    assert "would be overwritten" not in _blocked(messages)


def test_a_failure_on_a_dirty_work_tree_stays_blocked_until_the_tree_is_cleared() -> None:
    messages = _merge_fails_on_local_changes(
        [act(call("d1", "bash", command="git diff config/app.yml")), result("d1", "bash", "+x")]
    )
    assert "would be overwritten" in _blocked(messages)


@pytest.mark.parametrize(
    ("error", "dirty"),
    [
        ("error: cannot pull with rebase: You have unstaged changes.", True),
        ("fatal: there are uncommitted changes in the working tree", True),
        ("Please commit or stash them.", True),
        ("error: pathspec 'feature/x' did not match any file(s) known to git", False),
        ("fatal: not a git repository (or any of the parent directories): .git", False),
    ],
)
def test_which_errors_say_the_work_tree_held_changes(error: str, dirty: bool) -> None:
    assert wants_clean_tree(error) is dirty


@pytest.mark.parametrize(
    ("command", "cleans"),
    [
        ("git stash", True),
        ("cd web && git commit -am 'save'", True),
        ("git add -A && git commit -m wip", True),
        ("git status", False),
        ("git log --grep 'stash'", False),
        ("echo git commit", False),
    ],
)
def test_which_commands_clear_the_work_tree(command: str, cleans: bool) -> None:
    assert cleans_tree(command) is cleans


@pytest.mark.parametrize(
    "report",
    [
        "Checked the ledger: the refund row exists (id 88, €19.90, pending).",
        "The `status` column takes `pending` or `shipped`, and new rows start as `pending`.",
        "Stored the ticket with its fields (owner, priority, pending/closed).",
    ],
)
def test_a_pending_status_value_in_a_report_is_no_step_left(report: str) -> None:
    assert pending_steps(report) == []


@pytest.mark.parametrize(
    "still",
    [
        "Pending: the certificate renewal for mail.example.net.",
        "The vendor's approval is still pending, so the rollout waits.",
    ],
)
def test_pending_work_in_words_is_a_step_left(still: str) -> None:
    assert pending_steps(still) == [still]
