"""The stream overlay (host_device/web/overlay.py, issue 49 items 1–2): behind
its own token, off unless ``[stream]`` enables it; its feed lags the table by
``delay_s`` on the injected clock — the secrets (roles, checks, shots, best
move) served at any moment are exactly those of the table ``delay_s`` before,
never one event sooner; and while the overlay serves them, every byte the
other pages and sockets are sent holds none."""

import json
import queue
from types import SimpleNamespace

import pytest
from starlette.testclient import TestClient

from engine import Game, Phase
from host_device.config import ConfigError, StreamSettings, load_config
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.screens.public import PublicStream
from host_device.screens.views import Console
from host_device.scripts.script import load_script
from host_device.scripts.simulate import ScriptedTable, builtin_durations
from host_device.web.access import Access
from host_device.web.app import make_app
from host_device.web.overlay import overlay_feed
from host_device.web.publisher import Private, Publisher
from tests.helpers.paths import ROOT
from voices.catalogue import russian

DELAY = 45.0
DELAYED = StreamSettings(enabled=True, delay_s=DELAY, roles="delayed")


class Wall:
    """The wall clock the feed stamps with, set by the test."""

    def __init__(self):
        self.t = 0.0

    def now(self):
        return self.t


def table(settings=DELAYED, phones=(4,)):
    """The classic example game on the virtual clock, its pages with the overlay (``settings``)."""
    script = load_script(ROOT / "examples" / "classic-full-game.json")
    runtime = Runtime(Game(script.preset), Scheduler(), builtin_durations(), None)
    scripted = ScriptedTable(script, runtime)
    wall = Wall()
    access = Access.new(phones)
    private = Private(access, Console(runtime, None), queue.Queue(), settings)
    publisher = Publisher(PublicStream(runtime, russian().text), 1.0, private, wall)
    sent = []  # every text the publisher sends to any socket (public, console, phones)
    publisher._send = lambda channel, text: sent.append((channel, text))
    feed = overlay_feed(publisher)
    client = TestClient(make_app(publisher, stream=feed))

    def step():
        """The game's next moment: run, the wall clock at it; False once the game has nothing due."""
        t = runtime.sched.next_time()
        if t is None:
            return False
        wall.t = t
        runtime.sched.run_due(t)
        return True

    scripted.deal()
    return SimpleNamespace(
        runtime=runtime, access=access, feed=feed, client=client, wall=wall, step=step, sent=sent
    )


def secrets(text):
    return json.loads(text).get("secrets")


def test_the_overlay_is_behind_its_own_token(builtin_pack):
    t = table()
    stream, host, seat = t.access.stream, t.access.host, t.access.seats[4]
    assert stream and stream not in (host, seat)
    for address in ("/overlay", "/overlay/seats", "/overlay/line", "/api/overlay"):
        for token in (None, "", "wrong", host, seat, stream[:-1]):
            query = "" if token is None else f"?t={token}"
            answer = t.client.get(address + query)
            assert answer.status_code == 403, (address, token)
            assert "токеном трансляции" in answer.text and "secrets" not in answer.text
        assert t.client.get(f"{address}?t={stream}").status_code == 200
    assert t.client.get(f"/overlay/other?t={stream}").status_code == 404
    # the overlay's token opens nothing else
    assert t.client.get(f"/host?t={stream}").status_code == 403
    assert t.client.get(f"/seat/4?t={stream}").status_code == 403
    # the evening's next game (the same console token) keeps the overlay's address; another run, another
    assert Access.new((), host=host).stream == stream
    assert Access.new(()).stream != stream


def test_the_overlay_is_off_unless_enabled(builtin_pack):
    t = table(StreamSettings())
    assert t.feed is None
    for address in ("/overlay", "/api/overlay"):
        answer = t.client.get(f"{address}?t={t.access.stream}")
        assert answer.status_code == 404 and "[stream] enabled = true" in answer.text


def test_the_delayed_feed_serves_the_secrets_of_delay_s_ago_never_one_event_sooner(builtin_pack):
    t = table()
    live = []  # (the moment, the secrets the table held then) after each of the game's moments
    served = []  # (the moment, the secrets the overlay served then)
    while t.step():
        live.append((t.wall.t, t.feed.live()["secrets"]))
        served.append((t.wall.t, secrets(t.feed.served())))
    assert t.runtime.game.phase is Phase.GAME_OVER
    first_check = next(moment for moment, s in live if s["checks"])
    first_shot = next(moment for moment, s in live if s["shots"])
    for moment, shown in served:
        before = [s for at, s in live if at <= moment - DELAY]
        assert shown == (before[-1] if before else None), moment  # none sooner, none later
    assert any(s and s["checks"] for _, s in served) and any(s and s["shots"] for _, s in served)
    shown_check = next(moment for moment, s in served if s and s["checks"])
    assert first_check + DELAY <= shown_check
    assert first_shot != first_check  # two secrets of their own moments
    # the same game stopped at its first check: the wall clock alone runs on, and the check shows at
    # its moment + delay_s, not a millisecond sooner
    again = table()
    while not again.feed.live()["secrets"]["checks"]:
        assert again.step()
    assert again.wall.t == first_check
    again.wall.t = first_check + DELAY - 0.001
    assert secrets(again.feed.served())["checks"] == []
    again.wall.t = first_check + DELAY
    assert secrets(again.feed.served())["checks"]


def test_with_roles_hidden_the_overlay_holds_no_secret_until_the_end(builtin_pack):
    t = table(StreamSettings(enabled=True, delay_s=0.0, roles="hidden"))
    while t.runtime.game.phase is not Phase.GAME_OVER and t.step():
        text = t.feed.served()
        assert "secrets" not in text and '"role"' not in text
    while t.step():
        pass
    t.wall.t += 1
    final = json.loads(t.feed.served())
    assert all("role" in seat for seat in final["seats"])  # the end: the roles are the table's too


def test_while_the_overlay_serves_secrets_no_other_page_or_socket_holds_one(builtin_pack):
    t = table()
    pages = ["/", "/api/state", f"/host?t={t.access.host}", f"/seat/4?t={t.access.seats[4]}"]
    assets = [f"/static/{name}" for name in ("table.html", "table.js", "host.js", "seat.js", "common.js")]
    read = []
    overlay_secrets = 0
    moments = 0
    while t.runtime.game.phase is not Phase.GAME_OVER and t.step():
        moments += 1
        if moments % 25:
            continue
        t.wall.t += DELAY  # the overlay past its delay: it serves what the table held then
        served = t.client.get(f"/api/overlay?t={t.access.stream}").text
        overlay_secrets += bool(secrets(served))
        read += [t.client.get(page).text for page in pages]
        with t.client.websocket_connect(f"/api/host?t={t.access.host}") as socket:
            read.append(socket.receive_text())
        with t.client.websocket_connect(f"/api/seat/4?t={t.access.seats[4]}") as socket:
            read.append(socket.receive_text())
        t.wall.t -= DELAY
    assert overlay_secrets >= 3 and moments > 100
    read += [text for _, text in t.sent]
    assert len(t.sent) > 100
    everything = "\n".join(read)
    files = "\n".join(t.client.get(asset).text for asset in assets)  # the same files whatever the game
    assert t.access.stream not in files and "/api/overlay" not in files
    # the overlay's own keys, and a role's name in JSON (the seat at 4 is a civilian: its own is "civilian")
    for secret in ('"secrets"', '"checks"', '"shots"', '"don"', '"sheriff"', '"mafia"', t.access.stream):
        assert secret not in everything, secret


def test_the_stream_section_of_the_config(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("")
    assert load_config(path).stream == StreamSettings(enabled=False, delay_s=60.0, roles="hidden")
    path.write_text('[stream]\nenabled = true\ndelay_s = 90\nroles = "delayed"\n')
    assert load_config(path).stream == StreamSettings(True, 90.0, "delayed")
    for text, said in (
        ('[stream]\nroles = "delayed"\ndelay_s = 10\n', "не меньше 30"),
        ('[stream]\nroles = "shown"\n', '"hidden" или "delayed"'),
        ("[stream]\ndelay_s = -1\n", "от 0 до 3600"),
        ("[stream]\nenabled = 1\n", "true или false"),
        ("[stream]\ntoken = 'x'\n", "нет такой настройки"),
    ):
        path.write_text(text)
        with pytest.raises(ConfigError, match=said):
            load_config(path)


@pytest.mark.parametrize("settings", [DELAYED, StreamSettings()])
def test_run_prints_the_overlays_addresses_only_when_it_is_on(builtin_pack, settings):
    from host_device.web.server import start_web

    runtime = Runtime(Game("classic"), Scheduler(), builtin_durations(), None)
    access = Access.new(())
    lines = []
    private = Private(access, Console(runtime, None), queue.Queue(), settings)
    server = start_web(("127.0.0.1", 0), runtime, russian().text, 1.0, lines.append, private, Wall())
    try:
        base = f"http://127.0.0.1:{server.socket.getsockname()[1]}"
        printed = "\n".join(lines)
        if settings.enabled:
            assert f"{base}/overlay?t={access.stream}" in printed
            assert f"{base}/overlay/seats?t={access.stream}" in printed
            assert f"{base}/overlay/line?t={access.stream}" in printed
            assert "задержка 45 с; роли, проверки и выстрелы — после задержки" in printed
        else:
            assert access.stream not in printed and "/overlay" not in printed
        assert f"{base}/host?t={access.host}" in printed
    finally:
        server.stop()
