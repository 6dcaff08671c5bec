"""sounddevice installed but PortAudio (or a library it needs) cannot load:
``hardware test`` and ``run`` end in one line naming the library, the
missing dependency and the apt-get fix (exit 2), never a traceback."""

import pytest

from hardware.speaker import AudioDeviceError, import_sounddevice
from host_device.cli.main import main
from tests.helpers.native import PORTAUDIO_LINE, PORTAUDIO_WITHOUT_ALSA, cannot_load


def test_import_sounddevice_names_the_missing_library(tmp_path, monkeypatch):
    cannot_load(monkeypatch, tmp_path, "sounddevice", PORTAUDIO_WITHOUT_ALSA)
    with pytest.raises(AudioDeviceError) as caught:
        import_sounddevice()
    assert str(caught.value) == f"звук недоступен: {PORTAUDIO_LINE}"
    assert not caught.value.no_devices  # a library to install, not a card to plug in


@pytest.mark.parametrize(
    "argv",
    [
        ["hardware", "test", "--auto", "--panel", "mock"],
        ["run", "--panel", "mock", "--audio", "device", "--days", "1", "--new"],
    ],
)
def test_commands_that_open_sound_end_in_the_line(argv, tmp_path, monkeypatch, capsys, builtin_pack):
    cannot_load(monkeypatch, tmp_path, "sounddevice", PORTAUDIO_WITHOUT_ALSA)
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))  # run goes on without hearing
    store = ["--store", str(tmp_path / "g.sqlite3")] if argv[0] == "run" else []
    assert main([*argv, *store]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == f"host-device: ошибка: звук недоступен: {PORTAUDIO_LINE}"
