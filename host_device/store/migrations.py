"""The store's migrations, frozen: each one's SQL as the version that wrote
it wrote it (its commit named), never derived from today's schema. A change
to the schema is a new migration at the end; a released one is never edited
(its Python may be mended for stores not yet migrated, never its outcome).

Today's schema is what the migrations make (:func:`todays_schema`): a new
store is made by running them all from 0, and a table lost to damage is made
again from what they make. :func:`upgrade` runs every migration a store
lacks, each setting its version, in ONE transaction: a store is migrated
whole or left as it was (a full disk, a power cut)."""

from __future__ import annotations

import functools
import json
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from engine.presets import MAX_SEATS
from host_device.store.connection import transaction

# 1 (b03ffd8): the games and their inputs
GAMES = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    preset TEXT NOT NULL,
    mode TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    names TEXT NOT NULL DEFAULT '{}',
    finished_at TEXT,
    winner TEXT,
    days INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS inputs (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    input TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""
# 2 (5ae5a5c): an undo marks inputs (kept, left out of the record)
UNDONE = "ALTER TABLE inputs ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;"
# 3 (f050f83): the club's roster; a player's id is a UUID, so records from
# several devices merge; a merged entry stays, pointing at the one kept
ROSTER = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    nickname TEXT,
    merged_into TEXT,
    added_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    player TEXT NOT NULL REFERENCES players(id),
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS extras (
    game INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    points REAL NOT NULL,
    PRIMARY KEY (game, seat)
);
"""
# 4 (ecc4f38): each game's UUID (its key in the club's database, however many
# boxes send it), the box's own UUID, and what the club's database was told
# of each finished game (the outbox: host_device/store/outbox.py)
CLUB = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
    game INTEGER PRIMARY KEY REFERENCES games(id),
    digest TEXT NOT NULL,
    state TEXT NOT NULL,
    reason TEXT,
    at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS games_uuid ON games(uuid);
"""
# 5 (i40-tournament): tournaments: their players, pairs kept apart, seating
# (round, table, seat -> player) and which game was which table of which round
TOURNAMENTS = """
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    rounds INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_players (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    player TEXT NOT NULL REFERENCES players(id),
    position INTEGER NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (tournament, player)
);
CREATE TABLE IF NOT EXISTS tournament_apart (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    a TEXT NOT NULL REFERENCES players(id),
    b TEXT NOT NULL REFERENCES players(id),
    PRIMARY KEY (tournament, a, b)
);
CREATE TABLE IF NOT EXISTS tournament_seats (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    tbl INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL REFERENCES players(id),
    PRIMARY KEY (tournament, round, tbl, seat)
);
CREATE TABLE IF NOT EXISTS tournament_games (
    game INTEGER PRIMARY KEY REFERENCES games(id),
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    tbl INTEGER NOT NULL
);
"""


# 6 (issue 51): one game a table of a round; a game annulled (its time) stays in the
# record and out of the standings, and leaves its table of the round free
ONE_GAME_A_TABLE = """
CREATE UNIQUE INDEX IF NOT EXISTS tournament_games_one_a_table
    ON tournament_games(tournament, round, tbl) WHERE annulled_at IS NULL;
"""

# 7 (issue 49): a player's ids on the rating sites (mafiaratings, MWT, Polemica), so
# an export in a site's own format names the site's player
PLAYER_SITES = """
CREATE TABLE IF NOT EXISTS player_sites (
    player TEXT NOT NULL REFERENCES players(id),
    site TEXT NOT NULL,
    site_id TEXT NOT NULL,
    PRIMARY KEY (player, site)
);
"""


def _names_to_roster(db: sqlite3.Connection) -> None:
    """3: each game's names (JSON, games.names: no longer read or written
    since) moved into the roster, one player per distinct name (a new UUID
    each; «Вера» and «вера» are one), and into the seats; one name at two
    seats of a game is two players; a seat no table has is left out (9985ab5).
    A game whose names do not read keeps its record and gets no seats."""
    _statements(db, ROSTER)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    ids: dict[str, str] = {}
    for game, text in db.execute("SELECT id, names FROM games ORDER BY id").fetchall():
        try:
            names = json.loads(text or "{}")
        except (ValueError, TypeError, RecursionError):
            continue
        if not isinstance(names, dict):
            continue
        here: set[str] = set()  # the players of this game
        for seat, name in names.items():
            if not isinstance(name, str) or not name.strip() or not str(seat).isdecimal():
                continue
            if not 1 <= int(seat) <= MAX_SEATS:
                continue
            name = " ".join(name.split())
            key = name.casefold()
            if key not in ids or ids[key] in here:
                player = str(uuid.uuid4())
                ids.setdefault(key, player)
                db.execute("INSERT INTO players (id, name, added_at) VALUES (?, ?, ?)", (player, name, now))
            else:
                player = ids[key]
            here.add(player)
            db.execute(
                "INSERT OR REPLACE INTO seats (game, seat, player) VALUES (?, ?, ?)",
                (game, int(seat), player),
            )


def _game_uuids(db: sqlite3.Connection) -> None:
    """4: a UUID for every game, the box's UUID, the outbox."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if "uuid" not in columns:
        db.execute("ALTER TABLE games ADD COLUMN uuid TEXT")
    for (game,) in db.execute("SELECT id FROM games WHERE uuid IS NULL").fetchall():
        db.execute("UPDATE games SET uuid = ? WHERE id = ?", (str(uuid.uuid4()), game))
    _statements(db, CLUB)
    box_id(db)


def _one_game_a_table(db: sqlite3.Connection) -> None:
    """6: ``tournament_games.annulled_at``; where a table of a round had several games (the
    bug this fixes), the first finished one keeps it (none finished: the first) and the others
    are annulled now (kept; ``tournament game NAME GAME --restore`` takes one back once its
    table is free); then one game not annulled a table of a round (a unique index)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(tournament_games)")}
    if "annulled_at" not in columns:
        db.execute("ALTER TABLE tournament_games ADD COLUMN annulled_at TEXT")
    now = datetime.now(UTC).isoformat(timespec="seconds")
    kept: set[tuple[int, int, int]] = set()
    for game, *where in db.execute(
        "SELECT g.game, g.tournament, g.round, g.tbl FROM tournament_games g "
        "LEFT JOIN games ON games.id = g.game WHERE g.annulled_at IS NULL "
        "ORDER BY g.tournament, g.round, g.tbl, games.finished_at IS NULL, g.game"
    ).fetchall():
        if tuple(where) in kept:
            db.execute("UPDATE tournament_games SET annulled_at = ? WHERE game = ?", (now, game))
        kept.add((where[0], where[1], where[2]))
    _statements(db, ONE_GAME_A_TABLE)


def box_id(db: sqlite3.Connection) -> str:
    """This store's box: a UUID made once, the sender of its games to the club."""
    row = db.execute("SELECT value FROM meta WHERE key = 'box'").fetchone()
    if row is not None:
        return str(row[0])
    made = str(uuid.uuid4())
    db.execute("INSERT INTO meta (key, value) VALUES ('box', ?)", (made,))
    return made


def _statements(db: sqlite3.Connection, sql: str) -> None:
    """Each statement of ``sql`` inside the transaction already open (executescript would commit it)."""
    for statement in sql.split(";"):
        if statement.strip():
            db.execute(statement)


# to each version from the one before: SQL, or a function for what SQL alone cannot do
MIGRATIONS: dict[int, str | Callable[[sqlite3.Connection], None]] = {
    1: GAMES,
    2: UNDONE,
    3: _names_to_roster,
    4: _game_uuids,
    5: TOURNAMENTS,
    6: _one_game_a_table,
    7: PLAYER_SITES,
}
SCHEMA_VERSION = max(MIGRATIONS)


def upgrade(db: sqlite3.Connection) -> None:
    """Every migration the store lacks (all of them for a new one), in order,
    each ending with its version, all in one transaction. The version is read
    inside it: another program that migrated the store meanwhile is seen."""
    with transaction(db):
        found = db.execute("PRAGMA user_version").fetchone()[0]
        for version in range(found + 1, SCHEMA_VERSION + 1):
            migration = MIGRATIONS[version]
            if isinstance(migration, str):
                _statements(db, migration)
            else:
                migration(db)
            db.execute(f"PRAGMA user_version={version}")


@dataclass(frozen=True)
class Schema:
    """Today's schema: each table and index as SQLite keeps it (name, SQL;
    the tables first), and each table's columns."""

    made_by: tuple[tuple[str, str], ...]
    columns: tuple[tuple[str, frozenset[str]], ...]


@functools.cache
def todays_schema() -> Schema:
    """What the migrations make, read from a store they make in memory."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    try:
        upgrade(db)
        made_by = db.execute(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type = 'index', rowid"
        ).fetchall()
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        columns = [(t, frozenset(row[1] for row in db.execute(f"PRAGMA table_info({t})"))) for t in tables]
    finally:
        db.close()
    return Schema(tuple(made_by), tuple(columns))
