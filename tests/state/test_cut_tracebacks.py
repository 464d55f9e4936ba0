"""A traceback a harness cut in the middle still gives its exception line: the cut's own
marker, and the rest of a line the cut began in, are no lines of the tool's."""

from __future__ import annotations

import pytest

from synopsis.state._errors import first_error_line

FRAMES = '  File "/srv/app/jobs.py", line 41, in run\n    result = fetch(url)\n'


@pytest.mark.parametrize(
    "mark",
    [
        "[... 212 lines truncated ...]",
        "(output trimmed: 3 041 characters omitted)",
        "<18 frames elided>",
        "…[cut 9000 bytes]…",
    ],
)
def test_the_exception_after_a_cut_mark_is_the_error_line(mark: str) -> None:
    text = (
        "Traceback (most recent call last):\n"
        f"{FRAMES}{mark}\n{FRAMES}"
        "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='api.test'): Read timed out.\n"
    )
    assert first_error_line(text).startswith("requests.exceptions.ReadTimeout:")


def test_the_rest_of_a_line_the_cut_began_in_is_not_the_exception() -> None:
    text = (
        "Traceback (most recent call last):\n"
        f"{FRAMES}    response = self.sen\n"
        "[... 1 200 characters truncated ...]\n"
        "d(request, **kwargs)\n"
        f"{FRAMES}"
        "ConnectionResetError: [Errno 104] Connection reset by peer\n"
    )
    assert first_error_line(text) == "ConnectionResetError: [Errno 104] Connection reset by peer"


def test_a_traceback_without_a_cut_keeps_its_first_unindented_line() -> None:
    text = f"Traceback (most recent call last):\n{FRAMES}KeyError: 'total'\nDuring handling …\n"
    assert first_error_line(text) == "KeyError: 'total'"
