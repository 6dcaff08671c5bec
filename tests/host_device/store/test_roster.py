"""The club's roster in the store: players with UUIDs, who sat where, merges,
the host's extra points, and the migration of schema 2's names into them."""

import sqlite3
import uuid

import pytest

from host_device.store import (
    EXTRA_POINTS_RANGE,
    AmbiguousPlayer,
    Player,
    Store,
    StoreError,
    UnknownGame,
    UnknownPlayer,
)
from host_device.store.migrations import MIGRATIONS, SCHEMA_VERSION


@pytest.fixture
def game(store):
    return store.games.new_game("classic", "host")


def test_a_player_gets_a_uuid_and_is_found_by_id_name_nickname_or_id_start(store):
    anya = store.roster.add_player("  Анна   Петрова ", nickname="Аня")
    assert uuid.UUID(anya.id).version == 4
    assert anya == Player(anya.id, "Анна Петрова", "Аня")  # spaces collapsed
    assert store.roster.player(anya.id) == anya
    assert store.roster.player("анна петрова") == anya  # either case
    assert store.roster.player("АНЯ") == anya
    assert store.roster.player(anya.id[:6]) == anya
    bob = store.roster.add_player("Борис")
    assert store.roster.players() == [anya, bob]  # alphabetical
    assert uuid.UUID(bob.id) != uuid.UUID(anya.id)


def test_unknown_and_ambiguous_names_are_one_clear_error(store):
    store.roster.add_player("Саша", nickname="Белый")
    store.roster.add_player("Саша", nickname="Чёрный")
    with pytest.raises(
        AmbiguousPlayer,
        match=r"игрок «саша»: так в списке клуба зовут нескольких .*укажите его идентификатор",
    ):
        store.roster.player("саша")
    assert store.roster.player("чёрный").nickname == "Чёрный"
    with pytest.raises(
        UnknownPlayer, match=r"игрок «Вера»: нет в списке клуба; см.: host-device players list"
    ):
        store.roster.player("Вера")
    with pytest.raises(StoreError, match="имя игрока: пустое"):
        store.roster.add_player("   ")
    with pytest.raises(StoreError, match="длиннее 60 знаков"):
        store.roster.add_player("я" * 61)


def test_rename_sets_the_name_and_the_nickname(store):
    p = store.roster.add_player("Петя", nickname="Пётр")
    assert store.roster.rename_player(p.id, "Пётр Иванов", "Профессор") == Player(
        p.id, "Пётр Иванов", "Профессор"
    )
    assert store.roster.rename_player("профессор", "Пётр Иванов") == Player(p.id, "Пётр Иванов", None)
    assert store.roster.players() == [Player(p.id, "Пётр Иванов", None)]


def test_seating_before_during_and_after_the_game_and_a_player_sits_once(store, game):
    anya, bob = store.roster.add_player("Аня"), store.roster.add_player("Боря")
    assert store.roster.seating(game) == {}
    assert store.roster.seat_player(game, 3, anya.id) is None
    store.roster.seat_player(game, 5, bob.id)
    assert store.roster.seating(game) == {3: anya, 5: bob}
    assert store.roster.seat_player(game, 7, anya.id) == 3  # she moves: seat 3 is free again
    assert store.roster.seating(game) == {5: bob, 7: anya}
    store.roster.seat_player(game, 5, None)
    assert store.roster.seating(game) == {7: anya}
    assert store.roster.names(game) == {"7": "Аня"}
    with pytest.raises(StoreError, match=r"место 11: в этой игре \(классика\) места 1\.\.10"):
        store.roster.seat_player(game, 11, anya.id)
    with pytest.raises(UnknownPlayer):
        store.roster.seat_player(game, 1, str(uuid.uuid4()))
    with pytest.raises(UnknownGame):
        store.roster.seat_player(99, 1, anya.id)


def test_seat_by_name_finds_adds_or_clears(store, game):
    anya = store.roster.add_player("Анна", nickname="Аня")
    assert store.roster.seat_by_name(game, 1, "аня") == (anya, False, None)
    vera, added, _ = store.roster.seat_by_name(game, 2, "Вера")
    assert added and store.roster.player("Вера") == vera
    assert store.roster.seat_by_name(game, 2, "-") == (None, False, None)
    assert store.roster.seating(game) == {1: anya}
    store.roster.add_player("Анна")
    with pytest.raises(AmbiguousPlayer):  # never a third «Анна» added silently
        store.roster.seat_by_name(game, 3, "Анна")


def test_merge_counts_every_seat_of_the_gone_for_the_kept_and_his_id_still_resolves(store):
    g1, g2 = store.games.new_game("classic", "host"), store.games.new_game("classic", "host")
    keep, gone = store.roster.add_player("Дмитрий", "Дима"), store.roster.add_player("Дима Д.")
    store.roster.seat_player(g1, 4, keep.id)
    store.roster.seat_player(g2, 6, gone.id)
    assert store.roster.merge_players(keep.id, gone.id) == keep
    assert store.roster.seating(g2) == {6: keep}
    assert store.roster.player(gone.id) == keep  # an id from another device still resolves
    assert store.roster.players() == [keep]
    other = store.roster.add_player("Дмитрий второй")
    store.roster.merge_players(other.id, keep.id)  # a chain: both earlier entries now count for the last
    assert store.roster.seating(g1) == {4: other} and store.roster.seating(g2) == {6: other}
    assert store.roster.player(gone.id) == other
    with pytest.raises(StoreError, match="уже один и тот же игрок"):
        store.roster.merge_players(other.id, gone.id)


def test_two_entries_that_sat_in_one_game_are_not_merged(store, game):
    a, b = store.roster.add_player("Аня"), store.roster.add_player("Боря")
    store.roster.seat_player(game, 1, a.id)
    store.roster.seat_player(game, 2, b.id)
    with pytest.raises(StoreError, match=r"сидели в одной игре \(игра 1, места 1 и 2\)"):
        store.roster.merge_players(a.id, b.id)
    assert store.roster.players() == [a, b]


def test_extra_points_in_steps_of_a_tenth_within_the_range(store, game):
    low, high = EXTRA_POINTS_RANGE
    store.roster.set_extra(game, 2, 0.30000000000000004)
    store.roster.set_extra(game, 9, low)
    assert store.roster.extras(game) == {2: 0.3, 9: low}
    store.roster.set_extra(game, 2, None)
    store.roster.set_extra(game, 9, 0)
    assert store.roster.extras(game) == {}
    for bad in (high + 0.1, 0.25, float("nan"), float("inf")):
        with pytest.raises(StoreError, match=r"доп\. баллы .*: можно от -1,0 до \+1,0 с шагом 0,1"):
            store.roster.set_extra(game, 2, bad)
    with pytest.raises(StoreError, match="место 0"):
        store.roster.set_extra(game, 0, 0.5)


def schema_2_store(path, names_by_game):
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[1])
    db.executescript(MIGRATIONS[2])
    db.execute("PRAGMA user_version=2")
    for names in names_by_game:
        db.execute(
            "INSERT INTO games (started_at, preset, mode, names) VALUES ('2026-11-01T10:00:00+00:00', 'classic', "
            "'host', ?)",
            (names,),
        )
    db.commit()
    db.close()


def test_a_schema_2_store_moves_its_names_into_the_roster_and_the_seats(tmp_path):
    path = tmp_path / "s.sqlite3"
    schema_2_store(path, ['{"3": "Антон", "10": "Вера"}', '{"1": "Вера", "2": " Антон "}', "{bad", "{}"])
    store = Store(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    players = store.roster.players()
    assert [p.name for p in players] == ["Антон", "Вера"]  # one player per distinct name
    assert all(uuid.UUID(p.id).version == 4 for p in players)
    anton, vera = players
    assert store.roster.seating(1) == {3: anton, 10: vera}
    assert store.roster.seating(2) == {1: vera, 2: anton}
    assert (
        store.roster.seating(3) == {} and store.roster.seating(4) == {}
    )  # unreadable names left out, the game kept
    store.close()
    again = Store(path)  # opened again: nothing migrated twice
    assert again.roster.players() == players
    again.close()


def test_the_migration_folds_case_and_keeps_two_namesakes_of_one_game_apart(tmp_path):
    """«Вера» and «вера» in two games are one player (the roster's lookup folds
    case: two entries made every later lookup ambiguous); one name at two
    seats of one game is two people (one player at two seats had his points
    counted twice); a seat no table has, or «²», is left out."""
    path = tmp_path / "s.sqlite3"
    schema_2_store(path, ['{"1": "Вера", "2": "Вера"}', '{"5": "вера", "99": "Дима", "²": "Женя"}'])
    store = Store(path)
    assert [p.name for p in store.roster.players()] == ["Вера", "Вера"]
    first = store.roster.seating(1)
    assert set(first) == {1, 2} and first[1] != first[2]
    assert store.roster.seating(2) == {5: first[1]}  # the first one named so
    store.close()


def test_a_migration_cut_short_leaves_schema_2_and_is_done_again_whole(tmp_path, monkeypatch):
    import host_device.store.migrations as schema

    path = tmp_path / "s.sqlite3"
    schema_2_store(path, ['{"3": "Антон"}'])

    def broken(*args):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(schema.uuid, "uuid4", broken)
    with pytest.raises(StoreError):
        Store(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'players'").fetchall() == []
    db.close()
    monkeypatch.undo()
    store = Store(path)
    assert [p.name for p in store.roster.players()] == ["Антон"]
    store.close()


def test_check_names_a_seat_of_a_player_the_roster_lacks(store, game):
    a = store.roster.add_player("Аня")
    store.roster.seat_player(game, 1, a.id)
    assert store.roster.problems() == []
    store.db.execute("DELETE FROM players")
    store.db.execute("INSERT INTO players VALUES ('x1234567-gone', 'Боря', NULL, 'nowhere', '2026')")
    problems = store.roster.problems()
    assert f"игра 1, место 1: игрока {a.id[:8]} нет в списке" in problems
    assert "игрок x1234567: объединён с nowhere, которого нет в списке" in problems


def test_recover_carries_the_roster_the_seats_and_the_extras(tmp_path, builtin_pack):
    from host_device.cli.main import main
    from host_device.store.recover import recover
    from tests.helpers.paths import ROOT

    old = tmp_path / "old.sqlite3"
    assert main(["simulate", str(ROOT / "examples" / "classic-full-game.json"), "--store", str(old)]) == 0
    source = Store(old)
    anya, bob = source.roster.add_player("Аня"), source.roster.add_player("Боря")
    lone = source.roster.add_player("Вера")  # in the roster, in no game
    source.roster.seat_player(1, 2, anya.id)
    source.roster.seat_player(1, 4, bob.id)
    source.roster.set_extra(1, 2, 0.5)
    gone = source.roster.add_player("Боря Б.")
    source.roster.merge_players(bob.id, gone.id)
    source.close()
    target = Store(tmp_path / "new.sqlite3")
    mine = target.roster.add_player("Дима")
    report = recover(old, target)
    assert (report.recovered, report.players) == (1, 4)
    assert target.roster.seating(1) == {
        2: anya,
        4: bob,
    }  # the same ids: one person on two devices is one entry
    assert target.roster.extras(1) == {2: 0.5}
    assert target.roster.players() == [anya, bob, lone, mine]
    assert target.roster.player(gone.id) == bob  # the merge came along
    assert recover(old, target).players == 0  # nothing twice
    target.close()


def test_recover_keeps_a_game_whose_seat_or_extra_rows_are_damaged(tmp_path, builtin_pack):
    """The game matters more than its roster: a damaged seats or extras row is
    left out, the game is recovered (it used to be «не спасена» for one row)."""
    from host_device.cli.main import main
    from host_device.store.recover import recover
    from tests.helpers.paths import ROOT

    old = tmp_path / "old.sqlite3"
    assert main(["simulate", str(ROOT / "examples" / "classic-full-game.json"), "--store", str(old)]) == 0
    source = Store(old)
    anya = source.roster.add_player("Аня")
    source.roster.seat_player(1, 2, anya.id)
    source.roster.set_extra(1, 2, 0.5)
    source.db.execute("INSERT INTO extras VALUES (1, 3, 'x')")
    source.db.execute("INSERT INTO seats VALUES (1, 'пять', ?)", (anya.id,))
    source.close()
    target = Store(tmp_path / "new.sqlite3")
    report = recover(old, target)
    assert (report.recovered, report.failed) == (1, 0)
    assert target.roster.seating(1) == {2: anya} and target.roster.extras(1) == {2: 0.5}
    target.close()


def test_recover_from_a_schema_2_file_matches_its_names_to_the_roster(tmp_path):
    import json

    from host_device.store.recover import recover

    old = tmp_path / "old.sqlite3"
    schema_2_store(old, ['{"3": "Антон", "12": "Вне стола"}'])
    db = sqlite3.connect(old)
    deal = {"type": "deal_roles", "roles": {"1": "don", "2": "mafia", "3": "mafia", "4": "sheriff"}}
    db.execute("INSERT INTO inputs VALUES (1, 1, 0.0, ?, 0)", (json.dumps(deal),))
    db.commit()
    db.close()
    target = Store(tmp_path / "new.sqlite3")
    anton = target.roster.add_player("антон")
    report = recover(old, target)
    assert report.recovered == 1, report.lines
    assert target.roster.seating(1) == {3: anton}  # matched by name; a seat beyond the table left out
    assert target.roster.players() == [anton]
    target.close()
