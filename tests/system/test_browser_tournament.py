"""The venue screen (/tournament/NAME) in Debian's Chromium, made for a hall's
TV (issue 47 item 3), served by the real server with its worker process from
a store holding three tournaments — 20, 50 and 100 players, round 1 played at
every table (between rounds: the standings first, then round 2's seating) —
and a fourth of 95 (nine tables, five sit out) whose table 3 was annulled
(round 1 still played: its seating first, the mark on table 3).

At 1920×1080 and 3840×2160: nothing below or beside the screen (the
document no larger than the viewport), every player's row of the standings
and every seat of the round seen on some page within 60 s of page turns, no
visible text under 32 px at 1080p, and 4K the same pages, twice as large.
The pages turn by a CSS animation: the test sets the animations' time
(``Animation.currentTime``), never sleeps. On a phone (390×844), or with
``?show=all``, the whole of it: the seating and the detail table with every
column. Screenshots are committed beside this file
(tests/system/screenshots/venue-20.png, venue-50.png, venue-100.png at
1080p, venue-100-seating.png, venue-95-seating.png, venue-50-4k.png at
3840×2160)."""

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

SHOTS = ROOT / "tests" / "system" / "screenshots"
LONG = "Анастасия-Александра Ковалевская-Долгорукова"  # longer than a column: shortened with «…»
SIZES = (20, 50, 100)
ODD = 95  # nine tables and five who sit out; table 3's game of round 1 annulled
# a name of each tournament as long as a club's are (shown whole), and in the largest one LONG
NAMED = {20: "Анастасия Ковалевская", 50: "Игрок 50-007", 100: LONG, ODD: "Екатерина Смирнова"}
HD, UHD = {"width": 1920, "height": 1080}, {"width": 3840, "height": 2160}


def players(n: int) -> list[str]:
    return [NAMED[n] if k == 7 else f"Игрок {n}-{k:03d}" for k in range(1, n + 1)]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One store, a tournament of each size; yields the address, the browser and, by size, the
    seating (rounds -> tables -> names by seat)."""
    path = tmp_path_factory.mktemp("venue") / "g.db"
    store = Store(path)
    for n in (*SIZES, ODD):
        for name in players(n):
            store.roster.add_player(name)
    store.close()
    seating = {}
    for n in (*SIZES, ODD):
        cup = f"Кубок {n}"
        assert main(["tournament", "create", cup, *players(n), "--rounds", "2", "--store", str(path)]) == 0
        store = Store(path)
        games = finished_games(store, n // 10)
        store.close()
        for table, game in enumerate(games, 1):  # round 1 played at every table: between rounds
            args = ["tournament", "game", cup, str(game), "--round", "1", "--table", str(table)]
            assert main([*args, "--store", str(path)]) == 0
        if n == ODD:
            assert main(["tournament", "game", cup, str(games[2]), "--annul", "--store", str(path)]) == 0
        store = Store(path)
        names = {p.id: p.name for p in store.roster.players()}
        row = store.tournaments.get(cup)
        seating[n] = [[[names[pid] for pid in t] for t in r] for r in store.tournaments.seating(row.id)]
        store.close()
    server = WebServer(private_publisher()[0], "127.0.0.1", 0, club=ClubPages(path))
    _, port = server.start()
    with chromium() as browser:
        yield f"http://127.0.0.1:{port}", browser, seating
    server.stop()


# Sets every animation of the page to each moment of the first minute (a quarter second apart) and
# reads what the screen shows then: the pages visible, the rows of the standings and the seats (their
# text, and whether each lies inside the screen), the smallest type of any visible text.
WATCH = """() => {
  const anims = document.getAnimations();
  anims.forEach((a) => a.pause());
  const pages = [...document.querySelectorAll('section.page')];
  const inside = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight; };
  const seen = [];
  for (let t = 0; t < 60000; t += 250) {
    anims.forEach((a) => { a.currentTime = t; });
    const shown = pages.filter((p) => getComputedStyle(p).visibility === 'visible');
    const at = { t, pages: shown.map((p) => pages.indexOf(p)) };
    if (shown.length === 1) {
      const p = shown[0];
      at.mark = p.querySelector('.mark').textContent;
      at.title = p.querySelector('h2').textContent;
      const whole = (el) => el.scrollWidth <= el.clientWidth;
      at.ranks = [...p.querySelectorAll('ol.ranks li')].map((li) => [li.querySelector('.name').textContent,
        inside(li), li.querySelector('.sum').textContent, whole(li.querySelector('.name'))]);
      at.seats = [...p.querySelectorAll('ol.seating li')].map((li) => [li.textContent, inside(li), whole(li)]);
      at.byes = [...p.querySelectorAll('p.byes')].map((b) => [b.textContent, inside(b)]);
      at.marks = [...p.querySelectorAll('h3 .annulled, p.annulled')].map((m) => [m.textContent, inside(m)]);
      let smallest = Infinity, count = 0;
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walk.nextNode()) {
        const el = walk.currentNode.parentElement;
        if (!walk.currentNode.textContent.trim() || !el.getClientRects().length) continue;
        if (getComputedStyle(el).visibility !== 'visible') continue;
        smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize)); count += 1;
      }
      at.smallest = smallest; at.texts = count;
    }
    seen.push(at);
  }
  return { seen, cycle: anims.length ? anims[0].effect.getComputedTiming().duration : null,
           pages: pages.length, animated: anims.length };
}"""
SPACE = """() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight,
  document.body.scrollHeight, innerWidth, innerHeight]"""
DETAIL = """() => [...document.querySelectorAll('table.standings tbody tr')].map((tr) =>
  [...tr.querySelectorAll('td')].map((td) => td.textContent))"""


def watched(page, base: str, n: int) -> dict:
    page.goto(f"{base}/tournament/{quote(f'Кубок {n}')}")
    width, height, body, inner_w, inner_h = page.evaluate(SPACE)
    assert width <= inner_w and height <= inner_h and body <= inner_h, (n, width, height, body)  # no scroll
    refresh = page.locator('meta[http-equiv="refresh"]').get_attribute("content")
    found = page.evaluate(WATCH)
    found["refresh"] = int(refresh)
    found["detail"] = page.evaluate(DETAIL)
    return found


def shoot(page, at_ms: int, name: str) -> None:
    """A screenshot of what the screen shows ``at_ms`` after it was loaded (in git: kept small)."""
    from PIL import Image

    page.evaluate(f"document.getAnimations().forEach((a) => {{ a.currentTime = {at_ms}; }})")
    page.screenshot(path=str(SHOTS / name))
    with Image.open(SHOTS / name) as shot:  # kept in git: 64 colours are the page's (grey, black, red)
        shot.convert("RGB").quantize(64).save(SHOTS / name, optimize=True)


@pytest.mark.parametrize("n", (*SIZES, ODD))
def test_every_row_of_the_venue_screen_is_seen_within_a_minute_large_on_a_tv(served, n):
    base, browser, seating = served
    pages = {}
    for size in (HD, UHD):
        page = browser.new_page(viewport=size)
        try:
            pages[size["width"]] = found = watched(page, base, n)
            if size is HD:  # the first page (between rounds: the standings); a page of the seating
                shoot(page, 0, f"venue-{n}.png" if n != ODD else "venue-95-seating.png")
                if n == 100:
                    seats = next(at["t"] for at in found["seen"] if at.get("seats"))
                    shoot(page, seats, f"venue-{n}-seating.png")
            elif n == 50:
                shoot(page, 0, "venue-50-4k.png")
        finally:
            page.close()
    hd, uhd = pages[1920], pages[3840]
    total = hd["pages"]
    assert hd["animated"] == total > 1 and hd["cycle"] == 1000 * hd["refresh"] <= 60_000
    twice_or_none = [at for at in hd["seen"] if len(at["pages"]) != 1]
    assert not twice_or_none, twice_or_none[:3]  # one page at a time, never none
    ranked = [row[1] for row in hd["detail"]]
    assert len(ranked) == (n if n != ODD else ODD - 5 - 10)  # round 1's players, but table 3's annulled game
    seen_ranks = {name for at in hd["seen"] for name, inside, _sum, _whole in at["ranks"] if inside}
    assert seen_ranks == set(ranked)  # every row of the standings within the first minute
    shown = 1 if n == ODD else 2  # the round being played, or between rounds the next
    seen_seats = {text for at in hd["seen"] for text, inside, _whole in at["seats"] if inside}
    tables = seating[n][shown - 1]
    assert seen_seats == {f"{s} {name}" for table in tables for s, name in enumerate(table, 1)}
    sums = {row[1]: row[3] for row in hd["detail"]}
    assert all(sums[name] == figure for at in hd["seen"] for name, _in, figure, _whole in at["ranks"])
    cut = {text for at in hd["seen"] for text, *_, whole in at["ranks"] + at["seats"] if not whole}
    assert all(LONG in text for text in cut), cut  # every name whole but the one too long for a column
    marks = {at["mark"] for at in hd["seen"]}
    assert marks == {f"страница {k} из {total}" for k in range(1, total + 1)}
    first = "Таблица после тура 1" if n != ODD else "Тур 1 из 2"  # between rounds: the standings first
    assert hd["seen"][0]["title"] == first and any(at["title"] == f"Тур {shown} из 2" for at in hd["seen"])
    assert min(at["smallest"] for at in hd["seen"]) >= 32  # read from the back of the room
    if n == ODD:  # those who sit out, and the annulled game on its table and under the standings
        seated = {name for table in tables for name in table}
        out = ", ".join(name for name in players(ODD) if name not in seated)
        assert {text for at in hd["seen"] for text, inside in at["byes"] if inside} == {
            f"Не играют в этом туре: {out}"
        }
        seen_marks = {text for at in hd["seen"] for text, inside in at["marks"] if inside}
        assert any(m.startswith("игра ") and m.endswith(" аннулирована") for m in seen_marks), seen_marks
        assert any(m.endswith("(стол 3, тур 1) аннулирована: не считается") for m in seen_marks), seen_marks
    # 4K: the same pages, the same rows on each, every type twice as large
    assert [(at["pages"], at["ranks"], at["seats"]) for at in hd["seen"]] == [
        (at["pages"], at["ranks"], at["seats"]) for at in uhd["seen"]
    ]
    assert [2 * at["smallest"] for at in hd["seen"]] == [at["smallest"] for at in uhd["seen"]]


def test_on_a_phone_or_with_show_all_the_venue_screen_is_the_whole_table(served):
    base, browser, seating = served
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{base}/tournament/{quote('Кубок 20')}")
        assert page.locator("section.page.ranks").first.is_hidden()  # the TV's short standings
        detail = page.locator("table.standings")
        assert detail.is_visible() and detail.locator("thead th").count() == 15  # every column
        rows = detail.locator("tbody tr")
        assert rows.count() == 20
        first = rows.nth(0).inner_text().split("\t")
        assert first[0] == "1" and first[3] == "1,5"  # seat 1 of the classic game: a win and the best move
        assert page.locator("p.label").inner_text() == "по таблице очков клуба"
        seats = page.locator("ol.seating li")
        assert seats.count() == 20 and all(seats.nth(k).is_visible() for k in range(20))
        assert [seats.nth(s).inner_text().split(maxsplit=1) for s in range(10)] == [
            [str(s + 1), seating[20][1][0][s]] for s in range(10)
        ]
        assert "Эло" not in page.content() and "mafiaratings" not in page.content()
        page.set_viewport_size(HD)
        page.goto(f"{base}/tournament/{quote('Кубок 20')}?show=all")
        assert page.evaluate("document.getAnimations().length") == 0  # nothing turns
        assert detail.is_visible() and page.locator("ol.seating li").nth(19).is_visible()
        assert page.locator('meta[http-equiv="refresh"]').get_attribute("content") == "20"
        page.goto(f"{base}/tournament/{quote('Нет такого')}")
        assert "турнира «Нет такого» нет" in page.locator("p.refused").inner_text()
    finally:
        page.close()
