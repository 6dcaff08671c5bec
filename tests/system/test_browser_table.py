"""The table page on a TV (1920×1080) in Debian's Chromium, driven by
Playwright as in tests/system/test_browser.py: its big clock counts the
step's time with the host's console."""

import io
import re
import threading

import pytest
from playwright.sync_api import sync_playwright

from tests.system.test_browser import CHROMIUM, FLAGS

TV = {"width": 1920, "height": 1080}
SPEED = 10.0  # ``run --speed 10``: a minute's speech in six seconds


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def hosted(monkeypatch, tmp_path, builtin_pack):
    """``run --web --speed 10`` on the mock panel (nobody presses): its pages on loopback."""
    from host_device.session.host import Host
    from tests.helpers.host import args

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    host = Host(args(web="127.0.0.1:0", audio="null", speed=SPEED, store=str(tmp_path / "g.db")))
    thread = threading.Thread(target=host.run, daemon=True)
    thread.start()
    while host.publisher is None or not host.web_server.server.started:
        thread.join(0.02)
        assert thread.is_alive()
    bound, port = host.web_server.server.servers[0].sockets[0].getsockname()[:2]
    yield f"http://{bound}:{port}", host.publisher.private.access.host
    host.runtime.stop()
    thread.join(30)


def seconds(text):
    """The seconds an «m:ss» clock shows (the console's may add « · таймер …»)."""
    found = re.match(r"(\d+):(\d\d)", text)
    assert found, repr(text)
    return int(found[1]) * 60 + int(found[2])


def test_the_tv_clock_counts_down_with_the_consoles(browser, hosted):
    base, token = hosted
    table = browser.new_page(viewport=TV)
    console = browser.new_page(viewport={"width": 390, "height": 844})
    table.goto(f"{base}/")
    console.goto(f"{base}/host?t={token}")
    read = "document.getElementById('clock').textContent"
    table.wait_for_function(
        f"state && state.phase === 'speech' && /^\\d:\\d\\d$/.test({read})", timeout=90_000
    )
    table.wait_for_timeout(600)  # past «Игрок номер N, ваша минута»: the speaker's time runs
    shown = []  # (table, console before, console after) at several moments of the speech
    for _ in range(6):
        before = seconds(console.evaluate(read))
        at_table = seconds(table.evaluate(read))
        after = seconds(console.evaluate(read))
        shown.append((at_table, before, after))
        table.wait_for_timeout(700)  # seven seconds of the game
    assert all(after - 1 <= at_table <= before + 1 for at_table, before, after in shown), shown
    tv = [at_table for at_table, _, _ in shown]
    assert tv == sorted(tv, reverse=True) and tv[0] - tv[-1] >= 25, shown  # it counts, as the console does
