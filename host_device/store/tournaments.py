"""The tournaments (``store.tournaments``): their players, the pairs kept
apart, the seating and the games played in them.

    tournaments(id, name, rounds, seed, created_at)
    tournament_players(tournament, player, position, active)  -- active 0: left, seated no more
    tournament_apart(tournament, a, b)                         -- a pair never at one table
    tournament_seats(tournament, round, tbl, seat, player)     -- round, table, seat from 1
    tournament_games(game, tournament, round, tbl)             -- a game as a table of a round

A round is played once a game is linked to it: a new seating replaces only
the rounds after the last one played. The seating itself is computed in
host_device/tournament/ (this floor only keeps it)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

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

    def link_game(self, game_id: int, tid: int, round_no: int, table: int) -> None:
        """A game played as table ``table`` of round ``round_no`` (both from 1)."""
        with self.connection.transaction("игру турнира") as db:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise StoreError(f"игры {game_id} нет в хранилище; номера игр: host-device games list")
            db.execute(
                "INSERT INTO tournament_games (game, tournament, round, tbl) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game) DO UPDATE SET tournament = excluded.tournament, "
                "round = excluded.round, tbl = excluded.tbl",
                (game_id, tid, round_no, table),
            )

    def games(self, tid: int) -> list[tuple[int, int, int]]:
        """(game, round, table) of every game of the tournament."""
        rows = self.connection.read(
            None,
            "SELECT game, round, tbl FROM tournament_games WHERE tournament = ? ORDER BY round, tbl",
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
            "WHERE t.name = ? AND g.tbl = ? AND games.finished_at IS NOT NULL",
            (tournament_name(name), table),
        )
        return int(rows[0][0] or 0) if rows else 0

    def rounds_played(self, tid: int) -> int:
        """The last round with a game (0: none)."""
        return max((r for _g, r, _t in self.games(tid)), default=0)
