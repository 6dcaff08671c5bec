"""Host mode with the device's own fouls (issue 39), by the club's strictness:
a forbidden word typed for the speaker (as the listener would hear it) is
given, announced and recorded in the store under ``foul``, only remarked
under ``warn``, nothing under ``off``; the box's menu wins over the config."""

import time

import pytest

from engine import CLASSIC, Advance, Foul, Phase
from hardware.events import TypedLine
from host_device.config import Strictness
from host_device.runtime.timeline import Said
from host_device.session.deal import deal
from host_device.session.host import Host
from tests.helpers.host import args


def hosted_speech(tmp_path, monkeypatch, strictness, **overrides):
    """A host-mode session (no model: typed speech) in the first speech, with
    the config's [fouls] strictness."""
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    config = tmp_path / "config.toml"
    config.write_text(f'[fouls]\nstrictness = "{strictness}"\n', "utf-8")
    host = Host(args(config=config, store=str(tmp_path / "games.sqlite3"), **overrides))
    host._open_store()
    host.runtime.handle(deal(CLASSIC, 7))
    while host.game.phase is not Phase.SPEECH:
        host.runtime.handle(Advance())
    return host


def say_it(host, text="честно говоря, я мирный житель"):
    """The speaker says ``text``; the phrases it draws are played. Returns the Said entries."""
    before = len(host.runtime.timeline.entries)
    host._input(TypedLine(text=text, at=time.monotonic()))
    said = [e for e in host.runtime.timeline.entries[before:] if isinstance(e, Said)]
    if said:
        host.sched.run_due(said[-1].t + 0.01)
    return said


def spoken(capsys):
    return [
        line.split("Ведущий: ", 1)[1] for line in capsys.readouterr().out.splitlines() if "Ведущий: " in line
    ]


def stored(host):
    return [inp for _, _, inp in host.store.games.inputs(host.game_id)]


def test_foul_the_device_gives_it_announces_it_and_the_store_records_it(
    tmp_path, monkeypatch, builtin_pack, capsys
):
    host = hosted_speech(tmp_path, monkeypatch, "foul")
    try:
        speaker = host.game.state.speaker
        assert [s.key for s in say_it(host)] == ["foul_heard"]
        assert host.game.state.fouls == {speaker: 1}
        assert spoken(capsys)[-1] == "Игрок номер один, первое замечание: «честно»."
        assert host.speaker.played[-1].label == "foul_heard"
        assert stored(host)[-1] == Foul(seat=speaker, by="device", word="честно")
        assert host.game.state.speaker == speaker  # his speech goes on
    finally:
        host.panel.close()


def test_warn_the_device_says_the_remark_and_neither_gives_nor_records_a_foul(
    tmp_path, monkeypatch, builtin_pack, capsys
):
    host = hosted_speech(tmp_path, monkeypatch, "warn")
    try:
        inputs = len(stored(host))
        assert [s.key for s in say_it(host, "клянусь, я мирный")] == ["remark"]
        assert spoken(capsys)[-1] == "Игрок номер один, предупреждение: «клянусь»."
        assert host.game.state.fouls == {}
        assert len(stored(host)) == inputs
    finally:
        host.panel.close()


def test_off_the_device_says_nothing_and_gives_nothing(tmp_path, monkeypatch, builtin_pack, capsys):
    host = hosted_speech(tmp_path, monkeypatch, "off")
    try:
        inputs = len(stored(host))
        assert say_it(host) == []
        assert "замечание" not in capsys.readouterr().out
        assert host.game.state.fouls == {} and len(stored(host)) == inputs
    finally:
        host.panel.close()


@pytest.mark.parametrize(("menu", "key"), [(Strictness.OFF, None), (Strictness.WARN, "remark")])
def test_the_boxs_menu_choice_wins_over_the_config(tmp_path, monkeypatch, builtin_pack, menu, key):
    host = hosted_speech(tmp_path, monkeypatch, "foul", fouls=menu)
    try:
        assert host.runtime.settings.fouls is menu
        assert [s.key for s in say_it(host)] == ([key] if key else [])
        assert host.game.state.fouls == {}
    finally:
        host.panel.close()


def test_a_nomination_in_the_same_words_is_taken_beside_the_foul(tmp_path, monkeypatch, builtin_pack):
    host = hosted_speech(tmp_path, monkeypatch, "foul")
    try:
        speaker = host.game.state.speaker
        say_it(host, "честно говоря, выставляю игрока номер семь")
        assert host.game.state.nominations == {speaker: 7}
        assert host.game.state.fouls == {speaker: 1}
    finally:
        host.panel.close()


def test_the_console_withdraws_the_devices_foul_from_the_game_and_the_store(
    tmp_path, monkeypatch, builtin_pack
):
    from host_device.runtime.discipline import WithdrawFoul

    host = hosted_speech(tmp_path, monkeypatch, "foul")
    notices = []
    host.inputs.notice = lambda text, russian: notices.append(russian)
    try:
        inputs = len(stored(host))
        say_it(host)
        host._input(WithdrawFoul())
        assert host.game.state.fouls == {} and len(stored(host)) == inputs
        assert notices == []
        host._input(WithdrawFoul())  # nothing of the device's left: the console is told
        assert notices and "снять нечего" in notices[-1]
    finally:
        host.panel.close()
