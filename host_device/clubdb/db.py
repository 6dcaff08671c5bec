"""The club's database as one connection: ``ClubDB.open(url)``, its schema
made (``init``), a box's finished game received, the club's records read.

Receiving a game (:meth:`ClubDB.receive`) is one transaction, keyed by the
game's UUID: an unknown UUID is stored; the same digest again is "same"
(a resend: nothing of the game changes, the players' names are refreshed);
a different digest from the box that sent it first is "updated" (the host
corrected the game afterwards: the club's copy is replaced, its club number
kept); from another box it is refused (the club keeps the first). Two boxes
sending one UUID at once: the second waits on the first's row (INSERT … ON
CONFLICT) and then reads it, so the game is stored once. (Receives take
their turns: each holds the one row of ``club_changes`` that the pages'
``state()`` reads.)

The roster is merged by the players' UUIDs: the newest word received on a
player's name and nickname is kept (a box's rename reaches the club with its
next send, even a resend of an old game); a merge, once the club knows it,
stays (a box that has not heard of it does not undo it).

A game's tournament link (``package.tournament``) is one game a table of a
round: a box's game whose table of the round another game holds is stored
unlinked, and ``receive`` then answers Refused naming the other (the box's
outbox keeps it as its refusal; the organiser sees it under the standings).

Every error is one line of :mod:`host_device.clubdb.errors`'s kinds
(:mod:`host_device.clubdb.faults`)."""

from __future__ import annotations

import contextlib
import gc
import json
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import psycopg
from psycopg.types.json import Jsonb

from host_device.base.names import quoted
from host_device.club.package import GamePackage
from host_device.club.record import GameRecord
from host_device.club.record_json import BadRecordData, record_from_dict
from host_device.clubdb import schema
from host_device.clubdb.errors import NOT_COUNTED, ClubDbError, Refused, shown
from host_device.clubdb.faults import CONNECT_TIMEOUT_S, checked_url, failure
from host_device.clubdb.players import find_player, resolve
from host_device.clubdb.tournaments import ClubTournaments
from host_device.store.roster import Player

Received = Literal["stored", "same", "updated"]
T = TypeVar("T")


@dataclass(frozen=True)
class Counts:
    games: int  # every game received
    finished: int  # of them, finished (what records() reads)
    players: int  # the players: roster entries not merged into another
    boxes: int  # boxes that have sent a game


def short(uuid: str) -> str:
    return str(uuid)[:8]


log = logging.getLogger(__name__)
STATEMENT_TIMEOUT_MS = 60_000  # a statement (or unacknowledged data) this long: the server is away


class ClubDB:
    """One connection to the club's database (autocommit; each change its own transaction)."""

    def __init__(self, url: str, conn: psycopg.Connection[Any]) -> None:
        self.url = url
        self.conn = conn
        self._ready = False
        self.tournaments = ClubTournaments(self)  # the seating published, the tables taken, the games

    @classmethod
    def open(cls, url: str, timeout: float = CONNECT_TIMEOUT_S) -> ClubDB:
        checked_url(url)
        try:
            conn = psycopg.connect(
                url,
                autocommit=True,
                connect_timeout=max(1, round(timeout)),
                application_name="host-device",
                # a server or network that goes silent mid-send ends the call instead of holding the
                # sender for the system's two hours of TCP keepalive: the game waits and is sent again
                keepalives=1,
                keepalives_idle=10,
                keepalives_interval=5,
                keepalives_count=3,
                tcp_user_timeout=STATEMENT_TIMEOUT_MS,
                options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
            )
            conn.execute("SET TIME ZONE 'UTC'")  # a start time without its zone is UTC, as the pages read it
        except (psycopg.Error, OSError) as exc:
            raise failure(exc, url, "соединение") from None
        return cls(url, conn)

    def close(self) -> None:
        with contextlib.suppress(psycopg.Error, OSError):
            self.conn.close()

    def __enter__(self) -> ClubDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, doing: str, work: Callable[[], T]) -> T:
        """``work`` on this connection once the schema is this version's; its faults one line."""
        self._check()
        return self._do(doing, work)

    def _do(self, doing: str, work: Callable[[], T]) -> T:
        try:
            return work()
        except ClubDbError:
            raise
        except (psycopg.Error, OSError) as exc:
            raise failure(exc, self.url, doing) from None

    # the schema

    def init(self) -> tuple[int, int]:
        """``host-device club init``: the schema made or migrated; (the version found, the version now)."""
        done = self._do("создание схемы", lambda: schema.migrate(self.conn, self.url))
        self._ready = True
        return done

    def version(self) -> int:
        return self._do("чтение версии", lambda: schema.version_of(self.conn, self.url))

    def _check(self) -> None:
        if self._ready:
            return
        found = self.version()
        if found > schema.SCHEMA_VERSION:
            raise schema.newer(self.url, found)
        if found < schema.SCHEMA_VERSION:
            raise schema.older(self.url, found)
        self._ready = True

    # receiving

    def receive(self, package: GamePackage) -> Received:
        """One box's finished game taken whole or not at all (see the module's text)."""
        self._check()
        return self._do(f"игра {short(package.uuid)}", lambda: self._receive(package))

    def _receive(self, package: GamePackage) -> Received:
        """The game stored (:meth:`_store`); a link to a table of a round another game holds is
        refused after the commit — the game kept, unlinked — in one line naming the other."""
        received, held = self._store(package)
        if held is not None and package.tournament is not None:
            name, round_no, table = package.tournament
            raise Refused(
                f"{NOT_COUNTED}игра {short(package.uuid)} сохранена в базе клуба без турнира: "
                f"у стола {table} тура {round_no} турнира «{quoted(name, 60)}» "
                f"уже есть игра клуба № {held} (одна игра на стол в туре); организатор: "
                "аннулировать одну — host-device tournament game НАЗВАНИЕ НОМЕР --annul --club-db АДРЕС, "
                "привязать другую — … --round R --table T --club-db АДРЕС"
            )
        return received

    def _store(self, package: GamePackage) -> tuple[Received, int | None]:
        try:  # a record this version cannot read back (a newer box's format) is not stored
            record_from_dict(package.record)
        except BadRecordData as exc:
            game = short(package.uuid)
            raise Refused(f"{shown(self.url)}: игра {game}: {exc}; обновите host-device") from None
        with self.conn.transaction():
            # one receive at a time: each write's trigger counts in club_changes' one row, and a
            # receive that locked a player before that row would deadlock with one that locked
            # the row first; taken here, before anything, the order is the same for all
            self.conn.execute("SELECT 1 FROM club_changes FOR UPDATE")
            club_id = self.conn.execute(
                "INSERT INTO games (uuid, box, local_id, started_at, finished_at, preset, mode, winner, "
                "days, settings, inputs, extras, record, digest) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (uuid) DO NOTHING RETURNING id",
                (package.uuid, package.box, *self._fields(package)),
            ).fetchone()
            if club_id is not None:
                self._merge_players(package)
                self._seat(int(club_id[0]), package)
                return "stored", self._link(int(club_id[0]), package)
            row = self.conn.execute(
                "SELECT id, box::text, digest FROM games WHERE uuid = %s FOR UPDATE", (package.uuid,)
            ).fetchone()
            if row is None:  # deleted between the two statements (by hand): try again
                raise ClubDbError(
                    f"{shown(self.url)}: игра {short(package.uuid)} исчезла при записи; повторите"
                )
            game_id, box, digest = int(row[0]), str(row[1]), str(row[2])
            if digest == package.digest:
                self._merge_players(package)
                return "same", self._link(game_id, package)
            if box != package.box:
                raise Refused(
                    f"игра {short(package.uuid)} уже есть в базе клуба от другого стола ({short(box)}), "
                    f"с другой записью; стол {short(package.box)} прислал свою — база клуба хранит первую"
                )
            self.conn.execute(
                "UPDATE games SET local_id = %s, started_at = %s, finished_at = %s, preset = %s, mode = %s, "
                "winner = %s, days = %s, settings = %s, inputs = %s, extras = %s, record = %s, digest = %s, "
                "updated_at = now() WHERE id = %s",
                (*self._fields(package), game_id),
            )
            self._merge_players(package)
            self.conn.execute("DELETE FROM seats WHERE game = %s", (game_id,))
            self._seat(game_id, package)
            return "updated", self._link(game_id, package)

    @staticmethod
    def _fields(package: GamePackage) -> tuple[Any, ...]:
        return (
            package.local_id,
            package.started_at,
            package.finished_at,
            package.preset,
            package.mode,
            package.winner,
            package.days,
            Jsonb(package.settings),
            Jsonb(package.inputs),
            Jsonb({str(seat): points for seat, points in package.extras.items()}),
            Jsonb(package.record),
            package.digest,
        )

    def _merge_players(self, package: GamePackage) -> None:
        """The package's roster entries merged by UUID, in UUID order (two receives lock them alike)."""
        for entry in sorted(package.players, key=lambda p: p.id):
            merged = entry.merged_into if entry.merged_into and entry.merged_into != entry.id else None
            self.conn.execute(
                "INSERT INTO players AS p (id, name, nickname, merged_into) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, nickname = EXCLUDED.nickname, "
                "merged_into = coalesce(p.merged_into, EXCLUDED.merged_into), changed_at = now() "
                "WHERE (p.name, p.nickname, p.merged_into) IS DISTINCT FROM "
                "(EXCLUDED.name, EXCLUDED.nickname, coalesce(p.merged_into, EXCLUDED.merged_into))",
                (entry.id, entry.name, entry.nickname, merged),
            )

    def _seat(self, game_id: int, package: GamePackage) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO seats (game, seat, player) VALUES (%s, %s, %s)",
                [(game_id, seat, player) for seat, player in sorted(package.seats.items())],
            )

    def _link(self, game_id: int, package: GamePackage) -> int | None:
        """The game's tournament, round and table as its box has them; the club number of the game
        that holds that table of the round (the link refused and noted: the game stays unlinked),
        or None. A box without a link never unlinks one here (the organiser's late link stays);
        the same link again leaves it as it is (annulled or not: an annul is the organiser's)."""
        if package.tournament is None:
            return None
        linked = self.conn.execute(
            "SELECT tournament, round, tbl FROM tournament_games WHERE game = %s", (game_id,)
        ).fetchone()
        if (tuple(linked) if linked else None) == package.tournament:
            return None  # nothing written: the pages' state stays
        return self.tournaments.place(game_id, *package.tournament)

    # reading

    def roster(self) -> tuple[dict[str, tuple[str, str | None]], dict[str, str | None]]:
        """Each player's (name, nickname), and what each entry was merged into."""
        return self.run("чтение игроков", self._roster)

    def _roster(self) -> tuple[dict[str, tuple[str, str | None]], dict[str, str | None]]:
        rows = self.conn.execute("SELECT id::text, name, nickname, merged_into::text FROM players").fetchall()
        return {pid: (name, nick) for pid, name, nick, _ in rows}, {pid: into for pid, _, _, into in rows}

    def player(self, text: str) -> Player:
        """A player by his id, its start, his name or nickname (host_device/clubdb/players.py)."""
        names, merged = self.roster()
        return find_player(names, merged, text)

    def _rows(self, where: str, params: tuple[Any, ...]) -> Iterator[tuple[int, str, str]]:
        with self.conn.cursor() as cur:  # the record as text: json.loads here is faster than psycopg's
            cur.execute(
                f"SELECT id, uuid::text, record::text FROM games WHERE {where} ORDER BY started_at, uuid",
                params,
            )
            yield from cur

    def records(self, ids: Sequence[int] | None = None) -> list[GameRecord]:
        """Every finished game's record (or those of ``ids``), in time order
        (started_at, uuid), with the club's number and the club's roster applied."""
        self._check()

        def read() -> list[GameRecord]:
            with self.conn.transaction():  # one snapshot: the games and the roster agree
                self.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                names, merged = self._roster()
                if ids is None:
                    rows = list(self._rows("winner IS NOT NULL", ()))
                    seats = self._seats(None)
                else:
                    rows = list(self._rows("id = ANY(%s)", (list(ids),)))
                    seats = self._seats([r[0] for r in rows])
            collecting = gc.isenabled()
            gc.disable()  # thousands of small frozen objects: the collector would walk them again and again
            found, unreadable = [], []
            try:
                for r in rows:
                    try:
                        found.append(self._record(r, seats.get(r[0], {}), names, merged))
                    except ClubDbError as exc:  # one game (a newer box's format?): the rest still read
                        if ids is not None:
                            raise
                        unreadable.append(str(exc))
            finally:
                if collecting:
                    gc.enable()
            if unreadable:
                log.warning("%s (игр пропущено: %d)", unreadable[0], len(unreadable))
            return [r for r in found if r.finished] if ids is None else found

        return self._do("чтение игр", read)

    def _seats(self, ids: list[int] | None) -> dict[int, dict[int, str]]:
        found: dict[int, dict[int, str]] = {}
        sql = "SELECT game, seat, player::text FROM seats"
        rows = (
            self.conn.execute(sql + " WHERE game = ANY(%s)", (ids,))
            if ids is not None
            else self.conn.execute(sql)
        )
        for game, seat, player in rows:
            found.setdefault(int(game), {})[int(seat)] = player
        return found

    def _record(
        self,
        row: tuple[int, str, str],
        seated: dict[int, str],
        names: dict[str, tuple[str, str | None]],
        merged: dict[str, str | None],
    ) -> GameRecord:
        club_id, uuid, text = row
        try:  # the club's number, its UUID and its roster put in the data, then read once
            data = json.loads(text)
            data["id"], data["uuid"] = club_id, uuid
            for seat in data["seats"]:
                pid = seated.get(int(seat["seat"]))
                who = resolve(pid, merged) if pid is not None else None
                seat["player"] = who
                seat["name"] = None if who is None else names[who][0] if who in names else seat.get("name")
            return record_from_dict(data)
        except (BadRecordData, ValueError, TypeError, KeyError) as exc:
            raise ClubDbError(
                f"{shown(self.url)}: игра клуба № {club_id} ({short(uuid)}) не читается: {exc}"
            ) from None

    def record(self, club_id: int) -> GameRecord:
        """One game's record by its club number (finished or not); an unknown number: ClubDbError."""
        found = self.records([club_id])
        if not found:
            raise UnknownClubGame(club_id)
        return found[0]

    def state(self) -> tuple[int, int]:
        """What records() reads has changed when this has: the rows written to the games and seats,
        and to the roster, counted by triggers (club_changes; a change by hand counts too). A
        transaction that commits after a later one still moves it: each write adds one to one row,
        the writers one after another. For the pages' caches."""
        self._check()

        def read() -> tuple[int, int]:
            row = self.conn.execute("SELECT games, players FROM club_changes").fetchone()
            assert row is not None
            return int(row[0]), int(row[1])

        return self._do("чтение состояния", read)

    def game_keys(self) -> dict[int, str]:
        """Each game's club number and digest (what a kept record of it is checked by)."""
        self._check()
        return self._do(
            "чтение игр",
            lambda: dict(self.conn.execute("SELECT id, digest FROM games").fetchall()),  # (int, str) rows
        )

    def counts(self) -> Counts:
        self._check()

        def read() -> Counts:
            row = self.conn.execute(
                "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM games WHERE winner IS NOT NULL), "
                "(SELECT count(*) FROM players WHERE merged_into IS NULL), "
                "(SELECT count(DISTINCT box) FROM games)"
            ).fetchone()
            assert row is not None
            return Counts(*(int(v) for v in row))

        return self._do("подсчёт", read)


class UnknownClubGame(ClubDbError, LookupError):
    def __init__(self, club_id: int) -> None:
        super().__init__(f"Нет игры {club_id} в базе клуба")
        self.club_id = club_id
