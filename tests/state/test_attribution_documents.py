"""Who wrote it, beyond code and headings: wrapper elements of any tag shape, another
model's formatted reply the user pasted, and a script's templated task prompt. Every
message here is written for this file, in our own words; each class has typed messages
beside it that must stay the user's."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as hs

from synopsis.state.attribution import attribute
from synopsis.state.extract import extract_working_state


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def written(text: str) -> list[str]:
    return [p.written for p in attribute(text)]


def typed(text: str) -> str:
    return "\n".join(p.text for p in attribute(text) if p.written == "typed")


def rules_of(*texts: str) -> list[str]:
    return [c.text for c in extract_working_state([user(t) for t in texts]).current_constraints()]


# --- wrapper elements of any tag shape ----------------------------------------------------------


def test_an_envelope_that_quotes_the_users_words_keeps_them_typed_and_drops_the_tags() -> None:
    text = "<task>\nMove the retry logic into its own module. Never change the public API.\n</task>"
    assert written(text) == ["harness", "typed", "harness"]
    rules = rules_of(text)
    assert rules == ["Never change the public API."]
    assert not any("</task>" in rule or "<task>" in rule for rule in rules)


def test_an_envelope_of_a_plain_name_around_the_whole_message_is_harness() -> None:
    text = "<environment>\nAlways use the dark theme.\nOS: linux\n</environment>"
    assert written(text) == ["harness"]
    assert rules_of(text) == []


def test_a_block_element_after_typed_words_is_harness_and_the_words_stay() -> None:
    text = (
        "Please never rename the exported functions.\n"
        "<envdetails>\n# Open tabs\nsrc/app.ts\nYou must not edit lockfiles.\n</envdetails>"
    )
    assert written(text) == ["typed", "harness"]
    assert rules_of(text) == ["Please never rename the exported functions."]


def test_a_closing_tag_on_its_own_line_is_never_the_users() -> None:
    text = "Keep the old endpoint alive until May.\n</feedback>"
    assert written(text) == ["typed", "harness"]
    assert all("</feedback>" not in rule for rule in rules_of(text))


def test_markup_the_user_mentions_in_a_sentence_stays_typed() -> None:
    for text in (
        "Use <strong> for the warning, never <b>.",
        "The <table> on the pricing page must not scroll sideways.",
    ):
        assert written(text) == ["typed"], text


def test_a_chinese_task_in_an_envelope_is_typed() -> None:
    text = "<task>\n把导出脚本改成按天分文件，不要动数据库结构。\n</task>"
    assert written(text) == ["harness", "typed", "harness"]
    assert any("数据库结构" in rule for rule in rules_of(text))


_TAG_NAME = hs.from_regex(r"[a-z]{2,10}(?:[-_][a-z]{2,8})?", fullmatch=True)
_BODY = hs.sampled_from(
    [
        "Never deploy on Fridays.",
        "Only use the staging database.",
        "别改生产环境的配置。",
        "You must keep the changelog short.",
        "Fix the flaky login test.",
    ]
)


@given(_TAG_NAME, hs.lists(_BODY, min_size=1, max_size=4), hs.booleans(), hs.booleans())
@example("task", ["Never deploy on Fridays."], True, False)
@example("answer", ["别改生产环境的配置。"], False, True)
def test_no_tag_of_an_envelope_ever_becomes_a_rule(
    name: str, body: list[str], newlines: bool, before: bool
) -> None:
    inner = ("\n" if newlines else " ").join(body)
    text = f"<{name}>\n{inner}\n</{name}>" if newlines else f"<{name}>{inner}</{name}>"
    if before:
        text = f"Look at this.\n{text}"
    for rule in rules_of(text):
        assert f"<{name}" not in rule and f"</{name}>" not in rule


# --- another model's reply, pasted ------------------------------------------------------------

_REVIEW_EN = """Here is what the other model said about your branch:

Overall, you implemented a really solid caching layer. A few points:

**Must fix before merge:**
- Never hold the lock while calling the network.
- Always set a TTL on every key.

**Nice to have:**
1. Rename `getc` to something readable.
2. You should add a metrics hook.

| area | grade |
|---|---|
| tests | B |

Let me know if you want me to draft the patch."""

_REVIEW_ZH = """你实现了非常棒的导入流程，结构清晰！下面是我的意见：

**必须修改：**
- 不要在事务里调用外部接口。
- 所有金额必须用整数分存储。

**建议：**
1. 日志里不要打印手机号。
2. 重试次数应该可配置，默认三次，间隔按指数退避。
3. 导入失败的行要单独写一个报告文件。

**结论：** 修完上面两点就可以合并。"""


def test_another_models_formatted_review_is_pasted_and_the_framing_stays_typed() -> None:
    parts = attribute(_REVIEW_EN)
    assert [p.written for p in parts] == ["typed", "pasted"]
    assert parts[0].text.startswith("Here is what the other model said")
    assert rules_of(_REVIEW_EN) == []


def test_a_chinese_review_that_opens_with_praise_is_pasted_whole() -> None:
    assert written(_REVIEW_ZH) == ["pasted"]
    assert rules_of(_REVIEW_ZH) == []


def test_the_users_words_after_a_pasted_review_that_point_back_at_it_stay_typed() -> None:
    text = _REVIEW_ZH + "\n\n以上是另一个模型的意见。按这个改，但是不要动数据库结构。"
    assert written(text) == ["pasted", "typed"]
    assert [r for r in rules_of(text) if "数据库结构" in r]
    assert not [r for r in rules_of(text) if "手机号" in r]


@pytest.mark.parametrize(
    "text",
    [
        # a typed list of requirements, with a bold word
        "Set up the export job. **Important:** it must run after midnight.\n"
        "- only the orders table\n- never include card numbers\n- keep 10 days\n"
        "- gzip the files\n- one file per day",
        # the user quotes the assistant and answers each point
        "> I will switch the queue to Redis.\nNo, stay on Postgres for now.\n"
        "> Should I drop the old table?\nNever drop it, archive it.\n"
        "> And the cron?\nEvery night at 2.\nThanks, go on.",
        # a short typed message that thanks the agent
        "You did a great job on the parser! Now never touch tests/fixtures again.",
        # 中文：用户自己打的一段要求
        "帮我写个备份脚本。要求：\n1. 每天凌晨三点跑\n2. 只保留七天\n3. 不要用 rm -rf\n"
        "4. 日志写到 /var/log/bak.log\n5. 失败了发邮件给我",
    ],
)
def test_typed_messages_with_some_structure_stay_typed(text: str) -> None:
    assert written(text) == ["typed"], text


@pytest.mark.parametrize(
    "text",
    [
        # two code blocks, one of them a script full of "# comments"
        "The deploy script fails on the second step:\n```bash\n# build\nmake all\n"
        "# ship\n./ship.sh --prod\n# notify\ncurl -X POST $HOOK\n```\nand the log says:\n"
        "```\nstep 2: permission denied while writing /srv/releases/current\n```\n"
        "I think the folder belongs to the old deploy user from before the migration.\n"
        "Never run it with sudo to get around that, fix the ownership instead.",
        # a result table from the database console, then the user's rule
        "This is what the orders table holds now:\n| id | state |\n|----|-------|\n"
        "| 17 | open |\n| 18 | open |\n| 19 | paid |\n| 20 | open |\n| 21 | refunded |\n"
        "Never run it with sudo, and do not delete the open orders, support still needs "
        "them for the audit next week, they asked for every order since March.",
        # a build log whose lines start with their level, then the user's rule
        "The build prints this:\nERROR: cannot resolve module 'left-pad'\nWARNING: peer "
        "dependency missing\nWARNING: lockfile out of date\nINFO: 214 modules\nERROR: exit "
        "code 1\nINFO: took 41s\nINFO: cache miss\nINFO: retrying\nERROR: giving up\n"
        "NOTICE: see https://build.example.org/runs/4411 for the full output of the run\n"
        "FATAL: the cache directory /var/cache/build is not writable by this user\n\n"
        "Never run it with sudo to fix it, and leave the lockfile as it is for now please.",
    ],
)
def test_code_tables_and_logs_the_user_pastes_leave_their_own_rule_typed(text: str) -> None:
    assert any("sudo" in rule for rule in rules_of(text)), [p.written for p in attribute(text)]


# --- a script's templated task prompt ---------------------------------------------------------

_PROMPT_EN = """You are an expert code auditor working in a headless run.

Audit the repository in the current folder and write AUDIT.md with your findings.

CRITICAL - Scope: only look at files under src/ and never open vendor/.
IMPORTANT: Do not modify any file except AUDIT.md.
NOTE: Keep every finding to one paragraph.

Rules:
- Always cite the file and the line.
- Never guess a version number.
- Only report issues you can reproduce.
- You must list the commands you ran.
- Do not install packages.

OUTPUT FORMAT
One heading per finding, then the evidence."""


def test_a_templated_task_prompt_keeps_its_request_and_its_rules_are_reference() -> None:
    parts = attribute(_PROMPT_EN)
    assert [p.written for p in parts] == ["harness", "typed", "harness"]
    assert parts[1].text.startswith("Audit the repository")
    state = extract_working_state([user(_PROMPT_EN)])
    assert state.current_constraints() == ()
    assert state.goals and state.goals[0].text.startswith("Audit the repository")


def test_a_chinese_templated_prompt_is_the_harness() -> None:
    prompt = "\n".join(
        [
            "你是一名资深的数据工程师。",
            "",
            "把 orders 表的导出流程改成增量导出，写好说明文档。",
            "",
            "IMPORTANT: 不要修改表结构。",
            "CRITICAL - 只能读取 analytics 库。",
            "NOTE: 每一步都要记录执行的命令和输出结果，方便之后的人复查和回滚。",
            "",
            "规则：",
            "- 必须使用参数化查询。",
            "- 不要在日志里打印用户的手机号码和身份证号码。",
            "- 只能在 staging 环境里测试，测试完成后要清理临时表。",
            "- 所有时间一律使用 UTC 时间，并在文档里写明。",
            "- 禁止删除任何历史数据，哪怕是看起来重复的数据。",
        ]
    )
    assert len(prompt) >= 200
    state = extract_working_state([user(prompt * 2)])
    assert state.current_constraints() == ()


@pytest.mark.parametrize(
    "text",
    [
        "IMPORTANT: never push to main.",
        "IMPORTANT: never push to main. NOTE: the CI runner is slow, so be patient with it.",
        # a long typed message that shouts once
        "Okay here's the plan for today, it's a long one so bear with me.\n"
        "First we finish the importer; it still drops rows with empty names.\n"
        "Then the report page needs the new totals, Ana asked twice already.\n"
        "After that look at the flaky test in billing, it fails one run in ten.\n"
        "IMPORTANT: never push to main, open a PR for each of these.\n"
        "The staging box is staging-3, the old one is gone.\n"
        "If something is unclear just ask me, I'm around all afternoon.\n"
        "Oh and the translations can wait until next week.\n"
        "Also keep the commits small, the reviewers hate big diffs.\n"
        "That's it, thanks!",
    ],
)
def test_a_typed_rule_that_shouts_stays_a_rule(text: str) -> None:
    assert all(w == "typed" for w in written(text)), text
    assert any("push to main" in rule for rule in rules_of(text))


# --- invariants -------------------------------------------------------------------------------

_MESSAGES = hs.sampled_from(
    [
        "Never deploy on Fridays.",
        _REVIEW_EN,
        _REVIEW_ZH,
        _PROMPT_EN,
        "<task>\nOnly touch the docs folder.\n</task>",
        "ok, and keep the port at 8080",
        "不要改生产环境的配置。",
        "</answer>",
    ]
)


@given(hs.lists(_MESSAGES, min_size=1, max_size=6), hs.integers(min_value=0, max_value=5))
def test_a_messages_rules_do_not_depend_on_the_messages_after_it(
    messages: list[str], cut: int
) -> None:
    cut = min(cut, len(messages))
    every = extract_working_state([user(m) for m in messages])
    prefix = extract_working_state([user(m) for m in messages[:cut]])
    written_by_text = {c.text: c.written for c in every.constraints}
    for constraint in prefix.constraints:
        assert written_by_text.get(constraint.text) == constraint.written  # kept, as written


def test_a_template_without_a_plain_request_keeps_the_line_it_labels_as_the_task() -> None:
    prompt = "\n".join(
        [
            "You are an expert release engineer.",
            "TASK: Draft the release notes for version 4.2 from the merged pull requests.",
            "IMPORTANT: Never mention internal ticket numbers.",
            "CRITICAL - Tone: plain and short, no marketing words at all.",
            "- Always group the changes by component.",
            "- Never include the commits of the bots.",
            "- Only list user-facing changes.",
            "- You must link every pull request.",
            "- Do not invent dates.",
            "- Keep every entry to one line, with the author's handle at its end.",
            "OUTPUT FORMAT: markdown with one heading per component and a list under it.",
        ]
    )
    state = extract_working_state([user(prompt)])
    assert state.current_constraints() == ()
    assert state.goals and "release notes" in state.goals[0].text


# --- output copied from a terminal --------------------------------------------------------------


def _padded(rows: list[str], width: int = 90) -> str:
    return "\n".join(row.ljust(width) for row in rows)


def test_rows_copied_off_a_full_screen_program_are_output_and_the_words_after_stay() -> None:
    screen = _padded(
        [
            " + 3 - **Sync**: the worker must always retry three times before it gives up.",
            " + 4 - **Limits**: uploads never exceed 20 MB and are refused above that.",
            " + 5                                                                       ",
            " + 6 ### Fixed",
            " + 7 - **Paths**: only absolute paths are accepted by the importer now.",
        ]
    )
    text = f"{screen}\n\ndrop the Limits line, we never promised that"
    assert written(text) == ["pasted", "typed"]
    rules = rules_of(text)
    assert not any("retry" in r or "absolute paths" in r for r in rules)


def test_an_error_a_terminal_wrapped_and_json_log_lines_are_output() -> None:
    error = (
        ' Error: 409 {"error": "conflict", "message": "a deploy must not start while\n'
        " another one is running; only one deploy per environment is allowed at a\n"
        ' time"}'
    )
    log = "\n".join(
        [
            '{"level": "warn", "msg": "you should never see this twice"}',
            '{"level": "error", "msg": "the job must be idempotent"}',
            '{"level": "info", "msg": "retrying"}',
        ]
    )
    text = f"the deploy step died with\n\n{error}\n\nand the worker logged\n\n{log}\n\nwhy?"
    assert rules_of(text) == []
    assert [w for w in written(text) if w == "typed"]


def test_a_typed_paragraph_that_starts_with_error_is_still_typed() -> None:
    text = "Error handling: never swallow exceptions in the importer, log them and rethrow."
    assert written(text) == ["typed"]
    assert rules_of(text)


def test_a_typed_list_of_counts_is_no_output() -> None:
    text = "Plan it like this:\n- 2 nights in Kyoto\n- 3 nights in Tokyo\n- 1 night in Osaka"
    assert written(text) == ["typed"]
