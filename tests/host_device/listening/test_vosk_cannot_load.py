"""vosk installed but its libvosk.so cannot load (arm64 without libatomic1):
``listen``, ``model check`` and ``run`` end in one line naming the library,
the missing dependency and the apt-get fix (exit 2), never a traceback."""

import os
import subprocess
import sys

from host_device.cli.main import main
from tests.helpers.native import VOSK_LINE, VOSK_ON_ARM64, cannot_load, fake_model, stand_in
from tests.helpers.paths import ROOT
from tests.helpers.sound import MIC_WAV


def one_error_line(capsys):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err.strip()


def test_listen_says_which_library_and_package(tmp_path, monkeypatch, capsys):
    cannot_load(monkeypatch, tmp_path, "vosk", VOSK_ON_ARM64)
    assert main(["listen", "--wav", str(MIC_WAV), "--model", str(fake_model(tmp_path))]) == 2
    assert one_error_line(capsys) == f"host-device: ошибка: {VOSK_LINE}"


def test_model_check_says_which_library_and_package(tmp_path, monkeypatch, capsys):
    cannot_load(monkeypatch, tmp_path, "vosk", VOSK_ON_ARM64)
    assert main(["model", "check", "--model", str(fake_model(tmp_path))]) == 2
    assert one_error_line(capsys) == f"host-device: ошибка: {VOSK_LINE}"


def test_a_missing_model_is_still_named_first(tmp_path, monkeypatch, capsys):
    cannot_load(monkeypatch, tmp_path, "vosk", VOSK_ON_ARM64)
    assert main(["model", "check", "--model", str(tmp_path / "none")]) == 2
    assert "нет модели речи в" in one_error_line(capsys)


def test_run_says_which_library_and_package(tmp_path, monkeypatch, capsys, builtin_pack):
    cannot_load(monkeypatch, tmp_path, "vosk", VOSK_ON_ARM64)
    store = str(tmp_path / "g.sqlite3")
    args = ["run", "--panel", "mock", "--audio", "null", "--days", "1", "--new", "--store", store]
    assert main([*args, "--model", str(fake_model(tmp_path))]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == f"host-device: ошибка: {VOSK_LINE}"


def test_the_real_command_ends_in_the_line_not_a_traceback(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(stand_in(tmp_path, "vosk", VOSK_ON_ARM64))}
    model = str(fake_model(tmp_path))
    done = subprocess.run(
        [sys.executable, "-m", "host_device", "listen", "--wav", str(MIC_WAV), "--model", model],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == f"host-device: ошибка: {VOSK_LINE}\n"
