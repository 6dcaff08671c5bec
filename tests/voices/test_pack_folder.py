"""A pack is a folder of its own (issue 46, items 1 and 4): what its manifest
names stays inside it; a folder that is not a pack is refused, nothing written
into it and nothing outside it deleted; a FIFO, a device or a huge file among
its clips, or as a voice's .onnx.json, is one line within a second."""

import json
import os
import resource
import signal
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from host_device.cli.main import EXIT_BAD_INPUT, main
from tests.helpers.piper import STANDIN, standin_voice
from tests.voices.test_pack import SMALL, FakeRenderer, one_line
from voices.errors import PackError, VoiceError
from voices.pack import build_pack, inspect_pack, load_pack
from voices.piper import voice_info

TOML = '[phrases]\nkilled = "Ночью убит игрок номер {seat}."\naccepted = "Принято."\n'
HUGE = 64 << 20  # a clip of 64 MB (sparse): over any clip's limit
HOSTILE = "../../victim/precious"  # DIR/clips/../../victim/precious.wav is DIR/../victim/precious.wav


class Hung(BaseException):
    """Raised by the alarm: not an Exception, so that no handler on the way swallows it."""


@contextmanager
def within(seconds, megabytes=256):
    """The block must end within ``seconds``, using at most ``megabytes`` more memory: a read
    that blocks (a FIFO) is interrupted, one that never ends (/dev/zero) fails, never
    eating the machine's memory."""

    def ring(signum, frame):
        raise Hung(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    used = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    cap = used + (megabytes << 20)
    resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    assert time.monotonic() - start < seconds


@pytest.fixture
def small(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(TOML, encoding="utf-8")
    return path


@pytest.fixture
def victim(tmp_path):
    """A file outside the pack, where a hostile key points."""
    precious = tmp_path / "victim" / "precious.wav"
    precious.parent.mkdir()
    precious.write_bytes(b"the club's own recording")
    return precious


def pack_with(folder, **extra_clips):
    """A pack built in ``folder`` (a fake voice), with entries added to its manifest."""
    build_pack(folder, SMALL, FakeRenderer(), source={"kind": "fake"})
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    manifest["clips"] |= extra_clips
    (folder / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    return manifest


def snapshot(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# ---------------------------------------------------------------- nothing outside the folder is deleted


def test_a_manifest_key_that_climbs_out_deletes_nothing_outside(tmp_path, victim):
    pack = tmp_path / "pack"
    pack_with(pack, **{HOSTILE: {"file": "clips/x.wav", "text": "x"}})
    before = snapshot(pack)
    with pytest.raises(PackError, match=r"запись '\.\./\.\./victim/precious': в нём «/»"):
        build_pack(pack, SMALL, FakeRenderer(), source={"kind": "fake"})
    assert victim.read_bytes() == b"the club's own recording" and snapshot(pack) == before
    # the box's own folder is built over such a manifest, and still deletes nothing outside
    report = build_pack(pack, SMALL, FakeRenderer(), source={"kind": "fake"}, own=True)
    assert report.removed == [] and victim.exists()
    assert HOSTILE not in json.loads((pack / "manifest.json").read_text("utf-8"))["clips"]


def test_voices_build_to_a_folder_with_a_climbing_key_is_one_line(tmp_path, victim, small, capsys):
    pack = tmp_path / "pack"
    pack_with(pack, **{HOSTILE: {"file": "clips/x.wav", "text": "x"}})
    assert main(["voices", "build", "--to", str(pack), "--catalogue", str(small)]) == EXIT_BAD_INPUT
    line = one_line(capsys.readouterr().err)
    assert str(pack / "manifest.json") in line and "не перезаписывается" in line
    assert victim.exists()


def test_the_data_folders_own_pack_is_rebuilt_without_deleting_outside(tmp_path, monkeypatch, small, capsys):
    data = tmp_path / "data"
    monkeypatch.setenv("HOST_DEVICE_DATA", str(data))
    pack = data / "voices" / "builtin"
    victim = pack / ".." / ".." / ".." / "precious.wav"  # DIR/clips/../../../../precious.wav
    victim.parent.mkdir(parents=True, exist_ok=True)
    victim.write_bytes(b"keep")
    pack_with(pack, **{"../../../../precious": {"file": "clips/x.wav", "text": "x"}})
    assert main(["voices", "build", "--catalogue", str(small)]) == 0
    assert victim.read_bytes() == b"keep"
    assert "удалено 0" in capsys.readouterr().out


def test_voices_build_with_a_piper_voice_to_a_climbing_folder_deletes_nothing(
    tmp_path, victim, small, capsys
):
    model = standin_voice(tmp_path / "usb")
    pack = tmp_path / "pack"
    pack_with(pack, **{HOSTILE: {"file": "clips/x.wav", "text": "x"}})
    argv = ["voices", "build", "--voice", f"piper:{model}", "--to", str(pack), "--catalogue", str(small)]
    assert main(argv) == EXIT_BAD_INPUT
    assert "не перезаписывается" in one_line(capsys.readouterr().err)
    assert victim.exists()


def test_a_clips_folder_that_is_a_link_is_not_written_through(tmp_path, victim):
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "clips").symlink_to(victim.parent)
    with pytest.raises(PackError, match="не папка набора"):
        build_pack(pack, SMALL, FakeRenderer(), source={"kind": "fake"})
    assert sorted(p.name for p in victim.parent.iterdir()) == ["precious.wav"]


# ---------------------------------------------------------------- a folder that is not a pack


@pytest.mark.parametrize(
    ("files", "said"),
    [
        ({"manifest.json": '{"name": "my-app", "version": "1.0.0", "dependencies": {}}'}, "не перезаписывается"),
        ({"manifest.json": "{"}, "не перезаписывается"),
        ({"index.html": "<html></html>"}, "папка не пуста, и в ней нет manifest.json"),
    ],
)
def test_a_folder_that_is_not_a_pack_is_refused_with_nothing_written(tmp_path, small, capsys, files, said):
    folder = tmp_path / "site"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    before = snapshot(folder)
    assert main(["voices", "build", "--to", str(folder), "--catalogue", str(small)]) == EXIT_BAD_INPUT
    assert said in one_line(capsys.readouterr().err)
    assert snapshot(folder) == before and not (folder / "clips").exists()


def test_an_empty_or_missing_folder_is_built_into_and_a_file_is_refused(tmp_path, small, capsys):
    (tmp_path / "empty").mkdir()
    for folder in (tmp_path / "empty", tmp_path / "new" / "pack"):
        assert main(["voices", "build", "--to", str(folder), "--catalogue", str(small)]) == 0
        assert set(json.loads((folder / "manifest.json").read_text("utf-8"))["clips"]) == set(SMALL.clips())
    capsys.readouterr()
    (tmp_path / "file").write_text("x")
    assert main(["voices", "build", "--to", str(tmp_path / "file"), "--catalogue", str(small)]) == 2
    assert "это файл, а не папка" in one_line(capsys.readouterr().err)


def test_a_build_stopped_half_way_is_a_pack_that_the_next_build_completes(tmp_path):
    class Failing(FakeRenderer):
        def render(self, text):
            if self.calls:
                raise KeyboardInterrupt
            return super().render(text)

    with pytest.raises(KeyboardInterrupt):
        build_pack(tmp_path / "pack", SMALL, Failing(), source={"kind": "fake"})
    report, _ = inspect_pack(tmp_path / "pack", SMALL)  # claimed as a pack before its first clip
    assert report.missing
    report = build_pack(tmp_path / "pack", SMALL, FakeRenderer(), source={"kind": "fake"})
    assert set(report.rendered) == set(SMALL.clips())


# ---------------------------------------------------------------- what a pack names is read inside it


@pytest.mark.parametrize(
    ("key", "file", "said"),
    [
        ("seat=7", "/etc/passwd", "не в папке clips/"),
        ("seat=7", "clips/../../secret.wav", "в нём «/»"),
        ("seat=7", "clips/..", "точка в начале"),
        ("seat=7", "../secret.wav", "не в папке clips/"),
        ("seat=7", "clips/sub/x.wav", "в нём «/»"),
        ("../secret", "clips/x.wav", "в нём «/»"),
        ("/etc/passwd", "clips/x.wav", "в нём «/»"),
        ("bad\x1b]0;title\x07", "clips/x.wav", "управляющий знак"),
    ],
)
def test_a_manifest_that_names_a_path_outside_is_refused_by_check_and_by_loading(
    tmp_path, small, capsys, key, file, said
):
    outside = tmp_path / "secret.wav"
    outside.write_bytes(b"not for the pack")
    pack = tmp_path / "pack"
    pack_with(pack, **{key: {"file": file, "text": "x"}})
    assert main(["voices", "check", str(pack), "--catalogue", str(small)]) == EXIT_BAD_INPUT
    line = one_line(capsys.readouterr().err)
    assert said in line and "набор называет лишь файлы своей папки clips/, этот не читается" in line
    with pytest.raises(PackError, match="этот не читается"):
        load_pack(pack, SMALL, complete=False)


def test_a_clip_linked_outside_the_pack_is_not_read(tmp_path):
    pack = tmp_path / "pack"
    pack_with(pack)
    outside = tmp_path / "outside.wav"
    (pack / "clips" / "seat=8.wav").replace(outside)  # a good WAV, outside
    (pack / "clips" / "seat=8.wav").symlink_to(outside)
    (pack / "clips" / "seat=9.wav").unlink()
    (pack / "clips" / "seat=9.wav").symlink_to("seat=7.wav")  # a link inside clips/ is fine
    report, loaded = inspect_pack(pack, SMALL)
    assert report.broken == ["seat=8: ссылка за пределы папки clips/ набора"]
    assert "seat=8" not in loaded.clips and "seat=9" in loaded.clips


@pytest.mark.parametrize("kind", ["fifo", "device", "huge"])
def test_a_fifo_a_device_or_a_huge_clip_is_one_line_within_a_second(tmp_path, small, capsys, kind):
    pack = tmp_path / "pack"
    pack_with(pack)
    clip = pack / "clips" / "seat=7.wav"
    clip.unlink()
    if kind == "fifo":
        os.mkfifo(clip)
    elif kind == "device":
        (pack / "clips" / "dev").symlink_to("/dev", target_is_directory=True)  # /dev/zero, but in clips/
        manifest = json.loads((pack / "manifest.json").read_text("utf-8"))
        manifest["clips"]["seat=7"]["file"] = "clips/dev"  # a folder of devices is no clip either
        (pack / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    else:
        with clip.open("wb") as f:
            f.truncate(HUGE)
    with within(1.0):
        code = main(["voices", "check", str(pack), "--catalogue", str(small)])
        with pytest.raises(PackError, match="seat=7"):
            load_pack(pack, SMALL)
    assert code == 1
    broken = [line for line in capsys.readouterr().out.splitlines() if line.startswith("broken")]
    assert len(broken) == 1 and "seat=7: " in broken[0]
    assert {"fifo": "не обычный файл", "device": "ссылка за пределы", "huge": "больше"}[kind] in broken[0]


@pytest.mark.parametrize("kind", ["fifo", "zero", "nested", "huge"])
def test_a_bad_manifest_file_is_one_line_within_a_second(tmp_path, small, capsys, kind):
    pack = tmp_path / "pack"
    pack.mkdir()
    manifest = pack / "manifest.json"
    if kind == "fifo":
        os.mkfifo(manifest)
    elif kind == "zero":
        manifest.symlink_to("/dev/zero")
    elif kind == "nested":
        manifest.write_text("[" * 200_000 + "]" * 200_000)
    else:
        with manifest.open("wb") as f:
            f.truncate(HUGE)
    with within(1.0):
        assert main(["voices", "check", str(pack), "--catalogue", str(small)]) == EXIT_BAD_INPUT
        assert main(["voices", "build", "--to", str(pack), "--catalogue", str(small)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("host-device: ошибка: ") for line in err), err
    assert not (pack / "clips").exists()


# ---------------------------------------------------------------- a voice's .onnx.json


@pytest.mark.parametrize("kind", ["fifo", "zero", "nested", "huge", "rate"])
def test_voices_install_with_a_hostile_onnx_json_is_one_line_within_a_second(
    tmp_path, monkeypatch, capsys, kind
):
    monkeypatch.setenv("HOST_DEVICE_DATA", str(tmp_path / "data"))
    model = standin_voice(tmp_path / "usb")
    settings = tmp_path / "usb" / f"{STANDIN}.onnx.json"
    good = json.loads(settings.read_text("utf-8"))
    settings.unlink()
    if kind == "fifo":
        os.mkfifo(settings)
    elif kind == "zero":
        settings.symlink_to("/dev/zero")
    elif kind == "nested":
        settings.write_text('{"audio": ' + "[" * 200_000 + "]" * 200_000 + "}")
    elif kind == "huge":
        settings.write_text(json.dumps(good | {"padding": "x" * (2 << 20)}))
    else:
        settings.write_text(json.dumps(good | {"audio": {"sample_rate": 10**9}}))
    with within(1.0):
        assert main(["voices", "install", str(model)]) == EXIT_BAD_INPUT
    line = one_line(capsys.readouterr().err)
    assert f"{settings}: " in line
    assert {
        "fifo": "не обычный файл",
        "zero": "не обычный файл",
        "nested": "вложенность слишком глубокая",
        "huge": "больше 1048576 байт",
        "rate": "audio.sample_rate",
    }[kind] in line
    assert not (tmp_path / "data" / "voices" / STANDIN).exists()


def test_a_voice_file_that_is_a_fifo_is_one_line(tmp_path):
    model = tmp_path / "x.onnx"
    os.mkfifo(model)
    with within(1.0), pytest.raises(VoiceError, match="не обычный файл"):
        voice_info(model)


def test_an_ambience_file_that_is_a_fifo_is_one_line(tmp_path):
    from voices.ambience import club_bed

    bed = tmp_path / "bed.wav"
    os.mkfifo(bed)
    with within(1.0), pytest.raises(PackError, match=r"\[ambience\]\.file: .*bed\.wav: не обычный файл"):
        club_bed(bed, 22050)


def test_a_deeply_nested_choice_or_record_of_a_voice_is_passed_over(tmp_path, monkeypatch, caplog):
    from voices.installed import BUILTIN, in_use, installed

    voices = tmp_path / "data" / "voices"
    monkeypatch.setenv("HOST_DEVICE_DATA", str(tmp_path / "data"))
    standin_voice(voices / STANDIN)
    (voices / STANDIN / "installed.json").write_text("[" * 4000)
    (voices / "in-use.json").write_text("[" * 4000)
    with within(1.0):
        assert installed() == [] and in_use() == BUILTIN
    assert "не выбор голоса" in caplog.text
