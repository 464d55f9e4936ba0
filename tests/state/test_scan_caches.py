"""The shortcuts of extraction never change its result.

Text scans are remembered per text (:mod:`synopsis.state._memo`), patterns run only on
text holding their needles (the credential pattern only where a keyword starts), a
command is parsed for a history rewrite only when it names git or BFG, the tool ledger
finds open failures through an index, and the renderer compares a line with the others
only when its words occur twice. Each is held here to the plain computation it stands
for, on inputs built from the fragments those shortcuts key on (secrets, failure lines,
identifiers, case variants, quoted command words).
"""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from synopsis.state import _commands, _errors, _history, _patterns, _text, secrets
from synopsis.state._memo import forget
from synopsis.state._regex import alternatives, matches_anywhere
from synopsis.state._tools import WORKED_AROUND, ToolLedger
from synopsis.state.extract import extract_working_state
from synopsis.state.model import ToolCallRecord, WorkingState
from synopsis.state.render import _fitting as fitting
from synopsis.state.render._items import _Item
from tests.state.builders import ids

FRAGMENTS = [
    # credentials and their needles, in several cases (assembled: none is a real key)
    "sk-" + "proj-" + "Zx81" * 6, "AKIA" + "QWERTYUIOPASDFGH", "ghp_" + "k3Y9" * 9,
    "eyJ" + "hbGciOiJIUzI1NiJ9" + ".eyJ" + "zdWIiOiJ1c2VyLTQyIn0" + ".Sig_n4tur3-abcd",
    "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "MIIEpAIBAAKCAQEA0Z3",
    "postgres://app:Tr0ub4dor3@db.internal:5432/shop", "password", "PASSWORD", "Pa\u017f\u017fword",
    "api_key", "API-KEY", "\u212aey", "token", "TOKEN", "secret", "client_secret", "pwd", ":",
    "=", " is ", "=>", "'", "Wq7!rTz92x", "9fceb02d0ae598e95dc970b7", "密码是", "令牌", "Lm3#pQ8zw",
    "clıent-secret", "PRIVATE_KEY", "AuthToken", "apikey", "x", "ftp://u:pw5s3cret@host.io",
    # failure reports and their needles
    "ERROR: disk full", "error", "Error: boom", "FATAL", "fatal: not a git repository",
    "npm ERR! code 1", "ELIFECYCLE", "Command failed", "Permission denied",
    "bash: foo: command not found", "No such file or directory",
    "Traceback (most recent call last):", '  File "a.py", line 1', "ValueError: bad",
    "==== 2 failed, 3 passed in 0.1s ====", "Tests: 1 failed", "FAILED tests/a.py::t",
    "--- FAIL: TestX", "test result: FAILED.", "⎯ Failed Tests 2 ⎯", "E   assert 1 == 2",
    "12:30:01 ERROR x", '{"ok": false, "error": "SOLD_OUT"}', '"level": "error"',
    "src/a.ts(3,4): error TS2322: x", "PANIC", "failed", "passed", "# 1 SEARCH/REPLACE block ",
    "did not match", "did not apply", "prog: error: bad", "rg: not found", "tool not found.",
    # identifiers
    "PAY-4821", "#1234", "v2.14.3", "port 8080", "order 55172", "$800", "2026-03-01",
    "src/a.py", "https://x.test/a", "cus_Ab12Cd34Ef", "commit abc1234f",
    # glue
    " ", "\n", "\n\n", ". ", "ok", "done", "the", "İ",
]  # fmt: skip
texts = st.lists(st.sampled_from(FRAGMENTS), max_size=16).map("".join) | st.text(max_size=30)

slow = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@slow
@given(texts)
def test_gated_and_remembered_secrets_equal_every_pattern_run(text: str) -> None:
    forget()
    fresh = secrets._scan(text, gated=False)
    assert secrets.find_secrets(text) == fresh
    secrets.find_secrets(text).clear()  # a caller changing its list changes nothing
    assert secrets.find_secrets(text) == fresh


@slow
@given(texts)
def test_gated_and_remembered_failure_reports_equal_the_patterns(text: str) -> None:
    forget()
    head = text[: _errors._HEAD_CHARS]
    reports = bool(
        _errors.json_error(text)
        or _errors._RUNNER_FAILED.search(text)
        or _errors._FAILURE_LINE.search(head)
    )
    expected = _errors._first_error_line(text) if reports else None
    assert _errors.reported_failure(text) == expected
    assert _errors.reported_failure(text) == expected
    assert _errors.first_error_line(text) == _errors._first_error_line(text)


@slow
@given(texts)
def test_the_split_failure_patterns_answer_as_the_whole_ones(text: str) -> None:
    for pattern in (_errors._RUNNER_FAILED, _errors._FAILURE_LINE):
        assert matches_anywhere(pattern)(text) == (pattern.search(text) is not None)


def test_alternatives_are_split_only_at_the_top_level() -> None:
    source = r"^a\|b|[|^\]]x|(c|d)+|^e(?:f|g)|"
    assert alternatives(source) == [r"^a\|b", r"[|^\]]x", "(c|d)+", "^e(?:f|g)", ""]
    assert alternatives(r"[]|]a|b") == ["[]|]a", "b"]
    samples = ["q\nbc", "ay\n", "x1", "ac\nz", "bxy1", "CD", "Ab", "a b", "a", "b", "c", "",
               "ab c", "xab c", "ab cd", "é ab c", "éab c", "bx", "bsx", "abx", "_11", "a_11",
               "(c", "ac"]  # fmt: skip
    for pattern in [
        re.compile(r"^x\d|y$|^(a|b)c", re.MULTILINE),
        re.compile(r"(?i)^ab|cd"),  # a global flag: not split
        re.compile(r"(a)|^b\1"),  # a back reference: not split
        re.compile(r"\bab c\b|\bbs?x|\b_1{2}|\b(c)"),  # a word boundary before a literal
    ]:
        check = matches_anywhere(pattern)
        assert [check(t) for t in samples] == [pattern.search(t) is not None for t in samples]


@slow
@given(texts)
def test_remembered_identifiers_equal_a_fresh_scan(text: str) -> None:
    forget()
    fresh = list(_patterns._find_identifiers(text))
    first = _patterns.find_identifiers(text)
    assert first == fresh
    first.append(_patterns.Found("id", "x", 0, 1))  # the caller's list is its own
    assert _patterns.find_identifiers(text) == fresh


COMMANDS = ["git commit -m 'x'", "mv a.py b.py", "rm -f x", "echo hi > out.txt", "cd src",
            " && ", " | ", "; ", "\n", "sed -i 's/a/b/' f.py", "cat <<EOF\nbody\nEOF", "'",
            "2>"]  # fmt: skip


@slow
@given(texts, st.lists(st.sampled_from(COMMANDS), max_size=8).map("".join))
def test_remembered_sentences_and_command_parses_equal_fresh_ones(text: str, command: str) -> None:
    forget()
    spans = list(_text._split_sentences(text))
    first = _text.sentence_spans(text)
    assert first == spans
    first.clear()
    assert _text.sentence_spans(text) == spans
    parsed = [(list(w), list(r), end) for w, r, end in _commands._parse(command)]
    mine = _commands._parsed(command)
    assert mine == parsed
    if mine:
        mine[0][0].append("changed")  # a caller's change does not reach the memo
    assert _commands._parsed(command) == parsed


def _message(draw: st.DrawFn) -> dict[str, Any]:
    text = draw(texts)
    kind = draw(st.sampled_from(["user", "assistant", "call", "result"]))
    call_id = draw(st.sampled_from(["c1", "c2", "c3"]))
    if kind == "user":
        return {"role": "user", "content": text}
    if kind == "assistant":
        return {"role": "assistant", "content": [{"type": "text", "text": text}]}
    if kind == "call":
        call = {"type": "toolCall", "id": call_id, "name": "bash", "arguments": {"command": text}}
        return {"role": "assistant", "content": [call]}
    return {
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": "bash",
        "content": [{"type": "text", "text": text}],
        "isError": draw(st.booleans()),
    }


messages = st.lists(st.composite(_message)(), max_size=12)


@slow
@given(messages)
def test_extraction_with_remembered_scans_equals_a_cold_one(history: list[Any]) -> None:
    forget()
    cold = extract_working_state(history, entry_ids=ids(history))
    assert extract_working_state(history, entry_ids=ids(history)) == cold
    assert extract_working_state(history) == (forget() or extract_working_state(history))


@slow
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["c1", "c2", "c3", "c4"]),
            st.sampled_from(["ok", "error", "pending"]),
            st.sampled_from(["r1", "r2", None]),
            st.booleans(),
        ),
        max_size=12,
    ),
    st.sampled_from(["r1", "r2"]),
)
def test_closing_a_request_marks_what_a_full_scan_marks(
    records: list[tuple[str, str, str | None, bool]], request: str
) -> None:
    calls = [
        ToolCallRecord(call_id, "bash", "x", status, request=owner, outcome="x" if out else None)  # type: ignore[arg-type]
        for call_id, status, owner, out in records
    ]
    ledger = ToolLedger(WorkingState(tool_calls=tuple(calls[: len(calls) // 2])))
    for record in calls[len(calls) // 2 :]:
        ledger.calls[record.call_id] = record
    expected = {
        call_id: (
            WORKED_AROUND
            if record.request == request and record.status == "error" and record.outcome is None
            else record.outcome
        )
        for call_id, record in dict(ledger.calls).items()
    }
    ledger.close_request(request)
    assert {call_id: r.outcome for call_id, r in ledger.calls.items()} == expected
    assert list(ledger.calls) == list(expected)


def test_a_memo_holds_at_most_its_bound_of_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    from synopsis.state import _memo

    monkeypatch.setattr(_memo, "MAX_CHARS", 100)
    calls: list[str] = []
    memo = _memo.TextMemo(lambda text: calls.append(text) or len(text))
    for _ in range(3):
        for index in range(30):
            assert memo(f"text number {index:03}") == 15
        assert memo.chars <= 100 and sum(map(len, memo.results)) == memo.chars
    assert memo("text number 029") == 15 and calls.count("text number 029") == 3


def _said_once_everywhere(items: list[Any]) -> list[Any]:
    """The plain form of ``fitting._said_once``: every line compared with every other."""
    cores = [fitting._core(item.text) for item in items]
    dropped: set[int] = set()
    shortened: set[int] = set()
    for index, item in enumerate(items):
        core = cores[index]
        if (
            len(core) < fitting._MIN_SAID_ONCE
            or not item.text.lstrip().startswith("- ")
            or item.section in fitting._OWN_SECTION
        ):
            continue
        if any(
            other != index
            and other not in dropped
            and holder.priority >= item.priority
            and core in cores[other]
            and (core != cores[other] or other < index)
            for other, holder in enumerate(items)
        ):
            (shortened if fitting.said_short(item.text) else dropped).add(index)
    return [
        replace(item, text=fitting.said_short(item.text) or item.text)
        if index in shortened
        else item
        for index, item in enumerate(items)
        if index not in dropped
    ]


LINE_WORDS = ["- ", "- Working on: ", "Working on: ", "- Finish the current request: ", "“", "”",
              "the build is green", "deploy to staging", " [entry ab12]", "…", " ", "\n",
              "Use port 8080", "x", "- fact: "]  # fmt: skip
_lines = st.lists(st.sampled_from(LINE_WORDS), max_size=8).map("".join)


@slow
@given(
    st.lists(
        st.builds(
            _Item,
            st.sampled_from(["goal", "critical", "in_progress", "done", "next"]),
            _lines,
            st.integers(0, 3),
            st.integers(0, 50),
        ),
        max_size=10,
    )
)
def test_lines_said_twice_are_found_as_by_comparing_every_pair(items: list[Any]) -> None:
    assert fitting._said_once(items) == _said_once_everywhere(items)


def test_a_keyword_a_folded_shape_matches_stands_where_its_starts_are_looked_for() -> None:
    every = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    for shape in secrets._SHAPES:
        assert not shape.starts or shape.folded
        for letter in sorted(set("".join(shape.starts))):
            for char in re.findall("(?i)" + re.escape(letter), every):
                folded = secrets._folded(char)
                # a character lowered to two leaves the whole text to the plain scan
                assert len(folded) != 1 or secrets._start_folded(folded) == letter, char


MONTHS = ["Mar 3", "3rd of may", "12 December", "sept. 9", "Jan", "oct", "2nd ", ", 2026"]


@slow
@given(st.lists(st.sampled_from(FRAGMENTS + MONTHS), max_size=12).map("".join) | texts)
def test_a_keyword_value_pattern_matches_only_text_holding_its_triggers(text: str) -> None:
    low = _patterns.lower_same(text)
    for needs_digit, triggers, pattern in _patterns.KEYWORD_VALUES:
        if pattern.search(low) is not None:
            assert not needs_digit or _patterns._DIGIT.search(low)
            assert not triggers or any(trigger in low for trigger in triggers), pattern.pattern


REWRITES = ["git ", 'g"i"t ', "g\\it ", "'g'it ", "bfg", "b'f'g", "java -jar ", "g", "i", "t",
            "b", "f", "reset ", "rebase ", "HEAD~2", "commit --amend", " ", "'", '"', "\\",
            " && ", "; ", "|", "\n", "filter-repo", "-C x ", "abc1234", "--abort",
            "echo "]  # fmt: skip


@slow
@given(st.lists(st.sampled_from(REWRITES), max_size=12).map("".join))
def test_commands_not_naming_git_or_bfg_are_no_rewrite_unparsed(command: str) -> None:
    assert _history.command_rewrite(command) == _history._first_rewrite(command)


LINES = ["five", "\nhundred dollars", " dollars", "eur", "Σ", "ΑΣ\n", "\u0130", "v1.2.3\n",
         "\n\n", "order\n55172", "port\n8080", "src/\na.py", "PAY-\n4821"]  # fmt: skip


@slow
@given(st.lists(st.sampled_from(FRAGMENTS + MONTHS + LINES), max_size=16).map("".join) | texts)
@example("we have five\nhundred dollars and v1.2.3\nleft")
def test_identifiers_found_line_by_line_equal_a_scan_of_the_whole_text(text: str) -> None:
    forget()
    whole = _patterns._scan_identifiers(text)
    assert _patterns._find_identifiers(text) == whole
    # the lines now remembered (or some of them, the memo having started over) still
    # give the whole scan's values
    assert _patterns._find_identifiers(text) == whole
    assert _patterns._find_identifiers(text + "\n" + text) == _patterns._scan_identifiers(
        text + "\n" + text
    )


def test_identifiers_remembered_by_line_survive_the_memo_starting_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from synopsis.state import _memo

    monkeypatch.setattr(_memo, "MAX_CHARS", 40)
    forget()
    text = "see PAY-4821 at src/a.py\nv2.14.3 on port 8080\n" * 3 + "order 55172 by 2026-03-01"
    whole = _patterns._scan_identifiers(text)
    assert whole and _patterns._find_identifiers(text) == whole
    assert _patterns._find_identifiers("x\n" + text) == _patterns._scan_identifiers("x\n" + text)


def test_only_the_dotted_capital_i_lowers_to_two_characters() -> None:
    every = (chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    assert "".join(c for c in every if len(c.lower()) != 1) == _patterns.LOWERS_TO_TWO


def _plain_redacted(value: Any, entry_id: str) -> Any:
    """The plain form of ``secrets.redact_value``: every string rebuilt from a full scan."""
    if isinstance(value, str):
        found = secrets._scan(value, gated=False)
        out, position = [], 0
        for secret in found:
            out += [value[position : secret.start], secrets.reference(secret.label, entry_id)]
            position = secret.end
        return "".join(out) + value[position:]
    if isinstance(value, dict):
        return {key: _plain_redacted(item, entry_id) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain_redacted(item, entry_id) for item in value]
    return value


def _unchanged_shares(value: Any, redacted: Any) -> bool:
    """A container none of whose strings changed is returned itself, not copied."""
    if isinstance(value, (dict, list)):
        if redacted == value:
            return redacted is value
        pairs = value.items() if isinstance(value, dict) else enumerate(value)
        return redacted is not value and all(_unchanged_shares(v, redacted[k]) for k, v in pairs)
    return True


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from("abc"), inner),
    max_leaves=12,
)


@slow
@given(json_values)
def test_redacting_a_value_rebuilds_what_a_plain_walk_does(value: Any) -> None:
    forget()
    redacted = secrets.redact_value(value, "e1")
    assert redacted == _plain_redacted(value, "e1")
    assert _unchanged_shares(value, redacted)
    assert secrets.redact_value(value, "e1") == redacted  # remembered scans: the same


RULE_WORDS = ["must", "never", "don't", "have to", "production", "v1.2", "staging", "actually",
              "instead of", "stays", "i rebased", "reset the last commit", "不要", "改成", "原来",
              "see above", "you are an expert", "task: ", "you implemented a solid fix",
              "\n"]  # fmt: skip


@slow
@given(st.lists(st.sampled_from(RULE_WORDS + FRAGMENTS), max_size=10).map("".join))
def test_remembered_rule_matches_equal_a_run_of_every_record(text: str) -> None:
    from synopsis.state import rules

    low = text.lower()
    forget()
    for stage in ("harness", "rule", "not-rule", "specific", "update", "keep", "correction"):
        plain = next(
            ((r, m.span()) for r in rules.rules(stage) if (m := r.compiled.search(low))), None
        )
        for _ in range(2):  # a fresh scan, then the remembered one
            found = rules.first_match(stage, low)
            assert (found and (found[0], found[1].span())) == plain
            assert rules.masked(stage, low) == rules._masked(stage, low)


@slow
@given(texts, texts)
def test_remembered_digests_spaces_and_reply_words_equal_fresh_ones(text: str, line: str) -> None:
    from synopsis.state import _relied

    forget()
    result = f"{text}\n {line} \n{text}"
    fresh = (
        _text.digest.scan(text),
        _text.normalize_ws.scan(result),
        _relied._weights.scan(result),
        _relied._lines_and_words.scan(result),
    )
    for _ in range(2):  # scanned, then remembered
        assert (
            _text.digest(text),
            _text.normalize_ws(result),
            _relied._weights(result),
            _relied._lines_and_words(result),
        ) == fresh
    assert [line for line, _ in fresh[3]] == [part.strip() for part in result.split("\n")]


def test_a_memo_scans_a_text_once_and_only_when_called() -> None:
    from synopsis.state import _memo

    calls: list[str] = []
    memo = _memo.TextMemo(lambda text: calls.append(text) or text.upper())
    assert "a" not in memo and memo.get("a") is None and memo.results.get("a") is None
    assert memo("a") == "A" and memo("a") == "A" and memo("b") == "B"
    assert calls == ["a", "b"] and memo.chars == 2 and memo.results == {"a": "A", "b": "B"}
    memo.clear()
    assert memo("a") == "A" and calls == ["a", "b", "a"]
