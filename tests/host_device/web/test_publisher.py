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
    timer = next(e for e in rt.sorted_timeline() if e["type"] == "timer" and e["purpose"] == "speech")
    counting = [(wall, state) for wall, state in served if wall * SPEED >= timer["t"]]
    assert len(counting) >= 8  # a 60-s speech at ×10: six seconds of wall time
    lefts = [state["time_left"] for _, state in counting]
    assert lefts == sorted(lefts, reverse=True) and len(set(lefts)) == len(lefts)  # it counts down
    for wall, state in counting:
        expected = max(0.0, timer["seconds"] - (wall * SPEED - timer["t"]))
        assert abs(state["time_left"] - expected) <= 0.2, (wall, state["time_left"], expected)
        assert state["speed"] == SPEED
