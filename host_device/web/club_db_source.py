"""The club's database's records as the worker keeps them: the interface of
:class:`host_device.web.club_source.Source` (refresh, record, finished,
signature, game_key), read from PostgreSQL (host_device/clubdb/db.py)
instead of a store.

The records are not replayed here: each game's record came with it. What
is kept is each game's record by its digest; a refresh (the database's
``state()`` changed) reads every game's number and digest and fetches only
the games whose digest changed, or every game when the roster changed
(the names and merges every record shows). The finished records are kept
in time order: new games (the usual change) are put in their places; a
corrected or removed game, or every game read, sorts them again, by each
record's place in time read once when it was fetched (a refresh after one
new game among 10,000 took 37 ms on a Pi-class core re-sorting them all:
bench/standings_club.py).

The records read at once (the first reading, a roster changed) are moved
out of the cyclic garbage collector's reach (``gc.freeze``): they live as
long as the worker, and a full collection walking their 600,000 objects
took 0.65 s here (some 4 s on a Pi-class core) at random moments, such as
the first page after a new game; one full collection is made just before,
so no garbage is frozen. Records hold no reference cycles, so one dropped
later (a roster changed) is still freed by its reference count."""

from __future__ import annotations

import bisect
import datetime
import gc
from collections.abc import Hashable, Sequence
from operator import itemgetter
from typing import Any

from host_device.club.record import GameRecord
from host_device.store.faults import UnknownGame


def _when(record: GameRecord) -> tuple[datetime.datetime, str]:
    """The database's order (started_at as a time, then the UUID); a time without its zone is UTC."""
    start = datetime.datetime.fromisoformat(record.started_at)
    if start.tzinfo is None:
        start = start.replace(tzinfo=datetime.UTC)
    return start, record.uuid or ""


class ClubDbSource:
    """The club's database's records, kept across its changes (see the module's text)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.state: Hashable = object()  # the database's state() last read
        self.roster: Hashable = None  # the roster's part of it
        self.keys: dict[int, str] = {}  # each game's club number -> its digest
        self.kept: dict[int, tuple[str, GameRecord, tuple[datetime.datetime, str]]] = {}  # + its _when
        self.ordered: list[GameRecord] = []  # the finished ones, in time order
        self.fetched = 0  # records read from the database (not found kept): for the tests and the bench
        self._db: Any = None

    def open(self) -> Any:
        from host_device.clubdb.db import ClubDB

        if self._db is None or self._db.conn.closed:
            self._db = ClubDB.open(self.url)
        return self._db

    def refresh(self, state: Hashable) -> None:
        """Read the games' digests again, and the records that changed, if the database has changed."""
        if state == self.state:
            return
        from host_device.clubdb.errors import Unreachable

        try:
            self._refresh(state)
        except Unreachable:  # the connection was lost: one new one, then the line
            self._db = None
            self._refresh(state)

    def _refresh(self, state: Hashable) -> None:
        db = self.open()
        now = db.state()
        keys = db.game_keys()
        anew = now[1] != self.roster
        if anew:
            self.kept = {}
        wanted = [game for game, digest in keys.items() if self.kept.get(game, ("",))[0] != digest]
        every = bool(wanted) and len(wanted) == len(keys)
        fetched: list[GameRecord] = []
        if wanted:  # nothing kept: every game at once (faster than by their numbers)
            fetched = db.records() if every else db.records(wanted)
            # a game a box sent between the digests and this read: the next reading has it whole
            fetched = [record for record in fetched if record.id in keys]
            self.fetched += len(fetched)
        changed = any(record.id in self.kept for record in fetched)  # a box corrected a kept game
        for record in fetched:
            self.kept[record.id] = (keys[record.id], record, _when(record))
        kept = {game: one for game, one in self.kept.items() if game in keys}
        gone = len(kept) != len(self.kept)
        self.kept, self.keys, self.roster = kept, keys, now[1]
        if anew or changed or gone:
            finished = sorted((k for k in kept.values() if k[1].finished), key=itemgetter(2))
            self.ordered = [record for _, record, _ in finished]
        else:  # new games only (the usual change): each put in its place, the rest as it was
            ordered = list(self.ordered)
            for record in fetched:
                if record.finished:
                    bisect.insort(ordered, record, key=_when)
            self.ordered = ordered
        self.state = state
        if every:  # kept as long as the worker runs: no full collection walks them again
            gc.unfreeze()  # what an earlier reading froze is walked once more: its garbage freed
            gc.collect()  # the garbage first, once (a cycle frozen, a plot's, would never be freed)
            gc.freeze()

    def record(self, game_id: int) -> GameRecord:
        if game_id not in self.kept:
            raise UnknownGame(game_id)
        return self.kept[game_id][1]

    def finished(self) -> Sequence[GameRecord]:
        return self.ordered

    def signature(self) -> Hashable:
        return (tuple(sorted(self.keys.items())), self.roster)

    def game_key(self, game_id: int) -> Hashable:
        return (self.keys.get(game_id), self.roster)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def database_state(url: str, kept: dict[str, Any]) -> Hashable:
    """The club's database's state() through a connection kept in ``kept`` (the pages' process)."""
    from host_device.clubdb.db import ClubDB
    from host_device.clubdb.errors import Unreachable

    for attempt in (1, 2):
        db = kept.get(url)
        if db is None or db.conn.closed:
            db = kept[url] = ClubDB.open(url)
        try:
            return tuple(db.state())
        except Unreachable:
            kept.pop(url, None)
            db.close()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")
