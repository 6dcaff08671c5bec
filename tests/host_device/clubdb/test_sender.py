"""The box's sender against a real PostgreSQL: every finished game reaches
the club's database once, whatever happens to the server in between (away
while games finish, killed in the middle of a send, the box restarted);
a refused game is kept with its reason; faults are one line and leave the
games waiting; the background never blocks the table («Время!» on time
while it tries a server that never answers)."""

import socket
import sqlite3
import threading
import time

import pytest

from host_device.clubdb.db import ClubDB
from host_device.clubdb.sender import Sender, send_waiting
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.session.club_sending import wake_when_finished
from host_device.store import Store
from tests.helpers import postgres
from tests.helpers.outbox import FULL, finished_games
from tests.helpers.postgres import new_server

postgres_server, fresh_database = postgres.postgres_server, postgres.fresh_database  # fixtures

DEADLINE_S = 60  # a generous bound for the background to get somewhere (not a speed measurement)


@pytest.fixture
def own_server():
    """A server of this test alone: it is stopped, killed and started again."""
    server = new_server()
    server.start()
    yield server
    server.close()


def club(url):
    db = ClubDB.open(url)
    db.init()
    db.close()
    return url


def club_games(server, url):
    """The games the club's database holds: (uuid, how many rows), by psql."""
    name = url.rsplit("/", 1)[1]
    rows = server.psql("SELECT uuid, count(*) FROM games GROUP BY uuid", database=name)
    return {line.split("|")[0]: int(line.split("|")[1]) for line in rows.splitlines() if line}


def uuids(store, games):
    return {store.games.game_uuid(g) for g in games}


def wait_for(condition, what):
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def sent_count(path):
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT count(*) FROM outbox WHERE state = 'sent'").fetchone()[0]
    finally:
        db.close()


@pytest.mark.slow
def test_games_finished_while_the_server_is_away_are_sent_once_it_is_back(store, own_server):
    url = club(own_server.create_database("club"))
    games = finished_games(store, 5)
    own_server.stop()
    report = send_waiting(store, url)
    assert report.error is not None and "\n" not in report.error and report.left == 5 and report.sent == 0
    assert "secret" not in report.error
    assert len(store.outbox.waiting()) == 5 and store.outbox.status().error == report.error
    own_server.start()
    report = send_waiting(store, url)
    assert (report.stored, report.same, report.error, report.left) == (5, 0, None, 0)
    assert store.outbox.waiting() == [] and store.outbox.status().sent == 5
    assert club_games(own_server, url) == {u: 1 for u in uuids(store, games)}
    again = send_waiting(store, url)
    assert again.sent == 0 and again.error is None  # nothing waits: nothing is sent


@pytest.mark.slow
def test_a_server_killed_in_the_middle_of_a_send_gets_every_game_once(store, own_server):
    url = club(own_server.create_database("club"))
    # a commit the server acknowledged survives its death (PostgreSQL's default; the test cluster
    # runs with synchronous_commit off for speed, which loses the last commits to a SIGKILL)
    own_server.psql("ALTER DATABASE club SET synchronous_commit = on")
    games = finished_games(store, 80)
    reports = []
    sending = threading.Thread(target=lambda: reports.append(send_waiting(Store(store.path), url)))
    sending.start()
    wait_for(lambda: sent_count(store.path) >= 5, "the first games sent")
    own_server.kill()
    sending.join(DEADLINE_S)
    (cut,) = reports
    assert cut.error is not None and 0 < cut.left < 80 and "\n" not in cut.error
    assert len(store.outbox.waiting()) == cut.left
    own_server.start()
    report = send_waiting(store, url)
    assert report.error is None and report.sent == cut.left and report.same <= 1  # the game in flight
    assert club_games(own_server, url) == {u: 1 for u in uuids(store, games)}


@pytest.mark.slow
def test_a_resend_is_a_no_op(store, postgres_server, fresh_database):
    url = club(fresh_database)
    games = finished_games(store, 3)
    assert send_waiting(store, url).stored == 3
    store.db.execute("DELETE FROM outbox")  # the box forgot it sent them
    report = send_waiting(store, url)
    assert (report.stored, report.same, report.updated) == (0, 3, 0)
    assert club_games(postgres_server, url) == {u: 1 for u in uuids(store, games)}


def test_a_game_the_host_corrects_after_sending_is_sent_again_as_an_update(store, fresh_database):
    url = club(fresh_database)
    (game,) = finished_games(store, 1)
    send_waiting(store, url)
    store.roster.set_extra(game, 4, 0.5)
    report = send_waiting(store, url)
    assert report.updated == 1 and store.outbox.waiting() == []


def test_a_game_another_box_recorded_differently_is_refused_with_its_reason(tmp_path, store, fresh_database):
    url = club(fresh_database)
    (game,) = finished_games(store, 1)
    assert send_waiting(store, url).stored == 1
    other = Store(tmp_path / "other.sqlite3")
    try:
        (theirs,) = finished_games(other, 1)
        other.db.execute("UPDATE games SET uuid = ? WHERE id = ?", (store.games.game_uuid(game), theirs))
        other.roster.set_extra(theirs, 2, 0.3)  # the same game, recorded differently
        report = send_waiting(other, url)
        assert report.sent == 0 and [g for g, _ in report.refused] == [theirs] and report.error is None
        status = other.outbox.status()
        assert [r.game for r in status.refused] == [theirs] and status.refused[0].reason == report.refused[0][
            1
        ]
        assert (
            other.outbox.waiting() == [] and send_waiting(other, url).refused == []
        )  # not retried as it stands
        other.roster.set_extra(theirs, 2, 0.4)
        assert [g for g, _ in other.outbox.waiting()] == [theirs]  # changed: it waits again
    finally:
        other.close()


def test_a_game_that_does_not_replay_is_left_out_until_it_changes(store, fresh_database):
    url = club(fresh_database)
    _, bad = finished_games(store, 2)
    store.db.execute("DELETE FROM inputs WHERE game = ? AND seq = 1", (bad,))  # its deal lost: no replay
    report = send_waiting(store, url)
    assert report.stored == 1 and [g for g, _ in report.damaged] == [bad] and report.error is None
    assert store.outbox.waiting() == [] and [r.game for r in store.outbox.status().refused] == [bad]
    assert send_waiting(store, url).damaged == []  # not tried again as it stands


@pytest.mark.parametrize("fault", ["no server", "bad url", "wrong password", "no database", "not the club's"])
def test_a_fault_is_one_line_and_the_games_wait(store, postgres_server, fresh_database, fault):
    club(fresh_database)
    finished_games(store, 2)
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    url = {
        "no server": f"postgresql://club:secret@127.0.0.1:{port}/club",
        "bad url": "mysql://club:secret@127.0.0.1/club",
        "wrong password": postgres_server.url(fresh_database.rsplit("/", 1)[1], password="pw-xyz"),
        "no database": postgres_server.url("no_such_database"),
        "not the club's": postgres_server.create_database(f"other_{time.monotonic_ns() % 10**9}"),
    }[fault]
    report = send_waiting(store, url)
    assert report.error is not None and "\n" not in report.error and report.left == 2
    assert "secret" not in report.error and "pw-xyz" not in report.error, report.error
    assert len(store.outbox.waiting()) == 2 and store.outbox.status().sent == 0


@pytest.mark.slow
def test_the_background_sends_what_finished_while_the_server_was_away(store, own_server):
    url = club(own_server.create_database("club"))
    games = finished_games(store, 4)
    own_server.stop()
    sender = Sender(store.path, url, every_s=600, first_s=0.2, last_s=0.4).start()
    try:
        wait_for(lambda: sender.told, "the server's absence told")
        time.sleep(1.5)  # several retries: still one line
        assert len(sender.told) == 1 and "игры ждут" in sender.told[0] and "secret" not in sender.told[0]
        own_server.start()
        wait_for(lambda: sent_count(store.path) == 4, "every game sent once the server is back")
        wait_for(lambda: any("снова доступна" in line for line in sender.told), "the server's return told")
        assert sum("игры ждут" in line for line in sender.told) == 1  # one line while it was away
    finally:
        sender.close()
    assert club_games(own_server, url) == {u: 1 for u in uuids(store, games)}
    # the box restarted: a new sender sends nothing twice, and the next game as it finishes
    at = dict(store.db.execute("SELECT game, at FROM outbox").fetchall())
    again = Sender(store.path, url, every_s=600).start()
    try:
        time.sleep(1.0)
        (new,) = finished_games(store, 1)
        again.wake()
        wait_for(lambda: sent_count(store.path) == 5, "the new game sent")
    finally:
        again.close()
    assert dict(store.db.execute("SELECT game, at FROM outbox WHERE game != ?", (new,)).fetchall()) == at
    assert club_games(own_server, url) == {u: 1 for u in uuids(store, [*games, new])}


def test_a_game_that_finishes_wakes_the_sender(store, postgres_server, fresh_database):
    url = club(fresh_database)
    sender = Sender(store.path, url, every_s=600).start()  # nothing to send yet; then only a wake-up
    try:
        time.sleep(1.0)
        simulate(
            load_script(FULL),
            lambda key, slots: 1.0,
            store=store,
            watch=lambda rt: wake_when_finished(rt, sender),
        )
        wait_for(lambda: sent_count(store.path) == 1, "the finished game sent")
    finally:
        sender.close()
    assert club_games(postgres_server, url) == {store.games.game_uuid(1): 1}


def test_closing_a_sender_stuck_on_a_silent_server_is_prompt(store):
    silent = socket.socket()  # accepts TCP (the kernel's backlog) and never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    try:
        finished_games(store, 2)
        url = f"postgresql://club:secret@127.0.0.1:{silent.getsockname()[1]}/club"
        sender = Sender(store.path, url, first_s=0.2).start()
        time.sleep(1.0)
        started = time.monotonic()
        sender.close()
        assert time.monotonic() - started < 10 and not sender.alive
    finally:
        silent.close()
    assert len(store.outbox.waiting()) == 2


@pytest.mark.slow
def test_time_is_said_on_time_while_the_sender_tries_a_silent_server(store):
    """«Время!» within 0.3 s of its due time on the real clock while the
    box's sender keeps trying a server that accepts TCP and never answers
    (a test that the sender does not block the table, not a measurement)."""
    from bench.runtime_timing import measure

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    finished_games(store, 20)
    url = f"postgresql://club:secret@127.0.0.1:{silent.getsockname()[1]}/club"
    senders = []

    def wire(runtime, inbox):
        sender = Sender(store.path, url, first_s=0.1, last_s=0.2).start()
        senders.append(sender)
        runtime.step_hooks.append(lambda rt: sender.wake())  # woken at every step, as if games finished
        return sender.close

    try:
        result = measure(wire, speeches=6)
    finally:
        silent.close()
        for sender in senders:
            sender.close()
    assert result["time_up_late"]["n"] == 6
    assert result["time_up_late"]["max_ms"] < 300, result
    assert len(store.outbox.waiting()) == 20


def test_the_sender_is_a_process_apart_at_a_lower_priority_and_its_wake_never_waits(store):
    import os
    import signal

    url = f"postgresql://club:secret@127.0.0.1:{free_port()}/club"
    sender = Sender(store.path, url).start()
    try:
        assert sender.pid != os.getpid()
        wait_for(
            lambda: os.getpriority(os.PRIO_PROCESS, sender.pid) == os.getpriority(os.PRIO_PROCESS, 0) + 10,
            "the sender nice'd",
        )
        os.kill(sender.pid, signal.SIGSTOP)  # it reads nothing: the pipe fills
        for _ in range(100_000):
            sender.wake()
        os.kill(sender.pid, signal.SIGKILL)  # gone: the pipe has no reader
        sender._process.join(10)
        for _ in range(10):
            sender.wake()
    finally:
        sender.close()
    assert not sender.alive


def free_port():
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    return port


def test_a_game_whose_rules_do_not_read_does_not_hold_back_the_others(postgres_server, fresh_database, store):
    url = club(fresh_database)
    games = finished_games(store, 3)
    store.db.execute("UPDATE games SET preset = 'no-such-rules' WHERE id = ?", (games[0],))
    report = send_waiting(store, url)
    assert report.error is None and report.stored == 2 and [g for g, _ in report.damaged] == [games[0]]
    assert set(club_games(postgres_server, url)) == set(uuids(store, games[1:]))


def test_a_copy_of_a_store_recovered_into_it_sends_nothing_twice(
    postgres_server, fresh_database, tmp_path, store
):
    import shutil

    from host_device.store.recover import recover

    url = club(fresh_database)
    finished_games(store, 2)
    assert send_waiting(store, url).stored == 2
    copy = tmp_path / "backup.sqlite3"
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy(store.path, copy)
    report = recover(copy, store)
    assert report.recovered == 0 and report.already == 2
    assert send_waiting(store, url).stored == 0
    assert sorted(club_games(postgres_server, url).values()) == [1, 1]
