"""Our files in Pi 1.6 itself: a session we compacted loads in Pi with the context we build.

Pi (``@earendil-works/pi-coding-agent@1.6.0``) is installed with npm into a cache folder
outside the repository the first time (:mod:`tests.parity.pi16`); the test is skipped
when node or npm is missing or the install fails (no network). A short script of ours
asks Pi to open the file (a copy: Pi may rewrite what it opens), build its context and
prepare the next compaction; we compare that with what our driver says about the same file.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from synopsis.compaction import CompactionSettings
from synopsis.compaction.orchestrate import compact_session
from synopsis.session import open_session
from tests.parity.cases import FIXTURES, run_driver
from tests.parity.pi16 import install_pi16

# Our own probe: open the file with Pi's SessionManager and report in driver terms.
PROBE = r"""
import { pathToFileURL } from "node:url";
const [dir, file, keep] = process.argv.slice(2);
const pi = await import(pathToFileURL(`${dir}/dist/core/session-manager.js`).href);
const compaction = await import(pathToFileURL(`${dir}/dist/core/compaction/compaction.js`).href);
const manager = pi.SessionManager.open(file);
const messages = manager.buildSessionContext().messages;
const prepared = compaction.prepareCompaction(manager.getBranch(), {
  enabled: true, reserveTokens: 16384, keepRecentTokens: Number(keep),
});
console.log(JSON.stringify({
  leafId: manager.getLeafId(),
  roles: messages.map((m) => m.role),
  perMessageTokens: messages.map((m) => compaction.estimateTokens(m)),
  firstKeptEntryId: prepared ? prepared.firstKeptEntryId : null,
  tokensBefore: prepared ? prepared.tokensBefore : null,
}));
"""


@pytest.fixture(scope="module")
def pi16() -> Path:
    installed = install_pi16()
    if isinstance(installed, str):
        pytest.skip(installed)
    return installed


def _pi(pi_dir: Path, file: Path, keep: int, tmp_path: Path) -> dict[str, Any]:
    probe = tmp_path / "probe.mjs"
    probe.write_text(PROBE, encoding="utf-8")
    copy = tmp_path / f"pi-{file.name}"
    shutil.copyfile(file, copy)
    done = subprocess.run(
        ["node", str(probe), str(pi_dir), str(copy), str(keep)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _ours(file: Path, keep: int) -> dict[str, Any]:
    code, out, err = run_driver(["context", str(file)])
    assert code == 0, err
    context = json.loads(out)
    code, out, err = run_driver(
        ["prepare", str(file), "--keep-recent", str(keep), "--reserve", "16384"]
    )
    assert code == 0, err
    prepared = json.loads(out)
    return {
        "leafId": context["leafId"],
        "roles": context["roles"],
        "perMessageTokens": context["perMessageTokens"],
        "firstKeptEntryId": prepared["firstKeptEntryId"] if prepared else None,
        "tokensBefore": prepared["tokensBefore"] if prepared else None,
    }


@pytest.mark.skipif(not (FIXTURES / "sessions").is_dir(), reason=f"{FIXTURES} is not present")
@pytest.mark.parametrize(
    "name", ["pi16-system-messages", "pi16-failed-attempts", "pi16-edit-kept-range"]
)
def test_a_session_we_compacted_loads_in_pi_with_our_context(
    name: str, pi16: Path, tmp_path: Path
) -> None:
    path = tmp_path / f"{name}.jsonl"
    shutil.copyfile(FIXTURES / "sessions" / f"{name}.jsonl", path)
    session = open_session(path)
    settings = CompactionSettings(keep_recent_tokens=2000, reserve_tokens=16384)
    asyncio.run(compact_session(session, settings=settings))
    session.append_message({"role": "user", "content": "and now?", "timestamp": 1})
    assert _pi(pi16, path, 200, tmp_path) == _ours(path, 200)
