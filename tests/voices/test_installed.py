"""``voices install|list|use`` with a real Piper voice file (the stand-in,
tests/helpers/piper.py): from a file, from a pinned address checked by its
sha256 (a server on this machine), refused in one line when it is not a voice."""

import functools
import http.server
import json
import os
import shutil
import threading

import pytest

from host_device.base.download import Pin, sha256_of
from host_device.cli.main import EXIT_BAD_INPUT, main
from tests.helpers.piper import STANDIN, english_voice, standin_voice
from voices.installed import BUILTIN, VoicePin, in_use, installed, voices_dir

ONE = '[phrases]\naccepted = "Принято."\ntimer = "Время пошло."\n'


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    path = tmp_path_factory.mktemp("catalogue") / "small.toml"
    path.write_text(ONE, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def usb(tmp_path_factory):
    """The stand-in voice as a club would bring it: NAME.onnx and NAME.onnx.json in a folder."""
    return standin_voice(tmp_path_factory.mktemp("usb"))


@pytest.fixture(scope="module")
def installed_box(tmp_path_factory, usb, small):
    """A data folder in which ``voices install FILE`` has installed the stand-in voice."""
    data = tmp_path_factory.mktemp("data")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOST_DEVICE_DATA", str(data))
        assert main(["voices", "install", str(usb), "--catalogue", str(small)]) == 0
    return data


@pytest.fixture
def box(installed_box, monkeypatch, tmp_path):
    """This test's own copy of the data folder (a copy of the voice's files: they are not changed)."""
    data = tmp_path / "data"
    shutil.copytree(installed_box, data, symlinks=True)
    monkeypatch.setenv("HOST_DEVICE_DATA", str(data))
    return data


def one_error(capsys):
    """The one error line (after what it was doing: «копирую ФАЙЛ»), no traceback."""
    err = capsys.readouterr().err.strip().splitlines()
    errors = [line for line in err if "ошибка" in line]
    assert len(errors) == 1 and err[-1].startswith("host-device: ошибка: ") and "Traceback" not in err, err
    return err[-1]


def test_install_from_a_file_copies_it_checks_it_and_makes_it_speak(box, usb, small, capsys):
    folder = voices_dir() / STANDIN
    assert (folder / f"{STANDIN}.onnx").is_file() and not (folder / f"{STANDIN}.onnx").is_symlink()
    assert sha256_of(folder / f"{STANDIN}.onnx") == sha256_of(usb)
    record = json.loads((folder / "installed.json").read_text("utf-8"))
    assert record == {"sha256": sha256_of(usb), "from": str(usb)}
    assert [v.name for v in installed()] == [STANDIN] and in_use() == STANDIN
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))  # its pack, beside it
    assert set(manifest["clips"]) == {"accepted#0", "timer#0"} and manifest["source"]["kind"] == "piper"


def test_list_shows_the_installed_voices_and_the_one_in_use(box, small, capsys):
    assert main(["voices", "list", "--catalogue", str(small)]) == 0
    lines = capsys.readouterr().out.splitlines()
    ours = [line for line in lines if line[2:].startswith(STANDIN)]
    assert len(ours) == 1 and ours[0].startswith(f"* {STANDIN}") and "набор готов" in ours[0]
    assert "Piper, ru_RU, medium, 22050 Гц" in ours[0]
    assert next(line for line in lines if BUILTIN in line).startswith(f"  {BUILTIN}")
    # the Russian voices it can install by name, with their licences
    assert any(line.strip().startswith("ru_RU-dmitri-medium") and "CC0" in line for line in lines)
    assert main(["voices", "use", BUILTIN, "--catalogue", str(small)]) == 0
    assert in_use() == BUILTIN
    capsys.readouterr()
    main(["voices", "list", "--catalogue", str(small)])
    lines = capsys.readouterr().out.splitlines()
    assert next(line for line in lines if BUILTIN in line).startswith(f"* {BUILTIN}")
    assert next(line for line in lines if STANDIN in line).startswith(f"  {STANDIN}")


def test_use_of_a_voice_not_installed_is_one_line(box, small, capsys):
    assert main(["voices", "use", "ru_RU-irina-medium", "--catalogue", str(small)]) == EXIT_BAD_INPUT
    assert "голос 'ru_RU-irina-medium' не установлен; есть: builtin, ru_RU-standin-medium" in one_error(
        capsys
    )
    assert in_use() == STANDIN


def test_an_english_voice_is_refused_unless_forced(box, capsys):
    assert main(["voices", "install", str(english_voice())]) == EXIT_BAD_INPUT
    line = one_error(capsys)
    assert "голос en_US-joe-medium не русский (en_US), а фразы русские" in line and "--force" in line
    assert [v.name for v in installed()] == [STANDIN]  # nothing installed, nothing changed


@pytest.mark.parametrize("kind", ["not-a-network", "no-settings", "no-file"])
def test_a_bad_file_is_refused_in_one_line_and_nothing_changes(box, tmp_path, capsys, kind):
    model = tmp_path / "ru_RU-bad-medium.onnx"
    if kind != "no-file":
        standin_voice(tmp_path, "ru_RU-bad-medium").unlink()
        model.write_bytes(b"not a network" * 1000)
    if kind == "no-settings":
        (tmp_path / "ru_RU-bad-medium.onnx.json").unlink()
    assert main(["voices", "install", str(model)]) == EXIT_BAD_INPUT
    line = one_error(capsys)
    assert {
        "not-a-network": f"{model}: голос Piper не загрузился",
        "no-settings": "нет ru_RU-bad-medium.onnx.json рядом с ним",
        "no-file": "нет такого файла, папки или голоса; русские голоса: ru_RU-dmitri-medium",
    }[kind] in line
    assert [v.name for v in installed()] == [STANDIN] and in_use() == STANDIN
    assert not (voices_dir() / "ru_RU-bad-medium").exists()
    assert [p.name for p in voices_dir().iterdir() if p.name.startswith(".")] == []  # no staging left


@pytest.fixture
def server(usb):
    """The voice's folder served on this machine, as a pinned address would serve it."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(usb.parent))
    handler.log_message = lambda *a: None  # type: ignore[attr-defined]
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def pinned(monkeypatch, url, sha256):
    pins = {STANDIN: VoicePin(Pin(STANDIN, url, sha256, 0), "CC0 (проверка)")}
    monkeypatch.setattr("voices.installed.pins", lambda: pins)
    monkeypatch.setattr("voices.piper_install.pins", lambda: pins)
    monkeypatch.setattr("host_device.cli.voice_install.pins", lambda: pins)


@pytest.mark.slow
def test_install_by_name_downloads_the_pinned_file_and_checks_its_sha256(
    monkeypatch, tmp_path, server, usb, small, capsys
):
    monkeypatch.setenv("HOST_DEVICE_DATA", str(tmp_path / "data"))
    pinned(monkeypatch, f"{server}/{usb.name}", "0" * 64)
    assert main(["voices", "install", STANDIN, "--catalogue", str(small)]) == EXIT_BAD_INPUT
    line = one_error(capsys)
    assert f"sha256 {sha256_of(usb)}, ожидался {'0' * 64}" in line and "ничего не установлено" in line
    assert installed() == [] and in_use() == BUILTIN
    assert [p for p in voices_dir().iterdir()] == []  # the download is not left behind

    pinned(monkeypatch, f"{server}/{usb.name}", sha256_of(usb))
    assert main(["voices", "install", STANDIN, "--catalogue", str(small)]) == 0
    assert [v.name for v in installed()] == [STANDIN] and in_use() == STANDIN
    assert installed()[0].sha256 == sha256_of(usb)


def test_without_a_network_install_by_name_says_how_to_install_from_a_file(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("HOST_DEVICE_DATA", str(tmp_path / "data"))
    pinned(monkeypatch, "http://127.0.0.1:9/ru_RU-standin-medium.onnx", "0" * 64)  # nothing listens
    assert main(["voices", "install", STANDIN]) == EXIT_BAD_INPUT
    line = one_error(capsys)
    assert "не удалось скачать" in line and "host-device voices install /media/usb/ИМЯ.onnx" in line
    assert not os.listdir(voices_dir())


def test_an_address_installs_only_with_its_sha256(monkeypatch, tmp_path, server, usb, capsys):
    monkeypatch.setenv("HOST_DEVICE_DATA", str(tmp_path / "data"))
    url = f"{server}/{usb.name}"
    assert main(["voices", "install", url]) == EXIT_BAD_INPUT
    assert "голос по адресу ставится только с его sha256 (--sha256 HEX)" in one_error(capsys)
    assert main(["voices", "install", url, "--sha256", "ab" * 32]) == EXIT_BAD_INPUT
    assert f"sha256 {sha256_of(usb)}, ожидался {'ab' * 32}" in one_error(capsys)
    assert main(["voices", "install", str(usb), "--sha256", "ab" * 32]) == EXIT_BAD_INPUT  # a file too
    assert f"ожидалась {'ab' * 32}; не установлен" in one_error(capsys)
    assert main(["voices", "install", url, "--sha256", "xyz"]) == EXIT_BAD_INPUT
    assert "--sha256 xyz: нужны 64 шестнадцатеричные цифры" in capsys.readouterr().err
    assert installed() == [] and in_use() == BUILTIN


def test_nothing_downloads_at_run_time(monkeypatch, tmp_path, builtin_pack, catalogue, caplog):
    """A voice in use that is not installed (a pinned name, say) is not fetched when the box
    starts: the default voice speaks (espeak-ng's, with no RHVoice), with one warning."""
    from voices.installed import current

    data = tmp_path / "data"
    shutil.copytree(builtin_pack.directory, data / "voices" / BUILTIN)
    (data / "voices" / "in-use.json").write_text(json.dumps({"voice": "ru_RU-dmitri-medium"}), "utf-8")
    monkeypatch.setenv("HOST_DEVICE_DATA", str(data))
    monkeypatch.setenv("HOST_DEVICE_RHVOICE", "")
    fetched = []
    monkeypatch.setattr("urllib.request.urlopen", lambda *a, **k: fetched.append(a) or 1 / 0)
    now = current(catalogue)
    assert now.name == BUILTIN and now.pack.source["kind"] == "espeak-ng" and fetched == []
    assert "голос ru_RU-dmitri-medium не звучит" in caplog.text and "говорит другой" in caplog.text
    assert now.why.startswith(
        "голос ru_RU-dmitri-medium не звучит (голос 'ru_RU-dmitri-medium' не установлен"
    )
    assert now.why.endswith("голос по умолчанию: RHVoice выключен (HOST_DEVICE_RHVOICE пуста)")
