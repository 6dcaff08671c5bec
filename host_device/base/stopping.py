"""SIGTERM and SIGHUP as an exception: ``systemctl stop``, a shutdown or
``kill`` (SIGTERM), or the terminal closed (SIGHUP) ends a long-running
command (``run``, the box, ``club web``) the way Ctrl-C does — everything it
opened is closed, its pages' worker too, and it ends quietly (exit 0; Ctrl-C's is 130) —
rather than Python's default, which kills the process on the spot (exit 143,
or 129) and leaves what it had open unclosed.

Its child processes (the club pages' worker, the club database's sender, the
speech decoder) are deaf to all three (:func:`deaf_to_stops`): their parent
acts on them and stops each child itself; and each child ends by itself when
its parent is gone, however it ended (a SIGKILL too): the worker watches its
parent's pid, the sender and the decoder their pipes from it."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

STOPS = (signal.SIGTERM, signal.SIGHUP)  # what ends a command as Ctrl-C does


class Stopped(BaseException):
    """SIGTERM or SIGHUP arrived (a BaseException, as KeyboardInterrupt is: no
    ``except Exception`` swallows it); ``str()`` is the signal's name."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signal.Signals(signum).name)


def _stop(signum: int, frame: Any) -> None:
    raise Stopped(signum)


@contextlib.contextmanager
def stopped_by_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Stopped` in the main thread within the
    block, and SIGINT KeyboardInterrupt however it arrives (elsewhere: nothing
    changes). Python raises KeyboardInterrupt by itself only when SIGINT was not
    ignored at its start; a process manager's or a script's background job
    (``run &`` from a non-interactive shell) starts with it ignored, and a
    ``kill -INT`` then did nothing: the handler is set here, explicitly."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {signum: signal.signal(signum, _stop) for signum in STOPS}
    before[signal.SIGINT] = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


class SaidInterrupted(KeyboardInterrupt):
    """Ctrl-C, «остановлено» already said by whoever caught it first (a game, which adds how to
    resume it): the command's main says nothing more, and every command exits 130."""


INTERRUPTED = "host-device: остановлено"  # Ctrl-C, at any moment of any command


def said_stopped(exc: Stopped) -> None:
    """«остановлено (SIGTERM)» on the terminal, if there is still one (after SIGHUP there may be none)."""
    with contextlib.suppress(OSError):
        print(f"host-device: остановлено ({exc})", flush=True)


@contextlib.contextmanager
def children_deaf() -> Iterator[None]:
    """Child processes started within begin deaf to Ctrl-C, SIGTERM and SIGHUP
    (blocked in this thread, which they inherit): multiprocessing's resource
    tracker too, which the first spawned child starts and which ignores only
    the first two by itself — a closed terminal's SIGHUP to the whole group
    killed it, and the worker's semaphores were then told unknown to a new one
    (tracebacks)."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, *STOPS})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def deaf_to_stops() -> None:
    """A child process's: Ctrl-C (sent to the whole process group), SIGTERM and
    SIGHUP are its parent's to act on, which then stops the child itself."""
    for signum in (signal.SIGINT, *STOPS):
        signal.signal(signum, signal.SIG_IGN)
