"""``host-device hardware test`` with no person present."""

from host_device.cli.main import main
from tests.helpers.russian import latin_words
from tests.helpers.sound import MIC_WAV


def test_self_test_on_the_mock_panel_and_the_real_audio_path(capsys):
    assert main(["hardware", "test", "--auto", "--panel", "mock"]) == 0
    out = capsys.readouterr().out
    assert "огоньки: зажигаю места 1…10 по очереди" in out
    assert "кнопки: замечено 13 из 13" in out
    assert "микрофон:" in out and "dBFS" in out
    assert "динамик: фраза прозвучала" in out
    assert out.strip().endswith("проверка: всё в порядке")


def test_self_test_with_twelve_seats_and_a_wav_microphone(capsys):
    assert (
        main(
            [
                "hardware",
                "test",
                "--auto",
                "--panel",
                "mock",
                "--seats",
                "12",
                "--audio",
                "file",
                "--wav",
                str(MIC_WAV),
            ]
        )
        == 0
    )
    assert "кнопки: замечено 15 из 15" in capsys.readouterr().out


def test_self_test_reports_what_it_did_not_see(capsys, tmp_path):
    import wave

    empty = tmp_path / "empty.wav"
    with wave.open(str(empty), "wb") as w:  # a microphone that hears nothing at all
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
    assert (
        main(["hardware", "test", "--auto", "--panel", "mock", "--audio", "file", "--wav", str(empty)]) == 1
    )
    out = capsys.readouterr().out
    assert "микрофон: звук не пришёл" in out
    assert "проверка: НЕПОЛАДКИ: от микрофона нет звука" in out


def test_self_test_with_null_audio_skips_the_sound_checks(capsys):
    assert main(["hardware", "test", "--auto", "--panel", "mock", "--audio", "null"]) == 0
    out = capsys.readouterr().out
    assert "микрофон: пропущено (--audio null)" in out and "динамик: пропущено (--audio null)" in out
    assert "dBFS" not in out and "динамик: фраза" not in out
    assert out.strip().endswith("проверка: всё в порядке (звук пропущен: --audio null)")


def no_sound_devices(monkeypatch):
    """A machine without a sound card: PortAudio lists nothing and opens nothing."""
    import sounddevice

    def refuse(*args, **kwargs):
        raise sounddevice.PortAudioError("Error querying device -1")

    monkeypatch.setattr(sounddevice, "query_devices", lambda *a, **k: [] if not a and not k else refuse())
    monkeypatch.setattr(sounddevice, "OutputStream", refuse)
    monkeypatch.setattr(sounddevice, "RawInputStream", refuse)


def test_without_a_sound_card_the_error_says_so_and_gives_the_command_with_null_audio(capsys, monkeypatch, builtin_pack):
    no_sound_devices(monkeypatch)
    assert main(["hardware", "test", "--auto", "--panel", "mock"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "устройства здесь" not in err
    assert "звуковых устройств не найдено" in err
    assert "звукового устройства по умолчанию нет" in err and latin_words(err) == []  # not PortAudio's English
    assert err.strip().endswith("без звука: host-device hardware test --auto --panel mock --audio null")
    assert main(["run", "--panel", "mock", "--audio", "device", "--days", "1", "--new"]) == 2
    err = capsys.readouterr().err
    assert latin_words(err) == []
    assert err.strip().endswith("host-device run --panel mock --days 1 --new --audio null")
    assert main(["devices"]) == 1
    captured = capsys.readouterr()
    assert (
        captured.out == ""
        and "звуковых устройств не найдено" in captured.err
        and "--audio null" in captured.err
    )


def test_self_test_without_gpio_suggests_the_keyboard(capsys, monkeypatch):
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "")
    assert main(["hardware", "test", "--auto"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "нет GPIO: это не Raspberry Pi" in err and "с клавиатуры: --panel keyboard" in err


def test_self_test_with_a_bad_config(tmp_path, capsys):
    path = tmp_path / "c.toml"
    path.write_text("[panel.host]\nnext = 99\n")
    assert main(["hardware", "test", "--auto", "--panel", "mock", "--config", str(path)]) == 2
    assert "[panel].host.next: GPIO99 нет на 40-контактном разъёме" in capsys.readouterr().err


def test_the_keyboard_panel_without_a_terminal_is_one_line(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # a pipe, not a terminal: no key can come
    assert main(["hardware", "test", "--panel", "keyboard", "--audio", "null"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--panel keyboard" in err and "терминал" in err
