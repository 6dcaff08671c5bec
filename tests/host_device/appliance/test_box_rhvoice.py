"""The box with RHVoice (the tests' copy of Debian's): its default voice speaks, and the menu offers
it, the other RHVoice voices whose packs are ready and espeak-ng's, each named on the box's line with its licence as it says its sample."""

import io
import shutil

import pytest

from hardware.events import Held, Press, Release
from host_device.appliance.controls import VOICE_SAMPLE
from tests.helpers.rhvoice import install_shared_pack, shared_pack, use_tests_rhvoice
from tests.host_device.appliance.test_box import feed, labels, make_box, tap
from voices.installed import BUILTIN

pytestmark = pytest.mark.slow  # the whole catalogue rendered by RHVoice once a run


@pytest.fixture
def box_data(monkeypatch, tmp_path, tmp_path_factory, builtin_pack, catalogue):
    data = tmp_path / "data"
    shutil.copytree(builtin_pack.directory, data / "voices" / BUILTIN)
    use_tests_rhvoice(monkeypatch)
    shared = shared_pack(tmp_path_factory, catalogue)
    install_shared_pack(shared, data)
    shutil.copytree(shared, data / "voices" / "rhvoice-anna")  # a second RHVoice voice, its pack ready
    monkeypatch.setenv("HOST_DEVICE_DATA", str(data))
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    (tmp_path / "config.toml").write_text("[box]\npower_off = true\n", encoding="utf-8")
    return tmp_path


def test_rhvoice_speaks_and_the_menu_names_each_voice_with_its_licence(box_data, capsys):
    box, _ = make_box(box_data)
    assert box.choice.voice == "rhvoice-aleksandr-hq"
    assert list(box.announcers) == [BUILTIN, "rhvoice-aleksandr-hq", "rhvoice-anna"]
    assert box.devices.announcer.pack.source["kind"] == "rhvoice"
    for event in [Press(key="next", at=0), Held(key="next", seconds=3.0, at=0), Release(key="next", at=0)]:
        box.inbox.put(event)
    feed(box, lambda: "rules_classic" in labels(box), Press(key="undo", at=0))
    feed(box, lambda: "deal_device" in labels(box), Press(key="undo", at=0))
    feed(box, lambda: "fouls_warn" in labels(box), Press(key="undo", at=0))
    feed(box, lambda: labels(box).count(VOICE_SAMPLE) == 1, *tap("next"))
    feed(box, lambda: labels(box).count(VOICE_SAMPLE) == 2, *tap("next"))
    feed(box, lambda: labels(box).count(VOICE_SAMPLE) == 3, Held(key="pause", seconds=5.0, at=0))
    box.run()
    samples = [
        line for line in capsys.readouterr().out.splitlines() if "Этим голосом я буду вести игру." in line
    ]
    assert samples == [
        "host-device: Ведущий: Этим голосом я буду вести игру. (голос rhvoice-aleksandr-hq (RHVoice, мужской; "
        "CC-BY-SA-4.0: можно и в платных играх, с указанием авторов (Артём Плаксин, Сергей Паршаков, "
        "Бека Гозалишвили, Александр Карлов)))",
        "host-device: Ведущий: Этим голосом я буду вести игру. (голос rhvoice-anna (RHVoice, женский; "
        "LGPL-2.1+: можно и в платных играх))",
        "host-device: Ведущий: Этим голосом я буду вести игру. (голос builtin (espeak-ng, голос zle/ru, "
        "165 слов в минуту))",
    ]
