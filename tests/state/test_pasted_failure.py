"""An error the user pasted is a failure of the work they report: listed under Failed
Approaches, once — not as context to look up. Histories written for this test."""

from __future__ import annotations

from tests.state.builders import by_section, say, summarize, user


def test_a_pasted_error_stands_once_under_failed_approaches() -> None:
    history = [
        user("Write a script that exports the orders table to a CSV file every night."),
        say("I've written export_orders.py; run it with python export_orders.py."),
        user(
            "I ran it and got this:\n"
            "$ python export_orders.py\n"
            "Traceback (most recent call last):\n"
            '  File "export_orders.py", line 3, in <module>\n'
            "    import yaml\n"
            "ModuleNotFoundError: No module named 'yaml'\n"
            "can you fix it"
        ),
        say("The script needs PyYAML; I'll add it to requirements.txt."),
    ]
    text = summarize(history)
    sections = by_section(text)
    assert "No module named 'yaml'" in sections.get("failed", "")
    assert "No module named 'yaml'" not in sections.get("critical", "")
    assert text.count("No module named 'yaml'") == 1
