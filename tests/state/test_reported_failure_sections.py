"""A failure the user reports in their own words, in a language with a ``broken`` record,
stands under Failed Approaches — their message once, whole — and neither as context to
look up nor as a choice they made. Histories written for this test (the phrasings are
not those of the records' own tests)."""

from __future__ import annotations

import pytest

from tests.state.builders import by_section, say, summarize, user

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
