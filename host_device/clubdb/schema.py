"""The club database's schema, as versioned migrations: each version a list
of SQL steps, applied in order in one transaction by ``host-device club
init``; the version reached is kept in ``club_schema`` (one row). Running
init again is a no-op; a database of a newer version, or one whose tables
are someone else's, is refused (WrongSchema), never touched.

    players(id, name, nickname, merged_into, changed_at)   -- the club's roster, by the boxes' UUIDs
    games(id, uuid, box, local_id, started_at, finished_at, preset, mode, winner, days,
          settings, inputs, extras, record, digest, received_at, updated_at)
    seats(game, seat, player)                               -- who sat where (the box's UUIDs)
    club_changes(games, players)  -- rows written to games and seats, to players (triggers): state()
    tournament_games(game, tournament, round, tbl, annulled_at)  -- v2: a game as a table of a round
                                                            --   (by name); v5: annulled, one a table
    tournament_seating(tournament, seating, published_at)   -- v3: a tournament's seating, as its file
    tournament_tables_taken(tournament, round, tbl, taken_at)        -- v4: a table of a round begun
    tournament_links_refused(game, tournament, round, tbl, held_by)  -- v5: a link a box asked for, refused

``games.id`` is the club's number of a game (its page's address); ``uuid``
its key however many boxes send it; ``record`` the box's reading of the
game (host_device/club/record_json.py), ``inputs`` and ``settings`` the game
itself (replayable anywhere)."""

from __future__ import annotations

from typing import Any

from host_device.clubdb.errors import WrongSchema, shown

VERSION_TABLE = "club_schema"
OURS = ("players", "games", "seats")  # tables of ours: present without club_schema, the database is another's

MIGRATIONS: list[list[str]] = [
    # version 1
    [
        f"""CREATE TABLE {VERSION_TABLE} (
            one boolean PRIMARY KEY DEFAULT true CHECK (one),
            version integer NOT NULL,
            migrated_at timestamptz NOT NULL DEFAULT now()
        )""",
        """CREATE TABLE players (
            id uuid PRIMARY KEY,
            name text NOT NULL,
            nickname text,
            merged_into uuid,
            changed_at timestamptz NOT NULL DEFAULT now()
        )""",
        """CREATE TABLE games (
            id bigserial PRIMARY KEY,
            uuid uuid NOT NULL UNIQUE,
            box uuid NOT NULL,
            local_id integer NOT NULL,
            started_at timestamptz NOT NULL,
            finished_at timestamptz,
            preset text NOT NULL,
            mode text NOT NULL,
            winner text,
            days integer NOT NULL,
            settings jsonb NOT NULL,
            inputs jsonb NOT NULL,
            extras jsonb NOT NULL,
            record jsonb NOT NULL,
            digest text NOT NULL,
            received_at timestamptz NOT NULL DEFAULT now(),
            updated_at timestamptz
        )""",
        "CREATE INDEX games_in_time ON games (started_at, uuid)",
        """CREATE TABLE seats (
            game bigint NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat integer NOT NULL,
            player uuid NOT NULL,
            PRIMARY KEY (game, seat)
        )""",
        "CREATE INDEX seats_player ON seats (player)",
        # what changed, counted by the rows written (by host-device or by hand): the pages' state()
        """CREATE TABLE club_changes (
            one boolean PRIMARY KEY DEFAULT true CHECK (one),
            games bigint NOT NULL DEFAULT 0,
            players bigint NOT NULL DEFAULT 0
        )""",
        "INSERT INTO club_changes DEFAULT VALUES",
        """CREATE FUNCTION club_games_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN UPDATE club_changes SET games = games + 1; RETURN NULL; END $$""",
        """CREATE FUNCTION club_players_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN UPDATE club_changes SET players = players + 1; RETURN NULL; END $$""",
        """CREATE TRIGGER games_changed AFTER INSERT OR UPDATE OR DELETE ON games
        FOR EACH ROW EXECUTE FUNCTION club_games_changed()""",
        """CREATE TRIGGER seats_changed AFTER INSERT OR UPDATE OR DELETE ON seats
        FOR EACH ROW EXECUTE FUNCTION club_games_changed()""",
        """CREATE TRIGGER players_changed AFTER INSERT OR UPDATE OR DELETE ON players
        FOR EACH ROW EXECUTE FUNCTION club_players_changed()""",
    ],
    # version 2: a game as a table of a tournament's round (the box's tournament_games, by name)
    [
        """CREATE TABLE tournament_games (
            game bigint PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            tournament text NOT NULL,
            round integer NOT NULL,
            tbl integer NOT NULL
        )""",
        "CREATE INDEX tournament_games_by_name ON tournament_games (tournament, round, tbl)",
        """CREATE TRIGGER tournament_games_changed AFTER INSERT OR UPDATE OR DELETE ON tournament_games
        FOR EACH ROW EXECUTE FUNCTION club_games_changed()""",
    ],
    # version 3: a tournament's seating published for the boxes (the seating file's JSON, by name)
    [
        """CREATE TABLE tournament_seating (
            tournament text PRIMARY KEY,
            seating jsonb NOT NULL,
            published_at timestamptz NOT NULL DEFAULT now()
        )""",
        """CREATE TRIGGER tournament_seating_changed AFTER INSERT OR UPDATE OR DELETE ON tournament_seating
        FOR EACH ROW EXECUTE FUNCTION club_games_changed()""",
    ],
    # version 4: a table of a round taken by a box from the published seating (the round has begun
    # there: `tournament seat --club-db` keeps it, the venue screen shows it as the round played)
    [
        """CREATE TABLE tournament_tables_taken (
            tournament text NOT NULL,
            round integer NOT NULL,
            tbl integer NOT NULL,
            taken_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (tournament, round, tbl)
        )""",
        """CREATE TRIGGER tournament_tables_taken_changed AFTER INSERT OR UPDATE OR DELETE
        ON tournament_tables_taken FOR EACH ROW EXECUTE FUNCTION club_games_changed()""",
    ],
    # version 5 (issue 51): one game a table of a round. A game annulled (its time) stays, out of
    # the standings, its table free; where a table of a round had several, the first received
    # keeps it and the others are annulled (`tournament game --restore` takes one back). A box's
    # game whose table of the round another holds is stored unlinked, the link it asked for kept
    # in tournament_links_refused (the organiser sees it under the standings)
    [
        "ALTER TABLE tournament_games ADD COLUMN annulled_at timestamptz",
        """UPDATE tournament_games g SET annulled_at = now() WHERE EXISTS (SELECT 1 FROM tournament_games o
        WHERE o.tournament = g.tournament AND o.round = g.round AND o.tbl = g.tbl AND o.game < g.game)""",
        """CREATE UNIQUE INDEX tournament_games_one_a_table ON tournament_games (tournament, round, tbl)
        WHERE annulled_at IS NULL""",
        """CREATE TABLE tournament_links_refused (
            game bigint PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            tournament text NOT NULL,
            round integer NOT NULL,
            tbl integer NOT NULL,
            held_by bigint NOT NULL,
            refused_at timestamptz NOT NULL DEFAULT now()
        )""",
        """CREATE TRIGGER tournament_links_refused_changed AFTER INSERT OR UPDATE OR DELETE
        ON tournament_links_refused FOR EACH ROW EXECUTE FUNCTION club_games_changed()""",
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)
LOCK = 0x636C7562  # pg_advisory_xact_lock's key: one init at a time ("club")


def _tables(conn: Any) -> set[str]:
    rows = conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
    ).fetchall()
    return {name for (name,) in rows}


def version_of(conn: Any, url: str) -> int:
    """The database's schema version: 0 when it is empty of ours (init makes it);
    WrongSchema when its tables are someone else's."""
    tables = _tables(conn)
    if VERSION_TABLE in tables:
        row = conn.execute(f"SELECT version FROM {VERSION_TABLE}").fetchone()
        return int(row[0]) if row else 0
    foreign = sorted(tables & set(OURS))
    if foreign:
        raise WrongSchema(
            f"{shown(url)}: это не база клуба (есть таблицы {', '.join(foreign)}, "
            f"но нет {VERSION_TABLE}); укажите пустую базу: createdb и host-device club init --club-db URL"
        )
    return 0


def newer(url: str, version: int) -> WrongSchema:
    return WrongSchema(
        f"{shown(url)}: база клуба версии {version}, а эта версия host-device знает версии до "
        f"{SCHEMA_VERSION}; обновите host-device на этой машине"
    )


def older(url: str, version: int) -> WrongSchema:
    if version == 0:
        return WrongSchema(
            f"{shown(url)}: база клуба ещё не создана; создайте её: host-device club init --club-db URL"
        )
    return WrongSchema(
        f"{shown(url)}: база клуба версии {version}, а эта версия host-device работает с версией "
        f"{SCHEMA_VERSION}; обновите её: host-device club init --club-db URL"
    )


def migrate(conn: Any, url: str) -> tuple[int, int]:
    """The schema brought to SCHEMA_VERSION in one transaction: (the version found, the version now)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
        found = version_of(conn, url)
        if found > SCHEMA_VERSION:
            raise newer(url, found)
        for version in range(found + 1, SCHEMA_VERSION + 1):
            for step in MIGRATIONS[version - 1]:
                conn.execute(step)
        if found < SCHEMA_VERSION:
            conn.execute(
                f"INSERT INTO {VERSION_TABLE} (one, version) VALUES (true, %s) "
                "ON CONFLICT (one) DO UPDATE SET version = EXCLUDED.version, migrated_at = now()",
                (SCHEMA_VERSION,),
            )
    return found, SCHEMA_VERSION
