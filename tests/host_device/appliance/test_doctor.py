"""``doctor --auto`` on mock pins: passing, and failing with a missing model,
a model that cannot hear Russian, and a pin conflict."""

import pytest

from host_device.cli.main import main
from tests.helpers.paths import ROOT
from tests.helpers.sound import MIC_WAV


def doctor(tmp_path, *extra):
    store = str(tmp_path / "g.sqlite3")
    return main(["doctor", "--auto", "--audio", "file", "--wav", str(MIC_WAV), "--store", store, *extra])


def test_doctor_passes_when_everything_is_there(tmp_path, builtin_pack, capsys):
    assert doctor(tmp_path, "--no-model") == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("всё в порядке (пропущено: модель речи)") and "ИСПРАВИТЬ" not in out
    assert "кнопки: замечено 13 из 13" in out and "микрофон:" in out and "проверочный тон прозвучал" in out


def test_doctor_fails_without_a_speech_model(tmp_path, builtin_pack, capsys, monkeypatch):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    assert doctor(tmp_path) == 1
    out = capsys.readouterr().out
    assert "нужно исправить (1):" in out and "всё в порядке" not in out
    assert "  - модель речи: нет модели речи в" in out and "model install" in out


@pytest.mark.slow
def test_doctor_fails_with_a_model_that_cannot_hear_the_game(tmp_path, builtin_pack, capsys, ko_model_dir):
    assert doctor(tmp_path, "--model", str(ko_model_dir)) == 1
    out = capsys.readouterr().out
    assert "не услышит nominate" in out and "vosk-model-small-ru" in out


def test_doctor_fails_with_a_pin_conflict(tmp_path, builtin_pack, capsys):
    config = tmp_path / "config.toml"
    config.write_text("[panel.host]\nnext = 4\n", encoding="utf-8")  # GPIO4 is seat 1's button
    assert doctor(tmp_path, "--no-model", "--config", str(config)) == 1
    out = capsys.readouterr().out
    assert "ИСПРАВИТЬ  выводы:" in out and "GPIO4 уже занят" in out
    assert out.rstrip().splitlines()[-2:] == ["нужно исправить (1):", out.rstrip().splitlines()[-1]]


def test_doctor_with_null_audio_and_no_model_passes_saying_what_it_skipped(tmp_path, builtin_pack, capsys):
    guide = (ROOT / "docs" / "guide" / "box.md").read_text("utf-8")
    assert "./run doctor --auto --no-model --audio null" in guide  # the guide's own line, run here
    assert main(["doctor", "--auto", "--no-model", "--audio", "null"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "  пропущено  звук: --audio null (проверить: --audio device)" in lines
    assert "  пропущено  модель речи: --no-model (выдвижения вводит или нажимает ведущий)" in lines
    assert lines[-1] == "всё в порядке (пропущено: модель речи, звук)" and "нужно исправить" not in lines[-2]


def test_doctor_on_the_keyboard_panel_without_a_terminal_says_so_at_once(tmp_path):
    """A pipe that never ends for stdin: no key can come, so the one line comes at once."""
    import subprocess
    import sys

    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "host_device",
            "doctor",
            "--panel",
            "keyboard",
            "--no-model",
            "--audio",
            "null",
        ],
        stdin=subprocess.PIPE,
        capture_output=True,
        text=True,
        timeout=40,  # the keyboard panel waited 60 s for presses that could not come
    )
    assert proc.returncode == 2 and proc.stdout == "", proc
    assert proc.stderr.count("\n") == 1 and "--panel keyboard" in proc.stderr and "терминал" in proc.stderr


def test_doctor_says_vosk_is_installed_but_cannot_load_it(tmp_path, builtin_pack, capsys, monkeypatch):
    from tests.helpers.native import VOSK_LINE, VOSK_ON_ARM64, cannot_load, fake_model

    cannot_load(monkeypatch, tmp_path, "vosk", VOSK_ON_ARM64)
    assert doctor(tmp_path, "--model", str(fake_model(tmp_path))) == 1
    out = capsys.readouterr().out
    assert f"  ИСПРАВИТЬ  vosk: {VOSK_LINE}\n" in out and f"  - vosk: {VOSK_LINE}\n" in out
    assert "не установлены пакеты" not in out and "ок         пакеты" not in out and "Traceback" not in out
    assert "пропущено  модель речи: vosk не может загрузить свою библиотеку (как исправить — выше)" in out
    assert "нужно исправить (1):" in out


@pytest.fixture
def voiced(monkeypatch, tmp_path, builtin_pack, catalogue):
    """A data folder with the built-in pack and the stand-in Piper voice installed, ready, in use."""
    import json
    import shutil

    from tests.helpers.piper import STANDIN, installed_standin

    data = tmp_path / "data"
    shutil.copytree(builtin_pack.directory, data / "voices" / "builtin")
    installed_standin(data, builtin_pack, catalogue)
    (data / "voices" / "in-use.json").write_text(json.dumps({"voice": STANDIN}), "utf-8")
    monkeypatch.setenv("HOST_DEVICE_DATA", str(data))
    return data


def test_doctor_checks_the_voice_in_use(tmp_path, voiced, capsys):
    from tests.helpers.piper import STANDIN

    assert doctor(tmp_path, "--no-model") == 0
    out = capsys.readouterr().out
    assert (
        f"  ок         голос {STANDIN} (Piper) — выбран (host-device voices use или меню коробки); записей "
        in out
    )
    assert "ИСПРАВИТЬ" not in out


def test_doctor_says_a_voice_in_use_that_cannot_speak_and_how_to_fix_it(
    tmp_path, voiced, capsys, monkeypatch
):
    from tests.helpers.piper import STANDIN

    monkeypatch.setenv("HOST_DEVICE_RHVOICE", "")  # no RHVoice: espeak-ng is the one that speaks instead

    (voiced / "voices" / STANDIN / f"{STANDIN}.onnx.json").write_text("{}", "utf-8")  # its settings spoilt
    assert doctor(tmp_path, "--no-model") == 1
    out = capsys.readouterr().out
    assert f"ИСПРАВИТЬ  голос {STANDIN} не звучит" in out
    assert "host-device voices install ФАЙЛ.onnx" in out and "host-device voices use builtin" in out
    assert "  ок         голос builtin (espeak-ng, голос zle/ru" in out  # the checks go on with espeak-ng
    assert "нужно исправить (1):" in out
