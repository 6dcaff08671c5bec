"""Writing games: a new game, each input committed before its effect, an
undo, a game's end, a salvaged game written whole; a game
whose record ends it marked finished whenever it is read; and a runtime made
to record every input it accepts (:func:`record_runtime`). A write that fails
is a :class:`StoreError` naming the cause and the path, and changes nothing."""

from __future__ import annotations

import dataclasses
import datetime
import json
import logging
import sqlite3
import uuid
from collections.abc import Iterator
from typing import Any

from engine import Input
from engine.presets import table_of
from engine.serial import to_dict
from host_device.store.faults import StoreError, cause_of
from host_device.store.reading import GameReader, GameRow

log = logging.getLogger(__name__)


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


class GameWriter(GameReader):
    """The writing half of :class:`host_device.store.db.Store`."""

    def _write(self, what: str, sql: str, params: tuple[Any, ...]) -> sqlite3.Cursor:
        try:
            return self.db.execute(sql, params)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: не удалось записать {what}: {cause_of(exc, self.path)}") from None

    def new_game(self, preset: str, mode: str, settings: dict[str, Any] | None = None) -> int:
        cur = self._write(
            "новую игру",
            "INSERT INTO games (started_at, preset, mode, settings, uuid) VALUES (?, ?, ?, ?, ?)",
            (_now(), preset, mode, json.dumps(settings or {}, ensure_ascii=False), str(uuid.uuid4())),
        )
        return int(cur.lastrowid or 0)

    def append(self, game_id: int, seq: int, t: float, inp: Input) -> None:
        """Commit one input (before its effect is carried out)."""
        self._write(
            "ход игры",
            "INSERT INTO inputs (game, seq, t, input) VALUES (?, ?, ?, ?)",
            (game_id, seq, t, json.dumps(to_dict(inp), ensure_ascii=False)),
        )

    def undo(self, game_id: int, keep: int) -> int:
        """Mark every input after the first ``keep`` of the record as undone
        (kept in the store, left out of the record); returns how many."""
        cur = self._write(
            "отмену",
            "UPDATE inputs SET undone = 1 WHERE game = ? AND undone = 0 AND seq NOT IN "
            "(SELECT seq FROM inputs WHERE game = ? AND undone = 0 ORDER BY seq LIMIT ?)",
            (game_id, game_id, keep),
        )
        return cur.rowcount

    def finish(self, game_id: int, winner: str | None, days: int) -> None:
        self._write(
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
        if self.db.execute("SELECT 1 FROM games WHERE uuid = ?", (game_uuid,)).fetchone():
            game_uuid = str(uuid.uuid4())
        try:
            self.db.execute("BEGIN IMMEDIATE")
            cur = self.db.execute(
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
            self.db.executemany(
                "INSERT INTO seats (game, seat, player) VALUES (?, ?, ?)",
                [(game_id, seat, player) for seat, player in meta.get("seats", {}).items()],
            )
            self.db.executemany(
                "INSERT INTO extras (game, seat, points) VALUES (?, ?, ?)",
                [(game_id, seat, points) for seat, points in meta.get("extras", {}).items()],
            )
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
                    (meta.get("finished_at") or _now(), winner, days, game_id),
                )
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise StoreError(
                f"{self.path}: не удалось записать спасённую игру: {cause_of(exc, self.path)}"
            ) from None
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


def record_runtime(
    store: GameWriter,
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
                log.error(
                    "конец игры не отмечен (отметится, когда хранилище прочтут в следующий раз): %s", exc
                )

    runtime.before_input.append(before)
    runtime.observers.append(after)
    runtime.undo_hooks.append(lambda keep: store.undo(game_id, keep))
    return game_id
