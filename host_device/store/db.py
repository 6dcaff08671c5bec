"""The game store: every accepted input of every game, in SQLite.

    games(id, started_at, preset, mode, settings, names, finished_at, winner, days)
    inputs(game, seq, t, input, undone)  -- the record: replaying it rebuilds the game

An undo (assist mode) marks the undone inputs; they stay in the store, and
the record read back (and replayed) is the inputs not undone.

Each input is committed (write-ahead log, synchronous commits) before its
effect is carried out, so a power cut loses nothing that was said or shown.
The schema carries a version and is migrated forward on open.

What the store promises under faults (README, "The game store"):
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
  (:meth:`Store.settle`), even if the process died before marking it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import json
import logging
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import Game, HostDeviceError, IllegalInput, Input, Preset, get_preset
from engine.presets import table_of
from engine.serial import BadRecord, input_from_dict, to_dict
from host_device.base.paths import data_dir
from host_device.store.faults import StoreError, cause_of, header_damage, is_corrupt, move_aside, orphans

SCHEMA_VERSION = 2
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    preset TEXT NOT NULL,
    mode TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    names TEXT NOT NULL DEFAULT '{}',
    finished_at TEXT,
    winner TEXT,
    days INTEGER NOT NULL DEFAULT 0
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
MIGRATIONS = {  # from the version before to this one
    1: SCHEMA.replace(",\n    undone INTEGER NOT NULL DEFAULT 0", ""),
    2: "ALTER TABLE inputs ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;",
}
log = logging.getLogger(__name__)
COLUMNS_OF = {
    "games": {"id", "started_at", "preset", "mode", "settings", "names", "finished_at", "winner", "days"},
    "inputs": {"game", "seq", "t", "input", "undone"},
}
LOCK_WAIT_S = 1.0  # how long to wait for another program's lock before saying so


class UnknownGame(StoreError, LookupError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id} in the store; see: host-device games list")

    def __str__(self) -> str:
        return str(self.args[0])


class DamagedGame(StoreError):
    """One game's rows do not read back; the store's other games are unaffected."""

    def __init__(self, game_id: int, reason: str) -> None:
        self.game_id = game_id
        self.reason = reason
        super().__init__(f"game {game_id} is damaged: {reason}")


def default_store_path() -> Path:
    return data_dir() / "games.sqlite3"


@dataclass(frozen=True)
class GameRow:
    id: int
    started_at: str
    preset: str
    mode: str
    finished_at: str | None
    winner: str | None
    days: int


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


COLUMNS = "id, started_at, preset, mode, finished_at, winner, days"


class Store:
    """``create``: open for writing (``run``, ``simulate``): a missing store
    is made, a corrupt one moved aside. Without it (the ``games`` commands)
    the store must exist, and is read as it is; a read-only store is read."""

    def __init__(self, path: Path | None = None, *, create: bool = True) -> None:
        self.path = path or default_store_path()
        self.moved_aside: Path | None = None
        self.damage = ""  # why the store was moved aside
        self.read_only = False
        if self.path.is_dir():
            raise StoreError(f"{self.path}: is a folder, not a game store; give a file's path")
        if not create and not self.path.exists():
            raise StoreError(f"{self.path}: no game store here")
        existed = self.path.exists()
        try:
            self.db = self._open(writing=create)
        except _Corrupt as exc:
            if not create:
                raise StoreError(
                    f"{self.path}: the game store is damaged ({exc}); "
                    f"salvage its games with: host-device games recover {self.path}"
                ) from None
            self.damage = str(exc)
            self.moved_aside = move_aside(self.path)
            self.db = self._open(writing=True)
        except StoreError:
            if create and not existed:
                _remove_new(self.path)  # nothing half-made is left behind
            raise

    @property
    def notice(self) -> str | None:
        """One line for the terminal when the store was moved aside."""
        if self.moved_aside is None:
            return None
        return (
            f"the game store {self.path} was damaged ({self.damage}); it was moved to {self.moved_aside} "
            f"(with its -wal and -shm) and a new store started; salvage its games with: "
            f"host-device games recover {self.moved_aside}"
        )

    def _open(self, writing: bool) -> sqlite3.Connection:
        if writing:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"{self.path.parent}: cannot make the store's folder ({exc.strerror})"
                ) from None
            if not self.path.exists():
                orphans(self.path)  # a -wal left by a crash must never be read into a new store
        damage = header_damage(self.path)
        if damage:
            raise _Corrupt(damage)
        try:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=LOCK_WAIT_S)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the game store: {cause_of(exc, self.path)}") from None
        try:
            self._prepare(db, writing)
        except UnicodeDecodeError as exc:  # text SQLite hands back that is not UTF-8: damage
            db.close()
            raise _Corrupt(f"text that does not decode ({exc.reason})") from None
        except sqlite3.Error as exc:
            db.close()
            if is_corrupt(exc):
                raise _Corrupt(str(exc)) from None
            if not writing and "readonly" in getattr(exc, "sqlite_errorname", "").lower():
                return self._open_read_only()
            raise StoreError(f"{self.path}: cannot open the game store: {cause_of(exc, self.path)}") from None
        except (StoreError, _Corrupt):
            db.close()
            raise
        return db

    def _prepare(self, db: sqlite3.Connection, writing: bool) -> None:
        """Writing: the file checked, migrated and made whole. Reading: a store
        of this schema is read as it stands, never written."""
        version = db.execute("PRAGMA user_version").fetchone()[0]  # a file that is no database fails here
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: written by a newer host-device (schema {version}); update this one"
            )
        if not writing and version == 0:
            raise StoreError(f"{self.path}: an empty file, not a game store")
        if not writing and version == SCHEMA_VERSION:
            return
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        if writing and version:
            problems = [row[0] for row in db.execute("PRAGMA integrity_check(5)")]
            if problems != ["ok"]:  # writing into a damaged file could spread the damage
                raise _Corrupt("integrity check: " + "; ".join(problems))
        if version == 0:
            db.executescript(SCHEMA)
        else:
            for step in range(version + 1, SCHEMA_VERSION + 1):
                db.executescript(MIGRATIONS[step])
        if version != SCHEMA_VERSION:
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        if writing:
            db.executescript(SCHEMA)  # a table lost to damage is made again (its rows are gone)
            for table, columns in COLUMNS_OF.items():
                have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
                if not columns <= have:
                    raise _Corrupt(
                        f"its {table} table lacks {', '.join(sorted(columns - have))} (a damaged schema)"
                    )

    def _open_read_only(self) -> sqlite3.Connection:
        """A store on a read-only disk (or a file without write permission) is read as it stands."""
        uri = f"{self.path.resolve().as_uri()}?immutable=1"
        db = sqlite3.connect(uri, uri=True, isolation_level=None)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as exc:
            db.close()
            raise StoreError(f"{self.path}: cannot read the game store: {cause_of(exc, self.path)}") from None
        if version != SCHEMA_VERSION:
            db.close()
            raise StoreError(
                f"{self.path}: read-only, and written by another version of host-device (schema {version})"
            )
        self.read_only = True
        return db

    def close(self) -> None:
        self.db.close()

    def _write(self, what: str, sql: str, params: tuple[Any, ...]) -> sqlite3.Cursor:
        try:
            return self.db.execute(sql, params)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot record {what}: {cause_of(exc, self.path)}") from None

    # ---------------------------------------------------------------- writing

    def new_game(self, preset: str, mode: str, settings: dict[str, Any] | None = None) -> int:
        cur = self._write(
            "a new game",
            "INSERT INTO games (started_at, preset, mode, settings) VALUES (?, ?, ?, ?)",
            (_now(), preset, mode, json.dumps(settings or {}, ensure_ascii=False)),
        )
        return int(cur.lastrowid or 0)

    def append(self, game_id: int, seq: int, t: float, inp: Input) -> None:
        """Commit one input (before its effect is carried out)."""
        self._write(
            "the game",
            "INSERT INTO inputs (game, seq, t, input) VALUES (?, ?, ?, ?)",
            (game_id, seq, t, json.dumps(to_dict(inp), ensure_ascii=False)),
        )

    def undo(self, game_id: int, keep: int) -> int:
        """Mark every input after the first ``keep`` of the record as undone
        (kept in the store, left out of the record); returns how many."""
        cur = self._write(
            "the undo",
            "UPDATE inputs SET undone = 1 WHERE game = ? AND undone = 0 AND seq NOT IN "
            "(SELECT seq FROM inputs WHERE game = ? AND undone = 0 ORDER BY seq LIMIT ?)",
            (game_id, game_id, keep),
        )
        return cur.rowcount

    def set_name(self, game_id: int, seat: int, name: str) -> None:
        """A player's name for a seat (at the start or any time later); empty removes it."""
        try:
            names = self.names(game_id)
        except DamagedGame:
            names = {}  # unreadable names are replaced
        if name.strip():
            names[str(seat)] = name.strip()
        else:
            names.pop(str(seat), None)
        self._write(
            "the name",
            "UPDATE games SET names = ? WHERE id = ?",
            (json.dumps(names, ensure_ascii=False), game_id),
        )

    def finish(self, game_id: int, winner: str | None, days: int) -> None:
        self._write(
            "the game's end",
            "UPDATE games SET finished_at = ?, winner = ?, days = ? WHERE id = ?",
            (_now(), winner, days, game_id),
        )

    def import_game(
        self,
        meta: dict[str, Any],
        inputs: list[tuple[int, float, Input, int]],
        origin: str,
        winner: str | None,
        days: int,
    ) -> int:
        """A game salvaged from another store, written whole in one transaction or not at all."""
        settings = {**meta["settings"], "recovered_from": origin}
        try:
            self.db.execute("BEGIN IMMEDIATE")
            cur = self.db.execute(
                "INSERT INTO games (started_at, preset, mode, settings, names) VALUES (?, ?, ?, ?, ?)",
                (
                    meta["started_at"],
                    meta["preset"],
                    meta["mode"],
                    json.dumps(settings, ensure_ascii=False),
                    json.dumps(meta["names"], ensure_ascii=False),
                ),
            )
            game_id = int(cur.lastrowid or 0)
            self.db.executemany(
                "INSERT INTO inputs (game, seq, t, input, undone) VALUES (?, ?, ?, ?, ?)",
                [
                    (game_id, seq, t, json.dumps(to_dict(inp), ensure_ascii=False), undone)
                    for seq, t, inp, undone in inputs
                ],
            )
            if winner is not None:
                self.db.execute(
                    "UPDATE games SET finished_at = ?, winner = ?, days = ? WHERE id = ?",
                    (_now(), winner, days, game_id),
                )
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise StoreError(
                f"{self.path}: cannot record the recovered game: {cause_of(exc, self.path)}"
            ) from None
        return game_id

    def recovered_from(self) -> set[str]:
        """Where the games salvaged into this store came from (``FILE#ID``)."""
        found = set()
        for (text,) in self._read(None, "SELECT settings FROM games", ()):
            try:
                origin = json.loads(text or "{}").get("recovered_from")
            except (ValueError, AttributeError):
                continue
            if isinstance(origin, str):
                found.add(origin)
        return found

    def integrity(self) -> list[str]:
        """SQLite's integrity check of the file: [] when it is sound."""
        try:
            problems = [row[0] for row in self.db.execute("PRAGMA integrity_check(5)")]
        except sqlite3.Error as exc:
            return [cause_of(exc)]
        return [] if problems == ["ok"] else problems

    # ---------------------------------------------------------------- reading

    def _read(self, game_id: int | None, sql: str, params: tuple[Any, ...]) -> list[Any]:
        try:
            return self.db.execute(sql, params).fetchall()
        except UnicodeDecodeError as exc:
            if game_id is None:
                raise StoreError(
                    f"{self.path}: the list of games does not read back ({exc.reason})"
                ) from None
            raise DamagedGame(game_id, f"text that does not decode ({exc.reason})") from None
        except sqlite3.Error as exc:
            if game_id is None:
                raise StoreError(
                    f"{self.path}: cannot read the list of games: {cause_of(exc, self.path)}"
                ) from None
            raise DamagedGame(game_id, cause_of(exc)) from None

    def games(self) -> list[GameRow]:
        rows = self._read(None, f"SELECT {COLUMNS} FROM games ORDER BY id", ())
        return [_row(row) for row in rows]

    def game(self, game_id: int) -> GameRow:
        rows = self._read(game_id, f"SELECT {COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise UnknownGame(game_id)
        return _row(rows[0])

    def settings(self, game_id: int) -> dict[str, Any]:
        self.game(game_id)
        (row,) = self._read(game_id, "SELECT settings FROM games WHERE id = ?", (game_id,))
        return _json_object(game_id, row[0], "settings")

    def names(self, game_id: int) -> dict[str, str]:
        self.game(game_id)
        (row,) = self._read(game_id, "SELECT names FROM games WHERE id = ?", (game_id,))
        return _json_object(game_id, row[0], "the players' names")

    def _inputs(self, game_id: int, undone: int) -> list[tuple[int, float, Input]]:
        self.game(game_id)
        rows = self._read(
            game_id,
            "SELECT seq, t, input FROM inputs WHERE game = ? AND undone = ? ORDER BY seq",
            (game_id, undone),
        )
        out = []
        for seq, t, text in rows:
            try:
                data = json.loads(text)
                if not isinstance(data, dict):
                    raise BadRecord("not an object")
                out.append((int(seq), float(t), input_from_dict(data)))
            except (
                ValueError,
                TypeError,
                RecursionError,
            ) as exc:  # BadRecord and JSON errors are ValueErrors
                raise DamagedGame(game_id, f"input {seq} does not read back ({_short(exc)})") from None
        return out

    def inputs(self, game_id: int) -> Iterator[tuple[int, float, Input]]:
        yield from self._inputs(game_id, 0)

    def undone(self, game_id: int) -> list[tuple[int, float, Input]]:
        """The inputs the host undid (assist mode), kept out of the record."""
        return self._inputs(game_id, 1)

    def last_seq(self, game_id: int) -> int:
        """The highest input number of a game, undone inputs included (0: none yet)."""
        rows = self._read(game_id, "SELECT max(seq) FROM inputs WHERE game = ?", (game_id,))
        return int(rows[0][0] or 0)

    def preset(self, game_id: int) -> Preset:
        """The game's rules, with its table (a city game's seats and roles, from its settings)."""
        row = self.game(game_id)
        table = self.settings(game_id).get("table", {}) if row.preset == "city" else {}
        try:
            return get_preset(row.preset, **table)
        except (HostDeviceError, TypeError) as exc:
            raise StoreError(f"game {game_id}: its rules cannot be read back: {exc}") from None

    def replay(self, game_id: int) -> Game:
        """The game rebuilt from its record; a record the rules refuse is damage."""
        preset = self.preset(game_id)
        try:
            return Game.replay(preset, [inp for _, _, inp in self.inputs(game_id)])
        except (IllegalInput, HostDeviceError) as exc:
            if isinstance(exc, StoreError):
                raise
            raise DamagedGame(game_id, f"does not replay: {exc}") from None

    def settle(self, write: bool = True) -> list[GameRow]:
        """The games whose record ends the game but that were never marked
        finished (the process died right after the last input), as they
        really stand; with ``write``, marked finished in the store too. A
        damaged game is left as it is."""
        settled = []
        for g, state in self._unmarked():
            if state.winner is None:
                continue
            if write and not self.read_only:
                self.finish(g.id, state.winner.value, state.day)
            settled.append(dataclasses.replace(g, finished_at="", winner=state.winner.value, days=state.day))
        return settled

    def unfinished(self) -> list[GameRow]:
        """Games that can be resumed: not ended (those whose record ends them are
        marked finished here), and their record replays."""
        resumable = []
        for g, state in self._unmarked():
            if state.winner is None:
                resumable.append(g)
            elif not self.read_only:
                self.finish(g.id, state.winner.value, state.day)
        return resumable

    def _unmarked(self) -> Iterator[tuple[GameRow, Any]]:
        """The games not marked finished whose record replays, each with the state it replays to."""
        for g in self.games():
            if g.finished_at is None:
                try:
                    yield g, self.replay(g.id).state
                except StoreError:
                    continue


class _Corrupt(Exception):
    """SQLite says the file is no database, or its integrity check fails."""


def _row(row: tuple[Any, ...]) -> GameRow:
    return GameRow(*row)


def _json_object(game_id: int, text: Any, what: str) -> dict[str, Any]:
    try:
        data = json.loads(text or "{}")
    except (ValueError, TypeError, RecursionError) as exc:
        raise DamagedGame(game_id, f"{what} do not read back ({_short(exc)})") from None
    if not isinstance(data, dict):
        raise DamagedGame(game_id, f"{what} are not a JSON object")
    return data


def _short(exc: BaseException, limit: int = 120) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _remove_new(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            Path(f"{path}{suffix}").unlink(missing_ok=True)


def record_runtime(
    store: Store, runtime: Any, mode: str, game_id: int | None = None, settings: dict[str, Any] | None = None
) -> int:
    """Make a runtime commit every input it accepts, before its effect (into a
    new game, or on into ``game_id`` when resuming), and every undo."""
    if game_id is None:
        table = table_of(runtime.game.preset)
        settings = {**(settings or {}), **({"table": table} if table else {})}
        game_id = store.new_game(runtime.game.preset.name, mode, settings)
    counter = {"seq": store.last_seq(game_id)}

    def before(inp: Input) -> None:
        store.append(game_id, counter["seq"] + 1, runtime.sched.now, inp)
        counter["seq"] += 1  # only once it is committed: a retry takes the same number

    def after(outputs: list[Any]) -> None:
        state = runtime.game.state
        if state.winner is not None:
            try:
                store.finish(game_id, state.winner.value, state.day)
            except StoreError as exc:  # the record ends the game: it is settled when next read
                log.error("the game's end is not marked (it will be when the store is next read): %s", exc)

    runtime.before_input.append(before)
    runtime.observers.append(after)
    runtime.undo_hooks.append(lambda keep: store.undo(game_id, keep))
    return game_id
