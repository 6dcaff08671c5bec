"""Receiving a box's finished games in the club's database (a real
PostgreSQL): stored, the same again, updated by its own box, refused from
another; one UUID received by two connections at once stored once; the
roster merged by UUID, the newest name kept; each fault one line."""

import dataclasses
import threading

import pytest

from host_device.club.build import record_of
from host_device.club.package import content_digest, package_of
from host_device.clubdb.db import ClubDB, Counts, UnknownClubGame
from host_device.clubdb.errors import AccessDenied, BadUrl, DiskFull, Refused, Unreachable, WrongSchema
from host_device.store import Store
from tests.helpers.clubdb import play, seat_all
from tests.helpers.postgres import PASSWORD, fill, fresh_database, new_server, postgres_server

FIXTURES = (postgres_server, fresh_database)  # pytest finds them by their names


@pytest.fixture
def db(fresh_database):
    with ClubDB.open(fresh_database) as club:
        club.init()
        yield club


@pytest.fixture
def box(tmp_path):
    store = Store(tmp_path / "box.sqlite3")
    yield store
    store.close()


def other_box(package):
    return dataclasses.replace(package, box="11111111-2222-4333-8444-555555555555")


def test_a_game_is_stored_then_the_same(db, box):
    game = play(box)
    anna, boris = box.roster.add_player("Аня"), box.roster.add_player("Борис")
    seat_all(box, game, [anna.id, boris.id])
    package = package_of(box, game)
    assert db.receive(package) == "stored"
    assert db.receive(package) == "same"
    assert db.receive(package_of(box, game)) == "same"
    assert db.counts().games == 1 and db.counts().players == 2 and db.counts().boxes == 1
    (record,) = db.records()
    local = record_of(box, game)
    assert record.uuid == package.uuid and record.id != 0
    assert dataclasses.replace(record, id=local.id) == local
    assert db.record(record.id) == record
    with pytest.raises(UnknownClubGame, match="Нет игры 999"):
        db.record(999)


def test_its_own_box_updates_it_another_box_is_refused(db, box):
    game = play(box)
    anna = box.roster.add_player("Аня")
    box.roster.seat_player(game, 1, anna.id)
    first = package_of(box, game)
    assert db.receive(first) == "stored"
    (before,) = db.records()
    vera = box.roster.add_player("Вера")
    box.roster.seat_player(game, 2, vera.id)  # the host corrects the game afterwards
    box.roster.set_extra(game, 1, 0.5)
    corrected = package_of(box, game)
    assert corrected.digest != first.digest
    assert db.receive(corrected) == "updated"
    (after,) = db.records()
    assert after.id == before.id  # its page's address stays
    assert after.seat(2).name == "Вера" and after.extras == {1: 0.5}
    assert db.conn.execute("SELECT count(*) FROM seats").fetchone()[0] == 2
    with pytest.raises(Refused) as refused:
        db.receive(other_box(first))
    line = str(refused.value)
    assert first.uuid[:8] in line and first.box[:8] in line and "11111111" in line and "первую" in line
    assert "\n" not in line
    assert db.records() == [after]  # nothing of the refused one taken
    assert db.receive(other_box(corrected)) == "same"  # the same game from another box: a no-op


def test_two_connections_receiving_one_game_store_it_once(db, box, fresh_database):
    game = play(box)
    package = package_of(box, game)
    results, errors = [], []
    start = threading.Barrier(4)

    def send():
        try:
            with ClubDB.open(fresh_database) as mine:
                mine._check()
                start.wait()
                results.append(mine.receive(package))
        except Exception as exc:  # the test says which
            errors.append(exc)

    threads = [threading.Thread(target=send) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(results) == ["same", "same", "same", "stored"]
    assert db.counts().games == 1
    assert db.conn.execute("SELECT count(*) FROM seats").fetchone()[0] == 0


def test_two_boxes_racing_different_records_keep_one(db, box, fresh_database):
    game = play(box)
    package = package_of(box, game)
    rival = other_box(dataclasses.replace(package, extras={1: 0.3}))
    rival = dataclasses.replace(rival, digest=content_digest(rival))
    outcomes = []
    start = threading.Barrier(2)

    def send(which):
        with ClubDB.open(fresh_database) as mine:
            mine._check()
            start.wait()
            try:
                outcomes.append(mine.receive(which))
            except Refused:
                outcomes.append("refused")

    threads = [threading.Thread(target=send, args=(p,)) for p in (package, rival)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["refused", "stored"]
    assert db.counts().games == 1


def test_the_roster_merges_by_uuid_and_keeps_the_newest_name(db, box, tmp_path):
    other = Store(tmp_path / "other.sqlite3")
    try:
        anna = box.roster.add_player("Аня")
        gleb = box.roster.add_player("Глеб")
        other.roster.import_players([(anna.id, "Аня", None, None, None), (gleb.id, "Глеб", None, None, None)])
        first = play(box)
        seat_all(box, first, [anna.id, gleb.id])
        second = play(other, "event-game.json")
        seat_all(other, second, [gleb.id, anna.id])
        assert db.receive(package_of(box, first)) == "stored"
        assert db.receive(package_of(other, second)) == "stored"
        assert db.counts().players == 2  # one Аня, one Глеб: the same UUIDs
        other.roster.rename_player(anna.id, "Анна Петрова", "Пчёлка")
        assert db.receive(package_of(other, second)) == "same"  # a resend brings the new name
        by = {r.uuid: r for r in db.records()}
        one, two = by[box.games.game_uuid(first)], by[other.games.game_uuid(second)]
        assert (one.seat(1).name, one.seat(2).name) == ("Анна Петрова", "Глеб")
        assert two.seat(2).name == "Анна Петрова" and two.seat(2).player == anna.id
        assert (
            db.conn.execute("SELECT nickname FROM players WHERE id = %s", (anna.id,)).fetchone()[0]
            == "Пчёлка"
        )
        # the box merges Глеб into a new entry: the club follows the merge, and keeps it
        new = box.roster.add_player("Глеб Иванов")
        box.roster.merge_players(new.id, gleb.id)
        third = play(box, "city-game.json")
        box.roster.seat_player(third, 1, new.id)
        assert db.receive(package_of(box, third)) == "stored"
        assert db.counts().players == 2  # Аня and Глеб Иванов: the merged entry is no player
        records = db.records()
        assert all(r.seat(n).player != gleb.id for r in records for n in (1, 2))
        two = next(r for r in records if r.uuid == other.games.game_uuid(second))
        assert two.seat(1).player == new.id and two.seat(1).name == "Глеб Иванов"
        assert db.receive(package_of(other, second)) == "same"  # a box that has not heard of the merge
        two = next(r for r in db.records() if r.uuid == other.games.game_uuid(second))
        assert two.seat(1).player == new.id
    finally:
        other.close()


def test_records_are_in_time_order_and_finished_only(db, box):
    late = play(box)
    early = play(box, "event-game.json")
    box.db.execute("UPDATE games SET started_at = '2026-01-01T10:00:00+00:00' WHERE id = ?", (early,))
    unfinished = play(box, "classic-game.json")
    assert box.games.game(unfinished).winner is None
    for game in (late, early):
        db.receive(package_of(box, game))
    records = db.records()
    assert [r.uuid for r in records] == [box.games.game_uuid(early), box.games.game_uuid(late)]
    assert [r.id for r in records] == [2, 1]  # the club's numbers, in the order received


def test_state_changes_with_games_and_names(db, box):
    game = play(box)
    anna = box.roster.add_player("Аня")
    box.roster.seat_player(game, 1, anna.id)
    empty = db.state()
    db.receive(package_of(box, game))
    stored = db.state()
    assert stored != empty and db.state() == stored
    db.receive(package_of(box, game))
    assert db.state() == stored  # a resend changes nothing
    box.roster.rename_player(anna.id, "Анна")
    db.receive(package_of(box, game))
    assert db.state() != stored


def test_faults_are_one_line_without_the_password(postgres_server, fresh_database):
    name = fresh_database.rsplit("/", 1)[1]
    cases = [
        ("mysql://club:hunter2@localhost/club", BadUrl, "не адрес PostgreSQL"),
        ("postgresql://club:hunter2@[::1/club", BadUrl, "не читается"),
        ("postgresql://club:hunter2@127.0.0.1:abc/club", BadUrl, "не читается"),
        (postgres_server.url(name, password="hunter2"), AccessDenied, "с этим паролем"),
        (postgres_server.url("no_such_club").replace(PASSWORD, "hunter2"), AccessDenied, "паролем"),
        (postgres_server.url("no_such_club"), WrongSchema, "createdb"),
        ("postgresql://club:hunter2@no-such-host.invalid/club", Unreachable, "не найден"),
        ("postgresql://club:hunter2@127.0.0.1:1/club", Unreachable, "не принимает соединений"),
    ]
    for url, kind, words in cases:
        with pytest.raises(kind) as raised:
            ClubDB.open(url).counts()
        line = str(raised.value)
        assert words in line, (url, line)
        assert "\n" not in line and "hunter2" not in line and PASSWORD not in line, line


def test_a_full_disk_on_the_server_is_one_line_and_stores_nothing(postgres_server, box):
    game = play(box)
    anna = box.roster.add_player("Аня")
    box.roster.seat_player(game, 1, anna.id)
    package = package_of(box, game)
    with postgres_server.small_disk(16) as url, ClubDB.open(url) as db:
        db.init()
        assert fill(url) > 0
        with pytest.raises(DiskFull) as raised:
            db.receive(package)
        line = str(raised.value)
        assert "кончилось место" in line and "\n" not in line and PASSWORD not in line
        assert isinstance(raised.value, Unreachable)  # the box keeps the game and tries again
        assert db.counts() == Counts(0, 0, 0, 0)  # nothing half-stored
        db.conn.execute("DROP TABLE filler")
        assert db.receive(package) == "stored"
        assert db.counts() == Counts(1, 1, 1, 1)


@pytest.mark.slow
def test_a_server_killed_is_one_line_and_the_game_is_stored_once_after(box):
    game = play(box)
    package = package_of(box, game)
    server = new_server()
    try:
        server.start()
        url = server.create_database("club")
        with ClubDB.open(url) as db:
            db.init()
            server.kill()  # as in a crash, the connection open
            with pytest.raises(Unreachable) as raised:
                db.receive(package)
            assert "\n" not in str(raised.value) and PASSWORD not in str(raised.value)
        with pytest.raises(Unreachable, match="не принимает соединений"):
            ClubDB.open(url)
        server.start()
        with ClubDB.open(url) as db:
            assert db.receive(package) == "stored"
            assert db.receive(package) == "same"
            assert db.counts().games == 1
    finally:
        server.close()


def test_state_moves_with_a_change_by_hand(db, box):
    game = play(box)
    box.roster.seat_player(game, 1, box.roster.add_player("Аня").id)
    db.receive(package_of(box, game))
    before = db.state()
    db.conn.execute("UPDATE players SET name = 'Анна'")
    assert db.state()[1] > before[1] and db.state()[0] == before[0]
    db.conn.execute("DELETE FROM seats")
    assert db.state()[0] > before[0]
    assert db.records()[0].seat(1).player is None


@pytest.mark.parametrize(
    "url",
    [
        "postgresql:/club:hunter2@localhost/club",  # one slash
        "postgresql//club:hunter2@localhost/club",  # no colon
        "club:hunter2@localhost/club",  # no scheme
        "postgresql://club:hun/ter2@localhost/club",  # a slash in the password
        "postgresql://club:hun@ter2@localhost/club",  # an at sign in it
        "postgresql://localhost/club?password=hunter2&sslmode=bogus",
        "postgresql://club:hunter2@localhost:54x2/club",
    ],
)
def test_a_mistyped_url_never_shows_its_password(url):
    from host_device.clubdb.errors import ClubDbError, shown

    with pytest.raises(ClubDbError) as raised:
        ClubDB.open(url).counts()
    line = str(raised.value)
    assert "\n" not in line and "hunter2" not in line and "ter2" not in line and "hun" not in line, line
    assert "hunter2" not in shown(url) and "***" in shown(url)


def test_a_record_this_version_cannot_read_is_refused_and_a_bad_row_does_not_hide_the_rest(db, box):
    first, second = play(box), play(box)
    package = package_of(box, first)
    newer = dataclasses.replace(package, record={**package.record, "format": 99})
    with pytest.raises(Refused, match="формате 99"):
        db.receive(newer)
    assert db.counts().games == 0
    db.receive(package)
    db.receive(package_of(box, second))
    db.conn.execute(
        "UPDATE games SET record = jsonb_set(record, '{format}', '99') WHERE uuid = %s", (package.uuid,)
    )
    assert [r.uuid for r in db.records()] == [box.games.game_uuid(second)]
