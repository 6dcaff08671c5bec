"""The worker's records kept across the store's changes: a game still
played gets inputs and only its own signature changes (the finished games
are not replayed, the leaderboard's signature holds); a name typed for a
finished game's seat, or a table naming no game, replays what reads it."""

from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.store import Store
from host_device.web.club_source import Source
from host_device.web.club_worker import store_state
from tests.helpers.paths import ROOT


def stored(path):
    store = Store(path)
    simulate(load_script(ROOT / "examples" / "classic-full-game.json"), lambda key, slots: 1.0, store=store)
    return store


def test_a_game_being_played_replays_nothing_finished(tmp_path):
    path = tmp_path / "g.db"
    store = stored(path)
    source = Source(path)
    source.refresh(store_state(path))
    assert [r.id for r in source.finished()] == [1] and source.replayed == 1
    before = source.signature()
    playing = store.games.new_game("classic", "host")
    store.games.append(playing, 1, 0.0, next(store.games.inputs(1))[2])  # the deal: its first input
    source.refresh(store_state(path))
    assert [r.id for r in source.finished()] == [1]
    assert source.replayed == 1 and source.signature() == before
    assert not source.record(playing).finished and source.replayed == 2


def test_a_name_typed_after_the_end_replays_that_game(tmp_path):
    path = tmp_path / "g.db"
    store = stored(path)
    source = Source(path)
    source.refresh(store_state(path))
    source.finished()
    before = source.signature()
    store.roster.seat_by_name(1, 4, "Аня")
    source.refresh(store_state(path))
    (record,) = source.finished()
    assert record.seat(4).name == "Аня" and source.replayed == 2 and source.signature() != before


def test_a_table_naming_no_game_changes_every_games_signature(tmp_path):
    path = tmp_path / "g.db"
    store = stored(path)
    source = Source(path)
    source.refresh(store_state(path))
    before = source.signature()
    store.roster.add_player("Аня")  # the roster's players: a table naming no game
    source.refresh(store_state(path))
    assert source.signature() != before


def test_sending_a_game_to_the_club_replays_nothing(tmp_path):
    path = tmp_path / "g.db"
    store = stored(path)
    source = Source(path)
    source.refresh(store_state(path))
    source.finished()
    before = source.signature()
    store.db.execute("INSERT INTO outbox (game, digest, state, at) VALUES (1, 'd', 'sent', '2026-12-01')")
    store.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('sent', '1')")
    source.refresh(store_state(path))
    source.finished()
    assert source.replayed == 1 and source.signature() == before
