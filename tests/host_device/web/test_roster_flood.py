"""A phone that reconnects its socket in a loop (host_device/web/sockets.py,
session/seating.py, screens/seating.py): it once added 483 names to the
club's roster in 20 s (the name limit was its connection's), every phone was
sent the whole roster in each view, and each connection was a notice on the
console and the terminal. Now a seat's phone adds one new name a game, names
at most once a second whatever its connections, searches the roster on the
device (a page of matches), and its comings and goings are told at most once
in a few seconds, with their count."""

import json
import queue
import time

import pytest
from starlette.testclient import TestClient

from engine import Game
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.runtime.settings import Settings
from host_device.screens.public import PublicStream
from host_device.screens.views import Console, seat_view
from host_device.session.seating import TableSeating
from host_device.store import Store
from host_device.web.access import Access
from host_device.web.app import make_app
from host_device.web.inputs import SeatName, WebNotice
from host_device.web.limits import Limits
from host_device.web.publisher import Private, Publisher
from voices.catalogue import russian

SEAT = 3


class Club:
    """A host-mode table with phones at 3 and 4, its game kept in a store; the inbox taken as the session takes it."""

    def __init__(self, tmp_path, limits):
        self.store = Store(tmp_path / "g.db")
        self.game = self.store.games.new_game("classic", "host")
        self.runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0, Settings())
        self.access = Access.new((3, 4))
        self.inbox: queue.Queue = queue.Queue()
        self.console = Console(self.runtime, None, whole_table=False, typed=True)
        self.said: list[str] = []
        self.seating = TableSeating(
            self.console.seating, lambda text, russian: self.said.append(russian), lambda: None
        )
        self.seating.open(self.store, self.game)
        private = Private(self.access, self.console, self.inbox)
        self.publisher = Publisher(PublicStream(self.runtime, russian().text), 1.0, private)
        self.client = TestClient(make_app(self.publisher, limits))
        self.client.__enter__()  # one event loop for every connection, as the server has
        self.notices: list[WebNotice] = []

    def close(self):
        self.client.__exit__(None, None, None)
        self.store.close()

    def phone(self):
        return self.client.websocket_connect(f"/api/seat/{SEAT}?t={self.access.seats[SEAT]}")

    def take(self):
        while not self.inbox.empty():
            item = self.inbox.get_nowait()
            if isinstance(item, SeatName):
                self.seating.name(item)
            elif isinstance(item, WebNotice):
                self.notices.append(item)


def heard(socket):
    """Whatever was sent before has been read: a ping answered."""
    socket.send_text(json.dumps({"ping": 1}))
    while json.loads(socket.receive_text()).get("type") != "pong":
        pass


def reconnect_loop(club, times, name=None):
    for n in range(times):
        with club.phone() as socket:
            if name is not None:
                socket.send_text(json.dumps({"name": {"new": name(n)}}))
            heard(socket)


@pytest.fixture
def club(tmp_path):
    made = Club(tmp_path, Limits(name_every_s=0.0, notice_every_s=60.0))
    yield made
    made.close()


def test_a_phone_reconnecting_in_a_loop_adds_one_name_to_the_roster_a_game(club, builtin_pack):
    reconnect_loop(club, 40, name=lambda n: f"junk {n}")
    club.take()
    # one player added; each next new name corrected his (a typo fixed), the roster not grown
    assert [p.name for p in club.store.roster.players()] == ["junk 39"]
    assert club.store.roster.seating(club.game)[SEAT].name == "junk 39"
    # once the host has seated someone else there, a new name from the phone is refused: it says why
    anna = club.store.roster.add_player("Анна")
    club.seating.name(SeatName(SEAT, player=anna.id))
    for n in range(3):
        club.seating.name(SeatName(SEAT, new=f"junk again {n}", by_phone=True))
    assert len(club.store.roster.players()) == 2
    assert "одно за игру" in seat_view(club.runtime, SEAT, club.console.seating)["name_refused"]
    assert sum("второе новое имя" in line for line in club.said) == 1  # the host is told once
    # a name the roster has is still his to pick, and the host adds what he likes
    club.seating.name(SeatName(SEAT, new="junk 39", by_phone=True))
    assert club.store.roster.seating(club.game)[SEAT].name == "junk 39"
    assert seat_view(club.runtime, SEAT, club.console.seating)["name_refused"] is None
    club.seating.name(SeatName(4, new="Вера"))
    assert len(club.store.roster.players()) == 3
    # the next game, one new name again
    club.seating.open(club.store, club.store.games.new_game("classic", "host"))
    club.seating.name(SeatName(SEAT, new="Глеб", by_phone=True))
    assert "Глеб" in [p.name for p in club.store.roster.players()]


def test_a_phones_comings_and_goings_are_told_once_in_a_while_with_their_count(tmp_path, builtin_pack):
    club = Club(tmp_path, Limits(name_every_s=0.0, notice_every_s=0.5))
    try:
        began = time.monotonic()
        reconnect_loop(club, 30)
        took = time.monotonic() - began
        club.take()
        # the first arrival, and one more for each 0.5 s the loop outlasted (a loaded machine)
        assert len(club.notices) <= 2 + int(took / 0.5), took
        deadline = time.monotonic() + 10

        def told_gone():
            last = club.notices[-1] if club.notices else None
            return last is not None and last.lasting and "подключений и отключений" in last.russian

        while not told_gone():
            assert time.monotonic() < deadline, [n.russian for n in club.notices]
            time.sleep(0.05)
            club.take()
        last = club.notices[-1]
        assert last.seat == SEAT  # the last word told: the phone is gone, with the count
        assert last.russian.startswith("место 3: телефон отключён (подключений и отключений за 0,5 с:")
        assert len(club.notices) < 30
    finally:
        club.close()


def test_a_seats_names_come_once_a_second_whatever_its_connections_and_the_last_one_counts(
    tmp_path, builtin_pack
):
    club = Club(tmp_path, Limits(name_every_s=1.0, notice_every_s=60.0))
    try:
        began = time.monotonic()
        reconnect_loop(club, 10, name=lambda n: f"Имя {n}")
        took = time.monotonic() - began
        time.sleep(1.5)  # the last one sent waits for its second
        names = [item.new for item in drain(club.inbox) if isinstance(item, SeatName)]
        assert names[0] == "Имя 0" and names[-1] == "Имя 9"
        assert len(names) <= 2 + took  # not ten: one a second
    finally:
        club.close()


def drain(inbox):
    items = []
    while not inbox.empty():
        items.append(inbox.get_nowait())
    return items


def test_a_phone_is_never_sent_the_roster_and_searches_it_on_the_device(club, builtin_pack):
    for n in range(60):
        club.store.roster.add_player(f"Игрок {n:02d}", nickname="Ёжик" if n == 7 else None)
    club.store.roster.add_player("Ольга Вера")
    club.store.roster.add_player("Вера")
    club.seating.reread()
    club.publisher.refresh()
    assert "roster" not in json.loads(club.publisher.views[f"seat:{SEAT}"])
    assert "Игрок 00" not in club.publisher.views[f"seat:{SEAT}"]
    with club.phone() as socket:

        def found(query):
            socket.send_text(json.dumps({"find": query}))
            while (reply := json.loads(socket.receive_text())).get("type") != "found":
                pass
            assert reply["query"] == query
            return [p["label"] for p in reply["players"]]

        assert len(found("игрок")) == 20  # a page, not the roster
        assert found("ВЕРА") == ["Вера", "Ольга Вера"]  # the exact name first
        assert found("ежик") == ["Игрок 07 (Ёжик)"]
        assert found("игрок 1") == [f"Игрок {n}" for n in range(10, 20)]
        assert found("нет такого") == []
        socket.send_text(json.dumps({"find": "x" * 101}))  # refused, answered as any message that is no press
        assert json.loads(socket.receive_text())["type"] == "pong"
