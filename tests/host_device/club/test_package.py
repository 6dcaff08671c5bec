"""A finished game packed for the club's database: its record's JSON reads
back as the same record, its digest is the game's content (the same however
often packed, changed by a seat or an extra point, not by a rename)."""

import sqlite3
import uuid

import pytest

from host_device.club.build import record_of
from host_device.club.package import content_digest, package_of
from host_device.club.record_json import BadRecordData, record_from_dict, record_to_dict
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.store import SCHEMA_VERSION, Store, StoreError
from host_device.store.migrations import MIGRATIONS
from tests.helpers.club import game_record, unfinished_record
from tests.helpers.paths import ROOT
from tests.helpers.store import one_second

FULL = ROOT / "examples" / "classic-full-game.json"


def test_a_record_reads_back_from_its_json(store):
    simulate(load_script(FULL), one_second, store=store)
    store.roster.seat_player(1, 3, store.roster.add_player("Антон").id)
    store.roster.set_extra(1, 3, 0.5)
    record = record_of(store, 1)
    assert record.uuid == store.games.game_uuid(1) and record.best_move is not None
    for each in (record, game_record(), unfinished_record()):
        assert record_from_dict(record_to_dict(each)) == each


def test_record_data_of_another_layout_is_one_line():
    data = record_to_dict(game_record())
    with pytest.raises(BadRecordData, match="формате 2"):
        record_from_dict({**data, "format": 2})
    with pytest.raises(BadRecordData, match="не читается"):
        record_from_dict({**data, "seats": [{"seat": 1}]})


def test_the_digest_is_the_games_content(store):
    simulate(load_script(FULL), one_second, store=store)
    anton = store.roster.add_player("Антон")
    store.roster.seat_player(1, 3, anton.id)
    first = package_of(store, 1)
    assert first.digest == content_digest(first) == package_of(store, 1).digest
    assert first.uuid == store.games.game_uuid(1) and first.box == store.box_id()
    assert first.seats == {3: anton.id} and [p.name for p in first.players] == ["Антон"]
    assert record_from_dict(first.record) == record_of(store, 1)
    store.roster.rename_player(anton.id, "Антон Петров")
    renamed = package_of(store, 1)
    assert renamed.digest == first.digest and renamed.players[0].name == "Антон Петров"
    store.roster.set_extra(1, 3, 0.3)
    assert package_of(store, 1).digest != first.digest
    store.roster.set_extra(1, 3, 0.0)
    store.roster.seat_player(1, 4, store.roster.add_player("Вера").id)
    assert package_of(store, 1).digest != first.digest


def test_an_unfinished_game_is_not_packed(store):
    store.games.new_game("classic", "host")
    with pytest.raises(StoreError, match="ещё не окончена"):
        package_of(store, 1)


def test_every_game_has_its_own_uuid_and_the_box_one(tmp_path, store):
    first, second = store.games.new_game("classic", "host"), store.games.new_game("classic", "host")
    ids = {store.games.game_uuid(first), store.games.game_uuid(second)}
    assert len(ids) == 2 and all(uuid.UUID(i) for i in ids)
    box = store.box_id()
    store.close()
    again = Store(store.path)
    assert again.box_id() == box and again.games.game_uuid(first) in ids
    other = Store(tmp_path / "other.sqlite3")
    assert other.box_id() != box


def test_a_schema_3_store_gets_uuids_and_a_box(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(str(MIGRATIONS[1]))
    db.executescript(str(MIGRATIONS[2]))
    db.execute("PRAGMA user_version=2")
    db.execute(
        "INSERT INTO games (started_at, preset, mode) VALUES ('2026-01-01T10:00:00+00:00', 'classic', 'host')"
    )
    db.execute(
        "INSERT INTO games (started_at, preset, mode) VALUES ('2026-01-01T11:00:00+00:00', 'classic', 'host')"
    )
    db.close()
    store = Store(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 4
    ids = {store.games.game_uuid(1), store.games.game_uuid(2)}
    assert len(ids) == 2 and all(uuid.UUID(i) for i in ids)
    assert uuid.UUID(store.box_id())
    store.close()


def test_two_merges_in_a_row_reach_the_club_with_the_player_they_end_at(store):
    """Anton was merged into «Тоша», «Тоша» into Антон Петров, who sits at seat 3: the store
    points both old entries at him, and the package carries all three."""
    simulate(load_script(FULL), one_second, store=store)
    old, middle, kept = (store.roster.add_player(name) for name in ("Антон", "Тоша", "Антон Петров"))
    store.roster.add_player("Вера")  # not in this game, merged into nobody: not carried
    store.roster.merge_players(middle.id, old.id)
    store.roster.merge_players(kept.id, middle.id)
    store.roster.seat_player(1, 3, kept.id)
    carried = {p.id: p.merged_into for p in package_of(store, 1).players}
    assert carried == {kept.id: None, middle.id: kept.id, old.id: kept.id}


def test_a_record_sent_before_the_rounds_were_kept_reads_its_rounds_from_its_ballots(store):
    from host_device.club.record import vote_rounds

    simulate(load_script(ROOT / "examples" / "classic-full-game.json"), one_second, store=store)
    record = record_of(store, 1)
    data = record_to_dict(record)
    del data["rounds"], data["nights_played"]  # as a box of the older version sent it
    old = record_from_dict(data)
    assert old.rounds == () and old.nights_played == ()
    assert [(r.day, r.round, r.kind) for r in vote_rounds(old)] == [(r.day, r.round, r.kind) for r in record.rounds]
    assert vote_rounds(old)[0].counts == ((3, 6), (5, 0))  # the presses only: 5's four default votes unknown
    assert record.rounds[0].counts == ((3, 6), (5, 4))
