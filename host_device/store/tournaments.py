"""The tournaments (``store.tournaments``): their players, the pairs kept
apart, the seating and the games played in them.

    tournaments(id, name, rounds, seed, created_at)
    tournament_players(tournament, player, position, active)  -- active 0: left, seated no more
    tournament_apart(tournament, a, b)                         -- a pair never at one table
    tournament_seats(tournament, round, tbl, seat, player)     -- round, table, seat from 1
    tournament_games(game, tournament, round, tbl, annulled_at) -- a game as a table of a round

One game a table of a round (store 6: a unique index over the games not
annulled): a second is refused, naming the first; an annulled game stays in
the record and the store, is left out of the standings and leaves its table
free.

A round is played once a game is linked to it: a new seating replaces only
the rounds after the last one played. The seating itself is computed in
host_device/tournament/ (this floor only keeps it)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from host_device.base.names import BadName, quoted
from host_device.base.names import tournament_name as named_as_kept
from host_device.store.connection import Connection
from host_device.store.faults import StoreError

Round = tuple[tuple[str, ...], ...]  # tables -> ten player ids by seat


def tournament_name(text: str) -> str:
    """A tournament's name as looked up everywhere: its words, one space between (a name
    kept is also one the door takes: :func:`checked_name`)."""
    return " ".join(text.split())


def checked_name(text: str) -> str:
    """A tournament's name through the one door (no control or invisible character, no «/»,
    at most 60 characters: host_device/base/names.py); else one line."""
    try:
        return named_as_kept(text)
    except BadName as exc:
        raise StoreError(str(exc)) from None


@dataclass(frozen=True)
class TournamentRow:
    id: int
    name: str
    rounds: int
    seed: int
    players: tuple[str, ...]  # the active ones, in order
    apart: tuple[tuple[str, str], ...]


class Tournaments:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def create(
        self, name: str, rounds: int, seed: int, players: list[str], apart: list[tuple[str, str]]
    ) -> int:
        name = checked_name(name)
        if self.connection.read(None, "SELECT 1 FROM tournaments WHERE name = ?", (name,)):
            raise StoreError(f"турнир «{name}» уже есть; выберите другое название")
        at = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        with self.connection.transaction("турнир") as db:
            cur = db.execute(
                "INSERT INTO tournaments (name, rounds, seed, created_at) VALUES (?, ?, ?, ?)",
                (name, rounds, seed, at),
            )
            tid = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO tournament_players (tournament, player, position) VALUES (?, ?, ?)",
                [(tid, pid, k) for k, pid in enumerate(players)],
            )
            db.executemany(
                "INSERT OR IGNORE INTO tournament_apart (tournament, a, b) VALUES (?, ?, ?)",
                [(tid, *sorted(pair)) for pair in apart],
            )
        return tid

    def named(self, name: str) -> int:
        """The id of tournament ``name``, made empty (no players, no seating) when this store
        lacks it: a box that seats a table from a seating file or the club's database links its
        game to the tournament by name, and the club's database ranks it with the others. A name
        read so (from a file, from the database) passes the one door as a name typed does."""
        name = checked_name(name)
        found = self.connection.read(None, "SELECT id FROM tournaments WHERE name = ?", (name,))
        if found:
            return int(found[0][0])
        at = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        with self.connection.transaction("турнир") as db:
            cur = db.execute(
                "INSERT INTO tournaments (name, rounds, seed, created_at) VALUES (?, 0, 0, ?)", (name, at)
            )
            return int(cur.lastrowid or 0)

    def names(self) -> list[str]:
        return [row[0] for row in self.connection.read(None, "SELECT name FROM tournaments ORDER BY id")]

    def get(self, name: str) -> TournamentRow:
        name = tournament_name(name)
        rows = self.connection.read(
            None, "SELECT id, name, rounds, seed FROM tournaments WHERE name = ?", (name,)
        )
        if not rows:
            known = ", ".join(f"«{quoted(n, 60)}»" for n in self.names()) or "пока ни одного"
            raise StoreError(f"турнира «{quoted(name, 60)}» нет; турниры: {known}")
        tid, name, rounds, seed = rows[0]
        players = self.connection.read(
            None,
            "SELECT player FROM tournament_players WHERE tournament = ? AND active = 1 ORDER BY position",
            (tid,),
        )
        apart = self.connection.read(None, "SELECT a, b FROM tournament_apart WHERE tournament = ?", (tid,))
        return TournamentRow(tid, name, rounds, seed, tuple(p for (p,) in players), tuple(map(tuple, apart)))

    def set_players(self, tid: int, players: list[str]) -> None:
        """Who plays from now on: those not named are marked gone (their rounds played stay)."""
        with self.connection.transaction("игроков турнира") as db:
            db.execute("UPDATE tournament_players SET active = 0 WHERE tournament = ?", (tid,))
            last = db.execute(
                "SELECT COALESCE(MAX(position), -1) FROM tournament_players WHERE tournament = ?", (tid,)
            ).fetchone()[0]
            for k, pid in enumerate(players):
                db.execute(
                    "INSERT INTO tournament_players (tournament, player, position) VALUES (?, ?, ?) "
                    "ON CONFLICT (tournament, player) DO UPDATE SET active = 1",
                    (tid, pid, last + 1 + k),
                )

    def seating(self, tid: int) -> list[Round]:
        rows = self.connection.read(
            None,
            "SELECT round, tbl, seat, player FROM tournament_seats WHERE tournament = ? "
            "ORDER BY round, tbl, seat",
            (tid,),
        )
        rounds: dict[int, dict[int, list[str]]] = {}
        for r, t, _seat, pid in rows:
            rounds.setdefault(r, {}).setdefault(t, []).append(pid)
        return [tuple(tuple(tables[t]) for t in sorted(tables)) for _r, tables in sorted(rounds.items())]

    def save_seating(self, tid: int, rounds: list[Round], start: int) -> None:
        """Rounds from ``start`` (0-based) replaced by those of ``rounds`` from there on."""
        with self.connection.transaction("рассадку турнира") as db:
            db.execute("DELETE FROM tournament_seats WHERE tournament = ? AND round > ?", (tid, start))
            db.executemany(
                "INSERT INTO tournament_seats (tournament, round, tbl, seat, player) VALUES (?, ?, ?, ?, ?)",
                [
                    (tid, r + 1, t + 1, s + 1, pid)
                    for r in range(start, len(rounds))
                    for t, table in enumerate(rounds[r])
                    for s, pid in enumerate(table)
                ],
            )

    def holder(self, tid: int, round_no: int, table: int) -> tuple[int, bool] | None:
        """The game holding table ``table`` of round ``round_no`` (not annulled), and whether it
        is finished; None: the table of the round is free."""
        rows = self.connection.read(
            None,
            "SELECT g.game, games.finished_at IS NOT NULL FROM tournament_games g "
            "LEFT JOIN games ON games.id = g.game "
            "WHERE g.tournament = ? AND g.round = ? AND g.tbl = ? AND g.annulled_at IS NULL",
            (tid, round_no, table),
        )
        return (int(rows[0][0]), bool(rows[0][1])) if rows else None

    def link_game(self, game_id: int, tid: int, round_no: int, table: int) -> int | None:
        """A game played as table ``table`` of round ``round_no`` (both from 1), counting (an
        annulled link of it so made again counts again). One game a table of a round: another
        finished game there refuses it in one line naming it; an unfinished one there (a game
        left off, the round played again) is annulled, kept, and its number returned. A link
        that moves makes the game wait for the club's database again (its link is not in its
        digest: the outbox's row of it is dropped, and the club takes the same game anew)."""
        with self.connection.transaction("игру турнира") as db:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise StoreError(f"игры {game_id} нет в хранилище; номера игр: host-device games list")
            held = db.execute(
                "SELECT g.game, games.finished_at IS NOT NULL FROM tournament_games g "
                "LEFT JOIN games ON games.id = g.game WHERE g.tournament = ? AND g.round = ? "
                "AND g.tbl = ? AND g.annulled_at IS NULL AND g.game != ?",
                (tid, round_no, table, game_id),
            ).fetchone()
            if held is not None and held[1]:
                raise StoreError(_taken(db, tid, round_no, table, int(held[0])))
            if held is not None:
                db.execute("UPDATE tournament_games SET annulled_at = ? WHERE game = ?", (_now(), held[0]))
            was = db.execute(
                "SELECT tournament, round, tbl FROM tournament_games WHERE game = ?", (game_id,)
            ).fetchone()
            db.execute(
                "INSERT INTO tournament_games (game, tournament, round, tbl) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game) DO UPDATE SET tournament = excluded.tournament, "
                "round = excluded.round, tbl = excluded.tbl, annulled_at = NULL",
                (game_id, tid, round_no, table),
            )
            if was is None or tuple(was) != (tid, round_no, table):
                db.execute("DELETE FROM outbox WHERE game = ?", (game_id,))
            return None if held is None else int(held[0])

    def annul(self, game_id: int, tid: int, annulled: bool = True) -> tuple[int, int]:
        """Game ``game_id`` of tournament ``tid`` annulled (kept in the record and the store, out of
        the standings; its table of its round free for another game), or taken back
        (``annulled=False``: refused in one line naming the game that holds its table since).
        Returns its (round, table)."""
        with self.connection.transaction("аннулирование игры турнира") as db:
            row = db.execute(
                "SELECT round, tbl, annulled_at FROM tournament_games WHERE game = ? AND tournament = ?",
                (game_id, tid),
            ).fetchone()
            if row is None:
                name = db.execute("SELECT name FROM tournaments WHERE id = ?", (tid,)).fetchone()
                raise StoreError(
                    f"игра {game_id} не привязана к турниру «{quoted(str(name[0]) if name else '', 60)}»; "
                    "игры турнира: host-device tournament standings НАЗВАНИЕ"
                )
            round_no, table, at = int(row[0]), int(row[1]), row[2]
            if not annulled and at is not None:
                held = db.execute(
                    "SELECT game FROM tournament_games WHERE tournament = ? AND round = ? AND tbl = ? "
                    "AND annulled_at IS NULL",
                    (tid, round_no, table),
                ).fetchone()
                if held is not None:
                    raise StoreError(_taken(db, tid, round_no, table, int(held[0])))
            if annulled != (at is not None):
                db.execute(
                    "UPDATE tournament_games SET annulled_at = ? WHERE game = ?",
                    (_now() if annulled else None, game_id),
                )
            return round_no, table

    def games(self, tid: int) -> list[tuple[int, int, int]]:
        """(game, round, table) of every game of the tournament that counts (not annulled)."""
        rows = self.connection.read(
            None,
            "SELECT game, round, tbl FROM tournament_games WHERE tournament = ? AND annulled_at IS NULL "
            "ORDER BY round, tbl",
            (tid,),
        )
        return [tuple(row) for row in rows]

    def annulled(self, tid: int) -> list[tuple[int, int, int]]:
        """(game, round, table) of every annulled game of the tournament (kept, not counted)."""
        rows = self.connection.read(
            None,
            "SELECT game, round, tbl FROM tournament_games WHERE tournament = ? "
            "AND annulled_at IS NOT NULL ORDER BY round, tbl, game",
            (tid,),
        )
        return [tuple(row) for row in rows]

    def link_of(self, game_id: int) -> tuple[str, int, int] | None:
        """(tournament's name, round, table) of a game played in one (None: in none)."""
        rows = self.connection.read(
            None,
            "SELECT t.name, g.round, g.tbl FROM tournament_games g JOIN tournaments t ON t.id = g.tournament "
            "WHERE g.game = ?",
            (game_id,),
        )
        return (str(rows[0][0]), int(rows[0][1]), int(rows[0][2])) if rows else None

    def last_finished_round(self, name: str, table: int) -> int:
        """The last round of tournament ``name`` whose game at ``table`` this store holds
        finished (0: none): a box at that table plays the round after it."""
        rows = self.connection.read(
            None,
            "SELECT MAX(g.round) FROM tournament_games g JOIN tournaments t ON t.id = g.tournament "
            "JOIN games ON games.id = g.game "
            "WHERE t.name = ? AND g.tbl = ? AND games.finished_at IS NOT NULL AND g.annulled_at IS NULL",
            (tournament_name(name), table),
        )
        return int(rows[0][0] or 0) if rows else 0

    def rounds_played(self, tid: int) -> int:
        """The last round with a game (0: none), an annulled one too: its table was seated so."""
        rows = self.connection.read(
            None, "SELECT MAX(round) FROM tournament_games WHERE tournament = ?", (tid,)
        )
        return int(rows[0][0] or 0) if rows else 0


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _taken(db: Any, tid: int, round_no: int, table: int, game: int) -> str:
    """The one line refusing a second game for a table of a round, naming the first."""
    row = db.execute("SELECT name FROM tournaments WHERE id = ?", (tid,)).fetchone()
    name = quoted(str(row[0]) if row else "", 60)
    return (
        f"у стола {table} тура {round_no} турнира «{name}» уже есть игра {game} (одна игра на стол "
        f"в туре): укажите другой стол или тур, или аннулируйте её: host-device tournament game "
        f"НАЗВАНИЕ {game} --annul"
    )
