"""``run --mode host`` on the mock panel and the audio doubles, fast."""

import argparse

from engine import CLASSIC, EVENT, Role
from host_device.cli import main
from host_device.runtime.host import ROLE_SIGNALS, Host, deal
from tests.conftest import MIC_WAV


def args(**overrides):
    base = dict(mode="host", preset="classic", deal="device", seed=7, panel="mock", audio="file", wav=str(MIC_WAV),
                model=None, config=None, speed=2000.0, days=1, verbose=False)
    base.update(overrides)
    return argparse.Namespace(**base)


def test_the_deal_is_seeded_and_has_the_presets_counts():
    a, b = deal(CLASSIC, 3), deal(CLASSIC, 3)
    assert a == b and deal(CLASSIC, 4) != a
    roles = [r for _, r in a.roles]
    assert sorted(roles) == sorted([Role.SHERIFF, Role.DON, Role.MAFIA, Role.MAFIA])
    assert sorted(r for _, r in deal(EVENT, 1).roles) == sorted([Role.COMMISSAR] + [Role.MAFIA] * 3)


def test_a_hosted_day_on_the_mock_panel(monkeypatch, tmp_path, builtin_pack):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))  # without a model: nothing is heard
    host = Host(args())
    assert host.listener is None
    seat_one_led = host.panel.leds[1].pin  # the mock pin keeps its history after the panel is closed
    assert host.run() == 0
    tl = host.runtime.sorted_timeline()
    dealt = dict(deal(CLASSIC, 7).roles)
    # each seat saw his role on his own LED, for the same time, before the first night
    wakes = next(e["t"] for e in tl if e["type"] == "say" and e["key"] == "mafia_wakes")
    shown = [e for e in tl if e["type"] == "led" and e["t"] < wakes]
    lit = {e["seat"]: e["pattern"] for e in shown if e["pattern"] != "off"}
    assert lit == {seat: ROLE_SIGNALS[dealt.get(seat, Role.CIVILIAN)] for seat in range(1, 11)}
    durations = set()
    for seat in range(1, 11):
        on = next(e["t"] for e in shown if e["seat"] == seat and e["pattern"] != "off")
        off = next(e["t"] for e in shown if e["seat"] == seat and e["pattern"] == "off")
        durations.add(round(off - on, 3))
    assert durations == {4.0}
    # the phrases were played, and the device's own voice is gated
    labels = [p.label for p in host.speaker.played]
    assert labels[:2] == ["night_falls", "look_at_your_light"] and "speech" in labels and "time_up" in labels
    assert len(host.gate._playbacks) == len(labels)
    # the speaker's LED on the mock pins
    assert 1.0 in [s.state for s in seat_one_led.states]
    assert host.runtime.stopped and host.game.state.day == 2


def test_run_with_the_listener_and_the_cli(ko_model_dir, capsys, builtin_pack):
    assert main(["run", "--panel", "mock", "--audio", "file", "--wav", str(MIC_WAV), "--model", str(ko_model_dir),
                 "--speed", "2000", "--days", "1", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "game over: not finished" in out
