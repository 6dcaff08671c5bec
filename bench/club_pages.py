"""Benchmark of the club's pages, printing one JSON object:

- their cost over a store of N finished games (default 1000, thirty
  players seated in turn): ms per /club, /player/ID and /game/ID, cold (the
  store's records built, the page computed, the plots drawn) and kept (the
  same page asked again);
- «Время!» lateness (how late it is said against its moment, a half-second
  free timer run again and again on the real clock) in the process that
  also serves the pages, without requests, with a client asking for club
  pages all the time (the pages computed in the worker process, as the
  device does), and for contrast with the same pages computed on a thread
  of the game's own process (what the worker process avoids).

The client is a process of its own (a phone is not on the device's CPU).
Thirty players are in the store's roster, ten of them seated at random
in each game.

    .venv/bin/python bench/club_pages.py [--games 1000] [--seconds 15]
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TIMER_S = 0.5
PLAYERS = [f"Игрок {n}" for n in range(1, 31)]


def make_store(path: Path, games: int) -> list[str]:
    """``games`` finished games: the example classic games that end, imported again and again."""
    from host_device.scripts.script import load_script
    from host_device.scripts.simulate import simulate
    from host_device.store import Store

    scratch = Store(path.with_name("scratch.db"))
    played = []
    for script in ("classic-full-game.json", "classic-game.json"):
        simulate(load_script(ROOT / "examples" / script), lambda key, slots: 1.0, store=scratch)
    for row in scratch.games.all():
        if row.winner is None:
            continue  # the short example stops before the game's end
        played.append((row, [(seq, t, inp, 0) for seq, t, inp in scratch.games.inputs(row.id)]))
    scratch.close()
    store = Store(path)
    ids = {name: store.roster.add_player(name).id for name in PLAYERS}  # the club's roster
    pick = random.Random(7)
    for n in range(games):
        row, inputs = played[n % len(played)]
        names = dict(zip(range(1, 11), pick.sample(PLAYERS, 10), strict=True))
        day = 1 + n // 10
        meta = {
            "settings": {},
            "started_at": f"2026-{1 + (day // 28) % 12:02d}-{1 + day % 28:02d}T19:00:00+00:00",
            "preset": row.preset,
            "mode": row.mode,
            "seats": {seat: ids[name] for seat, name in names.items()},
        }
        store.games.import_game(meta, inputs, "bench", row.winner, row.days)
    store.close()
    return list(ids.values())


def get(url: str) -> tuple[int, float]:
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=600) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    return status, (time.perf_counter() - start) * 1000


def client(base: str, seconds: float, games: int, players: list[str]) -> None:
    """The client's process: club pages asked one after another for ``seconds``, most of them new."""
    pick = random.Random(11)
    asked: dict[str, list[float]] = {}
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
        kind = ("club", "player", "game")[n % 3]
        if kind == "club":
            url = f"{base}/club?from=2026-01-{1 + pick.randrange(28):02d}"
        elif kind == "player":
            url = f"{base}/player/{pick.choice(players)}"
        else:
            url = f"{base}/game/{1 + pick.randrange(games)}"
        status, ms = get(url)
        assert status == 200, (url, status)
        asked.setdefault(kind, []).append(ms)
    print(
        json.dumps({k: {"n": len(v), "median_ms": round(statistics.median(v), 1)} for k, v in asked.items()})
    )


def summary(values: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(statistics.median(values), 2),
        "max_ms": round(max(values), 2),
        "n": len(values),
    }


def timed_game(seconds: float, during: Any = None) -> list[float]:
    """Free timers on the real clock for ``seconds`` (or while ``during()`` runs on a thread
    beside): how late each «Время!» was."""
    from engine import Advance, Game, Phase, get_preset
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime
    from host_device.runtime.settings import Settings
    from host_device.runtime.timeline import Said
    from host_device.session.deal import deal

    preset = get_preset("classic")
    sched = Scheduler()
    runtime = Runtime(Game(preset), sched, lambda key, slots: 0.01, Settings(gap_s=0.01))
    runtime.handle(deal(preset, 1))
    while runtime.game.phase is not Phase.SPEECH:
        runtime.handle(Advance())
    late: list[float] = []
    due: list[float] = []
    clock: dict[str, float] = {}
    done = threading.Event()

    def tick() -> None:
        if not clock:
            clock.update(wall0=time.monotonic(), virt0=sched.now)

    def free_timer() -> None:
        runtime.free.start(TIMER_S)
        assert runtime.free.running is not None
        start, length = runtime.free.running
        due.append(start + length)

    def on_record(entry: Any) -> None:
        if isinstance(entry, Said) and entry.key == "time_up" and due and runtime.free.running is None:
            late.append((time.monotonic() - (clock["wall0"] + due.pop() - clock["virt0"])) * 1000)
            sched.after(0.1, free_timer)

    runtime.recorders.append(on_record)
    free_timer()
    if during is not None:

        def beside() -> None:
            try:
                during()
            finally:
                done.set()  # the timers stop even if the client failed

        threading.Thread(target=beside, daemon=True).start()
    else:
        threading.Timer(seconds, done.set).start()
    sched.after(24 * 3600, lambda: None)
    sched.run_real(inbox=queue.Queue(), on_input=lambda item: None, stop=done.is_set, tick=tick)
    return late


def serve(store: Path, pool: Any) -> tuple[Any, str]:
    """The pages' server with the club's pages of ``store`` computed on ``pool``."""
    from engine import Game
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime
    from host_device.screens.public import PublicStream
    from host_device.web.club_worker import ClubPages
    from host_device.web.publisher import Publisher
    from host_device.web.server import WebServer
    from voices.catalogue import russian

    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0)
    publisher = Publisher(PublicStream(runtime, russian().text), 1.0)
    server = WebServer(publisher, "127.0.0.1", 0, club=ClubPages(store, pool=pool))
    _, port = server.start()
    return server, f"http://127.0.0.1:{port}"


def cost(base: str, games: int, players: list[str]) -> dict[str, Any]:
    def twice(url: str) -> dict[str, float]:
        cold = get(url)
        kept = get(url)
        assert cold[0] == kept[0] == 200, url
        return {"cold_ms": round(cold[1], 1), "kept_ms": round(kept[1], 1)}

    return {
        "club": twice(f"{base}/club"),  # the first: every record built
        "club_filtered": twice(f"{base}/club?from=2026-02-01&preset=classic"),
        "player": twice(f"{base}/player/{players[0]}"),
        "player_2": twice(f"{base}/player/{players[1]}"),
        "game": twice(f"{base}/game/{games // 2}"),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--client", help=argparse.SUPPRESS)
    parser.add_argument("--players", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        client(args.client, args.seconds, args.games, args.players.split(","))
        return
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "games.db"
        start = time.perf_counter()
        players = make_store(store, args.games)
        made_s = time.perf_counter() - start
        from host_device.web.club_worker import new_pool

        server, base = serve(store, new_pool())  # the device's own worker
        pages = cost(base, args.games, players)

        def load(base: str = base) -> dict[str, Any]:
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--client",
                    base,
                    "--seconds",
                    str(args.seconds),
                    "--games",
                    str(args.games),
                    "--players",
                    ",".join(players),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            return dict(json.loads(out.stdout))

        quiet = timed_game(args.seconds)
        asked: dict[str, Any] = {}
        busy = timed_game(args.seconds, lambda: asked.update(load()))
        server.stop()
        server, base = serve(store, ThreadPoolExecutor(1))
        get(f"{base}/club")  # the records built once, as in the worker above
        in_process: dict[str, Any] = {}
        threaded = timed_game(args.seconds, lambda: in_process.update(load(base)))
        server.stop()
    print(
        json.dumps(
            {
                "benchmark": "club_pages",
                "games": args.games,
                "store_made_s": round(made_s, 1),
                "pages": pages,
                "time_up_late": {
                    "no_requests": summary(quiet),
                    "club_pages_asked_worker_process": summary(busy),
                    "club_pages_asked_thread_in_game_process": summary(threaded),
                },
                "pages_asked_during_the_game": {"worker_process": asked, "thread": in_process},
                "targets": {"time_up_late_ms": 20},
            }
        )
    )


if __name__ == "__main__":
    main()
