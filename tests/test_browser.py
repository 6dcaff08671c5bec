"""The table page in a real browser: Debian's Chromium driven by Playwright
(its own browser download cannot be reached here), against a demo game
served on loopback on a fast clock. Screenshots at phone and TV sizes go to
tests/screenshots/ (ignored by git) for a person to look at."""

import io
import re
import threading
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from host_device.runtime.demo import demo

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).parent / "screenshots"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def served_demo(builtin_pack):
    """A demo game at 40× speed with its table page on a loopback port."""
    out = io.StringIO()
    result = {}
    thread = threading.Thread(
        target=lambda: result.update(demo(None, 40.0, "null", out, "host", "127.0.0.1:0")), daemon=True
    )
    thread.start()
    while not re.search(r"http://127\.0\.0\.1:\d+/", out.getvalue()):
        thread.join(0.05)
        assert thread.is_alive(), out.getvalue()
    url = re.search(r"http://127\.0\.0\.1:\d+/", out.getvalue()).group(0)
    yield url
    thread.join(120)


@pytest.fixture(scope="module")
def browser():
    assert Path(CHROMIUM).exists(), "./run test installs Debian's chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.mark.parametrize(("name", "size"), [("phone", (390, 844)), ("tv", (1920, 1080))])
def test_the_table_page_follows_the_game(browser, served_demo, name, size):
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(served_demo)
    page.wait_for_selector("#seat-10")
    assert page.locator(".seat").count() == 10
    page.wait_for_function("document.getElementById('title').textContent.startsWith('День 1')", timeout=60_000)
    page.wait_for_function("/^\\d:\\d\\d$/.test(document.getElementById('clock').textContent)", timeout=60_000)
    assert page.locator("html").get_attribute("lang") == "ru"
    assert page.locator(".seat.speaking").count() == 1
    assert page.locator("#phrase").inner_text().strip() != ""
    assert "мафия" not in page.locator("#table").inner_text()  # no role on the seats during the game
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"table-{name}.png"))
    box = page.locator("#clock").bounding_box()
    assert box is not None and box["height"] >= (40 if name == "phone" else 120)  # readable from afar
    assert not errors
    page.close()
