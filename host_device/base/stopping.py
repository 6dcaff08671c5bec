"""SIGTERM as an exception: ``systemctl stop``, a shutdown or ``kill`` ends a
long-running command (``run``, the box, ``club web``) the way Ctrl-C does —
everything it opened is closed, its pages' worker too, and it ends quietly
(exit 0) — rather than Python's default, which kills the process on the spot
(exit 143) and leaves its children behind."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any


class Stopped(BaseException):
    """SIGTERM arrived (a BaseException, as KeyboardInterrupt is: no ``except Exception`` swallows it)."""


def _stop(signum: int, frame: Any) -> None:
    raise Stopped


@contextlib.contextmanager
def stopped_by_sigterm() -> Iterator[None]:
    """SIGTERM raises :class:`Stopped` in the main thread within the block (elsewhere: nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, _stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
