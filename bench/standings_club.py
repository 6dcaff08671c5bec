"""Benchmark of a tournament's live standings read from the club's database
(PostgreSQL), printing one JSON object: the club variant of
bench/standings.py (issue 40: "refreshed within 200 ms of a new game with
10,000 games in the database").

Set up: a PostgreSQL started as the tests start it (tests/helpers/postgres.py),
``--games`` finished games in the club's database (default 10,000; thirty
players, three boxes), of them the last ``--tournament`` (default 20: twenty
players, two tables, ten rounds) sent as tables of a tournament whose seating
is published there (``tournament publish``). Games are received as a box's
are (``ClubDB.receive`` of a package like ``package_of``'s, the example games
that end with new UUIDs and times and players seated: bench/club_reading.py's
templates), except that, to be quick, the background games beyond the first
``--received`` are copies made in SQL of those received (a new UUID, start
time and digest each; their seats drawn at random; the records' own
UUID and times put in); ``--receive-all`` receives every one instead
(slower; the same figures, checked). The tournament's games and the new
games are always received.

Measured (ms, the median of ``--repeat`` trials, each after one more game of
the tournament, the next table, is received):

- ``standings_ms``: ``tournament standings NAME --club-db URL``'s rows
  computed (host_device/cli/tournament.py ``_club_rows``: a connection opened,
  the tournament's games and their records read, ranked);
- ``venue_live_ms``: the venue screen ``/tournament/NAME`` of ``club web``
  answered fresh, as the pages' worker answers it after a new game: the
  database's ``state()`` asked (``database_state``, the pages' process' kept
  connection), the worker's kept records refreshed (every game's digest
  read, the new game's record fetched), the standings summed, the page drawn
  (host_device/web/club_render.py ``render``);
- ``venue_first_ms``: the worker's first venue page (nothing kept: every
  record read from the database), median of ``--cold-repeat`` new workers;
- ``venue_kept_ms``: the page asked again while nothing changed (the screen
  reads itself every 20 seconds);
- ``venue_after_new_player_ms``: the page after a game of no tournament that
  seats a guest new to the club (median of ``--cold-repeat``): the roster's
  state moves, and the worker reads every record again (each shows names);
- ``receive_ms``: the new game's ``receive`` itself (not in the above).

Each measured page and table is checked: every player's games count equals
the games linked so far.

    .venv/bin/python bench/standings_club.py [--games 10000] [--tournament 20] [--repeat 7]
    /work/shared/tools/slow-cpu 0.25 .venv/bin/python bench/standings_club.py   (about a Pi 4 core;
        the PostgreSQL server it starts runs in the same quarter of a core)
"""

from __future__ import annotations

import argparse
import html
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
NAME = "Бенч клуба"
PLAYERS = 30  # the club's roster; the first TOURNAMENT_PLAYERS of them play the tournament
TOURNAMENT_PLAYERS = 20
TABLE = 10
BOXES = 3
TARGET_MS = 200


def package(
    base: Any,
    n: int,
    seated: list[tuple[str, str]],
    box: str,
    pick: random.Random,
    tournament: tuple[str, int, int] | None = None,
) -> Any:
    """Game ``n`` of ``box`` (bench/club_reading.py ``remade``), numbered ``n + 1`` there."""
    from bench.club_reading import remade

    return remade(base, n, seated, box, n + 1, pick, tournament)


def seating(players: list[tuple[str, str]], rounds: int, pick: random.Random) -> dict[str, Any]:
    """The seating file's JSON as ``tournament publish`` puts it (cli/tournament.py ``_seating_json``):
    each round the twenty players shuffled onto two tables."""
    rows = []
    for r in range(1, rounds + 1):
        order = pick.sample(players, len(players))
        for k, (pid, name) in enumerate(order):
            rows.append({"тур": r, "стол": 1 + k // TABLE, "место": 1 + k % TABLE, "игрок": name, "id": pid})
    return {
        "tournament": NAME,
        "what": "seating",
        "rating": None,
        "players": [pid for pid, _ in players],
        "rows": rows,
    }


def table_of(published: dict[str, Any], r: int, t: int) -> list[tuple[str, str]]:
    rows = [row for row in published["rows"] if row["тур"] == r and row["стол"] == t]
    return [(row["id"], row["игрок"]) for row in sorted(rows, key=lambda row: row["место"])]


def copies(
    db: Any, received: list[int], first: int, last: int, players: list[str], pick: random.Random
) -> None:
    """Games ``first``..``last`` (their ``n``) as copies of the ``received`` games made in SQL, in one
    transaction: a new UUID, times and digest each (the record's own put in), other players seated.
    The triggers that count each row written are off meanwhile (110,000 updates of one row in one
    transaction would each walk the row's earlier versions); the count is moved once at the end."""
    with db.conn.transaction():
        db.conn.execute("ALTER TABLE games DISABLE TRIGGER games_changed")
        db.conn.execute("ALTER TABLE seats DISABLE TRIGGER seats_changed")
        made = db.conn.execute(
            """
            WITH src AS (SELECT id, (row_number() OVER (ORDER BY id)) - 1 AS k FROM games WHERE id = ANY(%s))
            INSERT INTO games (uuid, box, local_id, started_at, finished_at, preset, mode, winner, days,
                               settings, inputs, extras, record, digest)
            SELECT v.u, t.box, n + 1, v.s, v.f, t.preset, t.mode, t.winner, t.days, t.settings, t.inputs,
                   t.extras,
                   t.record || jsonb_build_object('id', n + 1, 'uuid', v.u::text,
                       'started_at', to_char(v.s AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"'),
                       'finished_at', to_char(v.f AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')),
                   encode(sha256(convert_to(t.digest || v.u::text, 'UTF8')), 'hex')
            FROM generate_series(%s::int, %s::int) AS n
            CROSS JOIN LATERAL (
                SELECT md5(%s::text || n::text)::uuid AS u,
                       timestamptz '2026-01-01 19:00:00+00' + n * interval '50 minutes' AS s,
                       timestamptz '2026-01-01 19:45:00+00' + n * interval '50 minutes' AS f
            ) AS v
            JOIN src ON src.k = n %% %s
            JOIN games t ON t.id = src.id
            RETURNING id, (SELECT array_agg((x->>'seat')::int) FROM jsonb_array_elements(record->'seats') x)
            """,
            (received, first, last, f"bench {pick.random()} ", len(received)),
        ).fetchall()
        with db.conn.cursor() as cur, cur.copy("COPY seats (game, seat, player) FROM STDIN") as copy:
            for game, seat_numbers in made:
                for seat, player in zip(seat_numbers, pick.sample(players, len(seat_numbers)), strict=True):
                    copy.write_row((game, seat, player))
        db.conn.execute("ALTER TABLE games ENABLE TRIGGER games_changed")
        db.conn.execute("ALTER TABLE seats ENABLE TRIGGER seats_changed")
        db.conn.execute("UPDATE club_changes SET games = games + 1")
    db.conn.execute("VACUUM ANALYZE")  # what autovacuum does to a database grown over months


def ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


class Bench:
    """The database, its tournament, and the trials (see the module's text)."""

    def __init__(self, url: str, args: argparse.Namespace) -> None:
        self.url = url
        self.args = args
        self.pick = random.Random(7)
        self.players = [
            (str(uuid.UUID(int=self.pick.getrandbits(128), version=4)), f"Игрок {k}")
            for k in range(1, PLAYERS + 1)
        ]
        self.boxes = [str(uuid.UUID(int=self.pick.getrandbits(128), version=4)) for _ in range(BOXES)]
        self.background = args.games - args.tournament
        self.linked = 0  # the tournament's games received so far
        tables = TOURNAMENT_PLAYERS // TABLE
        self.tables = tables
        self.rounds = -(-(args.tournament + args.repeat + 2) // tables)
        self.published = seating(self.players[:TOURNAMENT_PLAYERS], self.rounds, self.pick)
        self.connections: dict[str, Any] = {}  # the pages' process' kept connection (database_state)

    def load(self) -> dict[str, Any]:
        from host_device.clubdb.db import ClubDB

        bases = self.bases

        took: dict[str, Any] = {}
        received = self.background if self.args.receive_all else min(self.args.received, self.background)
        with ClubDB.open(self.url) as db:
            db.init()
            db.tournaments.publish(NAME, self.published)
            start = time.perf_counter()
            for n in range(received):
                seated = self.pick.sample(self.players, len(bases[n % len(bases)].record["seats"]))
                db.receive(package(bases[n % len(bases)], n, seated, self.boxes[n % BOXES], self.pick))
            took["received_games"] = received
            took["receive_games_per_s"] = round(received / max(time.perf_counter() - start, 1e-9), 1)
            if received < self.background:
                start = time.perf_counter()
                ids = [g for (g,) in db.conn.execute("SELECT id FROM games ORDER BY id").fetchall()]
                copies(db, ids, received, self.background - 1, [p for p, _ in self.players], self.pick)
                took["copied_games"] = self.background - received
                took["copies_s"] = round(time.perf_counter() - start, 2)
            start = time.perf_counter()
            for _ in range(self.args.tournament):
                self.next_game(db)
            took["tournament_received_s"] = round(time.perf_counter() - start, 2)
            counts = db.counts()
            assert counts.finished == self.args.games, counts
            assert counts.players == PLAYERS, counts
            assert len(db.tournaments.games(NAME)) == self.args.tournament
            took["database_mb"] = round(
                int(db.conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]) / 2**20, 1
            )
        return took

    def next_game(self, db: Any) -> float:
        """The tournament's next table received (the classic game, its table's players seated); ms."""
        r, t = 1 + self.linked // self.tables, 1 + self.linked % self.tables
        n = self.background + self.linked
        made = package(
            self.bases[0], n, table_of(self.published, r, t), self.boxes[t % BOXES], self.pick, (NAME, r, t)
        )
        start = time.perf_counter()
        assert db.receive(made) == "stored"
        took = ms(start)
        self.linked += 1
        return took

    def standings(self) -> tuple[float, list[list[Any]]]:
        from host_device.cli.tournament import _club_rows

        start = time.perf_counter()
        _name, rows = _club_rows(self.url, NAME, None)
        took = ms(start)
        assert sum(row[2] for row in rows) == TABLE * self.linked, rows
        return took, rows

    def venue(self) -> tuple[float, str]:
        from host_device.web.club_db_source import database_state
        from host_device.web.club_render import render

        start = time.perf_counter()
        status, page = render(
            self.url, database_state(self.url, self.connections), "", "tournament", NAME, ()
        )
        took = ms(start)
        assert status == 200 and "Таблица" in page, page[:300]
        return took, page

    def check(self, page: str, rows: list[list[Any]]) -> None:
        """The page's standings are fresh: each player's name and games as the command counts them."""
        for row in rows:
            assert f"<td>{html.escape(str(row[1]))}</td><td>{row[2]}</td>" in page, row

    def run(self) -> dict[str, Any]:
        from host_device.clubdb.db import ClubDB
        from host_device.web import club_render

        with tempfile.TemporaryDirectory() as folder:
            from bench.club_reading import templates

            self.bases = templates(Path(folder))
        result: dict[str, Any] = {"games": self.args.games, "tournament_games": self.args.tournament}
        start = time.perf_counter()
        result["setup"] = self.load()
        result["setup"]["load_s"] = round(time.perf_counter() - start, 1)
        club_render.ready()  # the worker's imports, before its first page
        first = []
        for _ in range(self.args.cold_repeat):  # a new worker each time: nothing kept
            for kept in club_render._sources.values():
                getattr(kept, "close", lambda: None)()
            club_render._sources.clear()
            club_render._pages.clear()
            club_render._venue_kept.clear()
            took, page = self.venue()
            first.append(took)
            read = club_render._venue_kept[self.url][1]  # the tournament's records alone (issue 51)
            assert len(read) == self.linked, (len(read), self.linked)
        from host_device.web.club_db_source import database_state

        every = club_render.source(self.url, database_state(self.url, self.connections))
        assert len(every.finished()) == self.args.games  # every record read back, the copies too
        self.check(page, self.standings()[1])
        kept_ms = [self.venue()[0] for _ in range(5)]
        received, standings, live = [], [], []
        with ClubDB.open(self.url) as db:
            for trial in range(self.args.repeat):
                received.append(self.next_game(db))
                if trial % 2:  # each measure first in half the trials (the new record in the server's cache)
                    took, rows = self.standings()
                    standings.append(took)
                    took, page = self.venue()
                    live.append(took)
                else:
                    took, page = self.venue()
                    live.append(took)
                    took, rows = self.standings()
                    standings.append(took)
                self.check(page, rows)
            guest = []
            for k in range(self.args.cold_repeat):  # the roster moves: the worker reads every record again
                newcomer = (str(uuid.UUID(int=self.pick.getrandbits(128), version=4)), f"Гость {k + 1}")
                seated = [newcomer, *self.pick.sample(self.players[TOURNAMENT_PLAYERS:], TABLE - 1)]
                n = self.args.games + self.args.repeat + k
                assert db.receive(package(self.bases[0], n, seated, self.boxes[0], self.pick)) == "stored"
                took, page = self.venue()
                guest.append(took)
                self.check(page, rows)
        for connection in self.connections.values():
            connection.close()
        result.update(
            {
                "tournament_games_at_end": self.linked,
                "standings_ms": median(standings),
                "standings_max_ms": round(max(standings), 1),
                "venue_live_ms": median(live),
                "venue_live_max_ms": round(max(live), 1),
                "venue_first_ms": median(first),
                "venue_kept_ms": median(kept_ms),
                "venue_after_new_player_ms": median(guest),
                "receive_ms": median(received),
                "target_ms": TARGET_MS,
                "target_met": {
                    "standings": statistics.median(standings) <= TARGET_MS,
                    "venue_live": statistics.median(live) <= TARGET_MS,
                    "venue_first": statistics.median(first) <= TARGET_MS,
                    "venue_after_new_player": statistics.median(guest) <= TARGET_MS,
                },
            }
        )
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="finished games in the database")
    parser.add_argument("--tournament", type=int, default=20, help="of them, the tournament's")
    parser.add_argument("--repeat", type=int, default=7, help="trials of one new game")
    parser.add_argument("--cold-repeat", type=int, default=3, help="trials of the worker's first page")
    parser.add_argument(
        "--received", type=int, default=60, help="background games received (the rest copied)"
    )
    parser.add_argument("--receive-all", action="store_true", help="receive every background game")
    args = parser.parse_args()
    from tests.helpers.postgres import new_server

    start = time.perf_counter()
    server = new_server()
    server.start()
    try:
        url = server.create_database("club")
        server_s = round(time.perf_counter() - start, 1)
        result = Bench(url, args).run()
        result["setup"]["server_s"] = server_s
    finally:
        from host_device.web import club_render

        for kept in club_render._sources.values():
            getattr(kept, "close", lambda: None)()
        server.close()
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
