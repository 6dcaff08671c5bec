"""Rendering clips: pyttsx3's clip read only when it is complete (the race of
a slow CPU reproduced with a driver whose file appears late), espeak-ng's
command where the driver writes nothing or silence, and the real path."""

import struct
import subprocess
import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

from host_device.base.sound import read_wav, write_wav
from voices.audio import tone
from voices.catalogue import Catalogue
from voices.clipwait import declared_complete, wait_until_complete
from voices.errors import AudioUnavailable
from voices.pack import build_builtin, load_pack
from voices.render import DEFAULT_RATE, DEFAULT_VOICE, Synthesiser

RATE = 22050
SMALL = Catalogue({"killed": "Ночью убит игрок номер {seat}.", "accepted": "Принято."})


class FakeClock:
    """Virtual time: sleeping moves it on at once."""

    def __init__(self):
        self.now = 0.0
        self.sleeps = 0

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps += 1
        self.now += seconds


def clip_for(text):
    """A different, audible clip for every text."""
    return tone(RATE, hz=200 + 20 * len(text), ms=200 + 10 * len(text))


def wav_bytes(samples):
    """A mono 16-bit WAV whose header declares all of ``samples`` (as pyttsx3 writes it)."""
    data = samples.astype("<i2").tobytes()
    fmt = struct.pack("<HHIIHH", 1, 1, RATE, 2 * RATE, 2, 16)
    return (
        b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVE"
        + b"fmt " + struct.pack("<I", 16) + fmt
        + b"data" + struct.pack("<I", len(data)) + data
    )  # fmt: skip


class DriverDouble:
    """What the synthesiser uses of a pyttsx3 engine; ``write(text, path)``
    is what becomes of the clip, by default nothing at all."""

    def __init__(self):
        self.calls = []
        self.properties = {}
        self._job = None

    def getProperty(self, name):
        assert name == "voices"
        return [SimpleNamespace(id="zle/ru"), SimpleNamespace(id="gmw/en")]

    def setProperty(self, name, value):
        self.properties[name] = value

    def save_to_file(self, text, filename):
        self._job = (text, filename)

    def runAndWait(self):
        text, filename = self._job
        self.calls.append(text)
        self.write(text, filename)

    def write(self, text, filename):
        pass


class LateDriver(DriverDouble):
    """pyttsx3 on a slow CPU: ``runAndWait`` returns first, and espeak-ng's
    thread writes the clip afterwards, the header and half the samples, then
    the rest."""

    def __init__(self, delay_s=0.05):
        super().__init__()
        self.delay_s = delay_s
        self.threads = []

    def write(self, text, filename):
        def late():
            whole = wav_bytes(clip_for(text))
            cut = 44 + (len(whole) - 44) // 2
            time.sleep(self.delay_s)
            with open(filename, "wb") as f:
                f.write(whole[:cut])
                f.flush()
                time.sleep(self.delay_s)
                f.write(whole[cut:])

        thread = threading.Thread(target=late)
        thread.start()
        self.threads.append(thread)


class SilentDriver(DriverDouble):
    """A driver that writes a whole clip, of silence."""

    def write(self, text, filename):
        with open(filename, "wb") as f:
            f.write(wav_bytes(np.zeros(RATE // 2, dtype=np.int16)))


def espeak_ng(text, tmp_path):
    """The same text from espeak-ng's command, run here directly."""
    out = tmp_path / "direct.wav"
    subprocess.run(
        ["espeak-ng", "-v", DEFAULT_VOICE, "-s", str(DEFAULT_RATE), "-w", str(out), text], check=True
    )
    return read_wav(out)


def test_a_clip_written_after_run_and_wait_returned_is_read_whole():
    driver = LateDriver()
    synth = Synthesiser(engine_factory=lambda: driver)
    try:
        for text in ("Принято.", "Ночью убит игрок номер"):  # the second is not the first one's file
            samples, rate = synth.render(text)
            assert rate == RATE and np.array_equal(samples, clip_for(text))
    finally:
        synth.close()
        for thread in driver.threads:
            thread.join()
    assert driver.calls == ["Принято.", "Ночью убит игрок номер"]
    assert synth.way.startswith("клипы озвучены pyttsx3")


def test_a_driver_that_writes_nothing_gives_way_to_the_espeak_ng_command(tmp_path):
    driver, clock = DriverDouble(), FakeClock()
    synth = Synthesiser(engine_factory=lambda: driver, clock=clock, sleep=clock.sleep, timeout_s=10)
    try:
        for text in ("Принято.", "семь"):
            samples, rate = synth.render(text)
            direct, direct_rate = espeak_ng(text, tmp_path)
            assert (
                rate == direct_rate == RATE
                and np.array_equal(samples, direct)
                and np.abs(samples).max() > 1000
            )
    finally:
        synth.close()
    assert driver.calls == ["Принято."]  # waited for once, for at most the timeout, then no longer asked
    assert 10 <= clock.now < 10.1
    assert synth.way == (
        "клипы озвучены командой espeak-ng (голос zle/ru, 165 слов в минуту): "
        "pyttsx3 не записал целого клипа «Принято.» за 10 с"
    )


def test_a_pack_built_past_a_silent_driver_is_whole_and_says_its_way_once(tmp_path, capsys):
    def silent(voice, rate):
        return Synthesiser(voice, rate, engine_factory=SilentDriver)

    report = build_builtin(tmp_path, SMALL, DEFAULT_VOICE, DEFAULT_RATE, synthesiser=silent)
    assert set(report.rendered) == set(SMALL.clips())
    pack = load_pack(tmp_path, SMALL)
    assert pack.sample_rate == RATE and all(len(pack.clips[k]) > RATE // 10 for k in pack.clips)
    assert capsys.readouterr().err.splitlines() == [
        f"голосовой пакет {tmp_path}: клипы озвучены командой espeak-ng "
        f"(голос zle/ru, 165 слов в минуту): pyttsx3 озвучил «{next(iter(SMALL.clips().values()))}» тишиной"
    ]


def test_the_real_pyttsx3_path_builds_a_whole_pack_and_says_so_once(tmp_path, capsys):
    report = build_builtin(tmp_path, SMALL, DEFAULT_VOICE, DEFAULT_RATE)
    assert set(report.rendered) == set(SMALL.clips())
    pack = load_pack(tmp_path, SMALL)
    assert pack.sample_rate == RATE and all(len(pack.clips[k]) > RATE // 10 for k in pack.clips)
    out, err = capsys.readouterr()
    assert "Audio saved" not in out  # pyttsx3's print from espeak-ng's thread is kept quiet too
    assert err.splitlines() == [
        f"голосовой пакет {tmp_path}: клипы озвучены pyttsx3 через espeak-ng (голос zle/ru, 165 слов в минуту)"
    ]
    build_builtin(tmp_path, SMALL, DEFAULT_VOICE, DEFAULT_RATE)
    assert capsys.readouterr().err == ""  # nothing rendered, nothing to say


def test_no_espeak_ng_command_names_the_package():
    clock = FakeClock()
    synth = Synthesiser(
        engine_factory=DriverDouble, command=["no-such-espeak-ng"], clock=clock, sleep=clock.sleep
    )
    try:
        with pytest.raises(AudioUnavailable, match="install the Debian package espeak-ng"):
            synth.render("Принято.")
    finally:
        synth.close()


def test_a_wav_is_complete_only_when_its_header_matches_its_bytes(tmp_path):
    path = tmp_path / "clip.wav"
    assert not declared_complete(path)  # not there yet
    whole = wav_bytes(clip_for("x"))
    for cut in (0, 10, 30, 44, 45, len(whole) // 2, len(whole) - 1):
        path.write_bytes(whole[:cut])
        assert not declared_complete(path), cut
    path.write_bytes(whole)
    assert declared_complete(path)
    placeholder = whole[:40] + struct.pack("<I", 0) + whole[44:]  # size patched at the end
    path.write_bytes(placeholder)
    assert not declared_complete(path)
    write_wav(path, clip_for("y"), RATE)  # Python's wave, as the packs are written
    assert declared_complete(path)


def test_the_wait_is_bounded_and_needs_the_file_to_stand_still(tmp_path):
    path, clock = tmp_path / "clip.wav", FakeClock()
    assert not wait_until_complete(path, timeout_s=2, clock=clock, sleep=clock.sleep, poll_s=0.01)
    assert 2 <= clock.now < 2.02 and clock.sleeps <= 201
    path.write_bytes(wav_bytes(clip_for("x")))
    clock = FakeClock()
    assert wait_until_complete(path, timeout_s=2, clock=clock, sleep=clock.sleep, poll_s=0.01)
    assert clock.sleeps == 1  # seen complete twice, one poll apart
