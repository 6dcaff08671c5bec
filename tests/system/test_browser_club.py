"""The club's pages in Debian's Chromium (tests/helpers/browser.py), on a
TV (1920×1080) and a phone (390×844), served by the real server with its
worker process from a store with simulated games. Each page is checked
against its record and saved as a screenshot under
tests/screenshots/club/ (ignored by git; $ARTIFACTS instead when set) for
a person to look at."""

import os
import re
from pathlib import Path

import pytest

from host_device.club.build import record_of
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.store import Store
from host_device.web.club_worker import ClubPages
from host_device.web.server import WebServer
from tests.helpers.browser import chromium
from tests.helpers.paths import ROOT
from tests.helpers.web import private_publisher

SHOTS = Path(os.environ.get("ARTIFACTS") or ROOT / "tests" / "screenshots") / "club"
SIZES = {"tv": {"width": 1920, "height": 1080}, "phone": {"width": 390, "height": 844}}
RGB = {"red": "rgb(198, 40, 40)", "black": "rgb(33, 33, 33)"}
NAMES = [
    "Анастасия Ковалевская",
    "Борис",
    "Вера",
    "Глеб",
    "Дина",
    "Егор",
    "Жанна",
    "Зоя",
    "Иван",
    "Кира",
]  # one as long as a club's can be


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def served(tmp_path_factory, browser):
    """Two finished games (named seats) and one still played, the pages on loopback."""
    path = tmp_path_factory.mktemp("club") / "g.db"
    store = Store(path)
    for script in ("classic-full-game.json", "classic-game.json"):
        game = simulate(load_script(ROOT / "examples" / script), lambda key, slots: 1.0, store=store)
        del game
    for game_id in (1, 2):
        for seat, name in enumerate(NAMES, 1):
            store.roster.seat_by_name(game_id, seat, name)  # the roster's player, added the first time
    store.games.new_game("classic", "host")
    records = {game_id: record_of(store, game_id) for game_id in (1, 2)}
    store.close()
    server = WebServer(private_publisher()[0], "127.0.0.1", 0, club=ClubPages(path))
    _, port = server.start()
    SHOTS.mkdir(parents=True, exist_ok=True)
    print(f"screenshots: {SHOTS}")
    yield f"http://127.0.0.1:{port}", browser, records
    server.stop()


@pytest.mark.parametrize("size", SIZES)
def test_the_review_shows_the_vote_map_coloured_by_the_revealed_teams(served, size):
    base, browser, records = served
    record = records[1]
    page = browser.new_page(viewport=SIZES[size])
    try:
        page.goto(f"{base}/game/1")
        assert page.locator("h1").inner_text().startswith("Игра 1")
        assert "Победа" in page.locator(".winner").inner_text()
        rows = page.locator("table.seats tbody tr")
        assert rows.count() == len(record.seats)
        assert rows.nth(2).inner_text().split("\t")[1:3] == [NAMES[2], "дон"]
        cells = page.locator("td.vote")
        assert cells.count() == len(record.ballots)
        team = {s.seat: s.team.value for s in record.seats}
        for i in range(cells.count()):
            cell = cells.nth(i)
            voter = int(cell.get_attribute("data-voter"))
            dot = cell.locator(".dot").evaluate("e => getComputedStyle(e).backgroundColor")
            assert dot == RGB[team[voter]]
        heads = page.locator("th.cand[data-target]")
        for i in range(heads.count()):
            head = heads.nth(i)
            colour = head.evaluate("e => getComputedStyle(e).backgroundColor")
            assert colour == RGB[team[int(head.get_attribute("data-target"))]]
        # readable: the seat numbers of the vote map are large on a TV, and nothing spills sideways on a phone
        size_px = float(
            re.match(r"[\d.]+", page.locator("th.voter").first.evaluate("e => getComputedStyle(e).fontSize"))[
                0
            ]
        )
        assert size_px >= (30 if size == "tv" else 17)
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        # the «Места» table whole on a phone too: no column cut off, «Баллы» inside the screen
        seats = page.evaluate(
            "(() => { const t = document.querySelector('table.seats'), box = t.parentElement;"
            " const last = t.querySelector('thead th:last-child').getBoundingClientRect();"
            " return { scroll: box.scrollWidth, width: box.clientWidth, head: t.querySelector('thead th:last-child').textContent,"
            " right: Math.max(last.right, ...[...t.querySelectorAll('td.points')].map((c) => c.getBoundingClientRect().right)) }; })()"
        )
        assert seats["head"] == "Баллы"
        assert seats["scroll"] <= seats["width"] and seats["right"] <= SIZES[size]["width"], seats
        page.screenshot(path=str(SHOTS / f"game-{size}.png"), full_page=True)
    finally:
        page.close()


def test_an_unfinished_game_is_refused_in_the_browser(served):
    base, browser, _ = served
    page = browser.new_page(viewport=SIZES["phone"])
    try:
        answer = page.goto(f"{base}/game/3")
        assert answer.status == 404
        text = page.locator("body").inner_text()
        assert "Игра 3 ещё идёт" in text and not any(name in text for name in NAMES)
    finally:
        page.close()


@pytest.fixture(scope="module")
def club_served(tmp_path_factory, browser):
    """A season of twelve hand-made games behind the real server (the worker a thread here,
    so that the hand-made records stand in for the store's)."""
    from concurrent.futures import ThreadPoolExecutor

    from host_device.web import club_render
    from tests.helpers.club import season

    class Season:
        def __init__(self):
            self.games = season(12)

        def finished(self):
            return self.games

        def record(self, game_id):
            return self.games[game_id - 1]

        def signature(self):
            return "season"

        def game_key(self, game_id):
            return game_id

    path = tmp_path_factory.mktemp("season") / "g.db"
    path.write_bytes(b"")
    kept = club_render.source
    club_render.source = lambda store, state: Season()
    server = WebServer(
        private_publisher()[0], "127.0.0.1", 0, club=ClubPages(path, pool=ThreadPoolExecutor(1))
    )
    _, port = server.start()
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield f"http://127.0.0.1:{port}", browser, Season().games
    finally:
        server.stop()
        club_render.source = kept


@pytest.mark.parametrize("size", SIZES)
def test_the_leaderboard_and_its_filter(club_served, size):
    base, browser, _ = club_served
    page = browser.new_page(viewport=SIZES[size])
    try:
        page.goto(f"{base}/club")
        rows = page.locator("table.board tbody tr")
        assert rows.count() == 10
        assert sum(int(rows.nth(i).locator("td.games").inner_text()) for i in range(10)) == 12 * 10
        ratings = [float(rows.nth(i).locator("td.rating").inner_text().replace(",", ".")) for i in range(10)]
        assert ratings == sorted(ratings, reverse=True)
        page.screenshot(path=str(SHOTS / f"club-{size}.png"), full_page=True)
        page.fill("input[name=from]", "2026-11-03")
        page.click("button[type=submit]")
        page.wait_for_url("**/club?from=2026-11-03*")
        assert "Игр: 6" in page.locator("h1 + .meta").inner_text()  # the days 3 … 4: games 7 … 12
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    finally:
        page.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_players_page_with_its_plots(club_served, size):
    base, browser, _ = club_served
    page = browser.new_page(viewport=SIZES[size])
    try:
        page.goto(f"{base}/club")
        page.locator("table.board tbody tr a").first.click()
        page.wait_for_url("**/player/*")
        assert page.locator("figure.plot svg").count() == 3
        for kind in ("rating", "points", "roles"):
            box = page.locator(f"figure.plot.{kind} svg").bounding_box()
            assert box["width"] > 300 and box["height"] > 100  # drawn, and fitting the screen
            assert box["x"] + box["width"] <= SIZES[size]["width"]
        assert "Рейтинг после каждой игры" in page.locator("figure.plot.rating").inner_text()
        assert page.locator("table.games tbody tr").count() == 12
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        page.screenshot(path=str(SHOTS / f"player-{size}.png"), full_page=True)
    finally:
        page.close()
