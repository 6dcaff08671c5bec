"""What the pages read (host_device/web/publisher.py): the public state's
``time_left`` is the time left when the state is served, not when the last
event was published, on the device's one clock and at its speed."""

import io

from starlette.testclient import TestClient

from engine import Phase
from host_device.runtime.clock import VirtualClock
from host_device.screens.public import PublicStream
from host_device.session.host import Host
from host_device.web.app import make_app
from host_device.web.publisher import Publisher
from tests.helpers.host import args
from voices.catalogue import russian

SPEED = 10.0


def test_the_state_served_during_a_speech_counts_down(monkeypatch, tmp_path, builtin_pack):
    """``run --speed 10`` on a virtual wall clock: /api/state asked every
    half second of wall time through the first speech gives the time left
    at that moment (no event comes between them to refresh a snapshot)."""
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    clock = VirtualClock(limit=900)
    host = Host(args(store=str(tmp_path / "g.db"), speed=SPEED), clock=clock)
    host.publisher = Publisher(PublicStream(host.runtime, russian().text), SPEED, clock=clock)
    client = TestClient(make_app(host.publisher))
    rt = host.runtime
    served: list[tuple[float, dict]] = []  # (wall time, the state as served then)

    def ask():
        s = rt.game.state
        speaking = s.phase is Phase.SPEECH and rt.timer is not None and rt.timer[2] == "speech"
        first = speaking and s.speaker == (served[0][1]["speaker"] if served else s.speaker)
        if first and (not served or clock.now() - served[-1][0] >= 0.5):
            served.append((clock.now(), client.get("/api/state").json()))
        return False

    clock.when(ask, repeat=True)
    assert host.run() == 0
    timer = next(e for e in rt.timeline.as_dicts() if e["type"] == "timer" and e["purpose"] == "speech")
    counting = [(wall, state) for wall, state in served if wall * SPEED >= timer["t"]]
    assert len(counting) >= 8  # a 60-s speech at ×10: six seconds of wall time
    lefts = [state["time_left"] for _, state in counting]
    assert lefts == sorted(lefts, reverse=True) and len(set(lefts)) == len(lefts)  # it counts down
    for wall, state in counting:
        expected = max(0.0, timer["seconds"] - (wall * SPEED - timer["t"]))
        assert abs(state["time_left"] - expected) <= 0.2, (wall, state["time_left"], expected)
        assert state["speed"] == SPEED


def test_the_console_and_the_state_agree_and_stand_still_before_the_time_and_while_paused(
    monkeypatch, tmp_path, builtin_pack
):
    """Through the first speech, with the host's pause in it, at every turn
    of the loop: the console's clock (its page counting down from the last
    view, as host.js does) and the state served agree; both stand still
    before the speaker's time starts («…ваша минута» is still said) and
    while paused, and go on from there after it."""
    import json

    from hardware.events import Press
    from host_device.screens.views import Console
    from host_device.web.access import Access
    from host_device.web.publisher import Private

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    clock = VirtualClock(limit=900)
    host = Host(args(store=str(tmp_path / "g.db"), speed=SPEED), clock=clock)
    console = Console(host.runtime, None, typed=True)
    private = Private(Access.new(()), console, host.inbox)
    host.publisher = Publisher(PublicStream(host.runtime, russian().text), SPEED, private, clock)
    rt = host.runtime
    seen: list[tuple[float, bool, dict, float]] = []  # wall, paused, the state served, the console shows
    got: dict = {}  # the console's last view and when it came

    def look():
        s = rt.game.state
        if s.phase is Phase.SPEECH and (not seen or s.speaker == seen[0][2]["speaker"]):
            text = host.publisher.views["host"]
            if text != got.get("text"):
                got.update(text=text, at=clock.now())
            view = json.loads(text)
            run = (clock.now() - got["at"]) * SPEED
            counted = 0.0 if view["starts_in"] is None else max(0.0, run - view["starts_in"])
            seen.append(
                (clock.now(), rt.sched.paused, json.loads(host.publisher.state), view["time_left"] - counted)
            )
        return False

    def press():
        return Press(key="pause", at=clock.now())

    clock.when(look, repeat=True)
    clock.when(lambda: len(seen) >= 30, press)  # a second into the speaker's time
    clock.when(lambda: sum(x[1] for x in seen) >= 40, press)  # two seconds later
    assert host.run() == 0
    timer = next(e for e in rt.timeline.as_dicts() if e["type"] == "timer" and e["purpose"] == "speech")
    before = [x for x in seen if x[0] * SPEED < timer["t"]]
    paused = [x for x in seen if x[1]]
    after = [x for x in seen if not x[1] and x[0] > paused[-1][0]]
    assert len(before) >= 3 and len(paused) >= 40 and len(after) >= 40
    for wall, is_paused, state, shown in seen:
        assert abs(state["time_left"] - shown) <= 0.2, (wall, is_paused, state["time_left"], shown)
    assert {x[2]["time_left"] for x in before} == {60.0}
    held = {x[2]["time_left"] for x in paused}
    assert len(held) == 1 and 40 < min(held) < 55  # stood still where the pause came
    assert all(x[2]["deadline"] is None for x in paused)
    assert 0 <= min(held) - after[0][2]["time_left"] <= 1.0  # and went on from there
