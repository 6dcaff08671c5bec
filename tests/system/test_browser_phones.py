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
        waiting = "Ждём телефоны: подключены 3 из 10"
        console.wait_for_function(f"document.getElementById('question-text').textContent === '{waiting}'")
        assert console.locator("#yes").inner_text() == "Начать"
        table.wait_for_function(f"document.getElementById('phones-wait').textContent === '{waiting}'")
        assert host.game.state.phase.value == "roles"
        assert "место 1: телефон подключён" in messages(console)
        console.click("#yes")  # «Начать»: the deal goes on without the other seven
        console.wait_for_selector("#question", state="hidden")
        table.wait_for_selector("#phones-wait", state="hidden")
        table.wait_for_function("state && state.phase !== 'roles'", timeout=60_000)
        # seat 8's phone comes after the deal has gone past it: its role is there, behind a press
        late = browser.new_page(viewport={"width": 390, "height": 844})
        late.goto(f"{base}/seat/8?t={access.seats[8]}")
        mine = f"Ваша роль: {ROLE_WORDS[roles.get(8, Role.CIVILIAN)]}"
        late.wait_for_selector("#reveal:not([hidden])")
        assert late.locator("#secret").is_hidden()
        assert mine not in late.locator("body").inner_text()  # not shown until asked for
        late.click("#reveal")
        assert late.locator("#secret").inner_text() == mine
        late.wait_for_selector("#secret", state="hidden", timeout=8_000)  # hidden again after a few seconds
        late.reload()
        late.wait_for_selector("#reveal:not([hidden])")
        late.click("#reveal")
        assert late.locator("#secret").inner_text() == mine
        early[1].click("#reveal")
        assert (
            early[1].locator("#secret").inner_text()
            == f"Ваша роль: {ROLE_WORDS[roles.get(1, Role.CIVILIAN)]}"
        )
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
