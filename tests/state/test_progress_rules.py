"""The checkpoint's progress rules, one test each, on hand-written histories.

Each history is written for the rule: a grep that matched nothing, a failure fixed
later, a rename through bash, a choice the user made in Chinese, an unfinished request.
The expected lines are read off the history by hand, not produced by the code under test.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from synopsis.state import extract_working_state, guard_summary
from synopsis.state._commands import benign_exit, command_key, file_effects
from synopsis.state.render import render_state
from synopsis.state.sections import parse_sections
from synopsis.summarizers.base import SummaryKind, SummaryRequest
from synopsis.summarizers.embedded import EmbeddedSummarizer
from tests.state.builders import act, call, ids, result, say, user


def checkpoint(messages: list[dict[str, Any]], **request: Any) -> dict[str, str]:
    text = asyncio.run(
        EmbeddedSummarizer().summarize(
            SummaryRequest(SummaryKind.HISTORY, "", messages, max_tokens=4000, **request)
        )
    ).text
    found: dict[str, str] = {"text": text}
    for kind, _, items in parse_sections(text):
        if kind:
            found[kind] = found.get(kind, "") + "\n".join(items)
    return found


def bash(call_id: str, command: str, output: str, *, error: bool = False) -> list[Any]:
    return [
        act(call(call_id, "bash", command=command)),
        result(call_id, "bash", output, error=error),
    ]


# --- exit codes are read per command ------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "meaning"),
    [
        ("grep -rn TODO src", "no match (exit 1)"),
        ("cd app && rg 'fn main' | head -5", None),  # the pipeline's status is head's
        ("git grep -n deprecated", "no match (exit 1)"),
        ("diff expected.txt actual.txt", "differences found (exit 1)"),
        ("cmp a.bin b.bin", "differences found (exit 1)"),
        ("git diff --exit-code -- src", "differences found (exit 1)"),
        ("git diff -- src", None),  # without --exit-code 1 is an error
        ("test -f build/out.js", "condition false (exit 1)"),
        ("[ -d node_modules ]", "condition false (exit 1)"),
        ("pytest -q", None),
        ("npm test", None),
    ],
)
def test_exit_code_one_means_what_the_program_says(command: str, meaning: str | None) -> None:
    assert benign_exit(command, 1) == meaning
    assert benign_exit(command, 2) is None  # grep 2 is an error


def test_a_grep_with_no_match_is_no_blocker() -> None:
    messages = [
        user("Find where the retry limit is set and raise it to 5."),
        *bash("g1", "grep -rn RETRY_LIMIT src", "\n\nCommand exited with code 1", error=True),
        *bash("g2", "grep -rn retry_limit config", "config/app.toml:12:retry_limit = 3"),
    ]
    found = checkpoint(messages)
    assert "grep" not in found.get("blocked", "")
    assert "Resolve the failed" not in found["text"]
    assert "no match (exit 1)" in found["done"]
    assert not extract_working_state(messages).open_errors()


def test_a_failure_fixed_later_is_a_failed_approach_not_a_blocker() -> None:
    messages = [
        user("Make the invoice tests pass."),
        *bash(
            "t1",
            "cd billing && pytest -q tests/test_invoice.py",
            "E       AssertionError: assert Decimal('10.02') == Decimal('10.03')\n"
            "1 failed, 11 passed in 0.4s\n\nCommand exited with code 1",
            error=True,
        ),
        act(call("e1", "edit", path="billing/invoice.py", oldText="a", newText="b")),
        result("e1", "edit", "Successfully replaced text in billing/invoice.py."),
        *bash("t2", "cd billing && pytest -q", "12 passed in 0.4s"),
    ]
    found = checkpoint(messages)
    assert found.get("blocked", "").strip() in ("", "- (none)")
    failed = found["failed"]
    assert "assert Decimal('10.02') == Decimal('10.03')" in failed  # the exact error line
    assert "got past it later" in failed
    assert "failed earlier, ok since" in found["done"]


def test_an_unresolved_failure_stays_blocked_with_its_error_line() -> None:
    messages = [
        user("Deploy the staging build."),
        *bash(
            "d1",
            "./deploy.sh staging",
            "Uploading…\nerror: AWS_ACCESS_KEY_ID is not set\n\nCommand exited with code 3",
            error=True,
        ),
    ]
    found = checkpoint(messages)
    assert "error: AWS_ACCESS_KEY_ID is not set" in found["blocked"]
    assert "deploy.sh" in found["next"]


def test_a_tool_reporting_an_error_in_its_output_failed() -> None:
    messages = [
        user("Book two window seats on the 9:10 train."),
        act(call("r1", "reserve_seats", train="RJX 63", seats=2, preference="window")),
        result("r1", "reserve_seats", '{"ok": false, "error": "SEAT_PREF_UNAVAILABLE"}'),
    ]
    found = checkpoint(messages)
    assert "SEAT_PREF_UNAVAILABLE" in found["blocked"]


def test_a_test_runner_summary_names_the_failing_test() -> None:
    output = (
        " FAIL  src/hooks/useDebounce.test.ts > useDebounce > returns the value\n"
        "ReferenceError: jest is not defined\n ❯ src/hooks/useDebounce.test.ts:7:5\n"
        " Test Files  1 failed (1)\n      Tests  6 failed (6)\n"
    )
    messages = [user("Run the hook tests."), *bash("v1", "npx vitest run", output)]
    blocked = checkpoint(messages)["blocked"]
    assert "useDebounce.test.ts" in blocked and "ReferenceError: jest is not defined" in blocked


# --- files touched through bash ------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "effects"),
    [
        ("mv src/old.py src/new.py", [("renamed", "src/old.py", "src/new.py")]),
        ("git mv a.ts b.ts", [("renamed", "a.ts", "b.ts")]),
        (
            "cp conf.example conf.toml",
            [("read", "conf.example", None), ("created", "conf.toml", None)],
        ),
        ("rm -f build.log tmp.txt", [("deleted", "build.log", None), ("deleted", "tmp.txt", None)]),
        ("sed -i 's/3/5/' config/app.toml", [("modified", "config/app.toml", None)]),
        ("sed -i '' -e 's/x/y/' a.txt", [("modified", "a.txt", None)]),
        ("make 2>&1 | tee build.log", [("modified", "build.log", None)]),
        ("echo done >> notes.md", [("modified", "notes.md", None)]),
        ("ls > /dev/null 2>&1", []),
        ("cat > gen.py << 'EOF'\nx = 1 > 0\nEOF", [("modified", "gen.py", None)]),
    ],
)
def test_file_effects_of_shell_commands(command: str, effects: list[Any]) -> None:
    assert [(e.op, e.path, e.new_path) for e in file_effects(command)] == effects


def test_a_rename_through_bash_moves_the_file() -> None:
    messages = [
        user("Rename the parser module to reader."),
        act(call("r1", "read", path="src/parser.py")),
        result("r1", "read", "def parse(): ...\n"),
        *bash("m1", "git mv src/parser.py src/reader.py", ""),
        *bash("s1", "sed -i 's/parser/reader/' src/__init__.py", ""),
        *bash("x1", "rm src/parser.pyc", ""),
    ]
    files = {f.path: f for f in extract_working_state(messages).files}
    assert "src/parser.py" not in files
    assert files["src/reader.py"].modified and files["src/reader.py"].read
    assert files["src/__init__.py"].modified
    assert files["src/parser.pyc"].deleted


def test_nested_calls_count_for_the_files() -> None:
    outcome = result("c1", "codemode", "done")
    outcome["nestedCalls"] = {
        "calls": [
            {"id": "n1", "name": "edit", "status": "ok", "arguments": {"path": "src/a.ts"}},
            {"id": "n2", "name": "read", "status": "error", "arguments": {"path": "src/b.ts"}},
            {"id": "n3", "name": "bash", "status": "ok", "arguments": {"command": "rm c.txt"}},
        ]
    }
    messages = [user("Tidy up."), act(call("c1", "codemode", code="...")), outcome]
    files = {f.path: f for f in extract_working_state(messages).files}
    assert files["src/a.ts"].modified and "src/b.ts" not in files and files["c.txt"].deleted


def test_reruns_of_a_program_are_one_group() -> None:
    assert command_key("cd app && npm run build 2>&1 | tail -3") == "npm run build"
    assert command_key("pytest -q tests/test_a.py") == command_key("cd x && pytest") == "pytest"
    assert command_key("git push -u origin fix") == "git push"


# --- decisions, requests, focus ------------------------------------------------------------


def test_a_choice_the_user_made_in_chinese_is_a_key_decision() -> None:
    messages = [
        user("帮我找一款500元以内的蓝牙耳机，平时通勤用。"),
        act(call("s1", "search_products", query="蓝牙耳机 500元以内")),
        result("s1", "search_products", '[{"id": "P001", "price": 459}, {"id": "P003"}]'),
        say("P001 459 元，P003 499 元。您选哪一款？"),
        user("那就选P001吧。"),
    ]
    decisions = checkpoint(messages)["decisions"]
    assert "User chose: 那就选P001吧。" in decisions


def test_a_short_answer_to_the_assistant_is_the_users_choice() -> None:
    messages = [
        user("Find me a dentist appointment next week."),
        say("Open slots: Thu 8:30, Fri 10:15, Wed 9:00."),
        user("Friday 10:15."),
        say("Booked for Friday 10:15."),
        user("thanks"),
    ]
    decisions = checkpoint(messages)["decisions"]
    assert "User chose: Friday 10:15." in decisions
    assert "thanks" not in decisions


def test_fragments_are_not_decisions() -> None:
    messages = [
        user("Create a custom theme for me."),
        say("I'll help you create a custom theme!"),
        say("I'll do it locally instead:"),
        say("I'd skip the pass and buy point-to-point tickets, it is ¥23,400 cheaper."),
    ]
    decisions = checkpoint(messages)["decisions"]
    assert "help you" not in decisions and "locally instead:" not in decisions
    assert "I'd skip the pass and buy point-to-point tickets" in decisions


def test_an_approach_the_assistant_gave_up_is_kept_with_its_reason() -> None:
    messages = [
        user("Fix the rounding."),
        say(
            "That's because quantize() defaults to ROUND_HALF_EVEN. "
            "So plain quantize doesn't work here."
        ),
    ]
    failed = checkpoint(messages)["failed"]
    assert "ROUND_HALF_EVEN" in failed and "doesn't work here" in failed


def test_an_unfinished_request_is_in_progress_and_a_finished_one_is_done() -> None:
    messages = [
        user("Add a --verbose flag to the CLI."),
        act(call("e1", "edit", path="cli.py", oldText="a", newText="b")),
        result("e1", "edit", "ok"),
        say("Done: --verbose is added and documented."),
        user("Now migrate the config loader to TOML."),
        act(call("r1", "read", path="config.py")),
        result("r1", "read", "import json\n"),
        act(call("e2", "edit", path="config.py", oldText="json", newText="tomllib")),
        result("e2", "edit", "ok"),
        *bash("t1", "pytest -q tests/test_config.py", "3 passed"),
    ]
    found = checkpoint(messages)
    assert "Now migrate the config loader to TOML." in found["goal"]
    assert "Finished: “Add a --verbose flag to the CLI.” → Done: --verbose" in found["done"]
    in_progress = found["in_progress"]
    assert "Working on: “Now migrate the config loader to TOML.”" in in_progress
    assert "`config.py`" in in_progress and "cli.py" not in in_progress
    assert "Last step: bash `pytest -q tests/test_config.py` → ok" in in_progress
    assert "migrate the config loader" in found["next"]


def test_a_report_of_findings_leaves_the_request_open() -> None:
    messages = [
        user("Why is the consumer lagging?"),
        *bash("k1", "kubectl logs deploy/consumer", "ERROR RecordTooLargeException: 1348291 bytes"),
        say("Found it: one record is 1348291 bytes. Should I strip attachments?"),
    ]
    in_progress = checkpoint(messages)["in_progress"]
    assert "Working on: “Why is the consumer lagging?”" in in_progress
    assert "Should I strip attachments?" in in_progress


def test_an_unknown_tool_still_counts_with_its_arguments() -> None:
    messages = [
        user("Summarise shards 1 to 3."),
        *[
            m
            for n in (1, 2, 3)
            for m in (
                act(call(f"s{n}", "read_shard", shard=n)),
                result(f"s{n}", "read_shard", f"shard {n}: 120 rows"),
            )
        ],
    ]
    found = checkpoint(messages)
    # each call's arguments are named: the label never stands for calls it does not name
    assert "read_shard ×3: `shard=1`, `shard=2`, `shard=3` → ok" in found["done"]


def test_focus_is_stated_and_ranked_first() -> None:
    messages = [
        user("Clean up the repo."),
        *bash("a", "npm run lint", "ok"),
        *bash("b", "docker build -t web .", "ok"),
    ]
    found = checkpoint(messages, custom_instructions="keep the docker details")
    assert "- Focus: keep the docker details" in found["goal"]
    assert found["done"].split("\n")[0].startswith("- bash `docker build")


# --- size ------------------------------------------------------------------------------------


def test_guard_additions_count_against_the_cap() -> None:
    messages = [
        user("Migrate the importer to the new API. Never drop rows silently."),
        *bash(
            "d1",
            "./deploy.sh",
            "error: DEPLOY_TOKEN is not set\n\nCommand exited with code 2",
            error=True,
        ),
    ]
    state = extract_working_state(messages)
    done = "\n".join(f"- ran step {n} of the migration, all fine" for n in range(80))
    model_text = f"## Goal\n- Migrate.\n\n## Progress\n### Done\n{done}\n"
    guarded = guard_summary(model_text, state, max_chars=1200).text
    assert len(guarded) <= 1200
    assert "Never drop rows silently." in guarded  # the rule the model dropped, restored
    assert "error: DEPLOY_TOKEN is not set" in guarded  # the open failure, restored
    assert "step 79" in guarded and "step 0 " not in guarded  # older detail went first


def test_a_listing_of_ids_goes_before_a_decision_and_the_commit_made_stays() -> None:
    history = "\n".join(f"{n:07x}9 tidy module {n} (Ola Nordmann)" for n in range(0xA10, 0xA1C))
    messages = [
        user("Rebase the cache branch and tell me what changed upstream."),
        *bash("l1", "git log --oneline -12 origin/trunk", history),
        say("I'd rather squash the two cache commits first, since they touch the same lines."),
        *bash(
            "c1",
            "git commit -am 'squash cache fixes'",
            "[cache-rework 4e9d07b] squash cache fixes\n 2 files changed",
        ),
    ]
    state = extract_working_state(messages, entry_ids=ids(messages))
    text = render_state(state, target_chars=900)
    assert "squash the two cache commits" in text  # the stated choice outlasts the listing
    assert "4e9d07b" in text  # the commit the agent made is one handle, not a listing
    listed = sum(f"{n:07x}9" in text for n in range(0xA10, 0xA1C))
    assert listed < 12


def test_a_short_answer_after_a_checkpoint_continues_its_request() -> None:
    earlier = [
        user("Clean out the pantry order: drop anything with sesame in it."),
        say("Removed the tahini. The granola also lists sesame seeds, drop that as well?"),
    ]
    first = asyncio.run(
        EmbeddedSummarizer().summarize(SummaryRequest(SummaryKind.HISTORY, "", earlier))
    ).text
    later = [
        user("Yep, the granola goes too."),
        act(call("r1", "remove_line", sku="GRN-12")),
        result("r1", "remove_line", '{"removed": "GRN-12"}'),
    ]
    state = extract_working_state(earlier)
    found = checkpoint(later, previous_summary=first, previous_state=state)
    assert "Yep, the granola goes too." not in found["goal"]
    assert "drop anything with sesame" in found["goal"]
    assert "User chose: Yep, the granola goes too." in found["decisions"]


def test_a_short_order_out_of_the_blue_is_no_choice() -> None:
    messages = [
        user("Tune the retry back-off in the uploader."),
        say("The back-off now doubles from 200 ms, capped at 8 s."),
        user("ok now pause 3 seconds with bash"),
        say("Waiting for an answer from the staging host; which region first, EU or US?"),
        user("EU first."),
    ]
    decisions = checkpoint(messages)["decisions"]
    assert "pause 3 seconds" not in decisions
    assert "User chose: EU first." in decisions


def test_the_latest_choices_outlast_the_size_target() -> None:
    messages = [user("Plan the offsite for the data team.")]
    for n in range(30):
        messages.append(user(f"Note {n}: the venue log says room {n} was swept at {n}:00."))
    messages.append(say("Two venues fit. Harbour Hall has parking, the Loft does not. Which one?"))
    messages.append(user("Harbour Hall, for the parking."))
    state = extract_working_state(messages, entry_ids=ids(messages))
    text = render_state(state, target_chars=1200)
    assert "User chose: Harbour Hall, for the parking." in text


# --- Critical Context and Key Decisions: nothing merely shaped like a value or a choice ----


def test_pasted_terminal_output_is_no_fact_of_the_user() -> None:
    messages = [
        user(
            "the uploader died again overnight, the staging bucket is sv-media-07.\n\n"
            "$ ./upload --all\n"
            "TypeError: Cannot read properties of undefined (reading 'etag')\n"
            "    at finish (/srv/up/lib/batch.js:88:14)\n"
            "    at Batch.flush (/srv/up/lib/batch.js:41:7)\n"
            "\n'/home/ana/Desktop/Bildschirmfoto 2026-04-02 um 09.14.55.png'"
        ),
    ]
    found = checkpoint(messages)
    assert "sv-media-07" in found["text"]  # what the user typed stays
    critical = found["critical"]
    assert "at finish" not in critical and "Bildschirmfoto" not in critical
    assert "$ ./upload" not in critical


def test_a_product_and_its_version_is_not_a_file() -> None:
    messages = [user("We're pinned to Deno.js 1.46.3 on the build box, keep it there.")]
    critical = checkpoint(messages)["critical"]
    assert "path: Deno.js" not in critical and "1.46.3" in checkpoint(messages)["text"]


def test_guesses_and_torn_list_items_are_no_decisions() -> None:
    messages = [
        user("Why is the sidebar blank on Safari?"),
        say(
            "I suspect Safari ignores the container query rather than the grid rule. "
            "- Moved the sidebar into its own grid area instead of the old float.\n"
            "I'll switch the sidebar to a plain flex column instead of the container query, "
            "because Safari 16 lacks support for it."
        ),
    ]
    decisions = checkpoint(messages)["decisions"]
    assert "I suspect" not in decisions and "- - Moved" not in decisions
    assert "switch the sidebar to a plain flex column" in decisions


def test_a_command_the_user_stopped_is_no_failed_approach() -> None:
    messages = [
        user("Watch the queue for a minute."),
        *bash("w1", "watch -n 5 'redis-cli llen jobs'", "Command aborted", error=True),
        *bash("w2", "redis-cli llen jobs", "17"),
    ]
    found = checkpoint(messages)
    assert "watch -n 5" not in found.get("failed", "")
    assert "watch -n 5" not in found.get("blocked", "")


def test_a_value_is_listed_once_when_its_fact_says_it() -> None:
    messages = [
        user("Wire the invoices to the payment provider."),
        say("Sure. Where should the callbacks go?"),
        user("Our billing webhook lives at https://hooks.brightpay.io/v2/ab12 since March."),
    ]
    critical = checkpoint(messages)["critical"]
    assert critical.count("https://hooks.brightpay.io/v2/ab12") == 1


def test_a_change_reported_or_a_step_announced_is_no_decision() -> None:
    messages = [
        user("Make the status bar readable on light terminals."),
        say("Now I'll check the palette file first."),
        say("The status bar now uses the muted tone instead of plain grey."),
        say(
            "I'll keep the bold weight rather than a brighter colour, "
            "since bold survives 16-colour terminals."
        ),
    ]
    decisions = checkpoint(messages)["decisions"]
    assert "check the palette" not in decisions and "now uses the muted" not in decisions
    assert "keep the bold weight rather than a brighter colour" in decisions


def test_pasted_log_lines_with_a_prompt_are_reference() -> None:
    messages = [
        user("Deploy the docs site."),
        say("Which host do you see the warning on?"),
        user(
            "on the mac:\n"
            "% ./serve --port 4100\n"
            "[serve] listening on 0.0.0.0:4100 (cache=off)\n\n"
            "keep the cache off for now, the CDN purge is broken."
        ),
    ]
    text = checkpoint(messages)["text"]
    assert "[serve] listening" not in text
    assert "keep the cache off for now" in text


# --- other agents' tool shapes and what a command made ---------------------------------------


def test_a_harness_marked_failure_gives_the_diagnostic_not_its_location() -> None:
    output = (
        "Error: /repo/lint.json:7:2 parse ━━━━━━━━━━━━━━━━━━━━\n\n"
        "  × Unknown option `sortKeys` in this section.\n"
    )
    messages = [
        user("Turn on the linter for the whole repo."),
        act(call("l1", "Bash", command="npx lintkit check .")),
        result("l1", "Bash", output),
    ]
    blocked = checkpoint(messages)["blocked"]
    assert "× Unknown option `sortKeys` in this section." in blocked


def test_a_script_echo_is_no_reason_and_claude_tool_names_count() -> None:
    output = "Error: > shop@2.1.0 typecheck\n> tsc -p .\n\nsrc/cart.ts(12,7): error TS2322: nope"
    messages = [
        user("Get the type check green."),
        act(call("r1", "Read", file_path="src/cart.ts")),
        result("r1", "Read", "export const cart = 1\n"),
        act(call("t1", "Bash", command="pnpm typecheck")),
        result("t1", "Bash", output),
    ]
    found = checkpoint(messages)
    assert "src/cart.ts(12,7): error TS2322" in found["blocked"]
    assert "shop@2.1.0" not in found["blocked"]
    assert "`src/cart.ts`" in found["in_progress"]  # Read(file_path=…) touched the file


def test_the_commits_made_are_listed_with_their_ids_in_done() -> None:
    messages = [user("Commit the parser fix and the docs separately.")]
    for n, (sha, subject) in enumerate([("1c0ffee", "fix: parser"), ("7ab1234", "docs: usage")]):
        messages += bash(
            f"c{n}",
            f"git add -A && git commit -m '{subject}'",
            f"[topic/parse {sha}] {subject}\n 1 file changed",
        )
    messages.append(say("Both commits are in; push when you want."))
    done = checkpoint(messages)["done"]
    assert "[topic/parse 7ab1234] docs: usage" in done
    assert "[topic/parse 1c0ffee] fix: parser" in done


def test_a_step_with_its_reason_and_the_users_own_plan_are_decisions() -> None:
    messages = [
        user("Get the nightly export under the 2 GB limit."),
        say("I'll drop the raw thumbnails from the archive since they are rebuilt on import."),
        say("Should I also gzip the CSVs?"),
        user("No, i'd rather keep them plain, the auditors open them by hand."),
        say("Let me check the size first."),
    ]
    decisions = checkpoint(messages)["decisions"]
    assert "drop the raw thumbnails from the archive since they are rebuilt" in decisions
    assert "i'd rather keep them plain" in decisions
    assert "check the size first" not in decisions  # a step without a reason


# --- Done says what each group of calls did -------------------------------------------------


def test_different_commands_of_one_program_are_not_one_label() -> None:
    messages = [
        user("Where do the fixture loaders live?"),
        *bash("f1", "find tests -name 'conftest.py'", "tests/conftest.py"),
        *bash("f2", "find src -name '*loader*'", "src/io/loader.py"),
        *bash("f3", "find src -name '*loader*'", "src/io/loader.py"),
        say("They are in src/io/loader.py, used by tests/conftest.py."),
    ]
    done = checkpoint(messages)["done"]
    assert "bash `find` ×3: 2 different commands, latest `find src -name '*loader*'`" in done
    assert "find tests -name 'conftest.py'` ×3" not in done


def test_a_successful_command_states_what_it_reported() -> None:
    runner = "collected 14 items\n\n..............\n\n============ 14 passed in 0.41s ============"
    messages = [
        user("Make the date parser accept ISO week dates."),
        *bash("t1", "pytest -q tests/test_dates.py", runner),
        say("Week dates parse now; the suite passes."),
    ]
    done = checkpoint(messages)["done"]
    assert "pytest -q tests/test_dates.py` → ok (============ 14 passed in 0.41s" in done


def test_a_listing_command_reports_no_outcome_of_its_own() -> None:
    messages = [
        user("Which migrations were applied?"),
        *bash("c1", "cat migrations/applied.txt", "0007 Applied edit to users table"),
        say("Seven so far."),
    ]
    assert "Applied edit" not in checkpoint(messages)["done"]


def test_an_argv_list_command_is_read_as_the_command_it_runs() -> None:
    failing = "src/report.ts(12,3): error TS2304: Cannot find name 'Totals'.\nexit code: 2"
    messages = [
        user("Fix the type error in the report module."),
        act(call("c1", "shell", command=["bash", "-lc", "npx tsc --noEmit"], timeout_ms=60000)),
        result("c1", "shell", failing, error=True),
    ]
    blocked = checkpoint(messages)["blocked"]
    assert "bash `npx tsc --noEmit` failed: src/report.ts(12,3): error TS2304" in blocked
    assert "timeout_ms" not in blocked


def test_an_open_request_is_still_named_when_the_cap_bites() -> None:
    listing = "\n".join(
        f"{n:07x} chore: bump build number {n}" for n in range(0xA1B2C30, 0xA1B2C48)
    )
    messages = [
        user("Find which commit broke the nightly export job."),
        *bash("l1", "git log --oneline -24", listing),
        *bash("b1", "git bisect start HEAD a1b2c30", "Bisecting: 11 revisions left to test"),
    ]
    text = asyncio.run(
        EmbeddedSummarizer().summarize(
            SummaryRequest(SummaryKind.HISTORY, "", messages, max_tokens=120)
        )
    ).text
    in_progress = dict((k, "\n".join(v)) for k, _, v in parse_sections(text)).get("in_progress", "")
    # the rows of a listing go before the task state an agent continues from (the open
    # request itself is said once, under Goal)
    assert "git bisect start HEAD a1b2c30" in in_progress


# --- Key Decisions hold choices, not steps told or options offered ---------------------------


def test_options_offered_and_steps_announced_are_not_decisions() -> None:
    messages = [
        user("The CSV import drops rows with quoted newlines."),
        say(
            "I’ll switch the reader to the csv module because it handles quoted newlines. "
            "Then I’ll run the import suite. "
            "I could also add a fallback parser or strip the newlines first if needed. "
            "If you want a dry-run flag as well, say the word."
        ),
    ]
    decisions = checkpoint(messages).get("decisions", "")
    assert "switch the reader to the csv module because it handles quoted newlines" in decisions
    assert "import suite" not in decisions
    assert "fallback parser" not in decisions and "dry-run" not in decisions


def test_placeholder_links_in_output_are_not_context_but_the_users_are() -> None:
    sample = "# Sample\nSee [the docs](https://docs.example.com/intro) or mail ops@example.org."
    messages = [
        user("Render the sample page; our staging host is https://staging.example.com."),
        act(call("r1", "read", path="fixtures/sample.md")),
        result("r1", "read", sample),
        say("The sample renders; the link goes to https://docs.example.com/intro."),
    ]
    critical = checkpoint(messages).get("critical", "")
    assert "https://staging.example.com" in critical  # the user typed it: theirs to mean
    assert "url: https://docs.example.com" not in critical
    assert "email: ops@example.org" not in critical


def test_placeholder_value_lines_of_a_previous_checkpoint_are_dropped_on_update() -> None:
    previous = (
        "## Goal\n- Deploy the api.\n\n## Critical Context\n"
        "- url: https://api.acme.io/v2\n- url: https://docs.example.com/intro\n"
        "- email: ops@example.org\n- email: ops@acme.io\n"
    )
    state = extract_working_state([user("Now check the logs.")])
    text = render_state(state, previous_summary=previous)  # the merge alone, no state read
    critical = next(items for kind, _, items in parse_sections(text) if kind == "critical")
    assert critical == ["- url: https://api.acme.io/v2", "- email: ops@acme.io"]


def test_an_edit_tool_result_adds_no_outcome_to_the_last_step() -> None:
    messages = [
        user("Rename the retry flag in the client."),
        act(call("e1", "edit", path="src/client.py", oldText="retry", newText="retries")),
        result("e1", "edit", "Successfully replaced text in src/client.py."),
    ]
    assert "Successfully replaced" not in checkpoint(messages)["text"]


@pytest.mark.parametrize(
    ("output", "error"),
    [
        ("Tokens: 2k sent\n\n# 2 SEARCH/REPLACE blocks failed to match!\n", "# 2 SEARCH/REPLACE"),
        ("yq: error: bad expression at line 1", "yq: error: bad expression"),
        ("mkcert not found", "mkcert not found"),
    ],
)
def test_output_that_says_it_failed_is_a_failure_without_a_flag(output: str, error: str) -> None:
    messages = [
        user("Apply the header change."),
        act(call("a1", "apply_step", step="edit reply")),
        result("a1", "apply_step", output),
    ]
    assert error in checkpoint(messages)["blocked"]


def test_a_count_of_zero_failures_is_no_failure() -> None:
    messages = [
        user("Run the linter."),
        act(call("a1", "lint_step", step="all")),
        result("a1", "lint_step", "Checked 40 files: 0 problems failed validation"),
    ]
    assert "(none)" in checkpoint(messages)["blocked"]


def test_a_lead_in_is_joined_by_the_explicit_ask_that_follows() -> None:
    text = (
        "Clean up the export job next. It has been bugging the on-call people. "
        "The vendor moved their SFTP host last month. "
        "Could you point the job at the new host and add a retry around the upload?"
    )
    goal = checkpoint([user(text)])["goal"]
    assert "Clean up the export job next." in goal
    assert "Could you point the job at the new host and add a retry around the upload?" in goal


def test_a_routine_next_step_is_no_new_goal_and_keeps_the_request_open() -> None:
    messages = [
        user("Add a --dry-run flag to the sync command."),
        act(call("e1", "edit", path="cli/sync.py", oldText="def sync(", newText="def sync(dry,")),
        result("e1", "edit", "ok"),
        say("Added the flag; the sync command now has --dry-run."),
        user("Great, please commit"),
    ]
    found = checkpoint(messages)
    assert "Great, please commit" not in found["goal"]
    assert "Working on: “Add a --dry-run flag to the sync command.”" in found["in_progress"]


# --- Critical Context holds values, not what is merely shaped like one ---------------------------


def test_usage_lines_style_colours_and_tag_like_values() -> None:
    messages = [
        user("Restyle the banner for the spring sale; the order we test with is #5512."),
        act(call("s1", "edit_step", step="apply")),
        result(
            "s1",
            "edit_step",
            "Tokens: 8.1k sent, 512 received. Cost: $0.05 message, $0.31 session.\n"
            "Applied edit to styles/banner.css\n  --banner-fg: #222;\n  background: #fafafa;",
        ),
        act(call("b1", "bash", command="ls reports/")),
        result("b1", "bash", "report-<run-id>.md"),
        say("Restyled; the report template is named report-<run-id>.md."),
    ]
    found = checkpoint(messages)
    critical = found.get("critical", "")
    assert "#5512" in found["text"]  # the user's own value stays
    assert "$0.31" not in critical and "$0.05" not in critical
    assert "#222" not in critical
    assert "‹run-id>" not in found["text"]  # a value's own "<" is no tag to defuse


def test_a_separator_line_is_never_read_back_as_an_item() -> None:
    first = [
        user("Split the settings page into tabs."),
        act(call("e1", "edit", path="ui/settings.tsx", oldText="a", newText="b")),
        result("e1", "edit", "ok"),
        say("Split into three tabs."),
    ]
    previous = checkpoint(first)["text"] + "\n\n---\n"
    again = checkpoint([user("Now add a tab for billing.")], previous_summary=previous)
    assert "\n---" not in again.get("critical", "") and "- ---" not in again["text"]


def test_a_call_listed_last_round_is_listed_once_when_grouped_this_round() -> None:
    first = [
        user("Look up invoice INV-5512 and then its payment history."),
        act(call("c1", "fetch_invoice", invoice="INV-5512")),
        result("c1", "fetch_invoice", "INV-5512: 3 lines, total 410.00"),
    ]
    earlier = checkpoint(first)
    assert "fetch_invoice `invoice=INV-5512` → ok" in earlier["done"]
    second = [
        *first,
        act(call("c2", "fetch_invoice", invoice="INV-5512", include="payments")),
        result("c2", "fetch_invoice", "INV-5512: paid 200.00 on 2026-02-01"),
    ]
    done = checkpoint(second, previous_summary=earlier["text"])["done"].split("\n")
    about = [line for line in done if "fetch_invoice" in line]
    assert len(about) == 1, done  # one grouped line, not the old single one beside it
    assert "×2" in about[0]
