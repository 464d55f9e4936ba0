"""The driver's measures of a transcript (UTF-16 length, UTF-8 size, sha256) are those of
the transcript written out whole.

``_measure_serialized`` encodes part by part and hashes runs of parts; the oracle is
``serialize_conversation(convert_to_llm(messages))`` encoded the way Node writes it, and
measured with the plain functions. Small runs put run boundaries between any two parts.
Texts hold characters beyond the BMP, lone surrogates and escapes (the odd texts of
``tests/compaction/test_skimmed_transcript.py``).
"""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis._js import to_utf8, utf16_len
from synopsis.compaction import serialize_conversation
from tests.compaction.test_skimmed_transcript import _calling_message, _message
from tests.parity import driver


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_message() | _calling_message(), max_size=8),
    st.sampled_from([1, 7, 64, 1 << 20]),
)
def test_the_measures_are_those_of_the_whole_transcript(messages: list, run_bytes: int) -> None:
    text = serialize_conversation(driver._to_llm(messages))
    encoded = to_utf8(text)
    expected = (utf16_len(text), len(encoded), hashlib.sha256(encoded).hexdigest())
    assert driver._measure_serialized(messages, run_bytes) == expected
