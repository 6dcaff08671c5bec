"""The store's SQLite connection as every part of the store uses it: a read
whose fault is one line (damage inside one game is that game's alone), and
ONE transaction for every write — BEGIN IMMEDIATE, COMMIT, ROLLBACK on any
failure — whose fault is a :class:`StoreError` naming the path and the cause.
A write that fails changes nothing."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from host_device.store.faults import DamagedGame, StoreError, cause_of


@contextlib.contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Whole or not at all. SQLite may have rolled back already (a full disk does):
    then there is nothing to roll back, and the fault itself is what is raised."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        raise


class Connection:
    """``db``: the SQLite connection itself (for a test's raw SQL, and a fault it injects)."""

    def __init__(self, path: Path, db: sqlite3.Connection, read_only: bool) -> None:
        self.path = path
        self.db = db
        self.read_only = read_only
        self._version: int | None = None

    def changed_elsewhere(self) -> bool:
        """Whether another connection (``games extra`` in another process, a second box's
        command) committed to the file since this was last asked (SQLite's ``data_version``:
        a read of a counter, microseconds). The first answer is False; a fault is False."""
        try:
            (version,) = self.db.execute("PRAGMA data_version").fetchone()
        except sqlite3.Error:
            return False
        before, self._version = self._version, int(version)
        return before is not None and before != version

    def read(self, game_id: int | None, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """The rows; a fault is the game's (:class:`DamagedGame`), or the store's with no game."""
        try:
            return self.db.execute(sql, params).fetchall()
        except UnicodeDecodeError as exc:
            if game_id is None:
                raise StoreError(f"{self.path}: список игр не читается ({exc.reason})") from None
            raise DamagedGame(game_id, f"текст не декодируется ({exc.reason})") from None
        except sqlite3.Error as exc:
            if game_id is None:
                raise StoreError(
                    f"{self.path}: не удалось прочитать список игр: {cause_of(exc, self.path)}"
                ) from None
            raise DamagedGame(game_id, cause_of(exc)) from None

    @contextlib.contextmanager
    def transaction(self, what: str) -> Iterator[sqlite3.Connection]:
        """Every write of the store: ``what`` says what was being written, in Russian (accusative)."""
        try:
            with transaction(self.db):
                yield self.db
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: не удалось записать {what}: {cause_of(exc, self.path)}") from None

    def write(self, what: str, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        """One statement, in a transaction of its own."""
        with self.transaction(what) as db:
            return db.execute(sql, params)
