"""Pi 1.6.0 itself, installed with npm into a cache folder outside the repository.

``@earendil-works/pi-coding-agent@1.6.0`` goes to ``~/.cache/synopsis-pi16`` (or
``$SYNOPSIS_PI16_CACHE``) the first time it is asked for. Used by the interoperability
test (``test_pi_itself.py``) and by the benchmarks, which compare our speed with Pi's on
the same files; both skip cleanly when node or npm is missing or the install fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

PACKAGE = "@earendil-works/pi-coding-agent@1.6.0"
CACHE = Path(os.environ.get("SYNOPSIS_PI16_CACHE", Path.home() / ".cache" / "synopsis-pi16"))
PI_DIR = CACHE / "node_modules" / "@earendil-works" / "pi-coding-agent"


def install_pi16(timeout: float = 240) -> Path | str:
    """The installed package's folder, or why it is not to be had (a sentence)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        return "node or npm is not installed"
    if (PI_DIR / "package.json").is_file():
        return PI_DIR
    CACHE.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--silent", PACKAGE],
            cwd=CACHE,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"npm install {PACKAGE} timed out (no network?)"
    if done.returncode != 0 or not (PI_DIR / "package.json").is_file():
        return f"npm install {PACKAGE} failed: {done.stderr.decode(errors='replace')[-300:]}"
    return PI_DIR
