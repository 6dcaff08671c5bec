"""Voice packs: building (real espeak-ng and a fake renderer), skipping
unchanged clips, checking, and loading."""

import errno
import io
import json
import os

import numpy as np
import pytest

from host_device.base.sound import read_wav
from host_device.cli.main import main
from voices.audio import tone
from voices.catalogue import Catalogue
from voices.errors import PackError
from voices.pack import build_pack, inspect_pack, load_pack

SMALL = Catalogue({"killed": "Ночью убит игрок номер {seat}.", "accepted": "Принято."})


class FakeRenderer:
    """Renders each text as a tone, its length set by the text, with silence around."""

    def __init__(self):
        self.calls = []

    def render(self, text):
        self.calls.append(text)
        body = tone(16000, hz=300 + 10 * len(text), ms=100 + 10 * len(text))
        pad = np.zeros(1600, dtype=np.int16)
        return np.concatenate([pad, body, pad]), 16000


def duration_ms(pack, key):
    return len(pack.clips[key]) * 1000 // pack.sample_rate


def test_builtin_pack_renders_every_clip_with_espeak(builtin_pack, catalogue):
    assert set(builtin_pack.clips) == set(catalogue.clips())
    assert builtin_pack.sample_rate == 22050 and builtin_pack.language == "ru"
    durations = [duration_ms(builtin_pack, k) for k in builtin_pack.clips if k != "word=and"]
    assert (
        min(durations) > 100 and max(durations) < 10000
    )  # real speech, trimmed (the longest sentence is ~6 s)
    assert 40 < duration_ms(builtin_pack, "word=and") < 400  # «и»: one short vowel
    for samples in builtin_pack.clips.values():
        assert samples[0] == 0 and samples[-1] == 0  # faded: no clicks when joined


def test_build_writes_a_manifest_and_one_clip_per_catalogue_clip(tmp_path):
    renderer = FakeRenderer()
    report = build_pack(tmp_path, SMALL, renderer, name="test", source={"kind": "fake"})
    manifest = json.loads((tmp_path / "manifest.json").read_text("utf-8"))
    assert manifest["name"] == "test" and manifest["sample_rate"] == 16000 and manifest["language"] == "ru"
    assert set(manifest["clips"]) == set(SMALL.clips()) == set(report.rendered)
    assert manifest["clips"]["seat=7"] == {"file": "clips/seat=7.wav", "text": "семь"}
    samples, rate = read_wav(tmp_path / "clips" / "seat=7.wav")
    assert rate == 16000 and 0 < len(samples) < 16000  # trimmed of its padding


def test_rebuild_skips_unchanged_clips_and_renders_changed_ones(tmp_path):
    build_pack(tmp_path, SMALL, FakeRenderer(), source={"kind": "fake"})
    again = FakeRenderer()
    report = build_pack(tmp_path, SMALL, again, source={"kind": "fake"})
    assert report.rendered == [] and again.calls == []
    changed = Catalogue({"killed": "Этой ночью убит игрок номер {seat}.", "sleep": "Спим."})
    third = FakeRenderer()
    report = build_pack(tmp_path, changed, third, source={"kind": "fake"})
    assert sorted(third.calls) == ["Спим.", "Этой ночью убит игрок номер"]
    assert report.removed == ["accepted#0"] and not (tmp_path / "clips" / "accepted#0.wav").exists()
    other = FakeRenderer()
    build_pack(tmp_path, changed, other, source={"kind": "fake", "rate": 200})  # new voice settings
    assert len(other.calls) == len(changed.clips())


def test_check_reports_missing_extra_broken_and_changed(tmp_path, capsys):
    build_pack(tmp_path, SMALL, FakeRenderer(), source={"kind": "fake"})
    manifest = json.loads((tmp_path / "manifest.json").read_text("utf-8"))
    del manifest["clips"]["seat=3"]
    manifest["clips"]["old"] = {"file": "clips/old.wav", "text": "x"}
    manifest["clips"]["accepted#0"]["text"] = "Принят."
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    (tmp_path / "clips" / "seat=4.wav").write_bytes(b"garbage")
    report, _pack = inspect_pack(tmp_path, SMALL)
    assert report.missing == ["seat=3"] and report.extra == ["old"] and report.changed == ["accepted#0"]
    assert [b.split(":")[0] for b in report.broken] == ["seat=4", "old"]
    assert not report.complete
    with pytest.raises(PackError, match=r"missing \(1\): seat=3; broken \(2\): seat=4"):
        load_pack(tmp_path, SMALL)


def test_load_without_completeness_still_refuses_broken_clips(tmp_path):
    build_pack(tmp_path, SMALL, FakeRenderer(), source={"kind": "fake"})
    manifest = json.loads((tmp_path / "manifest.json").read_text("utf-8"))
    del manifest["clips"]["seat=3"]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    assert "seat=3" not in load_pack(tmp_path, SMALL, complete=False).clips
    (tmp_path / "clips" / "seat=4.wav").write_bytes(b"garbage")
    with pytest.raises(PackError, match="broken"):
        load_pack(tmp_path, SMALL, complete=False)


def test_a_clip_at_another_rate_is_broken(tmp_path):
    build_pack(tmp_path, SMALL, FakeRenderer(), source={"kind": "fake"})
    from host_device.base.sound import write_wav

    write_wav(tmp_path / "clips" / "seat=5.wav", tone(8000), 8000)
    report, _ = inspect_pack(tmp_path, SMALL)
    assert report.broken == ["seat=5: 8000 Hz, the pack is 16000 Hz"]


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "not a voice pack"), ("{", "not a valid manifest"), ('{"name": "x"}', "not a valid manifest")],
)
def test_not_a_pack(tmp_path, content, message):
    if content is not None:
        (tmp_path / "manifest.json").write_text(content)
    with pytest.raises(PackError, match=message):
        load_pack(tmp_path, SMALL)


def test_voices_check_command(tmp_path, capsys, builtin_pack):
    assert main(["voices", "check", str(builtin_pack.directory)]) == 0
    assert capsys.readouterr().out.strip().endswith("голос полный")
    manifest = json.loads((builtin_pack.directory / "manifest.json").read_text("utf-8"))
    del manifest["clips"]["seat=7"]
    (tmp_path / "clips").mkdir()
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    for entry in manifest["clips"].values():
        (tmp_path / entry["file"]).write_bytes((builtin_pack.directory / entry["file"]).read_bytes())
    assert main(["voices", "check", str(tmp_path)]) == 1
    assert "missing (1): seat=7" in capsys.readouterr().out
    assert main(["voices", "check", str(tmp_path / "nowhere")]) == 2
    assert "not a voice pack" in capsys.readouterr().err


@pytest.mark.slow
def test_voices_build_command_skips_what_is_built(tmp_path, capsys):
    assert main(["voices", "build", "--to", str(tmp_path)]) == 0
    first = capsys.readouterr().out
    assert main(["voices", "build", "--to", str(tmp_path)]) == 0
    second = capsys.readouterr().out
    assert "без изменений 0" in first and "записей озвучено 0" in second
    assert main(["voices", "build", "--to", str(tmp_path), "--voice", "xx/none"]) == 2
    assert "voice 'xx/none' is not known to espeak-ng" in capsys.readouterr().err


def test_voices_phrases_command(capsys, catalogue):
    assert main(["voices", "phrases"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(catalogue.names())
    assert "speech\tИгрок номер {seat}, {seconds:yours}." in lines


class SilentRenderer(FakeRenderer):
    """A renderer that gives silence (the synthesiser's own fallback is tested in test_render.py)."""

    def render(self, text):
        samples, rate = super().render(text)
        return np.zeros_like(samples), rate


def test_a_clip_rendered_as_silence_is_refused_and_named(tmp_path):
    renderer = SilentRenderer()
    with pytest.raises(PackError, match=r"clip '.*' \(.*\) rendered as silence; check that espeak-ng speaks"):
        build_pack(tmp_path, SMALL, renderer, source={"kind": "fake"})
    assert len(renderer.calls) == 1  # never written into the pack, never asked again


# ---------------------------------------------------------------- a data folder that cannot be written

RUN = ["run", "--panel", "mock", "--audio", "null", "--new", "--days", "1", "--speed", "5000", "--quiet"]


@pytest.fixture
def data_copy(tmp_path, monkeypatch, builtin_pack):
    """A data folder of its own holding the built pack (HOST_DEVICE_DATA points at it)."""
    import shutil

    data = tmp_path / "data"
    shutil.copytree(builtin_pack.directory, data / "voices" / "builtin")
    monkeypatch.setenv("HOST_DEVICE_DATA", str(data))
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    return data


def one_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("host-device: ошибка: "), err
    assert "Traceback" not in err
    return lines[0]


def test_an_unchanged_pack_is_not_written_at_start(data_copy, tmp_path, monkeypatch, catalogue):
    from tests.helpers.read_only import ReadOnly
    from voices.pack import ensure_builtin

    manifest = data_copy / "voices" / "builtin" / "manifest.json"
    before = manifest.stat().st_mtime_ns, manifest.read_bytes()
    folder = ReadOnly(monkeypatch, data_copy)  # a read-only disk
    assert set(ensure_builtin(catalogue).clips) == set(catalogue.clips())
    # the game store elsewhere: the game is hosted from the read-only pack
    assert main([*RUN, "--store", str(tmp_path / "games.sqlite3")]) == 0
    assert folder.attempts == []
    assert (manifest.stat().st_mtime_ns, manifest.read_bytes()) == before


@pytest.mark.slow
def test_run_on_a_read_only_data_folder(data_copy, tmp_path):
    """A real read-only folder: ``unshare --user`` makes its mode bits bind
    root too (as tests/host_device/store/test_store_faults.py does)."""
    import subprocess
    import sys

    from tests.helpers.paths import ROOT

    folders = [data_copy, *(p for p in data_copy.rglob("*") if p.is_dir())]
    for folder in folders:
        folder.chmod(0o555)
    env = {**os.environ, "HOST_DEVICE_DATA": str(data_copy), "HOST_DEVICE_MODEL": str(tmp_path / "none")}

    def run(*extra):
        command = ["unshare", "--user", sys.executable, "-m", "host_device", *RUN, *extra]
        return subprocess.run(
            command, capture_output=True, text=True, env=env, cwd=ROOT, stdin=subprocess.DEVNULL, timeout=120
        )

    try:
        elsewhere = run("--store", str(tmp_path / "games.sqlite3"))  # the pack is read, nothing written
        assert elsewhere.returncode == 0, elsewhere.stderr
        assert "Traceback" not in elsewhere.stderr
        inside = run()  # the store must be made in the read-only folder: one line, exit 2
        assert inside.returncode == 2
        assert "games.sqlite3" in one_line(inside.stderr)
    finally:
        for folder in folders:
            folder.chmod(0o755)
    assert sorted(p.name for p in data_copy.iterdir()) == ["voices"]


@pytest.mark.parametrize("code", [errno.EROFS, errno.ENOSPC])
def test_a_pack_that_must_be_written_where_it_cannot_be_is_one_line(data_copy, monkeypatch, capsys, code):
    from tests.helpers.read_only import ReadOnly

    (data_copy / "voices" / "builtin" / "clips" / "paused#0.wav").unlink()  # a clip to render again
    ReadOnly(monkeypatch, data_copy, code)
    assert main(RUN) == 2
    line = one_line(capsys.readouterr().err)
    assert "voices/builtin" in line and os.strerror(code) in line


def test_a_data_folder_that_is_a_file_is_one_line(tmp_path, monkeypatch, capsys, builtin_pack):
    data = tmp_path / "data"
    data.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("HOST_DEVICE_DATA", str(data))
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    for argv in (RUN, ["run", "--box", "--panel", "mock", "--audio", "null"]):
        assert main(argv) == 2
        line = one_line(capsys.readouterr().err)
        assert str(data) in line and "HOST_DEVICE_DATA" in line
    assert data.read_text(encoding="utf-8") == "not a folder"
