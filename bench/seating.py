"""Benchmark of the tournament seating, printing one JSON object per player
count (20, 30, 50, 100; ten games each): the seconds it takes, whether every
player sits every seat exactly once, the least and most meetings of a pair,
mafiaratings' objective (host_device/tournament/measure.py), and the same
figures (``random``, ``greedy``) for a random seating and a greedy one.

    .venv/bin/python bench/seating.py [--seed N] [--players 20,30,50,100]

Random: each round the players shuffled into tables, seats in that order.
Greedy: each round, players in a random order each join the table (with a
seat left) where he has met the fewest so far, and take there the free seat
he has had least."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host_device.tournament.measure import measure  # noqa: E402
from host_device.tournament.seating import seat  # noqa: E402

GAMES = 10


def random_seating(players: list[str], rounds: int, rng: random.Random) -> list[list[list[str]]]:
    out = []
    for _ in range(rounds):
        order = rng.sample(players, len(players))
        out.append([order[k : k + 10] for k in range(0, len(order) // 10 * 10, 10)])
    return out


def greedy_seating(players: list[str], rounds: int, rng: random.Random) -> list[list[list[str]]]:
    met: dict[tuple[str, str], int] = {}
    had = {p: [0] * 10 for p in players}
    tables = len(players) // 10
    out = []
    for _ in range(rounds):
        order = rng.sample(players, tables * 10)
        groups: list[dict[int, str]] = [{} for _ in range(tables)]
        for p in order:
            open_ = [g for g in groups if len(g) < 10]
            group = min(open_, key=lambda g: sum(met.get((p, q), 0) for q in g.values()))
            free = [s for s in range(10) if s not in group]
            s = min(free, key=lambda s: had[p][s])
            group[s] = p
            had[p][s] += 1
            for q in group.values():
                if q != p:
                    met[(p, q)] = met.get((p, q), 0) + 1
                    met[(q, p)] = met.get((q, p), 0) + 1
        out.append([[g[s] for s in range(10)] for g in groups])
    return out


def figures(players: list[str], rounds: object, seconds: float) -> dict[str, object]:
    m = measure(players, rounds)  # type: ignore[arg-type]
    return {
        "players": len(players),
        "seconds": round(seconds, 3),
        "seat_exact": m.seat_exact,
        "pair_min": m.pair_min,
        "pair_max": m.pair_max,
        "objective": m.objective,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="20,30,50,100")
    args = parser.parse_args()
    for count in (int(n) for n in args.players.split(",")):
        players = [f"p{k:03d}" for k in range(count)]
        start = time.perf_counter()
        seating = seat(players, GAMES, seed=args.seed)
        ours = figures(players, seating.rounds, time.perf_counter() - start)
        rng = random.Random(args.seed)
        start = time.perf_counter()
        rand = random_seating(players, GAMES, rng)
        ours["random"] = figures(players, rand, time.perf_counter() - start)
        start = time.perf_counter()
        greedy = greedy_seating(players, GAMES, rng)
        ours["greedy"] = figures(players, greedy, time.perf_counter() - start)
        print(json.dumps(ours, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
