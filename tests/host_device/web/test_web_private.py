"""The private pages (host_device/web/server.py, views.py): the host's
console and the seats' phones, each behind its own token; what a page sends
goes into the runtime's inbox as the panel's events do; one phone per seat;
a seat's secrets only on its own phone."""

import itertools
import json
import queue

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from engine import Game, Phase, Role
from hardware.events import HostKey, Press, TypedLine
from host_device.runtime.assist import Assist
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.runtime.settings import Settings
from host_device.screens.public import PublicStream
from host_device.screens.views import Console
from host_device.session.deal import deal, show_roles
from host_device.session.devices import phone_seats
from host_device.web.access import Access
from host_device.web.app import make_app
from host_device.web.inputs import FromConsole, PhonePress, WebNotice
from host_device.web.limits import Limits
from host_device.web.publisher import Private, Publisher
from voices.catalogue import russian

PRESS = json.dumps({"press": 0, "at": 0})  # a phone's press, made in the first step


def served(phones=(3, 4), assist=False, whole_table=False):
    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0, Settings())
    helper = Assist(runtime, role_entry=True) if assist else None
    inbox: queue.Queue = queue.Queue()
    access = Access.new(phones)
    console = Console(runtime, helper, whole_table=whole_table, typed=True)
    publisher = Publisher(PublicStream(runtime, russian().text), 1.0, Private(access, console, inbox))
    every_notice = Limits(notice_every_s=0.0)  # a phone's comings and goings all told (test_roster_flood)
    return runtime, access, inbox, publisher, TestClient(make_app(publisher, every_notice))


def drained(inbox):
    items = []
    while not inbox.empty():
        items.append(inbox.get_nowait())
    return items


def test_without_the_right_token_the_private_pages_refuse_and_change_nothing(builtin_pack):
    runtime, access, inbox, _, client = served()
    for url in ("/host", "/host?t=", f"/host?t={access.seats[3]}", "/api/qr/3.svg", "/api/qr/3.svg?t=no"):
        response = client.get(url)
        assert response.status_code == 403, url
        assert "Нет доступа" in response.text
    for url in ("/seat/3", "/seat/3?t=wrong", f"/seat/3?t={access.host}", f"/seat/3?t={access.seats[4]}"):
        assert client.get(url).status_code == 403, url
    for url in ("/api/host", "/api/host?t=wrong", "/api/seat/3", f"/api/seat/4?t={access.seats[3]}"):
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url):
            pass
        assert refused.value.code == 1008
    assert client.get(f"/seat/5?t={access.seats[3]}").status_code == 404  # seat 5 has its button
    assert drained(inbox) == [] and runtime.timeline.dicts() == []
    assert client.get(f"/host?t={access.host}").status_code == 200
    assert client.get(f"/seat/3?t={access.seats[3]}").status_code == 200
    qr = client.get(f"/api/qr/3.svg?t={access.host}")
    assert qr.status_code == 200 and qr.text.startswith("<svg")
    assert qr.headers["cache-control"] == "no-store"  # it holds a seat's token
    assert client.get(f"/api/qr/5.svg?t={access.host}").status_code == 404


def test_an_address_with_two_tokens_is_refused_in_one_line(builtin_pack):
    """The server would read the last ``t=``, the page the first: the console
    would load and never connect. Such an address is refused, page and socket."""
    _, access, inbox, _, client = served()
    for url in (f"/host?t=wrong&t={access.host}", f"/seat/3?t={access.host}&t={access.seats[3]}"):
        response = client.get(url)
        assert response.status_code == 400, url
        assert response.text.count("\n") == 0 and "два токена" in response.text
    for url in (f"/api/host?t=wrong&t={access.host}", f"/api/seat/3?t=x&t={access.seats[3]}"):
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url):
            pass
        assert refused.value.code == 1008
    assert drained(inbox) == []
    assert client.get(f"/host?t={access.host}").status_code == 200


def test_the_tokens_are_random_and_each_seat_has_its_own():
    a, b = Access.new(range(1, 11)), Access.new(range(1, 11))
    assert a.host != b.host and len(set(a.seats.values())) == 10 and len(a.host) >= 16
    assert a.is_seat(1, a.seats[1]) and not a.is_seat(2, a.seats[1]) and not a.is_host(a.seats[1])
    nxt = Access.new(
        range(1, 11), host=a.host
    )  # the evening's next game: the console's kept, the phones' new
    assert nxt.is_host(a.host) and not set(nxt.seats.values()) & set(a.seats.values())


def test_the_consoles_messages_go_into_the_inbox_as_the_hosts_keys(builtin_pack):
    _, access, inbox, _, client = served(assist=True)
    with client.websocket_connect(f"/api/host?t={access.host}") as socket:
        view = socket.receive_json()
        assert view["type"] == "view" and view["mode"] == "assist" and view["title"] == "Раздача ролей"
        assert view["roles_entry"] and "отметьте трёх чёрных" in view["waiting"][-1]
        phones = socket.receive_json()
        assert phones == {
            "type": "phones",
            "seats": [3, 4],
            "connected": [],
            "links": {"3": f"/seat/3?t={access.seats[3]}", "4": f"/seat/4?t={access.seats[4]}"},
        }
        assert client.get(phones["links"]["3"]).status_code == 200  # each link opens its seat's page
        socket.send_text(json.dumps({"key": "next"}))
        socket.send_text(json.dumps({"seat": 7}))
        socket.send_text(json.dumps({"text": " я выставляю игрока номер два "}))
        for bad in ('{"key": "format"}', '{"seat": 11}', '{"seat": true}', "[]", "not json", '{"press": 3}'):
            socket.send_text(bad)
            error = socket.receive_json()
            assert error["type"] == "error" and error["text"], bad
    items = drained(inbox)
    assert [type(i) for i in items] == [HostKey, HostKey, TypedLine]
    assert [items[0].press.key, items[1].press.key, items[2].text] == [
        "next",
        7,
        "я выставляю игрока номер два",
    ]


def test_one_phone_per_seat_the_newest_takes_over_and_the_host_is_told(builtin_pack):
    _, access, inbox, _, client = served()
    url = f"/api/seat/4?t={access.seats[4]}"
    with client.websocket_connect(url) as first:
        assert first.receive_json()["seat"] == 4
        first.send_text(PRESS)
        with client.websocket_connect(url) as second:
            assert second.receive_json()["seat"] == 4
            assert first.receive_json() == {"type": "replaced"}
            second.send_text(PRESS)
    items = drained(inbox)
    notices = [i.russian for i in items if isinstance(i, WebNotice)]
    assert notices == [
        "место 4: телефон подключён",
        "место 4: подключён другой телефон, прежний отключён",
        "место 4: телефон отключён",  # the second one closed too
    ]
    assert [i.key for i in items if isinstance(i, Press)] == [4, 4]


ROLE = {Role.CIVILIAN: "мирный житель", Role.SHERIFF: "Шериф", Role.MAFIA: "мафия", Role.DON: "Дон"}


@pytest.mark.slow
def test_a_seats_role_and_check_answer_reach_only_its_own_phone(builtin_pack):
    """From his turn of the deal his role is on his phone (never lit: at
    the deal and at night a phone's view has no LED), a check's answer on
    the checker's alone in its step; at the deal and at night every phone
    is sent its view at the same moments, whatever it holds."""
    from host_device.screens.views import DARK
    from host_device.session.deal import SHOW_SLOT_S

    runtime, _, _, publisher, _ = served(phones=range(1, 11))
    sent: list[tuple[float, str, str]] = []  # (game time, phase, channel) of every view sent
    publisher._send = lambda channel, text: sent.append(
        (runtime.sched.now, runtime.game.phase.value, channel)
    )
    dealt = deal(runtime.game.preset, 7)
    roles = dict(dealt.roles)
    don = next(seat for seat, role in roles.items() if role is Role.DON)
    sheriff = next(seat for seat, role in roles.items() if role is Role.SHERIFF)
    show_roles(runtime, dealt, lambda: runtime.handle(dealt))
    consoles: set[str] = set()
    kept: dict[int, tuple[float, str]] = {}  # each phone's role: when it first came, and what
    answers: set[tuple] = set()
    lit_in_the_dark: set[tuple] = set()
    sched, checked = runtime.sched, False
    while runtime.game.state.day < 2 and sched.now < 3600:
        s = runtime.game.state
        if s.phase is Phase.NIGHT_CHECK and s.step_role is Role.SHERIFF and runtime.slots and not checked:
            start = next(start for seat, start, _ in runtime.slots if seat == don)
            sched.run_due(start)
            checked = runtime.press(sheriff, at=start)
        sched.run_due(sched.now + 0.25)
        publisher.refresh()
        for seat in range(1, 11):
            view = json.loads(publisher.views[f"seat:{seat}"])
            if view["role"]:
                kept.setdefault(seat, (sched.now, view["role"]))
            if view["answer"]:
                answers.add((seat, view["answer"], s.phase))
            if runtime.game.phase in DARK and (view["led"] != "off" or not view["dark"]):
                lit_in_the_dark.add((seat, runtime.game.phase, view["led"]))
        consoles.add(publisher.views["host"])
    assert checked
    # his role stays on his phone from his turn of the deal on: the turns go by seat, whatever the role
    assert {seat: role for seat, (_, role) in kept.items()} == {
        seat: f"Ваша роль: {ROLE[roles.get(seat, Role.CIVILIAN)]}" for seat in range(1, 11)
    }
    came = [kept[seat][0] for seat in range(1, 11)]
    assert all(abs(b - a - SHOW_SLOT_S) <= 0.25 for a, b in itertools.pairwise(came)), came
    assert answers == {(sheriff, f"Проверка: чёрный (игрок {don})", Phase.NIGHT_CHECK)}  # his, in its step
    assert not lit_in_the_dark  # no LED on a phone at the deal or at night, the Sheriff's answer neither
    moments: dict[float, set[str]] = {}
    for t, phase, channel in sent:
        if Phase(phase) in DARK and channel.startswith("seat:"):
            moments.setdefault(t, set()).add(channel)
    assert moments and all(len(channels) == 10 for channels in moments.values())  # every phone, or none
    assert (Phase.NIGHT_CHECK.value, f"seat:{sheriff}") in {(phase, channel) for _, phase, channel in sent}
    for view in map(json.loads, consoles):  # host mode: whoever holds the console may be a player
        assert all(
            set(seat) == {"seat", "alive", "fouls", "nominated_by", "voted", "selected"}
            for seat in view["seats"]
        )
        assert "Ваша роль" not in json.dumps(view, ensure_ascii=False)
        assert "Проверка" not in json.dumps(view, ensure_ascii=False)


def test_phone_seats_need_the_pages_and_a_seat_at_the_table():
    from host_device.base.errors import HostDeviceError

    assert phone_seats("web", (), 10, web=True) == tuple(range(1, 11))
    assert phone_seats("gpio", (4, 9), 10, web=True) == (4, 9)
    assert phone_seats("gpio", (), 10, web=False) == ()
    with pytest.raises(HostDeviceError, match="--panel web: .* добавьте --web ПОРТ"):
        phone_seats("web", (), 10, web=False)
    with pytest.raises(HostDeviceError, match=r"\[web\].seats: .* добавьте --web ПОРТ"):
        phone_seats("gpio", (4,), 10, web=False)
    with pytest.raises(HostDeviceError, match=r"места 11 за этим столом нет \(места 1…10\)"):
        phone_seats("gpio", (4, 11), 10, web=True)


def test_assist_mode_from_the_console_alone(monkeypatch, tmp_path, builtin_pack):
    """The host leads assist mode from his phone: the roles entry, a foul
    (key, then seat), his host view of the roles, and the next step — every
    press through the console's socket into the running host's inbox."""
    import threading
    import time

    from websockets.sync.client import connect

    from host_device.session.host import Host
    from tests.helpers.host import args

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    host = Host(
        args(
            mode="assist",
            deal="host",
            web="127.0.0.1:0",
            audio="null",
            speed=1.0,
            store=str(tmp_path / "g.db"),
        )
    )
    thread = threading.Thread(target=host.run, daemon=True)
    thread.start()
    while host.publisher is None or not host.web_server.server.started:
        thread.join(0.02)
    bound, port = host.web_server.server.servers[0].sockets[0].getsockname()[:2]
    token = host.publisher.private.access.host
    try:
        with connect(f"ws://{bound}:{port}/api/host?t={token}") as socket:
            view: dict = {}

            def until(check, what):
                deadline = time.monotonic() + 10
                while not check(view):
                    assert time.monotonic() < deadline, f"{what}: {view}"
                    message = json.loads(socket.recv(timeout=10))
                    if message["type"] == "view":
                        view.update(message)

            def send(**message):
                socket.send(json.dumps(message))

            until(lambda v: v.get("roles_entry"), "the roles entry")
            assert view["mode"] == "assist" and {k["name"] for k in view["keys"]} >= {
                "next",
                "foul",
                "count",
                "timer",
            }
            for group in ([1, 2, 3], [3], [4]):  # the black seats, the Don among them, the Sheriff
                for seat in group:
                    send(seat=seat)
                until(
                    lambda v, g=group: {x["seat"] for x in v["seats"] if x["selected"]} == set(g), "selected"
                )
                send(key="enter")
            until(lambda v: not v["roles_entry"] and v["messages"] == ["роли записаны"], "the roles taken")
            assert all("role" not in x for x in view["seats"])  # the host view is his choice (key «роли»)
            send(key="roles")
            until(lambda v: "role" in v["seats"][0], "the host view")
            assert [x["role"] for x in view["seats"][:4]] == ["мафия", "мафия", "Дон", "Шериф"]
            send(key="foul")
            until(lambda v: v.get("pending") == "foul", "foul waits for its seat")
            send(seat=5)
            until(
                lambda v: v["seats"][4]["fouls"] == 1 and v["messages"] == ["записано: фол игроку 5"],
                "the foul",
            )
            send(key="next")
            until(lambda v: v["title"] != "Ночь знакомства · мафия договаривается", "the next step")
    finally:
        host.runtime.stop()
        thread.join(10)
    assert host.game.state.fouls == {5: 1}


def test_the_private_pages_and_their_assets_come_from_the_device(builtin_pack):
    import re

    _, access, _, _, client = served()
    for url in (f"/host?t={access.host}", f"/seat/3?t={access.seats[3]}"):
        page = client.get(url)
        assert page.status_code == 200 and '<html lang="ru">' in page.text
        assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
        assert {"/static/common.js", "/static/seating.js"} <= set(assets) and len(assets) == 4
        for asset in assets:
            response = client.get(asset)
            assert response.status_code == 200 and not re.search(r"https?://", response.text)


@pytest.mark.slow
def test_the_resume_question_is_answered_on_the_console(monkeypatch, tmp_path, builtin_pack):
    import io
    import threading
    import time

    from websockets.sync.client import connect

    from host_device.session.host import Host
    from host_device.store import Store
    from tests.helpers.host import args

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    path = tmp_path / "games.sqlite3"
    store = Store(path, create=True)
    game = store.games.new_game("classic", "host")
    store.close()
    host = Host(args(store=str(path), new=False, web="127.0.0.1:0", audio="null"))
    thread = threading.Thread(target=host.run, daemon=True)
    thread.start()
    while host.publisher is None or not host.web_server.server.started:
        thread.join(0.02)
    bound, port = host.web_server.server.servers[0].sockets[0].getsockname()[:2]
    with connect(f"ws://{bound}:{port}/api/host?t={host.publisher.private.access.host}") as socket:
        deadline = time.monotonic() + 10
        while True:
            view = json.loads(socket.recv(timeout=10))
            if view.get("question"):
                break
            assert time.monotonic() < deadline
        assert view["question"]["text"].startswith(f"Игра {game} (начата ")
        assert view["question"]["yes"] == "Продолжить" and view["question"]["no"] == "Новая игра"
        socket.send(json.dumps({"key": "next"}))
        thread.join(30)
    assert host.resumed and host.game_id == game


def test_in_host_mode_the_console_presses_no_seat_and_says_why_in_russian(builtin_pack):
    """Whoever holds the console in host mode may be a player: his seat keys,
    the assist keys and a seat's own button (without «Весь стол») are
    refused on the console in Russian, and nothing reaches the inbox."""
    _, access, inbox, _, client = served(whole_table=True)
    with client.websocket_connect(f"/api/host?t={access.host}") as socket:
        assert socket.receive_json()["mode"] == "host"
        socket.receive_json()  # the phones
        for refused in ({"seat": 5}, {"seat": 1}, {"key": "foul"}, {"key": "kill"}, {"press": 5}):
            socket.send_text(json.dumps(refused))
            socket.send_text("[]")  # not understood: its error comes after the refusal's
            error = socket.receive_json()
            assert error["type"] == "error" and "только" in error["text"], (refused, error)
            assert socket.receive_json()["text"].startswith("не понято")
        socket.send_text(json.dumps({"key": "next"}))  # his own keys still work
        socket.send_text(json.dumps({"whole": True}))  # the whole table on this one screen
        assert socket.receive_json()["whole_on"] is True
        socket.send_text(json.dumps({"press": 5}))  # now a seat's own button on it
        socket.send_text(json.dumps({"whole": False}))
        assert socket.receive_json()["whole_on"] is False
        socket.send_text(json.dumps({"press": 6}))
        assert socket.receive_json()["type"] == "error"
    items = drained(inbox)
    lines = [i.line for i in items if isinstance(i, FromConsole)]  # what the table page is shown
    assert lines == [
        "С пульта: «Весь стол» включён: пульт видит все места, и роли тоже",
        "С пульта: «Весь стол» выключен",
    ]
    items = [i.item if isinstance(i, FromConsole) else i for i in items]
    items = [i for i in items if i is not None]
    assert [type(i) for i in items] == [HostKey, Press] and items[0].press.key == "next" and items[1].key == 5


def _settle(publisher):
    """Wait until the server's loop has taken what was sent to it, and its senders had a turn."""
    import threading

    for _ in range(2):
        done = threading.Event()
        publisher.loop.call_soon_threadsafe(done.set)
        assert done.wait(5)


def _until_end(socket):
    """Every message on a console socket up to the end marker."""
    messages = []
    while (message := socket.receive_json())["type"] != "end":
        messages.append(message)
    return messages


@pytest.mark.slow
def test_the_seats_leds_reach_only_a_console_whose_whole_table_switch_is_on(builtin_pack):
    """--panel web: the console's view carries every seat's LED (the deal's
    roles, a check's answer) only on the connection that switched «Весь
    стол» on; another console at the same time gets none of them."""
    runtime, access, _, publisher, client = served(phones=range(1, 11), whole_table=True)
    dealt = deal(runtime.game.preset, 7)
    roles = dict(dealt.roles)
    don = next(seat for seat, role in roles.items() if role is Role.DON)
    sheriff = next(seat for seat, role in roles.items() if role is Role.SHERIFF)
    url = f"/api/host?t={access.host}"
    with client, client.websocket_connect(url) as plain, client.websocket_connect(url) as whole:  # one loop
        for socket in (plain, whole):
            first = socket.receive_json()
            assert all("led" not in seat for seat in first["seats"]) and first["whole_on"] is False
            socket.receive_json()  # the phones
        assert publisher.views["host"] and "led" not in publisher.views["host"]
        whole.send_text(json.dumps({"whole": True}))
        assert whole.receive_json()["whole_on"] is True
        show_roles(runtime, dealt, lambda: runtime.handle(dealt))
        sched, checked = runtime.sched, False
        while runtime.game.state.day < 2 and sched.now < 3600:
            s = runtime.game.state
            if s.phase is Phase.NIGHT_CHECK and s.step_role is Role.SHERIFF and runtime.slots and not checked:
                start = next(start for seat, start, _ in runtime.slots if seat == don)
                sched.run_due(start)
                checked = runtime.press(sheriff, at=start)
                sched.run_due(start + 0.1)
                publisher.refresh()
            sched.run_due(sched.now + 0.25)
            publisher.refresh()
            _settle(publisher)  # the server's loop keeps up: no socket is dropped as too slow
        assert checked
        publisher.loop.call_soon_threadsafe(publisher.tell_console, json.dumps({"type": "end"}))
        seen_plain, seen_whole = _until_end(plain), _until_end(whole)
    views = [m for m in seen_plain if m["type"] == "view"]
    assert len(views) > 100 and all(not v["whole_on"] for v in views)
    assert all("led" not in seat for v in views for seat in v["seats"])
    lit = [
        (v["title"], seat["seat"], seat["led"])
        for v in seen_whole
        if v["type"] == "view"
        for seat in v["seats"]
    ]
    assert ("Раздача ролей", don, "fast") in lit  # the Don's role, on the switched console alone
    answers = {led for title, seat, led in lit if seat == sheriff and "проверка" in title.lower()}
    assert "on" in answers  # the Sheriff's answer: the Don is black


def test_text_typed_on_the_console_never_silences_the_terminal_nor_escapes_onto_it(builtin_pack):
    """A lone surrogate typed on the console once made the terminal's
    encoding fail, taken as "the terminal is gone" for the rest of the run;
    an ANSI escape or a newline typed there was printed raw."""
    import io

    from host_device.screens.narration import PlainLines
    from tests.helpers.host import table_inputs

    runtime, access, inbox, _, client = served(assist=True)  # host mode types only in a speech
    with client.websocket_connect(f"/api/host?t={access.host}") as socket:
        socket.receive_json()
        socket.receive_json()
        for typed in ("\ud800", "я \x1b[2J\x1b[31mвыставляю\nигрока", "\x1b]0;чужой заголовок\x07"):
            socket.send_text(json.dumps({"text": typed}))
        socket.send_text("[]")
        assert socket.receive_json()["type"] == "error"  # every message before it has been taken
    journal = io.BytesIO()
    out = io.TextIOWrapper(journal, encoding="utf-8", errors="strict", write_through=True)
    lines = PlainLines(out)
    table = table_inputs(runtime, typed_speech=True, show_typed=True, print_line=lines.write_line)
    items = drained(inbox)
    assert [type(i) for i in items] == [TypedLine] * 3
    for item in items:
        table.take(item)
    lines.write_line("следующая строка")
    printed = journal.getvalue().decode("utf-8")
    assert printed.count("набрано") == 3 and printed.endswith("следующая строка\n")
    assert "\x1b" not in printed and "\x07" not in printed
    assert "я  [2J [31mвыставляю игрока" in printed  # the escape's bytes harmless, the newline a space


def test_a_whole_table_press_names_its_step_and_counts_only_in_it(builtin_pack):
    """The table page may be behind the device (a loaded machine, a slow
    network): a seat pressed on it names the step it saw, like a phone's
    press, so that it is refused once that step is over instead of counting
    in the next vote window (it used to count for whoever was then voted on)."""
    _, access, inbox, _, client = served(whole_table=True)
    with client.websocket_connect(f"/api/host?t={access.host}") as socket:
        socket.receive_json()
        socket.receive_json()  # the phones
        socket.send_text(json.dumps({"whole": True}))
        view = socket.receive_json()
        assert view["whole_on"] is True and isinstance(view["window"], int)
        socket.send_text(json.dumps({"press": 5, "made_in": view["window"]}))
        socket.send_text(json.dumps({"press": 6, "made_in": "now"}))
        error = socket.receive_json()
        assert error["type"] == "error" and "made_in" in error["text"]
    items = [i for i in drained(inbox) if not isinstance(i, FromConsole)]  # the switch, shown on the TV
    assert [type(i) for i in items] == [PhonePress] and items[0].key == 5
    assert items[0].made_in == view["window"]
