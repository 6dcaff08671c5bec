"""Benchmark: from a pin edge to the event on the runtime's queue, on gpiozero's
mock pins, over 1,000 presses (including rounds of 12 seats pressing within the
same millisecond: none lost, none doubled); and the CPU the capture path uses
per second of audio.

    .venv/bin/python bench/panel_latency.py [--presses 1000] [--null-device]

Prints one JSON object. With --null-device the capture reads an ALSA file
device (a private HOME with an .asoundrc), which delivers audio faster than
real time: CPU per second of audio is measured from the process's CPU time
and the audio actually captured.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def null_device_home() -> None:
    import numpy as np

    home = Path(tempfile.mkdtemp(prefix="bench-home-"))
    raw = home / "mic.raw"
    t = np.arange(16000 * 60) / 16000
    raw.write_bytes((np.sin(2 * np.pi * 300 * t) * 5000).astype("<i2").tobytes())
    (home / ".asoundrc").write_text(
        "pcm.nullsink { type null }\n"
        f'pcm.micfile {{ type file slave.pcm "nullsink" file "/dev/null" infile "{raw}" format "raw" }}\n'
        'pcm.!default { type asym playback.pcm "plug:nullsink" capture.pcm "micfile" }\n'
    )
    os.environ["HOME"] = str(home)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def edge_to_queue(presses: int) -> dict[str, object]:
    from hardware.gpio_panel import GpioPanel, mock_pin_factory
    from hardware.pinmap import default_pinmap

    panel = GpioPanel(default_pinmap(12), time.perf_counter, pin_factory=mock_pin_factory())
    latencies: list[float] = []
    lost = doubled = 0
    single = presses // 2
    # single presses: edge time -> the event's arrival on the queue
    for i in range(single):
        seat = 1 + i % 12
        pin = panel.buttons[seat].pin
        t0 = time.perf_counter()
        pin.drive_low()
        event = panel.events.get(timeout=1)
        latencies.append((time.perf_counter() - t0) * 1e6)
        assert event.key == seat
        pin.drive_high()
        time.sleep(0.031)  # past the debounce time before the seat's next press
    # rounds of 12 seats pressing at once, each from its own thread
    rounds = -(-(presses - single) // 12)  # at least the presses asked for
    for _ in range(rounds):
        barrier = threading.Barrier(12)
        stamps: dict[int, float] = {}

        def press(seat: int, barrier: threading.Barrier = barrier, stamps: dict[int, float] = stamps) -> None:
            barrier.wait()
            stamps[seat] = time.perf_counter()
            panel.buttons[seat].pin.drive_low()

        threads = [threading.Thread(target=press, args=(s,)) for s in range(1, 13)]
        for t in threads:
            t.start()
        got: dict[int, int] = {}
        deadline = time.perf_counter() + 2
        while sum(got.values()) < 12 and time.perf_counter() < deadline:
            try:
                event = panel.events.get(timeout=0.1)
            except queue.Empty:
                continue
            got[event.key] = got.get(event.key, 0) + 1
            latencies.append((time.perf_counter() - stamps[event.key]) * 1e6)
        for t in threads:
            t.join()
        time.sleep(0.01)
        while not panel.events.empty():  # anything late would be a double
            event = panel.events.get_nowait()
            got[event.key] = got.get(event.key, 0) + 1
        lost += sum(1 for s in range(1, 13) if s not in got)
        doubled += sum(n - 1 for n in got.values() if n > 1)
        for s in range(1, 13):
            panel.buttons[s].pin.drive_high()
        time.sleep(0.031)
    panel.close()
    return {
        "presses": single + 12 * rounds,
        "simultaneous_rounds_of_12": rounds,
        "lost": lost,
        "doubled": doubled,
        "edge_to_queue_us": {
            "median": round(statistics.median(latencies), 1),
            "p99": round(pct(latencies, 0.99), 1),
            "max": round(max(latencies), 1),
        },
    }


def capture_cpu(seconds: float) -> dict[str, object]:
    from hardware.microphone import SoundDeviceMicrophone

    mic = SoundDeviceMicrophone(time.monotonic, max_blocks=100_000)
    audio = 0
    cpu0 = time.process_time()
    mic.start()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(queue.Empty):
            audio += len(mic.blocks.get(timeout=0.1).samples)
    mic.stop()
    cpu = time.process_time() - cpu0
    audio_s = audio / 2 / 16000
    return {
        "audio_seconds": round(audio_s, 1),
        "cpu_seconds": round(cpu, 3),
        "cpu_ms_per_audio_second": round(1000 * cpu / audio_s, 3) if audio_s else None,
        "overflows": mic.overflows,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--presses", type=int, default=1000)
    parser.add_argument("--capture-seconds", type=float, default=2.0)
    parser.add_argument("--null-device", action="store_true")
    args = parser.parse_args()
    if args.null_device:
        null_device_home()
    result = {
        "benchmark": "panel_latency",
        **edge_to_queue(args.presses),
        "capture": capture_cpu(args.capture_seconds),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
