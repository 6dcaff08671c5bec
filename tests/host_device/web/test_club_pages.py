"""The club's endpoints through Starlette's TestClient, the worker's pool a
thread here and the store's records hand-made: a finished game's review,
an unfinished one refused with nothing of it shown, answers kept until the
store changes."""

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from starlette.testclient import TestClient

from host_device.store.faults import UnknownGame
from host_device.web import club_render
from host_device.web.app import make_app
from host_device.web.club_worker import ClubPages
from tests.helpers.club import NAMES, game_record, player_id, seat_records, unfinished_record
from tests.helpers.web import private_publisher

SECRET_ID = "ffffffff-0000-4000-8000-000000000000"  # seated only in the game still played


class FakeSource:
    def __init__(self, games):
        self.games = {g.id: g for g in games}

    def record(self, game_id):
        if game_id not in self.games:
            raise UnknownGame(game_id)
        return self.games[game_id]

    def finished(self):
        return [g for g in self.games.values() if g.finished]

    def signature(self):
        return id(self)

    def game_key(self, game_id):
        return (id(self), game_id)


@pytest.fixture
def club(tmp_path, monkeypatch):
    store = tmp_path / "g.db"
    store.write_bytes(b"x")
    secret = seat_records(changes={4: {"player": SECRET_ID, "name": "Тайный"}})
    games = FakeSource([game_record(1), unfinished_record(2, seats=secret)])
    monkeypatch.setattr(club_render, "source", lambda path, state: games)
    pages = ClubPages(store, pool=ThreadPoolExecutor(1))
    with TestClient(make_app(private_publisher()[0], club=pages)) as client:
        yield client, pages, store


def test_a_finished_game_shows_its_review(club):
    client, _, _ = club
    page = client.get("/game/1")
    assert page.status_code == 200
    assert "Победа мирных жителей" in page.text
    assert "Вера" in page.text and "дон" in page.text
    assert "Лучший ход" in page.text and "Игрок 7:" in page.text and "чёрных 2 из 3" in page.text
    assert page.text.count('class="vote ') == 10 + 6 + 6 + 4
    assert 'data-voter="3" data-target="4" data-voter-team="black" data-target-team="red"' in page.text
    from host_device.club.scoring import default_table, points

    expected = points(game_record(1), default_table())
    shown = re.findall(r'data-seat="(\d+)".*?class="num points">([^<]*)<', page.text)
    assert len(shown) == 10
    for seat, text in shown:
        assert float(text.replace("−", "-").replace(",", ".")) == pytest.approx(expected[int(seat)].total)


def test_an_unfinished_game_is_refused_and_shows_nothing_of_it(club):
    client, _, _ = club
    page = client.get("/game/2")
    assert page.status_code == 404
    assert "Игра 2 ещё идёт" in page.text
    for secret in [*NAMES.values(), "дон", "мафия", "шериф", "Лучший ход", "data-voter"]:
        assert secret not in page.text


def test_an_unknown_game_is_404(club):
    client, _, _ = club
    page = client.get("/game/99")
    assert page.status_code == 404 and "Нет игры 99" in page.text


def test_an_answer_is_kept_until_the_store_changes(club):
    client, pages, store = club
    client.get("/game/1")
    client.get("/game/1")
    assert pages.computed == 1
    store.write_bytes(b"xy")  # a write: the store's size and time change
    client.get("/game/1")
    assert pages.computed == 2


def test_while_a_game_is_played_its_writes_make_no_page_fresh(club):
    """The bug: each night input the store wrote made every page fresh (and slow: the
    night in the pages' timing). Held while the game is played; its end lets the store in."""
    client, pages, store = club
    playing = [True]
    pages.hold(lambda: playing[0])
    client.get("/club")
    for size in range(2, 6):
        store.write_bytes(b"x" * size)  # the game's inputs
        client.get("/club")
    assert pages.computed == 1
    playing[0] = False  # the game has ended
    client.get("/club")
    assert pages.computed == 2


def test_the_leaderboard_lists_the_players_of_finished_games_only(club):
    client, _, _ = club
    page = client.get("/club")
    assert page.status_code == 200
    assert page.text.count("<tr data-player=") == 10
    assert f'href="/player/{player_id(3)}">Вера<' in page.text
    assert "Тайный" not in page.text and SECRET_ID not in page.text


def test_the_leaderboard_refuses_a_bad_filter_in_russian(club):
    client, _, _ = club
    page = client.get("/club?from=вчера")
    assert page.status_code == 400 and "ГГГГ-ММ-ДД" in page.text


def test_a_players_page_has_his_figures_and_three_plots(club):
    client, _, _ = club
    page = client.get(f"/player/{player_id(3)}")
    assert page.status_code == 200
    assert "<h1>Вера</h1>" in page.text and page.text.count("<svg") == 3
    assert "Доля побед по ролям" in page.text and 'href="/game/1"' in page.text


def test_a_player_seated_only_in_a_game_still_played_has_no_page(club):
    client, _, _ = club
    page = client.get(f"/player/{SECRET_ID}")
    assert page.status_code == 404 and "Тайный" not in page.text


def test_the_current_game_leads_to_its_review(club):
    client, pages, _ = club
    assert client.get("/game/current", follow_redirects=False).status_code == 404
    pages.current = lambda: 2
    page = client.get("/game/current", follow_redirects=False)
    assert (page.status_code, page.headers["location"]) == (303, "/game/2")


def test_without_a_store_the_club_pages_say_so():
    with TestClient(make_app(private_publisher()[0])) as client:
        page = client.get("/game/1")
    assert page.status_code == 404 and "хранилище" in page.text


def test_a_stored_game_in_the_real_worker_process(tmp_path):
    """The example full game simulated into a store, its review drawn by the spawned worker:
    every ballot of the record is a mark on the page, coloured by the voter's and the target's teams."""

    from host_device.club.build import record_of
    from host_device.scripts.script import load_script
    from host_device.scripts.simulate import simulate
    from host_device.store import Store
    from tests.helpers.paths import ROOT

    store = Store(tmp_path / "g.db")
    simulate(load_script(ROOT / "examples" / "classic-full-game.json"), lambda key, slots: 1.0, store=store)
    store.games.new_game("classic", "host")  # game 2: still being played
    record = record_of(store, 1)
    store.close()
    pages = ClubPages(tmp_path / "g.db")
    with TestClient(make_app(private_publisher()[0], club=pages)) as client:
        page = client.get("/game/1")
        later = client.get("/game/2")
    assert page.status_code == 200
    team = {s.seat: s.team.value for s in record.seats}
    marks = re.findall(
        r'data-voter="(\d+)"(?: data-target="(\d+)")? data-voter-team="(\w+)" data-target-team="(\w*)"',
        page.text,
    )
    assert len(marks) == len(record.ballots) > 0
    for voter, target, voter_team, target_team in marks:
        assert voter_team == team[int(voter)]
        assert target_team == (team[int(target)] if target else "")
    assert later.status_code == 404 and "Игра 2 ещё идёт" in later.text


def test_a_worker_that_died_is_replaced_and_the_page_says_to_reload(tmp_path):
    from concurrent.futures import Executor, Future
    from concurrent.futures.process import BrokenProcessPool

    class Dead(Executor):
        def submit(self, fn, /, *args, **kwargs):
            future = Future()
            future.set_exception(BrokenProcessPool("gone"))
            return future

    (tmp_path / "g.db").write_bytes(b"x")
    pages = ClubPages(tmp_path / "g.db", pool=Dead())
    with TestClient(make_app(private_publisher()[0], club=pages)) as client:
        page = client.get("/game/1")
    assert page.status_code == 503 and "обновите страницу" in page.text
    assert pages._pool is None  # the next page starts a new worker
