"""``model test`` and ``model record`` on the stand-in (Korean) model, with
WAVs made by espeak-ng and patterns in the stand-in's language, as the other
listening tests do; and the vocabulary check's impossible intents."""

import io
import json
import subprocess
import sys

import pytest

from host_device.cli.main import main
from host_device.listening.intents import russian_patterns
from host_device.listening.model_test import ModelTestError, phrases_for, read_expected
from tests.helpers.sound import MIC_WAV


def espeak(path, text):
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(path), text], check=True)
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory, speech_model):
    """Two recordings: one whose first heard word is this test's "nomination", one without it."""
    from hardware.microphone import to_rate
    from host_device.base.sound import read_wav

    root = tmp_path_factory.mktemp("room")
    espeak(root / "01.wav", "안녕하세요 여러분")
    espeak(root / "02.wav", "감사합니다")
    samples, rate = read_wav(root / "01.wav")
    rec = speech_model.recogniser()
    rec.AcceptWaveform(to_rate(samples, rate))
    first = json.loads(rec.FinalResult())["text"].split()[0]
    (root / "patterns.toml").write_text(
        f'[nominate]\npatterns = ["{first}"]\n[withdraw]\npatterns = ["없는말 {{seat}}"]\n[end]\nwords = ["끝"]\n',
        encoding="utf-8",
    )
    (root / "expected.tsv").write_text("01.wav\tnominate\n02.wav\t\n", encoding="utf-8")
    return root


@pytest.mark.slow
def test_model_test_counts_right_wrong_and_missed(folder, ko_model_dir, capsys):
    args = [
        "model",
        "test",
        str(folder),
        "--model",
        str(ko_model_dir),
        "--patterns",
        str(folder / "patterns.toml"),
    ]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["files"], report["right"], report["wrong"], report["missed"]) == (2, 1, 0, 0)
    assert report["real_time_factor"] > 0  # how fast is the benchmarks' to say, not a test's
    detail = {f["file"]: f for f in report["files_detail"]}
    assert detail["01.wav"]["heard"] == [{"intent": "nominate"}] and detail["02.wav"]["heard"] == []
    assert main(args) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:4] == ["файл", "верно", "лишн.", "пропущ."]
    assert table[1].startswith("01.wav") and table[-1].startswith("файлов 2: верно 1, лишних 0, пропущено 0")


@pytest.mark.slow
def test_model_test_reports_what_was_not_said_and_what_was_missed(folder, ko_model_dir, tmp_path, capsys):
    for name in ("01.wav", "02.wav", "patterns.toml"):
        (tmp_path / name).write_bytes((folder / name).read_bytes())
    (tmp_path / "expected.tsv").write_text("01.wav\t\n02.wav\tnominate; end\n", encoding="utf-8")
    args = [
        "model",
        "test",
        str(tmp_path),
        "--model",
        str(ko_model_dir),
        "--patterns",
        str(tmp_path / "patterns.toml"),
    ]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["right"], report["wrong"], report["missed"]) == (0, 1, 2)


@pytest.mark.parametrize(
    ("tsv", "words"),
    [
        (None, "expected.tsv: нет такого файла; его запишет `host-device model record"),
        ("notes.txt\tnominate 3\n", "сначала имя WAV-файла из этой папки"),
        ("01.wav\tnominate three\n", "намерения — 'nominate N', 'withdraw N' или 'end'"),
        ("01.wav\tshout 3\n", "намерения — 'nominate N'"),
        ("# nothing\n", "не указано ни одного файла"),
        pytest.param("09.wav\tend\n", "09.wav", marks=pytest.mark.slow),  # the model is loaded first
    ],
)
def test_a_bad_test_folder_is_one_line(tmp_path, ko_model_dir, capsys, tsv, words):
    if tsv is not None:
        (tmp_path / "expected.tsv").write_text(tsv, encoding="utf-8")
    assert main(["model", "test", str(tmp_path), "--model", str(ko_model_dir)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err


def test_read_expected_reads_intents_in_order(tmp_path):
    (tmp_path / "expected.tsv").write_text(
        "# a club's room\n01.wav\tnominate 7; withdraw 7; end  # said twice\n02.wav\t\n", encoding="utf-8"
    )
    assert read_expected(tmp_path) == [
        ("01.wav", [{"intent": "nominate", "seat": 7}, {"intent": "withdraw", "seat": 7}, {"intent": "end"}]),
        ("02.wav", []),
    ]
    with pytest.raises(ModelTestError):
        read_expected(tmp_path / "none")


def test_the_test_phrases_cover_every_seat_withdrawals_ends_and_silence():
    phrases = phrases_for(12)
    expected = [e for _, e in phrases]
    assert [f"nominate {n}" for n in range(1, 13)] == expected[:12]
    assert "withdraw 3" in expected and "end" in expected and expected.count("") >= 3
    for text, want in phrases:  # what the patterns make of the phrase as written is what is expected
        heard = [
            i.to_dict()
            for i in russian_patterns().parse(text.lower().replace(".", " ").replace(",", " "), 12)
        ]
        parts = [p for p in want.split("; ") if p]
        assert [i["intent"] + (f" {i['seat']}" if "seat" in i else "") for i in heard] == parts, text


def test_model_record_prompts_through_the_phrases_and_writes_the_folder(tmp_path, monkeypatch, capsys):
    answers = io.StringIO("\n\n" * 3 + "q\n")
    monkeypatch.setattr(sys, "stdin", answers)
    room = tmp_path / "room"
    assert (
        main(["model", "record", str(room), "--seats", "10", "--audio", "file", "--wav", str(MIC_WAV)]) == 0
    )
    out = capsys.readouterr().out
    assert "[1/" in out and "«Я выставляю игрока номер один.»" in out and "записано: 3" in out
    assert sorted(p.name for p in room.glob("*.wav")) == ["01.wav", "02.wav", "03.wav"]
    assert [name for name, _ in read_expected(room)] == ["01.wav", "02.wav", "03.wav"]
    assert read_expected(room)[2][1] == [{"intent": "nominate", "seat": 3}]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n\nq\n"))  # a second run records only what is missing
    assert (
        main(["model", "record", str(room), "--seats", "10", "--audio", "file", "--wav", str(MIC_WAV)]) == 0
    )
    assert "[4/" in capsys.readouterr().out and len(read_expected(room)) == 4


def test_the_vocabulary_check_names_the_intents_that_cannot_be_heard():
    every_word_but = {"семь", "пас"}
    lines = russian_patterns().unreachable(lambda w: w not in every_word_but, 12)
    assert "nominate: никогда для мест 7 (слова их номеров модели неизвестны)" in lines
    assert "конец речи словом «пас»: никогда (слово модели неизвестно)" in lines
    assert not any(line.startswith("forbidden") for line in lines)
    nothing = russian_patterns().unreachable(lambda w: False, 12)
    assert "nominate: никогда (в каждом образце есть слово, которого модель не знает)" in nothing
    assert russian_patterns().unreachable(lambda w: True, 12) == []


@pytest.mark.slow
def test_model_check_lists_the_intents_the_stand_in_cannot_hear(ko_model_dir, capsys):
    assert main(["model", "check", "--model", str(ko_model_dir)]) == 1
    out = capsys.readouterr().out
    assert "не услышит (" in out and "nominate: никогда" in out
