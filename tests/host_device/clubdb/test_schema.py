"""The club database's schema: made by init, versioned, init again a no-op,
a newer version or someone else's tables refused in one line."""

import pytest

from host_device.clubdb import schema
from host_device.clubdb.db import ClubDB
from host_device.clubdb.errors import ClubDbError, WrongSchema
from tests.helpers.postgres import fresh_database, postgres_server

FIXTURES = (postgres_server, fresh_database)  # pytest finds them by their names


def test_init_makes_the_schema_and_again_is_a_no_op(fresh_database, postgres_server):
    with ClubDB.open(fresh_database) as db:
        assert db.version() == 0
        assert db.init() == (0, schema.SCHEMA_VERSION)
        assert db.version() == schema.SCHEMA_VERSION
        db.conn.execute(
            "INSERT INTO players (id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'Аня')"
        )
    with ClubDB.open(fresh_database) as db:
        assert db.init() == (schema.SCHEMA_VERSION, schema.SCHEMA_VERSION)
        assert db.counts().players == 1  # nothing made again, nothing lost
    name = fresh_database.rsplit("/", 1)[1]
    tables = postgres_server.psql(
        "SELECT string_agg(table_name, ',' ORDER BY table_name) FROM "
        "information_schema.tables WHERE table_schema = 'public'",
        name,
    )
    assert tables == (
        "club_changes,club_schema,games,players,seats,tournament_games,tournament_links_refused,"
        "tournament_seating,"
        "tournament_tables_taken"
    )


def test_a_newer_database_is_refused_naming_both_versions(fresh_database):
    with ClubDB.open(fresh_database) as db:
        db.init()
        db.conn.execute("UPDATE club_schema SET version = 7")
    with ClubDB.open(fresh_database) as db:
        with pytest.raises(WrongSchema) as raised:
            db.init()
        with pytest.raises(WrongSchema):
            db.records()
    line = str(raised.value)
    assert "версии 7" in line and f"до {schema.SCHEMA_VERSION}" in line and "обновите host-device" in line
    assert "\n" not in line and "secret" not in line


def test_an_older_or_empty_database_says_club_init(fresh_database):
    with ClubDB.open(fresh_database) as db:
        with pytest.raises(WrongSchema, match="club init"):
            db.counts()
        db.init()
        db.conn.execute("UPDATE club_schema SET version = 0")
        db._ready = False
        with pytest.raises(WrongSchema, match="club init"):
            db.counts()


def test_someone_elses_tables_are_not_touched(fresh_database, postgres_server):
    name = fresh_database.rsplit("/", 1)[1]
    postgres_server.psql("CREATE TABLE games (id serial PRIMARY KEY, title text)", name)
    with ClubDB.open(fresh_database) as db, pytest.raises(WrongSchema, match="не база клуба") as raised:
        db.init()
    assert "\n" not in str(raised.value)
    columns = postgres_server.psql(
        "SELECT string_agg(column_name, ',' ORDER BY column_name) FROM information_schema.columns "
        "WHERE table_name = 'games'",
        name,
    )
    assert columns == "id,title"
    assert (
        postgres_server.psql(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = 'club_schema'", name
        )
        == "0"
    )


def test_a_migration_step_that_fails_leaves_nothing(fresh_database, monkeypatch):
    monkeypatch.setattr(
        schema, "MIGRATIONS", [*schema.MIGRATIONS[:1], ["CREATE TABLE extra (x int)", "SELECT 1/0"]]
    )
    monkeypatch.setattr(schema, "SCHEMA_VERSION", 2)
    with ClubDB.open(fresh_database) as db:
        with pytest.raises(ClubDbError, match="division by zero"):
            db.init()
        assert db.version() == 0  # the whole of init is one transaction


def test_two_inits_at_once_make_the_schema_once(fresh_database):
    import threading

    found, errors = [], []
    start = threading.Barrier(3)

    def init():
        try:
            with ClubDB.open(fresh_database) as db:
                start.wait()
                found.append(db.init()[0])
        except Exception as exc:  # the test names it
            errors.append(exc)

    threads = [threading.Thread(target=init) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and sorted(found) == [0, schema.SCHEMA_VERSION, schema.SCHEMA_VERSION]
