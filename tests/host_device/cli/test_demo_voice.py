"""``demo`` says first which voice speaks and why: RHVoice where it is found (the tests' copy of
Debian's), espeak-ng and how to get RHVoice where it is not."""

import shutil

import pytest

from host_device.cli.main import main
from tests.helpers.rhvoice import install_shared_pack, shared_pack, use_tests_rhvoice
from voices import rhvoice


@pytest.fixture
def data(tmp_path, monkeypatch, builtin_pack):
    shutil.copytree(
        builtin_pack.directory, tmp_path / "data" / "voices" / "builtin"
    )  # espeak-ng's, once a run
    monkeypatch.setenv("HOST_DEVICE_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def first_line(capsys):
    assert main(["demo", "--speed", "100000", "--audio", "null"]) == 0
    out = capsys.readouterr().out
    assert "Итог: победа мирных жителей, дней: 3" in out
    return out.splitlines()[0]


@pytest.mark.slow
def test_the_demo_says_first_that_rhvoice_speaks_and_why(
    data, tmp_path_factory, catalogue, monkeypatch, capsys
):
    home = use_tests_rhvoice(monkeypatch)
    install_shared_pack(shared_pack(tmp_path_factory, catalogue), data)
    assert first_line(capsys) == (
        "Голос rhvoice-aleksandr-hq (RHVoice, мужской; CC-BY-SA-4.0: можно и в платных играх, с указанием "
        "авторов (Артём Плаксин, Сергей Паршаков, Бека Гозалишвили, Александр Карлов)) — голос по умолчанию: "
        f"RHVoice установлен ({rhvoice.ENV}={home.root}, 1.8.0+dfsg-3)"
    )


def test_without_rhvoice_the_demo_says_espeak_ng_speaks_and_how_to_get_rhvoice(
    data, tmp_path, monkeypatch, capsys
):
    monkeypatch.delenv(rhvoice.ENV, raising=False)
    monkeypatch.setattr(rhvoice, "SYSTEM", tmp_path / "no-system")
    assert first_line(capsys) == (
        f"Голос builtin (espeak-ng, голос zle/ru, 165 слов в минуту) — голос по умолчанию: {rhvoice.missing({})}"
    )
