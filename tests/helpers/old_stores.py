"""The old stores of tests/data/stores (each made by the old code: its
README says how), and what a store holds as the migration tests compare it.

``content`` is JSON-plain, so that a store read in another process (on a
small tmpfs, after a kill) compares with one read here; the UUIDs a
migration makes (the games', the box's) are new at each migration, so they
are kept apart in ``uuids``."""

import json
import shutil
import sqlite3
from pathlib import Path

from engine.serial import to_dict
from tests.helpers.paths import ROOT

OLD_STORES = ROOT / "tests" / "data" / "stores"
VERSIONS = (1, 2, 3, 4)


def old_store(version: int, folder: Path) -> Path:
    """A copy of the store of that schema, as ``folder/games.sqlite3`` (0: no file, a new store)."""
    path = folder / "games.sqlite3"
    if version:
        shutil.copyfile(OLD_STORES / f"schema-{version}.sqlite3", path)
    return path


def raw(path: Path) -> tuple[int, list[str]]:
    """What the file holds, read by SQLite alone: its schema version and its dump."""
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA user_version").fetchone()[0], list(db.iterdump())
    finally:
        db.close()


def content(store) -> dict:
    """Every game of a store (its row, settings, record, undone inputs, who
    sat where, extra points, the state its record replays to), the roster,
    the games waiting for the club; and apart, the UUIDs."""
    games = []
    for row in store.games.all():
        gid = row.id
        games.append(
            {
                "row": [gid, row.started_at, row.preset, row.mode, row.finished_at, row.winner, row.days],
                "settings": store.games.settings(gid),
                "record": [[seq, t, to_dict(inp)] for seq, t, inp in store.games.inputs(gid)],
                "undone": [[seq, t, to_dict(inp)] for seq, t, inp in store.games.undone(gid)],
                "seats": {str(seat): [p.name, p.nickname] for seat, p in store.roster.seating(gid).items()},
                "extras": {str(seat): points for seat, points in store.roster.extras(gid).items()},
                "state": repr(store.games.replay(gid).state),
            }
        )
    held = {
        "games": games,
        "players": sorted([p.name, p.nickname or ""] for p in store.roster.players()),
        "waiting": [gid for gid, _ in store.outbox.waiting()],
        "uuids": {
            "box": store.box_id(),
            **{str(g.id): store.games.game_uuid(g.id) for g in store.games.all()},
        },
    }
    return json.loads(json.dumps(held, ensure_ascii=False))


def players_by_seat(store) -> dict[tuple[int, int], str]:
    """(game, seat) -> player id, over every game: which seats are one person."""
    return {(g.id, seat): p.id for g in store.games.all() for seat, p in store.roster.seating(g.id).items()}
