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
    store.games.new_game("classic", "host")
    store.db.execute("UPDATE games SET started_at = '2020-01-01T00:00:00+00:00' WHERE id = ?", (games[2],))
    assert [game for game, _ in store.outbox.waiting()] == [games[2], games[0], games[1]]


def test_the_digest_is_the_packages_and_needs_no_replay(store, monkeypatch):
    (game,) = finished_games(store, 1)
    store.roster.seat_player(game, 2, store.roster.add_player("Вера").id)
    store.roster.set_extra(game, 2, 0.4)
    package = package_of(store, game)
    assert package.digest == content_digest(package) == store.outbox.content_digest(game)

    def no_replay(*args):
        raise AssertionError("replayed")

    monkeypatch.setattr(store.games, "replay", no_replay)
    assert store.outbox.waiting() == [(game, package.digest)]


def test_a_sent_game_waits_again_when_the_host_corrects_it(store):
    first, second = finished_games(store, 2)
    vera = store.roster.add_player("Вера")
    store.roster.seat_player(first, 3, vera.id)
    digest = store.outbox.content_digest(first)
    store.outbox.mark_sent(first, digest)
    assert [game for game, _ in store.outbox.waiting()] == [second]
    store.roster.rename_player(vera.id, "Вера Иванова")  # a name is not the game's content
    assert [game for game, _ in store.outbox.waiting()] == [second]
    store.roster.set_extra(first, 3, 0.5)
    assert [game for game, _ in store.outbox.waiting()] == [first, second]
    store.outbox.mark_sent(first, store.outbox.content_digest(first))
    other = store.roster.add_player("Вера Петрова")
    store.roster.seat_player(first, 4, other.id)
    store.outbox.mark_sent(first, store.outbox.content_digest(first))
    store.roster.merge_players(
        vera.id, store.roster.add_player("Вера-2").id
    )  # a merge of others: nothing changes
    assert [game for game, _ in store.outbox.waiting()] == [second]
    status = store.outbox.status()
    assert status.sent == 1 and status.waiting == [second] and status.last_sent_at is not None


def test_a_refused_game_waits_again_only_when_it_changes(store):
    (game,) = finished_games(store, 1)
    digest = store.outbox.content_digest(game)
    store.outbox.mark_refused(game, digest, "другая запись этой игры уже пришла с другого устройства")
    assert store.outbox.waiting() == []
    status = store.outbox.status()
    assert [(r.game, r.reason) for r in status.refused] == [
        (game, "другая запись этой игры уже пришла с другого устройства")
    ]
    assert status.sent == 0
    store.roster.set_extra(game, 1, 0.2)
    assert [g for g, _ in store.outbox.waiting()] == [game]
    assert store.outbox.status().refused == []


def test_the_last_attempt_and_its_error_are_kept_until_one_goes_through(store):
    assert store.outbox.status().attempt_at is None
    store.outbox.note_attempt("база клуба недоступна")
    status = store.outbox.status()
    assert status.attempt_at is not None and status.error == "база клуба недоступна"
    assert status.error_at is not None
    store.outbox.note_attempt()
    status = store.outbox.status()
    assert status.attempt_at is not None and status.error is None and status.error_at is None


def test_a_game_whose_rows_do_not_read_is_named_not_sent(store):
    good, bad = finished_games(store, 2)
    store.db.execute("UPDATE games SET settings = 'not json' WHERE id = ?", (bad,))
    assert [g for g, _ in store.outbox.waiting()] == [good]
    assert [g for g, _ in store.outbox.status().damaged] == [bad]


def test_the_marks_survive_a_restart(store):
    first, second = finished_games(store, 2)
    store.outbox.mark_sent(first, store.outbox.content_digest(first))
    store.close()
    again = Store(store.path)
    try:
        assert [g for g, _ in again.outbox.waiting()] == [second]
    finally:
        again.close()


def test_a_mark_that_cannot_be_written_is_one_line(store):
    (game,) = finished_games(store, 1)
    store.db.execute("PRAGMA query_only=1")  # SQLite refuses every write, as on a read-only disk
    for write in (
        lambda: store.outbox.mark_sent(game, "x"),
        lambda: store.outbox.mark_refused(game, "x", "отказ"),
        lambda: store.outbox.note_attempt("ошибка"),
    ):
        with pytest.raises(StoreError) as caught:
            write()
        assert "\n" not in str(caught.value) and "клуба" in str(caught.value)
    store.db.execute("PRAGMA query_only=0")
    assert [g for g, _ in store.outbox.waiting()] == [game] and store.outbox.status().attempt_at is None


def test_a_mark_held_up_by_another_writer_is_one_line(store):
    (game,) = finished_games(store, 1)
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        with pytest.raises(StoreError, match="занято"):
            store.outbox.mark_sent(game, "x")
        assert time.monotonic() - started < 5
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store.outbox.waiting() != []


def test_a_recovered_game_is_the_same_content(tmp_path, store):
    (game,) = finished_games(store, 1)
    store.roster.seat_player(game, 5, store.roster.add_player("Глеб").id)
    store.roster.set_extra(game, 5, 0.3)
    digest = store.outbox.content_digest(game)
    store.close()
    target = Store(tmp_path / "new.sqlite3")
    try:
        report = recover(store.path, target)
        assert report.recovered == 1
        ((new, new_digest),) = target.outbox.waiting()
        assert target.games.game_uuid(new) == store_uuid(store.path, game) and new_digest == digest
    finally:
        target.close()


def store_uuid(path, game):
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT uuid FROM games WHERE id = ?", (game,)).fetchone()[0]
    finally:
        db.close()
