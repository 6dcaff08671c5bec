"""The venue screen (/tournament/NAME) in Debian's Chromium on a TV
(1920×1080), served by the real server with its worker process from a store
holding a tournament of 20 players with round 1 played: the standings first, the next round's
seating of both tables is read off the screen and equals the stored one, the
standings are there under the club's label. A screenshot is saved under
tests/screenshots/tournament/ ($ARTIFACTS when set)."""

import os
from pathlib import Path
from urllib.parse import quote

import pytest

from host_device.cli.main import main
from host_device.store import Store
from host_device.web.club_worker import ClubPages
from host_device.web.server import WebServer
from tests.helpers.browser import chromium
from tests.helpers.outbox import finished_games
from tests.helpers.paths import ROOT
from tests.helpers.web import private_publisher

SHOTS = Path(os.environ.get("ARTIFACTS") or ROOT / "tests" / "screenshots") / "tournament"
NAMES = [f"Игрок {k:02d}" for k in range(1, 21)]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    path = tmp_path_factory.mktemp("venue") / "g.db"
    store = Store(path)
    for name in NAMES:
        store.roster.add_player(name)
    store.close()
    assert main(["tournament", "create", "Кубок", *NAMES, "--rounds", "3", "--store", str(path)]) == 0
    store = Store(path)
    games = finished_games(store, 2)
    store.close()
    for table, game in enumerate(games, 1):  # round 1 played at both tables: between rounds
        args = ["tournament", "game", "Кубок", str(game), "--round", "1", "--table", str(table)]
        assert main([*args, "--store", str(path)]) == 0
    store = Store(path)
    names = {p.id: p.name for p in store.roster.players()}
    second = [[names[pid] for pid in table] for table in store.tournaments.seating(1)[1]]
    store.close()
    server = WebServer(private_publisher()[0], "127.0.0.1", 0, club=ClubPages(path))
    _, port = server.start()
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium() as browser:
        yield f"http://127.0.0.1:{port}", browser, second
    server.stop()


def test_the_venue_screen_shows_every_table_of_the_next_round_and_the_standings(served):
    base, browser, second = served
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        page.goto(f"{base}/tournament/{quote('Кубок')}")
        assert page.locator("h2.round").inner_text() == "Тур 2 из 3"
        tables = page.locator("section.table")
        assert tables.count() == 2
        for t in range(2):
            seats = tables.nth(t).locator("ol.seating li")
            shown = [seats.nth(s).inner_text().split(maxsplit=1) for s in range(10)]
            assert shown == [[str(s + 1), second[t][s]] for s in range(10)]
        assert page.locator("p.label").inner_text() == "рейтинг клуба (не Эло mafiaratings)"
        assert page.locator("h2.standings").inner_text() == "Таблица после тура 1"  # between rounds: first
        rows = page.locator("table.standings tbody tr")
        assert rows.count() == 20  # the twenty players of round 1
        first = rows.nth(0).inner_text().split("\t")
        assert first[0] == "1" and first[3] == "1,5"  # seat 1 of the classic game: a win and the best move
        # a TV is not scrolled: the standings' every column within the screen's width
        wide = page.evaluate(
            "(() => { const s = document.querySelector('table.standings').parentElement;"
            " return [s.scrollWidth, s.clientWidth]; })()"
        )
        assert wide[0] <= wide[1], wide
        size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('ol.seating li')).fontSize)")
        assert size >= 40, size  # who sits where, read from across the room (1080p)
        page.screenshot(path=str(SHOTS / "venue-tv.png"), full_page=True)
        page.goto(f"{base}/tournament/{quote('Нет такого')}")
        assert "турнира «Нет такого» нет" in page.locator("p.refused").inner_text()
    finally:
        page.close()
