"""Remarks and reports that carry a rule word are not rules: an opinion with its "I"
dropped, a report that nothing came, what happens set against what should, the "only" of
"not only" and the 只 of 只要 (as long as). The rule beside each stays a rule. Every text
is written for this file."""

from __future__ import annotations

import pytest

from synopsis.state._patterns import lower_same
from synopsis.state.statements import classify


@pytest.mark.parametrize(
    "text",
    [
        "dont really like the purple on the pricing cards",
        "ok don't know why the worker restarts every night",
        "no invoice was generated for the March orders",
        "still no reply came from the webhook after the retry",
        "the search box is filtering on every keystroke but it should wait for enter",
        "it keeps logging me out after five minutes but should keep the session for a day",
        "Sadece arayüz değil, API tarafı da yavaş.",
        "Sadece birim testleri yetmez, entegrasyon testi de lazım.",
        "每周一早上读一下库存表，只要数量低于十件，就发消息提醒我",
        "不只是导出慢，导入也会卡住",
    ],
)
def test_a_remark_or_report_with_a_rule_word_is_no_rule(text: str) -> None:
    assert classify(text, lower_same(text)) != "rule"


@pytest.mark.parametrize(
    "text",
    [
        "Don't rename the public functions.",
        "No secrets in the logs.",
        "The cache should never hold card numbers.",
        "Sadece resmi API'yi kullan.",
        "Bu tabloya asla elle yazma.",
        "凡是客户投诉的单子，一概先转给售后。",
        "只用公司内网的镜像源。",
    ],
)
def test_the_rule_beside_them_stays_a_rule(text: str) -> None:
    assert classify(text, lower_same(text)) == "rule"
