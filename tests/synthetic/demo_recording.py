"""Build the recordings ``synopsis demo`` replays (``src/synopsis/agent/demo_data/``).

The generator is test and benchmark code, not part of the wheel; the demo ships its output
instead: one generated session per language, gzip-compressed, its planted facts in the
header (``demoFacts``) so the demo can say whether they survived. ``python -m
tests.synthetic.demo_recording`` rewrites the files; a test checks they are up to date.
"""

from __future__ import annotations

import gzip
from pathlib import Path

from synopsis.agent.demo import DEMO_DATA, DEMO_ENTRIES, DEMO_SEED
from synopsis.session.jsonl import render_session
from tests.synthetic import LANGUAGES, generate_session


def build_recording(language: str) -> bytes:
    """The gzip bytes of the demo recording for ``language`` (deterministic)."""
    generated = generate_session(DEMO_SEED, DEMO_ENTRIES, language=language)
    header = dict(generated.header)
    header["demoFacts"] = [
        {"kind": fact.kind, "text": fact.text, "entryId": fact.entry_id} for fact in generated.facts
    ]
    return gzip.compress(render_session(header, generated.entries), compresslevel=9, mtime=0)


def recording_path(language: str) -> Path:
    return Path(str(DEMO_DATA)) / f"coding-{language}.jsonl.gz"


def main() -> None:
    for language in LANGUAGES:
        path = recording_path(language)
        path.write_bytes(build_recording(language))
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
