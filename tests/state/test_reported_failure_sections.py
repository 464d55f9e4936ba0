"""A failure the user reports in their own words, in a language with a ``broken`` record,
stands under Failed Approaches — their message once, whole — and neither as context to
look up nor as a choice they made. Histories written for this test (the phrasings are
not those of the records' own tests)."""

from __future__ import annotations

import pytest

from tests.state.builders import bash, by_section, say, summarize, user

REPORTS = [
    # (language, the request, the user's report of a failure, its failure words)
    ("tr", "Fatura listesini PDF olarak dışa aktaran bir buton ekle.",
     "Butona bastım ama indirme başlamıyor, sayfa da dondu.", "başlamıyor"),
    ("vi", "Thêm nút xuất hóa đơn ra file PDF.",
     "Bấm nút xuất thì trang bị treo, file PDF không tải về.", "bị treo"),
    ("zh", "给订单表加一个导出 PDF 的按钮。",
     "我点了导出按钮，文件并没有保存到下载目录", "并没有保存"),
    ("pl", "Dodaj przycisk eksportu faktur do PDF.",
     "Kliknąłem eksport, ale przycisk nadal nie reaguje i strona zawiesza się.",
     "zawiesza się"),
]  # fmt: skip


@pytest.mark.parametrize(("language", "request_text", "report", "words"), REPORTS)
def test_a_failure_the_user_reports_stands_under_failed_approaches(
    language: str, request_text: str, report: str, words: str
) -> None:
    history = [
        user(request_text),
        say("Done: the export button is added and writes the PDF to the downloads folder."),
        user(report),
        say("Let me look at the export handler."),
    ]
    text = summarize(history)
    sections = by_section(text)
    assert words in sections.get("failed", ""), language
    assert words not in sections.get("critical", ""), language
    assert words not in sections.get("decisions", ""), language
    assert text.count(words) == 1, language


SMOKE_TEST = """*   Trying 127.0.0.1:4000...
> POST /api/orders HTTP/1.1
HTTP/1.1 503 Service Unavailable
content-type: application/json
{"detail": "upstream pricing timed out"}"""

BUILD_LOG = """vite v5.4.2 building for production...
transforming (212) src/main.tsx
src/cart/total.ts(14,9): error TS2322: Type 'string' is not assignable to type 'number'.
1 error found."""


@pytest.mark.parametrize(
    ("output", "reply", "line"),
    [
        (SMOKE_TEST, "The POST came back with HTTP/1.1 503 Service Unavailable, so pricing "
         "is still down.", "HTTP/1.1 503 Service Unavailable"),
        (BUILD_LOG, "The build stops at src/cart/total.ts(14,9): error TS2322, a string "
         "passed as the quantity.",
         "src/cart/total.ts(14,9): error TS2322: Type 'string' is not assignable to type "
         "'number'."),
    ],
)  # fmt: skip
def test_an_error_line_of_a_tool_the_work_relied_on_stands_under_failed_approaches(
    output: str, reply: str, line: str
) -> None:
    history = [
        user("Check that placing an order works end to end."),
        *bash("c1", "curl -si -X POST localhost:4000/api/orders", output),
        say(reply),
    ]
    sections = by_section(summarize(history))
    assert line in sections.get("failed", "")
    assert f"- fact: {line}" not in sections.get("critical", "")  # the tool's line, once
