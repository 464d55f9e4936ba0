"""Three gaps the fidelity benchmark found: error lines, Chinese preferences, upper-case codes.

1. A failed call keeps one line of its output. For a Python traceback that was the header
   (``Traceback (most recent call last):``), for pytest the ``FAILURES`` banner, for Node
   the echoed source line — none says why the call failed.
2. Chinese preferences worded with 喜欢 / 希望 / 一律 / 统一 … were not rules.
3. Carrier tracking numbers and similar upper-case codes were not values.
"""

from __future__ import annotations

import asyncio
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synopsis.eval import generate_scenario, make_compactor, run_scenario
from synopsis.eval.scenarios import Language, Style
from synopsis.state import extract_working_state, guard_summary
from synopsis.state._errors import MAX_ERROR_LINE, NO_ERROR_MESSAGE, first_error_line
from synopsis.state._patterns import find_identifiers
from synopsis.state.guard import pinned_facts
from synopsis.state.render import is_pinned_identifier
from tests.state.builders import act, call, result, user

# --- 1. the line that says why a call failed ----------------------------------------------

PSYCOPG_TRACEBACK = """\
Traceback (most recent call last):
  File "scripts/backfill_q7rt.py", line 88, in <module>
    main()
  File "scripts/backfill_q7rt.py", line 71, in main
    rows = fetch_rows(conn, args.batch)
  File "/usr/lib/python3/dist-packages/psycopg/cursor.py", line 732, in execute
    raise ex.with_traceback(None)
psycopg.errors.UndefinedTable: relation "orders_v2" does not exist
LINE 1: SELECT id, total FROM orders_v2 WHERE paid_at IS NULL
"""

CHAINED_TRACEBACK = """\
Traceback (most recent call last):
  File "app/config.py", line 12, in load
    return data["region"]
           ~~~~^^^^^^^^^^
KeyError: 'region'

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "app/main.py", line 5, in <module>
    settings = load()
  File "app/config.py", line 14, in load
    raise ConfigError("config.toml has no [region] table") from exc
app.errors.ConfigError: config.toml has no [region] table
"""

PYTEST_LONG = """\
============================= test session starts ==============================
platform linux -- Python 3.11.9, pytest-8.2.0, pluggy-1.5.0
rootdir: /home/dev/shop
collected 3 items

tests/test_money.py .F.                                                  [100%]

=================================== FAILURES ===================================
_______________________________ test_round_half ________________________________

    def test_round_half() -> None:
>       assert round_cents(Decimal("0.125")) == Decimal("0.13")
E       AssertionError: assert Decimal('0.12') == Decimal('0.13')
E        +  where Decimal('0.12') = round_cents(Decimal('0.125'))

tests/test_money.py:9: AssertionError
=========================== short test summary info ============================
FAILED tests/test_money.py::test_round_half - AssertionError: assert Decimal('0.12') == D...
========================= 1 failed, 2 passed in 0.03s ==========================
"""

PYTEST_TB_LINE = """\
F..                                                                      [100%]
=================================== FAILURES ===================================
/home/dev/shop/tests/test_money.py:9: assert Decimal('0.12') == Decimal('0.13')
=========================== short test summary info ============================
FAILED tests/test_money.py::test_round_half - assert Decimal('0.12') == Decimal('0.13')
1 failed, 2 passed in 0.02s
"""

NODE_THROW = """\
/home/dev/shop/src/server.js:14
    throw new Error("SHOP_SECRET is not set");
    ^

Error: SHOP_SECRET is not set
    at loadConfig (/home/dev/shop/src/server.js:14:11)
    at Object.<anonymous> (/home/dev/shop/src/server.js:30:1)
    at Module._compile (node:internal/modules/cjs/loader:1256:14)

Node.js v18.17.0
"""

NODE_MODULE = """\
node:internal/process/esm_loader:40
      internalBinding('errors').triggerUncaughtException(
                                ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'fastify' imported from /srv/api/index.js
    at new NodeError (node:internal/errors:405:5)
    at packageResolve (node:internal/modules/esm/resolve:916:9)
"""

TS_NODE = """\
/srv/api/node_modules/ts-node/src/index.ts:859
    return new TSError(diagnosticText, diagnosticCodes, diagnostics);
           ^
TSError: ⨯ Unable to compile TypeScript:
src/routes.ts:41:7 - error TS2322: Type 'string' is not assignable to type 'number'.

41       port: process.env.PORT,
         ~~~~

    at createTSError (/srv/api/node_modules/ts-node/src/index.ts:859:12)
    at reportTSError (/srv/api/node_modules/ts-node/src/index.ts:863:19)
"""

JEST = """\
 FAIL  src/cart.test.ts
  ● cart › applies the coupon

    TypeError: Cannot read properties of undefined (reading 'percent')

      12 |   const coupon = coupons.get(code);
    > 13 |   return total * (1 - coupon.percent / 100);
         |                              ^

      at applyCoupon (src/cart.ts:13:30)
      at Object.<anonymous> (src/cart.test.ts:8:12)
"""

NODE_ASSERT = """\
node:assert:124
  throw new AssertionError(obj);
  ^

AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

3 !== 4

    at Object.<anonymous> (/tmp/check.js:2:8)
"""


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        (PSYCOPG_TRACEBACK, 'psycopg.errors.UndefinedTable: relation "orders_v2" does not exist'),
        (CHAINED_TRACEBACK, "app.errors.ConfigError: config.toml has no [region] table"),
        (PYTEST_LONG, "E       AssertionError: assert Decimal('0.12') == Decimal('0.13')"),
        (
            PYTEST_TB_LINE,
            "FAILED tests/test_money.py::test_round_half - "
            "assert Decimal('0.12') == Decimal('0.13')",
        ),
        (NODE_THROW, "Error: SHOP_SECRET is not set"),
        (
            NODE_MODULE,
            "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'fastify' imported from "
            "/srv/api/index.js",
        ),
        (
            TS_NODE,
            "src/routes.ts:41:7 - error TS2322: Type 'string' is not assignable to type 'number'.",
        ),
        (JEST, "TypeError: Cannot read properties of undefined (reading 'percent')"),
        (NODE_ASSERT, "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:"),
    ],
    ids=[
        "python",
        "python-chained",
        "pytest",
        "pytest-tb-line",
        "node-throw",
        "node-esm",
        "ts-node",
        "jest",
        "node-assert",
    ],
)
def test_the_error_line_is_the_reason_not_the_header(output: str, expected: str) -> None:
    line = first_error_line(output)
    # a test runner's failing test is named before its reason ("FAIL x.test.ts — TypeError…")
    assert line == expected or (line.startswith("FAIL ") and line.endswith(" — " + expected))


def test_a_traceback_after_log_noise_and_an_earlier_error_word() -> None:
    output = (
        "INFO  starting backfill\n"
        "WARNING retrying after error 1/3\n" + PSYCOPG_TRACEBACK + "\nexit status 1\n"
    )
    assert first_error_line(output).startswith("psycopg.errors.UndefinedTable:")


def test_an_indented_or_prefixed_traceback() -> None:
    indented = "Captured stderr:\n" + "".join(f"    {ln}\n" for ln in PSYCOPG_TRACEBACK.split("\n"))
    remote = "".join(f"remote: {ln}\n" for ln in CHAINED_TRACEBACK.split("\n"))
    assert first_error_line(indented).startswith("psycopg.errors.UndefinedTable:")
    assert first_error_line(remote) == "app.errors.ConfigError: config.toml has no [region] table"


def test_a_cut_off_traceback_falls_back_to_an_earlier_complete_one() -> None:
    cut = 'Traceback (most recent call last):\n  File "app/main.py", line 9, in <module>\n'
    assert first_error_line(PSYCOPG_TRACEBACK + "\nretrying\n" + cut).startswith(
        "psycopg.errors.UndefinedTable:"
    )
    assert first_error_line(cut) == "Traceback (most recent call last):"  # nothing better


@pytest.mark.parametrize(
    "message",
    [
        "PAYMENT_GATEWAY_ERROR 402: card expired (gateway ref gw_k3m9x2p7q4w8)",
        "REPLACEMENT_BLOCKED: warehouse WH-204QX has no stock for this model (request CASE-12345)",
        "Error: cannot find module 'x'",
        "error: Your local changes to the following files would be overwritten by checkout:",
    ],
)
def test_a_tools_own_message_stays_verbatim(message: str) -> None:
    assert first_error_line(message) == message
    assert first_error_line(f"\n  {message}  \n\nmore detail\n") == message


def test_banners_and_build_tools_keep_their_message() -> None:
    npm = 'npm ERR! Missing script: "build:prod"\nnpm ERR!\nnpm ERR! To see a list of scripts'
    assert first_error_line(npm) == 'npm ERR! Missing script: "build:prod"'
    assert first_error_line("===== ERRORS =====\nmodule foo has no attribute bar\n") == (
        "===== ERRORS ====="
    )  # a banner is only the fallback when nothing else names an error
    assert first_error_line("   \n\n") == NO_ERROR_MESSAGE


_LINES = st.sampled_from(
    [
        "Traceback (most recent call last):",
        '  File "a.py", line 3, in f',
        "    f()",
        "ValueError: bad value 42",
        "E       assert 1 == 2",
        "E",
        "    at run (/srv/a.js:1:2)",
        "TypeError: x is not a function",
        "Error: boom:",
        "=== FAILURES ===",
        "remote: Traceback (most recent call last):",
        "plain output",
        "",
        "   ",
        "\r",
    ]
)


@given(st.lists(st.one_of(_LINES, st.text(max_size=30)), max_size=30), st.booleans())
def test_the_error_line_is_always_a_piece_of_the_output(lines: list[str], crlf: bool) -> None:
    output = ("\r\n" if crlf else "\n").join(lines)
    line = first_error_line(output)
    assert line == NO_ERROR_MESSAGE or line in output
    assert len(line) <= MAX_ERROR_LINE
    assert "\n" not in line and line == line.strip()


def test_a_failed_call_keeps_the_exception_and_the_guard_pins_it() -> None:
    messages = [
        user("Backfill the orders table."),
        act(call("c1", "bash", command="python scripts/backfill_q7rt.py --batch 500")),
        result("c1", "bash", PSYCOPG_TRACEBACK, error=True),
    ]
    state = extract_working_state(messages)
    (record,) = state.open_errors()
    assert record.error == 'psycopg.errors.UndefinedTable: relation "orders_v2" does not exist'
    guarded = guard_summary("## Goal\n- Backfill the orders table.\n", state).text
    assert 'relation "orders_v2" does not exist' in guarded
    assert "backfill_q7rt.py" in guarded


def test_a_users_failed_shell_command_keeps_the_exception() -> None:
    message = {
        "role": "bashExecution",
        "command": "python -m app.main",
        "output": CHAINED_TRACEBACK,
        "exitCode": 1,
    }
    (record,) = extract_working_state([message]).tool_calls
    assert record.error == "app.errors.ConfigError: config.toml has no [region] table"


# --- 2. preferences and standing rules in Chinese ----------------------------------------

RULES_ZH = [
    "我更喜欢提交信息以 `[BBC7]` 开头。",
    "我比较喜欢用 pnpm 管理依赖。",
    "我不喜欢在日志里看到表情符号。",
    "我希望每次改动都附上测试。",
    "希望你回复时用中文。",
    "新的测试文件请一律命名为 `test_css2_*.py`。",
    "日志统一用英文写。",
    "接口返回的时间统一为 UTC。",
    "提交前总是先跑 `make lint`。",
    "新代码的行宽请尽量控制在 100 个字符。",
    "最好不要引入新的依赖。",
    "我倾向于小步提交。",
    "我习惯用 tab 缩进。",
]
NOT_RULES_ZH = [
    "这些报告的写法千篇一律。",
    "修好的希望不大。",
    "这次没有希望了。",
    "我们统一了两个模块的接口。",
    "那就最好不过了。",
    "这是目前最好的办法。",
    "他喜欢用 vim 写代码。",
    "你喜欢哪种风格？",
    "我习惯了。",
]


@pytest.mark.parametrize("sentence", RULES_ZH)
def test_chinese_preferences_are_kept_verbatim(sentence: str) -> None:
    state = extract_working_state([user("修一下登录页。"), user(sentence)])
    assert [c.text for c in state.constraints] == [sentence]


@pytest.mark.parametrize("sentence", NOT_RULES_ZH)
def test_chinese_sentences_that_only_look_like_preferences(sentence: str) -> None:
    state = extract_working_state([user("修一下登录页。"), user(sentence)])
    assert state.constraints == ()


def test_english_wishes_about_how_things_are_but_not_requests() -> None:
    rule = "I'd like new test files to be named `test_g5uw_*.py`."
    rather = "I’d rather you kept the old endpoint alive."
    messages = [
        user("I'd like you to fix the login page."),
        user("I'd like to be able to log in with a passkey."),
        user(rule),
        user(rather),
    ]
    assert [c.text for c in extract_working_state(messages).constraints] == [rule, rather]


# --- 3. upper-case codes: tracking numbers, serials ----------------------------------------

CODES = ["1ZAY6BRU86051698", "1Z999AA10123456784", "LP00123456789CN", "TBA123456789000"]


@pytest.mark.parametrize("code", CODES)
def test_tracking_numbers_are_kept_and_pinned(code: str) -> None:
    messages = [user("Where is my parcel?"), user(f"The tracking number on the box says {code}.")]
    state = extract_working_state(messages, entry_ids=["e0", "e1"])
    (value,) = [i for i in state.identifiers if i.value == code]
    assert (value.kind, value.source, value.entry_id) == ("id", "user", "e1")
    assert is_pinned_identifier(value)
    assert any(f.text == code for f in pinned_facts(state))
    assert code in guard_summary("## Goal\n- Where is my parcel?\n", state).text


def test_codes_in_lists_and_chinese_text() -> None:
    text = "两个包裹：1Z999AA10123456784、LP00123456789CN，还有 (TBA123456789000)。"
    assert [(f.kind, f.value) for f in find_identifiers(text)] == [
        ("id", "1Z999AA10123456784"),
        ("id", "LP00123456789CN"),
        ("id", "TBA123456789000"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("INTERNATIONALIZATION and CONFIGURATION are words", []),
        ("Hello2024World and abcdef123456xyz are not upper case", []),
        ("ABC123XYZ is too short; ABCDEFGHIJ1 has one digit", []),
        ("12345678901 is a plain number", []),
        ("open REPORT2024Q1.PDF and IMG20240101.JPG", []),
        # a dashed token is read whole, as a reference number, never a piece of it as a code
        ("serial SN-X7K2M9PQ4Z and ISO-8859-15 are dashed tokens", [("ticket", "SN-X7K2M9PQ4Z")]),
        ("start from 3f9a2c1d7e", [("sha", "3f9a2c1d7e")]),
        ("see build/ABCDEF123456/out.js", [("path", "build/ABCDEF123456/out.js")]),
        ("mail DEV123456789@EXAMPLE.COM", [("email", "DEV123456789@EXAMPLE.COM")]),
    ],
)
def test_what_is_not_an_upper_case_code(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(f.kind, f.value) for f in find_identifiers(text)] == expected


_CODE_CHARS = st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ0123456789", min_size=10, max_size=40)


@given(_CODE_CHARS)
def test_an_upper_case_code_is_found_exactly_when_it_mixes_letters_and_digits(code: str) -> None:
    found = [(f.kind, f.value) for f in find_identifiers(f"Ref {code} please.")]
    digits = sum(c.isdigit() for c in code)
    is_code = digits >= 2 and digits < len(code)
    if is_code:
        assert found == [("id", code)]
    else:
        assert all(kind != "id" for kind, _ in found)


@given(st.lists(st.from_regex(re.compile(r"[A-Za-z]{1,40}"), fullmatch=True), max_size=12))
def test_words_without_digits_are_never_codes(words: list[str]) -> None:
    assert find_identifiers(" ".join(words)) == []


# --- the benchmark runs where the gaps showed ----------------------------------------------


@pytest.mark.parametrize(
    ("style", "language", "seed"),
    [
        ("coding", "en", 1),
        ("coding", "zh", 2),
        ("coding", "zh", 3),
        ("coding", "en", 4),
        ("support", "en", 1),
        ("support", "en", 3),
    ],
)
def test_the_benchmark_canaries_that_were_lost_now_survive(
    style: Style, language: Language, seed: int
) -> None:

    scenario = generate_scenario(seed, style, language)
    results = asyncio.run(run_scenario(scenario, make_compactor("guarded"), 0.1, 5))
    assert sum(len(r.scores) for r in results) > 0
    lost = {
        (r.round, score.canary.text, score.missing)
        for r in results
        for score in r.scores
        if not score.survived
        and score.canary.type.value in ("failed_approach", "preference", "fact")
    }
    assert lost == set()
