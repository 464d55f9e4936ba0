"""Values read from one sentence share one Critical Context line that quotes it once.

A tool's banner names several versions in one line, a reply names an issue and its link
in one sentence: a line per value would repeat the same quote for each, and under the
embedded size target those copies push out what a later step needs. Values of different
sentences keep their own lines."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from synopsis.state import extract_working_state, render_state
from tests.state.builders import act, call, result, user


def critical(text: str) -> list[str]:
    section = text.split("## Critical Context", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("- ")]


def run(output: str, request: str = "Run the unit tests of the billing service.") -> str:
    messages = [
        user(request),
        act(call("t1", "bash", command="make check")),
        result("t1", "bash", output),
    ]
    return render_state(extract_working_state(messages))


def test_a_banner_with_three_versions_is_quoted_once() -> None:
    text = run("runner: interpreter 4.2.7, harness 11.0.3, reporter 2.9.1 on host ci-14\nok")
    lines = [line for line in critical(text) if "4.2.7" in line]
    assert len(lines) == 1
    assert "11.0.3" in lines[0] and "2.9.1" in lines[0]
    assert text.count("interpreter 4.2.7, harness 11.0.3") == 1


def test_values_of_different_lines_stay_apart() -> None:
    text = run("toolchain 3.8.1\nsome noise here\nformatter 0.14.2\nall good")
    lines = critical(text)
    assert any("3.8.1" in line and "0.14.2" not in line for line in lines)
    assert any("0.14.2" in line and "3.8.1" not in line for line in lines)


@given(st.lists(st.tuples(st.integers(1, 30), st.integers(0, 30)), min_size=2, max_size=5))
def test_every_version_of_a_banner_stays_in_the_checkpoint(parts: list[tuple[int, int]]) -> None:
    versions = list(dict.fromkeys(f"{a}.{b}.{a + b}" for a, b in parts))
    banner = "using " + ", ".join(f"tool{i} {v}" for i, v in enumerate(versions))
    text = run(banner + "\nfinished")
    for version in versions:
        assert version in text
