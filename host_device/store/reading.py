"""Reading games back: the list of games, one game's row, its settings, its
record (the inputs not undone) and the inputs the
host undid, its rules and the game replayed from them. Damage inside one
game is a :class:`DamagedGame` for that game alone."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import Game, IllegalInput, Input, Preset, get_preset
from engine.serial import BadRecord, input_from_dict
from host_device.base.errors import HostDeviceError
from host_device.base.text import shorten
from host_device.store.faults import DamagedGame, StoreError, UnknownGame, cause_of

COLUMNS = "id, started_at, preset, mode, finished_at, winner, days"
REASON_LIMIT = 120  # characters of an error quoted in a damaged game's reason


@dataclass(frozen=True)
class GameRow:
    id: int
    started_at: str
    preset: str
    mode: str
    finished_at: str | None
    winner: str | None
    days: int


class GameReader:
    """The reading half of :class:`host_device.store.db.Store`."""

    path: Path
    db: sqlite3.Connection
    read_only: bool

    def _read(self, game_id: int | None, sql: str, params: tuple[Any, ...]) -> list[Any]:
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

    def games(self) -> list[GameRow]:
        rows = self._read(None, f"SELECT {COLUMNS} FROM games ORDER BY id", ())
        return [GameRow(*row) for row in rows]

    def game(self, game_id: int) -> GameRow:
        rows = self._read(game_id, f"SELECT {COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise UnknownGame(game_id)
        return GameRow(*rows[0])

    def game_uuid(self, game_id: int) -> str:
        """The game's UUID: its key in the club's database."""
        rows = self._read(game_id, "SELECT uuid FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise UnknownGame(game_id)
        if not isinstance(rows[0][0], str):
            raise DamagedGame(game_id, "нет UUID игры")
        return rows[0][0]

    def game_with_uuid(self, game_uuid: str) -> int | None:
        """The number of this store's game of that UUID, if it has one."""
        rows = self._read(None, "SELECT id FROM games WHERE uuid = ?", (game_uuid,))
        return int(rows[0][0]) if rows else None

    def box_id(self) -> str:
        """This store's box (its UUID, made once): who sends its games to the club."""
        rows = self._read(None, "SELECT value FROM meta WHERE key = 'box'", ())
        if not rows:
            raise StoreError(f"{self.path}: нет UUID устройства (откройте хранилище для записи)")
        return str(rows[0][0])

    def settings(self, game_id: int) -> dict[str, Any]:
        self.game(game_id)
        (row,) = self._read(game_id, "SELECT settings FROM games WHERE id = ?", (game_id,))
        return _json_object(game_id, row[0], "settings")

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
                    raise BadRecord("не объект")
                out.append((int(seq), float(t), input_from_dict(data)))
            except (
                ValueError,
                TypeError,
                RecursionError,
            ) as exc:  # BadRecord and JSON errors are ValueErrors
                raise DamagedGame(game_id, f"запись {seq} не читается ({_reason(exc)})") from None
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
            raise DamagedGame(game_id, f"её правила не читаются: {exc}") from None

    def replay(self, game_id: int) -> Game:
        """The game rebuilt from its record; a record the rules refuse is damage."""
        preset = self.preset(game_id)
        try:
            return Game.replay(preset, [inp for _, _, inp in self.inputs(game_id)])
        except (IllegalInput, HostDeviceError) as exc:
            if isinstance(exc, StoreError):
                raise
            raise DamagedGame(game_id, f"не воспроизводится: {exc}") from None

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
        except UnicodeDecodeError as exc:  # its answer quotes damaged text
            return [f"текст не декодируется ({exc.reason})"]
        return [] if problems == ["ok"] else problems


def _json_object(game_id: int, text: Any, what: str) -> dict[str, Any]:
    try:
        data = json.loads(text or "{}")
    except (ValueError, TypeError, RecursionError) as exc:
        raise DamagedGame(game_id, f"{what}: не читается ({_reason(exc)})") from None
    if not isinstance(data, dict):
        raise DamagedGame(game_id, f"{what}: не объект JSON")
    return data


def _reason(exc: BaseException) -> str:
    return shorten(str(exc) or type(exc).__name__, REASON_LIMIT)
