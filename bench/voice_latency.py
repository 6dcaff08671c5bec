"""Benchmark: from the runtime's call to the first audio frame handed to the
output stream, for a voice-pack phrase and for live synthesis of the same
text (pyttsx3 with espeak-ng; RHVoice where it is found: the system's,
HOST_DEVICE_RHVOICE's or the tests' copy in .cache/rhvoice/ARCH), side by side
in one run; and the time to build the whole (espeak-ng) pack.

    .venv/bin/python bench/voice_latency.py [--calls 200] [--null-device]

--null-device plays into an ALSA null sink (a private HOME with an .asoundrc),
for machines without a sound card. Such a sink asks for audio faster than
real time, so its callback wait is shorter than on a real card; the pack
path's own cost (composition) is what this machine measures truly. Prints
one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def null_device_home() -> None:
    home = Path(tempfile.mkdtemp(prefix="bench-home-"))
    config = 'pcm.nullsink { type null }\npcm.!default { type plug slave.pcm "nullsink" }\n'
    (home / ".asoundrc").write_text(config)
    os.environ["HOME"] = str(home)
    os.environ.setdefault("HOST_DEVICE_DATA", str(home / "data"))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(ms: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(statistics.median(ms), 3),
        "p99_ms": round(percentile(ms, 0.99), 3),
        "min_ms": round(min(ms), 3),
        "max_ms": round(max(ms), 3),
    }


def rhvoice_synthesiser() -> Any:
    """RHVoice's default voice, warmed up (its first phrase loads the voice), or None."""
    import subprocess

    from voices import rhvoice

    if rhvoice.ENV not in os.environ and rhvoice.find() is None:
        arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
        if (ROOT / ".cache" / "rhvoice" / arch / ".debs").is_file():
            os.environ[rhvoice.ENV] = str(ROOT / ".cache" / "rhvoice" / arch)
    home = rhvoice.find()
    if home is None:
        return None
    synth = rhvoice.RHVoiceSynthesiser(rhvoice.DEFAULT_VOICE, home)
    synth.render("Проверка.")
    return synth


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--null-device", action="store_true")
    args = parser.parse_args()
    if args.null_device:
        null_device_home()

    from hardware.speaker import Playback, SoundDeviceSpeaker
    from host_device.sound.announcer import Announcer
    from voices.audio import resample
    from voices.catalogue import russian
    from voices.pack import build_builtin, load_pack
    from voices.render import DEFAULT_RATE, DEFAULT_VOICE, Synthesiser

    catalogue = russian()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        report = build_builtin(Path(tmp) / "pack", catalogue, DEFAULT_VOICE, DEFAULT_RATE)
        build_seconds = time.perf_counter() - started
        pack = load_pack(Path(tmp) / "pack", catalogue)

    speaker = SoundDeviceSpeaker(pack.sample_rate, time.perf_counter)
    announcer = Announcer(catalogue, pack, speaker)
    synth = Synthesiser()
    rhvoice = rhvoice_synthesiser()
    requests = [("speech", {"seat": 1 + i % 10, "seconds": 60}) for i in range(args.calls)]

    def wait_handed(playback: Playback, t0: float) -> float:
        while playback.handed_at is None:
            time.sleep(0.0001)
        speaker.stop()
        return (playback.handed_at - t0) * 1000

    pack_ms, live_ms, rhvoice_ms = [], [], []
    for key, slots in requests:  # interleaved, so every path sees the same machine noise
        announcer._cache.clear()  # every call composes from clips: no help from the cache
        t0 = time.perf_counter()
        pack_ms.append(wait_handed(announcer.say(key, **slots), t0))
        t0 = time.perf_counter()
        samples, rate = synth.render(catalogue.text(key, slots))
        playback = Playback(samples, rate)
        speaker.play(playback)
        live_ms.append(wait_handed(playback, t0))
        if rhvoice is not None:  # its 24 kHz resampled to the stream's rate, as a pack's clips are
            t0 = time.perf_counter()
            samples, rate = rhvoice.render(catalogue.text(key, slots))
            playback = Playback(resample(samples, rate, pack.sample_rate), pack.sample_rate)
            speaker.play(playback)
            rhvoice_ms.append(wait_handed(playback, t0))
    speaker.close()
    synth.close()
    if rhvoice is not None:
        rhvoice.close()

    result = {
        "benchmark": "voice_latency",
        "calls": args.calls,
        "device": "alsa-null" if args.null_device else "default",
        "stream_latency_ms": round(speaker.latency * 1000, 3),
        "callback_block_frames": speaker.BLOCK,
        "pack": summary(pack_ms),
        "live_pyttsx3": summary(live_ms),
        "ratio_live_over_pack_median": round(statistics.median(live_ms) / statistics.median(pack_ms), 1),
        "live_rhvoice": summary(rhvoice_ms) if rhvoice_ms else "RHVoice not found",
        "pack_build": {"clips": len(report.rendered), "seconds": round(build_seconds, 2)},
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
