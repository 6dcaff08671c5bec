"""Opening a store file: for writing it is checked, migrated (migrations.py)
and made whole; for reading it is read as it stands (on a read-only disk, as
an immutable file), an older one migrated. Only real corruption raises
:class:`Corrupt`; every other fault is a :class:`StoreError` naming the cause
and the path — a migration that fails leaves the store as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from host_device.base.errors import os_reason
from host_device.store.connection import transaction
from host_device.store.faults import StoreError, cause_of, header_damage, is_corrupt, orphans
from host_device.store.migrations import SCHEMA_VERSION, box_id, todays_schema, upgrade

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
    doing = "открыть хранилище игр"
    try:
        version = _check(path, db, writing)
        if version < SCHEMA_VERSION:
            doing = (
                f"обновить хранилище игр со схемы {version} до схемы {SCHEMA_VERSION} (оно осталось как было)"
                if version
                else "создать хранилище игр"
            )
            upgrade(db)
            doing = "открыть хранилище игр"
        if writing:
            _mend(db)
    except UnicodeDecodeError as exc:  # text SQLite hands back that is not UTF-8: damage
        db.close()
        raise Corrupt(f"текст не декодируется ({exc.reason})") from None
    except sqlite3.Error as exc:
        db.close()
        if is_corrupt(exc):
            raise Corrupt(str(exc)) from None
        if not writing and "readonly" in getattr(exc, "sqlite_errorname", "").lower():
            return _open_read_only(path), True
        raise StoreError(f"{path}: не удалось {doing}: {cause_of(exc, path)}") from None
    except (StoreError, Corrupt):
        db.close()
        raise
    return db, False


def _check(path: Path, db: sqlite3.Connection, writing: bool) -> int:
    """The store's schema version, checked; for writing, the file checked
    whole too. A store of today's schema opened for reading is read as it
    stands, never written (its version is returned at once)."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])  # a file that is no database fails here
    if version < 0:  # SQLite keeps any 32-bit number there; no host-device writes a negative one
        raise Corrupt(f"номер схемы {version} (повреждён заголовок)")
    if version > SCHEMA_VERSION:
        raise StoreError(f"{path}: записано более новым host-device (схема {version}); обновите этот")
    if not writing and version == 0:
        raise StoreError(f"{path}: пустой файл, а не хранилище игр")
    if not writing and version == SCHEMA_VERSION:
        return version
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    if writing and version:
        problems = [row[0] for row in db.execute("PRAGMA integrity_check(5)")]
        if problems != ["ok"]:  # writing into a damaged file could spread the damage
            raise Corrupt("проверка целостности: " + "; ".join(problems))
    return version


def _mend(db: sqlite3.Connection) -> None:
    """A table (or index) lost to damage is made again as the migrations make
    it (its rows are gone), and the box's UUID; a column lost is damage."""
    schema = todays_schema()
    have = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    lost = [sql for name, sql in schema.made_by if name not in have]
    if lost or not db.execute("SELECT 1 FROM meta WHERE key = 'box'").fetchone():
        with transaction(db):
            for sql in lost:
                db.execute(sql)
            box_id(db)
    for table, columns in schema.columns:
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
