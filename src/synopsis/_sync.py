"""Running a coroutine from synchronous code, also where an event loop already runs."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any, TypeVar

_T = TypeVar("_T")


def run_sync(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """Run ``coroutine`` to completion and return its result.

    A synchronous call may come from inside a running loop (Jupyter, an async web app, a
    framework's sync hook); ``asyncio.run`` would refuse there, so the coroutine then runs
    in a worker thread with a loop of its own.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
