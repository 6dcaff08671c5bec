"""Benchmark of the tournament seating, printing one JSON object per player
count (20, 23, 30, 47, 50, 100; ten games each): the search's CPU seconds
(``time.process_time``: the machine may be shared) and wall seconds, whether
every player sits every seat exactly once (``seat_exact``) or, with byes, has
no seat twice (``seat_even``: his seat counts differ by one at most), the
spread of the game counts, the least and most meetings of a pair, the pair
term (mafiaratings' ``calculatePlayersScore``) beside its ideal (a floor no
seating of these rounds goes under: ``measure.pair_ideal``), the most times
one player sat directly after the same other player (``follow_max``; seat 1
after seat 10), mafiaratings' full objective
and its seat-number and table-number terms (host_device/tournament/measure.py),
and the pair term and objective of a random and a greedy seating beside.

    .venv/bin/python bench/seating.py [--seed N] [--players 20,23,30,47,50,100]

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

from host_device.tournament.measure import measure, pair_ideal  # noqa: E402
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


def figures(players: list[str], rounds: object) -> dict[str, object]:
    m = measure(players, rounds)  # type: ignore[arg-type]
    return {
        "seat_exact": m.seat_exact,
        "seat_even": m.seat_even,
        "games_spread": m.games_spread,
        "pairs": f"{m.pair_min}-{m.pair_max}",
        "pair_term": m.players_score,
        "follow_max": m.follow_max,
        "objective": m.objective,
        "numbers": m.numbers_score,
        "tables": m.tables_score,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="20,23,30,47,50,100")
    args = parser.parse_args()
    for count in (int(n) for n in args.players.split(",")):
        players = [f"p{k:03d}" for k in range(count)]
        wall, cpu = time.perf_counter(), time.process_time()
        seating = seat(players, GAMES, seed=args.seed)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        ours: dict[str, object] = {
            "players": count,
            "cpu_seconds": round(cpu, 2),
            "wall_seconds": round(wall, 2),
        }
        ours |= figures(players, seating.rounds)
        ours["ideal"] = pair_ideal(players, seating.rounds)
        rng = random.Random(args.seed)
        for name, other in (("random", random_seating), ("greedy", greedy_seating)):
            got = figures(players, other(players, GAMES, rng))
            ours[name] = {key: got[key] for key in ("pair_term", "follow_max", "objective")}
        print(json.dumps(ours, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
