"""The host's console on a phone (390×844) in Debian's Chromium, and the
names on the review (issue 47 items 4 and 5).

The console: in a speech (ten names seated, the device's foul just given,
so that «Снять: фол…» shows) what the host needs in the step — the title,
the speech's timer, «Дальше»/«Пауза», «Снять: фол…», the field for the
speaker's words — is on his screen without scrolling, the seat grid of names
and extra points below it; in a vote and at night the keys and the seats are
above the fold too. After the end the seats' roles («мирный житель») stay
inside their buttons. The review at 390 px keeps each name on one line
(«Жанна» whole; a name too long for its cell shortened with «…», never
broken inside a word).

The game is the classic example game on a virtual clock that stands still
while the pages are read (test_browser_night.py's ``stepped``). Screenshots
are committed beside this file (tests/system/screenshots/console-*.png,
review-names-phone.png)."""

import pytest

from engine import Foul, Phase
from host_device.screens.seating import Seating
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.store import Store
from host_device.store.roster import Player
from host_device.web.club_worker import ClubPages
from host_device.web.server import WebServer
from tests.helpers.browser import chromium
from tests.helpers.paths import ROOT
from tests.helpers.web import private_publisher
from tests.system.test_browser_night import PHONE, stepped  # noqa: F401 (the fixture)

SHOTS = ROOT / "tests" / "system" / "screenshots"
LONG = "Константин Константинович Константинопол"  # 40 characters, one of them a space
NAMES = ["Жанна", "Анастасия-Александра", LONG, "Борис", "Вера", "Глеб", "Дина", "Егор", "Зоя", "Иван"]
# the document's boxes of what the selectors find (the page scrolled to its top)
BOXES = """(sels) => { scrollTo(0, 0); return Object.fromEntries(sels.map((sel) => {
  const el = document.querySelector(sel); if (!el) return [sel, null];
  const r = el.getBoundingClientRect();
  return [sel, { top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right, height: r.height }];
})); }"""


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture
def console(browser, stepped):  # noqa: F811 (the fixture imported above)
    """The console's page of the stepped game (and the game), with ten names seated from the roster
    and the speaker's words typed."""
    host = stepped.publisher.private.console
    players = {seat: Player(f"p{seat}", name) for seat, name in enumerate(NAMES, 1)}
    host.seating = Seating(players=players, roster=tuple(players.values()), enabled=True)
    host.typed = True  # no speech model: the field for the speaker's words
    stepped.publisher.refresh()
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{stepped.base}/host?t={stepped.access.host}")
    page.wait_for_selector("#names:not([hidden]) .name-row")
    yield page, stepped
    page.close()


def shown(page, runtime, check="true"):
    page.wait_for_function(f"view && view.window === {runtime.step} && ({check})")


def above_the_fold(page, controls):
    """Each of ``controls`` seen whole on the phone's first screen; returns the lowest bottom."""
    boxes = page.evaluate(BOXES, controls)
    for sel, box in boxes.items():
        assert box is not None and box["height"] > 0, f"{sel}: not shown"
        assert box["top"] >= 0 and box["bottom"] <= PHONE["height"], (sel, box)
        assert box["left"] >= 0 and box["right"] <= PHONE["width"], (sel, box)
    return max(box["bottom"] for box in boxes.values())


def below(page, selector, bottom):
    box = page.evaluate(BOXES, [selector])[selector]
    assert box["top"] >= bottom, (selector, box, bottom)


def test_in_a_speech_the_steps_controls_are_above_the_fold_and_the_names_below(console):
    console, game = console
    runtime = game.runtime
    game.until(lambda rt: rt.game.phase is Phase.SPEECH and rt.game.state.speaker == 1)
    runtime.handle(Foul(seat=1, by="device", word="честно"))  # the device's foul: the step's last input
    game.publisher.refresh()
    shown(console, runtime, "view.withdraw_foul && view.seats.every((x) => x.player)")
    assert console.locator("#withdraw-foul").inner_text().startswith("Снять: ")
    assert console.locator("#speaker").inner_text() == "Говорит игрок 1"
    assert console.locator("#clock").inner_text() == "1:00"  # the speech's timer (the clock stands still)
    controls = [
        "#title",
        "#clock",
        "#speaker",
        ".key-next",
        ".key-pause",
        "#withdraw-foul",
        "#words",
        "#typed button",
    ]
    bottom = above_the_fold(console, controls)
    below(console, "#seats", bottom)
    below(console, "#names", bottom)
    # the ten names are there, below (the first of them may show on the first screen)
    assert console.locator(".name-row .name-now").all_inner_texts() == NAMES
    console.screenshot(path=str(SHOTS / "console-speech.png"))


def test_in_a_vote_and_at_night_the_keys_and_the_seats_come_before_the_names(console):
    console, game = console
    runtime = game.runtime
    game.until(
        lambda rt: rt.game.phase is Phase.VOTE and rt.window is not None and rt.window[0] <= rt.sched.now
    )
    shown(console, runtime, "view.vote && view.vote.open")
    assert console.locator("#speaker").inner_text() == "Голосование: за игрока 3 — окно открыто"
    bottom = above_the_fold(console, ["#title", "#speaker", ".key-next", ".key-pause", "#seats"])
    below(console, "#names", bottom)
    console.screenshot(path=str(SHOTS / "console-vote.png"))
    game.until(lambda rt: rt.game.phase is Phase.NIGHT_HUNT)
    shown(console, runtime)
    bottom = above_the_fold(console, ["#title", ".key-next", ".key-pause", "#seats"])
    below(console, "#names", bottom)
    console.screenshot(path=str(SHOTS / "console-night.png"))


# each seat button after the end: its text (a range over its contents) inside its content box,
# and each line of it (a span) not wider than itself
SEAT_FIT = """() => [...document.querySelectorAll('#seats button')].map((b) => {
  const range = document.createRange(); range.selectNodeContents(b);
  const text = range.getBoundingClientRect(), box = b.getBoundingClientRect(), st = getComputedStyle(b);
  const inner = { left: box.left + parseFloat(st.borderLeftWidth) + parseFloat(st.paddingLeft),
                  right: box.right - parseFloat(st.borderRightWidth) - parseFloat(st.paddingRight),
                  top: box.top + parseFloat(st.borderTopWidth), bottom: box.bottom - parseFloat(st.borderBottomWidth) };
  const labels = [...b.children].map((s) => ({ text: s.textContent, scroll: s.scrollWidth, client: s.clientWidth,
    left: s.getBoundingClientRect().left, right: s.getBoundingClientRect().right }));
  return { text: b.textContent, scroll: b.scrollWidth, client: b.clientWidth, inner, labels,
           left: text.left, right: text.right, top: text.top, bottom: text.bottom };
})"""


def test_after_the_end_the_roles_stay_inside_the_seat_buttons(console):
    console, game = console
    runtime = game.runtime
    game.until(lambda rt: rt.game.phase is Phase.GAME_OVER)
    runtime.sched.run_due(runtime.speaking_until)  # the end said: the roles are shown from then on
    game.publisher.refresh()
    shown(console, runtime, "view.seats.every((x) => x.role)")
    assert "мирный житель" in console.locator("#seats").inner_text()
    for width in (390, 360, 320):
        console.set_viewport_size({"width": width, "height": PHONE["height"]})
        for seat in console.evaluate(SEAT_FIT):
            where = (width, seat)
            inner = seat["inner"]
            assert seat["scroll"] <= seat["client"], where
            assert inner["left"] - 0.5 <= seat["left"] and seat["right"] <= inner["right"] + 0.5, where
            assert inner["top"] - 0.5 <= seat["top"] and seat["bottom"] <= inner["bottom"] + 0.5, where
            for label in seat["labels"]:
                assert label["scroll"] <= label["client"], where
                assert inner["left"] - 0.5 <= label["left"] and label["right"] <= inner["right"] + 0.5, where
    console.set_viewport_size(PHONE)
    console.screenshot(path=str(SHOTS / "console-end.png"))


# ---------------------------------------------------------------- the review's names on a phone

# each «Места» row's name: the lines its text is laid out on, whether it is cut, and how
NAME_LINES = """() => [...document.querySelectorAll('table.seats tbody tr')].map((row) => {
  const cell = row.children[1], range = document.createRange(); range.selectNodeContents(cell);
  const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
  const cut = [cell, ...cell.querySelectorAll('*')].find((e) => e.scrollWidth > e.clientWidth + 0.5);
  return { text: cell.textContent, lines: tops.size, cut: cut ? getComputedStyle(cut).textOverflow : null };
})"""


@pytest.fixture(scope="module")
def review_served(tmp_path_factory):
    """The example full game, finished, its seats named with short, hyphenated and long names."""
    path = tmp_path_factory.mktemp("review") / "g.db"
    store = Store(path)
    simulate(load_script(ROOT / "examples" / "classic-full-game.json"), lambda key, slots: 1.0, store=store)
    for seat, name in enumerate(NAMES, 1):
        store.roster.seat_by_name(1, seat, name)
    store.close()
    server = WebServer(private_publisher()[0], "127.0.0.1", 0, club=ClubPages(path))
    _, port = server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


def test_the_reviews_names_stay_on_one_line_on_a_phone(browser, review_served):
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(f"{review_served}/game/1")
        rows = page.evaluate(NAME_LINES)
        assert [row["text"] for row in rows] == NAMES
        for row in rows:
            assert row["lines"] == 1, row  # never «Жанн/а»
            assert row["cut"] in (None, "ellipsis"), row  # too long for its cell: «…», never cut bare
        assert rows[0]["cut"] is None  # «Жанна» whole
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(SHOTS / "review-names-phone.png"))
    finally:
        page.close()
