"""The announcer: composing phrases from clips, fallback, playback times,
and a real sounddevice stream on an ALSA null device."""

import logging
import threading
import time

import numpy as np
import pytest

from hardware.microphone import WavMicrophone
from hardware.speaker import Playback, RecordingSpeaker, SoundDeviceSpeaker
from host_device.base.sound import read_wav, write_wav
from host_device.cli.main import main
from host_device.sound.announcer import Announcer
from host_device.sound.recording import record_session
from voices.audio import silence
from voices.catalogue import PAUSE_COMMA_MS, PAUSE_WORD_MS
from voices.errors import PackError
from voices.pack import Pack


class VirtualClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_a_phrase_is_its_clips_with_the_planned_pauses(catalogue, builtin_pack):
    announcer = Announcer(catalogue, builtin_pack)
    audio = announcer.compose("speech", {"seat": 7, "seconds": 60})
    rate = builtin_pack.sample_rate
    expected = np.concatenate(
        [
            builtin_pack.clips["speech#0"],
            silence(PAUSE_WORD_MS, rate),
            builtin_pack.clips["seat=7"],
            silence(PAUSE_COMMA_MS, rate),
            builtin_pack.clips["yours=60"],
        ]
    )
    assert np.array_equal(audio, expected)
    assert announcer.compose("speech", {"seat": 7, "seconds": 60}) is audio  # cached


def test_composed_phrases_have_no_clicks_at_the_joins(catalogue, builtin_pack):
    """Every join between a clip and a pause falls on silence: the clip has
    faded to zero, so nothing jumps where the audio is cut."""
    slots = {"seat": 5, "count": 3}
    audio = Announcer(catalogue, builtin_pack).compose("vote_count", slots).astype(int)
    joins, at = [], 0
    for item in catalogue.plan("vote_count", slots):
        n = len(builtin_pack.clips[item.key]) if hasattr(item, "key") else len(silence(item.ms, 22050))
        at += n
        joins.append(at)
    assert joins[-1] == len(audio) and len(joins) == 5
    for j in joins[:-1]:
        assert np.all(np.abs(audio[j - 2 : j + 2]) < 200), j
    assert audio[0] == 0 and audio[-1] == 0


def test_unknown_keys_and_missing_slots_fail_before_any_sound(catalogue, builtin_pack):
    speaker = RecordingSpeaker(builtin_pack.sample_rate, VirtualClock())
    announcer = Announcer(catalogue, builtin_pack, speaker)
    with pytest.raises(LookupError, match="did you mean"):
        announcer.say("speach", seat=1)
    with pytest.raises(ValueError, match="needs the slot 'seat'"):
        announcer.say("killed")
    assert speaker.played == []


def test_say_reports_start_and_end_on_the_clock(catalogue, builtin_pack):
    clock = VirtualClock()
    speaker = RecordingSpeaker(builtin_pack.sample_rate, clock)
    announcer = Announcer(catalogue, builtin_pack, speaker)
    playback = announcer.say("killed", seat=3)
    assert playback.done.is_set() and playback.started == 1000.0
    assert playback.ended == pytest.approx(1000.0 + len(playback.samples) / builtin_pack.sample_rate)
    assert speaker.played == [playback] and playback.label == "killed"
    beep = announcer.beep()
    assert beep.label == "tone" and beep.seconds == pytest.approx(0.15, abs=0.001)


def recorded_pack_without(builtin_pack, missing, rate=None):
    clips = {k: v for k, v in builtin_pack.clips.items() if k not in missing}
    return Pack(builtin_pack.directory, "club", "ru", rate or builtin_pack.sample_rate, clips, {})


def test_a_recorded_pack_falls_back_to_the_builtin_clip_with_one_warning(catalogue, builtin_pack, caplog):
    club = recorded_pack_without(builtin_pack, {"seat=7"})
    announcer = Announcer(catalogue, club, fallback=builtin_pack)
    with caplog.at_level(logging.WARNING):
        audio = announcer.compose("killed", {"seat": 7})
        announcer.compose("speech", {"seat": 7, "seconds": 30})
    assert np.array_equal(audio[-len(builtin_pack.clips["seat=7"]) :], builtin_pack.clips["seat=7"])
    warnings = [r.getMessage() for r in caplog.records if "seat=7" in r.getMessage()]
    assert warnings == ["в наборе голоса club нет фразы seat=7: встроенный голос"]


def test_fallback_clips_are_resampled_to_the_packs_rate(catalogue, builtin_pack):
    club = recorded_pack_without(builtin_pack, {"seat=7"}, rate=44100)
    audio = Announcer(catalogue, club, fallback=builtin_pack).compose("call", {"seat": 7})
    assert abs(len(audio) - 2 * len(builtin_pack.clips["seat=7"])) <= 1


def test_no_fallback_is_an_error_naming_the_clip(catalogue, builtin_pack):
    club = recorded_pack_without(builtin_pack, {"seat=7"})
    with pytest.raises(PackError, match=r"voice pack club lacks clip 'seat=7' \('семь'\); no fallback"):
        Announcer(catalogue, club).compose("call", {"seat": 7})
    with pytest.raises(PackError, match="no speaker"):
        Announcer(catalogue, builtin_pack).say("accepted")


# ------------------------------------------------------------ a real output stream


def test_playback_through_a_real_sounddevice_stream(catalogue, builtin_pack):
    speaker = SoundDeviceSpeaker(builtin_pack.sample_rate, time.monotonic)
    try:
        announcer = Announcer(catalogue, builtin_pack, speaker)
        before = time.monotonic()
        playback = announcer.say("vote_question", seat=4)
        assert playback.wait(10)
        assert not playback.stopped
        assert before <= playback.handed_at <= playback.started
        assert playback.started - playback.handed_at <= speaker.latency + 0.05
        assert playback.ended == pytest.approx(playback.started + playback.seconds)
    finally:
        speaker.close()


def test_a_playback_can_be_stopped_at_once_and_replaced(catalogue, builtin_pack):
    speaker = SoundDeviceSpeaker(builtin_pack.sample_rate, time.monotonic)
    try:
        long = Playback(np.ones(builtin_pack.sample_rate * 600, dtype=np.int16), builtin_pack.sample_rate)
        speaker.play(long)
        time.sleep(0.05)
        short = Playback(builtin_pack.clips["accepted#0"], builtin_pack.sample_rate)
        speaker.play(short)  # a new phrase cuts the old one
        assert long.done.is_set() and long.stopped
        assert short.wait(10) and not short.stopped
        third = Playback(np.ones(builtin_pack.sample_rate * 600, dtype=np.int16), builtin_pack.sample_rate)
        speaker.play(third)
        speaker.stop()
        assert third.stopped and third.ended is not None
    finally:
        speaker.close()


def test_say_command_writes_the_exact_audio(tmp_path, capsys, catalogue, builtin_pack):
    out = tmp_path / "x.wav"
    assert main(["say", "vote_count", "seat=5", "count=3", "--to", str(out)]) == 0
    samples, rate = read_wav(out)
    assert rate == builtin_pack.sample_rate
    assert np.array_equal(
        samples, Announcer(catalogue, builtin_pack).compose("vote_count", {"seat": 5, "count": 3})
    )
    assert main(["say", "candidates", "seats=5,8", "--to", str(out)]) == 0
    assert main(["say", "accepted"]) == 0  # plays through the null device


def test_say_text_prints_the_exact_words(capsys):
    assert main(["say", "candidates", "seats=3,5,8", "--text"]) == 0
    assert capsys.readouterr().out == "На голосование выставлены игроки номер три, пять и восемь.\n"
    assert main(["say", "role_sleeps", "role=don", "--text"]) == 0
    assert capsys.readouterr().out == "Дон засыпает.\n"
    assert main(["say", "killed", "seat=99", "--text"]) == 2
    assert "seat=99 cannot be said" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["say", "speach"], "unknown phrase key 'speach'; did you mean speech"),
        (["say", "killed"], "phrase 'killed' needs the slot 'seat'"),
        (["say", "killed", "seat"], "'seat': значения задаются как имя=значение"),
        (["say", "killed", "seat=99"], "seat=99 cannot be said; it can be 1..16"),
        (["say", "accepted", "--pack", "/nonexistent"], "not a voice pack"),
    ],
)
def test_say_command_errors_are_one_line(capsys, args, message):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


# ------------------------------------------------------------ recording a pack


def test_recording_a_pack_keeps_redoes_and_skips(tmp_path, catalogue, builtin_pack):
    answers = iter(["", "", "r", "", "", "k", "s", "q"])  # record, stop, redo; record, stop, keep; skip; quit
    said = []
    take = np.concatenate(
        [np.zeros(4000, np.int16), builtin_pack.clips["accepted#0"], np.zeros(4000, np.int16)]
    )
    write_wav(tmp_path / "take.wav", take, builtin_pack.sample_rate)
    microphone = WavMicrophone(
        tmp_path / "take.wav", time.monotonic, realtime=False, rate=builtin_pack.sample_rate
    )
    speaker = RecordingSpeaker(builtin_pack.sample_rate, VirtualClock())
    lock = threading.Lock()

    def ask(prompt):
        with lock:
            return next(answers)

    kept = record_session(
        tmp_path / "pack",
        catalogue,
        microphone,
        speaker,
        ask,
        said.append,
        only=["accepted#0", "seat=1", "seat=2"],
    )
    assert kept == 1 and len(speaker.played) == 2  # each take was played back
    assert said[0] == "[1/3] accepted#0: «Принято.»"
    samples, rate = read_wav(tmp_path / "pack" / "clips" / "accepted#0.wav")
    assert rate == builtin_pack.sample_rate and len(samples) < len(take)  # trimmed of the silence around
    from voices.pack import inspect_pack

    report, pack = inspect_pack(tmp_path / "pack", catalogue)
    assert list(pack.clips) == ["accepted#0"] and not report.complete


def test_recording_refuses_unknown_clips(tmp_path, catalogue):
    said = []
    assert record_session(tmp_path, catalogue, None, None, input, said.append, only=["nope"]) == 0
    assert said == ["no such clip: nope (see: host-device voices phrases)"]


def test_missing_espeak_names_the_package(monkeypatch, capsys):
    import pyttsx3

    def broken(*args, **kwargs):
        raise OSError("libespeak-ng.so.1: cannot open shared object file")

    monkeypatch.setattr(pyttsx3, "init", broken)
    assert main(["voices", "build", "--to", "/tmp/never-built"]) == 2
    err = capsys.readouterr().err
    assert "sudo apt-get install libespeak-ng1" in err and err.count("\n") == 1


def test_missing_portaudio_names_the_package(monkeypatch):
    import builtins

    from hardware.speaker import AudioDeviceError, import_sounddevice

    real_import = builtins.__import__

    def no_portaudio(name, *args, **kwargs):
        if name == "sounddevice":
            raise OSError("PortAudio library not found")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_portaudio)
    with pytest.raises(AudioDeviceError, match="install the Debian package libportaudio2"):
        import_sounddevice()


def test_a_speaker_that_cannot_open_is_one_clear_error():
    from hardware.speaker import AudioDeviceError

    with pytest.raises(
        AudioDeviceError, match=r"не удалось открыть динамик no-such-device: .*устройства здесь:\n0\tnullsink"
    ):
        SoundDeviceSpeaker(22050, time.monotonic, device="no-such-device")


def test_devices_command_lists_the_null_sink(capsys):
    assert main(["devices"]) == 0
    out = capsys.readouterr().out
    assert "nullsink" in out and "\tout " in out


@pytest.mark.parametrize("kind", ["fifo", "nested", "outside"])
def test_recording_into_a_folder_whose_manifest_is_hostile_is_one_error_never_a_hang(tmp_path, catalogue, kind):
    """`voices record DIR` read DIR/manifest.json unchecked (issue 46): a FIFO hung it, deep nesting
    was a RecursionError, a key naming ../ was taken. It reads the manifest as every pack's is."""
    import os
    import signal

    pack = tmp_path / "pack"
    pack.mkdir()
    manifest = pack / "manifest.json"
    if kind == "fifo":
        os.mkfifo(manifest)
    elif kind == "nested":
        manifest.write_text("[" * 200_000 + "]" * 200_000)
    else:
        manifest.write_text(
            '{"name": "x", "language": "ru", "sample_rate": 22050,'
            ' "clips": {"../../victim": {"file": "clips/../../victim.wav", "text": "x"}}}'
        )
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("hung")))
    signal.alarm(5)
    try:
        with pytest.raises(PackError):
            record_session(pack, catalogue, None, None, input, lambda line: None, only=["accepted#0"])
    finally:
        signal.alarm(0)
