"""The one sanitizer of human output: whatever the text, what reaches the terminal is
printable UTF-8 without control sequences, and Rich never reads it as markup."""

from __future__ import annotations

import io
import unicodedata

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from synopsis.cli._app import clean, user_text

# Any code point, lone surrogates included, with the dangerous ones made likely.
TEXT = st.text(
    alphabet=st.one_of(
        st.characters(codec=None),
        st.sampled_from(["\x1b", "\x07", "\x9b", "\u202e", "\ud800", "\udfff", "[", "]", "/"]),
    )
)


@given(TEXT)
def test_cleaned_text_has_no_controls_and_encodes(text: str) -> None:
    cleaned = clean(text)
    cleaned.encode("utf-8")  # no lone surrogates left
    assert all(unicodedata.category(char) not in ("Cc", "Cs") for char in cleaned)
    assert not set(cleaned) & {"\u202a", "\u202b", "\u202c", "\u202d", "\u202e"}
    kept = clean(text, multiline=True)
    assert kept.count("\n") == text.count("\n")  # a summary keeps its lines


@given(TEXT)
def test_rich_prints_it_as_text(text: str) -> None:
    out = io.StringIO()
    Console(file=out, force_terminal=True, color_system=None, width=80).print(
        user_text(text), soft_wrap=True
    )
    printed = out.getvalue()
    assert "\x1b]" not in printed and "\x07" not in printed
    # Markup is not interpreted: every bracket of the input is still there.
    assert printed.count("[") == clean(text).count("[")
