"""``doctor --auto`` on mock pins: passing, and failing with a missing model,
a model that cannot hear Russian, and a pin conflict."""

from host_device.cli.main import main
from tests.helpers.sound import MIC_WAV


def doctor(tmp_path, *extra):
    store = str(tmp_path / "g.sqlite3")
    return main(["doctor", "--auto", "--audio", "file", "--wav", str(MIC_WAV), "--store", store, *extra])


def test_doctor_passes_when_everything_is_there(tmp_path, builtin_pack, capsys):
    assert doctor(tmp_path, "--no-model") == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("всё в порядке") and "FIX" not in out
    assert "buttons: 13 of 13 seen" in out and "microphone:" in out and "test tone played" in out


def test_doctor_fails_without_a_speech_model(tmp_path, builtin_pack, capsys, monkeypatch):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    assert doctor(tmp_path) == 1
    out = capsys.readouterr().out
    assert "нужно исправить (1):" in out and "всё в порядке" not in out
    assert "  - speech model: no speech model at" in out and "model install" in out


def test_doctor_fails_with_a_model_that_cannot_hear_the_game(tmp_path, builtin_pack, capsys, ko_model_dir):
    assert doctor(tmp_path, "--model", str(ko_model_dir)) == 1
    out = capsys.readouterr().out
    assert "cannot hear nominate" in out and "vosk-model-small-ru" in out


def test_doctor_fails_with_a_pin_conflict(tmp_path, builtin_pack, capsys):
    config = tmp_path / "config.toml"
    config.write_text("[panel.host]\nnext = 4\n", encoding="utf-8")  # GPIO4 is seat 1's button
    assert doctor(tmp_path, "--no-model", "--config", str(config)) == 1
    out = capsys.readouterr().out
    assert "FIX  pin map:" in out and "GPIO4 is already used by" in out
    assert out.rstrip().splitlines()[-2:] == ["нужно исправить (1):", out.rstrip().splitlines()[-1]]


def test_doctor_says_sound_was_not_checked_with_null_audio(tmp_path, builtin_pack, capsys):
    assert main(["doctor", "--auto", "--audio", "null", "--no-model"]) == 1
    assert "sound: not checked (--audio null)" in capsys.readouterr().out


def test_doctor_says_vosk_is_installed_but_cannot_load_it(tmp_path, builtin_pack, capsys, monkeypatch):
    from tests.helpers.native import VOSK_LINE, VOSK_ON_ARM64, cannot_load, fake_model

    cannot_load(monkeypatch, tmp_path, "vosk", VOSK_ON_ARM64)
    assert doctor(tmp_path, "--model", str(fake_model(tmp_path))) == 1
    out = capsys.readouterr().out
    assert f"  FIX  vosk: {VOSK_LINE}\n" in out and f"  - vosk: {VOSK_LINE}\n" in out
    assert "packages missing" not in out and "ok   packages" not in out and "Traceback" not in out
    assert "speech model: not checked (vosk cannot load its library: the fix is above)" in out
    assert "нужно исправить (1):" in out
