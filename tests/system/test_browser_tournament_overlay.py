"""A tournament's overlays for OBS (issue 49 item 1: «the tournament's standings
and next game from `club web`») in Debian's Chromium, served by the club's
pages alone (``club web``'s app, the worker process) from a store holding a
tournament of 30 players, two rounds, round 1 finished at tables 1 and 2 while
table 3 still plays it.

``/tournament/NAME/overlay/standings`` at 1920×1080 and
``/tournament/NAME/overlay/next?table=T`` at 880×240: a transparent background
(the computed one, and a screenshot's corners with alpha 0), nothing beyond
the page; the standings' top rows are the venue screen's (its ``?show=all``
table: place, name, games, sum), and a table's next game is its round and its
ten names by seat from the seating (table 1: round 2; table 3: still round 1).
Screenshots: tests/system/screenshots/tournament-overlay-standings.png,
tournament-overlay-next.png."""

from urllib.parse import quote

import pytest
from matplotlib.image import imread

from host_device.cli.main import main
from host_device.store import Store
from host_device.web.club_worker import ClubPages
from host_device.web.server import WebServer
from tests.helpers.browser import chromium
from tests.helpers.outbox import finished_games
from tests.helpers.paths import ROOT

SHOTS = ROOT / "tests" / "system" / "screenshots"
CUP = "Кубок оверлея"
LONG = "Анастасия-Александра Ковалевская-Долгорукова"
PLAYERS = [LONG if k == 7 else f"Игрок {k:02d}" for k in range(1, 31)]
DETAIL = """() => [...document.querySelectorAll('table.standings tbody tr')].map((tr) =>
  [...tr.querySelectorAll('td')].map((td) => td.textContent))"""
ROWS = """() => [...document.querySelectorAll('ol.ranks li:not(.head)')].map((li) =>
  ['.place', '.name', '.games', '.sum'].map((c) => li.querySelector(c).textContent))"""
SEATS = """() => [...document.querySelectorAll('ol.seats li')].map((li) =>
  [li.querySelector('.no').textContent, li.querySelector('.name').textContent])"""
# every element inside the viewport, and the page no larger than it
INSIDE = """() => { const out = [...document.querySelectorAll('body *')].filter((el) => {
  const r = el.getBoundingClientRect();
  return r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5; });
  const d = document.documentElement;
  return [out.map((el) => el.className || el.tagName), d.scrollWidth <= innerWidth && d.scrollHeight <= innerHeight]; }"""
TRANSPARENT = (
    """() => [document.documentElement, document.body].map((el) => getComputedStyle(el).backgroundColor)"""
)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The club's pages over a store with the tournament; yields the address, the browser and the
    seating (rounds -> tables -> names by seat)."""
    path = tmp_path_factory.mktemp("overlay") / "g.db"
    store = Store(path)
    for name in PLAYERS:
        store.roster.add_player(name)
    store.close()
    assert main(["tournament", "create", CUP, *PLAYERS, "--rounds", "2", "--store", str(path)]) == 0
    store = Store(path)
    games = finished_games(store, 2)
    store.close()
    for table, game in enumerate(games, 1):  # tables 1 and 2 have finished round 1; table 3 plays it
        args = ["tournament", "game", CUP, str(game), "--round", "1", "--table", str(table)]
        assert main([*args, "--store", str(path)]) == 0
    store = Store(path)
    names = {p.id: p.name for p in store.roster.players()}
    row = store.tournaments.get(CUP)
    seating = [[[names[pid] for pid in t] for t in r] for r in store.tournaments.seating(row.id)]
    store.close()
    server = WebServer(None, "127.0.0.1", 0, club=ClubPages(path))
    _, port = server.start()
    with chromium() as browser:
        yield f"http://127.0.0.1:{port}", browser, seating
    server.stop()


def shot(page, name: str):
    """A screenshot without the page's background: alpha where the stream's picture shows."""
    path = SHOTS / name
    page.screenshot(path=str(path), omit_background=True)
    image = imread(str(path))
    assert image.shape[2] == 4, "a PNG with alpha"
    return image


def opened(browser, url: str, width: int, height: int):
    page = browser.new_page(viewport={"width": width, "height": height})
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    assert page.evaluate(TRANSPARENT) == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]
    outside, fits = page.evaluate(INSIDE)
    assert outside == [] and fits
    return page


def test_the_standings_overlay_shows_the_venue_screens_top_rows_on_a_transparent_page(served):
    base, browser, _seating = served
    venue = browser.new_page(viewport={"width": 1920, "height": 1080})
    venue.goto(f"{base}/tournament/{quote(CUP)}?show=all")
    detail = venue.evaluate(DETAIL)
    venue.close()
    assert len(detail) == 20  # the players of the two finished games
    page = opened(browser, f"{base}/tournament/{quote(CUP)}/overlay/standings", 1920, 1080)
    rows = page.evaluate(ROWS)
    assert rows == [r[:4] for r in detail[:10]]  # place, name, games, sum: the top ten
    assert "Таблица" in page.inner_text("h1") and CUP in page.inner_text("h1")
    row = page.locator("ol.ranks li:not(.head)").first
    assert float(row.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px")) >= 40  # large
    image = shot(page, "tournament-overlay-standings.png")
    assert image.shape[:2] == (1080, 1920)
    assert (
        image[2, 2, 3] == 0 and image[-3, -3, 3] == 0 and image[540, 960, 3] > 0
    )  # corners clear, panel not
    page.close()
    page = opened(browser, f"{base}/tournament/{quote(CUP)}/overlay/standings?top=15", 1920, 1080)
    assert page.evaluate(ROWS) == [r[:4] for r in detail[:15]]
    page.close()


def test_the_next_game_overlay_shows_a_tables_round_and_ten_names(served):
    base, browser, seating = served
    page = opened(browser, f"{base}/tournament/{quote(CUP)}/overlay/next?table=1", 880, 240)
    assert "тур 2 из 2, стол 1" in page.inner_text("h1")  # table 1 has finished round 1
    assert page.evaluate(SEATS) == [[str(s), name] for s, name in enumerate(seating[1][0], 1)]
    image = shot(page, "tournament-overlay-next.png")
    assert image.shape[:2] == (240, 880)
    # the panel's rounded corners: the corner pixel clear, the middle not
    assert image[0, 0, 3] == 0 and image[-1, -1, 3] == 0 and image[120, 440, 3] > 0
    page.close()
    page = opened(browser, f"{base}/tournament/{quote(CUP)}/overlay/next?table=3", 880, 240)
    assert "тур 1 из 2, стол 3" in page.inner_text("h1")  # table 3 still plays round 1
    assert page.evaluate(SEATS) == [[str(s), name] for s, name in enumerate(seating[0][2], 1)]
    page.close()
    page = browser.new_page(viewport={"width": 880, "height": 240})
    response = page.goto(f"{base}/tournament/{quote(CUP)}/overlay/next")
    assert response is not None and response.status == 400
    assert page.inner_text("p.refused") == "Укажите стол в адресе: ?table=1"
    assert page.evaluate(TRANSPARENT) == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]
    page.close()
