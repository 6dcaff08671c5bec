"""After a game's end, in a real browser (``run --web``, the session of
host_device/cli/run.py on a fast clock): the pages stay up — the table
page's «Разбор игры» opens the game's review, the console asks «Следующая
игра» or «Закончить вечер» with its seat grid's extra points beside —, the
extra points are also set from the command line (``games extra``) and both
reach the protocol; «Следующая игра» starts the evening's next game at the
same console address, and «Закончить вечер» ends ``run``.

The game is the example full game stored up to its last day's vote (as a
game killed there) and resumed: the device ends it in a few seconds."""

import io
import re
import socket
import threading
import time
from types import SimpleNamespace

import pytest

from host_device.cli.main import main
from host_device.club.build import record_of
from host_device.club.protocol import game_page
from host_device.club.scoring import load_table, points
from host_device.store import Store
from tests.helpers.browser import chromium
from tests.helpers.host import args
from tests.helpers.store import almost_over

SPEED = 20.0


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def evening(monkeypatch, tmp_path, builtin_pack):
    """``run --web`` carrying on the almost-ended game: the hosts it made, its address and output, the store."""
    from host_device.cli import run
    from host_device.session import host as session_host

    path = tmp_path / "g.db"
    gid = almost_over(path)
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    hosts = []
    made = session_host.Host.__init__

    def keep(self, *a, **k):
        made(self, *a, **k)
        hosts.append(self)

    monkeypatch.setattr(session_host.Host, "__init__", keep)
    port = free_port()
    options = args(
        web=f"127.0.0.1:{port}", audio="null", speed=SPEED, days=None, store=path, new=False, resume=gid
    )
    ended = {}
    thread = threading.Thread(target=lambda: ended.update(status=run.run_games(options)), daemon=True)
    thread.start()
    while "Пульт ведущего:" not in out.getvalue():
        thread.join(0.05)
        assert thread.is_alive(), out.getvalue()
    yield SimpleNamespace(
        hosts=hosts, base=f"http://127.0.0.1:{port}", out=out, path=path, gid=gid, thread=thread, ended=ended
    )
    for host in hosts:
        host.runtime.stop()
    thread.join(30)


def console_address(out):
    return re.findall(r"Пульт ведущего: (\S+)", out.getvalue())


def test_after_the_end_the_pages_stay_up_for_the_review_and_the_extra_points(browser, evening):
    hosts, base, out, path, gid, thread = (
        evening.hosts,
        evening.base,
        evening.out,
        evening.path,
        evening.gid,
        evening.thread,
    )
    tv = browser.new_page(viewport={"width": 1920, "height": 1080})
    tv.goto(f"{base}/")
    console = browser.new_page(viewport={"width": 390, "height": 844})
    console.goto(console_address(out)[0])
    # the game ends (8, the lone candidate, leaves: red wins) and the session waits for the host
    tv.wait_for_selector("#review:not([hidden])", timeout=60_000)
    console.wait_for_selector("#question:not([hidden])", timeout=30_000)
    assert console.locator("#question-text").inner_text().startswith(f"Игра {gid} окончена: победа мирных")
    assert console.locator("#yes").inner_text() == "Следующая игра"
    assert console.locator("#no").inner_text() == "Закончить вечер"
    host = hosts[0]
    while host.sched.now < host.runtime.speaking_until:  # the game's last words said: the old run ended here
        time.sleep(0.05)
    time.sleep(1.0)
    assert thread.is_alive() and host.web_server.thread.is_alive()
    # the TV's link opens the review (the server is still there)
    with tv.expect_navigation():
        tv.click("#review")
    assert re.search(rf"/game/{gid}$", tv.url)
    assert tv.locator("h1").inner_text().startswith(f"Игра {gid}")
    assert "Победа мирных жителей" in tv.locator(".winner").inner_text()
    # the console gives extra points after the end; a command gives another
    console.wait_for_selector('#names:not([hidden]) .name-row[data-seat="4"]')
    console.locator('.name-row[data-seat="4"] .extra-plus').click()
    console.wait_for_function(
        "document.querySelector('.name-row[data-seat=\"4\"] .extra-value').textContent === '+0,1'"
    )
    assert main(["games", "extra", str(gid), "7", "-0,5", "--store", str(path)]) == 0
    # «Закончить вечер»: run ends
    console.click("#no")
    thread.join(30)
    assert not thread.is_alive() and evening.ended["status"] == 0 and len(hosts) == 1
    store = Store(path)
    record = record_of(store, gid)
    store.close()
    assert dict(record.extras) == {4: 0.1, 7: -0.5}
    rows = {row[0]: row for row in game_page(record, points(record, load_table(None))).tables[0].rows}
    assert (rows["4"][8], rows["7"][8]) == ("0,1", "−0,5")  # the protocol's «Доп.»


def test_the_next_game_starts_at_the_same_console_address(browser, evening):
    hosts, out, gid, thread = evening.hosts, evening.out, evening.gid, evening.thread
    console = browser.new_page(viewport={"width": 390, "height": 844})
    address = console_address(out)[0]
    console.goto(address)
    console.wait_for_selector("#question:not([hidden])", timeout=60_000)
    console.click("#yes")  # «Следующая игра»
    while len(hosts) < 2 or hosts[1].game_id is None:
        thread.join(0.05)
        assert thread.is_alive(), out.getvalue()
    assert hosts[1].game_id == gid + 1 and console_address(out)[-1] == address  # the same console
    console.wait_for_function(  # the page reconnected to the next game's server with its old address
        "document.getElementById('status').textContent === 'подключено' && view && !view.winner"
        " && view.seats.every((x) => x.alive)",
        timeout=30_000,
    )
    assert console.locator("#question").is_hidden()
