"""Ten phones and the TV through the classic example game in Debian's
Chromium (tests/helpers/browser.py), the game on a virtual clock that
stands still while the pages are read: at the deal and at night every
phone's page is dark and looks the same — the mean brightness of its
screenshot, its DOM's size — whatever it holds (the Don's turn of the deal,
the Sheriff's answer); a secret shows, dim and small, only while «Моя роль»
is held. By day: a press in the speaker's own announcement says why it did
not count, a vote shows its candidate's number large, and the TV's side
panel is read from across a room (sizes at 1920×1080), a vote's counts on
it. Screenshots go to tests/screenshots/ (ignored by git); the ones kept in
git beside this file (tests/system/screenshots/) were copied from there."""

import io
import queue
from dataclasses import dataclass
from typing import Any

import pytest
from matplotlib.image import imread

from engine import DealRoles, Game, Phase, Role
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.screens.public import PublicStream
from host_device.screens.views import Console
from host_device.scripts.script import load_script
from host_device.scripts.simulate import ScriptedTable, builtin_durations
from host_device.session.deal import show_roles
from host_device.web.access import Access
from host_device.web.inputs import PhonePress
from host_device.web.publisher import Private, Publisher
from host_device.web.server import WebServer
from tests.helpers.browser import chromium
from tests.helpers.host import StillWall
from tests.helpers.paths import ROOT
from voices.catalogue import russian

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
SHOTS = ROOT / "tests" / "screenshots"
MARGIN = 0.5  # of 255: the phones' mean brightness at night differs by less (a seat number's digits)
SEATS = range(1, 11)


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@dataclass
class Stepped:
    base: str
    access: Access
    runtime: Runtime
    publisher: Publisher
    inbox: queue.Queue[Any]

    def until(self, moment):
        """Run the game's events until ``moment``, where it stands still; the phones are sent their views."""
        sched = self.runtime.sched
        while not moment(self.runtime):
            t = sched.next_time()
            assert t is not None, "the game ended before the moment"
            sched.run_due(t)
        self.publisher.refresh()

    def phone_press(self):
        """The next phone's press in the inbox, taken as the session takes it (in its step, now)."""
        rt = self.runtime
        while not isinstance(item := self.inbox.get(timeout=10), PhonePress):
            pass  # a phone's arrival, told to the host
        if rt.made_here(item.key, item.made_in, rt.sched.now):
            rt.press(item.key)
        self.publisher.refresh()


@pytest.fixture
def stepped(builtin_pack):
    """The classic example game (the Don 3 voted out on day 1, the Sheriff 6 finds 5 black on
    night 1), dealt by the device (each seat's LED in turn), every seat a phone."""
    script = load_script(ROOT / "examples" / "classic-full-game.json")
    runtime = Runtime(Game(script.preset), Scheduler(), builtin_durations(), None)
    ScriptedTable(script, runtime)
    access = Access.new(SEATS)
    inbox: queue.Queue[Any] = queue.Queue()
    private = Private(access, Console(runtime), inbox)
    publisher = Publisher(PublicStream(runtime, russian().text), clock=StillWall(), private=private)
    server = WebServer(publisher, "127.0.0.1", 0)
    host, port = server.start()
    dealt = DealRoles(roles=tuple(sorted(script.roles.items())))
    show_roles(runtime, dealt, lambda: runtime.handle(dealt))
    yield Stepped(f"http://{host}:{port}", access, runtime, publisher, inbox)
    server.stop()


def open_phones(browser, stepped, seats=SEATS):
    phones = {}
    for seat in seats:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{stepped.base}/seat/{seat}?t={stepped.access.seats[seat]}")
        phones[seat] = page
    for page in phones.values():
        page.wait_for_function("document.getElementById('status').textContent.includes('подключено')")
    return phones


def shown(phones, runtime, check="true"):
    """Each phone shows the step the game stands in (and ``check`` holds on it)."""
    for page in phones.values():
        page.wait_for_function(f"view && view.window === {runtime.step} && ({check})")


def brightness(page):
    """The mean brightness of the page's screenshot, 0…255."""
    return float(imread(io.BytesIO(page.screenshot()), format="png")[..., :3].mean() * 255)


DOM_SIZE = "document.documentElement.outerHTML.replace(/\\d+/g, '#').length"  # a seat's number aside
STYLE = """sel => { const el = document.querySelector(sel), st = getComputedStyle(el);
  const [r, g, b] = st.color.match(/\\d+/g).map(Number);
  return { text: el.textContent, size: parseFloat(st.fontSize), light: (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 }; }"""


def alike(phones, when):
    """Every phone's screenshot and DOM: the same brightness and size, whatever it holds."""
    for page in phones.values():  # no phone lost its connection at this moment: that is not a role
        page.wait_for_function("!document.body.classList.contains('lost')")
    seen = {seat: brightness(page) for seat, page in phones.items()}
    sizes = {seat: page.evaluate(DOM_SIZE) for seat, page in phones.items()}
    assert max(seen.values()) - min(seen.values()) < MARGIN, (when, seen)
    assert max(seen.values()) < 12, (when, seen)  # dark: near black
    assert len(set(sizes.values())) == 1, (when, sizes)
    for page in phones.values():
        assert page.evaluate("document.body.classList.contains('dark')")
    return seen


def held(page, shot=None):
    """What «Моя роль» shows while held (and its look); let go, it shows nothing."""
    box = page.locator("#hold").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_function("document.getElementById('secret').textContent !== ''")
    seen = page.evaluate(STYLE, "#secret")
    seen["brightness"] = brightness(page)
    if shot:
        page.screenshot(path=str(SHOTS / shot))
    page.mouse.up()
    page.wait_for_function("document.getElementById('secret').textContent === ''")
    return seen


def test_at_the_deal_and_at_night_every_phone_looks_the_same_and_a_secret_shows_only_on_a_hold(
    browser, stepped
):
    runtime = stepped.runtime
    phones = open_phones(browser, stepped)
    # the deal: the Don's turn (seat 3), his LED blinking fast on a panel; on his phone nothing lights
    stepped.until(lambda rt: rt.leds.get(3, "off") != "off")
    shown(phones, runtime, "view.dark")
    assert phones[3].evaluate("view.role") == "Ваша роль: Дон" and phones[3].evaluate("view.led") == "off"
    deal = alike(phones, "the Don's turn of the deal")
    for page in phones.values():
        assert "Ваша роль" not in page.evaluate("document.documentElement.outerHTML"), page.evaluate(
            "document.documentElement.outerHTML"
        )
    secret = held(phones[3])
    assert secret["text"] == "Ваша роль: Дон"
    assert secret["size"] <= 17 and secret["light"] < 0.4, secret  # small and dim
    assert secret["brightness"] - deal[3] < 1.0, secret  # a neighbour sees no glow
    assert phones[3].evaluate(DOM_SIZE) == phones[4].evaluate(DOM_SIZE)  # let go: gone from the page
    # night 1: the Sheriff (6) has checked 5, his answer on his LED (steady: black)
    stepped.until(
        lambda rt: (
            rt.game.phase is Phase.NIGHT_CHECK
            and rt.game.state.step_role is Role.SHERIFF
            and rt.leds.get(6) == "on"
        )
    )
    # seat 8's phone reloaded at night (its connection dropped): it never saw a vote, the others did;
    # the page must not keep a past vote in its DOM, or the reloaded phone differs from the rest
    phones[8].reload()
    phones[8].wait_for_function("document.getElementById('status').textContent.includes('подключено')")
    shown(phones, runtime, "view.dark")
    assert phones[6].evaluate("view.answer") == "Проверка: чёрный (игрок 5)"
    assert not phones[3].evaluate("view.alive")  # the Don, voted out on day 1, looks as the living do
    night = alike(phones, "the Sheriff's answer")
    SHOTS.mkdir(exist_ok=True)
    phones[6].screenshot(path=str(SHOTS / "phone-night-sheriff.png"))
    assert "чёрный" not in phones[6].content()
    secret = held(phones[6], "phone-night-sheriff-held.png")
    assert secret["text"] == "Ваша роль: Шериф\nПроверка: чёрный (игрок 5)"
    assert secret["size"] <= 17 and secret["light"] < 0.4 and secret["brightness"] - night[6] < 1.0, secret
    assert held(phones[4])["text"] == "Ваша роль: мирный житель"  # another's hold: his own role only
    print(f"mean brightness of the ten phones (0…255): the deal {deal}, the night {night}")


def test_by_day_a_phone_says_why_a_press_did_not_count_and_shows_the_votes_candidate_and_the_tv_reads_from_afar(
    browser, stepped
):
    runtime = stepped.runtime
    phones = open_phones(browser, stepped, (1, 9))
    table = browser.new_page(viewport=TV)
    table.goto(f"{stepped.base}/")
    # day 1, seat 1's speech: his own press while «Игрок номер один, ваша минута» is said counts for nothing
    stepped.until(lambda rt: rt.game.phase is Phase.SPEECH and rt.game.state.speaker == 1)
    shown(phones, runtime)
    assert runtime.timer is not None and runtime.sched.now < runtime.timer[0]
    phones[1].click("#button")
    stepped.phone_press()
    assert runtime.game.state.speaker == 1  # his speech goes on
    phones[1].wait_for_function("document.getElementById('refused').textContent !== ''")
    refused = phones[1].evaluate(STYLE, "#refused")
    assert refused["text"] == "Нажатие не засчитано: слишком рано — речь только началась, нажмите ещё раз"
    assert refused["size"] >= 16
    assert phones[9].locator("#refused").inner_text() == ""
    # the vote for 3, its window open: the phone shows the candidate's number, large
    stepped.until(
        lambda rt: (
            rt.game.phase is Phase.VOTE
            and rt.window is not None
            and rt.window[0] <= rt.sched.now < rt.window[1]
        )
    )
    shown(phones, runtime, "view.vote && view.vote.open")
    number = phones[9].evaluate(STYLE, "#vote-number")
    call = phones[9].evaluate(STYLE, "#vote-call")
    assert (call["text"], number["text"]) == ("ГОЛОСУЙТЕ за игрока", "3")
    assert number["size"] >= 100, number
    phones[9].screenshot(path=str(SHOTS / "phone-vote.png"))
    # the TV at 3 m: the side panel at 40 px and more; after the vote its counts are shown
    stepped.until(lambda rt: rt.game.phase is Phase.LAST_WORD and rt.game.state.speaker == 3)
    table.wait_for_function("state && state.phase === 'last_word'")
    vote = table.evaluate(STYLE, "#vote")
    assert vote["text"] == "Итог:\nигрок 3 — 6 голосов\nигрок 5 — 4 голоса"
    for selector in ("#voting h2", "#vote", "#departed li", "#phrase"):
        seen = table.evaluate(STYLE, selector)
        assert seen["size"] >= 40, (selector, seen)
    assert table.evaluate("document.documentElement.scrollWidth") <= TV["width"]
    aside = table.evaluate(
        "(() => { const b = document.querySelector('aside').getBoundingClientRect();"
        " return { right: b.right, bottom: b.bottom }; })()"
    )
    assert aside["right"] <= TV["width"] and aside["bottom"] <= TV["height"], aside
    SHOTS.mkdir(exist_ok=True)
    table.screenshot(path=str(SHOTS / "tv-after-vote.png"))
    # day 2's nominations, at the side
    stepped.until(
        lambda rt: (
            rt.game.phase is Phase.SPEECH and rt.game.state.day == 2 and len(rt.game.state.nominations) == 2
        )
    )
    table.wait_for_function("state && state.nominations.length === 2")
    assert table.evaluate(STYLE, "#nominations li")["size"] >= 40
    assert table.evaluate(STYLE, "#nominated h2")["size"] >= 40
    # night 2: the number called, large in the middle of the table
    stepped.until(
        lambda rt: (
            rt.game.phase is Phase.NIGHT_HUNT
            and rt.game.state.day == 2
            and rt.slots
            and rt.sched.now >= rt.slots[2][1] + 0.3
        )
    )
    table.wait_for_function("state && state.called !== null && !document.getElementById('called').hidden")
    called = table.evaluate(STYLE, "#called")
    assert called["text"] == str(table.evaluate("state.called")) and called["size"] >= 100, called
    assert table.locator("#nominated").is_hidden() and table.locator("#voting").is_hidden()  # nothing: gone
    table.screenshot(path=str(SHOTS / "tv-night-call.png"))
