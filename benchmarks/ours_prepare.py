#!/usr/bin/env python3
"""synopsis doing what ``pi_prepare.mjs`` asks of Pi 1.6.0, for bench_pi.py to time.

    python ours_prepare.py FILE KEEP_RECENT RESERVE

Open the session file (skimmed, as ``tests/parity/driver.py prepare`` opens it: message
bodies stay bytes until a step reads them), build its context, prepare the next
compaction, and print the same three fields as the Pi script. Unlike the driver, it does
not render and hash the transcript to summarize (Pi's ``prepareCompaction`` does not
serialize it either), so the two sides do the same work. As an agent would, it prepares
from the projection the context was built on (Pi's ``prepareCompaction`` projects the
branch again).
"""

from __future__ import annotations

import gc
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from synopsis.compaction.prepare import prepare_compaction
from synopsis.compaction.settings import CompactionSettings
from synopsis.session import Session, open_session
from synopsis.session.skim import skim_session_file


def main() -> None:
    file, keep, reserve = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    skimmed = skim_session_file(file)
    session = (
        open_session(file, duplicates="last-wins")
        if skimmed is None
        else Session(skimmed.header, skimmed.entries, duplicates="last-wins")
    )
    gc.freeze()  # as the driver: what was loaded lives until the end, keep the collector off it
    context = session.build_context()
    settings = CompactionSettings(reserve_tokens=reserve, keep_recent_tokens=keep)
    # the leaf's context carries the branch's projection: the preparation starts from it
    prepared = prepare_compaction(session.path(), settings, projection=context.projection)
    result = {
        "messageCount": len(context.messages),
        "firstKeptEntryId": prepared.first_kept_entry_id if prepared else None,
        "tokensBefore": prepared.tokens_before if prepared else None,
    }
    print(json.dumps(result), flush=True)
    os._exit(0)  # as the driver: no teardown of a large session object by object


if __name__ == "__main__":
    main()
