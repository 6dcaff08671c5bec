"""Which voice speaks and why (voices/installed.py ``current``): the one chosen; where none is,
RHVoice's aleksandr-hq where RHVoice is found (the tests' copy, HOST_DEVICE_RHVOICE), else
espeak-ng's, saying how to get RHVoice; a voice that cannot speak gives way to the next.
``voices list``, ``use`` and ``build`` with RHVoice's voices, each with its licence."""

import json

import pytest

from host_device.cli.main import EXIT_BAD_INPUT, main
from tests.helpers.rhvoice import use_tests_rhvoice
from voices import rhvoice
from voices.catalogue import Catalogue
from voices.installed import BUILTIN, CHOSEN, current, in_use, use

SMALL = '[phrases]\naccepted = "Принято."\ntimer = "Время пошло."\n'
ALEKSANDR = (
    "rhvoice-aleksandr-hq (RHVoice, мужской; CC-BY-SA-4.0: можно и в платных играх, с указанием авторов "
    "(Артём Плаксин, Сергей Паршаков, Бека Гозалишвили, Александр Карлов))"
)


@pytest.fixture
def small(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    return path


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("HOST_DEVICE_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def no_rhvoice(tmp_path, monkeypatch):
    """A machine whose package sources did not offer RHVoice: none in the system, none named."""
    monkeypatch.delenv(rhvoice.ENV, raising=False)
    monkeypatch.setattr(rhvoice, "SYSTEM", tmp_path / "system")


def small_catalogue():
    return Catalogue({"accepted": "Принято.", "timer": "Время пошло."})


def test_with_rhvoice_and_no_choice_rhvoice_speaks_and_says_why(data, monkeypatch):
    home = use_tests_rhvoice(monkeypatch)
    now = current(small_catalogue())
    assert now.name == "rhvoice-aleksandr-hq" == in_use() and now.pack.source["kind"] == "rhvoice"
    assert now.line() == (
        f"голос {ALEKSANDR} — голос по умолчанию: RHVoice установлен ({rhvoice.ENV}={home.root}, 1.8.0+dfsg-3)"
    )
    assert (data / "voices" / "rhvoice-aleksandr-hq" / "manifest.json").is_file()
    assert not (data / "voices" / "in-use.json").exists()  # a default, not a choice


def test_without_rhvoice_espeak_ng_speaks_and_says_how_to_get_rhvoice(data, no_rhvoice):
    now = current(small_catalogue())
    assert now.name == BUILTIN == in_use() and now.pack.source["kind"] == "espeak-ng"
    assert now.line().startswith(
        "голос builtin (espeak-ng, голос zle/ru, 165 слов в минуту) — голос по умолчанию: "
    )
    assert now.why.endswith(rhvoice.missing({})) and "sudo apt install librhvoice5 rhvoice-russian" in now.why


def test_a_voice_chosen_speaks_and_one_that_cannot_gives_way(data, monkeypatch, tmp_path, caplog):
    use_tests_rhvoice(monkeypatch)
    use("rhvoice-anna")
    now = current(small_catalogue())
    assert (now.name, now.why) == ("rhvoice-anna", CHOSEN) and now.pack.source["voice"] == "anna"
    assert json.loads((data / "voices" / "in-use.json").read_text("utf-8")) == {"voice": "rhvoice-anna"}

    monkeypatch.setenv(rhvoice.ENV, str(tmp_path / "gone"))  # RHVoice removed since
    now = current(small_catalogue())
    assert now.name == BUILTIN and "голос rhvoice-anna не звучит" in caplog.text
    assert now.why.startswith("голос rhvoice-anna не звучит (голоса rhvoice-anna нет: в папке ")
    assert now.why.endswith("; голос по умолчанию: " + rhvoice.missing())


def test_list_shows_every_voice_with_its_licence_and_which_speaks_and_why(data, monkeypatch, small, capsys):
    home = use_tests_rhvoice(monkeypatch)
    assert main(["voices", "list", "--catalogue", str(small)]) == 0
    lines = capsys.readouterr().out.splitlines()
    voices = {line[2:].split()[0]: line for line in lines if line[:2] in ("* ", "  ") and line[2:3] != " "}
    assert [name for name in voices if name.startswith("rhvoice-")] == [f"rhvoice-{v}" for v in home.voices()]
    assert voices["rhvoice-aleksandr-hq"].startswith(
        "* rhvoice-aleksandr-hq     RHVoice (мужской); CC-BY-SA-4.0"
    )
    assert "LGPL-2.1+: можно и в платных играх" in voices["rhvoice-anna"]
    assert "CC-BY-NC-ND-4.0: только некоммерческие игры" in voices["rhvoice-pavel"]
    assert voices["rhvoice-anna"].endswith("набор соберёт: host-device voices use rhvoice-anna")
    assert voices[BUILTIN].startswith(f"  {BUILTIN}                  espeak-ng")
    assert lines[-1].startswith(f"говорит {ALEKSANDR} — голос по умолчанию: RHVoice установлен")


def test_list_without_rhvoice_says_how_to_get_it(data, no_rhvoice, small, capsys):
    assert main(["voices", "list", "--catalogue", str(small)]) == 0
    out = capsys.readouterr().out
    assert (
        not [line for line in out.splitlines() if line[2:].startswith("rhvoice-")] and f"* {BUILTIN}" in out
    )
    assert out.splitlines()[-1].endswith(rhvoice.missing({}))


def test_use_and_build_an_rhvoice_voice(data, monkeypatch, small, tmp_path, capsys):
    use_tests_rhvoice(monkeypatch)
    assert main(["voices", "use", "rhvoice-elena", "--catalogue", str(small)]) == 0
    out = capsys.readouterr().out
    assert "говорит rhvoice-elena (RHVoice, женский; LGPL-2.1+: можно и в платных играх); набор: " in out
    assert in_use() == "rhvoice-elena"
    pack = tmp_path / "pack"
    assert (
        main(["voices", "build", "--voice", "rhvoice:irina", "--to", str(pack), "--catalogue", str(small)])
        == 0
    )
    manifest = json.loads((pack / "manifest.json").read_text("utf-8"))
    assert manifest["source"]["kind"] == "rhvoice" and manifest["source"]["voice"] == "irina"
    assert set(manifest["clips"]) == {"accepted#0", "timer#0"}
    assert main(["voices", "use", "rhvoice-nobody", "--catalogue", str(small)]) == EXIT_BAD_INPUT
    assert "голоса rhvoice-nobody нет в RHVoice" in capsys.readouterr().err and in_use() == "rhvoice-elena"


def test_an_rhvoice_voice_without_rhvoice_is_refused_saying_how_to_get_it(data, no_rhvoice, small, capsys):
    assert main(["voices", "use", "rhvoice-anna", "--catalogue", str(small)]) == EXIT_BAD_INPUT
    assert (
        "голоса rhvoice-anna нет: RHVoice не установлен; чтобы говорил он: sudo apt"
        in capsys.readouterr().err
    )
    assert main(["voices", "build", "--voice", "rhvoice:anna", "--catalogue", str(small)]) == EXIT_BAD_INPUT
    assert "rhvoice:anna: RHVoice не установлен" in capsys.readouterr().err
