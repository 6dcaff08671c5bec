"""Where the club's pages are computed: a worker process of their own.

Building a game's record replays it, a leaderboard replays every game and
the rating, a plot is matplotlib: tens to hundreds of milliseconds of CPU
holding the GIL. Done on the pages' thread of the process that hosts a
game, that would delay the scheduler's timers («Время!»), so the pages'
server hands each club page to one worker process (spawned, at a lower
priority) and awaits its answer; the game's process only stats the store
and keeps the answers.

A page's answer is cached by (the store's state, the page's address): the
state is the store file's and its write-ahead log's size and time, so a
write between games (extra points, a name, another box's games) makes
every page fresh again, and nothing is kept that the store no longer says.
While a game is played (:meth:`ClubPages.hold`) the state is the one it had
when the game began, whatever the game writes: the pages read finished
games only, and a night's input that made them fresh would show in their
timing (whom the Sheriff checked, at «Шесть»). The game's end lets the
store's state in again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host_device.base.stopping import children_deaf, deaf_to_stops

PAGES_KEPT = 256  # answers kept in the game's process (a page is a few to a few hundred kB)
NICE = 10  # the worker yields the CPU to the game's process
PARENT_POLL_S = 0.5  # how often the worker looks whether its parent is still there
BROKEN = "Страницы клуба перезапускаются: обновите страницу через несколько секунд"
FAILED = "Страница не строится: причина — в журнале сервера страниц"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Answer:
    status: int
    html: str


def store_state(path: Path) -> Hashable:
    """What changes whenever the store is written: the file's and its log's size and time."""
    state: list[tuple[int, int] | None] = []
    for suffix in ("", "-wal"):
        try:
            info = os.stat(f"{path}{suffix}")
        except OSError:
            state.append(None)
        else:
            state.append((info.st_size, info.st_mtime_ns))
    return tuple(state)


def _worker_start(parent: int) -> None:
    """The worker at a lower priority, deaf to Ctrl-C, a service's stop and a
    closed terminal (all are the parent's, which shuts the pool down: a Ctrl-C at the
    terminal reaches the whole process group, and would print the worker's
    traceback), and gone as soon as its parent is, however the parent ended
    (a SIGKILL too): no worker and no multiprocessing helper is left behind."""
    deaf_to_stops()
    with contextlib.suppress(OSError):
        os.nice(NICE)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def new_pool() -> ProcessPoolExecutor:
    """One spawned worker (a fork of a process with threads is unsafe), nice'd."""
    with children_deaf():  # multiprocessing's resource tracker starts here
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_start,
            initargs=(os.getpid(),),
        )


class ClubPages:
    """The club's pages of one store, for the app (``app.state.club``):
    ``scoring`` the club's scoring table (``[club] scoring``, None: the
    default); ``pool`` where they are computed (tests: a thread).
    ``database``: the club's database's URL instead of a store (``club web``):
    the state is its ``state()``, asked on a thread of this process."""

    def __init__(
        self,
        store: Path | None,
        scoring: Path | None = None,
        pool: Executor | None = None,
        database: str | None = None,
    ) -> None:
        self.store = store
        self.database = database
        self.where = database or str(store)
        self._connections: dict[str, Any] = {}  # the database's connection for its state
        self.scoring = scoring
        self._pool = pool
        self.answers: OrderedDict[Hashable, Answer] = OrderedDict()
        self.computed = 0  # answers asked of the worker (not found kept): for the tests and the bench
        self.current: Any = None  # the hosted game's id, a callable set by the session (``/game/current``)
        self.playing: Callable[[], bool] | None = None  # whether a game is being played (``hold``)
        self.held: Hashable = None  # the store's state when it began
        self.said = ""  # the last fault told to the log: told once, until a page is answered again

    @property
    def pool(self) -> Executor:
        if self._pool is None:
            self._pool = new_pool()
        return self._pool

    def hold(self, playing: Callable[[], bool]) -> None:
        """From now on, while ``playing()``, the pages are keyed by the store's
        state now (before the game writes anything): nothing the game writes
        makes them fresh; once it is over (``playing()`` false) they follow
        the store again (the finished game in)."""
        assert self.store is not None
        self.held = store_state(self.store)
        self.playing = playing

    async def state(self) -> Hashable:
        if self.database is None:
            assert self.store is not None
            if self.playing is not None and self.playing():
                return self.held
            return store_state(self.store)
        from host_device.web.club_db_source import database_state

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, database_state, self.database, self._connections)

    def _tell(self, said: str, exc_info: BaseException | None = None) -> None:
        """A fault's line to the server's log (the club's database's address is there, never on
        a page), once while it is the same; a page answered lets the next one be told."""
        if said and said != self.said:
            log.log(
                logging.ERROR if exc_info else logging.WARNING, "страницы клуба: %s", said, exc_info=exc_info
            )
        self.said = said

    async def answer(self, kind: str, arg: str, query: tuple[tuple[str, str], ...] = ()) -> Answer:
        from host_device.base.errors import HostDeviceError
        from host_device.web.club_render import answer, fault, refusal

        try:
            state = await self.state()
        except HostDeviceError as exc:  # the club's database is away: one line, asked again next time
            status, html, said = fault(exc, self.where, refresh=kind.startswith("tournament"))
            self._tell(said)
            return Answer(status, html)
        key = (state, kind, arg, query)
        if key in self.answers:
            self.answers.move_to_end(key)
            return self.answers[key]
        self.computed += 1
        loop = asyncio.get_running_loop()
        try:
            status, html, said = await loop.run_in_executor(
                self.pool, answer, self.where, state, str(self.scoring or ""), kind, arg, query
            )
        except BrokenProcessPool:  # the worker died (out of memory?): a new one for the next page
            self._pool = None
            return Answer(503, BROKEN)
        except Exception as exc:  # a fault of the pages' own: its traceback once in the log, not to a visitor
            self._tell(f"{type(exc).__name__}: {exc}", exc_info=exc)
            return Answer(*refusal(FAILED, 500))
        self._tell(said)
        found = Answer(status, html)
        if status < 500:
            self.answers[key] = found
            while len(self.answers) > PAGES_KEPT:
                self.answers.popitem(last=False)
        return found

    def warm(self) -> None:
        """Start the worker now (its imports), not on the first page asked."""
        from host_device.web.club_render import ready

        self.pool.submit(ready)

    def close(self) -> None:
        for db in self._connections.values():
            db.close()
        self._connections.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None  # the next page, if any, starts a new worker
