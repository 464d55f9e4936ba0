"""Parity with Pi 1.6.0's reference outputs (``../shared/fixtures/pi16/``).

Every input (the 16 sessions Pi 1.6 wrote, its 5 edge files, and every input of the older
``../shared/fixtures/pi/`` set) is run through the driver's commands and compared exactly
with what Pi 1.6.0 computed: JSON field by field, the transcript byte for byte, exit
status where Pi (or X1) fails. The older set's own expected outputs (Pi v0.58.3 plus
D1–D13) are retired: Pi 1.6 overturned D1, D2 and D8, and its outputs for the same
inputs are here. Skipped when the shared fixtures are absent.
"""

from __future__ import annotations

import pytest

from tests.parity.cases import FIXTURES, Case, cases, mismatch

CASES = cases()

pytestmark = pytest.mark.skipif(not CASES, reason=f"{FIXTURES} is not present")


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_reference_output(case: Case) -> None:
    assert mismatch(case) is None


def test_every_input_is_the_file_the_index_names() -> None:
    """The index pins each input by hash: a changed input would make the outputs moot."""
    import hashlib
    import json

    index = json.loads((FIXTURES / "index.json").read_text(encoding="utf-8"))
    for item in index["inputs"]:
        data = (FIXTURES / item["input"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == item["sha256"], item["name"]
