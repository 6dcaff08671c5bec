"""Benchmark of the club's pages read from the club's database, printing one
JSON object: a PostgreSQL started as the tests start it
(tests/helpers/postgres.py), N finished games received in it (default
10,000: the example games that end, again and again, each with a new UUID,
thirty players seated at random, three boxes), then the leaderboard (/club)
and a player's page (/player/ID) as the pages' worker computes them
(host_device/web/club_render.py ``render``, in this process):

- cold: the worker's first page (every record read from the database, the
  page computed, the plots drawn);
- kept: the same page asked again while the database has not changed;
- one new game: the page after one more game is received (only that
  game's record read; the page computed again);
- state: the database's ``state()`` alone (what the pages' process asks
  before each page).

Also: how fast the games were received (games per second, one connection)
and ``records()`` over all of them.

    .venv/bin/python bench/club_reading.py [--games 10000]   (bench/club.py runs it too)
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
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
PLAYERS = 30
BOXES = 3


def templates(folder: Path) -> list[Any]:
    """The example games that end, packed once (as a box packs them)."""
    from host_device.club.package import package_of
    from host_device.scripts.script import load_script
    from host_device.scripts.simulate import simulate
    from host_device.store import Store
    from tests.helpers.clubdb import FINISHING

    store = Store(folder / "scratch.sqlite3")
    for script in FINISHING:
        simulate(load_script(ROOT / "examples" / script), lambda key, slots: 1.0, store=store)
    found = [package_of(store, row.id) for row in store.games.all() if row.winner is not None]
    store.close()
    return found


def when(n: int) -> tuple[str, str]:
    """Game ``n``'s start and end: fifty minutes a game from 1 January 2026, 19:00."""
    start = datetime.datetime(2026, 1, 1, 19, tzinfo=datetime.UTC) + datetime.timedelta(minutes=50 * n)
    end = start + datetime.timedelta(minutes=45)
    return start.isoformat(timespec="seconds"), end.isoformat(timespec="seconds")


def remade(
    base: Any,
    n: int,
    seated: list[tuple[str, str]],
    box: str,
    local_id: int,
    pick: random.Random,
    tournament: tuple[str, int, int] | None = None,
) -> Any:
    """Game ``n``: the template's game with its own UUID, box, times (:func:`when`), ``seated``
    (id, name) from its first seat on, and its tournament link; its digest computed as a box's
    (package.py ``content_digest``)."""
    from host_device.club.package import PlayerEntry, content_digest

    game = str(uuid.UUID(int=pick.getrandbits(128), version=4))
    started, finished = when(n)
    seats = {s["seat"]: pid for s, (pid, _) in zip(base.record["seats"], seated, strict=True)}
    names = dict(seated)
    record = {
        **base.record,
        "id": n + 1,
        "uuid": game,
        "started_at": started,
        "finished_at": finished,
        "seats": [
            {**s, "player": seats[s["seat"]], "name": names[seats[s["seat"]]]} for s in base.record["seats"]
        ],
    }
    made = dataclasses.replace(
        base,
        uuid=game,
        box=box,
        local_id=local_id,
        started_at=started,
        finished_at=finished,
        seats=seats,
        extras={},
        players=tuple(PlayerEntry(pid, names[pid]) for pid in sorted(seats.values())),
        record=record,
        digest="",
        tournament=tournament,
    )
    return dataclasses.replace(made, digest=content_digest(made))


def variant(base: Any, n: int, players: list[tuple[str, str]], boxes: list[str], pick: random.Random) -> Any:
    """Game ``n``: the template's game with its own UUID, box, start, and players seated."""
    seated = pick.sample(players, len(base.record["seats"]))
    return remade(base, n, seated, boxes[n % len(boxes)], n // len(boxes) + 1, pick)


def ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 1)


def timed(work: Any, times: int = 5) -> float:
    took = []
    for _ in range(times):
        start = time.perf_counter()
        work()
        took.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(took), 2)


def measure(games: int) -> dict[str, Any]:
    """The figures above, for ``games`` games (bench/club.py prints them under ``reading``)."""
    from host_device.clubdb.db import ClubDB
    from host_device.web import club_render
    from tests.helpers.postgres import new_server

    pick = random.Random(7)
    players = [
        (str(uuid.UUID(int=pick.getrandbits(128), version=4)), f"Игрок {k}") for k in range(1, PLAYERS + 1)
    ]
    boxes = [str(uuid.UUID(int=pick.getrandbits(128), version=4)) for _ in range(BOXES)]
    server = new_server()
    server.start()
    result: dict[str, Any] = {"games": games, "players": PLAYERS, "boxes": BOXES}
    try:
        url = server.create_database("club")
        with tempfile.TemporaryDirectory() as folder:
            bases = templates(Path(folder))
        packages = [variant(bases[n % len(bases)], n, players, boxes, pick) for n in range(games + 1)]
        extra = packages.pop()
        with ClubDB.open(url) as db:
            db.init()
            start = time.perf_counter()
            for package in packages:
                db.receive(package)
            took = time.perf_counter() - start
            result["receive_games_per_s"] = round(len(packages) / took, 1)
            start = time.perf_counter()
            every = db.records()
            result["records_all_ms"] = ms(start)
            assert len(every) == games
            result["state_ms"] = timed(db.state, 20)
            result["database_mb"] = round(
                int(db.conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]) / 2**20, 1
            )
            club_render.ready()  # matplotlib's import: the worker's, before its first page

            def page(kind: str, arg: str) -> tuple[int, str]:
                return club_render.render(url, tuple(db.state()), "", kind, arg, ())

            someone = players[0][0]
            for kind, arg, name in (("club", "", "leaderboard"), ("player", someone, "player_page")):
                for kept in club_render._sources.values():  # a new worker: nothing read yet
                    getattr(kept, "close", lambda: None)()
                club_render._sources.clear()
                club_render._pages.clear()
                start = time.perf_counter()
                status, _ = page(kind, arg)
                assert status == 200, status
                result[f"{name}_cold_ms"] = ms(start)
                result[f"{name}_kept_ms"] = timed(lambda kind=kind, arg=arg: page(kind, arg))
            db.receive(extra)
            for kind, arg, name in (("club", "", "leaderboard"), ("player", someone, "player_page")):
                start = time.perf_counter()
                status, _ = page(kind, arg)
                assert status == 200, status
                result[f"{name}_after_one_new_game_ms"] = ms(start)
    finally:
        server.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args()
    print(json.dumps(measure(args.games), ensure_ascii=False))


if __name__ == "__main__":
    main()
