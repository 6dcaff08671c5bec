"""A tournament's overlays for OBS from the club's database (a real PostgreSQL),
as ``club web`` serves them: the seating published, one round-1 game a box
sent. /tournament/NAME/overlay/standings has the venue screen's rows of the
finished game, /tournament/NAME/overlay/next?table=T the table's next round
and its names (table 1: round 2 once its game is in; table 2: still round 1);
a name nothing is published under, a table the round lacks, a table not asked
for: one Russian line each, with no token asked (public, as the venue screen)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from host_device.club.package import package_of
from host_device.clubdb.db import ClubDB
from host_device.store import Store
from tests.helpers.outbox import finished_games
from tests.helpers.postgres import fresh_database, postgres_server
from tests.host_device.tournament.test_club_db import _organiser

FIXTURES = (postgres_server, fresh_database)  # pytest finds them by their names


@pytest.fixture
def url(fresh_database: str) -> str:
    with ClubDB.open(fresh_database) as db:
        db.init()
    return fresh_database


def names_in(html: str, css: str) -> list[str]:
    return re.findall(rf'<span class="{css}">([^<]*)</span>', html)


def test_club_web_serves_the_tournaments_overlays_from_the_club_database(
    url: str, tmp_path: Path, capsys: Any
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from starlette.testclient import TestClient

    from host_device.web.club_pages import club_app
    from host_device.web.club_worker import ClubPages

    club, seating = _organiser(tmp_path, capsys, url)
    store = Store(club)
    names = {p.id: p.name for p in store.roster.players()}
    store.close()
    box = tmp_path / "box.sqlite3"
    store = Store(box)
    [game] = finished_games(store, 1)
    store.roster.import_players([(pid, names[pid], None, None, None) for pid in seating[0][0]])
    for seat, pid in enumerate(seating[0][0], 1):
        store.roster.seat_player(game, seat, pid)
    store.tournaments.link_game(game, store.tournaments.named("Кубок"), 1, 1)
    pages = ClubPages(None, pool=ThreadPoolExecutor(1), database=url)
    with TestClient(club_app(pages)) as client, ClubDB.open(url) as db:
        before = client.get("/tournament/Кубок/overlay/standings")
        assert before.status_code == 200 and "Сыгранных игр пока нет." in before.text
        assert "тур 1 из 3, стол 1" in client.get("/tournament/Кубок/overlay/next?table=1").text
        assert db.receive(package_of(store, game)) == "stored"
        venue = client.get("/tournament/Кубок?show=all").text
        ranked = [re.findall(r"<td>([^<]*)</td>", row)[1] for row in venue.split("<tr>")[2:]]
        standings = client.get("/tournament/Кубок/overlay/standings?top=10")
        assert standings.status_code == 200
        assert names_in(standings.text, "name")[1:] == ranked[:10]  # (the first: the heading's)
        one = client.get("/tournament/Кубок/overlay/next?table=1")
        assert one.status_code == 200 and "тур 2 из 3, стол 1" in one.text  # its game is in
        assert names_in(one.text, "name") == [names[p] for p in seating[1][0]]
        two = client.get("/tournament/Кубок/overlay/next?table=2").text
        assert "тур 1 из 3, стол 2" in two and names_in(two, "name") == [names[p] for p in seating[0][1]]
        far = client.get("/tournament/Кубок/overlay/next?table=3")
        assert far.status_code == 404 and "Стол 3: в туре 1 столы 1–2" in far.text
        bare = client.get("/tournament/Кубок/overlay/next")
        assert bare.status_code == 400 and "Укажите стол в адресе: ?table=1" in bare.text
        missing = client.get("/tournament/Лига/overlay/standings")
        assert missing.status_code == 404 and "турнира «Лига» нет в базе клуба" in missing.text
        assert client.get("/tournament/Кубок/overlay/other").status_code == 404
    store.close()
