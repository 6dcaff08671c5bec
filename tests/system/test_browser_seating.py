"""The players at the table in a real browser (``run --panel web``): the
console's seat grid names each seat from the club's roster with search as
you type (or adds a new name), its extra points closed until the end; a
seat's phone picks its player's own name, which the console shows and the
host corrects; the table page shows no name before the game ends."""

import json
import urllib.request

import pytest

from host_device.store import Store
from tests.helpers.browser import chromium, phones_hosted

SPEED = 10.0


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


def row(console, seat):
    return console.locator(f'.name-row[data-seat="{seat}"]')


def stored(path, game_id):
    store = Store(path, create=False)
    try:
        return store.roster.seating(game_id), store.roster.extras(game_id), store.roster.players()
    finally:
        store.close()


def test_the_console_names_the_seats_and_a_phone_picks_its_own_name(
    browser, monkeypatch, tmp_path, builtin_pack
):
    path = tmp_path / "g.db"
    club = Store(path)
    anna, boris = club.roster.add_player("Анна", nickname="Аня"), club.roster.add_player("Борис")
    club.close()
    with phones_hosted(monkeypatch, tmp_path, SPEED) as (host, base, access):
        console = browser.new_page()
        console.goto(f"{base}/host?t={access.host}")
        console.wait_for_selector("#names:not([hidden]) .name-row")
        assert row(console, 3).locator(".name-now").inner_text() == "—"
        # search as you type: «ан» finds Анна by her name, «аня» by her nickname
        row(console, 3).locator(".pick-input").type("аня")
        row(console, 3).locator(".pick", has_text="Анна (Аня)").click()
        console.wait_for_function(
            "document.querySelector('.name-row[data-seat=\"3\"] .name-now').textContent === 'Анна (Аня)'"
        )
        # a name the roster lacks: «добавить»
        row(console, 5).locator(".pick-input").type("Вера")
        row(console, 5).locator(".pick-add").click()
        console.wait_for_function(
            "document.querySelector('.name-row[data-seat=\"5\"] .name-now').textContent === 'Вера'"
        )
        # extra points: in host mode only after the end (test_browser_evening.py gives them then)
        assert row(console, 3).locator(".extra-plus").is_disabled()
        assert row(console, 5).locator(".extra-minus").is_disabled()
        seating, extras, players = stored(path, host.game_id)
        assert seating[3] == anna and seating[5].name == "Вера"
        assert extras == {}
        assert {p.name for p in players} == {"Анна", "Борис", "Вера"}
        # seat 7's phone: its player picks his own name; the console shows it and says so
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(f"{base}/seat/7?t={access.seats[7]}")
        phone.wait_for_selector("#own-name:not([hidden])")
        assert phone.locator("#own-now").inner_text() == "Кто вы? Выберите своё имя"
        phone.locator("#own-pick .pick-input").type("бор")
        phone.locator("#own-pick .pick", has_text="Борис").click()
        phone.wait_for_function("document.getElementById('own-now').textContent === 'Вы: Борис'")
        console.wait_for_function(
            "document.querySelector('.name-row[data-seat=\"7\"] .name-now').textContent === 'Борис'"
        )
        console.wait_for_function(
            "[...document.querySelectorAll('#messages li')].some(li => li.textContent === "
            "'место 7: игрок выбрал имя «Борис»')"
        )
        assert "Анна" not in phone.locator("body").inner_text()  # a phone shows no other seat's name
        # the host corrects it: that seat is Анна (she moves from seat 3)
        row(console, 7).locator(".pick-input").type("Анна")
        row(console, 7).locator(".pick", has_text="Анна (Аня)").click()
        phone.wait_for_function("document.getElementById('own-now').textContent === 'Вы: Анна (Аня)'")
        console.wait_for_function(
            "document.querySelector('.name-row[data-seat=\"3\"] .name-now').textContent === '—'"
        )
        assert stored(path, host.game_id)[0] == {5: stored(path, host.game_id)[0][5], 7: anna}
        assert boris in stored(path, host.game_id)[2]
        # the table page before the deal: who sits where (the table seats itself), no extra points;
        # from the deal to the end no name (the club's config does not allow: test_public_told.py)
        state = urllib.request.urlopen(f"{base}/api/state").read().decode("utf-8")
        assert json.loads(state)["phase"] == "roles" and "extra" not in state
        assert {s["seat"]: s.get("name") for s in json.loads(state)["seats"] if s.get("name")} == {
            5: "Вера",
            7: "Анна (Аня)",
        }
        # the phone was never sent the roster: it asked for what was typed and got a page of matches
        assert phone.evaluate("view.roster") is None and phone.evaluate("view.naming") is True
        # a phone adds one new name a game: a second corrects it (the roster does not grow)
        before = len(stored(path, host.game_id)[2])
        phone.locator("#own-change").click()
        phone.locator("#own-pick .pick-input").fill("Гостъ")
        phone.locator("#own-pick .pick-add").click()
        phone.wait_for_function("document.getElementById('own-now').textContent === 'Вы: Гостъ'")
        phone.locator("#own-change").click()
        phone.locator("#own-pick .pick-input").fill("Гость")
        phone.locator("#own-pick .pick-add").click()
        phone.wait_for_function("document.getElementById('own-now').textContent === 'Вы: Гость'")
        names = [p.name for p in stored(path, host.game_id)[2]]
        assert len(names) == before + 1 and "Гость" in names and "Гостъ" not in names


def test_with_show_names_the_table_page_shows_a_name_as_soon_as_it_is_given(
    browser, monkeypatch, tmp_path, builtin_pack
):
    config = tmp_path / "config.toml"
    config.write_text("[club]\nshow_names = true\n", encoding="utf-8")
    monkeypatch.setenv("HOST_DEVICE_CONFIG", str(config))
    with phones_hosted(monkeypatch, tmp_path, SPEED) as (_host, base, access):
        table = browser.new_page(viewport={"width": 1920, "height": 1080})
        table.goto(f"{base}/")
        table.wait_for_selector("#seat-4")
        assert table.locator("#seat-4 .name").inner_text() == ""
        console = browser.new_page()
        console.goto(f"{base}/host?t={access.host}")
        console.wait_for_selector("#names:not([hidden]) .name-row")
        row(console, 4).locator(".pick-input").type("Глеб")
        row(console, 4).locator(".pick-add").click()
        table.wait_for_function("document.querySelector('#seat-4 .name').textContent === 'Глеб'")
        assert row(console, 4).locator(".extra-plus").is_disabled()  # host mode: after the end only
        state = json.loads(urllib.request.urlopen(f"{base}/api/state").read().decode("utf-8"))
        assert state["seats"][3]["name"] == "Глеб"
        assert all("extra" not in seat and "role" not in seat for seat in state["seats"])  # still secret
