"""The game store: every accepted input of every game, in SQLite.

    games(id, started_at, preset, mode, settings, names, finished_at, winner, days)
    inputs(game, seq, t, input, undone)  -- the record: replaying it rebuilds the game
    players, seats, extras               -- the club's roster, who sat where, extra points (roster.py)
    meta, outbox                         -- the box's UUID; what the club's database was told (outbox.py)

(``games.names`` is legacy: schema 3 moved it into the roster and the seats.)

Here the store as a whole (:class:`Store`: where it lives, opening it, and
its parts): ``store.games`` reads and writes the games (``games.py``),
``store.roster`` the roster, the seats and the extra points (``roster.py``),
``store.outbox`` what waits for the club's database (``outbox.py``); each
holds the store's one :class:`Connection` (``connection.py``: its reads, and
the one transaction every write goes through). Its migrations are in
``migrations.py``, opening a file in ``opening.py``, its errors and faults on
disk in ``faults.py``.

An undo (assist mode) marks the undone inputs; they stay in the store, and
the record read back (and replayed) is the inputs not undone.

Each input is committed (write-ahead log, synchronous commits) before its
effect is carried out, so a power cut loses nothing that was said or shown.
The schema carries a version and is migrated forward on open.

What the store promises under faults (docs/store-faults.md):
- only real corruption — SQLite says the file is not a database, or
  ``PRAGMA integrity_check`` fails when it is opened for writing — moves a
  store aside, with its ``-wal`` and ``-shm``, under a name never used
  before (host_device/store/faults.py); its games are salvaged with
  ``games recover``;
- every other fault (a full disk, a lock held by another program, no
  permission, a read-only disk) is a :class:`StoreError` naming the cause
  and the path, and changes nothing;
- damage inside one game (a row that does not read back) is a
  :class:`DamagedGame` for that game alone; the others stay readable;
- a game whose record ends the game is finished, whenever it is read
  (``store.games.settle``), even if the process died before marking it;
- a migration that fails (a full disk, a power cut) leaves the store as it
  was, and the next opening migrates it whole.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from host_device.base.paths import data_dir
from host_device.store.connection import Connection
from host_device.store.faults import StoreError, cause_of, move_aside
from host_device.store.games import Games
from host_device.store.opening import Corrupt, open_db
from host_device.store.outbox import Outbox
from host_device.store.roster import Roster
from host_device.store.tournaments import Tournaments

__all__ = ["Store", "default_store_path"]


def default_store_path() -> Path:
    return data_dir() / "games.sqlite3"


class Store:
    """``create``: open for writing (``run``, ``simulate``): a missing store
    is made, a corrupt one moved aside. Without it (the ``games`` commands)
    the store must exist, and is read as it is; a read-only store is read.

    Its parts: ``games``, ``roster``, ``outbox``, ``tournaments``; ``connection``, the one they share."""

    def __init__(self, path: Path | None = None, *, create: bool = True) -> None:
        self.path = path or default_store_path()
        self.moved_aside: Path | None = None
        self.damage = ""  # why the store was moved aside
        if self.path.is_dir():
            raise StoreError(f"{self.path}: это папка, а не хранилище игр; укажите путь к файлу")
        if not create and not self.path.exists():
            raise StoreError(f"{self.path}: здесь нет хранилища игр")
        existed = self.path.exists()
        try:
            db, read_only = open_db(self.path, writing=create)
        except Corrupt as exc:
            if not create:
                raise StoreError(
                    f"{self.path}: хранилище игр повреждено ({exc}); "
                    f"спасти его игры: host-device games recover {self.path}"
                ) from None
            self.damage = str(exc)
            self.moved_aside = move_aside(self.path)
            db, read_only = open_db(self.path, writing=True)
        except StoreError:
            if create and not existed:
                _remove_new(self.path)  # nothing half-made is left behind
            raise
        self.connection = Connection(self.path, db, read_only)
        self.games = Games(self.connection)
        self.roster = Roster(self.connection, self.games)
        self.outbox = Outbox(self.connection, self.games, self.roster)
        self.tournaments = Tournaments(self.connection)

    @property
    def db(self) -> sqlite3.Connection:
        """The SQLite connection itself (``connection.db``), for raw SQL."""
        return self.connection.db

    @property
    def read_only(self) -> bool:
        """A store that cannot be written, opened for reading."""
        return self.connection.read_only

    @property
    def notice(self) -> str | None:
        """One line for the terminal when the store was moved aside."""
        if self.moved_aside is None:
            return None
        return (
            f"хранилище игр {self.path} было повреждено ({self.damage}); оно перенесено в {self.moved_aside} "
            f"(вместе с -wal и -shm), начато новое; спасти его игры: "
            f"host-device games recover {self.moved_aside}"
        )

    def box_id(self) -> str:
        """This store's box (its UUID, made once): who sends its games to the club."""
        rows = self.connection.read(None, "SELECT value FROM meta WHERE key = 'box'")
        if not rows:
            raise StoreError(f"{self.path}: нет UUID устройства (откройте хранилище для записи)")
        return str(rows[0][0])

    def integrity(self) -> list[str]:
        """SQLite's integrity check of the file: [] when it is sound."""
        try:
            problems = [row[0] for row in self.db.execute("PRAGMA integrity_check(5)")]
        except sqlite3.Error as exc:
            return [cause_of(exc)]
        except UnicodeDecodeError as exc:  # its answer quotes damaged text
            return [f"текст не декодируется ({exc.reason})"]
        return [] if problems == ["ok"] else problems

    def close(self) -> None:
        self.db.close()


def _remove_new(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
