"""The club's pages from the club's database (``club web``): the
leaderboard, a player's page and a game's review of games received from a
box, through Starlette's TestClient (the worker a thread here); a new game
received shows at once, nothing is fetched again that did not change, and a
database away is one line (503)."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from starlette.testclient import TestClient

from host_device.club.package import package_of
from host_device.clubdb.db import ClubDB
from host_device.store import Store
from host_device.web import club_render
from host_device.web.club_pages import club_app
from host_device.web.club_worker import ClubPages
from tests.helpers.clubdb import play, seat_all
from tests.helpers.postgres import fresh_database, postgres_server

FIXTURES = (postgres_server, fresh_database)  # pytest finds them by their names


@pytest.fixture
def box(tmp_path):
    store = Store(tmp_path / "box.sqlite3")
    yield store
    store.close()


@pytest.mark.slow
def test_the_club_pages_read_the_club_database(fresh_database, box):
    anna, boris = box.roster.add_player("Анна Клубная"), box.roster.add_player("Борис Клубный")
    first = play(box)
    seat_all(box, first, [anna.id, boris.id])
    with ClubDB.open(fresh_database) as db:
        db.init()
        db.receive(package_of(box, first))
        (record,) = db.records()
        pages = ClubPages(None, pool=ThreadPoolExecutor(1), database=fresh_database)
        with TestClient(club_app(pages)) as client:
            board = client.get("/club")
            assert board.status_code == 200
            assert "Анна Клубная" in board.text and f'href="/player/{anna.id}"' in board.text
            assert client.get("/").url.path == "/club"
            player = client.get(f"/player/{anna.id}")
            assert player.status_code == 200 and f'href="/game/{record.id}"' in player.text
            game = client.get(f"/game/{record.id}")
            assert game.status_code == 200 and "Борис Клубный" in game.text
            missing = client.get("/game/999")
            assert missing.status_code == 404 and "Нет игры 999 в базе клуба" in missing.text
            assert client.get("/static/club.css").status_code == 200
            (source,) = [s for path, s in club_render._sources.items() if path == fresh_database]
            assert source.fetched == 1
            computed = pages.computed
            assert client.get("/club").text == board.text and pages.computed == computed  # kept
            second = play(box, "event-game.json")
            box.roster.seat_player(second, 1, anna.id)
            db.receive(package_of(box, second))
            again = client.get(f"/player/{anna.id}")
            assert again.text.count('href="/game/') == 2 and source.fetched == 2  # only the new one read
            box.roster.rename_player(anna.id, "Анна Петровна")
            db.receive(package_of(box, second))  # a resend: the new name reaches the club
            assert "Анна Петровна" in client.get("/club").text


def test_a_database_away_is_one_line(postgres_server):
    url = postgres_server.url("club").replace(str(postgres_server.port), "1")
    pages = ClubPages(None, pool=ThreadPoolExecutor(1), database=url)
    with TestClient(club_app(pages)) as client:
        page = client.get("/club")
    assert page.status_code == 503
    assert "База клуба недоступна" in page.text and "secret" not in page.text
    assert str(postgres_server.port) not in page.text and "127.0.0.1" not in page.text
