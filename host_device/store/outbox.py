"""The outbox (``store.outbox``): what the club's database was told of each finished game.

    outbox(game, digest, state, reason, at)  -- state: "sent" or "refused" (reason: the club's line)
    meta: club.attempt_at, club.error, club.error_at  -- the last attempt to send, its last error

A finished game waits to be sent while its content's digest differs from
the one the outbox holds for it: a game never sent waits; one the host
corrects after it was sent (a seat, an extra point, a merge of two players)
waits again; one the club refused waits again only once it changes.

The digest is the game's content read from the store's rows alone (its
UUID, times, rules, settings, record, who sat where and the extra points;
not the players' names), so deciding what waits never replays a game: the
replay (the record the club's pages read) is done only for a game packed
to be sent (host_device/club/package.py, whose ``content_digest`` is the
same digest computed from a package). Where a game came from
(``recovered_from``, written by ``games recover``) is not its content: a
recovered game is the same game, and the club takes it as the same.

Every write is one transaction and a :class:`StoreError` of one line when
it fails.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from host_device.store.connection import Connection
from host_device.store.faults import DamagedGame
from host_device.store.games import Games
from host_device.store.roster import Roster, resolve

DIGEST_FORMAT = 1  # the layout hashed below; a change makes every game wait again
NOT_CONTENT = ("recovered_from",)  # settings that say where a game came from, not what it is
ATTEMPT, ERROR, ERROR_AT = "club.attempt_at", "club.error", "club.error_at"


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def digest_of(
    head: dict[str, Any],
    settings: dict[str, Any],
    inputs: Iterable[tuple[int, float, str]],
    seats: dict[int, str],
    extras: dict[int, float],
) -> str:
    """The digest of a game's content: ``head`` (uuid, started_at,
    finished_at, preset, mode), its settings, its record as the store keeps
    it (seq, t, the input's JSON text, in order), seat -> player UUID and
    seat -> extra points."""
    h = hashlib.sha256()

    def put(data: Any) -> None:
        h.update(json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode())
        h.update(b"\n")

    put(
        {
            "format": DIGEST_FORMAT,
            **{k: head[k] for k in ("uuid", "started_at", "finished_at", "preset", "mode")},
        }
    )
    put({k: v for k, v in settings.items() if k not in NOT_CONTENT})
    for seq, t, text in inputs:
        h.update(f"{int(seq)}\t{float(t)!r}\t{text}\n".encode())
    put({str(seat): player for seat, player in sorted(seats.items())})
    put({str(seat): float(points) for seat, points in sorted(extras.items())})
    return h.hexdigest()


@dataclass(frozen=True)
class Refusal:
    game: int
    reason: str
    at: str


@dataclass(frozen=True)
class OutboxStatus:
    """What ``club status`` says: the games waiting (ids, oldest first), how
    many were sent as they stand and when last, the refused ones (each with
    the club's reason), the games whose rows do not read (not sendable), the
    last attempt and the last error."""

    waiting: list[int]
    sent: int
    last_sent_at: str | None
    refused: list[Refusal]
    damaged: list[tuple[int, str]]
    attempt_at: str | None
    error: str | None
    error_at: str | None


class Outbox:
    """The outbox, through the store's connection; a game's digest resolves
    its seats through the ``roster`` (a merged player counts as the one kept)."""

    def __init__(self, connection: Connection, games: Games, roster: Roster) -> None:
        self.connection = connection
        self.games = games
        self.roster = roster
        self._read = connection.read

    def _finished(self) -> list[tuple[Any, ...]]:
        return self._read(
            None,
            "SELECT id, uuid, started_at, finished_at, preset, mode, settings FROM games "
            "WHERE winner IS NOT NULL ORDER BY started_at, id",
            (),
        )

    def _digest(self, row: tuple[Any, ...], merged: dict[str, str | None]) -> str:
        game, game_uuid, started_at, finished_at, preset, mode, settings_text = row
        if not isinstance(game_uuid, str):
            raise DamagedGame(game, "нет UUID игры")
        try:
            settings = json.loads(settings_text or "{}")
        except (ValueError, TypeError, RecursionError):
            raise DamagedGame(game, "settings: не читается") from None
        if not isinstance(settings, dict):
            raise DamagedGame(game, "settings: не объект JSON")
        inputs = self._read(
            game, "SELECT seq, t, input FROM inputs WHERE game = ? AND undone = 0 ORDER BY seq", (game,)
        )
        seats = {
            int(seat): resolve(pid, merged)
            for seat, pid in self._read(game, "SELECT seat, player FROM seats WHERE game = ?", (game,))
            if pid in merged
        }
        extras = {
            int(seat): float(points)
            for seat, points in self._read(game, "SELECT seat, points FROM extras WHERE game = ?", (game,))
        }
        head = {"uuid": game_uuid, "started_at": started_at, "finished_at": finished_at}
        return digest_of({**head, "preset": preset, "mode": mode}, settings, inputs, seats, extras)

    def content_digest(self, game_id: int) -> str:
        """One finished game's digest, from its rows (an unfinished game: its digest as it stands)."""
        self.games.game(game_id)
        rows = self._read(
            game_id,
            "SELECT id, uuid, started_at, finished_at, preset, mode, settings FROM games WHERE id = ?",
            (game_id,),
        )
        return self._digest(rows[0], self.roster.merges())

    def digests(self) -> tuple[dict[int, str], list[tuple[int, str]]]:
        """Every finished game's digest, oldest first; and the games whose rows do not read."""
        merged = self.roster.merges()
        found: dict[int, str] = {}
        damaged = []
        for row in self._finished():
            try:
                found[int(row[0])] = self._digest(row, merged)
            except (DamagedGame, UnicodeDecodeError, ValueError, TypeError) as exc:
                damaged.append((int(row[0]), getattr(exc, "reason", str(exc))))
        return found, damaged

    def _outbox(self) -> dict[int, tuple[str, str, str | None, str]]:
        rows = self._read(None, "SELECT game, digest, state, reason, at FROM outbox", ())
        return {int(game): (digest, state, reason, at) for game, digest, state, reason, at in rows}

    def waiting(self) -> list[tuple[int, str]]:
        """The finished games to send, oldest first, each with its digest now."""
        told = self._outbox()
        found, _ = self.digests()
        return [(game, digest) for game, digest in found.items() if told.get(game, ("",))[0] != digest]

    def mark_sent(self, game_id: int, digest: str) -> None:
        """The club's database holds this game as it stands (after its commit)."""
        self.connection.write(
            "отметку об отправке в базу клуба",
            "INSERT OR REPLACE INTO outbox (game, digest, state, reason, at) VALUES (?, ?, 'sent', NULL, ?)",
            (game_id, digest, _now()),
        )

    def mark_refused(self, game_id: int, digest: str, reason: str) -> None:
        """The club's database will not take this game as it stands: not sent again until it changes."""
        self.connection.write(
            "отказ базы клуба",
            "INSERT OR REPLACE INTO outbox (game, digest, state, reason, at) VALUES (?, ?, 'refused', ?, ?)",
            (game_id, digest, reason, _now()),
        )

    def forget_sent(self) -> int:
        """Every game marked sent waits again (``club send --again``: a new or
        restored club database); refusals are kept. Returns how many."""
        cur = self.connection.write("отметки об отправке", "DELETE FROM outbox WHERE state = 'sent'")
        return cur.rowcount

    def note_attempt(self, error: str | None = None) -> None:
        """An attempt to send was made now; ``error``: the line it ended with (kept until an
        attempt goes through: then the error is gone from ``club status``)."""
        now = _now()
        pairs = [(ATTEMPT, now)] + ([(ERROR, error), (ERROR_AT, now)] if error is not None else [])
        with self.connection.transaction("время отправки в базу клуба") as db:
            if error is None:
                db.execute("DELETE FROM meta WHERE key IN (?, ?)", (ERROR, ERROR_AT))
            db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES " + ", ".join("(?, ?)" for _ in pairs),
                tuple(value for pair in pairs for value in pair),
            )

    def failing_with(self) -> str | None:
        """The error the last attempt noted ended with (None: it went through, or none was noted)."""
        meta = dict(self._read(None, "SELECT key, value FROM meta WHERE key LIKE 'club.%'", ()))
        return meta.get(ERROR) if meta.get(ERROR_AT) == meta.get(ATTEMPT) else None

    def status(self) -> OutboxStatus:
        told = self._outbox()
        found, damaged = self.digests()
        meta = dict(self._read(None, "SELECT key, value FROM meta WHERE key LIKE 'club.%'", ()))
        current = {
            game: told[game] for game, digest in found.items() if game in told and told[game][0] == digest
        }
        sent = [at for _, state, _, at in current.values() if state == "sent"]
        return OutboxStatus(
            waiting=[game for game, digest in found.items() if told.get(game, ("",))[0] != digest],
            sent=len(sent),
            last_sent_at=max(sent) if sent else None,
            refused=[
                Refusal(game, reason or "", at)
                for game, (_, state, reason, at) in current.items()
                if state == "refused"
            ],
            damaged=damaged,
            attempt_at=meta.get(ATTEMPT),
            error=meta.get(ERROR),
            error_at=meta.get(ERROR_AT),
        )
