"""The stream overlay (issue 49 item 1) in Debian's Chromium at OBS's three
sizes — 1920×1080 (/overlay), 1920×260 (/overlay/seats), 1920×100
(/overlay/line) — following the classic example game on a virtual clock with
the players' names, ``[stream]`` set to 30 s of delay and the roles shown
after it: each page's background is transparent (a screenshot without
background keeps its corners' alpha at 0), and it shows the speaker and his
clock, the nominees, each voter's vote after a vote, the night's end with its
victim, the roles and checks — only once the wall clock is 30 s past the
moment. Screenshots are kept beside this file (tests/system/screenshots/overlay-*.png)."""

import queue

import pytest
from matplotlib.image import imread

from engine import Game, Phase
from host_device.config import StreamSettings
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.screens.public import PublicStream
from host_device.screens.views import Console
from host_device.scripts.script import load_script
from host_device.scripts.simulate import ScriptedTable, builtin_durations
from host_device.web.access import Access
from host_device.web.publisher import Private, Publisher
from host_device.web.server import WebServer
from tests.helpers.browser import chromium
from tests.helpers.paths import ROOT
from tests.system.test_browser_table import long_seating
from voices.catalogue import russian

DELAY = 30.0
SIZES = {"": (1920, 1080), "/seats": (1920, 260), "/line": (1920, 100)}
KEPT = ROOT / "tests" / "system" / "screenshots"


class Wall:
    def __init__(self):
        self.t = 0.0

    def now(self):
        return self.t


@pytest.fixture(scope="module")
def game(builtin_pack):
    script = load_script(ROOT / "examples" / "classic-full-game.json")
    runtime = Runtime(Game(script.preset), Scheduler(), builtin_durations(), None)
    scripted = ScriptedTable(script, runtime)
    stream = PublicStream(runtime, russian().text)
    stream.seating = long_seating()
    wall = Wall()
    settings = StreamSettings(enabled=True, delay_s=DELAY, roles="delayed")
    access = Access.new(())
    publisher = Publisher(stream, 1.0, Private(access, Console(runtime, None), queue.Queue(), settings), wall)
    server = WebServer(publisher, "127.0.0.1", 0)
    host, port = server.start()
    scripted.deal()

    def until(moment):
        """The game run to ``moment``, then the wall clock ``DELAY`` past it: the overlay shows it."""
        sched = runtime.sched
        while not moment(runtime):
            t = sched.next_time()
            assert t is not None, "the game ended before the moment"
            wall.t = t
            sched.run_due(t)
        wall.t = sched.now + DELAY

    yield f"http://{host}:{port}", access.stream, until, server.overlay
    server.stop()


@pytest.fixture(scope="module")
def pages(game):
    base, token, _, _ = game
    with chromium() as browser:
        opened = {}
        for size, (width, height) in SIZES.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"{base}/overlay{size}?t={token}")
            opened[size] = page
        yield opened


def shot(page, name):
    path = KEPT / f"overlay-{name}.png"
    page.screenshot(path=str(path), omit_background=True)
    image = imread(str(path))
    assert image.shape[2] == 4, "a PNG with alpha"
    return image


def transparent(page):
    return page.evaluate(
        "[document.documentElement, document.body].map((el) => getComputedStyle(el).backgroundColor)"
    ) == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]


def test_the_overlay_follows_the_game_at_three_sizes_on_a_transparent_background(game, pages):
    _, _, until, feed = game
    full, strip, line = pages[""], pages["/seats"], pages["/line"]
    assert all(transparent(page) for page in pages.values())

    # a day's speech: the speaker, his name and his clock; the nominees
    until(
        lambda rt: (
            rt.game.state.phase is Phase.SPEECH
            and rt.game.state.day == 1
            and rt.time_left()
            and rt.game.state.nominations
        )
    )
    speaker = feed.live()["speaker"]
    full.wait_for_function(f"state && state.speaker === {speaker}", timeout=10_000)
    line.wait_for_function(f"state && state.speaker === {speaker}", timeout=10_000)
    said = line.inner_text("#info")
    assert f"Говорит №{speaker}" in said and "Выставлены:" in said
    assert full.locator(f"#seat-{speaker}.speaking").count() == 1
    assert full.inner_text("#clock").count(":") == 1
    assert "Вениамин Преображенский" in full.inner_text("#seat-3")  # names from the seating
    image = shot(line, "line-speech")
    assert image.shape[:2] == (100, 1920)
    shot(full, "full-speech")

    # after the day's vote: each voter's vote on his seat
    until(lambda rt: feed.live()["votes"] and rt.game.state.phase is not Phase.VOTE)
    voters = feed.live()["votes"][-1]["voters"]
    strip.wait_for_function(
        "want => { const got = state && (state.votes || []).at(-1)?.voters;"
        " return !!got && Object.entries(want).every(([k, c]) => got[k] === c); }",
        arg=voters,
        timeout=10_000,
    )
    for voter, candidate in voters.items():
        assert f"голос → {candidate}" in strip.inner_text(f"#seat-{voter}")
    full.wait_for_function("!document.getElementById('vote-result').hidden", timeout=10_000)
    assert "Голосование: №3" in full.inner_text("#vote-result")  # its candidates, their votes, the voters
    shot(full, "full-vote")
    image = shot(strip, "seats-vote")
    assert image.shape[:2] == (260, 1920)
    assert image[2, 2, 3] == 0 and image[2, -3, 3] == 0  # the corners: the video shows through

    # the morning after the first night: its end, its victim, the roles and the checks (30 s later)
    until(lambda rt: rt.game.state.phase is Phase.MORNING and rt.game.state.day == 2)
    full.wait_for_function("state && state.night_end && state.day === 2", timeout=10_000)
    killed = feed.live()["night_end"]["killed"]
    assert killed and full.is_visible("#night-end")
    assert f"убит №{killed[0]}" in full.inner_text("#night-end") and "Ночь 1 окончена" in full.inner_text(
        "#night-end"
    )
    roles = feed.live()["secrets"]["roles"]
    don = next(seat for seat, role in roles.items() if role == "don")
    full.wait_for_function(
        f"document.querySelector('#seat-{don} .role').textContent === 'дон'", timeout=10_000
    )
    assert "проверяет" in full.inner_text("#checks")
    image = shot(full, "full-night-end")
    assert image.shape[:2] == (1080, 1920)
    assert image[540, 1919, 3] == 0 and image[5, 960, 3] == 0  # the middle of the right edge, the top
    line.wait_for_function("state && state.night_end && state.day === 2", timeout=10_000)
    assert "Ночь 1 окончена" in line.inner_text("#night-end")
    shot(line, "line-night-end")
