"""The recogniser in its own process (host_device/listening/decoder.py), on the
real stand-in model: the same words as in this process, decoding outside the
caller's interpreter, a killed decoder restarted with the game's listener
going on, one that cannot restart given up once, and a bad model one line."""

import os
import queue
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hardware.microphone import AudioBlock, WavMicrophone
from host_device.base.errors import HostDeviceError
from host_device.listening.decoder import DecoderProcess, DecoderStartError, RecogniserLost, RemoteRecogniser
from host_device.listening.intents import russian_patterns
from host_device.listening.listener import HearingBack, HearingGone, HearingLost, Listener, Transcript
from host_device.listening.speech_model import ModelMissing
from tests.helpers.sound import MIC_RAW, MIC_WAV

pytestmark = pytest.mark.slow  # most of this file's tests are slow (CONTRIBUTING.md)

LAUNCHER = ["bash", "-c", '"$@"; exit $?', "launcher"]  # a shell that forks and waits, as slow-cpu does


@pytest.fixture(scope="module")
def decoder(ko_model_dir):
    process = DecoderProcess(ko_model_dir)
    yield process
    process.close()


def drain(q):
    items = []
    while not q.empty():
        items.append(q.get_nowait())
    return items


def finals_of(model):
    out = queue.Queue()
    mic = WavMicrophone(MIC_WAV, lambda: 0.0, realtime=False)
    listener = Listener(model, mic, russian_patterns(), 10, out, lambda: 0.0, behind_s=None, partials=True)
    listener.open_window()
    mic.start()
    listener.drain()
    listener.close_window()
    return [(e.text, e.final, e.at) for e in drain(out) if isinstance(e, Transcript)]


def test_the_decoder_process_hears_what_the_model_in_this_process_hears(decoder, speech_model):
    """The same utterances at the same times; the words themselves may differ
    by one now and then (the stand-in's decoding of synthetic Korean is not
    bit-for-bit repeatable between two models: seen in CI, «유럽» for «라움»)."""
    remote = [(text, at) for text, final, at in finals_of(decoder) if final]
    local = [(text, at) for text, final, at in finals_of(speech_model) if final]
    assert remote and all(text for text, _ in remote)
    assert [at for _, at in remote] == [at for _, at in local]
    for (mine, _), (theirs, _) in zip(remote, local, strict=True):
        same = sum(a == b for a, b in zip(mine.split(), theirs.split(), strict=False))
        assert same >= len(theirs.split()) / 2, (mine, theirs)
    assert decoder.knows("하나") and not decoder.knows("семь")
    assert decoder.unknown_words(["하나", "семь"]) == ["семь"]


def test_the_decoding_runs_in_another_process_at_a_lower_priority(decoder):
    rec = decoder.recogniser(16000)
    assert isinstance(rec, RemoteRecogniser)
    assert decoder.pid != os.getpid() and decoder.alive()
    assert os.getpriority(os.PRIO_PROCESS, decoder.pid) > os.getpriority(os.PRIO_PROCESS, os.getpid())
    before = os.times()
    child_cpu = _cpu_s(decoder.pid)
    audio = MIC_RAW.read_bytes()
    for offset in range(0, len(audio), 3200):
        rec.AcceptWaveform(audio[offset : offset + 3200])
    rec.FinalResult()
    spent_here = os.times().user - before.user
    assert _cpu_s(decoder.pid) - child_cpu > 4 * max(spent_here, 0.01)  # the decoding is the child's


def _cpu_s(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_the_model_is_loaded_in_the_child_only(ko_model_dir):
    """The parent never imports vosk: the model's memory is counted once."""
    code = (
        "import sys\n"
        "from host_device.listening.decoder import DecoderProcess\n"
        f"d = DecoderProcess(__import__('pathlib').Path({str(ko_model_dir)!r}))\n"
        "assert d.knows('하나')\n"
        "print('vosk' in sys.modules, d.rss_mb() > 50)\n"
        "d.close()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["False", "True"], done.stderr


def test_a_decoder_started_through_a_launcher_is_measured_as_itself(ko_model_dir):
    """bench/listen_latency.py starts the decoder under a CPU quota of its own (slow-cpu, a bash
    script that stays the parent): the pid, the memory and the priority are the decoder's, not
    the launcher's."""
    process = DecoderProcess(ko_model_dir, launcher=LAUNCHER)
    try:
        assert process.knows("하나")
        assert process.pid != process._proc.pid
        assert b"host_device.listening.decoder" in Path(f"/proc/{process.pid}/cmdline").read_bytes()
        assert process.rss_mb() > 50  # the model's, not a shell's few megabytes
        assert os.getpriority(os.PRIO_PROCESS, process.pid) > os.getpriority(os.PRIO_PROCESS, os.getpid())
    finally:
        process.close()
    assert process.pid is None


class Feed:
    """A microphone the test puts blocks on."""

    rate = 16000

    def __init__(self):
        self.blocks = queue.Queue()

    def start(self): ...

    def stop(self): ...


def wait_for(out, kind, events, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            item = out.get(timeout=0.1)
        except queue.Empty:
            continue
        events.append(item)
        if isinstance(item, kind):
            return item
    raise AssertionError(f"no {kind.__name__} within {timeout} s; got {events}")


def put_speech(feed, at):
    audio = MIC_RAW.read_bytes()
    for index, offset in enumerate(range(0, len(audio), 3200)):
        feed.blocks.put(AudioBlock(audio[offset : offset + 3200], at + index * 0.1, index))


def test_a_killed_decoder_is_restarted_and_the_window_hears_again(ko_model_dir):
    process = DecoderProcess(ko_model_dir)
    out, feed, events = queue.Queue(), Feed(), []
    listener = Listener(process, feed, russian_patterns(), 10, out, time.monotonic, behind_s=None)
    listener.open_window()
    listener.start()
    try:
        put_speech(feed, time.monotonic())
        wait_for(out, Transcript, events)  # heard before the kill
        first = process.pid
        os.kill(first, signal.SIGKILL)
        put_speech(feed, time.monotonic())  # the next call finds the decoder gone
        lost = wait_for(out, HearingLost, events)
        back = wait_for(out, HearingBack, events)
        assert process.pid != first and process.alive() and process.starts == 2
        assert back.at >= lost.at
        put_speech(feed, time.monotonic())
        heard = wait_for(out, Transcript, events)
        assert heard.text
    finally:
        listener.close_window()
        listener.stop()
        process.close()
    assert sum(isinstance(e, HearingLost) for e in events) == 1
    assert not any(isinstance(e, HearingGone) for e in events)


def test_a_decoder_that_cannot_start_again_is_given_up_once(ko_model_dir, monkeypatch):
    process = DecoderProcess(ko_model_dir)
    out, feed, events = queue.Queue(), Feed(), []
    listener = Listener(process, feed, russian_patterns(), 10, out, time.monotonic, behind_s=None)
    monkeypatch.setattr("host_device.listening.listener.RESTART_WAIT_S", 0.01)
    tries = []

    def refuse():
        tries.append(1)
        raise DecoderStartError("no memory for the model")

    listener.open_window()
    listener.start()
    try:
        process.close()  # the decoder is gone ...
        monkeypatch.setattr(process, "restart", refuse)  # ... and cannot come back
        put_speech(feed, time.monotonic())
        gone = wait_for(out, HearingGone, events, timeout=20)
        assert "no memory for the model" in gone.reason
        listener._thread.join(timeout=5)
        assert not listener._thread.is_alive()  # the listener stopped; the game goes on without it
    finally:
        listener.stop()
    assert len(tries) == 3
    assert [type(e) for e in events] == [HearingLost, HearingGone]


def test_a_call_to_a_closed_decoder_is_recogniser_lost(ko_model_dir):
    process = DecoderProcess(ko_model_dir)
    rec = process.recogniser()
    os.kill(process.pid, signal.SIGKILL)
    with pytest.raises(RecogniserLost, match="завершился"):
        rec.AcceptWaveform(b"\0\0" * 1600)
    process.close()


def test_a_model_that_does_not_load_is_one_line_from_the_child(tmp_path):
    for part in ("am/final.mdl", "conf/model.conf"):
        (tmp_path / part).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / part).write_text("not a model")
    with pytest.raises(ModelMissing) as caught:
        DecoderProcess(tmp_path)
    assert str(tmp_path) in str(caught.value) and "\n" not in str(caught.value)


def test_a_missing_model_is_named_before_any_process(tmp_path, monkeypatch):
    started = []
    monkeypatch.setattr("subprocess.Popen", lambda *a, **k: started.append(a))
    with pytest.raises(ModelMissing, match="model install"):
        DecoderProcess(tmp_path / "none")
    assert started == []


def test_a_decoder_that_dies_again_and_again_is_given_up(ko_model_dir, monkeypatch):
    """It starts every time, and is lost at once every time: after RESTART_TRIES
    restarts the loop ends with one HearingGone, not an announcement a block."""
    process = DecoderProcess(ko_model_dir)
    out, feed, events = queue.Queue(), Feed(), []
    listener = Listener(process, feed, russian_patterns(), 10, out, time.monotonic, behind_s=None)
    restarts = []

    class Dying:  # the recogniser of a child that starts, then dies on its first block
        def AcceptWaveform(self, samples):
            raise RecogniserLost("the decoding process ended (exit -11)")

        def FinalResult(self):
            raise RecogniserLost("the decoding process ended (exit -11)")

        Reset = FinalResult

    listener.open_window()
    listener.start()
    try:
        process.close()
        monkeypatch.setattr(process, "restart", lambda: restarts.append(1))
        monkeypatch.setattr(process, "recogniser", lambda *a, **k: Dying())
        deadline, gone = time.monotonic() + 30, None
        while gone is None and time.monotonic() < deadline:  # the table goes on talking
            feed.blocks.put(AudioBlock(b"\0\0" * 1600, time.monotonic(), 0))
            try:
                item = out.get(timeout=0.05)
            except queue.Empty:
                continue
            events.append(item)
            gone = item if isinstance(item, HearingGone) else None
        assert gone is not None, events
        assert "lost 4 times" in gone.reason
    finally:
        listener.close_window()  # a note the dead thread never takes ...
        listener.stop()  # ... carried out here: never raises, though the decoder is gone
    assert sum(isinstance(e, HearingLost) for e in events) == 3 and len(restarts) == 3


@pytest.mark.parametrize("launcher", [[], LAUNCHER], ids=["direct", "launcher"])
def test_a_decoder_that_does_not_answer_is_lost_and_ended(ko_model_dir, monkeypatch, launcher):
    """A stopped (or hung) child: the call gives up after CALL_TIMEOUT_S, the child is killed —
    under a launcher too (killing the launcher alone left the hung decoder and its model)."""
    process = DecoderProcess(ko_model_dir, launcher=launcher)
    rec = process.recogniser()
    monkeypatch.setattr("host_device.listening.decoder.CALL_TIMEOUT_S", 0.5)
    pid = process.pid
    os.kill(pid, signal.SIGSTOP)
    started = time.monotonic()
    with pytest.raises(RecogniserLost, match="не ответил"):
        rec.AcceptWaveform(b"\0\0" * 1600)
    assert time.monotonic() - started < 5
    assert not process.alive() and process.pid is None
    assert _ended(pid)


def _ended(pid, within_s=5.0):
    """Gone, or a zombie waiting for whoever reaps it (a launcher's child is reparented)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


def test_a_decoder_that_starts_with_a_wrong_word_is_a_start_error_and_ended(tmp_path, ko_model_dir):
    """A child that says something else than «ready» and its pid: one start error, nothing left."""
    fake = tmp_path / "fake.py"
    fake.write_text(
        "import os, struct, sys, time\n"
        "open(sys.argv[1], 'w').write(str(os.getpid()))\n"
        "sys.stdout.buffer.write(struct.pack('<cII', b'o', 0, 5) + b'ready'); sys.stdout.flush()\n"
        "time.sleep(60)\n"
    )
    pidfile = tmp_path / "pid"
    launcher = ["bash", "-c", f'"{sys.executable}" {fake} {pidfile}; exit $?', "launcher"]
    with pytest.raises(DecoderStartError, match="при запуске ответил b.ready."):
        DecoderProcess(ko_model_dir, launcher=launcher)
    assert _ended(int(pidfile.read_text()))


def test_a_listener_frees_its_recogniser_in_the_decoder(decoder):
    listener = Listener(decoder, Feed(), russian_patterns(), 10, queue.Queue(), time.monotonic, behind_s=None)
    listener.open_window()
    rec = listener._rec
    assert rec.AcceptWaveform(b"\0\0" * 1600) in (True, False)
    listener.stop()
    with pytest.raises(HostDeviceError, match="KeyError"):  # the decoder no longer has it
        rec.AcceptWaveform(b"\0\0" * 1600)
