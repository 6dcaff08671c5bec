"""Phones as seats in a real browser (``run --panel web``): the deal waits
for the phones, a seat's role stays on its own phone for the whole game
(a phone that comes late, a reload), and a press made while a phone is
offline never counts in another window; the page says at once that its
connection is lost, and the host is told."""

import re
import time

import pytest

from engine import Role
from host_device.session.deal import deal
from tests.helpers.browser import chromium, phones_hosted
from voices.forms import ROLE_WORDS

SPEED = 10.0


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


def messages(console):
    return console.locator("#messages li").all_inner_texts()


def holding(phone):
    """What the phone shows while «Моя роль» is held; let go, it shows nothing again."""
    phone.locator("#hold").hover()
    phone.mouse.down()
    phone.wait_for_function("document.getElementById('secret').textContent !== ''")
    text = phone.locator("#secret").inner_text()
    phone.mouse.up()
    phone.wait_for_function("document.getElementById('secret').textContent === ''")
    return text


def said(host, key):
    return any(e["type"] == "say" and e["key"] == key for e in host.runtime.timeline.dicts())


def pick_name(phone, name):
    phone.wait_for_selector("#own-pick:not([hidden]) .pick-input")
    phone.locator("#own-pick .pick-input").fill(name)
    phone.locator("#own-pick .pick-add").click()


def test_the_deal_waits_for_the_players_names_and_a_name_picked_at_night_waits_for_the_morning(
    browser, monkeypatch, tmp_path, builtin_pack
):
    """Ten phones connected are not enough: with no console connected the
    deal starts once every phone's player has picked his name. A name
    picked in the night is kept for the morning, and the phone says so; the
    console's lines of the names go when the day begins."""
    from engine import Phase
    from engine.steps import NIGHT
    from hardware.events import HostKey, Press

    with phones_hosted(monkeypatch, tmp_path, SPEED) as (host, base, access):
        table = browser.new_page(viewport={"width": 1920, "height": 1080})
        table.goto(f"{base}/")
        phones = {}
        for seat in range(1, 11):
            phones[seat] = browser.new_page(viewport={"width": 390, "height": 844})
            phones[seat].goto(f"{base}/seat/{seat}?t={access.seats[seat]}")
        table.wait_for_function("state && state.phones_wait === 'Ждём имена: выбраны 0 из 10'")
        for seat in range(1, 10):
            pick_name(phones[seat], f"Игрок {seat}")
        table.wait_for_function("state && state.phones_wait === 'Ждём имена: выбраны 9 из 10'")
        table.wait_for_timeout(1000)  # ten seconds of the game: all ten phones here, and no deal
        assert host.game.phase is Phase.ROLES and not said(host, "look_at_your_light")
        pick_name(phones[10], "Игрок 10")  # the last name: the deal begins
        table.wait_for_function("state && state.phones_wait === null")
        deadline = time.monotonic() + 60
        while not said(host, "look_at_your_light"):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        # the host pauses the night as it falls (its six seconds are 0.6 s of wall time: a console
        # click after the test's thread saw it came too late on a loaded machine), from the device's
        # own timeline: the pause is the next thing the runtime takes
        paused = []

        def pause_at_nightfall(_entry):
            if host.game.phase in NIGHT and not paused:
                paused.append(True)
                host.inbox.put(HostKey(Press(key="pause", at=time.monotonic())))

        host.runtime.recorders.append(pause_at_nightfall)
        console = browser.new_page()
        console.goto(f"{base}/host?t={access.host}")
        console.wait_for_function(
            "[...document.querySelectorAll('#messages li')].some((li) => li.textContent.includes('выбрал имя'))"
        )
        # the night of the introductions: seat 4's player picks another name; kept for the morning
        while host.game.phase not in NIGHT:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        # paused (above): the pick takes a loaded machine longer than the night's six seconds
        console.wait_for_function("document.querySelector('.key-pause').textContent === 'продолжить'")
        assert host.game.phase in NIGHT
        phones[4].click("#own-change")
        pick_name(phones[4], "Вера")
        phones[4].wait_for_function(
            "document.getElementById('own-now').textContent === 'Имя «Вера» запомнено: оно появится утром'"
        )
        assert host.game.phase in NIGHT and "Вера" not in " ".join(messages(console))
        console.click(".key-pause")  # the night goes on
        # the morning: the name is given, told on the console; the lines from before the deal have gone
        phones[4].wait_for_function(
            "document.getElementById('own-now').textContent === 'Вы: Вера'", timeout=60_000
        )
        # told to the console: waited for on the device's own notices (the console page shows the
        # last five lines, and phones coming back after a long paused night on a loaded machine —
        # «место 6: снова на связи» … — can push the name's line off it before the test reads it)
        told = "место 4: игрок выбрал имя «Вера»"
        deadline = time.monotonic() + 60
        while told not in host.console.notices:
            if time.monotonic() > deadline:
                raise AssertionError((messages(console), host.console.notices, host.game.state.day))
            time.sleep(0.05)
        names = [m for m in host.console.notices if "выбрал имя" in m]
        assert names == ["место 4: игрок выбрал имя «Вера»"], (names, host.game.state.day)  # the deal's gone
        assert host.game.state.day == 1


def test_the_deal_waits_for_the_phones_and_a_late_phone_still_sees_its_role(
    browser, monkeypatch, tmp_path, capsys, builtin_pack
):
    with phones_hosted(monkeypatch, tmp_path, SPEED) as (host, base, access):
        roles = dict(deal(host.preset, 7).roles)  # run's deal with args' seed
        console = browser.new_page()
        console.goto(f"{base}/host?t={access.host}")
        table = browser.new_page(viewport={"width": 1920, "height": 1080})
        table.goto(f"{base}/")
        early = {}
        for seat in (1, 2, 3):
            early[seat] = browser.new_page(viewport={"width": 390, "height": 844})
            early[seat].goto(f"{base}/seat/{seat}?t={access.seats[seat]}")
        waiting = "Ждём телефоны: подключены 3 из 10 · имена: 0 из 10"
        console.wait_for_function(f"document.getElementById('question-text').textContent === '{waiting}'")
        assert console.locator("#yes").inner_text() == "Начать"
        table.wait_for_function(f"document.getElementById('phones-wait').textContent === '{waiting}'")
        assert host.game.state.phase.value == "roles"
        told = [m for m in messages(console) if m.startswith("место 1: ")]
        # connected (or, if its socket came twice in the notices' 5 s, back with the count)
        assert told and told[-1].startswith(("место 1: телефон подключён", "место 1: снова на связи")), told
        console.click("#yes")  # «Начать»: the deal goes on without the other seven
        console.wait_for_selector("#question", state="hidden")
        table.wait_for_selector("#phones-wait", state="hidden")
        table.wait_for_function("state && state.phase !== 'roles'", timeout=60_000)
        # seat 8's phone comes after the deal has gone past it: its role is there, behind a press
        late = browser.new_page(viewport={"width": 390, "height": 844})
        late.goto(f"{base}/seat/8?t={access.seats[8]}")
        mine = f"Ваша роль: {ROLE_WORDS[roles.get(8, Role.CIVILIAN)]}"
        late.wait_for_function("view && view.role")
        assert mine not in late.evaluate("document.documentElement.outerHTML")  # not shown until held
        assert holding(late) == mine
        assert late.locator("#secret").inner_text() == ""  # let go: gone
        late.reload()
        late.wait_for_function("view && view.role")
        assert holding(late) == mine
        assert holding(early[1]) == f"Ваша роль: {ROLE_WORDS[roles.get(1, Role.CIVILIAN)]}"
        # the role went to that seat's phone alone: not to the table page, nor to the console
        assert "Ваша роль" not in table.evaluate("JSON.stringify(state)")
        assert "Ваша роль" not in console.locator("body").inner_text()
        # the deal's notices go when the day begins; a phone that leaves is told
        table.wait_for_function("state && state.day >= 1", timeout=60_000)
        console.wait_for_function(
            "![...document.querySelectorAll('#messages li')].some((li) => li.textContent.includes('подключён'))"
        )
        early[2].close()
        console.wait_for_function(
            "[...document.querySelectorAll('#messages li')].some((li) => li.textContent === 'место 2: телефон отключён')"
        )
    out = capsys.readouterr().out
    assert f"host-device: {waiting}" in out
    assert "host-device: место 2: телефон отключён" in out


def test_a_press_made_offline_never_counts_in_another_window(browser, monkeypatch, tmp_path, builtin_pack):
    """Seat 7's phone goes offline in the vote for candidate 5, is pressed,
    and comes back in the vote for candidate 6: no ballot of seat 7's."""
    from engine import Vote
    from hardware.events import HostKey, Press

    with phones_hosted(monkeypatch, tmp_path, SPEED, vote_window_s=40.0) as (host, base, access):
        console = browser.new_page()
        console.goto(f"{base}/host?t={access.host}")
        table = browser.new_page(viewport={"width": 1920, "height": 1080})
        table.goto(f"{base}/?t={access.host}")
        offline = browser.new_context(viewport={"width": 390, "height": 844})
        phone = offline.new_page()
        phone.goto(f"{base}/seat/7?t={access.seats[7]}")
        phone.wait_for_function("document.getElementById('status').textContent.includes('подключено')")
        table.wait_for_selector("#whole-switch:not([hidden])")
        table.check("#whole")
        table.wait_for_selector("#whole-on:not([hidden])")
        host.inbox.put(HostKey(Press(key="next", at=time.monotonic())))  # «Начать»: seat 7 is enough
        done = set()
        while (s := table.evaluate("state"))["phase"] != "vote":
            speaker = s["speaker"]
            if s["phase"] == "speech" and speaker and speaker not in done:
                done.add(speaker)
                pick = {1: 5, 2: 6}.get(speaker)
                if pick:
                    table.fill("#words", f"я выставляю игрока номер {pick}")
                    table.press("#words", "Enter")
                    table.wait_for_function(
                        f"state.nominations.some((n) => n.seat === {pick})", timeout=10_000
                    )
                table.click(f"#seat-{speaker}")
            table.wait_for_timeout(20)
        table.wait_for_function("state.vote && state.vote.candidate === 5 && state.vote.window_open")
        offline.set_offline(True)
        phone.click("#button")  # made in the vote for 5, while the phone cannot reach the device
        phone.wait_for_function(
            "document.getElementById('status').textContent.startsWith('НЕТ СВЯЗИ')", timeout=2_000
        )
        console.wait_for_function(
            "[...document.querySelectorAll('#messages li')].some((li) => li.textContent === 'место 7: телефон отключён')"
        )
        table.wait_for_function(
            "state.vote && state.vote.candidate === 6 && state.vote.window_open", timeout=20_000
        )
        offline.set_offline(False)
        phone.wait_for_function(
            "document.getElementById('status').textContent.includes('подключено')", timeout=10_000
        )
        console.wait_for_function(
            "[...document.querySelectorAll('#messages li')].some((li) => li.textContent === 'место 7: снова на связи')"
        )
        table.wait_for_function("!state.vote || state.vote.candidate !== 6", timeout=20_000)
        assert not [inp for inp in host.game.record if isinstance(inp, Vote) and inp.seat == 7]
        assert re.search(r"\d", phone.locator("#number").inner_text())
