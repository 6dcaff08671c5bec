"""What one phone may send (host_device/web/limits.py): presses at a human's
pace reach the runtime, a flood beyond it is dropped and counted (said once
when it starts, and the count once when the socket closes), and a message
past the size limit closes the socket."""

import itertools
import json
import logging

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from hardware.events import Press
from host_device.web.app import make_app
from host_device.web.limits import Limits
from tests.helpers.web import drained, on_loopback, private_publisher

PRESS = json.dumps({"press": 0, "at": 0})  # a phone's press, made in the first step


def phone_presses(clock, count, caplog):
    """``count`` presses from seat 3's phone on ``clock``: the presses that reached the inbox, and the log."""
    publisher, access, inbox = private_publisher()
    client = TestClient(make_app(publisher, Limits(clock=clock)))
    url = f"/api/seat/3?t={access.seats[3]}"
    with (
        caplog.at_level(logging.WARNING, logger="host_device.web.limits"),
        client.websocket_connect(url) as phone,
    ):
        assert phone.receive_json()["seat"] == 3
        for _ in range(count):
            phone.send_text(PRESS)
    # closing waited for the server's handler to finish: every press has been read
    return [item for item in drained(inbox) if isinstance(item, Press)], [
        r.getMessage() for r in caplog.records
    ]


def test_a_flood_of_presses_delivers_the_limits_worth_and_counts_the_rest(caplog, builtin_pack):
    presses, said = phone_presses(lambda: 100.0, 10_000, caplog)  # all within one instant
    assert len(presses) == Limits().press_burst and {p.key for p in presses} == {3}
    assert said == [
        "телефон места 3: нажатия чаще 5 в секунду отброшены",
        "телефон места 3: отброшено нажатий: 9990 (чаще 5 в секунду)",
    ]


def test_presses_at_a_humans_pace_all_arrive(caplog, builtin_pack):
    ticks = itertools.count(0.0, 0.25)  # four presses a second, for a minute
    presses, said = phone_presses(lambda: next(ticks), 240, caplog)
    assert len(presses) == 240 and said == []


def test_a_faster_pace_is_held_to_the_rate(caplog, builtin_pack):
    ticks = itertools.count(0.0, 0.05)  # twenty a second, for ten seconds
    presses, said = phone_presses(lambda: next(ticks), 200, caplog)
    assert 10 + 5 * 10 - 2 <= len(presses) <= 10 + 5 * 10 + 1
    assert len(said) == 2 and said[1].startswith(f"телефон места 3: отброшено нажатий: {200 - len(presses)}")


def test_a_message_past_the_size_limit_closes_the_socket(builtin_pack):
    with on_loopback(Limits(ws_message_bytes=1024)) as (port, access, inbox):
        url = f"ws://127.0.0.1:{port}/api/seat/4?t={access.seats[4]}"
        with connect(url, open_timeout=5) as phone, pytest.raises(ConnectionClosed) as closed:
            assert json.loads(phone.recv(timeout=5))["seat"] == 4
            phone.send("x" * 2000)
            while True:
                phone.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert not [item for item in drained(inbox) if isinstance(item, Press)]  # the long message was no press


def test_a_silent_phone_is_closed_and_the_host_told_and_a_ping_is_answered(builtin_pack):
    """A seat's page pings; one heard from no more (offline, its frames held
    back) is lost: the device closes its socket, so what it sent meanwhile is
    never read, and the host is told; coming back, he is told again."""
    from host_device.web.inputs import WebNotice

    limits = Limits(phone_silent_s=0.3, phone_check_s=0.05, notice_every_s=0.0)  # every notice told
    publisher, access, inbox = private_publisher()
    client = TestClient(make_app(publisher, limits))
    url = f"/api/seat/3?t={access.seats[3]}"
    with client.websocket_connect(url) as phone:
        assert phone.receive_json()["seat"] == 3
        phone.send_text(json.dumps({"ping": 1000}))
        assert phone.receive_json() == {"type": "pong"}
        with pytest.raises(WebSocketDisconnect):  # silent: closed by the device
            while True:
                phone.receive_json()
    with client.websocket_connect(url) as phone:
        assert phone.receive_json()["seat"] == 3
    notices = [i.russian for i in drained(inbox) if isinstance(i, WebNotice)]
    assert notices == [
        "место 3: телефон подключён",
        "место 3: телефон отключён",
        "место 3: снова на связи",
        "место 3: телефон отключён",
    ]


def test_at_night_the_consoles_list_of_phones_stands_still(builtin_pack):
    """publisher.hush: a phone coming at night changes no list of phones the
    console is sent; the morning brings the list up to date."""
    publisher, access, _ = private_publisher()
    client = TestClient(make_app(publisher, Limits()))
    publisher.hush(True)
    with client.websocket_connect(f"/api/seat/3?t={access.seats[3]}") as phone:
        assert phone.receive_json()["seat"] == 3
        assert json.loads(publisher.phones_text())["connected"] == []
        publisher.hush(False)
        assert json.loads(publisher.phones_text())["connected"] == [3]


def test_a_flood_of_a_phones_own_names_reaches_the_store_once_a_second(builtin_pack):
    from host_device.web.inputs import SeatName

    publisher, access, inbox = private_publisher()
    ticks = itertools.count(0.0, 0.1)  # ten names a second, for ten seconds
    client = TestClient(make_app(publisher, Limits(clock=lambda: next(ticks))))
    with client.websocket_connect(f"/api/seat/3?t={access.seats[3]}") as phone:
        assert phone.receive_json()["seat"] == 3
        for i in range(100):
            phone.send_text(json.dumps({"name": {"new": f"Имя {i}"}}))
    names = [item for item in drained(inbox) if isinstance(item, SeatName)]
    assert 8 <= len(names) <= 11 and names[0] == SeatName(3, new="Имя 0", by_phone=True)
