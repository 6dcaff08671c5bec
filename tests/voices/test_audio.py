"""Clip processing: trimming, loudness, fades, joining without clicks, WAV files."""

import wave

import numpy as np
import pytest

from host_device.base.errors import SoundFileError
from host_device.base.sound import read_wav, resampled, write_wav
from voices.audio import (
    FADE_MS,
    MARGIN_MS,
    PEAK_LIMIT_DBFS,
    TARGET_LUFS,
    fade,
    join,
    loudness,
    normalise,
    prepare,
    resample,
    silence,
    tone,
    trim,
)

RATE = 22050


def rms_dbfs(x):
    x = x.astype(np.float64)
    return 20 * np.log10(np.sqrt(np.mean(x**2)) / 32768)


def test_trim_cuts_silence_and_keeps_a_margin():
    beep = tone(RATE, ms=200)
    noisy = np.random.default_rng(1).integers(-3, 4, RATE // 2).astype(np.int16)  # faint hiss
    clip = np.concatenate([noisy, beep, noisy])
    out = trim(clip, RATE)
    margin = RATE * MARGIN_MS // 1000
    assert len(beep) <= len(out) <= len(beep) + 2 * margin + 2 * RATE // 100


def test_trim_of_pure_silence_is_empty():
    assert len(trim(np.zeros(RATE, dtype=np.int16), RATE)) == 0


@pytest.mark.parametrize("rate", [48000, 22050, 16000])
def test_the_loudness_meter_reads_the_standards_reference_tone(rate):
    """ITU-R BS.1770: a 997 Hz sine at full scale reads -3.01 LUFS (one channel); K-weighting
    cuts low tones (100 Hz reads lower) and lifts high ones (4 kHz reads higher)."""
    t = np.arange(2 * rate) / rate

    def sine(hz, dbfs=0.0):
        return np.round(np.sin(2 * np.pi * hz * t) * 32767 * 10 ** (dbfs / 20)).astype(np.int16)

    assert loudness(sine(997), rate) == pytest.approx(-3.01, abs=0.02)
    assert loudness(sine(997, -20), rate) == pytest.approx(-23.01, abs=0.02)
    assert loudness(sine(100), rate) < -3.5 and loudness(sine(4000), rate) > -1.0


def test_normalise_reaches_the_target_loudness_without_clipping():
    quiet = tone(RATE, ms=500, dbfs=-40)
    assert loudness(normalise(quiet, RATE), RATE) == pytest.approx(TARGET_LUFS, abs=0.1)
    # a quiet tone with one loud click: the click is limited, the clip still reaches the target
    peaky = tone(RATE, ms=800, dbfs=-30)
    peaky[RATE // 4] = 30000
    out = normalise(peaky, RATE)
    assert loudness(out, RATE) == pytest.approx(TARGET_LUFS, abs=0.1)
    assert np.max(np.abs(out)) <= 32767 * 10 ** (PEAK_LIMIT_DBFS / 20) + 1
    spike = np.zeros(RATE, dtype=np.int16)
    spike[100] = 30000  # nothing but a spike: limited, however loud the target would want it
    assert np.max(np.abs(normalise(spike, RATE))) <= 32767 * 10 ** (PEAK_LIMIT_DBFS / 20) + 1
    assert not np.any(normalise(np.zeros(10, dtype=np.int16), RATE))


def test_fades_start_and_end_at_zero():
    out = fade(np.full(RATE, 10000, dtype=np.int16), RATE)
    n = RATE * FADE_MS // 1000
    assert out[0] == 0 and out[-1] == 0
    assert abs(int(out[n])) == 10000 and np.all(np.diff(out[:n].astype(int)) >= 0)


def test_joined_clips_have_no_clicks():
    a = prepare(np.full(RATE // 4, 12000, dtype=np.int16), RATE)  # a DC step: the worst case for a click
    b = prepare(np.full(RATE // 4, -12000, dtype=np.int16), RATE)
    joined = join([a, silence(40, RATE), b])
    jumps = np.abs(np.diff(joined.astype(int)))
    assert jumps.max() < 0.1 * 32768  # fades make every edge a ramp
    assert len(joined) == len(a) + len(b) + RATE * 40 // 1000


def test_wav_round_trip_and_format_errors(tmp_path):
    clip = tone(RATE)
    write_wav(tmp_path / "a.wav", clip, RATE)
    back, rate = read_wav(tmp_path / "a.wav")
    assert rate == RATE and np.array_equal(back, clip)
    with wave.open(str(tmp_path / "stereo.wav"), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"\0" * 400)
    with pytest.raises(SoundFileError, match=r"stereo\.wav: каналов 2"):
        read_wav(tmp_path / "stereo.wav")
    (tmp_path / "junk.wav").write_bytes(b"not a wav")
    with pytest.raises(SoundFileError, match=r"junk\.wav: WAV-файл не читается"):
        read_wav(tmp_path / "junk.wav")
    with pytest.raises(SoundFileError, match=r"none\.wav: не удалось прочитать"):
        read_wav(tmp_path / "none.wav")


def test_resample_changes_length_by_the_ratio():
    clip = tone(44100, ms=1000)
    assert len(resample(clip, 44100, RATE)) == RATE
    assert resample(clip, RATE, RATE) is clip


@pytest.mark.parametrize(("rate", "to"), [(192000, 22050), (8000, 22050), (44100, 16000)])
@pytest.mark.parametrize("block", [1, 7, 1000, 10**6])
def test_resampled_in_blocks_is_the_linear_interpolation_of_the_whole(rate, to, block):
    x = np.random.default_rng(1).integers(-30000, 30000, 3001).astype(np.int16)
    whole = np.interp(np.linspace(0, len(x) - 1, round(len(x) * to / rate)), np.arange(len(x)), x)
    blocks = [x[i : i + block] for i in range(0, len(x), block)]
    assert np.array_equal(resampled(blocks, len(x), rate, to), np.round(whole).astype(np.int16))
    cut = resampled(blocks[: len(blocks) // 2 or 1], len(x), rate, to)  # a file cut short
    assert np.array_equal(cut, np.round(whole[: len(cut)]).astype(np.int16))
    assert len(cut) < len(whole) or len(blocks) == 1  # what its samples reach, no more


def test_a_wav_read_at_another_rate_is_resampled_block_by_block(tmp_path, monkeypatch):
    monkeypatch.setattr("host_device.base.sound.BLOCK_FRAMES", 100)
    clip = tone(44100, ms=300)
    write_wav(tmp_path / "t.wav", clip, 44100)
    samples, rate = read_wav(tmp_path / "t.wav", to=RATE)
    assert rate == RATE and np.array_equal(samples, resample(clip, 44100, RATE))


def test_the_warning_tone():
    beep = tone(RATE)
    assert len(beep) == RATE * 150 // 1000 and beep[0] == 0 and np.max(np.abs(beep)) > 5000
