"""Plain-column output counts terminal columns, not characters (checked with Rich's own
cell widths, an independent implementation)."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st
from rich.cells import cell_len

from synopsis.cli._lines import columns, fit_width, one_line

TEXT = st.text(alphabet=st.sampled_from("ab Z9-仓库账本号件，。ｆｕｌｌ한국어é\u0301"), max_size=40)


@given(TEXT, st.integers(min_value=2, max_value=30))
@example("请把仓库账本一页一页读完", 9)
def test_a_cut_text_fits_its_width_and_is_a_prefix(text: str, width: int) -> None:
    cut = fit_width(text, width)
    assert cell_len(cut) <= width
    if cell_len(text) <= width:
        assert cut == text
    else:
        assert cut.endswith("…") and text.startswith(cut[:-1])
        assert cell_len(cut) >= width - 2  # nothing more than a wide character is wasted


@given(
    st.text(alphabet=st.sampled_from("ab \n\t仓库é\u0301"), max_size=400),
    st.integers(min_value=2, max_value=30),
)
@example("a" + " " * 200 + "b", 5)
@example("仓" * 20 + "\u0301" * 50, 10)
def test_a_one_line_preview_is_the_whole_text_s_words_cut(text: str, width: int) -> None:
    """``one_line`` reads only a prefix of the text: its cut must be the whole text's."""
    assert one_line(text, width) == fit_width(" ".join(text.split()), width)


@given(st.lists(st.tuples(TEXT, TEXT, TEXT), min_size=1, max_size=6))
def test_columns_line_up_on_the_screen(rows: list[tuple[str, str, str]]) -> None:
    clean = [[" ".join(c.split()) or "x" for c in row] for row in rows]
    lines = columns(clean, right=frozenset({1}))
    starts = set()
    for line, row in zip(lines, clean, strict=True):
        # the last column starts at the same screen column on every row
        starts.add(cell_len(line[: len(line) - len(row[2])]))
    assert len(starts) == 1
