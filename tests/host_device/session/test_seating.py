"""The session's side of the seat grid (host_device/session/seating.py): a
name or extra points from a page written to the store and shown again; a
phone's pick told to the host; what the store refuses told, nothing kept."""

import pytest

from host_device.screens.seating import Seating
from host_device.session.seating import TableSeating
from host_device.store import Store
from host_device.web.inputs import ExtraPoints, SeatName
from tests.helpers.paths import ROOT


@pytest.fixture
def table(tmp_path):
    store = Store(tmp_path / "g.db")
    game = store.games.new_game("classic", "host")
    said, changed = [], []
    seating = TableSeating(Seating(), lambda text, russian: said.append(russian), lambda: changed.append(1))
    seating.open(store, game)
    yield seating, store, game, said, changed
    store.close()


def test_a_name_from_the_grid_or_a_phone_is_stored_and_shown(table):
    seating, store, game, said, changed = table
    anna = store.roster.add_player("Анна")
    seating.name(SeatName(3, player=anna.id))
    seating.name(SeatName(5, new="Вера", by_phone=True))
    assert store.roster.seating(game)[3] == anna and store.roster.seating(game)[5].name == "Вера"
    assert seating.seating.players == store.roster.seating(game)  # the screens' copy read again
    assert [p.name for p in seating.seating.roster] == ["Анна", "Вера"]
    assert said == ["место 5: игрок выбрал имя «Вера»"]  # the host sees what a phone picked
    seating.name(SeatName(5, player=anna.id, by_phone=True))  # seat 3's player, picked on 5's phone
    assert said[-1] == "место 5: «Анна» уже за местом 3; пересадить может ведущий"
    seating.name(SeatName(5, new="анна", by_phone=True))  # by her name: the same
    assert store.roster.seating(game)[3] == anna and store.roster.seating(game)[5].name == "Вера"
    seating.name(SeatName(5, player=anna.id))  # the host moves her
    assert store.roster.seating(game) == {5: anna}
    seating.extra(ExtraPoints(5, 0.4))
    assert seating.seating.extras == {5: 0.4} == store.roster.extras(game)
    assert len(changed) == 5  # each change reaches the pages (open, four writes)


def test_a_step_on_the_console_is_taken_from_the_value_the_record_holds(table, tmp_path):
    """Issue 47: «games extra 1 4 0,3» from another process, then «+0,1» on the console: 0,4 —
    the console's copy (0) is read again at the next tick and the step is the record's."""
    seating, store, game, said, changed = table
    other = Store(store.path)  # the command line's own connection, as `games extra` opens one
    other.roster.set_extra(game, 4, 0.3)
    assert seating.seating.extras == {}  # not seen yet: the next tick reads it
    seating.check()
    assert seating.seating.extras == {4: 0.3}
    seating.check()
    before = len(changed)
    seating.check()
    assert len(changed) == before  # nothing new written: nothing read again
    seating.extra(ExtraPoints(4, None, 1))
    assert store.roster.extras(game) == {4: 0.4} == seating.seating.extras
    other.roster.set_extra(game, 4, 1.0)  # the page still shows 0,4; the record holds 1,0
    seating.extra(ExtraPoints(4, None, 1))
    assert said[-1] == "место 4: доп. баллы 1,1: можно от -1,0 до +1,0 с шагом 0,1"
    assert store.roster.extras(game) == {4: 1.0}
    seating.extra(ExtraPoints(4, None, -1))
    assert store.roster.extras(game) == {4: 0.9}
    other.close()


def test_what_the_store_refuses_is_told_and_nothing_changes(table):
    seating, store, game, said, _ = table
    seating.extra(ExtraPoints(2, 1.5))
    seating.name(SeatName(2, player="no-such-id"))
    assert store.roster.extras(game) == {} and store.roster.seating(game) == {}
    assert said[0].startswith("место 2: доп. баллы 1,5: можно от -1,0 до +1,0 с шагом 0,1")
    assert said[1].startswith("место 2: игрок «no-such-id»: нет в списке клуба")


def test_at_night_in_host_mode_a_phones_pick_waits_for_the_morning(tmp_path):
    store = Store(tmp_path / "g.db")
    game = store.games.new_game("classic", "host")
    said, night = [], [True]
    seating = TableSeating(
        Seating(), lambda text, russian: said.append(russian), lambda: None, lambda: night[0]
    )
    seating.open(store, game)
    anna = store.roster.add_player("Анна", nickname="Аня")
    seating.reread()
    seating.name(SeatName(4, new="Глеб", by_phone=True))
    seating.name(SeatName(7, player=anna.id, by_phone=True))
    seating.name(SeatName(6, new="Дина"))  # the host's own grid is not held
    assert set(store.roster.seating(game)) == {6} and said == [] and 4 not in seating.seating.players
    assert seating.seating.held == {4: "Глеб", 7: "Анна (Аня)"}  # their phones say: kept for the morning
    night[0] = False
    seating.release()
    assert store.roster.seating(game)[4].name == "Глеб" and store.roster.seating(game)[7] == anna
    assert said == ["место 4: игрок выбрал имя «Глеб»", "место 7: игрок выбрал имя «Анна (Аня)»"]
    assert seating.seating.held == {}
    store.close()


def test_the_extra_points_range_is_the_club_tables(tmp_path):
    """A club's own scoring table states its range and step: the console
    offers them and the store keeps them (the store's own −1…+1 by 0.1 was
    offered, and points then clipped what the host gave)."""
    from types import SimpleNamespace

    from host_device.club.scoring import default_table

    text = (ROOT / "host_device" / "club" / "data" / "fiim.toml").read_text(encoding="utf-8")
    ours = tmp_path / "ours.toml"
    ours.write_text(
        text.replace("min = -1.0", "min = -0.5")
        .replace("max = 1.0", "max = 0.5")
        .replace("step = 0.1", "step = 0.25"),
        encoding="utf-8",
    )
    store = Store(tmp_path / "g.db")
    game = store.games.new_game("classic", "host")
    said = []
    handlers = {}
    inputs = SimpleNamespace(on=lambda kind, handler: handlers.__setitem__(kind, handler))
    config = SimpleNamespace(show_names=False, scoring=ours)
    seating = TableSeating.attached(
        Seating(), inputs, config, lambda t, r: said.append(r), lambda: None, lambda: False
    )
    seating.open(store, game)
    assert seating.seating.extra_range() == {"low": -0.5, "high": 0.5, "step": 0.25}
    handlers[ExtraPoints](ExtraPoints(4, 0.25))
    handlers[ExtraPoints](ExtraPoints(5, 0.75))
    assert store.roster.extras(game) == {4: 0.25}
    assert said == ["место 5: доп. баллы 0,75: можно от -0,5 до +0,5 с шагом 0,25"]
    default = TableSeating.attached(
        Seating(), inputs, SimpleNamespace(show_names=True, scoring=None), print, print, print
    )
    low, high, step = default.seating.extra_limits
    assert (low, high, step) == (
        default_table().extra_min,
        default_table().extra_max,
        default_table().extra_step,
    )
    store.close()


def test_in_a_tournament_game_a_phone_never_renames_or_empties_its_seat(table):
    """Issue 51: the seating names a tournament's seats; a phone's {"name": {"new": …}} or
    {"name": {"player": null}} would credit another with the game or drop it from his line."""
    seating, store, game, said, _ = table
    anna, boris = store.roster.add_player("Анна"), store.roster.add_player("Борис")
    tid = store.tournaments.create("Кубок", 2, 1, [anna.id, boris.id], [])
    store.tournaments.link_game(game, tid, 1, 1)
    seating.name(SeatName(3, player=anna.id))  # the organiser's console: as the seating says
    seating.reread()
    assert seating.seating.table == "Стол 1 · игра 1"
    seating.name(SeatName(3, new="Подставной", by_phone=True))
    seating.name(SeatName(3, player=None, by_phone=True))
    seating.name(SeatName(3, player=boris.id, by_phone=True))
    assert store.roster.seating(game) == {3: anna}
    assert [p.name for p in store.roster.players()] == ["Анна", "Борис"]  # nobody added
    assert seating.seating.refused[3].startswith("Турнирная игра")
    assert said == ["место 3: турнирная игра — имя с телефона не принято; пересадить может ведущий"]
    seating.name(SeatName(3, player=boris.id))  # the console may: a substitute
    assert store.roster.seating(game) == {3: boris}

