"""The private sockets under fire (host_device/web/messages.py, inputs.py):
at each step of the classic example game — the deal, a speech, a vote with
its window open, a last word, each night step, the end — every field of every
message a phone, the console or the TV's stream may send is given NaN,
±Infinity, 1e308, 1e400, -0, huge whole numbers, strings, lists, objects and
deep nesting. The game is played on a virtual clock with the terminal's
narration following it (where a press dated -Infinity once ended the host),
each message taken as the session takes it, and after every battery the
sockets still answer, a good press still arrives and the game plays on."""

import json
import queue
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from engine import DealRoles, Game, Phase
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.screens.narration import Narration
from host_device.screens.public import PublicStream
from host_device.screens.views import Console
from host_device.scripts.script import load_script
from host_device.scripts.simulate import ScriptedTable, builtin_durations
from host_device.session.deal import show_roles
from host_device.web.access import Access
from host_device.web.app import make_app
from host_device.web.inputs import PhonePress, SeatName
from host_device.web.limits import Limits
from host_device.web.publisher import Private, Publisher
from tests.helpers.host import StillWall, table_inputs
from tests.helpers.paths import ROOT
from voices.catalogue import russian

SEAT = 4
DEEP = "[" * 1500 + "]" * 1500  # under the 4 KB a message may have
BAD = (  # raw JSON, as a page (or anyone on the Wi-Fi) may write it
    "NaN",
    "Infinity",
    "-Infinity",
    "1e308",
    "-1e308",
    "1e400",
    "-0",
    "-0.0",
    "9007199254740993",  # 2**53 + 1
    "1" + "0" * 400,
    "-" + "9" * 1000,
    "-1",
    "0.5",
    '"5"',
    '"Infinity"',
    '""',
    "null",
    "true",
    "[]",
    "[NaN, Infinity]",
    "{}",
    '{"a": {"b": [1e400]}}',
    DEEP,
)
# every field of every message, ``%s`` where the bad value goes (``{step}``: the step's number)
SEAT_MESSAGES = (
    '{"ping": %s}',
    '{"press": %s, "at": 1000}',
    '{"press": {step}, "at": %s}',
    '{"press": {step}, "at": 1000, "extra": %s}',
    '{"name": %s}',
    '{"name": {"player": %s}}',
    '{"name": {"new": %s}}',
    '{"find": %s}',
    "%s",
)
CONSOLE_MESSAGES = (
    '{"key": %s}',
    '{"seat": %s}',
    '{"press": %s}',
    '{"press": 3, "made_in": %s}',
    '{"text": %s}',
    '{"best_move": %s}',
    '{"best_move": [3, %s, 8]}',
    '{"whole": %s}',
    '{"name": %s}',
    '{"name": {"seat": %s, "new": "Вера"}}',
    '{"name": {"seat": 3, "player": %s}}',
    '{"name": {"seat": 3, "new": %s}}',
    '{"extra": {"seat": %s, "points": 0.5}}',
    '{"extra": {"seat": 3, "points": %s}}',
    "%s",
)
LIMITS = Limits(name_every_s=0.0, phone_silent_s=1e9, presses_per_s=1e6, press_burst=10**6)


@dataclass
class Table:
    runtime: Runtime
    inbox: queue.Queue[Any]
    inputs: Any
    lines: list[str]
    client: TestClient
    access: Access

    def take(self, until: Any = None, after: str = "") -> None:
        """The inbox's items taken as the session takes them, up to ``until`` (a sync marker)."""
        while until is not None or not self.inbox.empty():
            try:
                item = self.inbox.get(timeout=5)
            except queue.Empty:
                raise AssertionError(f"the phone's socket stopped reading after {after[:80]!r}") from None
            if item == until:
                return
            self.inputs.take(item)


def example_table(steps: int) -> Table:
    """The classic example game, every seat a phone, its terminal narration on, played ``steps`` events in."""
    script = load_script(ROOT / "examples" / "classic-full-game.json")
    runtime = Runtime(Game(script.preset), Scheduler(), builtin_durations(), None)
    ScriptedTable(script, runtime)
    lines: list[str] = []
    Narration(runtime, russian().text, lines.append)
    access = Access.new(range(1, 11))
    inbox: queue.Queue[Any] = queue.Queue()
    console = Console(runtime, None, whole_table=True, typed=True)
    publisher = Publisher(
        PublicStream(runtime, russian().text), clock=StillWall(), private=Private(access, console, inbox)
    )
    dealt = DealRoles(roles=tuple(sorted(script.roles.items())))
    show_roles(runtime, dealt, lambda: runtime.handle(dealt))
    for _ in range(steps):
        runtime.sched.run_due(runtime.sched.next_time())
    inputs = table_inputs(runtime, typed_speech=True)
    return Table(runtime, inbox, inputs, lines, TestClient(make_app(publisher, LIMITS)), access)


@pytest.fixture(scope="module")
def moments(builtin_pack) -> dict[str, int]:
    """The example game's steps, each first seen after how many events: the deal, each phase, a vote's open window."""
    table = example_table(0)
    sched, seen, found = table.runtime.sched, set(), []
    for steps in range(100_000):
        rt = table.runtime
        key = (rt.game.phase.value, rt.window is not None)
        if key not in seen:
            seen.add(key)
            found.append((f"{key[0]}{' (window open)' if key[1] else ''}", steps))
        if (t := sched.next_time()) is None:
            break
        sched.run_due(t)
    return dict(found)


MOMENTS = (  # the classic example game's steps, in order
    "roles",
    "intro_mafia",
    "intro_meet",
    "morning",
    "speech",
    "vote_announce",
    "vote (window open)",
    "last_word",
    "night_hunt",
    "night_check",
    "tie_speech",
    "game_over",
)


def test_the_moments_are_the_example_games_steps(moments):
    assert list(moments) == list(MOMENTS)


def _seat_battery(table: Table, socket: Any) -> int:
    sent = 0
    for n, template in enumerate(SEAT_MESSAGES):
        for bad in BAD:
            text = template.replace("{step}", str(table.runtime.step)) % bad
            socket.send_text(text)
            socket.send_text(json.dumps({"name": {"player": f"sync-{n}"}}))
            table.take(until=SeatName(SEAT, player=f"sync-{n}", by_phone=True), after=text)
            sent += 1
    return sent


def _console_battery(table: Table, socket: Any) -> int:
    sent = 0
    for n, template in enumerate(CONSOLE_MESSAGES):
        for bad in BAD:
            socket.send_text(template % bad)
            socket.send_text(json.dumps({"sync": n}))
            while '"sync"' not in (reply := json.loads(socket.receive_text())).get("text", ""):
                assert reply["type"] != "error" or len(reply["text"]) < 300, reply  # one short line
            table.take()
            sent += 1
    return sent


def _still_playing(table: Table, seat_socket: Any) -> None:
    """The phone's socket answers a ping and a good press arrives; the game plays on to its next events."""
    seat_socket.send_text(json.dumps({"ping": 500}))
    while json.loads(seat_socket.receive_text()).get("type") != "pong":
        pass
    seat_socket.send_text(json.dumps({"press": table.runtime.step, "at": 600}))
    item = table.inbox.get(timeout=10)
    assert isinstance(item, PhonePress) and item.key == SEAT and item.made_in == table.runtime.step
    sched = table.runtime.sched
    for _ in range(50):
        if (t := sched.next_time()) is None:
            break
        sched.run_due(t)
    assert table.lines  # the narration went on (a number it could not print would have raised)


def test_a_press_dated_minus_infinity_in_a_vote_is_refused_and_the_game_goes_on(moments):
    """The issue's two attacks: a press dated -Infinity, and a ping of Infinity then a press."""
    for attack in (
        ['{"press": {step}, "at": -Infinity}'],
        ['{"ping": Infinity}', '{"press": {step}, "at": 1000}'],
    ):
        table = example_table(moments["vote (window open)"])
        with table.client.websocket_connect(f"/api/seat/{SEAT}?t={table.access.seats[SEAT]}") as seat:
            for text in attack:
                seat.send_text(text.replace("{step}", str(table.runtime.step)))
            seat.send_text(json.dumps({"name": {"player": "sync"}}))
            table.take(until=SeatName(SEAT, player="sync", by_phone=True))
            _still_playing(table, seat)


@pytest.mark.parametrize("moment", MOMENTS)
def test_no_message_from_a_page_ends_the_game(moment, moments):
    table = example_table(moments[moment])
    phase = table.runtime.game.phase
    seat_url = f"/api/seat/{SEAT}?t={table.access.seats[SEAT]}"
    with (
        table.client.websocket_connect(seat_url) as seat,
        table.client.websocket_connect(f"/api/host?t={table.access.host}") as host,
        table.client.websocket_connect("/api/events") as tv,
    ):
        host.send_text(json.dumps({"whole": True}))  # the console presses seats too: more of it is reached
        for bad in BAD:
            tv.send_text(bad)  # the TV's stream takes nothing
        sent = _seat_battery(table, seat) + _console_battery(table, host)
        assert table.runtime.game.phase is phase or phase is not Phase.GAME_OVER
        _still_playing(table, seat)
    assert sent == len(BAD) * (len(SEAT_MESSAGES) + len(CONSOLE_MESSAGES))


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and ±Infinity among them: json.dumps writes them as JavaScript does
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def in_a_vote(moments):
    table = example_table(moments["vote (window open)"])
    assert table.runtime.window is not None
    return table


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=JSON, where=st.sampled_from(SEAT_MESSAGES + CONSOLE_MESSAGES))
def test_any_json_at_any_field_in_a_vote_is_taken_or_refused(in_a_vote, value, where):
    table = in_a_vote
    text = where.replace("{step}", str(table.runtime.step)) % json.dumps(value)
    with (
        table.client.websocket_connect(f"/api/seat/{SEAT}?t={table.access.seats[SEAT]}") as seat,
        table.client.websocket_connect(f"/api/host?t={table.access.host}") as host,
    ):
        if where in SEAT_MESSAGES:
            seat.send_text(text)
            seat.send_text(json.dumps({"name": {"player": "sync"}}))
            table.take(until=SeatName(SEAT, player="sync", by_phone=True))
        else:
            host.send_text(text)
            host.send_text(json.dumps({"sync": 1}))
            while '"sync"' not in json.loads(host.receive_text()).get("text", ""):
                pass
            table.take()
        seat.send_text(json.dumps({"ping": 1}))
        while json.loads(seat.receive_text()).get("type") != "pong":
            pass
