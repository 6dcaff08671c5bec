"""Going on after «Время!», measured on audio (issue 39): the speaker's
recorded voice (espeak-ng's Russian) through the WAV microphone, the real
listener on the stand-in model, the runtime on the virtual clock, the
device's own phrases gated as at the table. Going on 5 s past the time gives
the foul; stopping within the grace gives nothing; a quiet room and the
device's own voice give nothing."""

import queue
import subprocess

import numpy as np
import pytest

from engine import DealRoles, Foul, Game, Phase, Role
from engine.steps import Listen
from hardware.microphone import WavMicrophone, to_rate
from hardware.speaker import Playback
from host_device.base.sound import read_wav, write_wav
from host_device.config import Strictness
from host_device.listening.intents import russian_patterns
from host_device.listening.listener import Gate, Listener, Voice
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.runtime.settings import Settings
from host_device.runtime.timeline import Said

pytestmark = pytest.mark.slow  # seconds of speech decoded by the stand-in model in each

RATE = 16000
LENGTHS = {"time_up": 0.7, "time_over": 1.6}  # about the built-in pack's
SPEECH = (
    "и я вам скажу что третий игрок ведёт себя странно он молчал весь первый круг "
    "а потом выставил пятого без всякой причины и я думаю что это неслучайно"
)


def duration(key, slots):
    return LENGTHS.get(key, 1.5)


@pytest.fixture(scope="module")
def russian_voice(tmp_path_factory):
    """espeak-ng's Russian, 16 kHz: a speaker who goes on and on."""
    wav = tmp_path_factory.mktemp("voice") / "ru.wav"
    subprocess.run(["espeak-ng", "-v", "ru", "-s", "160", "-w", str(wav), SPEECH], check=True)
    samples, rate = read_wav(wav)
    return np.frombuffer(to_rate(samples, rate), dtype="<i2")


def to_time_up(strictness=Strictness.FOUL):
    sched = Scheduler()
    settings = Settings(fouls=strictness, watch_time=True)
    runtime = Runtime(Game("classic"), sched, duration, settings)
    runtime.handle(DealRoles(roles=((3, Role.DON), (5, Role.MAFIA), (8, Role.MAFIA), (6, Role.SHERIFF))))
    while not (runtime.game.phase is Phase.SPEECH and runtime.game.state.speaker == 7):
        sched.run_due(sched.next_time())
    start, length, _ = runtime.timer
    return sched, runtime, start + length  # «Время!» is said then


def run_through(model, tmp_path, audio, strictness=Strictness.FOUL):
    """The game to seat 7's «Время!», then ``audio`` heard from 3 s before it;
    returns the runtime and the Voice times the listener reported."""
    sched, runtime, time_up = to_time_up(strictness)
    base = time_up - 3.0
    gate = Gate()

    def gated(entry):
        if isinstance(entry, Said):
            playback = Playback(np.zeros(1, np.int16), RATE)
            playback.started, playback.ended = entry.t, entry.t + duration(entry.key, {})
            gate.add(playback)

    runtime.recorders.append(gated)
    sched.run_due(base)
    wav = tmp_path / "mic.wav"
    samples = audio.astype("<i2")
    write_wav(wav, samples.astype(np.int16), RATE)
    out: queue.Queue = queue.Queue()
    mic = WavMicrophone(wav, lambda: base, realtime=False)
    listener = Listener(model, mic, russian_patterns(), 10, out, lambda: base, gate=gate, behind_s=None)
    listener.open_window(Listen.SPEECH)
    mic.start()
    voices = []
    while True:
        try:
            block = mic.blocks.get_nowait()
        except queue.Empty:
            break
        sched.run_due(block.at)  # the runtime is where the block's audio is
        listener.feed(block)
        while not out.empty():
            item = out.get_nowait()
            if isinstance(item, Voice):
                voices.append(item.at)
                runtime.discipline.voice(item.at)
    listener.close_window()
    for t in (block.at + 10,):
        while (n := sched.next_time()) is not None and n <= t:
            sched.run_due(n)
    return runtime, voices, time_up


def clip(voice, seconds):
    n = int(seconds * RATE)
    if len(voice) < n:
        voice = np.concatenate([voice] * (n // len(voice) + 1))
    return voice[:n]


def speaking_until(voice, past_time_up, total=12.0):
    """Silence but the speaker's voice from 3 s before «Время!» to ``past_time_up`` after it."""
    talk = clip(voice, 3.0 + past_time_up)
    return np.concatenate([talk, np.zeros(int((total - len(talk) / RATE) * RATE), "<i2")])


def said(runtime, key):
    return [e for e in runtime.timeline.entries if isinstance(e, Said) and e.key == key]


def device_fouls(runtime):
    return [i for i in runtime.game.record if isinstance(i, Foul) and i.by == "device"]


def test_going_on_five_seconds_past_time_gives_time_over_then_the_foul(speech_model, tmp_path, russian_voice):
    runtime, voices, _time_up = run_through(speech_model, tmp_path, speaking_until(russian_voice, 5.0))
    assert voices  # the stand-in hears words in Russian speech
    assert len(said(runtime, "time_over")) == 1
    (foul,) = device_fouls(runtime)
    assert (foul.seat, foul.by, foul.word) == (7, "device", "время")
    assert 60 < foul.speech_s < 70  # past his minute: when he went on (a referee reads it)
    assert runtime.game.state.speaker == 8


def test_stopping_within_the_grace_gives_nothing(speech_model, tmp_path, russian_voice):
    runtime, voices, _time_up = run_through(speech_model, tmp_path, speaking_until(russian_voice, 1.2))
    assert voices and not said(runtime, "time_over") and not device_fouls(runtime)
    assert runtime.game.state.speaker == 8


def test_a_quiet_room_gives_nothing(speech_model, tmp_path):
    runtime, voices, _ = run_through(speech_model, tmp_path, np.zeros(12 * RATE, "<i2"))
    assert voices == [] and not said(runtime, "time_over") and not device_fouls(runtime)
    assert runtime.game.state.speaker == 8


def test_the_devices_own_voice_gives_nothing(speech_model, tmp_path, russian_voice):
    """The room hears only the device: «Время!» (and anything it says after)
    in the microphone at the times it says them; the gate keeps it out."""
    audio = np.zeros(12 * RATE, "<i2")
    at = int(3.0 * RATE)  # «Время!» from 3 s into the audio, as long as the device says it
    audio[at : at + int(LENGTHS["time_up"] * RATE)] = clip(russian_voice, LENGTHS["time_up"])
    runtime, voices, _ = run_through(speech_model, tmp_path, audio)
    assert voices == [] and not said(runtime, "time_over") and not device_fouls(runtime)


def test_warn_says_time_over_and_gives_no_foul(speech_model, tmp_path, russian_voice):
    runtime, _, _ = run_through(speech_model, tmp_path, speaking_until(russian_voice, 5.0), Strictness.WARN)
    assert len(said(runtime, "time_over")) == 1 and not device_fouls(runtime)
