"""The store's schema, carried as a version and migrated forward, and the
opening of a store file: for writing it is checked, migrated and made whole;
for reading it is read as it stands (on a read-only disk, as an immutable
file). Only real corruption raises :class:`Corrupt`; every other fault is a
:class:`StoreError` naming the cause and the path."""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from engine.presets import MAX_SEATS
from host_device.base.errors import os_reason
from host_device.store.faults import StoreError, cause_of, header_damage, is_corrupt, orphans

# the club's roster (schema 3): a player's id is a UUID, so records from
# several devices merge; a merged entry stays, pointing at the one kept
ROSTER = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    nickname TEXT,
    merged_into TEXT,
    added_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    player TEXT NOT NULL REFERENCES players(id),
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS extras (
    game INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    points REAL NOT NULL,
    PRIMARY KEY (game, seat)
);
"""
# schema 4: each game's UUID (its key in the club's database, however many
# boxes send it), the box's own UUID, and what the club's database was told
# of each finished game (the outbox: host_device/store/outbox.py)
CLUB = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
    game INTEGER PRIMARY KEY REFERENCES games(id),
    digest TEXT NOT NULL,
    state TEXT NOT NULL,
    reason TEXT,
    at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS games_uuid ON games(uuid);
"""
SCHEMA_VERSION = 4
# games.names (JSON seat -> name) is legacy: schema 3 moved each game's names
# into the roster (players) and the seats; it is no longer read or written.
SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    preset TEXT NOT NULL,
    mode TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    names TEXT NOT NULL DEFAULT '{}',
    finished_at TEXT,
    winner TEXT,
    days INTEGER NOT NULL DEFAULT 0,
    uuid TEXT
);
CREATE TABLE IF NOT EXISTS inputs (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    input TEXT NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, seq)
);
"""
    + ROSTER
    + CLUB
)


def _names_to_roster(db: sqlite3.Connection) -> None:
    """Schema 3: each game's names (JSON) moved into the roster, one player
    per distinct name (a new UUID each), and into the seats. A game whose
    names do not read keeps its record and gets no seats (as ``games
    recover`` leaves unreadable names out)."""
    _statements(db, ROSTER)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    ids: dict[str, str] = {}
    for game, text in db.execute("SELECT id, names FROM games ORDER BY id").fetchall():
        try:
            names = json.loads(text or "{}")
        except (ValueError, TypeError, RecursionError):
            continue
        if not isinstance(names, dict):
            continue
        here: set[str] = set()  # the players of this game: one name twice in it is two people
        for seat, name in names.items():
            if not isinstance(name, str) or not name.strip() or not str(seat).isdecimal():
                continue
            if not 1 <= int(seat) <= MAX_SEATS:
                continue
            name = " ".join(name.split())
            key = name.casefold()  # «Вера» and «вера» are one player (the roster's lookup folds case)
            if key not in ids or ids[key] in here:
                player = str(uuid.uuid4())
                ids.setdefault(key, player)
                db.execute("INSERT INTO players (id, name, added_at) VALUES (?, ?, ?)", (player, name, now))
            else:
                player = ids[key]
            here.add(player)
            db.execute(
                "INSERT OR REPLACE INTO seats (game, seat, player) VALUES (?, ?, ?)",
                (game, int(seat), player),
            )


def _game_uuids(db: sqlite3.Connection) -> None:
    """Schema 4: a UUID for every game, the box's UUID, the outbox."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if "uuid" not in columns:
        db.execute("ALTER TABLE games ADD COLUMN uuid TEXT")
    for (game,) in db.execute("SELECT id FROM games WHERE uuid IS NULL").fetchall():
        db.execute("UPDATE games SET uuid = ? WHERE id = ?", (str(uuid.uuid4()), game))
    _statements(db, CLUB)
    box_id(db)


def _statements(db: sqlite3.Connection, sql: str) -> None:
    """Each statement of ``sql`` inside the transaction already open (executescript would commit it)."""
    for statement in sql.split(";"):
        if statement.strip():
            db.execute(statement)


def _in_one_transaction(
    db: sqlite3.Connection, step: int, migration: Callable[[sqlite3.Connection], None]
) -> None:
    """A migration SQL alone cannot do, with its version, whole or not at all: one cut short
    (a power cut) is done again whole at the next opening."""
    db.execute("BEGIN IMMEDIATE")
    try:
        migration(db)
        db.execute(f"PRAGMA user_version={step}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def box_id(db: sqlite3.Connection) -> str:
    """This store's box: a UUID made once, the sender of its games to the club."""
    row = db.execute("SELECT value FROM meta WHERE key = 'box'").fetchone()
    if row is not None:
        return str(row[0])
    made = str(uuid.uuid4())
    db.execute("INSERT INTO meta (key, value) VALUES ('box', ?)", (made,))
    return made


# from the version before to this one: SQL, or a function for what SQL alone cannot do
MIGRATIONS: dict[int, str | Callable[[sqlite3.Connection], None]] = {
    1: SCHEMA.replace(ROSTER + CLUB, "")
    .replace(",\n    uuid TEXT", "")
    .replace(",\n    undone INTEGER NOT NULL DEFAULT 0", ""),
    2: "ALTER TABLE inputs ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;",
    3: _names_to_roster,
    4: _game_uuids,
}
COLUMNS_OF = {
    "games": {"id", "started_at", "preset", "mode", "settings", "finished_at", "winner", "days", "uuid"},
    "inputs": {"game", "seq", "t", "input", "undone"},
    "players": {"id", "name", "nickname", "merged_into", "added_at"},
    "seats": {"game", "seat", "player"},
    "extras": {"game", "seat", "points"},
    "meta": {"key", "value"},
    "outbox": {"game", "digest", "state", "reason", "at"},
}
LOCK_WAIT_S = 1.0  # how long to wait for another program's lock before saying so


class Corrupt(Exception):
    """SQLite says the file is no database, or its integrity check fails."""


def open_db(path: Path, writing: bool) -> tuple[sqlite3.Connection, bool]:
    """The store's connection, and whether it is read-only (a store that
    cannot be written, opened for reading)."""
    if writing:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"{path.parent}: не удалось создать папку хранилища ({os_reason(exc)})"
            ) from None
        if not path.exists():
            orphans(path)  # a -wal left by a crash must never be read into a new store
    damage = header_damage(path)
    if damage:
        raise Corrupt(damage)
    try:
        db = sqlite3.connect(path, isolation_level=None, timeout=LOCK_WAIT_S)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: не удалось открыть хранилище игр: {cause_of(exc, path)}") from None
    try:
        _prepare(path, db, writing)
    except UnicodeDecodeError as exc:  # text SQLite hands back that is not UTF-8: damage
        db.close()
        raise Corrupt(f"текст не декодируется ({exc.reason})") from None
    except sqlite3.Error as exc:
        db.close()
        if is_corrupt(exc):
            raise Corrupt(str(exc)) from None
        if not writing and "readonly" in getattr(exc, "sqlite_errorname", "").lower():
            return _open_read_only(path), True
        raise StoreError(f"{path}: не удалось открыть хранилище игр: {cause_of(exc, path)}") from None
    except (StoreError, Corrupt):
        db.close()
        raise
    return db, False


def _prepare(path: Path, db: sqlite3.Connection, writing: bool) -> None:
    """Writing: the file checked, migrated and made whole. Reading: a store
    of this schema is read as it stands, never written."""
    version = db.execute("PRAGMA user_version").fetchone()[0]  # a file that is no database fails here
    if version < 0:  # SQLite keeps any 32-bit number there; no host-device writes a negative one
        raise Corrupt(f"номер схемы {version} (повреждён заголовок)")
    if version > SCHEMA_VERSION:
        raise StoreError(f"{path}: записано более новым host-device (схема {version}); обновите этот")
    if not writing and version == 0:
        raise StoreError(f"{path}: пустой файл, а не хранилище игр")
    if not writing and version == SCHEMA_VERSION:
        return
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    if writing and version:
        problems = [row[0] for row in db.execute("PRAGMA integrity_check(5)")]
        if problems != ["ok"]:  # writing into a damaged file could spread the damage
            raise Corrupt("проверка целостности: " + "; ".join(problems))
    if version == 0:
        db.executescript(SCHEMA)
    else:
        for step in range(version + 1, SCHEMA_VERSION + 1):
            migration = MIGRATIONS[step]
            if isinstance(migration, str):
                db.executescript(migration)
            else:
                _in_one_transaction(db, step, migration)
    if version != SCHEMA_VERSION:
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    if writing:
        db.executescript(SCHEMA)  # a table lost to damage is made again (its rows are gone)
        box_id(db)
        for table, columns in COLUMNS_OF.items():
            have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if not columns <= have:
                lacks = ", ".join(sorted(columns - have))
                raise Corrupt(f"в его таблице {table} нет {lacks} (повреждена схема)")


def _open_read_only(path: Path) -> sqlite3.Connection:
    """A store on a read-only disk (or a file without write permission) is read as it stands."""
    uri = f"{path.resolve().as_uri()}?immutable=1"
    db = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.Error as exc:
        db.close()
        raise StoreError(f"{path}: не удалось прочитать хранилище игр: {cause_of(exc, path)}") from None
    if version != SCHEMA_VERSION:
        db.close()
        raise StoreError(
            f"{path}: только для чтения, и записано другой версией host-device (схема {version})"
        )
    return db
