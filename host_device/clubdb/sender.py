"""The box's side of the club's database: its finished games sent there.

``send_waiting(store, url)`` is one attempt (what ``host-device club send``
does, and the background each time it wakes): every game the store's outbox
says waits (host_device/store/outbox.py), oldest first, is packed
(host_device/club/package.py: the replay is done here, for a game sent) and
received by the club's database; it is marked sent only after the club's
commit, so an attempt cut anywhere sends that game again, and the club,
keyed by the game's UUID, stores it once («same»). A game the club refuses
is marked with the club's reason and waits again only when it changes. The
first fault that is not one game's (the server away, a bad address, a wrong
password, another schema) ends the attempt as one line; the games wait.

:class:`Sender` is the background at the table: a process of its own
(spawned, nice'd, as the club's pages are: host_device/web/club_worker.py),
so nothing of it runs on the runtime's thread but a non-blocking wake-up
(:meth:`Sender.wake`, when a game finishes). It tries at once, when woken,
and every few minutes; while the server is away it retries with back-off
(5 s doubling to 5 min); it says one line when the state changes (the
server went away, it is back, a game was refused), not one a retry; it ends
with the box (:meth:`Sender.close`), killed if a connection hangs.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import select
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.base.stopping import children_deaf, deaf_to_stops
from host_device.base.text import one_line
from host_device.club.package import package_of
from host_device.clubdb.errors import NOT_COUNTED, ClubDbError, Refused, shown
from host_device.store.db import Store
from host_device.store.faults import DamagedGame, StoreError

log = logging.getLogger(__name__)

NICE = 10  # the sender yields the CPU to the game's process
EVERY_S = 180.0  # how often the background looks for games to send, when nothing wakes it
FIRST_RETRY_S = 5.0  # the server away: the first retry after this, doubling ...
LAST_RETRY_S = 300.0  # ... to this
CLOSE_S = 2.0  # how long the box waits for the sender to end before killing it


@dataclass
class SendReport:
    """One attempt: how many games the club stored new, already had
    (``same``), took as a newer record of one it had (``updated``), refused
    (game, reason), could not pack (game, reason: it does not replay; kept as refused
    until it changes);
    ``error``: the line the attempt ended with (None: it went through);
    ``left``: games still waiting after it."""

    stored: int = 0
    same: int = 0
    updated: int = 0
    refused: list[tuple[int, str]] = field(default_factory=list)
    damaged: list[tuple[int, str]] = field(default_factory=list)
    error: str | None = None
    left: int = 0

    @property
    def sent(self) -> int:
        return self.stored + self.same + self.updated


def _open_club(url: str) -> Any:
    from host_device.clubdb.db import ClubDB

    return ClubDB.open(url)


def send_waiting(store: Store, url: str, stop: Callable[[], bool] | None = None) -> SendReport:
    """Every waiting game sent to the club's database at ``url`` (``stop``:
    asked between games, to end early). A fault of the store itself before
    anything is sent is a StoreError (one line); after that, the report's
    ``error``."""
    report = SendReport()
    waiting = store.outbox.waiting()
    if not waiting:
        return report
    try:
        club = _open_club(url)
    except ClubDbError as exc:
        report.error = one_line(str(exc))
        report.left = len(waiting)
        _note(store, report)
        return report
    n = 0
    try:
        for n, (game, digest) in enumerate(waiting):
            if stop is not None and stop():
                report.left = len(waiting) - n
                break
            try:
                package = package_of(store, game)
            except DamagedGame as exc:  # this game does not replay as it stands: the others go on
                reason = one_line(str(exc))
                store.outbox.mark_refused(game, digest, f"не отправляется: {reason}")  # until it changes
                report.damaged.append((game, reason))
                continue
            except StoreError as exc:  # the store itself (a lock, the disk): the games wait
                report.error = one_line(str(exc))
                report.left = len(waiting) - n
                break
            try:
                answer = club.receive(package)
            except Refused as exc:
                reason = one_line(str(exc))
                store.outbox.mark_refused(game, package.digest, reason)
                report.refused.append((game, reason))
                continue
            except ClubDbError as exc:
                report.error = one_line(str(exc))
                report.left = len(waiting) - n
                break
            store.outbox.mark_sent(game, package.digest)  # only after the club's commit
            if answer == "same":
                report.same += 1
            elif answer == "updated":
                report.updated += 1
            else:
                report.stored += 1
    except StoreError as exc:  # a mark not written: that game is sent again next time (the club: «same»)
        report.error = one_line(str(exc))
        report.left = len(waiting) - n
    finally:
        with contextlib.suppress(Exception):
            club.close()
    _note(store, report)
    return report


def _note(store: Store, report: SendReport) -> None:
    """The attempt in the store's meta, for ``club status``: when it sent
    something, or failed otherwise than the last one did (a retry of the same
    fault writes nothing: each write of the store refreshes the club's pages)."""
    with contextlib.suppress(StoreError):  # the attempt's time is for club status, not worth a fault
        if report.error is None and (report.sent or report.refused):
            store.outbox.note_attempt()
        elif report.error is not None and report.error != store.outbox.failing_with():
            store.outbox.note_attempt(report.error)


def described(report: SendReport, url: str) -> list[str]:
    """What an attempt did, in Russian, one line a fact (``club send`` prints them)."""
    lines = []
    if report.sent:
        parts = [f"новых {report.stored}"]
        if report.same:
            parts.append(f"уже были в базе {report.same}")
        if report.updated:
            parts.append(f"обновлено {report.updated}")
        lines.append(f"в базу клуба {shown(url)} отправлено игр: {report.sent} ({', '.join(parts)})")
    lines += [
        f"игра {game}: {reason}"
        if reason.startswith(NOT_COUNTED)
        else f"игра {game} не принята базой клуба: {reason}"
        for game, reason in report.refused
    ]
    lines += [f"игра {game} не отправлена: {reason}" for game, reason in report.damaged]
    if report.error is not None:
        lines.append(f"{report.error}; игр ждут отправки: {report.left}")
    if not lines:
        lines.append("отправлять нечего: ни одна оконченная игра не ждёт отправки")
    return lines


# ------------------------------------------------------------------ the background


def _lower_priority() -> None:
    with contextlib.suppress(OSError):
        os.nice(NICE)


class Signals:
    """The sender's end of its wake-up pipe: a byte written by the box wakes
    it; the box closing its end (or dying) stops it. A pipe and not a shared
    lock: the box's write never waits, even for a sender killed mid-way."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.stopped = False
        self.woken = False

    def _drain(self, timeout: float | None) -> None:
        ready, _, _ = select.select([self.conn.fileno()], [], [], timeout)
        while ready:
            try:
                data = os.read(self.conn.fileno(), 4096)
            except OSError:
                data = b""
            if not data:  # the box closed its end: stop
                self.stopped = True
                return
            self.woken = True
            ready, _, _ = select.select([self.conn.fileno()], [], [], 0)

    def wait(self, timeout: float) -> None:
        """Until woken, stopped, or ``timeout`` seconds."""
        if not self.woken and not self.stopped:
            self._drain(timeout)

    def stop_asked(self) -> bool:
        """Asked between two games sent (a wake-up read here is kept for the next attempt)."""
        if not self.stopped:
            self._drain(0)
        return self.stopped


def _attempt(path: str, url: str, signals: Signals) -> SendReport:
    try:
        store = Store(Path(path), create=False)
    except HostDeviceError as exc:
        return SendReport(error=one_line(str(exc)), left=1)
    try:
        return send_waiting(store, url, stop=signals.stop_asked)
    except HostDeviceError as exc:
        return SendReport(error=one_line(str(exc)), left=1)
    except Exception as exc:  # never a traceback at the table: one line, and the games wait
        return SendReport(
            error=one_line(f"отправка в базу клуба прервана: {type(exc).__name__}: {exc}"), left=1
        )
    finally:
        store.close()


def serve(path: str, url: str, wake: Any, lines: Any, every_s: float, first_s: float, last_s: float) -> None:
    """The sender's process: an attempt at once, when woken, every
    ``every_s``; after a failed one, again after ``first_s`` doubling to
    ``last_s``. Each change of state is sent on ``lines`` as (level, text).
    Deaf to Ctrl-C, which a terminal sends the whole process group, and to
    SIGTERM and SIGHUP: the box stops it by closing its pipe (and no traceback
    of it is printed)."""
    deaf_to_stops()
    _lower_priority()
    signals = Signals(wake)
    away: str | None = None  # the line the server's absence was last told with
    delay, retry = 0.0, first_s
    while not signals.stopped:
        if delay:
            signals.wait(delay)
        if signals.stopped:
            break
        signals.woken = False
        report = _attempt(path, url, signals)
        told: list[tuple[int, str]] = []
        if report.sent:
            told.append((logging.INFO, described(report, url)[0]))
        told += [(logging.WARNING, f"игра {g} не отправлена в базу клуба: {r}") for g, r in report.refused]
        told += [(logging.WARNING, f"игра {g} не отправляется: {r}") for g, r in report.damaged]
        if report.error is None:
            if away is not None:
                told.append((logging.WARNING, f"база клуба {shown(url)} снова доступна"))
            away, delay, retry = None, every_s, first_s
        else:
            if report.error != away:
                told.append(
                    (logging.WARNING, f"{report.error}; игры ждут в хранилище, повтор через {retry:g} с")
                )
            away, delay, retry = report.error, retry, min(retry * 2, last_s)
        for item in told:
            with contextlib.suppress(OSError):
                lines.send(item)


class Sender:
    """The background sender of one store to the club's database at ``url``:
    ``start()``, ``wake()`` (a game finished: at any moment, from any thread,
    never blocking), ``close()``. ``told``: the lines it logged (the state's
    changes, each refusal)."""

    def __init__(
        self,
        store: Path,
        url: str,
        every_s: float = EVERY_S,
        first_s: float = FIRST_RETRY_S,
        last_s: float = LAST_RETRY_S,
    ) -> None:
        self.store, self.url = store, url
        context = multiprocessing.get_context("spawn")  # a fork of a process with threads is unsafe
        wake_r, self._wake = context.Pipe(duplex=False)
        self._lines, lines_w = context.Pipe(duplex=False)
        self._ends = (wake_r, lines_w)  # the sender's ends: closed here once it has them
        self._process: Any = context.Process(
            target=serve,
            args=(str(store), url, wake_r, lines_w, every_s, first_s, last_s),
            name="host-device-club-sender",
            daemon=True,
        )
        self._reader = threading.Thread(target=self._read, name="club-sender-lines", daemon=True)
        self.told: list[str] = []
        self._closed = False

    def start(self) -> Sender:
        with children_deaf():  # the sender and multiprocessing's resource tracker, if it starts here
            self._process.start()
        for end in self._ends:
            end.close()
        os.set_blocking(self._wake.fileno(), False)
        self._reader.start()
        return self

    @property
    def pid(self) -> int | None:
        return int(self._process.pid) if self._process.pid is not None else None

    @property
    def alive(self) -> bool:
        return bool(self._process.is_alive())

    def wake(self) -> None:
        """Look for games to send now (a game finished): one byte into a pipe, never waiting."""
        if self._closed:
            return
        with contextlib.suppress(BlockingIOError, OSError):  # full: it is woken already
            os.write(self._wake.fileno(), b"w")

    def _read(self) -> None:
        while True:
            try:
                level, text = self._lines.recv()
            except (EOFError, OSError, ValueError, TypeError):
                return  # the sender has ended
            self.told.append(text)
            log.log(level, text)

    def close(self, wait_s: float = CLOSE_S) -> None:
        """The sender ends (between two games it sends, or killed if it hangs on the network)."""
        if self._closed:
            return
        self._closed = True
        self._wake.close()  # its end reads the end of the pipe: it stops
        if self._process.pid is None:
            return
        self._process.join(wait_s)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(wait_s)
        self._reader.join(wait_s)
        self._lines.close()
