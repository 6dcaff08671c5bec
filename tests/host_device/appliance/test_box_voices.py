"""The box's menu switches the voice: after the rules, the deal and the forbidden words, each voice
whose pack is ready says «Этим голосом я буду вести игру.» in its own voice;
the one chosen speaks from then on and at the next start (voices use)."""

import io
import json
import shutil

import numpy as np
import pytest

from hardware.events import Held, Press, Release
from host_device.appliance.controls import VOICE_SAMPLE, Choice
from tests.helpers.piper import STANDIN, installed_standin
from tests.host_device.appliance.test_box import SEATS, Table, feed, labels, make_box, tap
from voices.installed import BUILTIN, in_use


@pytest.fixture
def voiced(monkeypatch, tmp_path, builtin_pack, catalogue):
    """A box's data folder with the built-in pack and the stand-in Piper voice, installed and ready."""
    data = tmp_path / "data"
    shutil.copytree(builtin_pack.directory, data / "voices" / BUILTIN)
    installed_standin(data, builtin_pack, catalogue)
    monkeypatch.setenv("HOST_DEVICE_DATA", str(data))
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    (tmp_path / "config.toml").write_text("[box]\npower_off = true\n", encoding="utf-8")
    return tmp_path


def played(box, key):
    return [p.samples for p in box.devices.speaker.played if p.label == key]


def test_the_menu_offers_each_ready_voice_in_its_own_voice_and_the_chosen_one_speaks(voiced):
    box, _ = make_box(voiced)
    assert box.choice.voice == BUILTIN and sorted(box.announcers) == [BUILTIN, STANDIN]
    for event in [Press(key="next", at=0), Held(key="next", seconds=3.0, at=0), Release(key="next", at=0)]:
        box.inbox.put(event)
    feed(box, lambda: "rules_classic" in labels(box), Press(key="undo", at=0))  # the rules as they are
    feed(box, lambda: "deal_device" in labels(box), Press(key="undo", at=0))  # the deal as it is
    feed(box, lambda: "fouls_warn" in labels(box), Press(key="undo", at=0))  # the forbidden words as they are
    feed(box, lambda: labels(box).count(VOICE_SAMPLE) == 1, *tap("next"))  # the next voice
    feed(box, lambda: labels(box).count(VOICE_SAMPLE) == 2, Press(key="undo", at=0))  # chosen
    feed(box, lambda: labels(box).count("ready") == 2, Held(key="pause", seconds=5.0, at=0))
    box.run()
    builtin, standin = played(box, VOICE_SAMPLE)
    assert np.array_equal(standin, -builtin)  # the same phrase, in the other voice's clips
    first, again = played(box, "ready")
    assert np.array_equal(again, -first)  # «Готов» after the menu: the chosen voice speaks
    assert box.choice == Choice("classic", "device", voice=STANDIN) and in_use() == STANDIN

    later, _ = make_box(voiced)  # the next start: the voice in use, its pack up to date (nothing rendered)
    assert later.choice.voice == STANDIN
    assert later.devices.announcer.pack.voice == f"Piper (голос {STANDIN})"
    later.close()


def test_a_box_with_one_voice_has_no_voice_in_its_menu(voiced):
    """Without a second ready voice the menu is as it was: rules, deal, forbidden words, closed."""
    (voiced / "data" / "voices" / STANDIN / "manifest.json").unlink()  # installed, its pack not built
    box, _ = make_box(voiced)
    assert list(box.announcers) == [BUILTIN]
    box.close()
    table = Table()
    table.hold("next", 10, 3.0)
    table.tap("undo", 15)
    table.tap("undo", 20)
    table.tap("undo", 23)
    assert table.controls.state == "ready" and VOICE_SAMPLE not in [key for key, _ in table.keys()]  # noqa: SIM118


def test_the_voice_menu_goes_round_the_voices_and_is_left_alone_unchanged():
    from host_device.appliance.controls import MENU_IDLE_S

    table = Table()
    table.controls.voices = (BUILTIN, "ru_RU-a", "ru_RU-b")
    table.hold("next", 10, 3.0)
    table.tap("undo", 15)
    table.tap("undo", 20)
    table.tap("undo", 23)

    def voices():
        table.keys()  # what it has begun to say
        return [s.get("voice") for _, k, s in table.said if k == VOICE_SAMPLE]

    assert table.controls.state == "voice" and voices() == [BUILTIN]
    for at in (25, 27, 29):
        table.tap("next", at)
    assert voices() == [BUILTIN, "ru_RU-a", "ru_RU-b", BUILTIN]
    table.run(40 + MENU_IDLE_S)  # nothing chosen: closed as it was
    assert table.controls.state == "ready" and table.controls.choice.voice == BUILTIN
    assert SEATS["classic"] == 10


def test_a_voice_chosen_is_kept_even_if_in_use_json_cannot_be_written(voiced, monkeypatch, caplog):
    box, _ = make_box(voiced)
    (voiced / "data" / "voices" / "in-use.json").mkdir()  # a folder where the file goes: not writable
    box._chosen(Choice("classic", "device", voice=STANDIN))
    assert box.devices.announcer is box.announcers[STANDIN]  # it speaks now, whatever the disk says
    assert "не сохранить выбор голоса" in caplog.text
    box.close()
    assert json.loads((voiced / "box.json").read_text("utf-8")) == {
        "preset": "classic",
        "deal": "device",
        "fouls": "warn",
    }
