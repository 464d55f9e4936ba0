"""Who wrote a user-role text, on harnesses and pastes the records were not written from.

Every case here is written in our own words, in the style of a harness other than the one
the records were first drawn from (Cline): Roo Code, Continue, Windsurf, Copilot Chat,
Claude Code, Codex, Gemini CLI, Cursor; and terminal output in several shapes. Each checks
the two sides: the harness' or the terminal's text states no rule, goal or fact of the
user's, and the user's own words around it are kept.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from synopsis.state import attribution
from synopsis.state.attribution import attribute, failure_line, output_runs
from synopsis.state.extract import extract_working_state
from synopsis.state.model import WorkingState


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def state_of(*texts: str) -> WorkingState:
    return extract_working_state([user(t) for t in texts])


def rules_of(*texts: str) -> list[str]:
    return [c.text for c in state_of(*texts).current_constraints()]


def typed_of(text: str) -> str:
    return attribution.typed_text(attribute(text))


def user_words(state: WorkingState) -> str:
    """Everything the state holds as the user's own statements."""
    return "\n".join(
        [c.text for c in state.constraints]
        + [g.text for g in state.goals]
        + [d.text for d in state.decisions if d.source == "user"]
        + [f.text for f in state.facts if f.source == "user" and f.written == "typed"]
    )


# --- harness text inside user turns -----------------------------------------------------------

HARNESS_TURNS = {
    "roo-result-and-environment": (
        "[apply_diff for 'src/cart.ts'] Result:\nChanges applied to src/cart.ts; the file "
        "now has 212 lines.\n\n<environment_details>\n# Visible files\nsrc/cart.ts\n"
        "# Current mode\ncode\nAlways answer in the mode's format.\n</environment_details>"
    ),
    "windsurf-style-reminder-without-tags": (
        "Note: this message was automatically inserted by the editor. You must keep "
        "diffs small and always mention the file you edit."
    ),
    "copilot-protocol-about-the-user": (
        "Before you call a tool, make sure the user's question is answered in one line. "
        "When editing, call the insert_edit tool once per file and never repeat code."
    ),
    "auto-reminder-in-other-words": (
        "[reminder] This is an automatic notice: 3 todos are still open. Do not reply to "
        "this message directly; update the todo list when a step is done."
    ),
    "approval-relayed-by-the-harness": (
        "The user approved this operation. Go on with the next step of the task and run "
        "the check_types tool before you finish."
    ),
    "claude-code-command-wrappers": (
        "<command-name>/model</command-name>\n<command-message>model</command-message>\n"
        "<command-args>opus</command-args>"
    ),
    "claude-code-command-output": (
        "<local-command-stdout>Model set to opus. Always use it for new chats."
        "</local-command-stdout>"
    ),
    "codex-environment": (
        "<environment_context>\n  <cwd>/home/lee/shop</cwd>\n  <approval_policy>never"
        "</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n"
        "</environment_context>"
    ),
    "codex-instructions-file": (
        "<user_instructions>\n# AGENTS.md\nAlways run the linter first. Never commit files "
        "under dist/.\n</user_instructions>"
    ),
    "ide-context-report": (
        "This is the Acme IDE. We are setting up the context for our session. The date is "
        "4 March 2026. My working directory is /srv/acme. Never delete files in /srv."
    ),
    "resumed-session-status": (
        "[SESSION RESUMED] The previous run stopped three hours ago and files may have "
        "changed since. Re-read every file before you edit it, and finish the open step first."
    ),
    "chinese-automated-notice": (
        "（这是一条系统自动生成的提醒，请勿直接回复此消息。）记得每次都先运行测试。"
    ),
}


@pytest.mark.parametrize("text", HARNESS_TURNS.values(), ids=HARNESS_TURNS.keys())
def test_a_harness_turn_states_nothing_of_the_users(text: str) -> None:
    assert typed_of(text).strip() == ""
    state = state_of(text)
    assert state.current_constraints() == ()
    assert user_words(state) == ""


def test_a_harness_snapshot_is_read_as_an_earlier_summary_not_as_the_users_words() -> None:
    # Gemini CLI's /compress leaves its summary as a user turn: what it says of the rules
    # is carried as an earlier summary's (source "summary"), never as something typed now.
    text = (
        "<state_snapshot>\n  <overall_goal>Port the exporter to Go.</overall_goal>\n"
        "  <active_constraints>- Never call the network from tests.</active_constraints>\n"
        "</state_snapshot>"
    )
    assert typed_of(text).strip() == ""
    state = state_of(text)
    assert [(c.text, c.source) for c in state.current_constraints()] == [
        ("Never call the network from tests.", "summary")
    ]
    assert not [d for d in state.decisions if d.source == "user"]
    assert not [f for f in state.facts if f.source == "user" and f.written == "typed"]


def test_the_users_words_in_an_envelope_stay_beside_the_harness_text() -> None:
    text = (
        "[attempt_completion] Result:\n\nThe user has given feedback on what you did. "
        "Weigh it and continue the task.\n<feedback>\nKeep the discount logic in one place, "
        "and never round prices before tax.\n</feedback>\n\n<environment_details>\n"
        "# Time\n2026-03-04 10:00\n</environment_details>"
    )
    assert rules_of(text) == [
        "Keep the discount logic in one place, and never round prices before tax."
    ]


def test_a_cursor_query_is_the_users_and_the_attached_file_is_not() -> None:
    text = (
        "<user_query>\nMake the sidebar collapsible. Don't change the colors.\n</user_query>\n"
        '<attached_files>\n<file_contents path="src/Sidebar.tsx">\n// Always export default\n'
        "export default function Sidebar() { return null }\n</file_contents>\n</attached_files>"
    )
    rules = rules_of(text)
    assert any("Don't change the colors" in r for r in rules)
    assert not any("export default" in r for r in rules)


def test_a_copilot_request_envelope_keeps_the_rule_and_drops_the_reminders() -> None:
    text = (
        "<context>\nThe current date is 4 March 2026.\n</context>\n<editorContext>\nThe user's "
        "current file is src/app.py.\n</editorContext>\n<reminder>\nWhen you use the "
        "replace_string tool, always include three lines of context.\n</reminder>\n"
        "<userRequest>\nadd retries to the fetch helper, but never more than three\n"
        "</userRequest>"
    )
    rules = rules_of(text)
    assert any("never more than three" in r for r in rules)
    assert not any("three lines of context" in r for r in rules)


def test_the_users_own_message_next_to_a_harness_paragraph_stays_typed() -> None:
    text = (
        "Please move the cron job to 2am and never run it on Sundays.\n\n"
        "(This is an automated note appended by the client: remember to use a tool in each "
        "reply.)"
    )
    # the note declares itself automated: the stretch it stands in is the harness'
    assert typed_of(text) == ""
    separate = "Please move the cron job to 2am and never run it on Sundays."
    assert rules_of(separate)


def test_a_capitalised_label_in_brackets_typed_by_the_user_is_theirs_in_lower_case() -> None:
    text = "[update] we moved to Postgres 16. Never write to the old MySQL host again."
    assert typed_of(text).strip() == text
    assert rules_of(text)


def test_the_user_speaking_of_their_apps_users_is_not_the_harness() -> None:
    text = (
        "When the user logs in, always redirect them to /home. The user should never see "
        "the tour twice, and show the user a toast when the task list fails to load."
    )
    assert typed_of(text).strip() == text
    assert rules_of(text)


def test_a_continue_context_block_is_pasted_and_the_question_after_it_is_typed() -> None:
    text = (
        "```src/db.py\n# never call commit inside the pool helper\ndef get(conn):\n"
        "    return conn.cursor()\n```\n\nwhy does this deadlock? never change the pool size."
    )
    rules = rules_of(text)
    assert any("never change the pool size" in r for r in rules)
    assert not any("commit inside" in r for r in rules)


# --- terminal output the user pasted -----------------------------------------------------------

_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/srv/app/main.py", line 3, in <module>\n'
    "    import numpy\n"
    '  File "/srv/venv/lib/numpy/__init__.py", line 11, in <module>\n'
    "    from numpy.core import multiarray\n"
    "ModuleNotFoundError: No module named 'numpy.core._multiarray_umath'"
)
_RUSTC = (
    "error[E0382]: borrow of moved value: `order`\n"
    "  --> src/shop.rs:41:20\n"
    "   |\n"
    "38 |     let total = finish(order);\n"
    "   |                        ----- value moved here\n"
    '41 |     println!("{}", order.id);\n'
    "   |                    ^^^^^^^^ value borrowed here after move"
)
_WINDOWS = (
    "D:\\work\\shop>npm start\n\n"
    "> shop@2.1.0 start\n"
    "> node server.js\n\n"
    "node:events:491\n"
    "      throw er; // Unhandled 'error' event\n"
    "      ^\n\n"
    "Error: listen EACCES: permission denied 0.0.0.0:80\n"
    "    at Server.setupListenHandle [as _listen2] (node:net:1855:21)\n"
    "    at listenInCluster (node:net:1920:12) {\n"
    "  code: 'EACCES',\n"
    "  errno: -4092,\n"
    "  port: 80\n"
    "}"
)
_GIT = (
    "$ git push origin main\n"
    "To github.com:lee/shop.git\n"
    " ! [rejected]        main -> main (fetch first)\n"
    "error: failed to push some refs to 'github.com:lee/shop.git'\n"
    "hint: Updates were rejected because the remote contains work that you do not have"
)


@pytest.mark.parametrize(
    ("paste", "failure"),
    [
        (_TRACEBACK, "ModuleNotFoundError: No module named 'numpy.core._multiarray_umath'"),
        (_RUSTC, "error[E0382]: borrow of moved value: `order`"),
        (_WINDOWS, "Error: listen EACCES: permission denied 0.0.0.0:80"),
        (_GIT, "error: failed to push some refs to 'github.com:lee/shop.git'"),
    ],
    ids=["python", "rustc", "windows-npm", "git"],
)
def test_pasted_output_is_one_block_kept_as_its_failure_line(paste: str, failure: str) -> None:
    text = f"I get this when I start it:\n\n{paste}\n\nDon't downgrade anything to fix it."
    parts = attribute(text)
    output = [p for p in parts if p.output]
    assert len(output) == 1 and output[0].written == "pasted"
    assert failure_line(output[0].text) == failure
    state = state_of(text)
    assert [c.text for c in state.current_constraints()] == ["Don't downgrade anything to fix it."]
    pasted = [f.text for f in state.facts if f.written == "pasted"]
    assert pasted == [failure]
    typed = [f.text for f in state.facts if f.written == "typed"]
    assert not any(
        line.strip() and line.strip() in fact for fact in typed for line in paste.split("\n")[1:]
    )


def test_output_in_a_chinese_message_is_one_block_and_the_rule_after_it_stays() -> None:
    text = (
        "运行以后报错：\nnpm ERR! code ENOENT\nnpm ERR! syscall open\n"
        "npm ERR! path /app/package.json\nnpm ERR! errno -2\n不要删掉 node_modules 目录。"
    )
    state = state_of(text)
    assert any("不要删掉" in c.text for c in state.current_constraints())
    assert [f.text for f in state.facts if f.written == "pasted"] == ["npm ERR! code ENOENT"]


def test_a_typed_list_with_colons_and_quotes_is_no_output() -> None:
    for text in (
        "Ports for the stack:\n- api: 8080\n- web: 3000\n- admin: 9000\nNever expose 5432.",
        "> Should I drop the cache?\nNo, keep it.\n> And the old logs?\nArchive them.\n"
        "> Rename the job?\nYes, call it nightly.",
        "Steps:\n1. build\n2. test\n3. deploy\nall three must pass before a release",
    ):
        assert output_runs(text) == [], text
        assert typed_of(text).strip() == text.strip(), text


def test_a_pasted_output_without_a_failure_leaves_no_fact() -> None:
    text = (
        "it works now:\n$ npm test\n> shop@2.1.0 test\n> vitest run\n"
        " ✓ src/cart.test.ts (12 tests) 41ms\n ✓ src/tax.test.ts (4 tests) 9ms\n"
        "Test Files  2 passed (2)"
    )
    state = state_of(text)
    assert [f for f in state.facts if f.written == "pasted"] == []
    assert not any("vitest" in f.text for f in state.facts)


def test_inline_backticks_in_a_pasted_prompt_line_open_no_fence() -> None:
    text = (
        "C:\\tools>```bashecho hi```\n'```bashecho' is not recognized as an internal or "
        "external command,\noperable program or batch file.\n\nC:\\tools>"
    )
    parts = attribute(text)
    assert [p.written for p in parts] == ["pasted"] and parts[0].output
    assert failure_line(parts[0].text) == (
        "'```bashecho' is not recognized as an internal or external command,"
    )


def test_a_resumed_task_keeps_only_the_users_new_message() -> None:
    text = (
        "[TASK PAUSED] This job was stopped a while ago and may be half done; check the "
        "working tree before going on.\n\nNote: a tool call the user never answered should "
        "be treated as failed.\n\nNew instructions for task continuation:\n<user_message>\n"
        "Skip the Windows build for now, and never bump the major version.\n</user_message>"
    )
    rules = rules_of(text)
    assert any("never bump the major version" in r for r in rules)
    assert not any("working tree" in r or "treated as failed" in r for r in rules)


_OUTPUT_LINES = [
    "$ make build",
    "    at render (src/view.ts:12:4)",
    "TypeError: x is undefined",
    "npm warn deprecated glob@7.2.3",
    "  14 |   return total;",
    "[worker] started in 41ms",
    "✓ built in 1.2s",
]
_PROSE_LINES = [
    "Never push to main without a review.",
    "the build broke after your change",
    "Please keep the old API working.",
    "why?",
    "",
]


@given(hs.lists(hs.sampled_from(_OUTPUT_LINES + _PROSE_LINES), max_size=14).map("\n".join))
def test_output_runs_start_and_end_on_output_lines_and_keep_the_rest(text: str) -> None:
    runs = output_runs(text)
    assert runs == sorted(runs)
    assert all(a < b for (_, a), (b, _) in pairwise(runs))
    for start, end in runs:
        lines = [ln for ln in text[start:end].split("\n") if ln.strip()]
        assert attribution.is_output_line(lines[0]) and attribution.is_output_line(lines[-1])
    parts = attribute(text)
    assert all(part.text in text for part in parts)
    # every prose line outside the runs is still somewhere in the parts, as it was typed
    outside = "".join(
        text[a:b]
        for a, b in zip([0, *[e for _, e in runs]], [*[s for s, _ in runs], len(text)], strict=True)
    )
    joined = "\n".join(part.text for part in parts)
    for line in outside.split("\n"):
        assert line.strip() in joined


def test_a_reply_copied_off_a_terminal_keeps_its_margin_and_is_pasted() -> None:
    text = (
        "Here is what the CLI told me last week. Can we still do this?\n\n"
        "  Summary: the model can be tuned for sermons.\n"
        "  We should switch on the speaker cloning in the code.\n"
        "  A later step could add a glossary of names.\n"
        "  Latency stays under two seconds on the GPU."
    )
    assert typed_of(text).strip() == "Here is what the CLI told me last week. Can we still do this?"
    nested = "Do these:\n  - never log tokens\n  - keep retries at 3\n  - always use UTC"
    assert typed_of(nested).strip() == nested
