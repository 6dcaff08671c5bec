"""Benchmark of a tournament's live standings, printing one JSON object.

A store of ``--games`` finished games (default 10,000; tests/helpers/store.py
``big_store``: one example game copied in SQL, thirty players seated at
random), the last ``--tournament`` of them (default 120: a hundred players,
ten tables, twelve rounds) linked to a tournament, round by round, ten
tables a round. Measured, in ms (median of ``--repeat`` runs):

- ``cold``: the standings computed from nothing, as ``host-device tournament
  standings`` does (every tournament game replayed);
- ``live``: what the venue screen (``/tournament/NAME``, in the club pages'
  worker) costs after one new game arrives: one more finished game copied
  into the store and linked to the tournament, then the page asked for
  (the store's signatures read again, the new game replayed, the standings
  summed, the page drawn);
- ``live_in_progress``: the same page after one input of a game in progress
  (linked to the tournament, not finished) is stored: what a screen asked
  during a game costs (it must not depend on the game's night).

    .venv/bin/python bench/standings.py [--games 10000] [--tournament 120] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
NAME = "Бенч"


def link(path: Path, games: list[int], tables: int) -> None:
    """A tournament of the store's thirty players holding ``games``, ten tables a round."""
    from host_device.store import Store

    store = Store(path)
    players = [p.id for p in store.roster.players()]
    rounds = -(-len(games) // tables) + 5
    tid = store.tournaments.create(NAME, rounds, 1, players, [])
    with store.connection.transaction("бенч") as db:
        db.executemany(
            "INSERT INTO tournament_seats (tournament, round, tbl, seat, player) VALUES (?, ?, ?, ?, ?)",
            [
                (tid, r, t, s, players[(r + t + s) % len(players)])
                for r in range(1, rounds + 1)
                for t in range(1, tables + 1)
                for s in range(1, 11)
            ],
        )
        db.executemany(
            "INSERT INTO tournament_games (game, tournament, round, tbl) VALUES (?, ?, ?, ?)",
            [(g, tid, 1 + k // tables, 1 + k % tables) for k, g in enumerate(games)],
        )
    store.close()


def copy_game(path: Path, finished: bool, inputs: int | None = None) -> int:
    """Game 1 copied as a new game (``inputs`` of its inputs; unfinished: no winner), linked
    to the tournament as the next table; its id."""
    from host_device.store import Store

    store = Store(path)
    with store.connection.transaction("бенч") as db:
        new = db.execute("SELECT max(id) + 1 FROM games").fetchone()[0]
        db.execute(
            "INSERT INTO games (id, started_at, preset, mode, settings, finished_at, winner, days, uuid) "
            "SELECT ?, started_at, preset, mode, settings, "
            f"{'finished_at' if finished else 'NULL'}, {'winner' if finished else 'NULL'}, days, "
            "lower(hex(randomblob(16))) FROM games WHERE id = 1",
            (new,),
        )
        db.execute(
            "INSERT INTO inputs (game, seq, t, input, undone) SELECT ?, seq, t, input, undone "
            "FROM inputs WHERE game = 1 AND seq <= ?",
            (new, inputs if inputs is not None else 1 << 30),
        )
        db.execute(
            "INSERT INTO seats (game, seat, player) SELECT ?, seat, player FROM seats WHERE game = 2", (new,)
        )
        tid, r, t = db.execute(
            "SELECT tournament, round, tbl FROM tournament_games ORDER BY round DESC, tbl DESC LIMIT 1"
        ).fetchone()
        db.execute(
            "INSERT INTO tournament_games (game, tournament, round, tbl) VALUES (?, ?, ?, ?)",
            (new, tid, r + 1, 1) if t >= 10 else (new, tid, r, t + 1),
        )
    store.close()
    return int(new)


def add_input(path: Path, game: int) -> None:
    from host_device.store import Store

    store = Store(path)
    with store.connection.transaction("бенч") as db:
        db.execute(
            "INSERT INTO inputs (game, seq, t, input, undone) SELECT ?, s.seq + 1, 0, i.input, 0 "
            "FROM (SELECT max(seq) AS seq FROM inputs WHERE game = ?) s, inputs i "
            "WHERE i.game = 1 AND i.seq = s.seq + 1",
            (game, game),
        )
    store.close()


def page(path: Path) -> float:
    from host_device.web.club_render import render
    from host_device.web.club_worker import store_state

    start = time.perf_counter()
    status, html = render(str(path), store_state(path), "", "tournament", NAME, ())
    took = (time.perf_counter() - start) * 1000
    assert status == 200 and "Таблица" in html, html[:300]
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--tournament", type=int, default=120)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    from host_device.cli.tournament import _standings
    from host_device.store import Store
    from tests.helpers.store import big_store

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.sqlite3"
        start = time.perf_counter()
        big_store(path, args.games)
        link(path, list(range(args.games - args.tournament + 1, args.games + 1)), 10)
        made = time.perf_counter() - start
        cold = []
        for _ in range(args.repeat):
            store = Store(path)
            row = store.tournaments.get(NAME)
            start = time.perf_counter()
            _standings(store, row, None)
            cold.append((time.perf_counter() - start) * 1000)
            store.close()
        first = page(path)  # the worker's first reading: every record built
        live, progress = [], []
        playing = copy_game(path, finished=False, inputs=20)
        page(path)
        for _ in range(args.repeat):
            copy_game(path, finished=True)
            live.append(page(path))
            add_input(path, playing)
            progress.append(page(path))
        print(
            json.dumps(
                {
                    "games": args.games,
                    "tournament_games": args.tournament,
                    "store_made_s": round(made, 1),
                    "cold_ms": round(statistics.median(cold), 1),
                    "first_page_ms": round(first, 1),
                    "live_ms": round(statistics.median(live), 1),
                    "live_max_ms": round(max(live), 1),
                    "live_in_progress_ms": round(statistics.median(progress), 1),
                    "target_ms": 200,
                }
            )
        )


if __name__ == "__main__":
    main()
