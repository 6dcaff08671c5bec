"""Named bad inputs of the commands that are not scripts, configs or the
store (those have their own files): each is one line and exit 2, and
nothing of the user's is deleted or half-written."""

import struct
import wave
import zipfile

import pytest

from host_device.cli.main import main
from host_device.listening.speech_model import is_model_dir


def one_line(capsys, *words):
    """One error line (after any progress lines), naming what is wrong."""
    captured = capsys.readouterr()
    errors = [line for line in captured.err.splitlines() if ": ошибка: " in line]
    assert len(errors) == 1 and "Traceback" not in captured.err, captured.err
    assert captured.err.splitlines()[-1] == errors[0]
    for word in words:
        assert word in errors[0], captured.err
    return captured


# ---------------------------------------------------------------- model install


@pytest.mark.slow
def test_model_install_never_deletes_a_folder_it_did_not_install(tmp_path, ko_model_dir, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "thesis.txt").write_text("years of work")
    assert main(["model", "install", "--from", str(ko_model_dir), "--to", str(folder)]) == 2
    one_line(capsys, str(folder), "не модель vosk", "никогда не очищается")
    assert (folder / "thesis.txt").read_text() == "years of work" and len(list(folder.iterdir())) == 1
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["model", "install", "--from", str(ko_model_dir), "--to", str(empty), "--force"]) == 0
    assert is_model_dir(empty)


@pytest.mark.parametrize(
    ("to", "words"),
    [
        ("afile/model", "afile — файл, а не папка"),
        ("afile", "это файл; --to — папка"),
        ("/proc/model", "сюда модель не установить"),
    ],
)
def test_model_install_to_an_impossible_place(tmp_path, ko_model_dir, capsys, to, words):
    (tmp_path / "afile").write_text("x")
    target = to if to.startswith("/") else str(tmp_path / to)
    assert main(["model", "install", "--from", str(ko_model_dir), "--to", target]) == 2
    one_line(capsys, words)
    assert (tmp_path / "afile").read_text() == "x"


def test_model_install_from_an_empty_zip(tmp_path, capsys):
    archive = tmp_path / "empty.zip"
    zipfile.ZipFile(archive, "w").close()
    assert main(["model", "install", "--from", str(archive), "--to", str(tmp_path / "m")]) == 2
    one_line(capsys, f"{archive}: архив пуст")
    assert not (tmp_path / "m").exists()


# ---------------------------------------------------------------- say


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["killed", "seat=²"], "seat='²' cannot be said; it can be 1..16"),
        (["candidates", "seats=²,3"], "seats='²' cannot be said"),
        (["killed", "seat=" + "9" * 5000], "cannot be said; it can be 1..16"),
        (["killed", "seat=7", "colour=red"], "у фразы 'killed' нет значения 'colour'; её значения: seat"),
        (["candidates", "seats=" + ",".join(["1"] * 17)], "seats=…: значений 17; можно не больше 16"),
        (["killed", "seat"], "значения задаются как имя=значение"),
    ],
)
def test_say_with_bad_slots(capsys, args, words, builtin_pack):
    assert main(["say", *args]) == 2
    captured = one_line(capsys, words)
    assert len(captured.err) < 300


@pytest.mark.parametrize("to", ["folder", "/proc/nope/x.wav"])
def test_say_to_a_place_that_cannot_be_written_leaves_nothing(tmp_path, capsys, to, builtin_pack):
    target = tmp_path if to == "folder" else to
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["say", "killed", "seat=7", "--to", str(target)]) == 2
    one_line(capsys, "не удалось записать звук")
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no temporary file left


# ---------------------------------------------------------------- listen --wav


def wav_with(path, rate=16000, cut=0, frames=b"\x01\x02" * 8000):
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(frames)
    data = bytearray(path.read_bytes())
    data[24:28] = struct.pack("<I", rate)
    path.write_bytes(bytes(data[: len(data) - cut]))
    return path


@pytest.mark.parametrize(("rate", "words"), [(0, "частота 0 Гц"), (1, "частота 1 Гц"), (10**9, "частота")])
def test_listen_to_a_wav_with_an_impossible_rate(tmp_path, ko_model_dir, capsys, rate, words):
    wav = wav_with(tmp_path / "x.wav", rate=rate)
    assert main(["listen", "--wav", str(wav), "--model", str(ko_model_dir)]) == 2
    one_line(capsys, words, "от 8000 до 192000 Гц")


@pytest.mark.slow
def test_listen_to_a_wav_cut_inside_a_sample(tmp_path, ko_model_dir, capsys):
    wav = wav_with(tmp_path / "x.wav", cut=1)
    assert main(["listen", "--wav", str(wav), "--model", str(ko_model_dir)]) == 0
    assert "Traceback" not in capsys.readouterr().err


def test_listen_seats_are_checked(capsys):
    assert main(["listen", "--seats", "99"]) == 2
    one_line(capsys, "'99': за столом от 6 до 16 мест")


SEATED_COMMANDS = (
    ["run"],
    ["doctor"],
    ["hardware", "test"],
    ["hardware", "wiring", "--to", "w.svg"],
    ["listen"],
    ["intents", "x"],
    ["model", "test", "d"],
    ["model", "record", "d"],
)


def test_every_command_knows_one_seat_range():
    """--seats is one flag: every table the rules are played at (6 … 16), nothing else."""
    from engine.presets import TABLE_SIZES
    from host_device.cli.main import build_parser

    parser = build_parser()
    for command in SEATED_COMMANDS:
        for seats in (TABLE_SIZES[0], 10, TABLE_SIZES[-1]):
            assert parser.parse_args([*command, "--seats", str(seats)]).seats == seats, command
        for seats in (TABLE_SIZES[0] - 1, TABLE_SIZES[-1] + 1):
            with pytest.raises(SystemExit):
                parser.parse_args([*command, "--seats", str(seats)])
