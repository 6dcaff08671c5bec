"""Benchmark of the game store, printing one JSON object: the time to commit
one input (median, 99th percentile) on this machine's disk; the time to
resume (read and replay) a game of 300 inputs; the time to open the store
for writing (its integrity check included); the store's size per game.

    .venv/bin/python bench/store.py [--dir DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def random_game(seed: int, length: int) -> list[object]:
    """A legal game of ``length`` inputs (or until it ends)."""
    from engine import Advance, DealRoles, Foul, Game, Phase, Role

    rng = random.Random(seed)
    seats = rng.sample(range(1, 11), 4)
    game = Game("classic")
    game.handle(
        DealRoles(
            roles=(
                (seats[0], Role.DON),
                (seats[1], Role.MAFIA),
                (seats[2], Role.MAFIA),
                (seats[3], Role.SHERIFF),
            )
        )
    )
    while len(game.record) < length and game.phase is not Phase.GAME_OVER:
        legal = [i for i in game.legal_inputs() if not isinstance(i, Foul)]
        game.handle(rng.choice([Advance()] * 2 + legal))
    return list(game.record)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", help="where to put the store (default: a temporary folder)")
    args = parser.parse_args()
    from engine import Game
    from host_device.store import Store

    base = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="bench-store-"))
    store = Store(base / "bench.sqlite3")
    commits: list[float] = []
    lengths = []
    games = 0
    for seed in range(40):
        record = random_game(seed, 300)
        game_id = store.games.new_game("classic", "bench")
        for seq, inp in enumerate(record, start=1):
            t0 = time.perf_counter()
            store.games.append(game_id, seq, float(seq), inp)
            commits.append(time.perf_counter() - t0)
        lengths.append(len(record))
        games += 1
    longest = max(range(games), key=lambda i: lengths[i]) + 1
    resumes = []
    for _ in range(5):
        t0 = time.perf_counter()
        game = Game.replay("classic", [inp for _, _, inp in store.games.inputs(longest)])
        resumes.append(time.perf_counter() - t0)
    store.close()
    opens = []  # opening for writing: the header read, the integrity check, the schema made whole
    for _ in range(5):
        t0 = time.perf_counter()
        Store(base / "bench.sqlite3").close()
        opens.append(time.perf_counter() - t0)
    size = sum(p.stat().st_size for p in base.glob("bench.sqlite3*"))
    ordered = sorted(commits)
    print(
        json.dumps(
            {
                "benchmark": "store",
                "disk": str(base),
                "commit_ms": {
                    "median": round(statistics.median(commits) * 1000, 3),
                    "p99": round(ordered[int(0.99 * (len(ordered) - 1))] * 1000, 3),
                    "n": len(commits),
                },
                "resume_ms": {
                    "inputs": lengths[longest - 1],
                    "median": round(statistics.median(resumes) * 1000, 2),
                    "phase": game.phase.value,
                },
                "open_for_writing_ms": {"games": games, "median": round(statistics.median(opens) * 1000, 2)},
                "bytes_per_game": round(size / games),
                "inputs_per_game_mean": round(statistics.mean(lengths), 1),
            }
        )
    )


if __name__ == "__main__":
    main()
