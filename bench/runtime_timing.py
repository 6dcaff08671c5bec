"""Benchmark of the runtime on the real clock, printing one JSON object:

- timer precision: over 20 shortened (1 s) speeches, how late «Время!» starts
  against the ideal moment (median, max; target under 20 ms);
- press to LED: a voter's press, put on the runtime's inbox by another thread
  (as the panel's callbacks do), to the voter's LED being set (median, max;
  target under 30 ms).

    .venv/bin/python bench/runtime_timing.py
"""

from __future__ import annotations

import dataclasses
import json
import queue
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def measure(wire: Any = None, speeches: int = 20) -> dict[str, Any]:
    """A day of 1-second speeches on the real clock. ``wire(runtime, inbox)``
    may attach more to it (the listener: bench/listen_latency.py) and returns
    what to call when the day is over."""
    from engine import CLASSIC, DealRoles, Game, Phase, Role
    from host_device.listening.intents import Intent
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime
    from host_device.runtime.settings import Settings
    from host_device.runtime.timeline import LedSet, Said

    preset = dataclasses.replace(
        CLASSIC,
        name="short",
        speech_seconds=1,
        tie_speech_seconds=1,
        last_word_seconds=1,
        agreement_seconds=1,
    )
    settings = Settings(vote_window_s=1.5, call_s=0.05, meet_s=0.1, answer_s=0.1, gap_s=0.05)
    sched = Scheduler()
    runtime = Runtime(Game(preset), sched, lambda key, slots: 0.15, settings)
    inbox: queue.Queue[Any] = queue.Queue()
    late_ms: list[float] = []
    led_ms: list[float] = []
    pending: dict[int, float] = {}
    origin = {"wall": 0.0, "virt": 0.0}  # where the real clock starts: set as run_real begins

    def on_record(entry: Any) -> None:
        if isinstance(entry, Said) and entry.key == "time_up" and runtime.game.phase is Phase.SPEECH:
            ideal = origin["wall"] + (entry.t - origin["virt"])
            late_ms.append((time.monotonic() - ideal) * 1000)
        if isinstance(entry, LedSet) and entry.pattern == "on" and entry.seat in pending:
            led_ms.append((time.monotonic() - pending.pop(entry.seat)) * 1000)

    def on_step(rt: Runtime) -> None:
        s = rt.game.state
        if s.phase is Phase.SPEECH and s.speaker in (1, 2) and s.day == 1:
            target = 4 if s.speaker == 1 else 9
            rt.sched.after(0.2, lambda: rt.heard(Intent("nominate", seat=target)))
        if s.phase is Phase.VOTE and rt.window is not None:
            voters = [v for v in s.alive() if v not in (s.vote_round.ballots if s.vote_round else {})][:4]

            def press_all() -> None:
                for v in voters:
                    time.sleep(0.1)
                    now = time.monotonic()
                    pending[v] = now
                    inbox.put(v)

            threading.Timer(0.2, press_all).start()
        if len(late_ms) >= speeches:
            rt.stop()

    runtime.recorders.append(on_record)
    runtime.step_hooks.append(on_step)
    done = wire(runtime, inbox) if wire is not None else None
    runtime.handle(DealRoles(roles=((3, Role.DON), (5, Role.MAFIA), (8, Role.MAFIA), (6, Role.SHERIFF))))

    def on_input(item: Any) -> None:
        if isinstance(item, int):
            runtime.press(item)  # a seat's press; the rest (the listener's intents) is not timed here

    # the origin is taken here, not before wire(): what wire() sets up (reading a WAV for the
    # microphone, starting a decoder) happens before the game's clock starts, and is not lateness
    origin.update(wall=time.monotonic(), virt=sched.now)
    sched.run_real(inbox=inbox, on_input=on_input, stop=lambda: len(late_ms) >= speeches)
    if done is not None:
        done()

    def summary(values: list[float]) -> dict[str, float]:
        return {
            "median_ms": round(statistics.median(values), 3),
            "max_ms": round(max(values), 3),
            "n": len(values),
        }

    return {"time_up_late": summary(late_ms), "press_to_led": summary(led_ms) if led_ms else None}


def main() -> None:
    print(json.dumps({"benchmark": "runtime_timing", **measure()}))


if __name__ == "__main__":
    main()
