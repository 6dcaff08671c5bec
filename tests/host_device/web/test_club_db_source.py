"""The club pages' records kept from the club's database (a real PostgreSQL):
the finished ones stay in the database's own order (start time, then UUID)
as games arrive out of order, are corrected by their box, removed by hand,
or the roster changes; a new game is the only record fetched; the first
reading is moved out of the garbage collector's reach."""

import dataclasses
import datetime
import gc
import uuid

import pytest

from host_device.club.package import content_digest, package_of
from host_device.clubdb.db import ClubDB
from host_device.store import Store
from host_device.web.club_db_source import ClubDbSource
from tests.helpers.clubdb import play, seat_all
from tests.helpers.postgres import fresh_database, postgres_server

FIXTURES = (postgres_server, fresh_database)  # pytest finds them by their names
NOON = datetime.datetime(2026, 5, 1, 12, tzinfo=datetime.UTC)


@pytest.fixture
def base(tmp_path):
    """A finished game's package, two players seated."""
    store = Store(tmp_path / "box.sqlite3")
    game = play(store)
    seat_all(store, game, [store.roster.add_player(n).id for n in ("Анна", "Борис")])
    made = package_of(store, game)
    store.close()
    return made


def at(base, minutes, game=None):
    """The game started ``minutes`` after noon (its own UUID, or ``game``'s: the same game corrected)."""
    game = game or str(uuid.uuid4())
    start = (NOON + datetime.timedelta(minutes=minutes)).isoformat(timespec="seconds")
    made = dataclasses.replace(
        base,
        uuid=game,
        started_at=start,
        finished_at=start,
        record={**base.record, "uuid": game, "started_at": start, "finished_at": start},
        digest="",
    )
    return dataclasses.replace(made, digest=content_digest(made))


def test_the_kept_records_stay_in_the_database_order(fresh_database, base):
    db = ClubDB.open(fresh_database)
    db.init()
    source = ClubDbSource(fresh_database)

    def same_order():
        source.refresh(db.state())
        assert [r.uuid for r in source.finished()] == [r.uuid for r in db.records()]

    try:
        for minutes in (30, 10, 50):
            db.receive(at(base, minutes))
        same_order()
        assert source.fetched == 3
        db.receive(at(base, 0))  # earlier than every kept one
        same_order()
        db.receive(at(base, 40))  # between two
        db.receive(at(base, 60))  # and the last, both in one refresh
        same_order()
        assert source.fetched == 6  # only the new ones read
        db.receive(at(base, 40))  # the same start as one kept: the UUIDs decide
        same_order()
        first = source.finished()[0]
        assert db.receive(at(base, 45, first.uuid)) == "updated"  # its box corrected its start
        same_order()
        assert source.finished()[0].uuid != first.uuid
        db.conn.execute("DELETE FROM games WHERE uuid = %s", (source.finished()[1].uuid,))  # by hand
        same_order()
        db.receive(at(base, 5))
        same_order()
        db.conn.execute("UPDATE players SET name = 'Анна Петровна' WHERE name = 'Анна'")
        same_order()  # every record read again (each shows the names)
        assert "Анна Петровна" in {s.name for s in source.finished()[0].seats}
        assert len(source.finished()) == 7
    finally:
        source.close()
        db.close()


def test_the_first_reading_is_out_of_the_collectors_reach(fresh_database, base):
    with ClubDB.open(fresh_database) as db:
        db.init()
        for minutes in range(20):
            db.receive(at(base, minutes))
        state = db.state()
    source = ClubDbSource(fresh_database)
    try:
        source.refresh(state)
        assert len(source.finished()) == 20
        # each record (its seats, nights, ballots) frozen: out of what a collection walks
        walked = {id(o) for o in gc.get_objects()}
        seats = [seat for record in source.finished() for seat in record.seats]
        assert seats and all(gc.is_tracked(s) and id(s) not in walked for s in seats)
        assert all(id(record) not in walked for record in source.finished())
    finally:
        gc.unfreeze()  # the rest of this worker's tests run with a collector that walks everything
        source.close()


def test_a_game_sent_during_a_reading_is_left_for_the_next(fresh_database, base, monkeypatch):
    """A box sends a game between the digests' read and the records' read: the reading keeps
    what it has digests for (it failed with a KeyError), and the next reading takes the game."""
    with ClubDB.open(fresh_database) as db:
        db.init()
        for minutes in range(3):
            db.receive(at(base, minutes))
        state = db.state()
    real = ClubDB.game_keys
    late = at(base, 10)

    def keys_then_a_box_sends(self):
        found = real(self)
        if late is not None:
            with ClubDB.open(fresh_database) as other:
                other.receive(late)
        return found

    monkeypatch.setattr(ClubDB, "game_keys", keys_then_a_box_sends)
    source = ClubDbSource(fresh_database)
    try:
        source.refresh(state)
        assert len(source.finished()) == 3
        late = None
        with ClubDB.open(fresh_database) as db:
            source.refresh(db.state())
        assert len(source.finished()) == 4
    finally:
        gc.unfreeze()
        source.close()
