"""The games (``store.games``): reading them back — the list, one game's
row, its settings, its record (the inputs not undone) and the inputs the host
undid, its rules and the game replayed from them — and writing them: a new
game, each input committed before its effect, an undo, a game's end, a
salvaged game written whole; a game whose record ends it marked finished
whenever it is read; and a runtime made to record every input it accepts
(:func:`record_runtime`). Damage inside one game is a :class:`DamagedGame`
for that game alone; a write that fails is a :class:`StoreError` naming the
cause and the path, and changes nothing."""

from __future__ import annotations

import dataclasses
import datetime
import json
import logging
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine import Game, IllegalInput, Input, Preset, get_preset
from engine.presets import CITY, table_of
from engine.serial import BadRecord, input_from_dict, to_dict
from host_device.base.errors import HostDeviceError
from host_device.base.text import shorten
from host_device.store.connection import Connection
from host_device.store.faults import DamagedGame, StoreError, UnknownGame

log = logging.getLogger(__name__)

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


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


class Games:
    """The store's games, read and written through its one connection."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self._read = connection.read

    def all(self) -> list[GameRow]:
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
        table = self.settings(game_id).get("table", {}) if row.preset == CITY.name else {}
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

    def new_game(self, preset: str, mode: str, settings: dict[str, Any] | None = None) -> int:
        cur = self.connection.write(
            "новую игру",
            "INSERT INTO games (started_at, preset, mode, settings, uuid) VALUES (?, ?, ?, ?, ?)",
            (_now(), preset, mode, json.dumps(settings or {}, ensure_ascii=False), str(uuid.uuid4())),
        )
        return int(cur.lastrowid or 0)

    def append(self, game_id: int, seq: int, t: float, inp: Input) -> None:
        """Commit one input (before its effect is carried out)."""
        self.connection.write(
            "ход игры",
            "INSERT INTO inputs (game, seq, t, input) VALUES (?, ?, ?, ?)",
            (game_id, seq, t, json.dumps(to_dict(inp), ensure_ascii=False)),
        )

    def undo(self, game_id: int, keep: int) -> int:
        """Mark every input after the first ``keep`` of the record as undone
        (kept in the store, left out of the record); returns how many."""
        cur = self.connection.write(
            "отмену",
            "UPDATE inputs SET undone = 1 WHERE game = ? AND undone = 0 AND seq NOT IN "
            "(SELECT seq FROM inputs WHERE game = ? AND undone = 0 ORDER BY seq LIMIT ?)",
            (game_id, game_id, keep),
        )
        return cur.rowcount

    def finish(self, game_id: int, winner: str | None, days: int) -> None:
        self.connection.write(
            "конец игры",
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
        """A game salvaged from another store, written whole in one transaction
        or not at all: its settings, record, seats (``meta["seats"]``: seat ->
        a player's id, already in the roster) and extra points; it keeps its
        UUID (``meta["uuid"]``) unless this store has a game of that UUID,
        and the time it ended (``meta["finished_at"]``) when it has one."""
        settings = {**meta["settings"], "recovered_from": origin}
        game_uuid = meta.get("uuid") or str(uuid.uuid4())
        if self.game_with_uuid(game_uuid) is not None:
            game_uuid = str(uuid.uuid4())
        with self.connection.transaction("спасённую игру") as db:
            cur = db.execute(
                "INSERT INTO games (started_at, preset, mode, settings, uuid) VALUES (?, ?, ?, ?, ?)",
                (
                    meta["started_at"],
                    meta["preset"],
                    meta["mode"],
                    json.dumps(settings, ensure_ascii=False),
                    game_uuid,
                ),
            )
            game_id = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO seats (game, seat, player) VALUES (?, ?, ?)",
                [(game_id, seat, player) for seat, player in meta.get("seats", {}).items()],
            )
            db.executemany(
                "INSERT INTO extras (game, seat, points) VALUES (?, ?, ?)",
                [(game_id, seat, points) for seat, points in meta.get("extras", {}).items()],
            )
            db.executemany(
                "INSERT INTO inputs (game, seq, t, input, undone) VALUES (?, ?, ?, ?, ?)",
                [
                    (game_id, seq, t, json.dumps(to_dict(inp), ensure_ascii=False), undone)
                    for seq, t, inp, undone in inputs
                ],
            )
            if winner is not None:
                db.execute(
                    "UPDATE games SET finished_at = ?, winner = ?, days = ? WHERE id = ?",
                    (meta.get("finished_at") or _now(), winner, days, game_id),
                )
        return game_id

    def settle(self, write: bool = True) -> list[GameRow]:
        """The games whose record ends the game but that were never marked
        finished (the process died right after the last input), as they
        really stand; with ``write``, marked finished in the store too. A
        damaged game is left as it is."""
        settled = []
        for g, state in self._unmarked():
            if state.winner is None:
                continue
            if write and not self.connection.read_only:
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
            elif not self.connection.read_only:
                self.finish(g.id, state.winner.value, state.day)
        return resumable

    def _unmarked(self) -> Iterator[tuple[GameRow, Any]]:
        """The games not marked finished whose record replays, each with the state it replays to."""
        for g in self.all():
            if g.finished_at is None:
                try:
                    yield g, self.replay(g.id).state
                except StoreError:
                    continue


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


def record_runtime(
    games: Games,
    runtime: Any,
    mode: str,
    game_id: int | None = None,
    settings: dict[str, Any] | None = None,
) -> int:
    """Make a runtime commit every input it accepts, before its effect (into a
    new game, or on into ``game_id`` when resuming), and every undo."""
    if game_id is None:
        table = table_of(runtime.game.preset)
        settings = {**(settings or {}), **({"table": table} if table else {})}
        game_id = games.new_game(runtime.game.preset.name, mode, settings)
    counter = {"seq": games.last_seq(game_id)}

    def before(inp: Input) -> None:
        games.append(game_id, counter["seq"] + 1, runtime.sched.now, inp)
        counter["seq"] += 1  # only once it is committed: a retry takes the same number

    def after(outputs: list[Any]) -> None:
        state = runtime.game.state
        if state.winner is not None:
            try:
                games.finish(game_id, state.winner.value, state.day)
            except StoreError as exc:  # the record ends the game: it is settled when next read
                log.error(
                    "конец игры не отмечен (отметится, когда хранилище прочтут в следующий раз): %s", exc
                )

    runtime.before_input.append(before)
    runtime.observers.append(after)
    runtime.undo_hooks.append(lambda keep: games.undo(game_id, keep))
    return game_id
