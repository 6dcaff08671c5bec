"""Every route that takes a number or a name, given a hostile one: a number
of 5,000 digits (Python's int() refuses past 4,300), one past SQLite's
integers, a NUL, a name of 5,000 letters. Each is a 404 or a 400, never a
500 and never a traceback (issue 46 item 7); the club's database's side:
test_club_web_server.py."""

import logging
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from starlette.testclient import TestClient
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from host_device.store import Store
from host_device.web.club_pages import club_app
from host_device.web.club_worker import ClubPages
from tests.helpers.clubdb import play
from tests.helpers.web import on_loopback

HUGE = "9" * 5000
PAST_SQLITE = "9" * 20  # > 2**63


def get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_huge_numbers_in_the_tables_routes_are_404s(builtin_pack, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    with on_loopback() as (port, access, _):
        t = access.host
        for path in (
            f"/seat/{HUGE}",
            f"/seat/{HUGE}?t={t}",
            f"/seat/{PAST_SQLITE}",
            f"/api/qr/{HUGE}.svg?t={t}",
            f"/api/qr/{PAST_SQLITE}.svg?t={t}",
            f"/game/{HUGE}",
            f"/game/{PAST_SQLITE}",
            "/seat/-1",
            "/seat/%00",
            "/player/%00",
            "/tournament/%00",
        ):
            status, text = get(port, path)
            assert status in (400, 404), (path[:30], status, text[:120])
        assert get(port, "/seat/3")[0] == 403 and get(port, f"/api/qr/3.svg?t={t}")[0] == 200
        for seat in (HUGE, PAST_SQLITE):
            with pytest.raises(InvalidStatus) as refused:
                connect(f"ws://127.0.0.1:{port}/api/seat/{seat}?t={t}", open_timeout=10)
            assert refused.value.response.status_code in (403, 404)
    assert "Traceback" not in caplog.text


@pytest.fixture
def store_pages(tmp_path):
    store = Store(tmp_path / "box.sqlite3")
    game = play(store)
    pages = ClubPages(store.path, pool=ThreadPoolExecutor(1))
    with TestClient(club_app(pages)) as client:
        yield client, game
    store.close()


def test_huge_numbers_and_nuls_in_the_club_pages_of_a_store_are_404s(store_pages):
    client, game = store_pages
    assert client.get(f"/game/{game}").status_code == 200
    for path in (
        f"/game/{HUGE}",
        f"/game/{PAST_SQLITE}",
        "/player/%00",
        f"/player/{HUGE}",
        "/tournament/%00",
        "/tournament/a%00b",
        "/tournament/%1b%5b2J",
        f"/tournament/{'я' * 5000}",
        f"/tournament/Кубок?round={HUGE}",
        "/tournament/Кубок?round=%00",
        f"/club?from={HUGE}",
        "/club?from=%00",
        "/club?preset=%00",
    ):
        page = client.get(path)  # a server's exception would be raised here
        assert page.status_code in (400, 404), (path[:40], page.status_code, page.text[-200:])
