"""The microphone: the real sounddevice path through an ALSA file device (the
WAV goes in, the same bytes come out on the queue), overflow, a lost stream,
the doubles, and the backends' factory."""

import contextlib
import itertools
import queue
import time

import numpy as np
import pytest

from hardware.events import MicrophoneLost
from hardware.factory import BackendError, make_audio, make_panel
from hardware.microphone import NullMicrophone, SoundDeviceMicrophone, WavMicrophone, take, to_rate
from hardware.pinmap import default_pinmap
from hardware.speaker import AudioDeviceError, RecordingSpeaker
from tests.helpers.sound import MIC_RAW, MIC_WAV


def collect(mic, nbytes, timeout=10):
    data = []
    deadline = time.monotonic() + timeout
    while sum(len(b.samples) for b in data) < nbytes and time.monotonic() < deadline:
        with contextlib.suppress(queue.Empty):
            data.append(mic.blocks.get(timeout=0.1))
    return data


def test_a_wav_through_the_real_input_stream_arrives_byte_exact():
    expected = MIC_RAW.read_bytes()
    mic = SoundDeviceMicrophone(time.monotonic, max_blocks=10_000)
    mic.start()
    try:
        blocks = collect(mic, len(expected))
    finally:
        mic.stop()
    got = b"".join(b.samples for b in blocks)
    assert got[: len(expected)] == expected
    assert [b.index for b in blocks] == list(range(len(blocks)))  # none dropped
    assert all(len(b.samples) == 2 * 1600 for b in blocks)  # 0.1 s blocks at 16 kHz
    assert all(a.at <= b.at for a, b in itertools.pairwise(blocks))


def test_a_full_queue_counts_overflows_instead_of_blocking():
    mic = SoundDeviceMicrophone(time.monotonic, max_blocks=2)  # the file device runs faster than real time
    mic.start()
    time.sleep(0.3)
    mic.stop()
    assert mic.blocks.qsize() == 2 and mic.overflows > 0


def test_a_microphone_that_stops_by_itself_is_reported_once():
    events = queue.Queue()
    mic = SoundDeviceMicrophone(time.monotonic, events)
    mic.start()
    mic._stream.abort()  # as if the USB microphone were pulled out
    deadline = time.monotonic() + 5
    while events.empty() and time.monotonic() < deadline:
        mic.poll()
        time.sleep(0.01)
    mic.poll()
    lost = [events.get_nowait() for _ in range(events.qsize())]
    assert len(lost) == 1 and isinstance(lost[0], MicrophoneLost)
    mic.stop()


def test_poll_notices_a_silently_dead_stream():
    events = queue.Queue()
    mic = SoundDeviceMicrophone(time.monotonic, events)

    class Dead:
        active = False

    mic._stream = Dead()
    mic.poll()
    mic.poll()
    assert [type(e) for e in [events.get_nowait() for _ in range(events.qsize())]] == [MicrophoneLost]


def test_a_missing_microphone_names_it_and_lists_the_devices():
    mic = SoundDeviceMicrophone(time.monotonic, device="USB PnP Sound Device")
    with pytest.raises(
        AudioDeviceError,
        match=r"не удалось открыть микрофон USB PnP Sound Device: .*устройства здесь:\n0\tnullsink",
    ):
        mic.start()


def test_block_length_is_checked():
    with pytest.raises(ValueError, match=r"0\.1 to 0\.25 s"):
        SoundDeviceMicrophone(time.monotonic, block_s=1)


def test_the_wav_double_as_fast_as_possible():
    mic = WavMicrophone(MIC_WAV, lambda: 100.0, realtime=False)
    mic.start()
    blocks = [mic.blocks.get_nowait() for _ in range(mic.blocks.qsize())]
    assert b"".join(b.samples for b in blocks) == MIC_RAW.read_bytes()
    assert [b.at for b in blocks[:3]] == [100.0, 100.1, 100.2]
    assert mic.done.is_set()


def test_the_wav_double_in_real_time():
    mic = WavMicrophone(MIC_WAV, time.monotonic, realtime=True, block_s=0.25)
    seconds = len(MIC_RAW.read_bytes()) / 2 / 16000
    started = time.monotonic()
    mic.start()
    assert mic.done.wait(30)
    assert time.monotonic() - started >= seconds - 0.3  # the audio takes as long as it lasts
    mic.stop()
    assert mic.blocks.qsize() == -(-len(MIC_RAW.read_bytes()) // (2 * 4000))


def test_take_records_until_stopped():
    import threading

    stop = threading.Event()
    stop.set()
    samples, rate = take(WavMicrophone(MIC_WAV, time.monotonic, realtime=False), stop, 5)
    assert rate == 16000 and len(samples) == len(MIC_RAW.read_bytes()) // 2


def test_resampling_to_sixteen_khz():
    x = np.zeros(44100, dtype=np.int16)
    assert len(to_rate(x, 44100)) == 2 * 16000
    assert to_rate(np.arange(4, dtype=np.int16), 16000) == np.arange(4, dtype="<i2").tobytes()


# ------------------------------------------------------------ the factory


def test_backends_by_setting():
    events = queue.Queue()
    mic, speaker = make_audio("null", time.monotonic, events, 22050)
    assert isinstance(mic, NullMicrophone) and isinstance(speaker, RecordingSpeaker) and not speaker.keep
    mic, speaker = make_audio("file", time.monotonic, events, 22050, wav=MIC_WAV)
    assert isinstance(mic, WavMicrophone) and speaker.keep
    mic, speaker = make_audio("device", time.monotonic, events, 22050)
    assert isinstance(mic, SoundDeviceMicrophone)
    speaker.close()
    panel = make_panel("mock", default_pinmap(10), time.monotonic, events)
    assert panel.seats == 10 and panel.events is events
    panel.close()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: make_audio("file", time.monotonic, queue.Queue(), 22050), "--audio file — только с --wav"),
        (
            lambda: make_audio("radio", time.monotonic, queue.Queue(), 22050),
            "--audio radio: нет такого звука",
        ),
        (
            lambda: make_panel("touch", default_pinmap(10), time.monotonic, queue.Queue()),
            "--panel touch: нет такого пульта",
        ),
    ],
)
def test_unknown_backends(call, message):
    with pytest.raises(BackendError, match=message):
        call()
