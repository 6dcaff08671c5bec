"""Benchmark of a box's sending to the club's database, printing one JSON object:

- ``waiting_ms``: deciding which of N stored finished games wait (each
  game's digest from the store's rows, no replay);
- ``send``: sending N stored finished games (default 1000) to a local
  PostgreSQL (a server made like tests/helpers/postgres.py's, which is
  used), games per second, as ``host-device club send`` does (each game
  packed, with its replay, and received in a transaction of its own);
- ``time_up_late``: «Время!» lateness (median, max ms) on the real clock
  (bench/runtime_timing.py's day of 1-second speeches) with the box's
  background sender idle (nothing waits) and while it sends N games
  (started with the day: ``sent_during`` says how many went while it was
  timed).

    .venv/bin/python bench/club.py [--games 1000] [--speeches 20] [--reading-games 10000]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def stored(path: Path, games: int) -> None:
    from host_device.store import Store
    from tests.helpers.outbox import finished_games

    store = Store(path)
    try:
        finished_games(store, games)
    finally:
        store.close()


def club_database(server: Any, name: str) -> str:
    from host_device.clubdb.db import ClubDB

    url = str(server.create_database(name))
    db = ClubDB.open(url)
    db.init()
    db.close()
    return url


def sent(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT count(*) FROM outbox WHERE state = 'sent'").fetchone()[0])
    finally:
        db.close()


def timed_day(store: Path, url: str, speeches: int) -> dict[str, Any]:
    """A day of speeches on the real clock, the box's sender of ``store`` running."""
    from bench.runtime_timing import measure
    from host_device.clubdb.sender import Sender

    senders: list[Any] = []

    def wire(runtime: Any, inbox: Any) -> Any:
        sender = Sender(store, url).start()
        senders.append(sender)
        return None

    before = sent(store)
    result = measure(wire, speeches=speeches)
    during = sent(store) - before
    for sender in senders:
        sender.close()
    return {**result["time_up_late"], "sent_during": during}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--speeches", type=int, default=20)
    parser.add_argument("--reading-games", type=int, default=10_000)
    args = parser.parse_args()
    from host_device.clubdb.sender import send_waiting
    from host_device.store import Store
    from tests.helpers.postgres import new_server

    server = new_server()
    server.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "games.sqlite3"
            stored(path, args.games)
            store = Store(path)
            started = time.perf_counter()
            waiting = len(store.outbox.waiting())
            waiting_ms = (time.perf_counter() - started) * 1000
            url = club_database(server, "sent")
            started = time.perf_counter()
            report = send_waiting(store, url)
            send_s = time.perf_counter() - started
            store.close()
            assert report.error is None and report.stored == waiting == args.games, report
            idle = timed_day(path, url, args.speeches)  # everything sent: the sender has nothing to do
            busy_path = Path(folder) / "busy.sqlite3"
            stored(busy_path, args.games)
            busy = timed_day(busy_path, club_database(server, "busy"), args.speeches)
    finally:
        server.close()
    from bench.club_reading import measure

    reading = measure(args.reading_games)
    print(
        json.dumps(
            {
                "benchmark": "club",
                "games": args.games,
                "waiting_ms": round(waiting_ms, 1),
                "send": {"seconds": round(send_s, 2), "games_per_s": round(args.games / send_s, 1)},
                "time_up_late": {"sender_idle": idle, "sender_sending": busy},
                "reading": reading,
            }
        )
    )


if __name__ == "__main__":
    main()
