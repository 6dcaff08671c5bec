"""The store's records as the worker keeps them: a game's record is built
(replayed) once and kept while what it is built from stays the same.

What a record is built from: its game's row, its inputs (their count,
the undone ones, the last), and every row of any other table that names
the game (``game`` column: who sat where, the host's extra points); and,
for every game, the tables that name no game (the roster's players, whose
names and merges every record reads). One read of the store gives each
game's signature; only the games whose signature changed are replayed.
During a game, each input changes its game's signature alone, so the
finished games' records, and the leaderboard's and players' pages drawn
from them, are kept."""

from __future__ import annotations

import contextlib
import json
import shlex
import sqlite3
from collections import defaultdict
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

from host_device.club.record import GameRecord
from host_device.store.faults import StoreError

OWN = ("games", "inputs")
# what the club's database was told, the box's UUID, the tournaments' seating: no record reads them
# (a new seating replays no game; the venue screen reads the store itself)
NOT_READ = ("outbox", "meta", "tournaments", "tournament_players", "tournament_apart", "tournament_seats")


def signatures(
    db: sqlite3.Connection, only: Sequence[int] | None = None
) -> tuple[dict[int, Hashable], Hashable]:
    """Each game's signature, and the signature of what every game reads (tables naming no game);
    ``only``: the signatures of these games alone (the rest of the store is not read)."""
    parts: dict[int, list[Any]] = defaultdict(list)
    among, args = (
        ("", ()) if only is None else (" IN (SELECT value FROM json_each(?))", (json.dumps(list(only)),))
    )
    for row in db.execute(f"SELECT * FROM games{' WHERE id' + among if among else ''}", args):
        parts[row[0]].append(tuple(row))
    for game, count, undone, last in db.execute(
        f"SELECT game, count(*), total(undone), max(seq) FROM inputs{' WHERE game' + among if among else ''} "
        "GROUP BY game",
        args,
    ):
        parts[game].append((count, undone, last))
    shared = []
    tables = [
        name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    ]
    for table in tables:
        if table in OWN or table in NOT_READ or table.startswith("sqlite_"):
            continue
        columns = [column[1] for column in db.execute(f'PRAGMA table_info("{table}")')]
        if "game" in columns:
            at = columns.index("game")
            where = " WHERE game" + among if among else ""
            for row in db.execute(f'SELECT * FROM "{table}"{where} ORDER BY rowid', args).fetchall():
                parts[row[at]].append((table, tuple(row)))
        else:
            rows = db.execute(f'SELECT * FROM "{table}" ORDER BY rowid').fetchall()
            shared.append((table, hash(tuple(tuple(row) for row in rows))))
    return {game: hash(tuple(items)) for game, items in parts.items()}, tuple(shared)


class Source:
    """One store's records, kept across its changes (see the module's text)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.state: Hashable = object()  # the file's state last read (club_worker.store_state)
        self.keys: dict[int, Hashable] = {}  # each game's signature, with the shared one
        self.marked: set[int] = set()  # the games the store marks finished
        self.kept: dict[int, tuple[Hashable, GameRecord | None]] = {}  # None: damaged
        self.replayed = 0  # records built (not found kept): for the tests and the bench

    def _store(self) -> Any:
        from host_device.store.db import Store

        return Store(self.path, create=False)

    def refresh(self, state: Hashable) -> None:
        """Read the games' signatures again, if the store's file has changed."""
        if state == self.state:
            return
        store = self._store()
        try:
            games, shared = signatures(store.db)
            self.marked = {row.id for row in store.games.all() if row.winner is not None}
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: не удалось прочитать хранилище игр ({exc})") from None
        finally:
            store.close()
        self.keys = {game: (key, shared) for game, key in games.items()}
        self.kept = {game: kept for game, kept in self.kept.items() if game in self.keys}
        self.state = state

    def _build(self, store: Any, game_id: int, key: Hashable | None = None) -> GameRecord | None:
        from host_device.club.build import record_of

        key = self.keys.get(game_id) if key is None else key
        kept = self.kept.get(game_id)
        if kept is not None and kept[0] == key:
            return kept[1]
        self.replayed += 1
        record: GameRecord | None = None
        with contextlib.suppress(StoreError):  # a damaged game: no record (games check names it)
            record = record_of(store, game_id)
        self.kept[game_id] = (key, record)
        return record

    def record(self, game_id: int) -> GameRecord:
        """One game's record (finished or not); an unknown game: UnknownGame."""
        from host_device.store.faults import UnknownGame

        if game_id not in self.keys:
            raise UnknownGame(game_id)
        store = self._store()
        try:
            record = self._build(store, game_id)
        finally:
            store.close()
        if record is None:
            raise StoreError(
                f"Игра {game_id} повреждена: host-device games check {shlex.quote(str(self.path))}"
            )
        return record

    def finished(self) -> Sequence[GameRecord]:
        """Every game the store marks finished that reads, oldest first."""
        store = self._store()
        try:
            found = [self._build(store, game) for game in sorted(self.marked)]
        finally:
            store.close()
        return sorted((r for r in found if r is not None and r.finished), key=lambda r: (r.started_at, r.id))

    def finished_among(self, games: Sequence[int]) -> dict[int, GameRecord]:
        """The records of those of ``games`` the store marks finished, by game (a tournament's):
        only these games are read, and a game in progress not at all (its inputs, which change
        during the night, are no part of what is read or kept; the full reading is refresh's)."""
        store = self._store()
        try:
            done = [
                game
                for (game,) in store.db.execute(
                    "SELECT id FROM games WHERE winner IS NOT NULL "
                    "AND id IN (SELECT value FROM json_each(?))",
                    (json.dumps(list(games)),),
                )
            ]
            keys, shared = signatures(store.db, done)
            found = {game: self._build(store, game, (keys[game], shared)) for game in done}
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: не удалось прочитать хранилище игр ({exc})") from None
        finally:
            store.close()
        return {game: r for game, r in found.items() if r is not None and r.finished}

    def signature(self) -> Hashable:
        """What the finished games' records are built from: a page drawn from them is kept while it holds."""
        return tuple((game, self.keys.get(game)) for game in sorted(self.marked))

    def game_key(self, game_id: int) -> Hashable:
        return self.keys.get(game_id)
