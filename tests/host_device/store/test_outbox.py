"""The outbox: which finished games wait for the club's database (decided
from the store's rows, without a replay), what was sent, what was refused
and why, the last attempt; every write one line when it fails."""

import sqlite3
import time

import pytest

from host_device.club.package import content_digest, package_of
from host_device.store import Store, StoreError
from host_device.store.recover import recover
from tests.helpers.outbox import finished_games


def test_finished_games_wait_oldest_first_and_an_unfinished_one_does_not(store):
    games = finished_games(store, 3)
    store.new_game("classic", "host")
    store.db.execute("UPDATE games SET started_at = '2020-01-01T00:00:00+00:00' WHERE id = ?", (games[2],))
    assert [game for game, _ in store.waiting()] == [games[2], games[0], games[1]]


def test_the_digest_is_the_packages_and_needs_no_replay(store, monkeypatch):
    (game,) = finished_games(store, 1)
    store.seat_player(game, 2, store.add_player("Вера").id)
    store.set_extra(game, 2, 0.4)
    package = package_of(store, game)
    assert package.digest == content_digest(package) == store.content_digest(game)

    def no_replay(*args):
        raise AssertionError("replayed")

    monkeypatch.setattr(Store, "replay", no_replay)
    assert store.waiting() == [(game, package.digest)]


def test_a_sent_game_waits_again_when_the_host_corrects_it(store):
    first, second = finished_games(store, 2)
    vera = store.add_player("Вера")
    store.seat_player(first, 3, vera.id)
    digest = store.content_digest(first)
    store.mark_sent(first, digest)
    assert [game for game, _ in store.waiting()] == [second]
    store.rename_player(vera.id, "Вера Иванова")  # a name is not the game's content
    assert [game for game, _ in store.waiting()] == [second]
    store.set_extra(first, 3, 0.5)
    assert [game for game, _ in store.waiting()] == [first, second]
    store.mark_sent(first, store.content_digest(first))
    other = store.add_player("Вера Петрова")
    store.seat_player(first, 4, other.id)
    store.mark_sent(first, store.content_digest(first))
    store.merge_players(vera.id, store.add_player("Вера-2").id)  # a merge of others: nothing changes
    assert [game for game, _ in store.waiting()] == [second]
    status = store.outbox_status()
    assert status.sent == 1 and status.waiting == [second] and status.last_sent_at is not None


def test_a_refused_game_waits_again_only_when_it_changes(store):
    (game,) = finished_games(store, 1)
    digest = store.content_digest(game)
    store.mark_refused(game, digest, "другая запись этой игры уже пришла с другого устройства")
    assert store.waiting() == []
    status = store.outbox_status()
    assert [(r.game, r.reason) for r in status.refused] == [
        (game, "другая запись этой игры уже пришла с другого устройства")
    ]
    assert status.sent == 0
    store.set_extra(game, 1, 0.2)
    assert [g for g, _ in store.waiting()] == [game]
    assert store.outbox_status().refused == []


def test_the_last_attempt_and_its_error_are_kept_until_one_goes_through(store):
    assert store.outbox_status().attempt_at is None
    store.note_attempt("база клуба недоступна")
    status = store.outbox_status()
    assert status.attempt_at is not None and status.error == "база клуба недоступна"
    assert status.error_at is not None
    store.note_attempt()
    status = store.outbox_status()
    assert status.attempt_at is not None and status.error is None and status.error_at is None


def test_a_game_whose_rows_do_not_read_is_named_not_sent(store):
    good, bad = finished_games(store, 2)
    store.db.execute("UPDATE games SET settings = 'not json' WHERE id = ?", (bad,))
    assert [g for g, _ in store.waiting()] == [good]
    assert [g for g, _ in store.outbox_status().damaged] == [bad]


def test_the_marks_survive_a_restart(store):
    first, second = finished_games(store, 2)
    store.mark_sent(first, store.content_digest(first))
    store.close()
    again = Store(store.path)
    try:
        assert [g for g, _ in again.waiting()] == [second]
    finally:
        again.close()


def test_a_mark_that_cannot_be_written_is_one_line(store):
    (game,) = finished_games(store, 1)
    store.db.execute("PRAGMA query_only=1")  # SQLite refuses every write, as on a read-only disk
    for write in (
        lambda: store.mark_sent(game, "x"),
        lambda: store.mark_refused(game, "x", "отказ"),
        lambda: store.note_attempt("ошибка"),
    ):
        with pytest.raises(StoreError) as caught:
            write()
        assert "\n" not in str(caught.value) and "клуба" in str(caught.value)
    store.db.execute("PRAGMA query_only=0")
    assert [g for g, _ in store.waiting()] == [game] and store.outbox_status().attempt_at is None


def test_a_mark_held_up_by_another_writer_is_one_line(store):
    (game,) = finished_games(store, 1)
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        with pytest.raises(StoreError, match="занято"):
            store.mark_sent(game, "x")
        assert time.monotonic() - started < 5
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store.waiting() != []


def test_a_recovered_game_is_the_same_content(tmp_path, store):
    (game,) = finished_games(store, 1)
    store.seat_player(game, 5, store.add_player("Глеб").id)
    store.set_extra(game, 5, 0.3)
    digest = store.content_digest(game)
    store.close()
    target = Store(tmp_path / "new.sqlite3")
    try:
        report = recover(store.path, target)
        assert report.recovered == 1
        ((new, new_digest),) = target.waiting()
        assert target.game_uuid(new) == store_uuid(store.path, game) and new_digest == digest
    finally:
        target.close()


def store_uuid(path, game):
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT uuid FROM games WHERE id = ?", (game,)).fetchone()[0]
    finally:
        db.close()
