"""RHVoice (voices/rhvoice.py) with the tests' own copy of Debian bookworm's packages
(tests/helpers/rhvoice.py): where it is found, the voices' licences as Debian's copyright file
gives them, a phrase rendered through its C library, and the whole catalogue as a pack."""

import fnmatch
import json
import shutil

import numpy as np
import pytest

from host_device.base.sound import read_wav
from tests.helpers.rhvoice import rhvoice_for_tests, rhvoice_root
from voices import rhvoice
from voices.audio import TARGET_LUFS, loudness
from voices.pack import inspect_pack
from voices.rhvoice import ENV, RHVoiceSynthesiser, build_rhvoice, find, licences, missing

RUSSIAN = {
    "aleksandr",
    "aleksandr-hq",
    "anna",
    "arina",
    "artemiy",
    "elena",
    "evgeniy-rus",
    "irina",
    "mikhail",
    "pavel",
    "tatiana",
    "victoria",
    "vitaliy",
    "yuriy",
}


def test_the_tests_rhvoice_is_debian_bookworms_with_its_fourteen_russian_voices():
    home = rhvoice_for_tests()
    assert home.root == rhvoice_root() and not home.system and home.where == f"{ENV}={home.root}"
    assert home.version == "1.8.0+dfsg-3"
    assert set(home.voices()) == RUSSIAN and home.library.name == "libRHVoice.so.5"
    assert home.gender("aleksandr-hq") == "мужской" and home.gender("anna") == "женский"
    assert sorted(p.name for p in (home.data / "voices").iterdir()) == sorted(RUSSIAN)  # nothing but Russian


def copyright_licences(text):
    """Each voice's licence as a Debian copyright file (DEP-5) gives it: the last stanza whose
    Files patterns match the voice's folder."""
    stanzas = [s for s in text.split("\n\n") if s.lstrip().startswith(("Files:", "#"))]
    rules = []
    for stanza in stanzas:
        fields, key = {}, None
        for line in stanza.splitlines():
            if line.startswith("#"):
                continue
            if line[:1] in " \t" and key:
                fields[key] += " " + line.strip()
            elif ":" in line:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        if "Files" in fields and "License" in fields:
            rules.append((fields["Files"].split(), fields["License"].split()[0]))
    found = {}
    for voice in RUSSIAN:
        for patterns, licence in rules:
            if any(fnmatch.fnmatch(f"data/voices/{voice}/voice.info", p) for p in patterns):
                found[voice] = licence
    return found


def test_each_voices_licence_is_the_one_debians_copyright_file_gives():
    home = rhvoice_for_tests()
    given = copyright_licences((home.root / rhvoice.COPYRIGHT).read_text("utf-8"))
    ours = licences()
    assert {voice: ours[voice].name for voice in RUSSIAN} == given
    assert given["aleksandr-hq"] == "CC-BY-SA-4.0" and given["anna"] == "LGPL-2.1+"
    assert {v for v, licence in given.items() if licence == "CC-BY-NC-ND-4.0"} == {
        v for v in RUSSIAN if not ours[v].commercial
    }
    assert len([v for v in RUSSIAN if not ours[v].commercial]) == 9
    assert home.licence("aleksandr-hq").startswith(
        "CC-BY-SA-4.0: можно и в платных играх, с указанием авторов"
    )
    assert home.licence("pavel") == "CC-BY-NC-ND-4.0: только некоммерческие игры"
    assert home.licence("someone") == f"лицензия — в {home.root / rhvoice.COPYRIGHT}"


def test_nothing_is_found_where_rhvoice_is_not(tmp_path):
    assert find({ENV: str(tmp_path)}) is None  # what a machine whose sources do not offer it has
    assert "нет RHVoice с русским голосом; её наполняет ./run rhvoice-debs" in missing({ENV: str(tmp_path)})
    assert find({ENV: ""}) is None and missing({ENV: ""}) == "RHVoice выключен (HOST_DEVICE_RHVOICE пуста)"
    said = missing({})
    assert said.startswith(
        "RHVoice не установлен; чтобы говорил он: sudo apt install librhvoice5 rhvoice-russian"
    )
    assert "в Raspberry Pi OS он включён" in said and "«Components:»" in said
    library_only = tmp_path / "lib"
    shutil.copytree(rhvoice_root() / "usr" / "lib", library_only / "usr" / "lib")
    assert find({ENV: str(library_only)}) is None  # a library without a Russian voice is no voice


def test_a_phrase_is_rendered_the_same_every_time_and_reads_the_stress_mark():
    synth = RHVoiceSynthesiser("aleksandr-hq", rhvoice_for_tests())
    try:
        samples, rate = synth.render("Игрок номер семь, ваша минута.")
        again, _ = synth.render("Игрок номер семь, ваша минута.")
        assert rate == 24000 and 1.5 < len(samples) / rate < 4 and np.array_equal(samples, again)
        assert np.abs(samples.astype(np.int32)).max() > 3000  # speech, not silence
        # «+» is RHVoice's stress mark (our RHVoice.conf): its own «пошло́» marked sounds as unmarked
        assert np.array_equal(synth.render("Время пошл+о.")[0], synth.render("Время пошло.")[0])
    finally:
        synth.close()
    with pytest.raises(rhvoice.VoiceError, match="голоса RHVoice 'nobody' нет"):
        RHVoiceSynthesiser("nobody", rhvoice_for_tests())


@pytest.fixture(scope="module")
def rhvoice_pack(tmp_path_factory, catalogue):
    directory = tmp_path_factory.mktemp("rhvoice") / "pack"
    report = build_rhvoice(directory, catalogue, "aleksandr-hq", rhvoice_for_tests())
    return directory, report


@pytest.mark.slow
def test_the_whole_catalogue_becomes_a_complete_pack_every_clip_within_bounds(
    rhvoice_pack, catalogue, builtin_pack
):
    directory, report = rhvoice_pack
    assert len(report.rendered) == len(catalogue.clips()) > 300
    checked, pack = inspect_pack(directory, catalogue)
    assert checked.complete and not checked.changed and not checked.extra
    assert pack.source["kind"] == "rhvoice" and pack.voice == "RHVoice (голос aleksandr-hq, 1.8.0+dfsg-3)"
    assert pack.sample_rate == 22050 == builtin_pack.sample_rate  # one rate for every voice of a box
    manifest = json.loads((directory / "manifest.json").read_text("utf-8"))
    assert {k: e["said"] for k, e in manifest["clips"].items() if "said" in e} == catalogue.spoken
    out = []
    for key, text in catalogue.clips().items():
        seconds = len(pack.clips[key]) / pack.sample_rate
        espeak = len(builtin_pack.clips[key]) / builtin_pack.sample_rate
        letters = sum(ch.isalpha() for ch in text)
        if not (0.04 * letters < seconds < 0.25 * letters + 0.1 and 0.5 < seconds / espeak < 4):
            out.append(f"{key} {text!r}: {seconds:.2f} s (espeak-ng {espeak:.2f} s)")
        if letters >= 4 and abs(loudness(pack.clips[key], pack.sample_rate) - TARGET_LUFS) > 1.5:
            out.append(f"{key}: {loudness(pack.clips[key], pack.sample_rate):.1f} LUFS")
    assert out == []
    samples, rate = read_wav(directory / manifest["clips"]["speech#0"]["file"])
    assert rate == 22050 and len(samples) == len(pack.clips["speech#0"])


@pytest.mark.slow
def test_a_pack_up_to_date_renders_nothing(rhvoice_pack, catalogue):
    directory, _ = rhvoice_pack
    again = build_rhvoice(directory, catalogue, "aleksandr-hq", rhvoice_for_tests())
    assert again.rendered == [] and len(again.kept) == len(catalogue.clips())
