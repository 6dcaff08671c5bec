"""``games recover FILE``: every game of a damaged or moved-aside store whose
record still reads and replays, copied into the current store.

The file itself is never changed: it is copied (with its -wal) to a
temporary folder and read there. A file whose first page SQLite no longer
recognises gets its fixed header fields written back in the copy, which is
often all that was damaged. Each game is copied whole in one transaction or
not at all, marked with where it came from, so a second recovery of the same
file adds nothing twice. The roster comes along: every player of the file
the current store lacks (by id: the same person on two devices is one entry),
a merge the file knows, and each recovered game's seats and extra points; a
store older than schema 3 gives its names, matched to the roster by name or
added to it.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import Game
from engine.serial import input_from_dict
from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.names import BadName, player_name
from host_device.store.db import Store
from host_device.store.faults import MAGIC, StoreError, cause_of
from host_device.store.roster import imported_row
from voices.words import WINS

PAGE_SIZES = (4096, 1024, 2048, 8192, 16384, 32768, 65536, 512)


@dataclass
class Report:
    recovered: int = 0
    failed: int = 0
    already: int = 0
    players: int = 0  # players added to the roster
    lines: list[str] = field(default_factory=list)


def _connect(path: Path) -> sqlite3.Connection | None:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("SELECT count(*) FROM games").fetchone()
    except (sqlite3.Error, UnicodeDecodeError):  # SQLite's message quoting damaged text is no UTF-8 either
        db.close()
        return None
    return db


def _mend_header(path: Path) -> sqlite3.Connection | None:
    """Write the header's fixed fields back (trying each page size) until the copy opens."""
    with path.open("r+b") as f:
        header = bytearray(f.read(100))
    if len(header) < 100:
        return None
    for size in PAGE_SIZES:
        header[0:16] = MAGIC
        header[16:18] = (1 if size == 65536 else size).to_bytes(2, "big")
        wal = Path(f"{path}-wal").exists()  # SQLite would delete a -wal beside a header without "WAL"
        header[18:20] = b"\x02\x02" if wal else b"\x01\x01"
        header[21:24] = b"\x40\x20\x20"
        with path.open("r+b") as f:
            f.write(header)
        db = _connect(path)
        if db is not None:
            return db
    return None


def _open_copy(source: Path, work: Path) -> sqlite3.Connection:
    copy = work / "copy.sqlite3"
    try:
        shutil.copyfile(source, copy)
        if Path(f"{source}-wal").is_file():
            shutil.copyfile(f"{source}-wal", f"{copy}-wal")
    except OSError as exc:
        raise StoreError(f"{source}: не удалось прочитать: {os_reason(exc)}") from None
    db = _connect(copy) or _mend_header(copy)
    if db is None:
        raise StoreError(
            f"{source}: из него не прочесть ни одной игры "
            "(это не хранилище игр SQLite, или потеряна его первая страница)"
        )
    return db


def _game_ids(db: sqlite3.Connection) -> list[int]:
    try:
        return [int(row[0]) for row in db.execute("SELECT id FROM games ORDER BY id")]
    except sqlite3.Error as exc:
        raise StoreError(f"список игр не читается: {cause_of(exc)}") from None
    except UnicodeDecodeError as exc:
        raise StoreError(f"список игр не читается (текст не декодируется: {exc.reason})") from None


def _tables(db: sqlite3.Connection) -> set[str]:
    try:
        return {str(row[0]) for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except (sqlite3.Error, UnicodeDecodeError):
        return set()


def _roster(db: sqlite3.Connection, target: Store, source: Path) -> tuple[int, list[str]]:
    """The file's players the current store lacks, added (their merges too): how many, and a
    line for each row the one door refuses (host_device/base/names.py), left behind — a name
    of the file is never let in raw, and a bad one does not cost the others."""
    if "players" not in _tables(db):
        return 0, []
    try:
        rows = db.execute("SELECT id, name, nickname, merged_into, added_at FROM players").fetchall()
    except (sqlite3.Error, UnicodeDecodeError):
        return 0, []  # the games matter more; a roster that does not read is left behind
    good, lines = [], []
    for k, row in enumerate(rows, 1):
        texts = tuple(str(v) if v is not None else None for v in row)
        try:
            good.append(imported_row(texts, f"{source.name}, игрок {k}"))
        except StoreError as exc:  # only a row the door refuses
            lines.append(f"не спасён: {exc}")
    return target.roster.import_players(good, source.name), lines


def _seats(db: sqlite3.Connection, gid: int, names: Any, target: Store, size: int) -> dict[int, str]:
    """A game's seats (1..size) as the current store's player ids."""
    if "seats" in _tables(db):
        rows = db.execute("SELECT seat, player FROM seats WHERE game = ?", (gid,)).fetchall()
        known = target.roster.known_ids()  # a damaged row (no whole seat number, no known player) is left out
        return {
            seat: str(pid)
            for seat, pid in rows
            if isinstance(seat, int) and str(pid) in known and 1 <= seat <= size
        }
    seats = {}  # older than schema 3: names, matched to the roster or added to it
    for seat, name in names.items() if isinstance(names, dict) else ():
        if isinstance(name, str) and name.strip() and str(seat).isdecimal() and 1 <= int(seat) <= size:
            try:
                player_name(name)
            except BadName:
                continue  # a name the roster refuses: the seat stays unnamed, the game is saved
            seats[int(seat)] = target.roster.player_for_name(name).id
    return seats


def _extras(db: sqlite3.Connection, gid: int) -> dict[int, float]:
    if "extras" not in _tables(db):
        return {}
    rows = db.execute("SELECT seat, points FROM extras WHERE game = ?", (gid,)).fetchall()
    return {  # a damaged row is left out: the game matters more than its extra points
        seat: float(points)
        for seat, points in rows
        if isinstance(seat, int) and isinstance(points, int | float) and not isinstance(points, bool)
    }


def _read_game(db: sqlite3.Connection, gid: int) -> tuple[dict[str, Any], list[tuple[int, float, Any, int]]]:
    columns = {r[1] for r in db.execute("PRAGMA table_info(games)")}
    names_column = "names" if "names" in columns else "'{}'"
    uuid_column = "uuid" if "uuid" in columns else "NULL"
    row = db.execute(
        f"SELECT started_at, preset, mode, settings, {names_column}, {uuid_column}, finished_at "
        "FROM games WHERE id = ?",
        (gid,),
    ).fetchone()
    if row is None:  # its inputs are there, its row in games is not (lost to damage)
        raise ValueError("нет её строки в таблице игр (потеряна при повреждении)")
    started_at, preset, mode, settings, names, game_uuid, finished_at = row
    columns = {r[1] for r in db.execute("PRAGMA table_info(inputs)")}
    undone = "undone" if "undone" in columns else "0"
    inputs = []
    for seq, t, text, was_undone in db.execute(
        f"SELECT seq, t, input, {undone} FROM inputs WHERE game = ? ORDER BY seq", (gid,)
    ):
        try:
            inputs.append((int(seq), float(t), input_from_dict(json.loads(text)), int(was_undone)))
        except (ValueError, TypeError, AttributeError) as exc:
            raise ValueError(f"запись {seq} не читается ({exc})") from None
    try:
        names_obj = json.loads(names or "{}")
        settings_obj = json.loads(settings or "{}")
    except ValueError:
        names_obj, settings_obj = {}, {}  # the record matters; unreadable names are left out
    meta = {
        "started_at": str(started_at),
        "preset": str(preset),
        "mode": str(mode),
        "settings": settings_obj if isinstance(settings_obj, dict) else {},
        "names": names_obj if isinstance(names_obj, dict) else {},
        "extras": _extras(db, gid),
        "uuid": game_uuid if isinstance(game_uuid, str) else None,  # the same game keeps its key
        # and its end's time: the same content, so the club takes it as the same game
        "finished_at": finished_at if isinstance(finished_at, str) else None,
    }
    return meta, inputs


def recover(source: Path, target: Store) -> Report:
    if not source.is_file():
        raise StoreError(f"{source}: нет такого файла")
    if source.resolve() == target.path.resolve():
        raise StoreError(
            f"{source}: это и есть текущее хранилище; спасайте из другого файла (или --store PATH)"
        )
    report = Report()
    done = target.games.recovered_from()
    with tempfile.TemporaryDirectory(prefix="host-device-recover-") as tmp:
        db = _open_copy(source, Path(tmp))
        try:
            report.players, report.lines = _roster(db, target, source)
            for gid in _game_ids(db):
                origin = f"{source.name}#{gid}"
                if origin in done:
                    report.already += 1
                    continue
                try:
                    meta, inputs = _read_game(db, gid)
                    here = target.games.game_with_uuid(meta["uuid"]) if meta["uuid"] else None
                    if here is not None:  # the same game (a copy of this store): sent twice it would be two
                        report.lines.append(f"игра {gid}: уже есть здесь (игра {here})")
                        report.already += 1
                        continue
                    game = Game.replay(meta["preset"], [inp for _, _, inp, undone in inputs if not undone])
                    meta["seats"] = _seats(db, gid, meta["names"], target, game.preset.seats)
                except (sqlite3.Error, ValueError, HostDeviceError) as exc:
                    text = cause_of(exc) if isinstance(exc, sqlite3.Error) else str(exc)
                    report.lines.append(f"игра {gid}: не спасена: {text}")
                    report.failed += 1
                    continue
                winner = game.state.winner
                new_id = target.games.import_game(
                    meta, inputs, origin, winner.value if winner else None, game.state.day
                )
                state = (
                    f"{WINS[winner]}, день {game.state.day}"
                    if winner
                    else f"не окончена, день {game.state.day}"
                )
                report.lines.append(f"игра {gid}: спасена как игра {new_id} ({state})")
                report.recovered += 1
        finally:
            db.close()
    return report
