"""Finished games in a store, many of them quickly: one full classic game
simulated, then copied row by row under new UUIDs and later start times (a
copy replays as the original does), for the outbox's, the sender's and the
bench's stores."""

from __future__ import annotations

import datetime
import uuid
from typing import Any

from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from tests.helpers.paths import ROOT

FULL = ROOT / "examples" / "classic-full-game.json"


def _fixed(key: str, slots: Any) -> float:
    return 1.0


def finished_games(store: Any, count: int, start: str = "2026-03-01T18:00:00+00:00") -> list[int]:
    """``count`` more finished games in ``store`` (the first simulated, the
    rest copies of it), each a minute after the one before; their ids."""
    mine = [g.id for g in store.games.all() if g.winner is not None]
    made = []
    if not mine:
        simulate(load_script(FULL), _fixed, store=store)
        mine = [g.id for g in store.games.all() if g.winner is not None]
        made, count = mine[:1], count - 1
        store.db.execute(
            "UPDATE games SET started_at = ?, finished_at = ? WHERE id = ?", (start, start, mine[0])
        )
    source = mine[0]
    base = datetime.datetime.fromisoformat(start)
    last = store.db.execute("SELECT count(*) FROM games").fetchone()[0]
    db = store.db
    db.execute("BEGIN")
    for n in range(count):
        at = (base + datetime.timedelta(minutes=last + n)).isoformat()
        cur = db.execute(
            "INSERT INTO games (started_at, preset, mode, settings, finished_at, winner, days, uuid) "
            "SELECT ?, preset, mode, settings, ?, winner, days, ? FROM games WHERE id = ?",
            (at, at, str(uuid.uuid4()), source),
        )
        game = int(cur.lastrowid or 0)
        db.execute(
            "INSERT INTO inputs (game, seq, t, input, undone) SELECT ?, seq, t, input, undone "
            "FROM inputs WHERE game = ?",
            (game, source),
        )
        made.append(game)
    db.execute("COMMIT")
    return made
