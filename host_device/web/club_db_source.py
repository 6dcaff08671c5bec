"""The club's database's records as the worker keeps them: the interface of
:class:`host_device.web.club_source.Source` (refresh, record, finished,
signature, game_key), read from PostgreSQL (host_device/clubdb/db.py)
instead of a store.

The records are not replayed here: each game's record came with it. What
is kept is each game's record by its digest; a refresh (the database's
``state()`` changed) reads every game's number and digest and fetches only
the games whose digest changed, or every game when the roster changed
(the names and merges every record shows)."""

from __future__ import annotations

import datetime
from collections.abc import Hashable, Sequence
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
        self.kept: dict[int, tuple[str, GameRecord]] = {}
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
        if now[1] != self.roster:
            self.kept = {}
        wanted = [game for game, digest in keys.items() if self.kept.get(game, ("",))[0] != digest]
        if wanted:  # nothing kept: every game at once (faster than by their numbers)
            fetched = db.records() if len(wanted) == len(keys) else db.records(wanted)
            self.fetched += len(fetched)
            for record in fetched:
                self.kept[record.id] = (keys[record.id], record)
        self.kept = {game: kept for game, kept in self.kept.items() if game in keys}
        self.keys = keys
        self.roster = now[1]
        self.ordered = sorted((r for _, r in self.kept.values() if r.finished), key=_when)
        self.state = state

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
