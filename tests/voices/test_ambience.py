"""The night's sound from the club's own WAV (voices/ambience.py club_bed):
looped and brought to the bed's level; a file longer than the limit is
refused in one line naming it, before its samples are read."""

import io
import wave

import numpy as np
import pytest

from host_device.base.sound import write_wav
from host_device.cli.main import main
from voices.ambience import BED_RMS_DBFS, FADE_S, MAX_BED_S, club_bed
from voices.errors import PackError


def loop(path, seconds, rate=8000):
    t = np.arange(int(seconds * rate)) / rate
    write_wav(path, (3000 * np.sin(2 * np.pi * 220 * t)).astype(np.int16), rate)
    return path


def test_a_clubs_loop_is_resampled_levelled_and_cross_faded(tmp_path):
    bed = club_bed(loop(tmp_path / "night.wav", 5.0), 16000)
    assert bed.dtype == np.int16 and len(bed) == int((5.0 - FADE_S) * 16000)
    rms = float(np.sqrt(np.mean(bed.astype(float) ** 2)))
    assert abs(20 * np.log10(rms / 32768) - BED_RMS_DBFS) < 1.0


def test_a_loop_longer_than_the_limit_is_one_line_and_never_decoded(tmp_path, monkeypatch):
    path = loop(tmp_path / "night.wav", MAX_BED_S + 1)
    read = []
    real = wave.Wave_read.readframes
    monkeypatch.setattr(wave.Wave_read, "readframes", lambda self, n: (read.append(n), real(self, n))[1])
    with pytest.raises(PackError) as refused:
        club_bed(path, 22050)
    message = str(refused.value)
    assert "\n" not in message and "[ambience].file" in message and str(path) in message
    assert f"{MAX_BED_S:g} с" in message and f"{MAX_BED_S + 1:g} с" in message
    assert read == []  # refused from its header: no array of the whole file was made
    assert len(club_bed(loop(tmp_path / "ok.wav", MAX_BED_S), 8000)) > 0  # the limit itself is fine


def test_run_with_too_long_a_loop_is_one_line(tmp_path, monkeypatch, capsys, builtin_pack):
    loop(tmp_path / "night.wav", MAX_BED_S + 1)
    config = tmp_path / "config.toml"
    config.write_text('[ambience]\nfile = "night.wav"\n', encoding="utf-8")
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    argv = ["run", "--panel", "mock", "--audio", "null", "--new", "--days", "1", "--speed", "5000", "--quiet"]
    argv += ["--store", str(tmp_path / "g.sqlite3")]
    assert main([*argv, "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert (
        err.count("\n") == 1
        and err.startswith("host-device: ошибка: [ambience].file")
        and "Traceback" not in err
    )


def test_a_long_high_rate_loop_is_read_within_a_memory_bound(tmp_path):
    """A 59.9 s loop at 192 kHz (23 MB of samples) is read a block at a time and resampled as it
    is read: its samples are never all in memory as floats (they peaked at 405 MB in `run`)."""
    import tracemalloc

    rate, seconds = 192000, 59.9
    path = tmp_path / "night.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        block = (3000 * np.sin(2 * np.pi * 220 * np.arange(rate) / rate)).astype("<i2").tobytes()
        for _ in range(int(seconds)):
            w.writeframes(block)
        w.writeframes(block[: int((seconds % 1) * rate) * 2])
    tracemalloc.start()
    try:
        bed = club_bed(path, 22050)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(bed) == round(seconds * 22050) - int(FADE_S * 22050)
    rms = float(np.sqrt(np.mean(bed.astype(float) ** 2)))
    assert abs(20 * np.log10(rms / 32768) - BED_RMS_DBFS) < 1.0
    samples_mb = seconds * rate * 2 / 1e6  # the file's samples, as int16: 23 MB
    assert peak / 1e6 < 2 * samples_mb, f"peak {peak / 1e6:.0f} MB"  # was 17 times them
