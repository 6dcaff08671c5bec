"""A tournament in the club's database (club schemas 2-5): the seating
``tournament publish`` puts there for the boxes, the tables the boxes take
from it (a round begun), and the games they send as tables of its rounds
(docs/tournament.md, "The seating in the club's database").

Taking a table and publishing a seating are each one transaction: a box
reads the seating and marks its table taken while holding the seating's
row (FOR SHARE), and a publish reads the rounds begun and replaces the
seating while holding it (FOR UPDATE), so a seating is never replaced
between a box reading it and marking the round it plays."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import psycopg
from psycopg.types.json import Jsonb

from host_device.base.names import BadName, player_id, player_name, quoted, terminal
from host_device.base.names import tournament_name as named_as_kept
from host_device.clubdb.errors import ClubDbError
from host_device.store.tournaments import tournament_name

log = logging.getLogger(__name__)
T = TypeVar("T")


def checked_name(name: str) -> str:
    """A tournament's name through the one door (host_device/base/names.py); else one line."""
    try:
        return named_as_kept(name)
    except BadName as exc:
        raise ClubDbError(str(exc)) from None


def taken(name: str, round_no: int, table: int, held: int) -> str:
    """The one line refusing a second game for a table of a round, naming the first."""
    return (
        f"у стола {table} тура {round_no} турнира «{quoted(name, 60)}» уже есть игра клуба № {held} "
        "(одна игра на стол в туре): укажите другой стол или тур, или аннулируйте её: host-device "
        f"tournament game НАЗВАНИЕ {held} --annul --club-db АДРЕС"
    )


def checked_seating(value: dict[str, Any], where: str) -> dict[str, Any]:
    """A seating's JSON with its names and ids through the one door (host_device/base/names.py):
    the tournament's name, each row's player's name (cleaned as a name typed is) and id, the
    players' ids; the first refused is one line naming ``where`` and the row. A row of another
    shape is left for the seating's reader (host_device/tournament/seating_file.py) to refuse."""
    seating = dict(value)
    try:
        if "tournament" in seating:
            seating["tournament"] = named_as_kept(seating["tournament"])
    except BadName as exc:
        raise ClubDbError(f"{where}: {exc}") from None
    rows = []
    for k, row in enumerate(seating["rows"], 1):
        if isinstance(row, dict) and "игрок" in row and "id" in row:
            try:
                row = {**row, "id": player_id(row["id"]), "игрок": player_name(row["игрок"])}
            except BadName as exc:
                raise ClubDbError(f"{where}, строка {k}: {exc}") from None
        rows.append(row)
    if isinstance(seating.get("players"), list):
        try:
            seating["players"] = [player_id(p) for p in seating["players"]]
        except BadName as exc:
            raise ClubDbError(f"{where}, список играющих: {exc}") from None
    seating["rows"] = rows
    return seating


def seating_json(value: Any, name: str) -> dict[str, Any]:
    """A published seating's JSON as a dict with its rows, its names and ids through the one
    door; one line when it is not one (a hand edit), or a name or an id in it is refused."""
    if not (isinstance(value, dict) and isinstance(value.get("rows"), list)):
        raise ClubDbError(
            f"рассадка турнира «{quoted(name, 60)}» в базе клуба испорчена (не таблица рассадки); "
            "опубликуйте её снова: host-device tournament publish"
        )
    return checked_seating(value, f"рассадка турнира «{quoted(name, 60)}» в базе клуба")


@dataclass(frozen=True)
class Published:
    """A tournament's seating in the club's database as ``club pull`` tells of it."""

    name: str  # as a terminal may show it
    players: int  # the players it seats, each counted once whatever his rounds
    rounds: int
    spoiled: bool = False  # not a seating (a hand edit): publishing again replaces it


def published_of(name: str, value: Any) -> Published:
    """What a stored seating holds: its players and rounds, or that it is spoiled."""
    rows = value.get("rows") if isinstance(value, dict) else None
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        return Published(terminal(name), 0, 0, spoiled=True)
    players = {str(r["id"]) for r in rows if "id" in r}
    rounds = {r["тур"] for r in rows if type(r.get("тур")) is int}
    return Published(terminal(name), len(players), len(rounds))


class Connection(Protocol):
    """What of ``clubdb.db.ClubDB`` this side uses: its connection, and ``run`` — a piece of work
    with the schema checked and its faults one line."""

    conn: psycopg.Connection[Any]

    def run(self, doing: str, work: Callable[[], T]) -> T: ...


class ClubTournaments:
    """The tournaments' side of one connection to the club's database (``clubdb.db.ClubDB``, which
    holds it: its ``conn``, and ``run`` for a piece of work with the schema checked and its faults
    one line)."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def publish(
        self, name: str, seating: dict[str, Any], check: Callable[[Any, int], None] | None = None
    ) -> None:
        """``tournament publish``: the seating file's JSON kept under the tournament's name (published
        again: replaced whole, the boxes take the new one from their next game). ``check(old, begun)``
        may refuse it, given the seating there now (as stored: maybe spoiled) and the last round
        begun (a game sent, or a table taken), before anything is written. The name and the
        seating's names and ids pass the one door first (host_device/base/names.py): one bad
        file must not reach every box."""
        name = checked_name(name)
        if isinstance(seating.get("rows"), list):
            seating = checked_seating(seating, f"рассадка турнира «{name}»")

        def work() -> None:
            conn = self.db.conn
            with conn.transaction():
                old = conn.execute(
                    "SELECT seating FROM tournament_seating WHERE tournament = %s FOR UPDATE", (name,)
                ).fetchone()
                if check is not None:
                    check(None if old is None else old[0], self._begun(name))
                conn.execute(
                    "INSERT INTO tournament_seating (tournament, seating) VALUES (%s, %s) ON CONFLICT "
                    "(tournament) DO UPDATE SET seating = EXCLUDED.seating, published_at = now()",
                    (name, Jsonb(seating)),
                )

        self.db.run("публикация рассадки", work)

    def seating_of(self, name: str) -> dict[str, Any] | None:
        """The seating published for tournament ``name`` (None: none is; spoiled: one line)."""
        value = self.stored(name)
        return None if value is None else seating_json(value, tournament_name(name))

    def stored(self, name: str) -> Any:
        """The seating published for tournament ``name`` as it is stored, spoiled or not (None: none)."""

        def read() -> Any:
            row = self.db.conn.execute(
                "SELECT seating FROM tournament_seating WHERE tournament = %s", (tournament_name(name),)
            ).fetchone()
            return None if row is None else row[0]

        return self.db.run("чтение рассадки", read)

    def take(self, name: str, round_no: int, table: int, check: Callable[[dict[str, Any]], T]) -> T | None:
        """A box takes ``table`` of round ``round_no``: the published seating (None: none is), checked
        by ``check`` (which finds the table, or refuses in one line), and the table marked taken — the
        round has begun, and a new seating keeps it. A mark that cannot be written (a role without the
        right) is a warning: the game goes on."""
        name = tournament_name(name)

        def work() -> T | None:
            conn = self.db.conn
            with conn.transaction():
                row = conn.execute(
                    "SELECT seating FROM tournament_seating WHERE tournament = %s FOR SHARE", (name,)
                ).fetchone()
                if row is None:
                    return None
                found = check(seating_json(row[0], name))
                try:
                    with conn.transaction():  # a savepoint: the seating is read whatever happens here
                        conn.execute(
                            "INSERT INTO tournament_tables_taken (tournament, round, tbl) "
                            "VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                            (name, round_no, table),
                        )
                except psycopg.Error as exc:
                    log.warning("стол %s тура %s не отмечен в базе клуба начатым: %s", table, round_no, exc)
                return found

        return self.db.run("чтение рассадки", work)

    def round_begun(self, name: str) -> int:
        """The last round of tournament ``name`` a box has taken a table of (0: none)."""
        return self.db.run("чтение начатых туров", lambda: self._taken(tournament_name(name)))

    def last_begun(self, name: str) -> int:
        """The last round of tournament ``name`` begun: a game of it sent, or a table of it taken."""
        return self.db.run("чтение начатых туров", lambda: self._begun(tournament_name(name)))

    def published(self) -> list[str]:
        """The names of the tournaments whose seating is published, in name order, as a terminal
        may show them (one published before the door: without its control characters)."""
        return self.db.run(
            "чтение турниров",
            lambda: [
                terminal(r[0])
                for r in self.db.conn.execute("SELECT tournament FROM tournament_seating ORDER BY 1")
            ],
        )

    def seatings(self) -> list[Published]:
        """Every published seating, the newest first: what it holds (``club pull`` says it)."""
        return self.db.run(
            "чтение турниров",
            lambda: [
                published_of(name, value)
                for name, value in self.db.conn.execute(
                    "SELECT tournament, seating FROM tournament_seating "
                    "ORDER BY published_at DESC, tournament"
                )
            ],
        )

    def games(self, name: str, annulled: bool = False) -> list[tuple[int, int, int]]:
        """(club id, round, table) of every game linked as a table of tournament ``name`` that counts
        (``annulled``: of those annulled instead)."""

        def read() -> list[tuple[int, int, int]]:
            rows = self.db.conn.execute(
                "SELECT game, round, tbl FROM tournament_games WHERE tournament = %s "
                f"AND annulled_at IS {'NOT ' if annulled else ''}NULL ORDER BY round, tbl, game",
                (tournament_name(name),),
            ).fetchall()
            return [(int(g), int(r), int(t)) for g, r, t in rows]

        return self.db.run("чтение игр турнира", read)

    def refused(self, name: str) -> list[tuple[int, int, int, int]]:
        """(club id, round, table, the game holding it) of every game a box sent as a table of
        tournament ``name`` that another game held: stored, not linked."""

        def read() -> list[tuple[int, int, int, int]]:
            rows = self.db.conn.execute(
                "SELECT game, round, tbl, held_by FROM tournament_links_refused WHERE tournament = %s "
                "ORDER BY round, tbl, game",
                (tournament_name(name),),
            ).fetchall()
            return [(int(g), int(r), int(t), int(h)) for g, r, t, h in rows]

        return self.db.run("чтение игр турнира", read)

    def place(self, game_id: int, name: str, round_no: int, table: int) -> int | None:
        """In the transaction already open: game ``game_id`` linked as ``table`` of round ``round_no``
        (counting), unless another game holds it: then its club number, the link asked for noted in
        tournament_links_refused and nothing else changed."""
        conn = self.db.conn
        held = conn.execute(
            "SELECT game FROM tournament_games WHERE tournament = %s AND round = %s AND tbl = %s "
            "AND annulled_at IS NULL AND game != %s",
            (name, round_no, table, game_id),
        ).fetchone()
        if held is not None:
            conn.execute(
                "INSERT INTO tournament_links_refused (game, tournament, round, tbl, held_by) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (game) DO UPDATE SET "
                "tournament = EXCLUDED.tournament, round = EXCLUDED.round, tbl = EXCLUDED.tbl, "
                "held_by = EXCLUDED.held_by, refused_at = now()",
                (game_id, name, round_no, table, held[0]),
            )
            return int(held[0])
        conn.execute("DELETE FROM tournament_links_refused WHERE game = %s", (game_id,))
        conn.execute(
            "INSERT INTO tournament_games (game, tournament, round, tbl) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (game) DO UPDATE SET tournament = EXCLUDED.tournament, round = EXCLUDED.round, "
            "tbl = EXCLUDED.tbl, annulled_at = NULL",
            (game_id, name, round_no, table),
        )
        return None

    def link(self, game: str, name: str, round_no: int, table: int) -> int:
        """``tournament game NAME GAME --round R --table T --club-db``: a game the club holds (its
        club number or UUID) linked as a table of a round (a game a box played as an ordinary one,
        the database out of reach; or one linked to the wrong table), counting; a table of the round
        another game holds, or one the published seating lacks, refused in one line. Its club number."""
        name = checked_name(name)

        def work() -> int:
            conn = self.db.conn
            with conn.transaction():
                conn.execute("SELECT 1 FROM club_changes FOR UPDATE")  # in turn with the receives
                game_id = self._game(game)
                row = conn.execute(
                    "SELECT seating FROM tournament_seating WHERE tournament = %s", (name,)
                ).fetchone()
                if row is not None and isinstance(row[0], dict) and isinstance(row[0].get("rows"), list):
                    places = {(r.get("тур"), r.get("стол")) for r in row[0]["rows"] if isinstance(r, dict)}
                    if (round_no, table) not in places:
                        raise ClubDbError(
                            f"стола {table} в туре {round_no} в рассадке турнира «{quoted(name, 60)}» нет; "
                            "рассадка: host-device tournament show НАЗВАНИЕ"
                        )
                held = self.place(game_id, name, round_no, table)
                if held is not None:
                    raise ClubDbError(taken(name, round_no, table, held))
                return game_id

        return self.db.run("привязка игры к турниру", work)

    def annul(self, game: str, name: str, annulled: bool = True) -> tuple[int, int, int]:
        """``tournament game NAME GAME --annul --club-db``: the game kept, out of the standings, its
        table of the round free (``annulled=False``, ``--restore``: counting again, unless another
        game holds its table since: one line naming it). (club number, round, table)."""
        name = tournament_name(name)

        def work() -> tuple[int, int, int]:
            conn = self.db.conn
            with conn.transaction():
                conn.execute("SELECT 1 FROM club_changes FOR UPDATE")
                game_id = self._game(game)
                row = conn.execute(
                    "SELECT round, tbl, annulled_at IS NOT NULL FROM tournament_games "
                    "WHERE game = %s AND tournament = %s",
                    (game_id, name),
                ).fetchone()
                if row is None:
                    raise ClubDbError(
                        f"игра клуба № {game_id} не привязана к турниру «{quoted(name, 60)}»; игры "
                        "турнира: host-device tournament standings НАЗВАНИЕ --club-db АДРЕС"
                    )
                round_no, table, was = int(row[0]), int(row[1]), bool(row[2])
                if not annulled and was:
                    held = conn.execute(
                        "SELECT game FROM tournament_games WHERE tournament = %s AND round = %s "
                        "AND tbl = %s AND annulled_at IS NULL",
                        (name, round_no, table),
                    ).fetchone()
                    if held is not None:
                        raise ClubDbError(taken(name, round_no, table, int(held[0])))
                if annulled != was:
                    conn.execute(
                        "UPDATE tournament_games SET annulled_at = CASE WHEN %s THEN now() END "
                        "WHERE game = %s",
                        (annulled, game_id),
                    )
                return game_id, round_no, table

        return self.db.run("аннулирование игры турнира", work)

    def _game(self, text: str) -> int:
        """A game of the club by its club number, its UUID or the UUID's start (8 characters or more)."""
        text = text.strip()
        conn = self.db.conn
        if text.isascii() and text.isdigit():
            rows = conn.execute("SELECT id FROM games WHERE id = %s", (int(text),)).fetchall()
        elif len(text) >= 8 and all(c in "0123456789abcdefABCDEF-" for c in text):
            rows = conn.execute(
                "SELECT id FROM games WHERE uuid::text LIKE %s LIMIT 2", (text.lower() + "%",)
            ).fetchall()
        else:
            rows = []
        if len(rows) != 1:
            what = "несколько игр" if rows else "нет игры"
            raise ClubDbError(
                f"в базе клуба {what} «{quoted(text, 40)}»; назовите игру номером клуба (её страница в "
                "club web) или её UUID"
            )
        return int(rows[0][0])

    def _begun(self, name: str) -> int:
        row = self.db.conn.execute(
            "SELECT greatest((SELECT max(round) FROM tournament_games WHERE tournament = %s), "
            "(SELECT max(round) FROM tournament_tables_taken WHERE tournament = %s))",
            (name, name),
        ).fetchone()
        return int(row[0] or 0) if row is not None else 0

    def _taken(self, name: str) -> int:
        row = self.db.conn.execute(
            "SELECT max(round) FROM tournament_tables_taken WHERE tournament = %s", (name,)
        ).fetchone()
        return int(row[0] or 0) if row is not None else 0
