"""The device's web pages (host_device/web/server.py): the table page and
its assets from the device itself, ``GET /api/state``, the ``/api/events``
stream during a whole game, and the server on a real socket beside a demo."""

import json
import re
import urllib.request

import pytest
from starlette.testclient import TestClient

from host_device.cli.main import main
from host_device.config import WebError, parse_address
from host_device.screens.public import PublicStream
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.web.app import make_app
from host_device.web.publisher import Publisher
from host_device.web.server import WebServer
from tests.helpers.paths import ROOT
from voices.catalogue import russian

FULL = ROOT / "examples" / "classic-full-game.json"


@pytest.fixture(scope="module")
def served_game(builtin_pack):
    """A whole game simulated while a page's socket listens."""
    holder = {}

    def watch(runtime):
        publisher = Publisher(PublicStream(runtime, russian().text))
        client = TestClient(make_app(publisher))
        client.__enter__()
        connection = client.websocket_connect("/api/events")
        holder.update(
            client=client, connection=connection, socket=connection.__enter__(), publisher=publisher
        )
        holder["before"] = client.get("/api/state").json()

    result, _ = simulate(load_script(FULL), watch=watch)
    events = []
    while len(events) < 2000 and (not events or events[-1]["type"] != "game_ended"):
        events.append(holder["socket"].receive_json())
    yield result, holder, events
    holder["connection"].__exit__(None, None, None)
    holder["client"].__exit__(None, None, None)


def test_the_socket_streams_the_public_events_of_a_whole_game(served_game):
    result, _, events = served_game
    assert result["winner"] == "red"
    assert events[0]["type"] in ("say", "phase_started")
    said = [e["text"] for e in events if e["type"] == "say"]
    assert "Начинаем игру." not in said  # simulate's games start with the night (run says it)
    assert "Доброе утро!" in said and said[-1] != ""
    assert [e["t"] for e in events] == sorted(e["t"] for e in events)
    assert not [e for e in events if e["type"] in ("shot_taken", "check_made", "show_check")]


def test_the_state_before_and_after_the_game(served_game):
    _, holder, _ = served_game
    before = holder["before"]
    assert before["phase"] == "roles" and before["speed"] == 1.0
    assert all("role" not in seat for seat in before["seats"])
    after = holder["client"].get("/api/state")
    assert after.headers["content-type"].startswith("application/json")
    assert after.headers["cache-control"] == "no-store"  # never a stale state from a cache
    state = after.json()
    assert state["winner"] == "red" and state["title"] == "Игра окончена"
    assert {s["seat"]: s["role"] for s in state["seats"]}[3] == "don"


def test_the_table_page_and_its_assets_come_from_the_device(served_game):
    _, holder, _ = served_game
    client = holder["client"]
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<html lang="ru">' in page.text
    links = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assets = [link for link in links if link != "/game/current"]  # the review's link, shown at the end
    assert sorted(assets) == ["/static/common.js", "/static/table.css", "/static/table.js"]
    assert "/game/current" in links
    for asset in assets:
        response = client.get(asset)
        assert response.status_code == 200
        assert not re.search(r"https?://", response.text)  # nothing from the internet
    assert client.get("/static/nothing.js").status_code == 404


@pytest.mark.parametrize(
    ("text", "address"),
    [("8000", ("0.0.0.0", 8000)), ("127.0.0.1:0", ("127.0.0.1", 0)), ("[::1]:80", ("[::1]", 80))],
)
def test_addresses(text, address):
    assert parse_address(text) == address


@pytest.mark.parametrize("text", ["", "web", "127.0.0.1", "1:70000", "1:-3"])
def test_bad_addresses_are_named(text):
    with pytest.raises(WebError, match="укажите порт"):
        parse_address(text)


def test_the_server_on_a_real_socket_and_a_port_in_use(builtin_pack):
    from engine import Game
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime

    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0)
    publisher = Publisher(PublicStream(runtime, russian().text), speed=10.0)
    server = WebServer(publisher, "127.0.0.1", 0)
    host, port = server.start()
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/api/state", timeout=5) as response:
            state = json.load(response)
        assert state["phase"] == "roles" and state["speed"] == 10.0
        taken = WebServer(publisher, "127.0.0.1", port)
        with pytest.raises(WebError, match="порт занят"):
            taken.start(timeout=5)
    finally:
        server.stop()


def test_an_address_that_is_not_on_this_machine_is_named_as_such(capsys, builtin_pack):
    from engine import Game
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime

    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0)
    publisher = Publisher(PublicStream(runtime, russian().text))
    with pytest.raises(WebError) as refused:
        WebServer(publisher, "192.0.2.1", 0).start(timeout=5)  # TEST-NET: no machine's own address
    assert "192.0.2.1 — не адрес этой машины" in str(refused.value)
    assert "порт занят" not in str(refused.value)
    assert main(["demo", "--speed", "100000", "--audio", "null", "--web", "192.0.2.1:8000"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "192.0.2.1 — не адрес этой машины" in err


def test_demo_with_web_prints_the_address_and_plays_the_game(capsys, builtin_pack):
    assert main(["demo", "--speed", "100000", "--audio", "null", "--web", "127.0.0.1:0"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"Стол в браузере: http://127\.0\.0\.1:\d+/", out)
    assert out.splitlines()[-2] == "Итог: победа мирных жителей, дней: 3"
    assert main(["demo", "--web", "nowhere"]) == 2
    assert "--web 'nowhere': укажите порт" in capsys.readouterr().err


@pytest.mark.slow
def test_run_serves_the_table_page_while_it_hosts(monkeypatch, tmp_path, capsys, builtin_pack):
    import io
    import threading

    from host_device.session.host import Host
    from tests.helpers.host import args

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(WebError, match="--web 'x': укажите порт"):
        Host(args(web="x"))  # named before the panel or the sound is opened
    host = Host(args(web="127.0.0.1:0", speed=200.0))
    seen = {}

    def look():  # a browser asking while the game runs
        while host.web_server is None or not host.web_server.server.started:
            threading.Event().wait(0.01)
        bound, port = host.web_server.server.servers[0].sockets[0].getsockname()[:2]
        with urllib.request.urlopen(f"http://{bound}:{port}/api/state", timeout=5) as response:
            seen.update(json.load(response))

    watcher = threading.Thread(target=look, daemon=True)
    watcher.start()
    assert host.run() == 0
    watcher.join(5)
    assert seen["preset"] == "classic" and "title" in seen and all("role" not in s for s in seen["seats"])
    out = capsys.readouterr().out
    assert re.search(r"Стол в браузере: http://127\.0\.0\.1:\d+/", out)
    token = host.publisher.private.access.host
    assert re.search(rf"Пульт ведущего: http://127\.0\.0\.1:\d+/host\?t={re.escape(token)}\n", out)
    after = out.split(token, 1)[1].splitlines()[1:]
    qr = after[: next(i for i, line in enumerate(after) if len(line) != len(after[0]))]
    assert len(qr[0]) >= 25 and len(qr) == (len(qr[0]) + 1) // 2  # a square QR code, two rows a line
    assert set("".join(qr)) <= set("█▀▄\xa0")
    assert "Весь стол на одном экране" not in out  # only with --panel web
    assert not host.web_server.thread.is_alive()  # stopped with the game


def test_the_config_can_turn_the_pages_on(tmp_path):
    from host_device.config import ConfigError, load_config

    path = tmp_path / "c.toml"
    path.write_text('[web]\nlisten = "127.0.0.1:8123"\n')
    assert load_config(path).web == "127.0.0.1:8123"
    path.write_text("[web]\nlisten = 8000\n")
    assert load_config(path).web == "8000"
    for bad, message in [
        ('[web]\nlisten = "nowhere"\n', r'\[web\]\.listen: порт \("8000"\) или "HOST:PORT"'),
        ("[web]\nlisten = true\n", r"\[web\]\.listen: порт"),
        ("[web]\nport = 80\n", r"\[web\]\.port: нет такой настройки; настройки: listen"),
    ]:
        path.write_text(bad)
        with pytest.raises(ConfigError, match=message):
            load_config(path)
