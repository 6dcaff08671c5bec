"""The game store: every accepted input of every game, in SQLite.

    games(id, started_at, preset, mode, settings, seats, names, finished_at, winner, days)
    inputs(game, seq, t, input, undone)  -- the record: replaying it rebuilds the game

An undo (assist mode) marks the undone inputs; they stay in the store, and
the record read back (and replayed) is the inputs not undone.

Each input is committed (write-ahead log, synchronous commits) before its
effect is carried out, so a power cut loses nothing that was said or shown.
The schema carries a version and is migrated forward on open. A store that
cannot be opened is moved aside (kept, never deleted) and a new one started.
"""

from __future__ import annotations

import datetime
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import Game, HostDeviceError, Input
from engine.serial import input_from_dict, to_dict
from voices.pack import data_dir

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
    PRIMARY KEY (game, seq)
);
"""
MIGRATIONS = {  # from the version before to this one
    1: SCHEMA,
    2: "ALTER TABLE inputs ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;",
}


class StoreError(HostDeviceError, RuntimeError):
    pass


class UnknownGame(HostDeviceError, LookupError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id} in the store; see: host-device games list")

    def __str__(self) -> str:
        return str(self.args[0])


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


class Store:
    def __init__(self, path: Path | None = None, *, create: bool = True) -> None:
        self.path = path or default_store_path()
        self.moved_aside: Path | None = None
        try:
            self.db = self._open(create)
        except sqlite3.DatabaseError as exc:
            if not self.path.exists() or not create:
                raise StoreError(f"{self.path}: cannot open the game store ({exc})") from None
            aside = self.path.with_name(f"{self.path.name}.corrupt-{datetime.datetime.now():%Y%m%d-%H%M%S}")
            self.path.rename(aside)
            self.moved_aside = aside
            self.db = self._open(create)

    def _open(self, create: bool) -> sqlite3.Connection:
        if not create and not self.path.exists():
            raise StoreError(f"{self.path}: no game store here")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{self.path.parent}: cannot make the store's folder ({exc.strerror})") from None
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: written by a newer host-device (schema {version})")
            for step in range(version + 1, SCHEMA_VERSION + 1):
                db.executescript(MIGRATIONS[step])
                db.execute(f"PRAGMA user_version={step}")
            db.execute("SELECT count(*) FROM games").fetchone()  # a corrupt file fails here
        except sqlite3.OperationalError as exc:
            db.close()
            if "readonly" in str(exc) or "read-only" in str(exc):
                raise StoreError(f"{self.path}: the game store is on a read-only disk") from None
            raise
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def close(self) -> None:
        self.db.close()

    # ---------------------------------------------------------------- writing

    def new_game(self, preset: str, mode: str, settings: dict[str, Any] | None = None) -> int:
        cur = self.db.execute(
            "INSERT INTO games (started_at, preset, mode, settings) VALUES (?, ?, ?, ?)",
            (_now(), preset, mode, json.dumps(settings or {})),
        )
        return int(cur.lastrowid or 0)

    def append(self, game_id: int, seq: int, t: float, inp: Input) -> None:
        """Commit one input (before its effect is carried out)."""
        try:
            self.db.execute(
                "INSERT INTO inputs (game, seq, t, input) VALUES (?, ?, ?, ?)",
                (game_id, seq, t, json.dumps(to_dict(inp), ensure_ascii=False)),
            )
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{self.path}: cannot record the game ({exc})") from None

    def undo(self, game_id: int, keep: int) -> int:
        """Mark every input after the first ``keep`` of the record as undone
        (kept in the store, left out of the record); returns how many."""
        try:
            cur = self.db.execute(
                "UPDATE inputs SET undone = 1 WHERE game = ? AND undone = 0 AND seq NOT IN "
                "(SELECT seq FROM inputs WHERE game = ? AND undone = 0 ORDER BY seq LIMIT ?)",
                (game_id, game_id, keep),
            )
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{self.path}: cannot record the undo ({exc})") from None
        return cur.rowcount

    def set_name(self, game_id: int, seat: int, name: str) -> None:
        """A player's name for a seat (at the start or any time later); empty removes it."""
        names = self.names(game_id)
        if name.strip():
            names[str(seat)] = name.strip()
        else:
            names.pop(str(seat), None)
        self.db.execute(
            "UPDATE games SET names = ? WHERE id = ?", (json.dumps(names, ensure_ascii=False), game_id)
        )

    def names(self, game_id: int) -> dict[str, str]:
        self.game(game_id)
        row = self.db.execute("SELECT names FROM games WHERE id = ?", (game_id,)).fetchone()
        names: dict[str, str] = json.loads(row[0] or "{}")
        return names

    def finish(self, game_id: int, winner: str | None, days: int) -> None:
        self.db.execute(
            "UPDATE games SET finished_at = ?, winner = ?, days = ? WHERE id = ?",
            (_now(), winner, days, game_id),
        )

    # ---------------------------------------------------------------- reading

    def games(self) -> list[GameRow]:
        rows = self.db.execute(
            "SELECT id, started_at, preset, mode, finished_at, winner, days FROM games ORDER BY id"
        ).fetchall()
        return [GameRow(*row) for row in rows]

    def game(self, game_id: int) -> GameRow:
        row = self.db.execute(
            "SELECT id, started_at, preset, mode, finished_at, winner, days FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        return GameRow(*row)

    def inputs(self, game_id: int) -> Iterator[tuple[int, float, Input]]:
        self.game(game_id)
        for seq, t, text in self.db.execute(
            "SELECT seq, t, input FROM inputs WHERE game = ? AND undone = 0 ORDER BY seq", (game_id,)
        ):
            yield seq, t, input_from_dict(json.loads(text))

    def undone(self, game_id: int) -> list[tuple[int, float, Input]]:
        """The inputs the host undid (assist mode), kept out of the record."""
        self.game(game_id)
        rows = self.db.execute(
            "SELECT seq, t, input FROM inputs WHERE game = ? AND undone = 1 ORDER BY seq", (game_id,)
        ).fetchall()
        return [(seq, t, input_from_dict(json.loads(text))) for seq, t, text in rows]

    def last_seq(self, game_id: int) -> int:
        """The highest input number of a game, undone inputs included (0: none yet)."""
        row = self.db.execute("SELECT max(seq) FROM inputs WHERE game = ?", (game_id,)).fetchone()
        return int(row[0] or 0)

    def unfinished(self) -> list[GameRow]:
        return [g for g in self.games() if g.finished_at is None]

    def replay(self, game_id: int) -> Game:
        row = self.game(game_id)
        return Game.replay(row.preset, [inp for _, _, inp in self.inputs(game_id)])


def record_runtime(store: Store, runtime: Any, mode: str, game_id: int | None = None) -> int:
    """Make a runtime commit every input it accepts, before its effect (into a
    new game, or on into ``game_id`` when resuming), and every undo."""
    if game_id is None:
        game_id = store.new_game(runtime.game.preset.name, mode)
    counter = {"seq": store.last_seq(game_id)}

    def before(inp: Input) -> None:
        counter["seq"] += 1
        store.append(game_id, counter["seq"], runtime.sched.now, inp)

    def after(outputs: list[Any]) -> None:
        state = runtime.game.state
        if state.winner is not None:
            store.finish(game_id, state.winner.value, state.day)

    runtime.before_input.append(before)
    runtime.observers.append(after)
    runtime.undo_hooks.append(lambda keep: store.undo(game_id, keep))
    return game_id
