"""``doctor`` says which voice speaks and why: RHVoice's aleksandr-hq where RHVoice is found (the
tests' copy of Debian's, HOST_DEVICE_RHVOICE), with its licence; espeak-ng where it is not, with
how to get RHVoice; a chosen RHVoice voice that cannot speak is a fix, and the checks go on."""

import json
import shutil

import pytest

from tests.helpers.rhvoice import install_shared_pack, shared_pack, use_tests_rhvoice
from tests.host_device.appliance.test_doctor import doctor
from voices import rhvoice


@pytest.fixture
def data(tmp_path, monkeypatch, builtin_pack):
    data = tmp_path / "data"
    shutil.copytree(builtin_pack.directory, data / "voices" / "builtin")  # espeak-ng's, rendered once a run
    monkeypatch.setenv("HOST_DEVICE_DATA", str(data))
    return data


@pytest.mark.slow
def test_doctor_says_rhvoice_speaks_with_its_licence_and_why(
    tmp_path, tmp_path_factory, data, catalogue, monkeypatch, capsys
):
    home = use_tests_rhvoice(monkeypatch)
    install_shared_pack(shared_pack(tmp_path_factory, catalogue), data)
    assert doctor(tmp_path, "--no-model") == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "голос" in line and line.startswith("  ок"))
    assert line.startswith(
        "  ок         голос rhvoice-aleksandr-hq (RHVoice, мужской; CC-BY-SA-4.0: можно и в платных играх, "
        "с указанием авторов (Артём Плаксин, Сергей Паршаков, Бека Гозалишвили, Александр Карлов)) — "
        f"голос по умолчанию: RHVoice установлен ({rhvoice.ENV}={home.root}, 1.8.0+dfsg-3); записей "
    )
    assert "ИСПРАВИТЬ" not in out


def test_doctor_without_rhvoice_says_espeak_ng_speaks_and_how_to_get_rhvoice(
    tmp_path, data, monkeypatch, capsys
):
    monkeypatch.delenv(rhvoice.ENV, raising=False)
    monkeypatch.setattr(rhvoice, "SYSTEM", tmp_path / "no-system")
    assert doctor(tmp_path, "--no-model") == 0
    out = capsys.readouterr().out
    assert (
        "  ок         голос builtin (espeak-ng, голос zle/ru, 165 слов в минуту) — голос по умолчанию: "
        f"{rhvoice.missing({})}; записей "
    ) in out


def test_a_chosen_rhvoice_voice_that_cannot_speak_is_a_fix(tmp_path, data, monkeypatch, capsys):
    monkeypatch.setenv(rhvoice.ENV, str(tmp_path / "rhvoice-removed"))
    (data / "voices" / "in-use.json").write_text(json.dumps({"voice": "rhvoice-anna"}), "utf-8")
    assert doctor(tmp_path, "--no-model") == 1
    out = capsys.readouterr().out
    assert "ИСПРАВИТЬ  голос rhvoice-anna не звучит (голоса rhvoice-anna нет: в папке " in out
    assert f"RHVoice: sudo apt install --reinstall {rhvoice.PACKAGES}" in out
    assert "или выберите другой: host-device voices use builtin" in out
    assert "  ок         голос builtin (espeak-ng" in out  # the checks go on with espeak-ng
