"""The best move in a real browser (``run --panel web``): in the last word
of the player killed on the first night of a classic game the host's
console offers «Лучший ход»; three seats typed there are recorded as that
player's best move and said back («Принято: …»), a bad entry is refused in
Russian and nothing is recorded, and the table page is never told how many
of the seats are black before the game ends."""

import json
import time
import urllib.request

import pytest

from engine import BestMove, Phase
from engine.roles import BLACK_ROLES
from hardware.events import Press
from host_device.runtime.settings import EVERY_STEP
from host_device.store import Store
from tests.helpers.browser import chromium, phones_hosted

SPEED = 50.0
CALL_S = 25.0  # a night call's slot: half a second of wall time at SPEED
SECRET_WORDS = ("black", "чёрн", "черн")  # a count of black seats, in any words


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


def best_moves(path, game_id):
    store = Store(path, create=False)
    try:
        return [inp for _seq, _t, inp in store.games.inputs(game_id) if isinstance(inp, BestMove)]
    finally:
        store.close()


def has_message(console, text):
    console.wait_for_function(
        "(text) => [...document.querySelectorAll('#messages li')].some((li) => li.textContent === text)",
        arg=text,
    )


def kill_at_night(host, victim, deadline):
    """Every black seat presses its button while the device calls the victim's number."""
    runtime = host.runtime
    while runtime.game.state.phase is not Phase.NIGHT_HUNT:
        assert time.monotonic() < deadline, f"no night: {runtime.game.state.phase}"
        time.sleep(0.01)

    def calls():  # the night's calls of the victim's number (night 1: the first hunt), however late seen
        return [
            e
            for e in runtime.timeline.dicts()
            if e.get("type") == "say" and e.get("key") == "call" and e.get("seat") == victim
        ]

    while not (call := calls()):
        assert runtime.game.state.phase is Phase.NIGHT_HUNT, "the victim's number was not called"
        time.sleep(0.005)
    # stamped a fifth into the victim's call on the wall clock, however late this thread saw it (a
    # loaded machine): the device places a press by its stamp (its slot is half a second of wall time)
    while runtime.sched.now < call[0]["t"] + CALL_S / 5:  # a phrase may be queued ahead of its time
        time.sleep(0.005)
    late = (runtime.sched.now - call[0]["t"] - CALL_S / 5) / SPEED
    s = runtime.game.state
    for seat in sorted(p for p in s.alive() if s.role(p) in BLACK_ROLES):
        host.inbox.put(Press(key=seat, at=time.monotonic() - late))


def test_the_best_move_typed_on_the_console_is_recorded_and_its_black_count_stays_secret(
    browser, monkeypatch, tmp_path, builtin_pack
):
    path = tmp_path / "g.db"
    auto = EVERY_STEP - {Phase.LAST_WORD}  # his last word lasts until the host's «Дальше»
    with phones_hosted(monkeypatch, tmp_path, SPEED, call_s=CALL_S, auto=auto) as (host, base, access):
        frames = []  # everything the table page is ever sent
        table = browser.new_page(viewport={"width": 1920, "height": 1080})
        table.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(frame)))
        table.goto(f"{base}/")
        console = browser.new_page()
        console.goto(f"{base}/host?t={access.host}")
        console.wait_for_selector("#question:not([hidden])")
        console.click("#yes")  # «Начать» without phones
        deadline = time.monotonic() + 120
        while host.game.state.phase is Phase.ROLES:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        s = host.game.state
        black = {seat for seat in range(1, 11) if s.role(seat) in BLACK_ROLES}
        victim = min(seat for seat in range(1, 11) if seat not in black)
        assert console.locator("#best-move").is_hidden()
        kill_at_night(host, victim, deadline)
        console.wait_for_selector("#best-move:not([hidden])", timeout=90_000)
        assert host.game.state.phase is Phase.LAST_WORD and host.game.state.speaker == victim
        others = [seat for seat in range(1, 11) if seat != victim]
        named = (others[0], sorted(black)[0], others[-1])
        # a bad entry: two seats, then his own seat; refused in Russian, nothing recorded
        console.fill("#best-move-seats", f"{named[0]} {named[1]}")
        console.press("#best-move-seats", "Enter")
        has_message(console, "лучший ход не принят: в лучшем ходе три места, а не 2")
        console.fill("#best-move-seats", f"{victim}, {named[0]}, {named[1]}")
        console.click("#best-move button")
        has_message(console, "лучший ход не принят: своё место в лучшем ходе не называют")
        assert console.locator("#best-move-said").inner_text() == ""
        assert best_moves(path, host.game_id) == []
        assert host.game.state.best_move == ()
        # three seats: recorded as his and said back on the console
        console.fill("#best-move-seats", " ".join(map(str, named)))
        console.click("#best-move button")
        said = "Принято: " + ", ".join(map(str, named))
        console.wait_for_function(
            "(said) => document.getElementById('best-move-said').textContent === said", arg=said
        )
        has_message(console, f"записано: лучший ход игрока {victim}: {named[0]}, {named[1]}, {named[2]}")
        assert best_moves(path, host.game_id) == [BestMove(seat=victim, seats=named)]
        assert host.game.state.best_move == named
        # the table page: told the seats (said aloud), never how many of them are black
        made = []
        for _ in range(200):
            made = [e for e in map(json.loads, map(str, frames)) if e.get("type") == "best_move_made"]
            if made:
                break
            table.wait_for_timeout(50)  # the page's events arrive while it waits
        assert made and made[-1]["seats"] == list(named) and made[-1]["seat"] == victim
        assert set(made[-1]) == {"t", "type", "night", "seat", "seats"}  # no count of black seats
        said_back = [e for e in map(json.loads, map(str, frames)) if e.get("type") == "say"]
        assert any(e["text"].startswith("Лучший ход: ") for e in said_back)  # said back (the page's line
        # shows it only until the next phrase: «Время!» comes a second later at this speed)
        console.click("#keys .key-next")  # «Дальше»: his last word is over, the day goes on
        console.wait_for_selector("#best-move", state="hidden")
        assert host.game.state.phase is not Phase.GAME_OVER
        public = urllib.request.urlopen(f"{base}/api/state").read().decode("utf-8")
        for text in (table.locator("body").inner_text(), "\n".join(map(str, frames)), public):
            lowered = text.lower()
            assert not [word for word in SECRET_WORDS if word in lowered]
